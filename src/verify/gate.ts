// Why one file: the gate's checks (fields, annotations, compile, verdicts) share one ajv pool and the per-
// dialect compile rules; the revert policy and instance generator already live in verify/.
/**
 * The equivalence gate: checks that a rewritten tool still means what the original meant.
 *
 * - `structural`: every schema the original could be compiled by ajv (in its declared or assumed dialect,
 *   every local `$ref` resolving) still compiles after the rewrite. Where the rewrite only removed what ajv
 *   never compiles (a `$schema` stamp read alike, annotations, unused definitions, neutral keywords), that is
 *   proven without ajv (implied.ts); otherwise the rewrite is compiled (and the original, when it fails).
 * - `verdicts`: structural, and on instances generated from both schemas (see `generateInstances`) ajv
 *   gives the same verdict before and after.
 * - At either level, by the declared safety of the rewrite: a `lossless` rewrite leaves every tool field
 *   outside the schemas alone and may drop annotations but never write one the original does not have;
 *   an `annotation` rewrite may also change annotations and the tool's `title`/`description`, nothing
 *   else outside the schemas. When an `annotation` rewrite leaves the schemas equal once annotations are
 *   removed, that is proof enough (ajv reads no annotation) and no compile is needed; otherwise it is
 *   held to the level's ajv checks like any other rewrite. `lossy` rewrites are held to `structural`.
 */

import { ToolslimError } from '../core/errors.js';
import { boundedRegExp } from './bounded-regexp.js';
import type { ErrorObject, Options as AjvOptions, ValidateFunction } from 'ajv';
import type { Safety, VerifyLevel } from '../core/report.js';
import type { McpTool } from '../core/tool.js';
import { SCHEMA_SLOTS, TOOL_ANNOTATION_FIELDS } from '../core/tool.js';
import { getDeclaredDialect, getKeywordTable } from '../schema/dialect.js';
import { isExtensionKeyword, type Dialect, type KeywordTable } from '../schema/keywords.js';
import { appendPointer, getAt, parsePointer } from '../json/pointer.js';
import { refInventoryOf, resolveRefSite } from '../schema/refs.js';
import { hasOwn, isObject } from '../json/guards.js';
import { codeNesting, longestDependentList } from './compile-cost.js';
import { jsonEqual } from '../json/equal.js';
import { canonicalJson, jsonKey } from '../json/canonical.js';
import { findJsonProblem } from '../json/plain.js';
import { createReader, hasIdentifiers, readingOf, schemaAsRead, type AnyAjv, type AjvReading } from './readers.js';
import { FORMATS } from './formats.js';
import { generateKeyedInstances, generateProbeInstances } from './instances.js';
import { AnnotationSets, noAnnotationWritten } from './annotations.js';
import { compileImplied } from './implied.js';
import { findRewriteSites } from './probe.js';
import { anchorShape } from '../json/shapes.js';

/** How thoroughly the gate checks: see the module comment (the type lives in core, where `RunOptions` names it). */
export type { VerifyLevel };

/** What failed, in the order the checks run (`error`: the gate itself could not check the rewrite). */
export type VerifyCheck = 'fields' | 'annotations' | 'compile' | 'verdict' | 'error';

/** Options of {@link verifyTool}. */
export interface VerifyToolOptions {
  readonly level: VerifyLevel;
  /** The declared safety of the rewrite (default `lossless`): `lossy` rewrites are held to `structural` only. */
  readonly safety?: Safety;
  /** The dialect of a schema without `$schema` (default 2020-12, as MCP says). */
  readonly assume?: Dialect;
  /** Instances generated per schema at the `verdicts` level (default 64; at most 4× that are used). */
  readonly instances?: number;
  /** ajv instances and compiled schemas to reuse across calls (one run); a fresh one per call when absent. */
  readonly pool?: AjvPool;
}

/** Why a rewritten tool is not equivalent to its original. */
export interface VerifyFailure {
  /** Which check failed. */
  readonly check: VerifyCheck;
  /** JSON Pointer inside the tool (`/inputSchema`, `/inputSchema/properties/a/description`). */
  readonly path: string;
  /** What was found and what was expected. */
  readonly message: string;
  /** For `verdict`: the first instance the two schemas judge differently. */
  readonly instance?: unknown;
}

