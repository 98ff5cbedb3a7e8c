// Why one file: the cut rule is what makes a memoized count exact, and the scan that finds the cuts, its
// replay for a second encoding, the stand-ins `countArray` reads and the cut helpers must all cut alike.
/**
 * Exact token counts, computed once per distinct stretch of text. A tools list repeats itself: the same
 * description, the same property schema, the same `{"type":"string"}` under many tools, and `report`
 * counts each tool and then the whole list (before and after, in two encodings). Counting the same text
 * again is the cost: on the 31,560-tool list of bench/check-scale.ts, tokenizing was three quarters of
 * `report`'s 110 s (gpt-tokenizer's own merge cache only skips the byte-pair merges of a piece, not the
 * pre-tokenizer's Unicode regex nor the per-piece lookups, and it keys its cache by slices of the text,
 * which keeps each counted text alive).
 *
 * Why a memo of our own (not a library LRU): the unit memoized is not the text the caller passes but a
 * segment of it, cut where the count provably adds up, and the key must be copied out of the text so that
 * the memo never keeps a 50 MB text alive; both are specific to how o200k_base and cl100k_base split text.
 * And the key is a number computed while the text is scanned for cuts, not the segment's string: a `Map`
 * keyed by strings hashes each looked-up slice again, which was a third of a warm count (31,560 tools of
 * bench/check-scale.ts counted a second time: 610 ms with string keys, 460 ms with these; `toolslim report`
 * on that list 15.3 s → 14.5 s of CPU).
 *
 * **Where a text is cut.** A BPE tokenizer first splits text into pieces with a regex (its pre-tokenizer)
 * and counts each piece on its own, so the count of a text is the sum of the counts of any stretches that
 * start and end on piece boundaries. A cut is made between characters `a` and `b` only when `a` is an
 * ASCII letter or digit and `b` is ASCII punctuation other than `'`. Both o200k_base's and cl100k_base's
 * pre-tokenizers then split there, and the stretches split the same way on their own as inside the text:
 * - the piece holding `a` is a run of letters (with at most one non-letter before it, and in o200k_base
 *   an optional `'s`-style suffix, which starts with `'`) or of one to three digits; neither extends over
 *   `b`, so a piece ends between `a` and `b`;
 * - splitting the text after the cut starts afresh there (the regexes have no look-behind), so it is the
 *   split of the stretch after the cut on its own;
 * - the split before the cut differs from that of the stretch before it on its own only where the regex
 *   looks past the stretch's end: `\s+(?!\S)` and `\s+$` right at it, which needs whitespace before the
 *   cut — and `a` is a letter or digit.
 * Pieces are thus never split, and a piece longer than the exact limit lies wholly inside one segment, so
 * the sliced estimate of such a piece (src/tokens.ts) is the same too: memoized counts equal direct ones,
 * exactly (test/unit/token-memo.test.ts compares them with gpt-tokenizer on the corpus and hostile text).
 *
 * **Which cuts are taken.** Cutting at every such point would make segments of a few characters; the memo
 * takes a cut only where a rolling hash of the characters before it has its top {@link CUT_BITS} bits
 * clear (content-defined chunking, as in FastCDC's gear hash), so segments average some 200 characters,
 * and a stretch that repeats elsewhere is cut the same way once some 32 characters of it agree (the hash
 * forgets older characters), whatever comes before it; and at every cut point in a text's first
 * {@link HEAD} characters, where a tool's name sits. Which cuts are taken changes speed only, never a
 * count.
 *
 * **Bound.** Per encoding, at most {@link MEMO_MAX_CHARS} characters of keys and {@link MEMO_MAX_ENTRIES}
 * entries (about 40 MB at worst), in two generations of half that each: when the young one is full, the
 * old one is dropped and the young one takes its place. A segment longer than {@link MEMO_MAX_KEY}
 * characters is counted without being kept. So a list of all-distinct text costs one hash per character
 * more than before and no more than that bound in memory.
 *
 * **What is kept.** A segment the memo misses is counted in pieces (see `fine`), and kept only when none
 * of its pieces was new: a segment holding new text (in a list of repeated tools, the one holding each
 * tool's name) is not met again whole, and keeping it filled the memo with text that never hits and pushed
 * out what repeats (its pieces are kept, so counting it again tokenizes nothing). On the 31,560-tool list of
 * bench/check-scale.ts, `toolslim report` 12.3 → 12.0 s of CPU, same output.
 */

