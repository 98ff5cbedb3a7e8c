/**
 * `toolslim/tokens`: real tokenizers (gpt-tokenizer). A separate entry so that importing `toolslim` never
 * loads a tokenizer; pass one as `tokenizer` to count tokens:
 *
 * ```ts
 * import { transformTools } from 'toolslim';
 * import { o200k } from 'toolslim/tokens';
 * const { report } = transformTools(tools, { tokenizer: o200k });
 * ```
 *
 * Counting stays linear in the text. A BPE tokenizer first splits text into pieces (a run of letters, of
 * punctuation, of whitespace, up to three digits) and merges each piece on its own, in time that grows
 * with the square of the piece: a 40,000-letter identifier takes most of a second, a 1 MB one many
 * minutes. So a piece longer than {@link MAX_EXACT_PIECE} characters is counted in slices of that length,
 * and the count of a text holding one is an estimate (off by about a token per slice; see
 * {@link hasLongPiece}). Every other text is counted exactly, as gpt-tokenizer counts it.
 *
 * Counts are memoized per segment of text (src/core/token-memo.ts): a stretch that repeats (a description,
 * a property schema) is tokenized once per process, with the same result as counting it afresh, and the
 * memo is bounded (some 40 MB per encoding at worst). `countConcat(parts)` counts a joined text without
 * building it.
 */
