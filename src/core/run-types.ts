/** What a run takes and returns, whatever runs it (the engine, a transform called alone, `transformTools`). */
import type { Tokenizer } from './measure.js';
import type { Report, VerifyLevel } from './report.js';
import type { McpTool } from './tool.js';

/** What `transformTools` accepts: a tools array, a `ListToolsResult`, a JSON-RPC response or a capture file. */
export type ToolsInput = readonly McpTool[] | { readonly tools: readonly McpTool[] } | { readonly result: { readonly tools: readonly McpTool[] } } | { readonly toolsList: { readonly tools: readonly McpTool[] } } | unknown;

/** How a run behaves, whatever its transforms. */
export interface RunOptions {
  /** `report` (default): a failing tool is left unchanged and listed in `report.skipped`; `throw`: the run throws. */
  readonly onError?: 'report' | 'throw';
  /** Counts tokens too (see `toolslim/tokens`); without it only bytes are measured. */
  readonly tokenizer?: Tokenizer;
  /** Measure sizes (default true). Off, `stats` holds zeros and the run skips serializing tools. */
  readonly measure?: boolean;
  /** Tools nested deeper than this are passed through unchanged and reported (default 1000). */
  readonly maxDepth?: number;
  /**
   * The equivalence gate (default `structural`): every changed tool is checked against its original and
   * returned unchanged, with an `error` diagnostic, when the check fails. `structural`: schemas that
   * compiled with ajv still compile; `verdicts`: also the same ajv verdict on generated instances;
   * `false`: no check (and no ajv work). See docs/verify.md.
   */
  readonly verify?: VerifyLevel | false;
  /**
   * Tools to pass through unchanged, by index, with the reason (reported in `report.skipped`, transform
   * `input`): the CLI and proxy mark tools whose number texts a rewrite could not keep (see docs/output.md).
   */
  readonly keepUnchanged?: ReadonlyMap<number, string>;
}

/** What every run returns. */
export interface TransformResult {
  /** The rewritten tools: a new array; unchanged tools and unchanged subtrees are shared with the input. */
  readonly tools: McpTool[];
  readonly report: Report;
  /** The input's envelope (array, ListToolsResult, JSON-RPC response, capture file) holding the new tools. */
  readonly output: unknown;
  /** Text for the server's `instructions`, when a transform produced some (promote-common-params). */
  readonly instructions?: string;
}
