// Why one file: one transform with its text helpers (first sentence, signatures, shared preambles), each used
// only here; a split into a folder of rules is possible and not done yet.
import { defineTransform } from '../engine/define-transform.js';
import { ToolslimError } from '../core/errors.js';
import { isWhiteSpace } from '../core/chars.js';
import { jsonEqual } from '../json/equal.js';
import { appendPointer } from '../json/pointer.js';
import { hasOwn, isObject } from '../json/guards.js';

/** Options of {@link compressColdTools}. */
export interface CompressColdToolsOptions {
  /** Names of the hot tools, left exactly as they are. Every other tool is compressed. */
  readonly keep?: readonly string[];
  /** Longest compressed description in characters (code points), the closing "…" included (default 80). */
  readonly maxDescriptionLength?: number;
  /** Keep a cold tool's `title` (default true). */
  readonly keepTitle?: boolean;
  /** Keep a cold tool's `annotations` (default true): clients use the hints to decide on confirmations. */
  readonly keepAnnotations?: boolean;
  /** Keep a cold tool's `_meta` (default true): it can carry protocol-level data a client relies on. */
  readonly keepMeta?: boolean;
  /**
   * What a cold tool says about its parameters (default `none`):
   * - `none`: nothing; its input schema is `{"type":"object"}`;
   * - `schema`: its input schema is `{"type":"object","properties":{…}}` with each top-level parameter's
   *   name and its `type` (when the parameter declares a plain one), nothing else: no `required`, no
   *   `additionalProperties`, no descriptions. It accepts every arguments object the real schema accepts,
   *   so a client that validates against it never refuses a valid call;
   * - `signature`: its input schema is `{"type":"object"}` and its description ends with a signature,
   *   ` (folder:string, lines?:integer)`: each parameter's name, `?` when it is not required, and its
   *   plain type (no space after the colon: o200k spends a token on ` string` where `:string` is one); the
   *   sentence's closing period goes, the parenthesis ends it. About a third cheaper than `schema` and it
   *   says which parameters are required.
   */
  readonly parameters?: ColdParameters;
  /** Longest signature between the parentheses, in characters (default 200); parameters that do not fit end in `, …`. */
  readonly maxSignatureLength?: number;
  /**
   * Before shortening, drop a preamble the description shares with other tools of the list (default
   * false): the longest leading text, ending after a `.`, `!`, `?` or `:` and the blanks that follow, that
   * at least `preambleMinTools` descriptions of the list begin with, when it is at least
   * `preambleMinLength` characters long and text follows it. BFCL's tools all begin "This tool belongs to
   * the Gorilla file system. It is a simple file system that … Tool description: ", which is all a cold
   * tool would keep otherwise. Computed over the whole list (hot tools included), so a tool's cold form
   * does not depend on which other tools are hot.
   */
  readonly dropSharedPreamble?: boolean;
  /** How many descriptions must share a preamble before it is dropped (default 2, at least 2). */
  readonly preambleMinTools?: number;
  /** Shortest preamble dropped, in UTF-16 code units (default 40, at least 1). */
  readonly preambleMinLength?: number;
}

/** What a cold tool says about its parameters: see {@link CompressColdToolsOptions.parameters}. */
export type ColdParameters = 'none' | 'schema' | 'signature';

/** What `prepare` computed: the hot names, and the length of each tool's dropped preamble. */
export interface ColdToolsState {
  readonly keep: ReadonlySet<string>;
  /** Tool index → length (UTF-16 code units) of the shared preamble to drop from its description. */
  readonly preambles: ReadonlyMap<number, number>;
}

const COLD_PARAMETERS: readonly ColdParameters[] = Object.freeze(['none', 'schema', 'signature']);