/**
 * Checks one rewrite of one tool. Returns undefined when `after` is equivalent to `before` at the given
 * level, else the first failure found. Neither tool is changed.
 * Unchecked, for the engine's checked input: the public entry (engine/checked.ts) first refuses a value that
 * contains itself.
 */
export function verifyTool(before: McpTool, after: McpTool, options: VerifyToolOptions): VerifyFailure | undefined {
  if (options === null || typeof options !== 'object' || (options.level !== 'structural' && options.level !== 'verdicts')) {
    throw new ToolslimError('invalid-option', `verifyTool: options must say the level, { level: 'structural' } or { level: 'verdicts' }, got ${options === null || typeof options !== 'object' ? String(options) : `level ${JSON.stringify(options.level)}`}`);
  }
  const safety = options.safety ?? 'lossless';
  const pool = options.pool ?? new AjvPool();
  const assume = options.assume ?? '2020-12';
  const failure = checkDocuments(before, after, safety, new AnnotationSets());
  // Equal once annotations are removed: ajv reads no annotation, so nothing is left to compile or compare.
  if (failure || (safety === 'annotation' && onlyAnnotationsDiffer(before, after, assume))) return failure;
  return checkSchemas(before, after, safety === 'lossy' ? 'structural' : options.level, assume, assume, pool, options.instances, safety === 'lossy');
}

/** One step of a tool's rewrite history: the transform that made it and the tool after it. */
export interface VerifyStep {
  /** The transform's name. */
  readonly transform: string;
  /** The transform's declared safety: it decides what this step is held to. */
  readonly safety: Safety;
  /** The tool as this step left it. */
  readonly tool: McpTool;
}

/** A failure with the step blamed for it (an index into the steps). */
export interface AttributedFailure {
  readonly failure: VerifyFailure;
  /** Index into the steps of the first step after which the tool fails. */
  readonly step: number;
}

/**
 * Checks a tool's whole rewrite history against its original and names the first step to blame.
 * Document checks (fields, annotations) run per step, by that step's safety. The ajv checks run once per
 * stretch of non-lossy steps (original → last version; a lossy step starts a new stretch and is itself
 * held to `structural`); only when a stretch fails are its prefixes checked, to find the first step after
 * which the tool stops being equivalent. A stretch of `annotation` steps that each changed nothing but
 * annotations needs no ajv at all: ajv reads no annotation.
 * Cost: each version's annotations are collected once (the lossless check compares a version with the one
 * before it, so an intermediate version is read as the rewrite of one step and the original of the next);
 * at `structural`, no compile for a schema whose compiling is proven (implied.ts), else one or two per
 * changed schema when nothing fails.
 * Unchecked, for the engine's checked input: the public entry (engine/checked.ts) first refuses a value that
 * contains itself.
 */
export function verifyHistory(original: McpTool, steps: readonly VerifyStep[], options: Omit<VerifyToolOptions, 'safety'>): AttributedFailure | undefined {
  return verifyHistoryFrom(original, steps, options, undefined);
}

/**
 * {@link verifyHistory}, with the original's unstamped schemas read in `originalAssume` (when given) and
 * every version's in `options.assume`: for a run whose first step, reconcile-dialect with `assume`, rewrote
 * the tool out of that dialect (an OpenAPI 3.0 schema object read as OpenAPI 3.0, its output as 2020-12).
 */
