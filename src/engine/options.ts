/**
 * Options, checked once per run: the run's own (`RunOptions`) and each step's, merged over the transform's
 * defaults. The options every transform may share (`slots`, `assume`: {@link CommonOptions}) are checked
 * here, for every transform that declares them, so no transform repeats the check.
 */
import { describeValue, isOptionsObject } from '../core/describe.js';
import { ToolslimError } from '../core/errors.js';
import type { Tokenizer } from '../core/measure.js';
import type { VerifyLevel } from '../core/report.js';
import type { RunOptions } from '../core/run-types.js';
import { SCHEMA_SLOTS, type SchemaSlot } from '../core/tool.js';
import type { AnyTransform } from '../core/transform.js';
import { hasOwn } from '../json/guards.js';
import { DEFAULT_MAX_DEPTH } from '../json/plain.js';
import { DIALECTS, type Dialect } from '../schema/keywords.js';

/** A run's options with every default filled in. */
export interface ResolvedRunOptions {
  readonly onError: 'report' | 'throw';
  readonly measure: boolean;
  readonly tokenizer: Tokenizer | undefined;
  readonly maxDepth: number;
  readonly verify: VerifyLevel | false;
  readonly keepUnchanged: ReadonlyMap<number, string> | undefined;
}

// Nesting deeper than DEFAULT_MAX_DEPTH is not transformed (the run's and the lint's default `maxDepth`); it
// is json/plain.ts's, which the public functions that walk a caller's schema check against too.
export { DEFAULT_MAX_DEPTH };

/** Every key of {@link RunOptions}: a key outside it is refused, not ignored (plain JavaScript has no type check). */
export const RUN_OPTION_KEYS: readonly string[] = Object.keys({ onError: 1, tokenizer: 1, measure: 1, maxDepth: 1, verify: 1, keepUnchanged: 1 } satisfies Record<keyof RunOptions, 1>);

/**
 * Fills in a run's defaults; throws a {@link ToolslimError} (`invalid-option`) for a value it cannot use or
 * a key it does not know (a misspelt `verfy: false` or `trasnforms` would otherwise run the defaults).
 * `extraKeys`: the caller's own keys, named in the message (`transformTools`' `transforms`).
 */
export function resolveRunOptions(run: RunOptions, extraKeys: readonly string[] = []): ResolvedRunOptions {
  if (!isOptionsObject(run)) throw new ToolslimError('invalid-option', `options must be an object, got ${describeValue(run)}`);
  for (const key of Object.keys(run)) {
    if (!RUN_OPTION_KEYS.includes(key)) throw new ToolslimError('invalid-option', `unknown option \`${key}\` (known: ${[...extraKeys, ...RUN_OPTION_KEYS].join(', ')})`);
  }
  const verify = run.verify === undefined ? 'structural' : run.verify;
  if (verify !== false && verify !== 'structural' && verify !== 'verdicts') {
    throw new ToolslimError('invalid-option', `\`verify\` is ${JSON.stringify(verify)}, expected 'structural', 'verdicts' or false`);
  }
  if (run.onError !== undefined && run.onError !== 'report' && run.onError !== 'throw') throw new ToolslimError('invalid-option', `\`onError\` must be 'report' or 'throw', got ${describeValue(run.onError)}`);
  if (run.measure !== undefined && typeof run.measure !== 'boolean') throw new ToolslimError('invalid-option', `\`measure\` must be true or false, got ${describeValue(run.measure)}`);
  if (run.maxDepth !== undefined && !(typeof run.maxDepth === 'number' && Number.isInteger(run.maxDepth) && run.maxDepth >= 1)) {
    throw new ToolslimError('invalid-option', `\`maxDepth\` must be a whole number of levels, at least 1, got ${describeValue(run.maxDepth)}`);
  }
  const t = run.tokenizer as Partial<Tokenizer> | undefined;
  if (t !== undefined && (t === null || typeof t !== 'object' || typeof t.count !== 'function' || typeof t.name !== 'string')) {
    throw new ToolslimError('invalid-option', `\`tokenizer\` must be a Tokenizer ({ name, count(text) }; e.g. import { o200k } from "toolslim/tokens"), got ${describeValue(t)}`);
  }
  if (run.keepUnchanged !== undefined && !(run.keepUnchanged instanceof Map)) throw new ToolslimError('invalid-option', `\`keepUnchanged\` must be a Map of tool index → reason, got ${describeValue(run.keepUnchanged)}`);
  return {
    onError: run.onError ?? 'report',
    measure: run.measure ?? true,
    tokenizer: run.tokenizer,
    maxDepth: run.maxDepth ?? DEFAULT_MAX_DEPTH,
    verify,
    keepUnchanged: run.keepUnchanged,
  };
}

/**
 * A step's options: the transform's defaults with the given ones on top, frozen. Unknown option names, the
 * transform's own `validateOptions`, then the common options it declares are checked, in that order.
 */
export function resolveStepOptions(transform: AnyTransform, options: object): object {
  // One resolution of the defaults kept per transform, for its hidden class (see json/shapes.ts): every
  // run's resolved options die with the run, and a full GC would take their shape and the optimised code
  // of every function that read them.
  // (A transform whose defaults alone are not valid options, adapt-to-client without a profile, keeps none.)
  if (!SHAPES.has(transform)) {
    let shape: object | undefined;
    try {
      shape = resolve(transform, {});
    } catch {
      shape = undefined;
    }
    SHAPES.set(transform, shape);
  }
  return resolve(transform, options);
}

/** A resolved options object with the defaults only, per transform that was resolved (kept while the transform is). */
const SHAPES = new WeakMap<AnyTransform, object | undefined>();

function resolve(transform: AnyTransform, options: object): object {
  const merged = { ...transform.defaultOptions, ...options };
  for (const key of Object.keys(options)) {
    if (!Object.prototype.hasOwnProperty.call(transform.defaultOptions, key)) {
      throw new ToolslimError('invalid-option', `${transform.name}: unknown option \`${key}\` (known: ${Object.keys(transform.defaultOptions).join(', ') || 'none'})`, { transform: transform.name });
    }
  }
  try {
    if (transform.validateOptions) transform.validateOptions(merged);
    checkCommonOptions(transform.defaultOptions as object, merged as Record<string, unknown>);
  } catch (e) {
    throw new ToolslimError('invalid-option', `${transform.name}: ${(e as Error).message}`, { transform: transform.name, cause: e });
  }
  return Object.freeze(merged);
}

/** Throws (a message naming the option) when a declared common option is unusable. */
function checkCommonOptions(defaults: object, options: Record<string, unknown>): void {
  if (hasOwn(defaults, 'assume') && !DIALECTS.includes(options.assume as Dialect)) throw new Error(`\`assume\` must be one of ${DIALECTS.join(', ')}`);
  if (hasOwn(defaults, 'slots')) {
    const slots = options.slots;
    if (!Array.isArray(slots) || !slots.every(isSchemaSlot)) throw new Error('`slots` must list `inputSchema` and/or `outputSchema`');
  }
}

/** The slots and dialect the engine reads a tool's documents with for a step (see `ToolDoc.documents`). */
export function documentOptions(options: object): { readonly slots: readonly SchemaSlot[]; readonly assume: Dialect } {
  const o = options as { slots?: readonly SchemaSlot[]; assume?: Dialect };
  return { slots: o.slots ?? SCHEMA_SLOTS, assume: o.assume ?? '2020-12' };
}

function isSchemaSlot(slot: unknown): boolean {
  return SCHEMA_SLOTS.includes(slot as SchemaSlot);
}
