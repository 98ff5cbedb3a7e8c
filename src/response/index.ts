/**
 * `toolslim/response`: keep `tools/call` results inside a budget. Definitions are a fixed cost per turn;
 * responses are the variable one, and cutting JSON text at a byte boundary breaks it. These helpers work
 * on records instead:
 *
 * ```ts
 * import { projectFields, pageByByteBudget, measureResponse } from 'toolslim/response';
 * const slim = projectFields(rows, ['id', 'title', 'owner.login']);
 * const page = pageByByteBudget(slim, { budget: 8_000 });   // { rows, bytes, nextOffset }
 * ```
 *
 * Pure functions: no I/O, no clock; inputs are never changed. A tokenizer is only used when the caller
 * passes one (see `toolslim/tokens`).
 */
import { ToolslimError } from '../core/errors.js';
import { utf8Length, type Size, type Tokenizer } from '../core/measure.js';
import { hasOwn, isObject } from '../json/guards.js';

export type { Size, Tokenizer } from '../core/measure.js';

/**
 * A field to keep: a dotted path (`"owner.login"`), or an array of keys for names that themselves hold
 * a dot (`["metadata", "app.kubernetes.io/name"]`).
 */
export type FieldPath = string | readonly string[];

/**
 * Keeps only the listed fields of every record (a new array; the input is not changed).
 *
 * - A dotted path selects a nested member and keeps its nesting: `"owner.login"` gives
 *   `{ owner: { login } }`. Pass an array of keys when a key holds a dot.
 * - When a path meets an array on its way down, the rest of the path applies to each element
 *   (`"labels.name"` on `{ labels: [{ name, color }] }` gives `{ labels: [{ name }] }`); elements that are
 *   not objects are left out of such an array. An array at the end of a path is kept whole.
 * - Members come out in the order the fields are listed (first mention wins); a path that is missing in a
 *   record is simply absent from it (never `null`). Listing `"a"` and `"a.b"` keeps all of `a`.
 * - Records that are not objects (numbers, strings, arrays, `null`) pass through unchanged.
 * - `__proto__` and `constructor` are ordinary keys.
 */
export function projectFields<T = unknown>(rows: readonly T[], fields: readonly FieldPath[]): unknown[] {
  if (!Array.isArray(rows)) throw new ToolslimError('invalid-input', `projectFields: \`rows\` must be an array, got ${typeName(rows)}`);
  if (!Array.isArray(fields)) throw new ToolslimError('invalid-option', 'projectFields: `fields` must be an array of field paths');
  const tree = buildFieldTree(fields);
  const out = new Array<unknown>(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    out[i] = isObject(row) ? projectObject(row, tree) : row;
  }
  return out;
}

/** Options of {@link pageByByteBudget}. */
export interface PageOptions {
  /** The most bytes a page may take: UTF-8 of the compact JSON array of its records, brackets and commas included. */
  readonly budget: number;
  /** Index of the first record of the page (default 0). */
  readonly offset?: number;
}

/** One page of records. */
export interface Page<T = unknown> {
  /** The records of this page (the same values as in the input, not copies). */
  readonly rows: T[];
  /** UTF-8 bytes of `JSON.stringify(rows)`: brackets, commas and every record. */
  readonly bytes: number;
  /** Where the next page starts, or `null` when this page reaches the end. */
  readonly nextOffset: number | null;
}

/**
 * Takes as many whole records as fit in `budget` bytes, starting at `offset`. A page never ends inside a
 * record, so every page parses on its own; `JSON.stringify(page.rows)` is exactly `page.bytes` bytes.
 * Feeding `nextOffset` back in walks the whole input; concatenating the pages gives it back.
 *
 * Throws a {@link ToolslimError} naming the record and its size when the record at `offset` cannot fit in
 * a page by itself (so a loop over pages always ends). A page at or past the end is empty
 * (`{ rows: [], bytes: 2, nextOffset: null }`).
 */
