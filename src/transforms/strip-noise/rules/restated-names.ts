/**
 * The `restatedNames` rule: a parameter description of three words or fewer that only restates the
 * parameter's name goes whole (not a text rule: it decides about the description, it does not edit it).
 */
import { cleanDescription, mayClean } from '../clean.js';
import type { DescriptionFacts, NoiseRules } from '../rule.js';
import { MARKER_ANY } from './optional-markers.js';
import { DEFAULT_WORD } from './restated-defaults.js';

/** The text rules at strip-noise's defaults (what {@link saysOnlyItsName} cleans with). */
const DEFAULT_TEXT_RULES: NoiseRules = Object.freeze({ urls: true, examples: true, whitespace: true });

/**
 * True when strip-noise at its defaults removes this property description as one that only restates the
 * property's name: as it is (`"Payment method ID"` for `paymentMethodId`), or once the text rules have taken
 * out what the schema says itself (`"Story ID (required)"` for a required `storyPublicId`, `"Calendar ID.
 * Defaults to \"primary\"."` beside `default: "primary"`). `facts`: the property schema's `default` and
 * whether its parent's `required` lists it (or a function giving them, called only when a rule may need them). For lint's `missing-param-description`, so that `check` finds
 * before `optimize` what it finds after.
 */
export function saysOnlyItsName(name: string, description: string, facts: DescriptionFacts | (() => DescriptionFacts)): boolean {
  if (restatesName(name, description)) return true;
  // Most descriptions hold none of what a text rule starts from (each test below is implied by a rule's own
  // `mayApply`: the facts' rules look for `default`, `required` or `optional`), so cleaning would change
  // nothing: they are passed over without the facts or a clean (on bench/check-scale.ts's list, `report`
  // spent 3% of its time cleaning every parameter description for this).
  if (!mayClean(description) && !DEFAULT_WORD.test(description) && !MARKER_ANY.test(description)) return false;
  const cleaned = cleanDescription(description, DEFAULT_TEXT_RULES, typeof facts === 'function' ? facts() : facts).text;
  return cleaned !== description && restatesName(name, cleaned);
}

const WORD = /[\p{L}\p{N}]+/gu;
const FILLER = new Set(['a', 'an', 'the', 'of', 'this', 'that', 'its', 'your', 'given', 'specified']);

/**
 * True when `description` has one to three words and every word other than filler (`the`, `a`, `of`, …)
 * is a word of `name` (split at `_`, `-`, `.`, spaces and camelCase; case and a plural `s` ignored), or
 * the words run together spell the name.
 */
export function restatesName(name: string, description: string, cache?: NameWordsCache): boolean {
  const ascii = asciiWords(description);
  const words = ascii === null ? unicodeWords(description) : ascii;
  if (words === undefined) return false;
  const nameWords = wordsOfName(name, cache);
  if (nameWords.set.size === 0) return false;
  // Loops, not closures: a closure made per call is compiled again after every full GC (src/json/shapes.ts).
  const content: string[] = [];
  for (const word of words) {
    const w = normalizeWord(word);
    if (!FILLER.has(w)) content.push(w);
  }
  if (content.length === 0) return false;
  for (const w of content) if (!nameWords.set.has(w)) return content.join('') === nameWords.joined;
  return true;
}

