/**
 * The shapes every renderer shares: what a client forwards of one tool, the renderer interface, the names,
 * and why the `typescript` reader sees `any`.
 */

/** The readers toolslim renders for (docs/render.md says who reads each). */
export type RendererName = 'json' | 'json-spaced' | 'json-indent4' | 'typescript';

/** Every renderer name, in the order docs and reports list them. */
export const RENDERER_NAMES: readonly RendererName[] = Object.freeze(['json', 'json-spaced', 'json-indent4', 'typescript'] as const);

/** What a client forwards of one tool (not `outputSchema`, `annotations`, `_meta`, `icons`). */
export interface ForwardedTool {
  /** The tool's name, written as it is. */
  readonly name: string;
  /** Absent: no description comment (`typescript`) or key (JSON readers). */
  readonly description?: string;
  /** The parameters schema (`parameters` in the OpenAI-style object); absent: `() => any` in `typescript`. */
  readonly inputSchema?: unknown;
}

/** One reader's view of tools: the text its model reads. */
export interface Renderer {
  /** The name {@link RENDERER_NAMES} lists it under. */
  readonly name: RendererName;
  /**
   * One tool's text as its reader sees it (`typescript`: the tool's comment lines and its
   * `type name = (…) => any;` block; JSON readers: the tool's JSON text).
   */
  renderTool(tool: ForwardedTool): string;
  /**
   * The whole tools section (`typescript`: harmony's `## functions\n\nnamespace functions {…} // namespace functions`;
   * JSON readers: the tools joined as their chat templates join them). An empty list renders as `''`.
   */
  renderTools(tools: readonly ForwardedTool[]): string;
}

/** Error codes of {@link RenderError}. */
export type RenderErrorCode = 'unknown-renderer';

/** Thrown for a renderer name that does not exist; the message lists the valid names. */
export class RenderError extends Error {
  /** What went wrong, for code to test. */
  readonly code: RenderErrorCode;

  constructor(code: RenderErrorCode, message: string) {
    super(message);
    this.name = 'RenderError';
    this.code = code;
  }
}

/**
 * Why the `typescript` reader renders `any` (or a type that hides the shape) where a parameter's schema
 * says more. The harmony rules look only at `oneOf`, `type`, `properties`, `required`, `items`, `enum`
 * (under `type: "string"`), `nullable` and the comment keywords; a schema without a `type` is `any`.
 *
 * - `ref`, `anyOf`, `allOf`, `const`: a schema without `type` holding that keyword (first match in this order).
 * - `enum`: a string `enum` without `type`; `number-enum`: an `enum` holding a non-string, without `type`.
 * - `no-type`: any other schema without `type` (also `{}`, `true`, `false` and non-object schemas).
 * - `unknown-type`: `type` is a string other than object/string/number/integer/boolean/array (e.g. `"null"`).
 * - `nullable-object`: `type` is an array holding `"object"`: harmony writes the word `object` (e.g.
 *   `object | null`), so the properties are not shown.
 * - `nullable-array`: `type` is an array holding `"array"`: written `array`, its `items` not shown.
 * - `too-deep`: nested deeper than {@link MAX_TYPESCRIPT_DEPTH} JSON levels (harmony parses parameters with
 *   serde_json, which refuses input nested deeper than 128); rendered `any` here.
 * - `cycle`: the schema object contains itself (a JS object graph, never parsed JSON); rendered `any`.
 * - `unreadable`: reading the schema threw (a throwing getter or Proxy); rendered `any`.
 */
export type AnyReason =
  | 'ref'
  | 'anyOf'
  | 'allOf'
  | 'const'
  | 'enum'
  | 'number-enum'
  | 'no-type'
  | 'unknown-type'
  | 'nullable-object'
  | 'nullable-array'
  | 'too-deep'
  | 'cycle'
  | 'unreadable';

/** One place where the `typescript` reader cannot see a parameter's type. */
export interface AnyType {
  /** RFC 6901 pointer inside `inputSchema` (`''` for the root). */
  readonly path: string;
  /** Why that reader cannot see the type (see {@link AnyReason}). */
  readonly reason: AnyReason;
}

/** JSON nesting levels (inside `inputSchema`) past which the `typescript` renderer writes `any`. */
export const MAX_TYPESCRIPT_DEPTH = 128;