/** Of the rolling hash, this many top bits must be clear at a cut: 1 candidate cut in 16 is taken. */
const CUT_BITS = 4;
/**
 * A text's first this many characters are cut at every cut point (not only where the hash says): a tool's
 * name sits there (`{"name":"…"`), new in every tool, and the stretch after it (a description the list
 * repeats) then starts a segment of its own and is found in the memo. Without it the segment holding the
 * name also held some 200 characters after it, missed in every tool, and was counted in pieces (see `fine`)
 * each time: on the 31,560-tool list of bench/check-scale.ts, `toolslim report` 12.1 → 11.5 s of CPU.
 */
const HEAD = 64;
/** Characters of keys a memo holds at most (2 bytes each at worst): 8 Mi. */
export const MEMO_MAX_CHARS = 1 << 23;
/** Entries a memo holds at most. */
export const MEMO_MAX_ENTRIES = 1 << 18;
/** A segment longer than this is counted but not kept. */
export const MEMO_MAX_KEY = 4096;
/**
 * The longest text the memo remembers as the last one counted (to answer `mayHoldLong` for it): a longer one is
 * not held, so the memo never keeps a large text alive; asked about, it is read again.
 */
export const MEMO_MAX_LAST = 1 << 20;

const WORD = 1;
const CUT_BEFORE = 2;
/** ASCII classes: 1 for a letter or digit, 2 for punctuation a cut may precede (all of it but `'`). */
const CLASS = (() => {
  const t = new Uint8Array(128);
  for (let c = 0x21; c < 0x7f; c++) t[c] = CUT_BEFORE;
  for (let c = 0x30; c <= 0x39; c++) t[c] = WORD;
  for (let c = 0x41; c <= 0x5a; c++) t[c] = WORD;
  for (let c = 0x61; c <= 0x7a; c++) t[c] = WORD;
  t[0x27] = 0;
  return t;
})();

/** The gear table: 256 fixed pseudo-random 32-bit values (xorshift32 from a fixed seed). */
const GEAR = (() => {
  const g = new Int32Array(256);
  let s = 0x9e3779b9 | 0;
  for (let i = 0; i < 256; i++) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    g[i] = s;
  }
  return g;
})();

/** One memo entry: a segment's text and its count. */
interface MemoEntry {
  readonly key: string;
  readonly n: number;
  /** `mayHoldLong(key)`, when the memo was given that test. */
  readonly long: boolean;
}

/**
 * A segment's key in the memo: FNV-1a (32 bits) over its UTF-16 code units, its low 30 bits kept (a small
 * integer to V8, so a lookup hashes no string and allocates nothing). Computed in the same loop that finds
 * the cuts; the entry's text is compared on every hit.
 */
const KEY_MASK = 0x3fffffff;
const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;

/**
 * The last single text any memo scanned for cuts (at most {@link MEMO_MAX_LAST} characters) and its
 * segments: where each ends and its key. The cuts depend on the text alone, not on the encoding, so a memo
 * asked to count that same text next (`report` counts each tool in o200k_base, then in cl100k_base) replays
 * them and looks each segment up without scanning the text again.
 */
let scanText: string | undefined;
let scanEnds = new Int32Array(64);
let scanKeys = new Int32Array(64);
let scanCount = 0;

function noteSegment(end: number, key: number): void {
  if (scanCount === scanEnds.length) {
    const ends = new Int32Array(scanCount * 2);
    ends.set(scanEnds);
    scanEnds = ends;
    const keys = new Int32Array(scanCount * 2);
    keys.set(scanKeys);
    scanKeys = keys;
  }
  scanEnds[scanCount] = end;
  scanKeys[scanCount++] = key;
}