/**
 * Lossy and opt-in (never in a preset): every tool whose name is not in `keep` becomes its name, the first
 * sentence of its description (or its first characters, ending in "…") and an open input schema
 * (`{"type":"object"}`; with `parameters`, its parameter names and types in the schema or as a signature
 * after the sentence), plus `title`,
 * `annotations` and `_meta` unless told otherwise, and an `execution` that lets or makes the client run the
 * tool as a task (`taskSupport` `optional` or `required`, or a member MCP does not define yet; MCP's
 * default goes). Every other field (`outputSchema`, `icons`, unknown fields) is removed. Tools stay where
 * they are, and none is removed; members keep their order.
 *
 * Same `keep`, same bytes: the output depends only on the input, the options and the set of names kept
 * (not on their order), and a cold tool's form does not depend on `keep` at all, so a client that
 * recomputes its hot set each turn sends byte-identical lists whenever the set is unchanged, and prompt
 * caches keyed on the prefix keep hitting.
 */
export const compressColdTools = defineTransform<CompressColdToolsOptions, ColdToolsState>({
  name: 'compress-cold-tools',
  description: 'Replace every tool outside the hot set with its name, first sentence and an open input schema',
  safety: 'lossy',
  defaultOptions: {
    keep: [],
    maxDescriptionLength: 80,
    keepTitle: true,
    keepAnnotations: true,
    keepMeta: true,
    parameters: 'none',
    maxSignatureLength: 200,
    dropSharedPreamble: false,
    preambleMinTools: 2,
    preambleMinLength: 40,
  },
  messages: {
    'shortened-description': 'Shortened the description of cold tool `{tool}` from {before} to {after} characters',
    'replaced-schema': 'Replaced the input schema of cold tool `{tool}` with `{"type":"object"}`',
    'reduced-schema': 'Reduced the input schema of cold tool `{tool}` to its parameter names and types',
    'added-schema': 'Added `{"type":"object"}` as the missing input schema of cold tool `{tool}`',
    'signed-description': 'Wrote the parameter signature of cold tool `{tool}` as its description',
    'removed-field': 'Removed `{field}` from cold tool `{tool}`',
  },
  validateOptions(options) {
    if (!Array.isArray(options.keep) || options.keep.some((k) => typeof k !== 'string')) throw new Error('`keep` must be an array of tool names');
    const max = options.maxDescriptionLength;
    if (!Number.isSafeInteger(max) || (max as number) < 1) throw new Error(`\`maxDescriptionLength\` must be a positive integer, got ${String(max)}`);
    for (const key of ['keepTitle', 'keepAnnotations', 'keepMeta', 'dropSharedPreamble'] as const) {
      if (typeof options[key] !== 'boolean') throw new Error(`\`${key}\` must be true or false`);
    }
    if (!COLD_PARAMETERS.includes(options.parameters as ColdParameters)) throw new Error(`\`parameters\` must be one of ${COLD_PARAMETERS.map((s) => `'${s}'`).join(', ')}, got ${JSON.stringify(options.parameters)}`);
    const sig = options.maxSignatureLength;
    if (!Number.isSafeInteger(sig) || (sig as number) < 1) throw new Error(`\`maxSignatureLength\` must be a positive integer, got ${String(sig)}`);
    const minTools = options.preambleMinTools;
    if (!Number.isSafeInteger(minTools) || (minTools as number) < 2) throw new Error(`\`preambleMinTools\` must be an integer of at least 2, got ${String(minTools)}`);
    const minLength = options.preambleMinLength;
    if (!Number.isSafeInteger(minLength) || (minLength as number) < 1) throw new Error(`\`preambleMinLength\` must be a positive integer, got ${String(minLength)}`);
  },
  prepare(tools, options) {
    const keep = new Set(options.keep ?? []);
    const preambles = options.dropSharedPreamble ? findSharedPreambles(tools.map((t) => (isObject(t) && typeof t.description === 'string' ? t.description : undefined)), options.preambleMinTools ?? 2, options.preambleMinLength ?? 40) : new Map<number, number>();
    return { keep, preambles };
  },
  apply(doc, ctx, options) {
    if (doc.state.keep.has(doc.name)) return;
    const tool = doc.tool as Record<string, unknown>;
    const label = { tool: doc.name || `#${doc.index}` };
    const kept: Readonly<Record<string, boolean>> = {
      name: true,
      description: true,
      inputSchema: true,
      title: options.keepTitle !== false,
      annotations: options.keepAnnotations !== false,
      _meta: options.keepMeta !== false,
      execution: runsAsTask(tool),
    };
    const mode = options.parameters ?? 'none';
    const maxSignature = options.maxSignatureLength ?? 200;
    const signature = mode === 'signature' ? signatureOf(tool.inputSchema, maxSignature) : '';
    for (const key of Object.keys(tool)) {
      const path = appendPointer('', key);
      if (!hasOwn(kept, key) || !kept[key]) {
        ctx.remove(path, 'removed-field', { ...label, field: key });
        continue;
      }
      const value = tool[key];
      if (key === 'description') {
        if (typeof value !== 'string') {
          if (signature !== '') ctx.replace(path, `(${signature})`, 'signed-description', label);
          else ctx.remove(path, 'removed-field', { ...label, field: key });
          continue;
        }
        const preamble = doc.state.preambles.get(doc.index) ?? 0;
        const text = preamble > 0 ? value.slice(preamble) : value;
        const short = mode === 'signature' ? signedDescription(text, signature, options.maxDescriptionLength ?? 80, maxSignature) : shortenDescription(text, options.maxDescriptionLength ?? 80);
        if (short !== value) ctx.replace(path, short, 'shortened-description', { ...label, before: codePoints(value), after: codePoints(short) });
      } else if (key === 'inputSchema') {
        const cold = mode === 'schema' ? parametersSchema(value) : OPEN_SCHEMA;
        if (!jsonEqual(cold, value)) ctx.replace(path, cold === OPEN_SCHEMA ? { type: 'object' } : cold, cold === OPEN_SCHEMA ? 'replaced-schema' : 'reduced-schema', label);
      }
    }
    if (signature !== '' && !hasOwn(tool, 'description')) ctx.add('/description', `(${signature})`, 'signed-description', label);
    if (!hasOwn(tool, 'inputSchema')) ctx.add('/inputSchema', { type: 'object' }, 'added-schema', label);
  },
});