/** Up to three words of `description`, or undefined when it has none, more, or anything beside words, blanks and `.,:;'’-`. */
function unicodeWords(description: string): string[] | undefined {
  // A description with more than three words says more: tell without splitting all of it.
  if (hasFourWords(description)) return undefined;
  const words = description.match(/[\p{L}\p{N}]+/gu);
  if (!words || words.length > 3) return undefined;
  // Anything beside words, spaces and closing punctuation (`ID (UUID)`, `≥ 0`) says more than the name.
  if (/[^\p{L}\p{N}\s.,:;'\u2019-]/u.test(description)) return undefined;
  return words;
}

/**
 * {@link unicodeWords} for an ASCII description, in one scan (there `\p{L}` and `\p{N}` are letters and
 * digits, and `\s` is space, tab and `\n\v\f\r`); null for a description with any other character, which
 * {@link unicodeWords} reads.
 */
function asciiWords(description: string): string[] | undefined | null {
  // Where each word starts and ends; the words are cut out only once there are at most three.
  const bounds = [0, 0, 0, 0, 0, 0];
  let words = 0;
  let start = -1;
  let other = false;
  for (let i = 0; i < description.length; i++) {
    const c = description.charCodeAt(i);
    if (c >= 128) return null;
    if ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)) {
      if (start === -1) {
        if (words === 3) return undefined;
        start = i;
      }
      continue;
    }
    if (start !== -1) {
      bounds[2 * words] = start;
      bounds[2 * words + 1] = i;
      words++;
      start = -1;
    }
    // Beside words: blanks (`\s`) and closing punctuation only.
    if (!(c === 0x20 || (c >= 0x09 && c <= 0x0d) || c === 0x2e || c === 0x2c || c === 0x3a || c === 0x3b || c === 0x27 || c === 0x2d)) other = true;
  }
  if (start !== -1) {
    bounds[2 * words] = start;
    bounds[2 * words + 1] = description.length;
    words++;
  }
  if (words === 0 || other) return undefined;
  const out: string[] = [];
  for (let w = 0; w < words; w++) out.push(description.slice(bounds[2 * w], bounds[2 * w + 1]));
  return out;
}

/**
 * False when {@link restatesName} is false for `description` whatever the name: it has four words or
 * more (the first thing it looks at).
 */
export function mayRestateName(description: string): boolean {
  return !hasFourWords(description);
}

/** A name's words as {@link restatesName} compares them: normalised, as a set and run together. */
export interface NameWords {
  readonly set: ReadonlySet<string>;
  readonly joined: string;
}

/** Names already split, for a caller that asks about many descriptions (one run's properties repeat their names). */
export type NameWordsCache = Map<string, NameWords>;

function wordsOfName(name: string, cache: NameWordsCache | undefined): NameWords {
  let words = cache?.get(name);
  if (words === undefined) {
    // A loop, not `map`: see the engine's `names` (src/engine/run.ts).
    const list = splitName(name);
    for (let i = 0; i < list.length; i++) list[i] = normalizeWord(list[i]!);
    words = { set: new Set(list), joined: list.join('') };
    cache?.set(name, words);
  }
  return words;
}

/**
 * True when `text` has at least four words (runs of letters and digits). ASCII text is counted by
 * character codes (its letters and digits are exactly `\p{L}` and `\p{N}` there); other text by {@link WORD}.
 */
function hasFourWords(text: string): boolean {
  let words = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 128) return hasFourWordsUnicode(text);
    const word = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
    if (word && !inWord && ++words === 4) return true;
    inWord = word;
  }
  return false;
}

function hasFourWordsUnicode(text: string): boolean {
  WORD.lastIndex = 0;
  for (let n = 0; n < 4; n++) if (WORD.exec(text) === null) break;
  return WORD.lastIndex !== 0;
}

function splitName(name: string): string[] {
  return asciiNameWords(name) ?? unicodeNameWords(name);
}

/**
 * {@link unicodeNameWords} for an ASCII name in one scan, or null for any other name: a word ends before an
 * upper-case letter that follows a lower-case letter or a digit, before an upper-case letter that follows
 * one and precedes a lower-case one (`URLPath`: `URL`, `Path`), and at every character that is neither
 * letter nor digit.
 */
function asciiNameWords(name: string): string[] | null {
  const words: string[] = [];
  let start = -1;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c >= 128) return null;
    const upper = c >= 65 && c <= 90;
    if (!(upper || (c >= 97 && c <= 122) || (c >= 48 && c <= 57))) {
      if (start !== -1) words.push(name.slice(start, i));
      start = -1;
      continue;
    }
    if (start === -1) start = i;
    else if (upper) {
      const p = name.charCodeAt(i - 1);
      const n = i + 1 < name.length ? name.charCodeAt(i + 1) : 0;
      if ((p >= 97 && p <= 122) || (p >= 48 && p <= 57) || (p >= 65 && p <= 90 && n >= 97 && n <= 122)) {
        words.push(name.slice(start, i));
        start = i;
      }
    }
  }
  if (start !== -1) words.push(name.slice(start));
  return words;
}

function unicodeNameWords(name: string): string[] {
  return name
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '');
}

function normalizeWord(word: string): string {
  const w = word.toLowerCase();
  return w.length > 2 && w.endsWith('s') ? w.slice(0, -1) : w;
}