/** A memoized count: of one text, and of the concatenation of several (without building it). */
export interface MemoizedCount {
  count(text: string): number;
  /** `count(parts.join(''))`, exactly, without building the joined text. */
  countConcat(parts: readonly string[]): number;
  /** `count('[' + texts.join(',') + ']')`, exactly, from the elements' counts (`counts[i]`, when a number, is `count(texts[i])`). */
  countArray(texts: readonly string[], counts?: readonly (number | undefined)[]): number;
  /**
   * False when `text` is the text `count` was last given and no segment of it may hold a long piece (by the
   * `mayHoldLong` test given to {@link memoized}, asked once per segment kept); else undefined (not known).
   */
  mayHoldLong(text: string): false | undefined;
  /**
   * `count(b)`, from `count(a)` (`aCount`) and the windows src/core/token-edit.ts `editWindows(a, b)` gives:
   * only the windows are counted (exact: they start and end at cut points both texts share).
   */
  countEdited(a: string, aCount: number, b: string, windows: readonly number[]): number;
  /** Forgets every segment (and the last scan, whichever memo made it): counts stay exact, only slower until the memo fills again. */
  release(): void;
}

/**
 * `count`, memoized per segment: the returned function gives exactly what `count` gives for every text,
 * for a counter that splits text as o200k_base or cl100k_base do (see the file's header for why).
 */