/**
 * Whether a cold form keeps the tool's `execution`: when it is an object other than MCP's default (`{}` or
 * `{"taskSupport":"forbidden"}`, which SDK servers write on every tool), that is `taskSupport` `optional` or
 * `required`, or any member MCP does not define yet. Without it a client takes the tool as `forbidden` and
 * calls a `required` one without a task, which the server refuses: every call of the tool failed.
 */
function runsAsTask(tool: Record<string, unknown>): boolean {
  if (!hasOwn(tool, 'execution') || !isObject(tool.execution)) return false;
  const execution = tool.execution;
  const isDefault = Object.keys(execution).every((k) => k === 'taskSupport') && (execution.taskSupport === undefined || execution.taskSupport === 'forbidden');
  return !isDefault;
}

/**
 * The compressed form of a description: its first sentence, or, when that is longer than `max`
 * characters, its first characters up to a word boundary followed by "…" (at most `max` in all).
 * Whitespace runs become one space. A fixed point: shortening a shortened description changes nothing.
 * One pass that stops after `max + 1` characters, so a 50 KB description costs no more than a short one.
 */
export function shortenDescription(text: string, max: number): string {
  if (!Number.isSafeInteger(max) || max < 1) throw new ToolslimError('invalid-option', `shortenDescription: \`max\` must be a positive integer, got ${String(max)}`);
  const sentence = firstSentence(text, max + 1);
  if (sentence.length <= max) return sentence.join('');
  let keep = sentence.slice(0, max - 1).join('');
  const space = keep.lastIndexOf(' ');
  if (space > 0 && space >= keep.length / 2) keep = keep.slice(0, space);
  return trimTrailing(keep) + '…';
}

/**
 * The text without the blanks and punctuation it ends with (JavaScript's `\s`, `,;:([{-`, en and em dashes):
 * what `/[\s,;:(\[{\-\u2013\u2014]+$/u` removes, read backwards once. That pattern, tried from every position
 * of a run of them followed by anything else, took 0.76 s on a slice with a run of 40,000 commas inside (a
 * `maxDescriptionLength` that large lets one through), and four times that for each doubling.
 * @internal
 */
export function trimTrailing(text: string): string {
  let end = text.length;
  while (end > 0 && isTrailing(text.charCodeAt(end - 1))) end--;
  return end === text.length ? text : text.slice(0, end);
}

