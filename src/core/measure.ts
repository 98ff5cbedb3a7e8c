/**
 * Sizes as the model pays for them: UTF-8 bytes of compact JSON, and tokens from a tokenizer the caller
 * brings (see `toolslim/tokens`), so that importing toolslim never loads one.
 */
import { stringifyForCaller } from '../json/stringify.js';

/**
 * Counts tokens of a text: the plug-in point for any model's tokenizer. `toolslim/tokens` provides `o200k`
 * and `cl100k` (and `getTokenizer(name)`); anything with a `name` and a `count` works:
 *
 * ```ts
 * const words: Tokenizer = { name: 'words', count: (text) => text.split(/\s+/).filter(Boolean).length };
 * ```
 */
export interface Tokenizer {
  /** Encoding name, e.g. `o200k_base`. */
  readonly name: string;
  count(text: string): number;
  /** True when `count(text)` is an estimate rather than an exact count (absent: always exact). */
  isEstimate?(text: string): boolean;
  /**
   * `count(parts.join(''))`, without building the joined text (optional: without it, the text is built).
   * toolslim counts a whole tools list this way, from the texts of its tools.
   */
  countConcat?(parts: readonly string[]): number;
  /**
   * `count('[' + texts.join(',') + ']')`, the count of a JSON array's text, from its elements' texts and,
   * where known, their counts (`counts[i]`, when a number, is `count(texts[i])`), without counting the
   * elements again (optional: without it, the array's text is counted by `countConcat` or built).
   */
  countArray?(texts: readonly string[], counts?: readonly (number | undefined)[]): number;
}

/**
 * The property under which a tokenizer whose `countArray` reads only a bounded head and tail of an element
 * (besides its count) carries `{ countArray, standIn }`: that `countArray`, and a function giving the short
 * stand-in for an element's text it treats alike (`toolslim/tokens`: src/core/token-memo.ts
 * `arrayStandIn`). A registered symbol, so that it is the same in every bundle.
 * @internal
 */
export const ARRAY_STAND_IN: unique symbol = Symbol.for('toolslim.tokenizer.arrayStandIn') as never;

/**
 * The property under which a tokenizer may carry a function the engine calls with each tool's text before
 * the run, right after counting it (`(index, text)`, the very text it counted; a tool it could not write out
 * is not passed): `report` counts a second encoding of the same text there, without serializing the tool
 * again, and with `toolslim/tokens` without scanning it again (src/core/token-memo.ts replays the last scan).
 * A registered symbol, as {@link ARRAY_STAND_IN}.
 * @internal
 */
export const BEFORE_TEXT: unique symbol = Symbol.for('toolslim.tokenizer.beforeText') as never;

/**
 * As {@link BEFORE_TEXT}, for a tool's text after each step that changed it (`(index, text, tool, previous?,
 * windows?)`: the text the engine has just counted, and the tool object it is the text of, so that a caller
 * can tell whether it is the tool the run ends with; with a tokenizer that has {@link COUNT_EDITED}, the text
 * last handed over for that tool and the windows where they differ): `report` counts its second encoding of
 * the tools after the run there.
 * @internal
 */
export const AFTER_TEXT: unique symbol = Symbol.for('toolslim.tokenizer.afterText') as never;

/**
 * The property under which a tokenizer whose count adds up over the cut points of src/core/token-memo.ts
 * (`toolslim/tokens`) carries `{ count, countEdited }`: its own `count`, and `countEdited(a, aCount, b, windows)`,
 * the count of `b` from that of `a` and the windows src/core/token-edit.ts `editWindows(a, b)` gives, counting
 * only those (see {@link editedCounter}: a copy of the tokenizer with another `count` gets none). After a step that changed a
 * tool, the run serializes it as it was before the step and counts the new text this way; the windows go to {@link AFTER_TEXT}
 * too (`(index, text, tool, previous, windows)`), so that `report` counts its second encoding alike.
 * A registered symbol, as {@link ARRAY_STAND_IN}.
 * @internal
 */
