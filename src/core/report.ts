import type { Size } from './measure.js';

/** How sure toolslim is that a transform keeps meaning. */
export type Safety = 'lossless' | 'annotation' | 'lossy';

/** One RFC 6902 operation plus where it came from. Replaying all changes on the input yields the output. */
export interface Change {
  readonly op: 'add' | 'remove' | 'replace' | 'move';
  /** JSON Pointer into the tools array: `/3/inputSchema/$defs/Foo`. */
  readonly path: string;
  /** For `move`: where the value came from. */
  readonly from?: string;
  /** For `add` and `replace`: the new value. */
  readonly value?: unknown;
  /** For `remove` and `replace`: the value that was there (so a change can be reverted). */
  readonly oldValue?: unknown;
  /**
   * Where an object member sits among its object's keys after an `add`/`move`, or sat before a `remove`;
   * absent when it is (was) the last. Lets `applyPatch` replay and `invertPatch` undo key order byte for
   * byte (see `PatchOperation`); other JSON Patch appliers ignore it.
   */
  readonly index?: number;
  /** For a `move` out of an object member: where it sat among that object's keys; absent when the last. */
  readonly fromIndex?: number;
  /** The tool's name (`""` when it has none). */
  readonly tool: string;
  /** The tool's position in the array. */
  readonly toolIndex: number;
  readonly transform: string;
  /** Short kebab-case code, shown as `transform/code`. */
  readonly code: string;
  /** Past tense: what was done. */
  readonly message: string;
}

/** Severity of a finding. */
export type Severity = 'error' | 'warning' | 'info';

/**
 * Something found about a place in a tools list: the shape shared by lint findings, client-profile
 * findings, surface findings and (with `transform`) report diagnostics.
 */
export interface ToolFindingBase {
  readonly severity: Severity;
  /** Short kebab-case code. */
  readonly code: string;
  /** The tool's name (`""` for the whole list or a tool without a name). */
  readonly tool: string;
  /** The tool's position, -1 for findings about the whole list. */
  readonly toolIndex: number;
  /** JSON Pointer into the tools array (`/3/inputSchema/$defs/Foo`); `""` for the whole list. */
  readonly path: string;
  /** What was found and what was expected. */
  readonly message: string;
}

/** Something a transform or check found, which may or may not have led to a change. */
export interface Diagnostic {
  readonly severity: Severity;
  readonly tool: string;
  /** -1 when the finding is about the whole list. */
  readonly toolIndex: number;
  readonly transform: string;
  readonly code: string;
  /** JSON Pointer into the tools array. */
  readonly path: string;
  /** What was found and what was expected. */
  readonly message: string;
}

/** A tool a transform (or the input check, or the gate) left unchanged, and why. */
export interface Skip {
  readonly tool: string;
  readonly toolIndex: number;
  /** The transform that failed, `input` for the input check, `verify` for the gate. */
  readonly transform: string;
  readonly reason: string;
}

/** Sizes of one tool before and after. */
export interface ToolStats {
  readonly index: number;
  readonly name: string;
  readonly before: Size;
  readonly after: Size;
}

/** What one transform did over the whole list. */
export interface TransformStats {
  readonly name: string;
  readonly changes: number;
  readonly toolsChanged: number;
  /** Bytes of compact JSON removed by this transform (negative when it grew the list). */
  readonly bytesSaved: number;
  /** Tokens removed, when a tokenizer was given. */
  readonly tokensSaved?: number;
  readonly timeMs: number;
}

/** How thoroughly the equivalence gate checks a rewrite (see docs/verify.md). */
export type VerifyLevel = 'structural' | 'verdicts';

/** What the equivalence gate did in a run (see docs/verify.md). */
export interface VerifyStats {
  /** The `verify` level the run used. */
  readonly level: 'structural' | 'verdicts';
  /** Changed tools checked against their originals. */
  readonly tools: number;
  /** Tools that failed the check and were returned unchanged (each has an `error` diagnostic). */
  readonly failed: number;
  /** Schemas compiled with ajv. */
  readonly compiled: number;
  /** Instances validated with ajv (`verdicts` level). */
  readonly instances: number;
  /** Time spent in the gate (included in the run's `timeMs`). */
  readonly timeMs: number;
}

/** Sizes and timings of a run. */
export interface ReportStats {
  /** The whole tools array, before and after. */
  readonly before: Size;
  readonly after: Size;
  readonly tools: readonly ToolStats[];
  readonly transforms: readonly TransformStats[];
  /** The tokenizer used for `tokens`, when one was given. */
  readonly tokenizer?: string;
  /** The equivalence gate's work, when `verify` was on. */
  readonly verify?: VerifyStats;
  readonly timeMs: number;
}

/** Everything a run did and found. */
export interface Report {
  readonly changes: readonly Change[];
  readonly diagnostics: readonly Diagnostic[];
  readonly skipped: readonly Skip[];
  readonly stats: ReportStats;
}