export function verifyHistoryFrom(original: McpTool, steps: readonly VerifyStep[], options: Omit<VerifyToolOptions, 'safety'>, originalAssume: Dialect | undefined): AttributedFailure | undefined {
  const pool = options.pool ?? new AjvPool();
  const assume = options.assume ?? '2020-12';
  const fromAssume = (t: McpTool): Dialect => (t === original && originalAssume !== undefined ? originalAssume : assume);
  let prev = original;
  const annotations = new AnnotationSets();
  const proven: boolean[] = [];
  for (let k = 0; k < steps.length; k++) {
    const step = steps[k]!;
    const failure = checkDocuments(prev, step.tool, step.safety, annotations);
    if (failure) return { failure, step: k };
    proven.push(step.safety === 'annotation' && onlyAnnotationsDiffer(prev, step.tool, assume));
    prev = step.tool;
  }
  let start = 0;
  let from = original;
  while (start < steps.length) {
    if (steps[start]!.safety === 'lossy') {
      const failure = checkSchemas(from, steps[start]!.tool, 'structural', fromAssume(from), assume, pool, options.instances, true);
      if (failure) return { failure, step: start };
      from = steps[start]!.tool;
      start++;
      continue;
    }
    let end = start;
    while (end + 1 < steps.length && steps[end + 1]!.safety !== 'lossy') end++;
    if (proven.slice(start, end + 1).every(Boolean)) {
      from = steps[end]!.tool;
      start = end + 1;
      continue;
    }
    const failure = checkSchemas(from, steps[end]!.tool, options.level, fromAssume(from), assume, pool, options.instances);
    if (failure) {
      for (let j = start; j < end; j++) {
        const early = checkSchemas(from, steps[j]!.tool, options.level, fromAssume(from), assume, pool, options.instances);
        if (early) return { failure: early, step: j };
      }
      return { failure, step: end };
    }
    from = steps[end]!.tool;
    start = end + 1;
  }
  return undefined;
}

// ---- ajv ---------------------------------------------------------------------------------------------


/** What compiling one schema gave. */
export type CompileResult = { readonly ok: true; readonly validate: ValidateFunction } | { readonly ok: false; readonly error: string };

const AJV_OPTIONS: AjvOptions = {
  strict: false,
  logger: false,
  // Compiling is the check: a schema ajv can compile is usable; meta-schema validation would cost a
  // meta-schema compile per fresh instance and reject nothing ajv cannot handle.
  validateSchema: false,
  validateFormats: true,
  // Unoptimized code compiles about twice as fast and validates the same. Patterns in bounded time where
  // V8 allows (bounded-regexp.ts): the instances hold the server's own defaults and examples.
  code: { optimize: false, regExp: boundedRegExp },
  // Error messages are generated code too (about a fifth of a compile); only a failure's explanation reads
  // one, and that recompiles the schema with messages on (`errorsWithMessages`).
  messages: false,
  formats: Object.fromEntries(Object.entries(FORMATS).map(([name, spec]) => [name, { type: 'string', validate: spec.check }])),
};

/**
 * ajv instances for one run: one per reading, reused for schemas without identifiers; a schema with an
 * `$id`/`id` anywhere gets a fresh instance, so two tools declaring the same `$id` never collide and a
 * reference never resolves into another tool. Compiled results are remembered per schema object.
 *
 * Each dialect is read as its specification says, where ajv's classes deviate (readers.ts).
 *
 * Instances are not reused across runs: ajv's code scope keeps a name for every schema an instance ever
 * compiled (`removeSchema` does not drop them), so a long-lived instance grows and compiles slower.
 */
export class AjvPool {
  readonly #shared = new Map<AjvReading, AnyAjv>();
  readonly #memo = new WeakMap<object, CompileResult>();
  /** By dialect and JSON text: tools of one server often share a schema. */
  readonly #byText = new Map<string, CompileResult>();
  /**
   * Validators V8 could not run (a RangeError on some call) and their twins compiled with `allErrors`. Without
   * it, ajv nests the checks of an object's properties one inside the next, and past some 2,000 properties V8
   * runs out of stack parsing the generated function, lazily, on every call: each instance cost a parse
   * (about 50-250 ms) and then threw, so the gate judged both sides "throws" for every instance, took minutes
   * (2,000 properties each referencing a first one, inlined by inline-small-refs: 110 s) and proved nothing.
   * With `allErrors` the checks follow one another, and only which errors are collected differs, never a
   * verdict. A validator whose RangeError is a real recursion (a `$ref` cycle that consumes no input) throws
   * in its twin too, the same verdict as before.
   */
  readonly #twins = new WeakMap<ValidateFunction, ValidateFunction | undefined>();
  readonly #readings = new WeakMap<ValidateFunction, AjvReading>();
  #compiled = 0;
  #validated = 0;

