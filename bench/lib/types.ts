/** The shape of bench/results.json (version 1). Rendered by render.ts; written by run.ts. */
import type { Composition } from './composition.js';

export interface Environment {
  readonly date: string;
  readonly node: string;
  readonly v8: string;
  readonly platform: string;
  readonly arch: string;
  readonly cpu: string;
  readonly cores: number;
  readonly memoryGB: number;
  readonly commit: string;
  /** True when the work tree had uncommitted changes outside bench outputs. */
  readonly dirty: boolean;
  readonly quick: boolean;
  /** What times count: CPU time of the bench process (default) or wall-clock time. */
  readonly clock: 'cpu' | 'wall';
}

/** Bytes and tokens of one tools array (tokens: o200k_base of its compact JSON). */
export interface SizePair {
  readonly bytes: number;
  readonly tokens: number;
}

/** What one pipeline (the default, a transform alone, or a preset) did to one server. */
export interface RunResult {
  /** `default`, `transform:<name>` or `preset:<name>`. */
  readonly key: string;
  readonly after?: SizePair;
  /** Server `instructions` text a transform produced (counted against the savings). */
  readonly instructions?: SizePair;
  /** Percent saved, counting instructions text as added. */
  readonly pctBytes?: number;
  readonly pctTokens?: number;
  readonly bytesSaved?: number;
  readonly tokensSaved?: number;
  readonly changes?: number;
  readonly toolsChanged?: number;
  /** `report.skipped` grouped by transform. */
  readonly skipped?: Readonly<Record<string, number>>;
  /** `report.diagnostics` grouped by `transform/code`. */
  readonly diagnostics?: Readonly<Record<string, number>>;
  /** Diagnostics of severity `error`. */
  readonly errors?: number;
  /** Set when the whole run threw (an input or option error): the server is left out of that run's stats. */
  readonly failed?: string;
}

export interface ServerResult {
  readonly file: string;
  readonly label: string;
  readonly package: string;
  readonly version: string;
  readonly capturedAt: string;
  readonly tools: number;
  readonly before: SizePair;
  /** Median ms of the default pipeline (default options) and of the floor on this server. */
  readonly timeMs: number;
  readonly floorMs: number;
  readonly runs: Readonly<Record<string, RunResult>>;
}

export interface RunInfo {
  readonly key: string;
  readonly kind: 'default' | 'transform' | 'preset';
  readonly name: string;
  /** Transforms the run applies, in order. */
  readonly steps: readonly string[];
  readonly safety?: string;
  /** For a transform: options a preset gives it (`promote-common-params` in `max`); none = its defaults. */
  readonly options?: Readonly<object>;
  /** For the default: the presets whose steps are exactly the default's. */
  readonly sameAs?: readonly string[];
}

export interface Spread {
  readonly median: number;
  readonly min: number;
  readonly max: number;
}

/** Totals and spread across servers of one run. */
export interface RunSummary {
  readonly key: string;
  readonly servers: number;
  readonly before: SizePair;
  readonly after: SizePair;
  readonly pctBytes: number;
  readonly pctTokens: number;
  readonly spreadBytes: Spread;
  readonly spreadTokens: Spread;
  readonly skipped: Readonly<Record<string, number>>;
  readonly diagnostics: Readonly<Record<string, number>>;
  readonly errors: number;
  readonly failedServers: number;
  /** Tools the gate (`verify`) returned unchanged. */
  readonly gateFailures: number;
}

export interface SpeedRow {
  readonly key: string;
  readonly label: string;
  readonly group: 'floor' | 'user' | 'transform' | 'preset' | 'tokens' | 'verify';
  readonly options: Readonly<Record<string, unknown>>;
  readonly samplesMs: readonly number[];
  readonly medianMs: number;
  /** The median of each pass's time ÷ the floor pass timed right before it (see `pairedRatio`); the targets use it. */
  readonly ratio: number;
  /** Median time ÷ median time of every floor pass of the run (the ratio of record before issue 31's paired ratio). */
  readonly ratioOfMedians?: number;
  readonly mbPerS: number;
  readonly toolsPerS: number;
}

