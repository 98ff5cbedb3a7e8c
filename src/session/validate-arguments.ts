/**
 * Checking a call's arguments against the tool's real `inputSchema`, the way a careful server would,
 * before a call of a cold tool (whose served schema says almost nothing) is forwarded.
 */
import type { ErrorObject, Options as AjvOptions, ValidateFunction } from 'ajv';
import { ToolslimError } from '../core/errors.js';
import type { JsonSchema, McpTool } from '../core/tool.js';
import { getDeclaredDialect } from '../schema/dialect.js';
import { DIALECTS, type Dialect } from '../schema/keywords.js';
import { isObject } from '../json/guards.js';
import { createReader, readingOf, schemaAsRead, type AjvReading, type AnyAjv } from '../verify/readers.js';
import { boundedRegExp } from '../verify/bounded-regexp.js';
import { compileCost, type CompileCost } from '../verify/compile-cost.js';
import { describeValue, isOptionsObject } from './hot-set.js';
import { stringifyJson } from '../json/stringify.js';

/** One reason the arguments do not match: where in the arguments, and what ajv said. */
export interface ArgumentIssue {
  /** JSON Pointer into the arguments (`""` for the arguments object itself). */
  readonly path: string;
  /** ajv's message, with the offending name or the allowed values where ajv's own text omits them. */
  readonly message: string;
}

/** The verdict on one call's arguments. */
export type ArgumentCheck =
  /** The arguments match the schema. */
  | { readonly status: 'valid' }
  /** They do not; `issues` names each mismatch (at most `maxIssues`, `omitted` more). */
  | { readonly status: 'invalid'; readonly issues: readonly ArgumentIssue[]; readonly omitted: number }
  /** The schema could not be compiled, so nothing can be said: the call should be forwarded. */
  | { readonly status: 'unchecked'; readonly reason: string };

/** Options of {@link ArgumentValidator}. */
export interface ArgumentValidatorOptions {
  /** The dialect of a schema without `$schema` (default `2020-12`, as MCP says). */
  readonly assume?: Dialect;
  /** Most issues listed per call (default 20); the rest are counted in `omitted`. */
  readonly maxIssues?: number;
}

/**
 * `uniqueItems` over an array of objects or arrays is checked by ajv pair by pair (its `equal` on every two
 * items): 10,000 small objects took 1.4 s, 50,000 would take 35 s, on the proxy's one thread. Arguments
 * holding an array longer than this, for a schema that says `uniqueItems` anywhere, are not checked
 * (`unchecked`, with the reason): the call goes to the server, which checks them as it does for every hot
 * tool. At this length ajv's pairs take some 60 ms.
 */
export const MAX_UNIQUE_CHECKED = 2048;
/**
 * Bounds on what a schema may hold for the argument check to compile it (see verify/compile-cost.ts): ajv's
 * code generation grows faster than the schema for these shapes, on the proxy's one thread, so past any of
 * them the schema is not compiled and its calls go unchecked, with the reason (the server checks them, as it
 * does for every hot tool). Each bound is many times what any captured server's input schema holds (627
 * objects, 23 `oneOf` branches, 10 patterns, 8 references, a handful of names). A schema at all of the list
 * bounds at once (256 branches, 512 patterns, 512 references, 2,048 names: 2,309 objects) compiled in 1.2 s,
 * and the slowest shape within the bound on objects (1,364 `allOf` members) 1.5 s, where the same shapes past
 * them held the thread 4 to 10 s, or minutes at a larger size.
 */
/** Names of one `dependentRequired` (or `dependencies`) list: 2,000 names 0.43 s, 8,000 five seconds, 20,000 ran the proxy out of memory. */
export const MAX_DEPENDENT_CHECKED = 2048;
/** Objects in the schema: 4,000 `allOf` members (12,000 objects) 3.8 s; at this bound the slowest shape measured (1,364 members) 1.5 s. */
export const MAX_OBJECTS_CHECKED = 4096;
/** Branches of one `oneOf`: 1,000 object branches 2.6 s, 2,000 ten seconds and then out of stack; 256 take 0.2 s. */
export const MAX_ONE_OF_CHECKED = 256;
/** `pattern` values and `patternProperties` names: 4,000 of either about 4 s, 1,024 about 0.45 s, 512 0.2 s. */
export const MAX_PATTERNS_CHECKED = 512;
/** References (`$ref` and its dynamic kinds): 4,000 properties each referring to a definition of its own 4 s, 512 0.2 s. */
export const MAX_REFS_CHECKED = 512;