  /** Schemas compiled so far. */
  get compiled(): number {
    return this.#compiled;
  }

  /** Instances validated so far. */
  get validated(): number {
    return this.#validated;
  }

  /** Compiles `schema` as `dialect` reads it (ajv never throws out of here; a schema that contains itself is a failed compile naming the pointer). */
  compile(schema: unknown, dialect: Dialect): CompileResult {
    const memoKey = typeof schema === 'object' && schema !== null ? schema : undefined;
    const known = memoKey ? this.#memo.get(memoKey) : undefined;
    if (known) return known;
    const kind = readingOf(dialect);
    let result: CompileResult | undefined;
    if (typeof schema !== 'boolean' && !isObject(schema)) result = { ok: false, error: `a schema must be an object or a boolean, found ${schema === null ? 'null' : Array.isArray(schema) ? 'an array' : typeof schema}` };
    else {
      const textKey = keyOf(kind, schema);
      result = typeof textKey === 'string' ? this.#byText.get(textKey) : textKey;
      if (!result) {
        this.#compiled++;
        const ajv = hasIdentifiers(schema, dialect) ? createReader(kind, AJV_OPTIONS) : this.#instance(kind);
        const read = schemaAsRead(schema, dialect) as object;
        const names = longestDependentList(read);
        if (names > MAX_DEPENDENT_NAMES) {
          result = { ok: false, error: `a \`dependentRequired\` (or \`dependencies\`) list of ${names} names: ajv's code for it grows with its square (not compiled past ${MAX_DEPENDENT_NAMES})` };
        } else if (names > NESTED_DEPENDENT_NAMES) {
          // ajv nests a test per name in the plain code (1,000 names: 0.45 s, 2,500: 4 s and then out of stack);
          // with its checks in a row, as a twin (see #twins): 1,000 names 55 ms, 8,000 1.9 s. Same verdicts.
          const twin = compileFlat(kind, read);
          result = twin !== undefined ? parsable(twin) : { ok: false, error: `ajv cannot compile a \`dependentRequired\` list of ${names} names` };
        } else {
          try {
            const plain = ajv.compile(read);
            // Nested too deep for V8 to parse (see codeNesting): the same schema with its checks in a row, if
            // that nests less (an object's properties), else not compiled (a `oneOf`'s branches nest either way).
            const depth = codeNesting(plain.toString());
            const twin = depth > MAX_CODE_NESTING ? compileFlat(kind, read) : undefined;
            result = depth <= MAX_CODE_NESTING ? { ok: true, validate: plain } : twin !== undefined ? parsable(twin) : { ok: false, error: nestedError(depth) };
          } catch (e) {
            // Out of stack parsing the generated code (see #twins): the same schema with its checks in a row.
            const twin = e instanceof RangeError ? compileFlat(kind, read) : undefined;
            result = twin !== undefined ? parsable(twin) : { ok: false, error: errorMessage(e) };
          }
        }
        if (result.ok) this.#readings.set(result.validate, kind);
        this.#byText.set(textKey as string, result);
      }
    }
    if (memoKey) this.#memo.set(memoKey, result);
    return result;
  }

  /** ajv's verdict: true, false, or `throws` (validation itself failed, e.g. a `$ref` cycle that consumes no input). */
  judge(validate: ValidateFunction, data: unknown): boolean | 'throws' {
    this.#validated++;
    const twin = this.#twins.get(validate);
    if (twin !== undefined) return verdictOf(twin, data);
    try {
      return validate(data) as boolean;
    } catch (e) {
      if (!(e instanceof RangeError) || this.#twins.has(validate)) return 'throws';
      // The first RangeError of this validator: from now on its twin judges (see #twins).
      const kind = this.#readings.get(validate);
      const made = kind !== undefined ? compileFlat(kind, validate.schema as object) : undefined;
      this.#twins.set(validate, made);
      return made !== undefined ? verdictOf(made, data) : 'throws';
    }
  }

  #instance(kind: AjvReading): AnyAjv {
    let ajv = this.#shared.get(kind);
    if (!ajv) {
      ajv = createReader(kind, AJV_OPTIONS);
      this.#shared.set(kind, ajv);
    }
    return ajv;
  }
}