function isTrailing(c: number): boolean {
  return isWhiteSpace(c) || c === 0x2c || c === 0x3b || c === 0x3a || c === 0x28 || c === 0x5b || c === 0x7b || c === 0x2d || c === 0x2013 || c === 0x2014;
}

// ---------------------------------------------------------------------------------------------------

/** Abbreviations whose period does not end a sentence (matched against the last few characters). */
const ABBREVIATION = /(?:^|[\s(])(?:e\.g|i\.e|etc|vs|cf|approx|incl|esp|resp|no)\.$/i;
const SPACE = /\s/;
const BLANK = /[ \t\r\f\v]/;

/**
 * The first sentence of the first paragraph, whitespace collapsed and trimmed, as code points; at most
 * `limit` of them (a longer sentence is cut there). A sentence ends at `.`, `!` or `?` followed by
 * whitespace or the end (not after an abbreviation), at `。`, `！`, `？`, or at a blank line.
 */
function firstSentence(text: string, limit: number): string[] {
  const out: string[] = [];
  let pendingSpace = false;
  for (let i = 0; i < text.length && out.length < limit; ) {
    const ch = String.fromCodePoint(text.codePointAt(i)!);
    i += ch.length;
    if (SPACE.test(ch)) {
      if (out.length === 0) continue;
      if (ch === '\n') {
        let j = i;
        while (j < text.length && BLANK.test(text[j]!)) j++;
        if (text[j] === '\n') break; // a blank line ends the paragraph
      }
      pendingSpace = true;
      continue;
    }
    if (pendingSpace) {
      out.push(' ');
      pendingSpace = false;
      if (out.length >= limit) break;
    }
    out.push(ch);
    if (ch === '。' || ch === '！' || ch === '？') break;
    if ((ch === '.' || ch === '!' || ch === '?') && (i >= text.length || SPACE.test(text[i]!))) {
      if (ch !== '.' || !ABBREVIATION.test(tail(out))) break;
    }
  }
  return out;
}

/** The last characters of `out`, enough for the longest abbreviation and the character before it. */
function tail(out: readonly string[]): string {
  const from = Math.max(0, out.length - 9);
  // A leading non-space stands in for the cut-off text, so `^` only matches at the real start.
  return (from > 0 ? 'x' : '') + out.slice(from).join('');
}

const OPEN_SCHEMA: Readonly<Record<string, unknown>> = Object.freeze({ type: 'object' });
const JSON_TYPES: ReadonlySet<string> = new Set(['object', 'array', 'string', 'number', 'integer', 'boolean', 'null']);

/**
 * The `schema` form of an input schema: `{"type":"object","properties":{name: {"type": …} | {}}}`,
 * in the order of the schema's own `properties`. A parameter keeps its `type` when that is one JSON type
 * name or an array of them, and the parameter is an object schema without `nullable: true` (OpenAPI's
 * `nullable` widens `type`; keeping `type` alone would narrow it); otherwise it becomes `{}`. No
 * `properties` at the root (or a root that is not an object schema) gives the open form. A fixed point:
 * the form of a form is itself.
 */
function parametersSchema(schema: unknown): Readonly<Record<string, unknown>> {
  if (!isObject(schema) || !hasOwn(schema, 'properties') || !isObject(schema.properties)) return OPEN_SCHEMA;
  const properties: Record<string, unknown> = {};
  for (const name of Object.keys(schema.properties)) {
    const param = schema.properties[name];
    const form: Record<string, unknown> = {};
    const type = isObject(param) && !(hasOwn(param, 'nullable') && param.nullable === true) ? plainType(param) : undefined;
    if (type !== undefined) form.type = type;
    // `__proto__` is an ordinary parameter name in JSON: defined, never assigned.
    Object.defineProperty(properties, name, { value: form, writable: true, enumerable: true, configurable: true });
  }
  return { type: 'object', properties };
}

/**
 * The signature of an input schema's top-level parameters, without the parentheses:
 * `folder:string, lines?:integer` — each name (bare when it is an identifier, else a JSON string), `?`
 * when the root `required` does not list it, and `:type` when it declares a plain type (one JSON type
 * name, or several joined by `|`; OpenAPI's `nullable: true` adds `|null`). Parameters that would take
 * it past `max` characters are left out and `, …` ends it. `""` for a schema without `properties`.
 */
export function signatureOf(schema: unknown, max: number): string {
  if (!isObject(schema) || !hasOwn(schema, 'properties') || !isObject(schema.properties)) return '';
  const required = new Set(hasOwn(schema, 'required') && Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : []);
  let out = '';
  for (const name of Object.keys(schema.properties)) {
    const param = schema.properties[name];
    let item = (SIGNATURE_NAME.test(name) ? name : JSON.stringify(name)) + (required.has(name) ? '' : '?');
    const type = plainType(param);
    if (type !== undefined) item += ':' + (Array.isArray(type) ? type.join('|') : type) + (isObject(param) && hasOwn(param, 'nullable') && param.nullable === true && !(Array.isArray(type) ? type : [type]).includes('null') ? '|null' : '');
    const next = out === '' ? item : `${out}, ${item}`;
    if (codePoints(next) > max) return out === '' ? '…' : `${out}, …`;
    out = next;
  }
  return out;
}

/**
 * A signed cold description: the shortened sentence without its closing period, then ` (signature)`.
 * With no signature (the schema is already open), a signature the text already ends with is kept, so
 * signing is a fixed point.
 */
function signedDescription(text: string, signature: string, maxDescription: number, maxSignature: number): string {
  let body = text;
  let sig = signature;
  if (sig === '') {
    const at = trailingSignature(text, maxSignature);
    if (at < 0) return shortenDescription(text, maxDescription);
    body = text.slice(0, at > 0 ? at - 1 : 0);
    sig = text.slice(at + 1, -1);
  }
  const sentence = withoutClosingPeriod(shortenDescription(body, maxDescription));
  return sentence === '' ? `(${sig})` : `${sentence} (${sig})`;
}

/**
 * A sentence without the period that ends it, when the parenthesis after it can end it instead: only a
 * `.` after a lowercase letter or a digit that closes no abbreviation (`etc.`, `e.g.`, `U.S.` keep theirs).
 */
function withoutClosingPeriod(sentence: string): string {
  if (!/[\p{Ll}\p{Nd}]\.$/u.test(sentence) || ABBREVIATION.test(sentence.slice(-10))) return sentence;
  return sentence.slice(0, -1);
}

/**
 * Where a signature that `text` ends with starts (the index of its `(`, at the start or after a space),
 * or -1. Only the last `maxSignature + 8` characters are searched, and each candidate is checked by a
 * linear scan, so the cost is bounded whatever the text.
 */
function trailingSignature(text: string, maxSignature: number): number {
  if (!text.endsWith(')')) return -1;
  const from = Math.max(0, text.length - (maxSignature * 2 + 8));
  for (let i = from; i < text.length; i++) {
    if (text[i] !== '(' || (i > 0 && text[i - 1] !== ' ')) continue;
    if (isSignature(text, i + 1, text.length - 1)) return i;
  }
  return -1;
}

/** True when `text[from, to)` is a signature as {@link signatureOf} writes them. */
function isSignature(text: string, from: number, to: number): boolean {
  let i = from;
  if (text.slice(i, to) === '…') return true;
  for (;;) {
    // name
    if (text[i] === '"') {
      i++;
      while (i < to && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      if (i >= to) return false;
      i++;
    } else {
      const start = i;
      while (i < to && /[A-Za-z0-9_$.-]/.test(text[i]!)) i++;
      if (i === start || !/[A-Za-z_$]/.test(text[start]!)) return false;
    }
    if (text[i] === '?') i++;
    if (text[i] === ':') {
      i += text[i + 1] === ' ' ? 2 : 1; // the older `name: type` form is recognised too
      const start = i;
      while (i < to && /[a-z|]/.test(text[i]!)) i++;
      if (i === start) return false;
    }
    if (i === to) return true;
    if (!text.startsWith(', ', i)) return false;
    i += 2;
    if (i === to - 1 && text[i] === '…') return true;
  }
}

/** A parameter's plain type: one JSON type name or a non-empty array of them; else undefined. */
function plainType(param: unknown): string | string[] | undefined {
  if (!isObject(param) || !hasOwn(param, 'type')) return undefined;
  const type = param.type;
  if (typeof type === 'string' && JSON_TYPES.has(type)) return type;
  if (Array.isArray(type) && type.length > 0 && type.every((t) => typeof t === 'string' && JSON_TYPES.has(t))) return [...(type as string[])];
  return undefined;
}

const SIGNATURE_NAME = /^[A-Za-z_$][A-Za-z0-9_$.-]*$/;

/**
 * For each description, the length of the preamble it shares with at least `minTools − 1` others (see
 * {@link CompressColdToolsOptions.dropSharedPreamble}); tools without one are absent. The descriptions are
 * sorted once (n log n comparisons); the longest prefix a description shares with `minTools − 1` others
 * is then the best minimum of adjacent common-prefix lengths over the windows of `minTools` neighbours
 * holding it, found with two monotone-queue passes, and cut back to the last boundary. Linear in the text
 * otherwise.
 */
export function findSharedPreambles(descriptions: readonly (string | undefined)[], minTools: number, minLength: number): Map<number, number> {
  const out = new Map<number, number>();
  const order: number[] = [];
  for (let i = 0; i < descriptions.length; i++) if (typeof descriptions[i] === 'string') order.push(i);
  const n = order.length;
  if (n < minTools) return out;
  order.sort((a, b) => compareCodeUnits(descriptions[a]!, descriptions[b]!) || a - b);
  // lcp[j]: common prefix of sorted j − 1 and j (lcp[0] unused).
  const lcp = new Int32Array(n);
  for (let j = 1; j < n; j++) lcp[j] = commonPrefix(descriptions[order[j - 1]!]!, descriptions[order[j]!]!);
  // win[a]: the prefix the m sorted descriptions a … a + m − 1 share = min lcp[a + 1 … a + m − 1].
  const m = minTools;
  const windows = n - m + 1;
  const win = slidingExtreme(lcp.subarray(1), m - 1, (x, y) => x <= y);
  // best[p]: max win[a] over the windows holding p (a in [p − m + 1, p]).
  const padded = new Int32Array(n + m - 1).fill(-1);
  for (let a = 0; a < windows; a++) padded[a + m - 1] = win[a]!;
  const best = slidingExtreme(padded, m, (x, y) => x >= y);
  for (let p = 0; p < n; p++) {
    const index = order[p]!;
    const text = descriptions[index]!;
    const cut = boundaryAtOrBefore(text, best[p]!);
    if (cut >= minLength && cut < text.length) out.set(index, cut);
  }
  return out;
}

/** For each window of `size` consecutive values, the one `better` keeps (a monotone queue: linear). */
function slidingExtreme(values: Int32Array, size: number, better: (x: number, y: number) => boolean): Int32Array {
  const count = values.length - size + 1;
  const result = new Int32Array(Math.max(0, count));
  const queue = new Int32Array(values.length);
  let head = 0;
  let tail = 0;
  for (let i = 0; i < values.length; i++) {
    while (tail > head && better(values[i]!, values[queue[tail - 1]!]!)) tail--;
    queue[tail++] = i;
    if (queue[head]! <= i - size) head++;
    if (i >= size - 1) result[i - size + 1] = values[queue[head]!]!;
  }
  return result;
}

/**
 * The largest position `b ≤ limit` where the text after a preamble starts: `text[b]` is not blank, the
 * characters before it are a run of blanks preceded by `.`, `!`, `?` or `:`. 0 when there is none.
 */
function boundaryAtOrBefore(text: string, limit: number): number {
  for (let b = Math.min(limit, text.length - 1); b > 1; b--) {
    if (SPACE.test(text[b]!) || !SPACE.test(text[b - 1]!)) continue;
    let k = b - 1;
    while (k > 0 && SPACE.test(text[k]!)) k--;
    const ch = text[k]!;
    if (ch === '.' || ch === '!' || ch === '?' || ch === ':') return b;
    b = k + 1; // the loop steps to k: no boundary lies inside this blank run
  }
  return 0;
}

function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  // Never split a surrogate pair.
  if (i > 0 && i < n) {
    const c = a.charCodeAt(i - 1);
    if (c >= 0xd800 && c <= 0xdbff) i--;
  }
  return i;
}

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function codePoints(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}