export function pageByByteBudget<T>(rows: readonly T[], options: PageOptions): Page<T> {
  if (!Array.isArray(rows)) throw new ToolslimError('invalid-input', `pageByByteBudget: \`rows\` must be an array, got ${typeName(rows)}`);
  const budget = options?.budget;
  const offset = options?.offset ?? 0;
  if (typeof budget !== 'number' || !Number.isFinite(budget) || budget < 2) {
    throw new ToolslimError('invalid-option', `pageByByteBudget: \`budget\` must be a number of bytes of at least 2 (the empty page \`[]\`), got ${String(budget)}`);
  }
  if (!Number.isSafeInteger(offset) || offset < 0) {
    throw new ToolslimError('invalid-option', `pageByByteBudget: \`offset\` must be a non-negative integer, got ${String(offset)}`);
  }
  const page: T[] = [];
  let bytes = 2; // `[` and `]`
  let i = offset;
  for (; i < rows.length; i++) {
    const size = utf8Length(recordText(rows[i], i));
    const next = bytes + size + (page.length > 0 ? 1 : 0);
    if (next > budget) {
      if (page.length === 0) {
        throw new ToolslimError(
          'invalid-input',
          `record ${i} is ${size} bytes of compact JSON; a page holding only it needs ${size + 2} bytes, over the budget of ${budget} bytes`,
          { path: '/' + i },
        );
      }
      break;
    }
    page.push(rows[i]!);
    bytes = next;
  }
  return { rows: page, bytes, nextOffset: i < rows.length ? i : null };
}

/** Options of {@link measureResponse}. */
export interface MeasureResponseOptions {
  /** Counts tokens too (see `toolslim/tokens`). */
  readonly tokenizer?: Tokenizer;
}

/** The size of one content item of a `tools/call` result. */
export interface ContentItemSize {
  readonly index: number;
  /** The item's `type` (`text`, `image`, `audio`, `resource`, `resource_link`, …), or `""`. */
  readonly type: string;
  /**
   * Bytes of what the item carries: the UTF-8 of `text` for text items and embedded text resources, the
   * base64 characters of `data`/`blob` for binary ones, the compact JSON of the item otherwise.
   */
  readonly bytes: number;
  /** Tokens of the text, for text items and embedded text resources, when a tokenizer was given. */
  readonly tokens?: number;
}

/** Sizes of a `tools/call` result. */
export interface ResponseSize {
  /** `text` plus `structured`: what a client can hand to the model. */
  readonly bytes: number;
  readonly tokens?: number;
  /** Text of every text item and embedded text resource. */
  readonly text: Size;
  /** Compact JSON of `structuredContent`, when the result has one. */
  readonly structured?: Size;
  /** UTF-8 bytes of the compact JSON of the whole result, as sent on the wire. */
  readonly wireBytes: number;
  readonly items: readonly ContentItemSize[];
  /**
   * True when a text item holds the same JSON as `structuredContent` (the backwards-compatible form the
   * MCP spec suggests): a client that passes both pays for it twice.
   */
  readonly structuredDuplicatedInText: boolean;
}

/**
 * Measures a `tools/call` result (`{ content: [...], structuredContent?, isError? }`, or a JSON-RPC response
 * holding one): bytes, and tokens when a tokenizer is given, of its text content and its structured content.
 */
export function measureResponse(result: unknown, options: MeasureResponseOptions = {}): ResponseSize {
  const tokenizer = options.tokenizer;
  const r = unwrapResult(result);
  const content = hasOwn(r, 'content') ? r.content : undefined;
  if (content !== undefined && !Array.isArray(content)) throw new ToolslimError('invalid-input', `measureResponse: \`content\` is ${typeName(content)}, expected an array`, { path: '/content' });
  const items: ContentItemSize[] = [];
  let textBytes = 0;
  let textTokens = 0;
  const texts: string[] = [];
  for (const [index, item] of (content ?? []).entries()) {
    const type = isObject(item) && typeof item.type === 'string' ? item.type : '';
    const text = itemText(item);
    if (text !== undefined) {
      const bytes = utf8Length(text);
      textBytes += bytes;
      texts.push(text);
      if (tokenizer) {
        const tokens = tokenizer.count(text);
        textTokens += tokens;
        items.push({ index, type, bytes, tokens });
      } else items.push({ index, type, bytes });
      continue;
    }
    const binary = itemBinary(item);
    items.push({ index, type, bytes: binary !== undefined ? binary.length : utf8Length(jsonText(item, `/content/${index}`) ?? 'null') });
  }
  const text: Size = tokenizer ? { bytes: textBytes, tokens: textTokens } : { bytes: textBytes };
  let structured: Size | undefined;
  let structuredJson: string | undefined;
  if (hasOwn(r, 'structuredContent') && r.structuredContent !== undefined) {
    structuredJson = jsonText(r.structuredContent, '/structuredContent') ?? 'null';
    structured = tokenizer ? { bytes: utf8Length(structuredJson), tokens: tokenizer.count(structuredJson) } : { bytes: utf8Length(structuredJson) };
  }
  const bytes = text.bytes + (structured?.bytes ?? 0);
  const wireBytes = utf8Length(jsonText(r, '') ?? '');
  const duplicated = structuredJson !== undefined && texts.some((t) => sameJson(t, structuredJson!));
  const base = { bytes, ...(tokenizer ? { tokens: textTokens + (structured?.tokens ?? 0) } : {}), text };
  return { ...base, ...(structured ? { structured } : {}), wireBytes, items, structuredDuplicatedInText: duplicated };
}