/**
 * The errors ajv reports for `data` against `schema` read as `dialect`, with their messages: the pool
 * compiles without messages (they are generated code no check reads), so an explanation compiles the
 * schema once more, in an instance of its own. Only a failure asks, once. Null when `data` is valid,
 * undefined when ajv throws.
 */
export function errorsWithMessages(schema: unknown, dialect: Dialect, data: unknown): ErrorObject[] | null | undefined {
  // A long `dependentRequired` list: in a row, as the pool compiles it, or not at all (see AjvPool.compile).
  const names = longestDependentList(schema);
  if (names > MAX_DEPENDENT_NAMES) return undefined;
  try {
    const validate = createReader(dialect, { ...AJV_OPTIONS, messages: true, allErrors: names > NESTED_DEPENDENT_NAMES }).compile(schemaAsRead(schema, dialect) as object);
    validate(data);
    return validate.errors;
  } catch {
    return undefined;
  }
}

/**
 * Names in one `dependentRequired` (or draft-07 array `dependencies`) entry past which the pool compiles the
 * schema with its checks in a row at once, and past which it does not compile it (see AjvPool.compile). No
 * capture of the corpora has more than a handful.
 */
const NESTED_DEPENDENT_NAMES = 500;
const MAX_DEPENDENT_NAMES = 8192;

/**
 * Blocks of generated code nested deeper than this are not run (see compile-cost.ts `codeNesting`): V8 ran out of
 * stack parsing 1,700 `oneOf` branches' code (1,709 deep) at every call, 1.5–1.8 s each, so the gate spent
 * 190 s on 160 instances of one such schema and proved nothing; 1,400 branches (1,409 deep) parsed. Generated
 * code of every schema of the corpora nests a few dozen deep.
 */
const MAX_CODE_NESTING = 1024;

/** A compiled validator whose code V8 can parse, or the reason it is not used. */
function parsable(validate: ValidateFunction): CompileResult {
  const depth = codeNesting(validate.toString());
  return depth > MAX_CODE_NESTING ? { ok: false, error: nestedError(depth) } : { ok: true, validate };
}

function nestedError(depth: number): string {
  return `ajv's code for it nests ${depth} blocks deep (past ${MAX_CODE_NESTING}, V8 runs out of stack parsing it at every call)`;
}

/** `schema` compiled with `allErrors` in an instance of its own (see AjvPool's #twins), or undefined when that fails too. */
function compileFlat(kind: AjvReading, schema: object): ValidateFunction | undefined {
  try {
    return createReader(kind, { ...AJV_OPTIONS, allErrors: true }).compile(schema);
  } catch {
    return undefined;
  }
}

function verdictOf(validate: ValidateFunction, data: unknown): boolean | 'throws' {
  try {
    return validate(data) as boolean;
  } catch {
    return 'throws';
  }
}

function errorMessage(e: unknown): string {
  if (e instanceof RangeError) return 'ajv ran out of stack compiling it (nesting too deep)';
  const m = (e as Error)?.message;
  return typeof m === 'string' ? m : String(e);
}

// ---- schema checks -----------------------------------------------------------------------------------

