import type { Dialect } from '../schema/keywords.js';
import type { SchemaDocument, UnknownDialectDocument } from './documents.js';
import type { McpTool, SchemaSlot } from './tool.js';
import type { EditContext } from './context.js';
import type { Safety } from './report.js';
import type { RunOptions, ToolsInput, TransformResult } from './run-types.js';

/** What a transform sees of one tool. */
export interface ToolDoc<S = unknown> {
  /** The tool as it was when this transform started on it. Read it; never change it (edit through `ctx`). */
  readonly tool: McpTool;
  readonly index: number;
  /** The tool's name, or `""`. */
  readonly name: string;
  /** What `prepare` computed from the whole list, if the transform has one. */
  readonly state: S;
  /**
   * The tool's object schemas in the slots the transform's `slots` option names (both when it has none),
   * each read in its declared dialect or the transform's `assume` option (MCP's 2020-12 when it has none),
   * with its keyword table and `$ref` index. Computed by the engine on first use and shared by every step
   * that reads the same version of the tool; a transform never re-derives them.
   */
  readonly documents: readonly SchemaDocument[];
  /** Slots of those whose `$schema` names a meta-schema toolslim does not know (not in `documents`). */
  readonly unknownDialects: readonly UnknownDialectDocument[];
  /**
   * Which kinds of key some object anywhere in the tool (schema or data) may have, as the engine knows from
   * its input check and the edits of the steps before: `false` means certainly none, so a transform that
   * only acts on such keys can pass the tool over without walking it; `true` is only "maybe".
   */
  readonly mayHold: KeyKinds;
}

/** See {@link ToolDoc.mayHold}. */
export interface KeyKinds {
  /** A reference keyword (`$ref`, `$dynamicRef`, `$recursiveRef`). */
  readonly referenceKeys: boolean;
  /** An extension keyword (`x-…`). */
  readonly extensionKeys: boolean;
}

/**
 * Every kind of key maybe there: what a tool the engine knows nothing about may hold.
 * @internal
 */
export const ANY_KEYS: KeyKinds = Object.freeze({ referenceKeys: true, extensionKeys: true });

/** One part of a large transform (see {@link TransformSpec.parts}). */
export interface TransformPart {
  /** kebab-case: the part's module and its fixtures folder. */
  readonly id: string;
  /** The boolean option that turns this part on or off, when it has one. */
  readonly option?: string;
}

/** Options the engine understands for every transform that declares them in its `defaultOptions`, and checks once. */
export interface CommonOptions {
  /** Which schemas of each tool to rewrite (default both). */
  readonly slots?: readonly SchemaSlot[];
  /** The dialect of a schema without `$schema` (default 2020-12, as MCP specifies). */
  readonly assume?: Dialect;
}

/** Extra outputs a transform can hand back once the whole list is done. */
export interface TransformExtras {
  /** Text for the server's `instructions` (see promote-common-params). */
  readonly instructions?: string;
}

/** The definition of a transform, as written in its module. */
export interface TransformSpec<O extends object, S = undefined> {
  /** kebab-case verb-object; also the file, fixture folder, docs page and CLI flag. */
  readonly name: string;
  readonly description: string;
  readonly safety: Safety;
  /**
   * The safety of a run with these (resolved) options, when an option can make the rewrite less safe than
   * `safety` says (an opt-in that changes verdicts makes it `lossy`); the gate holds each step to it.
   */
  readonly safetyWith?: (options: Readonly<O>) => Safety;
  /**
   * The safety of one tool's rewrite when it differs from the step's (`safetyWith`/`safety`): a step that is
   * lossy only for some tools (adapt-to-client's rename-tools) says so here, so the gate holds the others to
   * the step's own safety. Undefined: the step's.
   */
  readonly safetyFor?: (doc: ToolDoc<S>, options: Readonly<O>) => Safety | undefined;
  readonly defaultOptions: Readonly<O>;
  /** Message templates by code; `{name}` placeholders are filled from the data of each change. */
  readonly messages: Readonly<Record<string, string>>;
  /**
   * The transform writes `$ref`s that were not there (dedupe-repeated-subtrees): pointless, and costly to
   * undo, for a client that cannot resolve them, so a profile-tuned preset leaves it out.
   */
  readonly createsRefs?: boolean;
  /**
   * The transform moves text into the server's `instructions` (promote-common-params): lost on a client
   * that does not show them, so a profile-tuned preset leaves it out there.
   */
  readonly writesInstructions?: boolean;
  /**
   * The parts a large transform is made of (its rule objects, as ajv's keyword definitions or svgo's
   * plugins), listed so that tooling can reach each one: the fixture runner runs the cases under
   * `test/fixtures/<transform>/rules/<id>/` with the part's `option` on and every other part's off.
   */
  readonly parts?: readonly TransformPart[];
  /** Throws (a message naming the option) when options are unusable. */
  readonly validateOptions?: (options: Readonly<O>) => void;
  /** Whole-list analysis, run once before `apply` (pure). */
  readonly prepare?: (tools: readonly McpTool[], options: Readonly<O>) => S;
  /** Rewrites one tool through `ctx`; synchronous, no I/O, no clock, no randomness. */
  readonly apply: (doc: ToolDoc<S>, ctx: EditContext, options: Readonly<O>) => void;
  /** Called once after every tool, with the state from `prepare` and the tools as they now are. */
  readonly finish?: (state: S, tools: readonly McpTool[], options: Readonly<O>) => TransformExtras | undefined;
}

/**
 * A transform: a pipeline step, and also a plain function
 * `(tools, options?, run?) => { tools, report }` that runs it alone.
 */
export interface Transform<O extends object = object, S = unknown> extends TransformSpec<O, S> {
  (input: ToolsInput, options?: Partial<O>, run?: RunOptions): TransformResult;
  readonly kind: 'transform';
}

/** Any transform, whatever its options. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyTransform = Transform<any, any>;

/** One resolved pipeline step. */
export type Step = readonly [AnyTransform, object];