// ---------------------------------------------------------------------------------------------------

/** A node of the field tree: `true` keeps the whole value; a map narrows further. */
type FieldTree = Map<string, FieldTree | true>;

function buildFieldTree(fields: readonly FieldPath[]): FieldTree {
  const root: FieldTree = new Map();
  for (const [i, field] of fields.entries()) {
    const keys = typeof field === 'string' ? field.split('.') : Array.isArray(field) ? field : undefined;
    if (!keys || keys.length === 0 || keys.some((k) => typeof k !== 'string' || k === '')) {
      throw new ToolslimError('invalid-option', `projectFields: field ${i} (${JSON.stringify(field)}) is not a dotted path or a non-empty array of non-empty keys`);
    }
    let node = root;
    for (let d = 0; d < keys.length; d++) {
      const key = keys[d]!;
      const existing = node.get(key);
      if (existing === true) break; // a shorter path already keeps the whole value
      if (d === keys.length - 1) {
        node.set(key, true);
        break;
      }
      if (existing === undefined) {
        const child: FieldTree = new Map();
        node.set(key, child);
        node = child;
      } else node = existing;
    }
  }
  return root;
}

/** Projects one object; recursion depth is bounded by the longest field path, not by the data. */
function projectObject(obj: Record<string, unknown>, tree: FieldTree): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, sub] of tree) {
    if (!hasOwn(obj, key)) continue;
    const value = obj[key];
    let projected: unknown;
    if (sub === true) projected = value;
    else if (isObject(value)) projected = projectObject(value, sub);
    else if (Array.isArray(value)) {
      const arr: unknown[] = [];
      for (const el of value) if (isObject(el)) arr.push(projectObject(el, sub));
      projected = arr;
    } else continue; // a scalar where an object was expected: the path is missing here
    if (key === '__proto__') Object.defineProperty(out, key, { value: projected, writable: true, enumerable: true, configurable: true });
    else out[key] = projected;
  }
  return out;
}

/** The compact JSON of a record as it appears inside an array (`undefined` and functions become `null`). */
function recordText(row: unknown, index: number): string {
  try {
    return JSON.stringify(row) ?? 'null';
  } catch (e) {
    throw new ToolslimError('invalid-input', `record ${index} cannot be written as JSON (${(e as Error).message})`, { path: '/' + index, cause: e });
  }
}

/** `JSON.stringify`, with a {@link ToolslimError} naming the place when the value cannot be written. */
function jsonText(value: unknown, path: string): string | undefined {
  try {
    return JSON.stringify(value);
  } catch (e) {
    throw new ToolslimError('invalid-input', `measureResponse: the value at \`${path}\` cannot be written as JSON (${(e as Error).message})`, { path, cause: e });
  }
}

function unwrapResult(result: unknown): Record<string, unknown> {
  if (isObject(result) && hasOwn(result, 'jsonrpc') && hasOwn(result, 'result') && isObject(result.result)) return result.result;
  if (isObject(result)) return result;
  throw new ToolslimError('invalid-input', `measureResponse: expected a tools/call result ({ "content": [...] }) or a JSON-RPC response holding one, got ${typeName(result)}`);
}

function itemText(item: unknown): string | undefined {
  if (!isObject(item)) return undefined;
  if (item.type === 'text' && typeof item.text === 'string') return item.text;
  if (item.type === 'resource' && isObject(item.resource) && typeof item.resource.text === 'string') return item.resource.text;
  return undefined;
}

function itemBinary(item: unknown): string | undefined {
  if (!isObject(item)) return undefined;
  if ((item.type === 'image' || item.type === 'audio') && typeof item.data === 'string') return item.data;
  if (item.type === 'resource' && isObject(item.resource) && typeof item.resource.blob === 'string') return item.resource.blob;
  return undefined;
}

function sameJson(text: string, json: string): boolean {
  const c = text.trimStart().charCodeAt(0);
  if (c !== 123 /* { */ && c !== 91 /* [ */) return false;
  try {
    return JSON.stringify(JSON.parse(text)) === json;
  } catch {
    return false;
  }
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