export function memoized(count: (text: string) => number, mayHoldLong?: (text: string) => boolean): MemoizedCount {
  // Two generations: lookups try the young one, then the old one (and bring a hit back to the young
  // one); when the young one is full it becomes the old one and the old one is dropped. So text seen
  // lately stays, and the whole holds at most twice a generation's bound. Each is keyed by the segment's
  // hash (see KEY_MASK) and holds the segment's text, which a lookup compares: a hash shared by two
  // segments costs a count, never a wrong one.
  let young = new Map<number, MemoEntry>();
  let old = new Map<number, MemoEntry>();
  let chars = 0;
  // Whether a segment of the text being counted may hold a long piece (a piece lies inside one segment: a
  // cut never splits one, see the header), and the last text `count` was given, with that answer.
  let long = false;
  let lastText: string | undefined;
  let lastLong = true;
  /** Segments missed so far (a segment whose count raised it while its pieces were looked up held new text). */
  let misses = 0;
  const keep = (hash: number, key: string, n: number, isLong: boolean): void => {
    if (chars + key.length > MEMO_MAX_CHARS / 2 || young.size >= MEMO_MAX_ENTRIES / 2) {
      old = young;
      young = new Map();
      chars = 0;
    }
    young.set(hash, { key, n, long: isLong });
    chars += key.length;
  };
  /** `text`'s count from the memo (`hash` is its key, see KEY_MASK), else from `miss` (then kept, unless `text` is too long to keep). */
  const cached = (hash: number, text: string, miss: (text: string) => number): number => {
    const known = young.get(hash);
    if (known !== undefined && known.key === text) {
      if (known.long) long = true;
      return known.n;
    }
    if (text.length > MEMO_MAX_KEY) {
      if (mayHoldLong?.(text) !== false) long = true;
      return miss(text);
    }
    const aged = old.get(hash);
    if (aged !== undefined && aged.key === text) {
      keep(hash, aged.key, aged.n, aged.long);
      if (aged.long) long = true;
      return aged.n;
    }
    // A copy of the segment, so that the key does not keep the whole text alive (a slice of 13 or more
    // characters points into its parent; flattening `' ' + slice` copies it).
    const key = (' ' + text).slice(1);
    // Kept only when counting it met nothing new (`miss` counted no piece of it afresh; see the header).
    const seen = ++misses;
    const n = miss(key);
    const isLong = mayHoldLong?.(key) !== false;
    if (misses === seen) keep(hash, key, n, isLong);
    if (isLong) long = true;
    return n;
  };
  // A segment not in the memo is counted in pieces cut at every cut point (no hash test), each from the
  // memo or the tokenizer: a segment is new because a few characters in it are (a tool's name in a list
  // of repeated tools), and only the piece holding them is tokenized.
  const fine = (text: string): number => {
    let total = 0;
    let start = 0;
    let word = false;
    let hash = FNV_OFFSET;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      const k = c < 128 ? CLASS[c]! : 0;
      if (k === CUT_BEFORE && word && i > start) {
        total += cached(hash & KEY_MASK, text.slice(start, i), count);
        start = i;
        hash = FNV_OFFSET;
      }
      hash = Math.imul(hash ^ c, FNV_PRIME);
      word = k === WORD;
    }
    return start === 0 ? count(text) : total + cached(hash & KEY_MASK, text.slice(start), count);
  };
  // One text, the common call (`count`: every tool's text, before and after each step that changed it): the
  // loop of countConcat below without what joining parts needs (a carry, a head that runs across parts), and
  // the segments noted for a memo that counts the same text next (see scanText). It cuts exactly where
  // countConcat([text]) does (the same test at every character); on the 31,560 tools of bench/check-scale.ts
  // a warm count of every tool took 540 ms through countConcat and 420 ms here (the loop with fewer live
  // values, and no test of the carry at every cut point).
  const countOne = (text: string): number => {
    const n = text.length;
    const noting = n <= MEMO_MAX_LAST;
    if (noting) {
      scanText = undefined;
      scanCount = 0;
    }
    let total = 0;
    let h = 0;
    let hash = FNV_OFFSET;
    let word = false;
    let start = 0;
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      const k = c < 128 ? CLASS[c]! : 0;
      if (k === CUT_BEFORE && word && (h >>> (32 - CUT_BITS) === 0 || i < HEAD) && i > start) {
        const key = hash & KEY_MASK;
        total += cached(key, text.slice(start, i), fine);
        if (noting) noteSegment(i, key);
        start = i;
        hash = FNV_OFFSET;
      }
      h = ((h << 1) + GEAR[(c ^ (c >>> 8)) & 255]!) | 0;
      hash = Math.imul(hash ^ c, FNV_PRIME);
      word = k === WORD;
    }
    if (start < n) {
      total += cached(hash & KEY_MASK, start === 0 ? text : text.slice(start), fine);
      if (noting) noteSegment(n, hash & KEY_MASK);
    }
    if (noting) scanText = text;
    return total;
  };
  // The parts are scanned as one text: the hash and the last character's class carry over, and a
  // segment may span parts (`carry` holds its beginning), so the segments, and the sum, are those of
  // `parts.join('')`, which is never built. Two hashes run over each character: the gear hash (which
  // cuts to take; it forgets all but the last 32 characters) and the segment's own key (since the last cut).
  const countConcat = (parts: readonly string[]): number => {
    if (parts.length === 1) return countOne(parts[0]!);
    let total = 0;
    let h = 0;
    let hash = FNV_OFFSET;
    let word = false;
    let carry = '';
    let head = HEAD;
    for (const text of parts) {
      const n = text.length;
      let start = 0;
      for (let i = 0; i < n; i++) {
        const c = text.charCodeAt(i);
        const k = c < 128 ? CLASS[c]! : 0;
        if (k === CUT_BEFORE && word && (h >>> (32 - CUT_BITS) === 0 || i < head) && (i > start || carry !== '')) {
          total += cached(hash & KEY_MASK, carry === '' ? text.slice(start, i) : carry + text.slice(start, i), fine);
          carry = '';
          start = i;
          hash = FNV_OFFSET;
        }
        h = ((h << 1) + GEAR[(c ^ (c >>> 8)) & 255]!) | 0;
        hash = Math.imul(hash ^ c, FNV_PRIME);
        word = k === WORD;
      }
      if (start < n) carry = carry === '' && start === 0 ? text : carry + text.slice(start);
      head -= n;
    }
    return carry === '' ? total : total + cached(hash & KEY_MASK, carry, fine);
  };
  // The segments noted for this very text by the last scan (of this memo or another), looked up here.
  const replay = (text: string): number => {
    let total = 0;
    let start = 0;
    for (let s = 0; s < scanCount; s++) {
      const end = scanEnds[s]!;
      total += cached(scanKeys[s]!, text.slice(start, end), fine);
      start = end;
    }
    return total;
  };
  const count1 = (text: string): number => {
    long = false;
    lastText = undefined;
    const n = text === scanText ? replay(text) : countOne(text);
    lastText = text.length <= MEMO_MAX_LAST ? text : undefined;
    lastLong = long;
    return n;
  };
  const countEdited = (a: string, aCount: number, b: string, windows: readonly number[]): number => {
    let total = aCount;
    for (let w = 0; w < windows.length; w += 4) {
      const aStart = windows[w]!;
      const aEnd = windows[w + 1]!;
      const bStart = windows[w + 2]!;
      const bEnd = windows[w + 3]!;
      if (aEnd > aStart) total -= count1(a.slice(aStart, aEnd));
      if (bEnd > bStart) total += count1(b.slice(bStart, bEnd));
    }
    return total;
  };
  const mayHoldLongOf = (text: string): false | undefined => (lastText === text && !lastLong ? false : undefined);
  // A JSON array's text is its elements' texts joined by `[`, `,` and `]`; a join is no cut point (`},{`
  // is one piece), but each element's first and last cut points are, in the array's text as in the
  // element's (the rule above looks only at the two characters either side). So the array's count is
  // each element's count less its head (up to its first cut) and tail (from its last), plus the stretches
  // from one element's last cut to the next one's first, joins included. An element without a cut point
  // joins the stretch whole. Only heads, tails and joins are counted: a few characters each.
  const countArray = (texts: readonly string[], counts?: readonly (number | undefined)[]): number => {
    let total = 0;
    let carry = '[';
    for (let i = 0; i < texts.length; i++) {
      const text = texts[i]!;
      if (i > 0) carry += ',';
      const first = cutAfter(text);
      if (first < 0) {
        carry += text;
        continue;
      }
      const last = cutBefore(text);
      const head = text.slice(0, first);
      const tail = text.slice(last);
      const known = counts?.[i];
      const whole = typeof known === 'number' ? known : count1(text);
      total += count1(carry + head) + whole - count1(head) - count1(tail);
      carry = tail;
    }
    return total + count1(carry + ']');
  };
  const release = (): void => {
    young = new Map();
    old = new Map();
    chars = 0;
    lastText = undefined;
    scanText = undefined;
    scanCount = 0;
    scanEnds = new Int32Array(64);
    scanKeys = new Int32Array(64);
  };
  return { count: count1, countConcat, countArray, mayHoldLong: mayHoldLongOf, countEdited, release };
}