/** Why a schema with these counts is not compiled, or undefined when it is within every bound. */
function tooCostly(cost: CompileCost): string | undefined {
  const n = (x: number) => x.toLocaleString('en-US');
  if (cost.dependentNames > MAX_DEPENDENT_CHECKED) return `a \`dependentRequired\` list of ${n(cost.dependentNames)} names (ajv's code for it grows with its square; more than ${n(MAX_DEPENDENT_CHECKED)} are not compiled)`;
  if (cost.widestOneOf > MAX_ONE_OF_CHECKED) return `a \`oneOf\` of ${n(cost.widestOneOf)} branches (ajv's code for it grows faster than the list; more than ${n(MAX_ONE_OF_CHECKED)} are not compiled)`;
  if (cost.patterns > MAX_PATTERNS_CHECKED) return `${n(cost.patterns)} patterns (\`pattern\` and \`patternProperties\`; ajv's compile time grows faster than their number; more than ${n(MAX_PATTERNS_CHECKED)} are not compiled)`;
  if (cost.refs > MAX_REFS_CHECKED) return `${n(cost.refs)} references (ajv's compile time grows faster than their number; more than ${n(MAX_REFS_CHECKED)} are not compiled)`;
  if (cost.objects > MAX_OBJECTS_CHECKED) return `a schema of more than ${n(MAX_OBJECTS_CHECKED)} objects (ajv's compile time grows faster than the schema; a larger one, or one that holds itself, is not compiled)`;
  return undefined;
}

type Compiled = { readonly ok: true; readonly validate: ValidateFunction; readonly uniqueItems?: boolean } | { readonly ok: false; readonly error: string };

/**
 * ajv options for argument checks: every error (so each can be named), no format assertions (in
 * 2020-12 `format` is an annotation unless a vocabulary says otherwise, and ajv without `ajv-formats`
 * knows none anyway), no meta-schema validation (compiling is the test, as in the MCP SDK's own
 * validator), and nothing that changes the data: no defaults, no coercion, no removal.
 */
// Patterns in bounded time where V8 allows (bounded-regexp.ts): a server's pattern meets a model's text here.
// Only the arguments' own members count (`ownProperties`): JSON has no prototype, but ajv's default reads
// `data.constructor`, `data.toString`, … through it, refusing a valid call that leaves out a property of such
// a name and passing one that leaves out a required `hasOwnProperty`.
const AJV_OPTIONS: AjvOptions = { strict: false, logger: false, allErrors: true, validateFormats: false, validateSchema: false, ownProperties: true, code: { regExp: boundedRegExp } };

/**
 * Validates call arguments against tools' input schemas with ajv in each schema's dialect (its
 * `$schema`, else `assume`), read as the equivalence gate reads it (src/verify/readers.ts): draft-04 and
 * OpenAPI 3.0 with ajv-draft-04 (`id` identifies, `$id` does not), draft-06 without `if`/`then`/`else`,
 * and in draft-04/06/07 every sibling of `$ref` ignored, as those drafts say. A schema is compiled the
 * first time a call needs it and kept for the validator's lifetime (keyed by the schema object and by its
 * JSON text, so a list fetched again compiles nothing new). A schema whose JSON mentions an `$id` (or
 * `id`) member gets an ajv instance of its own, so two tools with the same `$id`
 * never see each other's definitions. The arguments are never changed.
 */
export class ArgumentValidator {
  readonly assume: Dialect;
  readonly maxIssues: number;
  readonly #shared = new Map<AjvReading, AnyAjv>();
  readonly #compiled = new WeakMap<object, Compiled>();
  /** By ajv class and JSON text: a list fetched again holds new objects with the same schemas. */
  readonly #byText = new Map<string, Compiled>();
  #compiles = 0;

  /** @throws ToolslimError (`invalid-option`) for an unknown dialect or a bad `maxIssues` */
  constructor(options: ArgumentValidatorOptions = {}) {
    if (!isOptionsObject(options)) throw new ToolslimError('invalid-option', `ArgumentValidator: options must be an object, got ${describeValue(options)}`);
    const assume = options.assume ?? '2020-12';
    if (!DIALECTS.includes(assume)) throw new ToolslimError('invalid-option', `ArgumentValidator: \`assume\` must be one of ${DIALECTS.join(', ')}, got ${describeValue(assume)}`);
    const maxIssues = options.maxIssues ?? 20;
    if (!Number.isSafeInteger(maxIssues) || maxIssues < 1) throw new ToolslimError('invalid-option', `ArgumentValidator: \`maxIssues\` must be a positive integer, got ${describeValue(maxIssues)}`);
    this.assume = assume;
    this.maxIssues = maxIssues;
  }

  /** How many schemas were compiled so far (a repeated call of the same tool compiles nothing). */
  get compiled(): number {
    return this.#compiles;
  }

