/**
 * Where the records of a `tools/call` result are, if anywhere. A result is *covered* by a response policy
 * only in these shapes (anything else passes through untouched, with the reason):
 *
 * 1. `structuredContent` is an object with exactly one array-valued member (`{ "items": [...], "total": 3 }`);
 *    its `content` is then empty or one text item holding the same JSON (the form the MCP spec suggests).
 * 2. Otherwise `content` is exactly one text item whose text is JSON: an array of records, or an object
 *    with exactly one array-valued member. A `structuredContent` beside it must be a copy of that text (the
 *    same JSON, or an object with one string member holding the very text, as server-filesystem sends).
 *
 * Every record is a JSON object. An `isError` result is never covered. A `structuredContent` that is not
 * plain JSON (a library caller's live object: one that contains itself, holds a function, a getter or a
 * Proxy) is not covered either: the reason names the pointer, and the result passes through untouched.
 */
import { jsonEqual } from '../json/equal.js';
import { hasOwn, isObject } from '../json/guards.js';
import { findJsonProblem } from '../json/plain.js';
import { isParsedJson } from '../json/parsed.js';
import { describeValue } from './hot-set.js';

/** The records of a result and what holds them. */
export interface FoundRecords {
  readonly records: readonly Record<string, unknown>[];
  /** `text`: content[0].text held them; `structuredContent`: structuredContent did. */
  readonly from: 'text' | 'structuredContent';
  /** The object holding the array, and the array's key; absent when the JSON is the array itself. */
  readonly wrapper?: { readonly object: Record<string, unknown>; readonly key: string };
}

/** A result no policy can cover, and why (`quiet`: an error result, nothing worth saying). */
export interface NoRecords {
  readonly reason: string;
  readonly quiet?: true;
}

/** Finds the records of a `tools/call` result (see the module comment for the shapes). */
export function findRecords(result: unknown): FoundRecords | NoRecords {
  if (!isObject(result)) return { reason: `the result is ${describeValue(result)}, not an object` };
  if (result.isError === true) return { reason: 'an error result', quiet: true };
  const content = hasOwn(result, 'content') ? result.content : [];
  if (!Array.isArray(content)) return { reason: '`content` is not an array' };
  const sc = hasOwn(result, 'structuredContent') ? result.structuredContent : undefined;
  if (sc !== undefined && sc !== null && typeof sc === 'object' && !isParsedJson(result)) {
    // Text a client read is plain JSON; an object a library caller built may not be, and every path below
    // reads it (compares it, writes its records out). Members whose value is `undefined` are allowed: JSON omits them.
    // Not for a result the proxy parsed off the wire (marked, json/parsed.ts): the walk costs about twice
    // `JSON.parse` of the result (3 MB of records: ~120 ms against ~60 ms), on every call under a policy.
    const problem = findJsonProblem(sc, Infinity, [], undefined, 'value');
    if (problem !== undefined) return { reason: `structuredContent is not plain JSON: ${problem.message} at \`/structuredContent${problem.path}\`` };
  }
  const scKey = isObject(sc) ? arrayMemberOf(sc) : undefined;
  if (typeof scKey === 'string') {
    const text = content.length === 1 ? textOf(content[0]) : undefined;
    if (content.length > 1 || (content.length === 1 && (text === undefined || !sameJsonText(text, sc)))) {
      return { reason: 'content items besides the records in structuredContent (not a copy of them)' };
    }
    return withRecords((sc as Record<string, unknown>)[scKey] as unknown[], 'structuredContent', { object: sc as Record<string, unknown>, key: scKey });
  }
  if (content.length !== 1) return { reason: content.length === 0 ? 'no content and no records in structuredContent' : `${content.length} content items (records are looked for in one text item)` };
  const text = textOf(content[0]);
  if (text === undefined) return { reason: `a content item of type ${JSON.stringify(isObject(content[0]) ? content[0].type : undefined)}, not text` };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { reason: 'the text is not JSON' };
  }
  if (sc !== undefined && !jsonEqual(sc, json) && !(isObject(sc) && Object.keys(sc).length === 1 && Object.values(sc)[0] === text)) {
    return { reason: 'structuredContent that is neither the records nor a copy of the text' };
  }
  if (Array.isArray(json)) return withRecords(json, 'text');
  if (!isObject(json)) return { reason: `the text is JSON holding ${kindOf(json)}, not a list of records` };
  const key = arrayMemberOf(json);
  if (typeof key !== 'string') return { reason: key.length === 0 ? 'the text is a JSON object with no array member, not a list of records' : `the text is a JSON object with ${key.length} array members (${key.join(', ')}), not one list of records` };
  return withRecords(json[key] as unknown[], 'text', { object: json, key });
}

/** True when `value` is {@link FoundRecords}. */
export function hasRecords(value: FoundRecords | NoRecords): value is FoundRecords {
  return 'records' in value;
}

/** The top-level fields of the records, in the order first seen (at most `max`). */
export function fieldsSeen(records: readonly Record<string, unknown>[], max = 64): string[] {
  const seen = new Set<string>();
  for (const r of records) {
    for (const k of Object.keys(r)) {
      if (seen.size >= max) return [...seen];
      seen.add(k);
    }
  }
  return [...seen];
}

/**
 * The container's compact JSON split around its records array: `prefix + "[…]" + suffix` is the text of a
 * page (`""` and `""` when the JSON is the array itself). Key order and every other member are kept.
 */
export function containerText(found: FoundRecords): { prefix: string; suffix: string } {
  if (!found.wrapper) return { prefix: '', suffix: '' };
  const { object, key } = found.wrapper;
  const parts: string[] = [];
  let prefix = '';
  for (const k of Object.keys(object)) {
    if (object[k] === undefined) continue;
    if (k === key) {
      prefix = `{${[...parts, `${JSON.stringify(k)}:`].join(',')}`;
      parts.length = 0;
      continue;
    }
    parts.push(`${JSON.stringify(k)}:${JSON.stringify(object[k])}`);
  }
  return { prefix, suffix: `${parts.length > 0 ? ',' : ''}${parts.join(',')}}` };
}

function withRecords(records: unknown[], from: FoundRecords['from'], wrapper?: FoundRecords['wrapper']): FoundRecords | NoRecords {
  for (let i = 0; i < records.length; i++) {
    if (!isObject(records[i])) return { reason: `record ${i} is ${kindOf(records[i])}, not an object` };
  }
  return { records: records as Record<string, unknown>[], from, ...(wrapper ? { wrapper } : {}) };
}

/** The one array-valued member's key, or the keys of all of them when there is not exactly one. */
function arrayMemberOf(object: Record<string, unknown>): string | string[] {
  const keys = Object.keys(object).filter((k) => Array.isArray(object[k]));
  return keys.length === 1 ? keys[0]! : keys;
}

/** `a string`, `a number`, `an array`, `null`, …: what a value is, without its (possibly long) text. */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a${typeof value === 'object' ? 'n' : ''} ${typeof value}`;
}

function textOf(item: unknown): string | undefined {
  return isObject(item) && item.type === 'text' && typeof item.text === 'string' ? item.text : undefined;
}

function sameJsonText(text: string, value: unknown): boolean {
  try {
    return jsonEqual(JSON.parse(text), value);
  } catch {
    return false;
  }
}