/** The ajv checks of one rewrite; `lossy` rewrites may remove a schema (a removed schema cannot stop compiling). */
function checkSchemas(before: McpTool, after: McpTool, level: VerifyLevel, assumeBefore: Dialect, assume: Dialect, pool: AjvPool, count: number | undefined, lossy = false): VerifyFailure | undefined {
  for (const slot of SCHEMA_SLOTS) {
    const a = (before as Record<string, unknown>)[slot];
    const b = (after as Record<string, unknown>)[slot];
    if (a === b) continue;
    const path = '/' + slot;
    if (b === undefined) {
      if (a !== undefined && !lossy) return { check: 'compile', path, message: `\`${slot}\` was removed` };
      continue;
    }
    const bDialect = getDeclaredDialect(b, assume).dialect;
    if (a === undefined) {
      const after_ = pool.compile(b, bDialect);
      if (!after_.ok) return { check: 'compile', path, message: `\`${slot}\` was added and ajv cannot compile it: ${after_.error}` };
      continue;
    }
    const aDialect = getDeclaredDialect(a, assumeBefore).dialect;
    // The targeted probe: where the rewrite touched something that can change a verdict (every level but
    // a lossy step's). Nothing touched, nothing more to do at `structural`.
    const sites = lossy ? undefined : findRewriteSites(a, b, aDialect, bDialect);
    const probe = sites !== undefined && sites.before.length + sites.after.length > 0;
    // `structural` promises "compiled before, compiles after": proven without ajv where the rewrite only
    // removed what ajv never compiles (see implied.ts).
    if (level === 'structural' && !probe && compileImplied(a, b, aDialect, bDialect)) continue;
    const after_ = pool.compile(b, bDialect);
    if (level === 'structural' && after_.ok && !probe) continue;
    const before_ = pool.compile(a, aDialect);
    // A schema that did not compile before is not held to compiling after.
    if (!before_.ok) continue;
    if (!after_.ok) return { check: 'compile', path, message: `\`${slot}\` compiled before the rewrite and no longer does (${dialectName(bDialect)}): ${after_.error}` };
    if (probe) {
      const lists = [generateProbeInstances(a, { dialect: aDialect, sites: sites.before }), generateProbeInstances(b, { dialect: bDialect, sites: sites.after })];
      const failure = compareOn(lists, [a, aDialect, before_.validate], [b, bDialect, after_.validate], pool, ' (targeted probe of the places the rewrite changed)');
      if (failure) return { ...failure, path: path + failure.path };
    }
    if (level !== 'verdicts') continue;
    const failure = compareVerdicts([a, aDialect, before_.validate], [b, bDialect, after_.validate], pool, count ?? 64);
    if (failure) return { ...failure, path: path + failure.path };
  }
  return undefined;
}

/** A schema, the dialect it is read in, and its compiled validator. */
type Reading = readonly [schema: unknown, dialect: Dialect, validate: ValidateFunction];

function compareVerdicts(a: Reading, b: Reading, pool: AjvPool, count: number): VerifyFailure | undefined {
  return compareOn([generateKeyedInstances(a[0], { dialect: a[1], count }), generateKeyedInstances(b[0], { dialect: b[1], count })], a, b, pool, '');
}

/** The first instance of `lists` the two validators judge differently, as a failure. */
function compareOn(lists: readonly { values: unknown[]; keys: string[] }[], a: Reading, b: Reading, pool: AjvPool, how: string): VerifyFailure | undefined {
  const va = a[2];
  const vb = b[2];
  const seen = new Set<string>();
  for (const list of lists) {
    for (let i = 0; i < list.values.length; i++) {
      const data = list.values[i];
      // MCP only ever validates an object against these schemas (`arguments`, `structuredContent`):
      // a verdict on `null` or `7` at the root is one no client or server can observe.
      if (!isObject(data)) continue;
      const key = list.keys[i]!;
      if (seen.has(key)) continue;
      seen.add(key);
      const x = pool.judge(va, data);
      const y = pool.judge(vb, data);
      if (x === y) continue;
      const why = x === false ? explain(errorsWithMessages(a[0], a[1], data), 'before') : y === false ? explain(errorsWithMessages(b[0], b[1], data), 'after') : '';
      return {
        check: 'verdict',
        path: '',
        instance: data,
        message: `the rewrite changed a verdict${how}: ${preview(data)} was ${verdictWord(x)} before and is ${verdictWord(y)} after${why}`,
      };
    }
  }
  return undefined;
}

function verdictWord(v: boolean | 'throws'): string {
  return v === 'throws' ? 'a validation error (ajv threw)' : v ? 'valid' : 'invalid';
}

function explain(errors: ErrorObject[] | null | undefined, when: string): string {
  const e = errors?.[0];
  if (!e) return '';
  return ` (${when}: ${e.message ?? e.keyword} at \`${e.instancePath}\`, schema \`${e.schemaPath}\`)`;
}

function preview(data: unknown): string {
  const text = canonicalJson(data);
  return text.length > 200 ? `\`${text.slice(0, 197)}...\`` : `\`${text}\``;
}