  /**
   * Checks `args` against `tool.inputSchema`. Absent arguments (`undefined`) are checked as `{}`, which
   * is what a server reading an MCP `tools/call` without `arguments` sees.
   */
  check(tool: Pick<McpTool, 'inputSchema'>, args: unknown): ArgumentCheck {
    const schema = isObject(tool) ? tool.inputSchema : undefined;
    const compiled = this.#compile(schema);
    if (!compiled.ok) return { status: 'unchecked', reason: compiled.error };
    const data = args === undefined ? {} : args;
    if (compiled.uniqueItems === true) {
      const long = longestArray(data);
      if (long > MAX_UNIQUE_CHECKED) return { status: 'unchecked', reason: `an array of ${long.toLocaleString('en-US')} items, where the schema says \`uniqueItems\` (ajv compares every two items; more than ${MAX_UNIQUE_CHECKED.toLocaleString('en-US')} are not checked)` };
    }
    let valid: boolean;
    try {
      valid = compiled.validate(data) as boolean;
    } catch (e) {
      return { status: 'unchecked', reason: `ajv failed while validating: ${(e as Error)?.message ?? String(e)}` };
    }
    if (valid) return { status: 'valid' };
    const errors = compiled.validate.errors ?? [];
    const issues = errors.slice(0, this.maxIssues).map(toIssue);
    if (issues.length === 0) issues.push({ path: '', message: 'does not match the schema' });
    return { status: 'invalid', issues, omitted: Math.max(0, errors.length - this.maxIssues) };
  }

  #compile(schema: unknown): Compiled {
    if (typeof schema === 'boolean') return { ok: true, validate: (schema ? ALWAYS : NEVER) as unknown as ValidateFunction };
    if (!isObject(schema)) return { ok: false, error: `the tool's \`inputSchema\` is ${describeValue(schema)}, not a schema` };
    const known = this.#compiled.get(schema);
    if (known) return known;
    const dialect = getDeclaredDialect(schema, this.assume).dialect;
    const kind = readingOf(dialect);
    const text = jsonText(schema);
    const key = text === undefined ? undefined : kind + '\u0000' + text;
    let result = key === undefined ? undefined : this.#byText.get(key);
    const costly = result ? undefined : tooCostly(compileCost(schema, MAX_OBJECTS_CHECKED));
    if (costly !== undefined) {
      result = { ok: false, error: costly };
      if (key !== undefined) this.#byText.set(key, result);
    }
    if (!result) {
      try {
        const ajv = text === undefined || text.includes('"$id":') || text.includes('"id":') ? createReader(kind, AJV_OPTIONS) : this.#instance(kind);
        this.#compiles++;
        const validate = ajv.compile(schemaAsRead(schema as JsonSchema, dialect) as object);
        // Without a JSON text (a cycle), assume the keyword may be there.
        result = text === undefined || text.includes('"uniqueItems":') ? { ok: true, validate, uniqueItems: true } : { ok: true, validate };
      } catch (e) {
        if (e instanceof ToolslimError) throw e; // ajv cannot be loaded: a setup problem
        result = { ok: false, error: e instanceof RangeError ? 'ajv ran out of stack compiling it (nesting too deep)' : `ajv cannot compile it: ${(e as Error)?.message ?? String(e)}` };
      }
      if (key !== undefined) this.#byText.set(key, result);
    }
    this.#compiled.set(schema, result);
    return result;
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

function ALWAYS(): boolean {
  return true;
}

function NEVER(this: unknown): boolean {
  (NEVER as unknown as { errors: unknown }).errors = [{ instancePath: '', message: 'no value is valid (the schema is `false`)', keyword: 'false', params: {}, schemaPath: '#' }];
  return false;
}

/** The length of the longest array anywhere in `value` (0 without one); iterative, each container read once. */
function longestArray(value: unknown): number {
  let longest = 0;
  const stack: unknown[] = [value];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v !== 'object' || v === null || seen.has(v)) continue;
    seen.add(v);
    if (Array.isArray(v)) {
      if (v.length > longest) longest = v.length;
      for (let i = 0; i < v.length; i++) stack.push(v[i]);
    } else for (const k of Object.keys(v)) stack.push((v as Record<string, unknown>)[k]);
  }
  return longest;
}

/** The schema's compact JSON, or undefined when it has none (a cycle, a BigInt): such a schema is compiled alone. */
function jsonText(schema: object): string | undefined {
  try {
    return stringifyJson(schema);
  } catch {
    return undefined;
  }
}

/** ajv's error as an issue: its pointer and message, with what the message leaves out. */
function toIssue(e: ErrorObject): ArgumentIssue {
  const params = (e.params ?? {}) as Record<string, unknown>;
  let message = e.message ?? `fails \`${e.keyword}\``;
  if (e.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') message += `: \`${params.additionalProperty}\``;
  else if (e.keyword === 'unevaluatedProperties' && typeof params.unevaluatedProperty === 'string') message += `: \`${params.unevaluatedProperty}\``;
  else if (e.keyword === 'enum' && Array.isArray(params.allowedValues)) message += `: ${clip(JSON.stringify(params.allowedValues), 200)}`;
  else if (e.keyword === 'const' && 'allowedValue' in params) message += `: ${clip(JSON.stringify(params.allowedValue) ?? 'undefined', 200)}`;
  return { path: e.instancePath ?? '', message };
}

function clip(text: string, max: number): string {
  return text.length > max ? text.slice(0, max - 1) + '…' : text;
}