export interface Target {
  readonly what: string;
  readonly limit: number;
  /** The ratio the target is judged on (passes with a forced full GC before each). */
  readonly value: number;
  readonly met: boolean;
  /** The same ratio without the forced GC, reported beside it. */
  readonly valueNoGc?: number;
}

/** What one gate level adds to the default call, as a multiple of the floor. */
export interface VerifyCost {
  readonly level: 'structural' | 'verdicts';
  readonly ratio: number;
  readonly ratioNoGc: number;
}

export interface ScalingPoint {
  readonly size: string;
  readonly tools: number;
  readonly bytes: number;
  /** Heap held by the parsed input, and by the default pipeline's result on top of it. */
  readonly inputHeapBytes: number;
  readonly resultHeapBytes: number;
  readonly rows: readonly { readonly key: string; readonly label: string; readonly medianMs: number; readonly samples: number; readonly ratio: number; readonly usPerTool: number; readonly mbPerS: number }[];
  /** For single-schema points: definitions the pruning run removed, and how many there were. */
  readonly defsRemoved?: number;
  readonly defs?: number;
  readonly skipped?: string;
}

export interface Fit {
  readonly key: string;
  readonly label: string;
  /** Microseconds per tool (slope), fixed cost (intercept, ms) and r². */
  readonly usPerTool: number;
  readonly interceptMs: number;
  readonly r2: number;
}

export interface ImportRow {
  readonly what: string;
  readonly spec: string;
  readonly runs: number;
  readonly medianMs: number;
  readonly medianHeapBytes: number;
}

export interface BenchResults {
  readonly version: 1;
  readonly environment: Environment;
  readonly corpus: { readonly servers: number; readonly tools: number; readonly before: SizePair };
  readonly transforms: readonly { readonly name: string; readonly safety: string; readonly description: string }[];
  readonly presets: readonly { readonly name: string; readonly steps: readonly string[] }[];
  readonly runs: readonly RunInfo[];
  readonly servers: readonly ServerResult[];
  readonly summaries: Readonly<Record<string, RunSummary>>;
  readonly anchors: {
    readonly publishedOptimizer: { readonly text: string; readonly median: number; readonly min: number; readonly max: number; readonly servers: number };
    readonly notion: { readonly text: string; readonly before: number; readonly after: number; readonly file?: string; readonly label?: string };
  };
  readonly speed: SpeedResults;
  /**
   * The same speed rows over bench/validation: real servers the engine was never tuned on (issue 31). A change
   * to the engine's speed is judged on these; the targets hold on both sets.
   */
  readonly validationSpeed?: SpeedResults & { readonly servers: number };
  readonly scaling: {
    readonly toolLists: readonly ScalingPoint[];
    readonly fits: readonly Fit[];
    readonly schemas: readonly ScalingPoint[];
  };
  readonly importCost: {
    readonly rows: readonly ImportRow[];
    readonly timeRatio: number;
    readonly heapRatio: number;
    /** Packages `dist/index.js` imports, following its chunks. */
    readonly packagesImported: readonly string[];
    readonly tokenizerImported: boolean;
    readonly error?: string;
  };
  /** Where the corpus's bytes are, before and after the default pipeline (parts add up to the whole). */
  readonly composition?: { readonly before: Composition; readonly after: Composition };
  readonly warnings: readonly string[];
  readonly durationS: number;
}

/** Speed rows over one set of servers, as ratios to the floor of the same texts. */
export interface SpeedResults {
  readonly corpusBytes: number;
  readonly corpusTools: number;
  readonly iterations: number;
  readonly floorMs: number;
  readonly gateDetected: boolean;
  /** Every row, passes with a forced full GC before each. */
  readonly rows: readonly SpeedRow[];
  /** The user-facing rows again, without the forced GC. */
  readonly rowsNoGc?: readonly SpeedRow[];
  readonly verifyCosts?: readonly VerifyCost[];
  /** Which passes the targets are judged on. */
  readonly targetsUse?: 'gc' | 'no-gc';
  readonly targets: readonly Target[];
}