export const COUNT_EDITED: unique symbol = Symbol.for('toolslim.tokenizer.countEdited') as never;

/** `countEdited(a, aCount, b, windows)`: see {@link COUNT_EDITED}. @internal */
export type CountEdited = (a: string, aCount: number, b: string, windows: readonly number[]) => number;

/**
 * The tokenizer's `countEdited` (see {@link COUNT_EDITED}) when it carries one for the `count` it has now: a
 * copy of `toolslim/tokens`' tokenizer with a `count` of the caller's own (`{ ...o200k, count }` copies the
 * symbol too) counts its own way, so it gets none, as {@link arrayElementKeeper} gives such a copy no stand-in.
 * @internal
 */
export function editedCounter(tokenizer: Tokenizer): CountEdited | undefined {
  const own = (tokenizer as { [COUNT_EDITED]?: { count?: unknown; countEdited?: unknown } })[COUNT_EDITED];
  if (own !== undefined && own !== null && typeof own.countEdited === 'function' && own.count === tokenizer.count) return own.countEdited as CountEdited;
  return undefined;
}

/**
 * The property under which a tokenizer with a memo of what it counted (`toolslim/tokens`: up to some 40 MB per
 * encoding) carries a function that empties it: `report` calls it once it has counted everything, so that the
 * findings it computes next (the collision search's index on a large list) do not stack on top of it.
 * @internal
 */
export const RELEASE_MEMO: unique symbol = Symbol.for('toolslim.tokenizer.releaseMemo') as never;

/**
 * What to keep of an element's text to count, later, the array it is in with {@link countArray} given the
 * element's count: the tokenizer's stand-in (a few dozen characters) when it has one for the `countArray`
 * it has now (a copy of the tokenizer with another `countArray` gets none), else the text itself.
 * @internal
 */
export function arrayElementKeeper(tokenizer: Tokenizer): (text: string) => string {
  const own = (tokenizer as { [ARRAY_STAND_IN]?: { countArray?: unknown; standIn?: unknown } })[ARRAY_STAND_IN];
  if (own !== undefined && typeof own.standIn === 'function' && own.countArray === tokenizer.countArray) return own.standIn as (text: string) => string;
  return (text) => text;
}

/** Tokens of the JSON array whose elements read `texts` (counts of them, where known, in `counts`). */
export function countArray(tokenizer: Tokenizer, texts: readonly string[], counts?: readonly (number | undefined)[]): number {
  return tokenizer.countArray ? tokenizer.countArray(texts, counts) : countJoined(tokenizer, arrayParts(texts));
}

/** Tokens of `parts.join('')`: by the tokenizer's `countConcat` when it has one, else by joining. */
export function countJoined(tokenizer: Tokenizer, parts: readonly string[]): number {
  return tokenizer.countConcat ? tokenizer.countConcat(parts) : tokenizer.count(parts.join(''));
}

/** The parts of a JSON array's text (`[`, each element's text, commas, `]`), for {@link countJoined}. */
export function arrayParts(texts: readonly string[]): string[] {
  const parts: string[] = new Array(texts.length === 0 ? 2 : 2 * texts.length + 1);
  parts[0] = '[';
  for (let i = 0; i < texts.length; i++) {
    if (i > 0) parts[2 * i] = ',';
    parts[2 * i + 1] = texts[i]!;
  }
  parts[parts.length - 1] = ']';
  return parts;
}

const nodeBuffer = (globalThis as { Buffer?: { byteLength(s: string, enc: 'utf8'): number } }).Buffer;

/** UTF-8 byte length of a string, without allocating an encoded copy (native in Node). */
export function utf8Length(text: string): number {
  return nodeBuffer ? nodeBuffer.byteLength(text, 'utf8') : utf8LengthPortable(text);
}