function dialectName(d: Dialect): string {
  return d === 'draft-06' ? `${d}, read by ajv's draft-07 class` : d === 'openapi-3.0' ? `${d}, read by ajv-draft-04` : d;
}

// ---- document checks ---------------------------------------------------------------------------------

/** Tool fields and annotations, by the safety of the rewrite. */
function checkDocuments(before: McpTool, after: McpTool, safety: Safety, annotations: AnnotationSets): VerifyFailure | undefined {
  if (safety === 'lossy' || before === after) return undefined;
  const failure = checkFields(before, after, safety);
  if (failure) return failure;
  for (const slot of SCHEMA_SLOTS) {
    const a = (before as Record<string, unknown>)[slot];
    const b = (after as Record<string, unknown>)[slot];
    if (a === b) continue;
    if (safety !== 'lossless') continue;
    const f = noAnnotationWritten(a, b, annotations);
    if (f) return { check: 'annotations', path: '/' + slot + f.path, message: f.message };
  }
  return undefined;
}

/** True when every schema of `after` equals the one of `before` once annotations are removed. */
function onlyAnnotationsDiffer(before: McpTool, after: McpTool, assume: Dialect): boolean {
  for (const slot of SCHEMA_SLOTS) {
    const a = (before as Record<string, unknown>)[slot];
    const b = (after as Record<string, unknown>)[slot];
    if (a === b) continue;
    const dialect = getDeclaredDialect(a, assume).dialect;
    const table = getKeywordTable(dialect);
    if (!equalBesidesAnnotations(a, b, table) || !refTargetsKept(a, b, dialect, table)) return false;
  }
  return true;
}

/**
 * A `$ref` may land inside an annotation's value (`#/x-defs/A`): ajv compiles whatever is there. Every
 * such target of `a` must hold the same value in `b`; targets at schema positions are compared by
 * {@link equalBesidesAnnotations} already.
 */
function refTargetsKept(a: unknown, b: unknown, dialect: Dialect, table: KeywordTable): boolean {
  const inventory = refInventoryOf(a, dialect);
  for (const site of inventory.refs) {
    if (!site.inSchema) continue;
    const r = resolveRefSite(a, inventory, site);
    if (r.status !== 'resolved') continue;
    const tokens = parsePointer(r.path);
    if (!isSchemaPosition(a, tokens, table) && !jsonEqual(getAt(a, tokens), getAt(b, tokens))) return false;
  }
  return true;
}

/** True when `tokens` lead from `root` to a subschema through schema positions only. */
function isSchemaPosition(root: unknown, tokens: readonly string[], table: KeywordTable): boolean {
  let node = root;
  for (let i = 0; i < tokens.length; ) {
    if (!isObject(node) || !hasOwn(node, tokens[i]!)) return false;
    const value = node[tokens[i]!];
    const shape = table.get(tokens[i]!)?.shape;
    if (shape === 'schema' || (shape === 'schemaOrArray' && !Array.isArray(value))) {
      node = value;
      i += 1;
    } else if ((shape === 'schemaArray' || shape === 'schemaOrArray') && Array.isArray(value) && i + 1 < tokens.length) {
      node = value[Number(tokens[i + 1])];
      i += 2;
    } else if ((shape === 'schemaMap' || shape === 'schemaOrStrings') && isObject(value) && i + 1 < tokens.length && hasOwn(value, tokens[i + 1]!)) {
      node = value[tokens[i + 1]!];
      i += 2;
    } else return false;
  }
  return isObject(node) || typeof node === 'boolean';
}

/** Every tool field outside the schema slots is unchanged (an annotation rewrite may change `title` and `description`). */
function checkFields(before: McpTool, after: McpTool, safety: Safety): VerifyFailure | undefined {
  const a = before as Record<string, unknown>;
  const b = after as Record<string, unknown>;
  for (const k of Object.keys(a)) {
    if (notAField(k, safety)) continue;
    if (!hasOwn(b, k)) return { check: 'fields', path: appendPointer('', k), message: `a ${safety} rewrite removed the tool field \`${k}\`` };
    if (!jsonEqual(a[k], b[k])) return { check: 'fields', path: appendPointer('', k), message: `a ${safety} rewrite changed the tool field \`${k}\`` };
  }
  for (const k of Object.keys(b)) {
    if (!notAField(k, safety) && !hasOwn(a, k)) return { check: 'fields', path: appendPointer('', k), message: `a ${safety} rewrite added the tool field \`${k}\`` };
  }
  return undefined;
}