import { countTokens as countCl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base';
import { CL100K_TOKEN_SPLIT_REGEX, O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants';
import { ToolslimError } from './core/errors.js';
import { ARRAY_STAND_IN, COUNT_EDITED, RELEASE_MEMO, type Tokenizer } from './core/measure.js';
import { arrayStandIn, memoized } from './core/token-memo.js';

export type { Tokenizer } from './core/measure.js';

/** Pieces longer than this many characters are counted in slices (an estimate); shorter ones exactly. */
export const MAX_EXACT_PIECE = 256;

// Special-token text (`<|endoftext|>`) in a description is counted as ordinary text, never refused.
const PLAIN = { disallowedSpecial: new Set<string>() };

/** The o200k_base encoding (GPT-4o and later). */
export const o200k: Tokenizer = tokenizer('o200k_base', (t) => boundedCount(t, (u) => countO200k(u, PLAIN), O200K_TOKEN_SPLIT_REGEX));

/** The cl100k_base encoding (GPT-4, GPT-3.5). */
export const cl100k: Tokenizer = tokenizer('cl100k_base', (t) => boundedCount(t, (u) => countCl100k(u, PLAIN), CL100K_TOKEN_SPLIT_REGEX));

/** A tokenizer counting with `count`, memoized per segment of text (src/core/token-memo.ts: exact, bounded). */
function tokenizer(name: string, count: (text: string) => number): Tokenizer {
  const memo = memoized(count, mayHoldLongPiece);
  // Asked of the text just counted (as `report` does for every tool), the memo already knows: no segment of it
  // may hold a long piece, the test below asked once per distinct segment, not of the whole text again.
  const isEstimate = (text: string): boolean => memo.mayHoldLong(text) !== false && hasLongPiece(text);
  return Object.freeze({ name, count: memo.count, countConcat: memo.countConcat, countArray: memo.countArray, isEstimate, [ARRAY_STAND_IN]: { countArray: memo.countArray, standIn: arrayStandIn }, [RELEASE_MEMO]: memo.release, [COUNT_EDITED]: { count: memo.count, countEdited: memo.countEdited } });
}

/** The tokenizers {@link getTokenizer} knows. */
export type TokenizerName = 'o200k_base' | 'cl100k_base';

/** Every name {@link getTokenizer} accepts. */
export const TOKENIZER_NAMES: readonly TokenizerName[] = Object.freeze(['o200k_base', 'cl100k_base'] as const);

/**
 * The tokenizer of that encoding name. Any other name throws an error listing the valid ones; for another
 * model, pass your own {@link Tokenizer} (`{ name, count(text) }`) wherever one is taken.
 */
export function getTokenizer(name: string): Tokenizer {
  if (name === 'o200k_base') return o200k;
  if (name === 'cl100k_base') return cl100k;
  throw new ToolslimError('invalid-option', `Unknown tokenizer \`${String(name)}\`: expected one of ${TOKENIZER_NAMES.map((n) => `\`${n}\``).join(', ')} (or pass a Tokenizer object)`);
}

/**
 * True when a count of `text` is an estimate: o200k_base's or cl100k_base's split of it holds a piece
 * longer than {@link MAX_EXACT_PIECE} characters (a 300-letter identifier, a run of 300 spaces). Compact
 * JSON is no such text however long: its punctuation splits it into short pieces. A linear pre-check (a
 * run of that many characters without whitespace, or of whitespace) skips the split for most texts.
 */
export function hasLongPiece(text: string): boolean {
  if (!mayHoldLongPiece(text)) return false;
  for (const split of [O200K_TOKEN_SPLIT_REGEX, CL100K_TOKEN_SPLIT_REGEX]) {
    for (const m of text.matchAll(new RegExp(split.source, split.flags))) if (m[0].length > MAX_EXACT_PIECE) return true;
  }
  return false;
}

/**
 * Whether `text` may hold a long piece. A piece of either split is one of: a word (one character before it, a
 * run of letters and marks, a contraction of up to three after it), up to three digits, a run of punctuation
 * (one space before it, line breaks and slashes after it), or a run of whitespace. So a text whose runs of
 * ASCII letters, of punctuation and line breaks, and of whitespace are all short enough has no long piece; a
 * character beyond ASCII (a letter, a mark, a digit, a space or punctuation there) counts toward all three.
 * Compact JSON is such a text however long, so its split is skipped: the looser test this replaced (a run of
 * characters that are not spaces) was true for nearly every tool's JSON, and the split it then made was 9% of
 * `toolslim report` on a 31,560-tool list (bench/check-scale.ts).
 */
function mayHoldLongPiece(text: string): boolean {
  if (text.length <= MAX_EXACT_PIECE) return false;
  let letters = 0;
  let punctuation = 0;
  let spaces = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 128) {
      letters++;
      punctuation++;
      spaces++;
    } else if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90)) {
      letters++;
      punctuation = spaces = 0;
    } else if (c >= 48 && c <= 57) letters = punctuation = spaces = 0;
    else if (c === 32 || (c >= 9 && c <= 13)) {
      spaces++;
      letters = 0;
      // A line break may end a punctuation piece (`[\r\n/]*` after it); other whitespace ends it.
      punctuation = c === 10 || c === 13 ? punctuation + 1 : 0;
    } else {
      punctuation++;
      letters = spaces = 0;
    }
    if (letters > MAX_EXACT_PIECE - 4 || punctuation > MAX_EXACT_PIECE - 1 || spaces > MAX_EXACT_PIECE) return true;
  }
  return false;
}

function boundedCount(text: string, count: (text: string) => number, split: RegExp): number {
  if (!mayHoldLongPiece(text)) return count(text);
  // Count the stretches between long pieces as they are (they start and end on piece boundaries), and
  // each long piece in slices.
  let total = 0;
  let from = 0;
  const re = new RegExp(split.source, split.flags);
  for (const m of text.matchAll(re)) {
    const piece = m[0];
    if (piece.length <= MAX_EXACT_PIECE) continue;
    const at = m.index;
    if (at > from) total += count(text.slice(from, at));
    for (let k = 0; k < piece.length; ) {
      let end = Math.min(piece.length, k + MAX_EXACT_PIECE);
      const last = piece.charCodeAt(end - 1);
      if (end < piece.length && last >= 0xd800 && last <= 0xdbff) end--; // keep a surrogate pair whole
      total += count(piece.slice(k, end));
      k = end;
    }
    from = at + piece.length;
  }
  if (from < text.length) total += count(text.slice(from));
  return total;
}