/**
 * The same count in plain JavaScript, for runtimes without `Buffer`. A lone surrogate counts 3 bytes,
 * as the replacement character it is encoded as.
 * @internal
 */
export function utf8LengthPortable(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/** Bytes and (when a tokenizer is given) tokens of one value's compact JSON. */
export interface Size {
  readonly bytes: number;
  readonly tokens?: number;
}

/**
 * Measures the compact JSON of `value`, of any depth. A value JSON cannot hold (one that contains itself) is
 * a ToolslimError (`invalid-input`) naming the pointer.
 */
export function measureJson(value: unknown, tokenizer?: Tokenizer): Size {
  let text: string;
  try {
    text = JSON.stringify(value) ?? '';
  } catch {
    // Too deep for JSON.stringify (written iteratively), or not JSON (refused, with where).
    text = stringifyForCaller(value, 'measureJson', 'the value');
  }
  return tokenizer ? { bytes: utf8Length(text), tokens: tokenizer.count(text) } : { bytes: utf8Length(text) };
}

/** UTF-8 bytes of `value`'s compact JSON (0 for `undefined`, which JSON omits). */
export function jsonBytes(value: unknown): number {
  // A string (what most edits replace or remove: descriptions) is counted without writing it out.
  if (typeof value === 'string') return jsonStringBytes(value);
  const text = JSON.stringify(value);
  return text === undefined ? 0 : utf8Length(text);
}

/** Characters a JSON string writes as themselves, one byte each (printable ASCII but `"` and `\`). */
const PLAIN_JSON_STRING = /^[ !#-[\]-~]*$/;

/**
 * What JSON writes other than as its UTF-8 bytes: `"` and `\` (escaped, one byte more), control characters
 * (`\n` and four others one byte more, the rest `\u00XX`, five more) and surrogates (a pair is written as
 * it is; a lone one as `\udXXX`, six bytes where UTF-8 has three for it). Global: {@link jsonStringBytes}
 * steps through the matches with `test`, which makes no match arrays.
 */
const WRITTEN_OTHERWISE = /["\\\u0000-\u001f\ud800-\udfff]/g;

/**
 * UTF-8 bytes of `JSON.stringify(text)`: quotes, escapes and all.
 *
 * Counted, not written out: a string that is not plain ASCII (a description with a line break, a quote or an
 * em dash) is its UTF-8 length (native, no copy) plus what its escapes add, found by a regular expression.
 * Writing it out with `JSON.stringify` and measuring that copy cost more: the strings of both bench sets
 * longer than 16 characters, 1.7 ms instead of 2.3 ms per pass on the validation set, 2.9 ms instead of
 * 3.7 ms on the corpus (all of them, counted each way in one process).
 */
export function jsonStringBytes(text: string): number {
  const n = text.length;
  // A short string is looked at a character at a time (a regular expression costs more to start than that).
  if (n <= 16) {
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return escapedBytes(text);
    }
    return n + 2;
  }
  return PLAIN_JSON_STRING.test(text) ? n + 2 : escapedBytes(text);
}

/** {@link jsonStringBytes} of a string that has something besides plain ASCII. */
function escapedBytes(text: string): number {
  let bytes = utf8Length(text) + 2;
  const re = WRITTEN_OTHERWISE;
  re.lastIndex = 0;
  while (re.test(text)) {
    const at = re.lastIndex - 1;
    const c = text.charCodeAt(at);
    if (c < 0x20) bytes += c === 0x08 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d ? 1 : 5;
    else if (c === 0x22 || c === 0x5c) bytes += 1;
    else if (c <= 0xdbff) {
      // A high surrogate: with its low one after it a pair (four bytes either way, skipped), else lone.
      const d = text.charCodeAt(at + 1);
      if (d >= 0xdc00 && d <= 0xdfff) re.lastIndex = at + 2;
      else bytes += 3;
    } else bytes += 3; // a low surrogate not after a high one
  }
  return bytes;
}