/** A tool member {@link checkFields} leaves to other checks: a schema slot, or at `annotation` safety a tool annotation field. */
function notAField(k: string, safety: Safety): boolean {
  return (SCHEMA_SLOTS as readonly string[]).includes(k) || (safety === 'annotation' && (TOOL_ANNOTATION_FIELDS as readonly string[]).includes(k));
}

/**
 * The two schemas are equal once every annotation keyword (by the keyword table's role, and every
 * extension keyword `x-…`) is removed from every schema position. Data (`const`, `enum`, `default` values, unknown keywords) is compared whole,
 * never stripped inside; property names are names, not annotations.
 */
function equalBesidesAnnotations(a: unknown, b: unknown, table: KeywordTable): boolean {
  const stack: [unknown, unknown, boolean][] = [[a, b, true]];
  while (stack.length > 0) {
    const [x, y, schema] = stack.pop()!;
    if (x === y) continue;
    if (!schema || !isObject(x) || !isObject(y)) {
      if (!jsonEqual(x, y)) return false;
      continue;
    }
    // Both objects' keys that are not annotations: as many in each, and each of x's in y.
    let ny = 0;
    for (const k of Object.keys(y)) if (!isAnnotationIn(table, k)) ny++;
    for (const k of Object.keys(x)) {
      if (isAnnotationIn(table, k)) continue;
      ny--;
      if (!hasOwn(y, k)) return false;
      const vx = x[k];
      const vy = y[k];
      const shape = table.get(k)?.shape ?? 'opaque';
      if (shape === 'schema') stack.push([vx, vy, true]);
      else if ((shape === 'schemaArray' || shape === 'schemaOrArray') && Array.isArray(vx) && Array.isArray(vy)) {
        if (vx.length !== vy.length) return false;
        for (let i = 0; i < vx.length; i++) stack.push([vx[i], vy[i], true]);
      } else if (shape === 'schemaOrArray' && !Array.isArray(vx) && !Array.isArray(vy)) stack.push([vx, vy, true]);
      else if ((shape === 'schemaMap' || shape === 'schemaOrStrings') && isObject(vx) && isObject(vy)) {
        const mx = Object.keys(vx);
        if (mx.length !== Object.keys(vy).length || mx.some((m) => !hasOwn(vy, m))) return false;
        for (const m of mx) stack.push([vx[m], vy[m], !(shape === 'schemaOrStrings' && Array.isArray(vx[m]))]);
      } else stack.push([vx, vy, false]);
    }
    if (ny !== 0) return false;
  }
  return true;
}

/**
 * Whether `k` is an annotation where `table` is read: an unknown keyword is one (2020-12 core §6.5; ignored
 * by draft-04/-07 readers); an extension keyword (`x-…`) is one no dialect defines, so removing one never
 * needs a compile. (A module function, not a closure per call: see src/json/shapes.ts.)
 */
function isAnnotationIn(table: KeywordTable, k: string): boolean {
  const info = table.get(k);
  return info === undefined ? isExtensionKeyword(k) : info.role === 'annotation';
}

// One instance kept, so its map outlives a full GC between runs (src/json/shapes.ts); it creates no ajv until asked.
anchorShape(new AjvPool());

/**
 * {@link AjvPool.compile}'s key for a schema: its reading and JSON text; or, for one that JSON cannot write
 * (a schema built in code that contains itself), the failed compile that says where, found only then.
 */
function keyOf(kind: AjvReading, schema: unknown): string | CompileResult {
  try {
    return kind + '\u0000' + jsonKey(schema);
  } catch (e) {
    const problem = findJsonProblem(schema, Infinity, [], undefined, 'schema');
    return { ok: false, error: problem === undefined ? `the schema cannot be written as JSON (${errorMessage(e)})` : `the schema is not plain JSON: ${problem.message} at \`${problem.path}\`` };
  }
}