/**
 * A short text that `countArray` treats as it treats `text` when `text`'s count is given: its head (up to
 * its first cut point) and its tail (from its last), joined — the only parts of an element `countArray`
 * reads besides its count. The joined text has one cut point, where the head meets the tail (the head ends
 * in a letter or digit and the tail starts with punctuation), so its head and tail are `text`'s. A text
 * with no cut point is returned whole (`countArray` counts it as part of the stretch at the joins). The
 * result is a copy: it never keeps `text` alive. So a caller that counts a whole list at the end keeps
 * these (tens of characters per tool) and the counts, not every tool's text.
 */
export function arrayStandIn(text: string): string {
  const first = cutAfter(text);
  if (first < 0) return text;
  const last = cutBefore(text);
  // `' ' + …` then slice: a flat copy of the two pieces (a slice of `text` would point into it).
  return (' ' + text.slice(0, first) + text.slice(last)).slice(1);
}

/**
 * Whether a cut may be made before `text[i]` (`0 < i < text.length`): `text[i - 1]` is an ASCII letter or
 * digit and `text[i]` ASCII punctuation other than `'` (the rule of the file's header). Two texts that agree
 * on both characters agree on it.
 */
export function isCutPoint(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  const p = text.charCodeAt(i - 1);
  return c < 128 && CLASS[c] === CUT_BEFORE && p < 128 && CLASS[p] === WORD;
}

/** The first cut point of `text` (a letter or digit, then punctuation but `'`), or -1. */
function cutAfter(text: string): number {
  let word = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const k = c < 128 ? CLASS[c]! : 0;
    if (k === CUT_BEFORE && word) return i;
    word = k === WORD;
  }
  return -1;
}

/** The last cut point of `text` (one exists). */
function cutBefore(text: string): number {
  for (let i = text.length - 1; i > 0; i--) {
    const c = text.charCodeAt(i);
    const p = text.charCodeAt(i - 1);
    if (c < 128 && CLASS[c] === CUT_BEFORE && p < 128 && CLASS[p] === WORD) return i;
  }
  return -1;
}
