// Why one file: one rule (the markdown block reader, sentence splitter and removal decision share the offsets
// and the backtick-run index); already split out of promote-common-params.
/**
 * The `sentences` rule of promote-common-params: reading a description as markdown blocks, splitting its
 * prose into sentences, and deciding which shared sentences can leave it without breaking what is left.
 * Everything here is linear in the text (code spans are matched through an index of backtick runs).
 */

/** A sentence of a prose paragraph, with its offsets in the description. */
export interface Sentence {
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

/** A markdown block of a description: a prose paragraph (split into sentences), a heading, or anything else. */
export interface Block {
  readonly kind: 'prose' | 'heading' | 'other';
  /** Offset of the block's first character and of the end of its last line (the `\n` excluded). */
  readonly start: number;
  readonly end: number;
  /** For `prose`: its sentences in order, covering the paragraph but for the whitespace between them. */
  readonly sentences: readonly Sentence[];
  /** A fenced or indented code block. */
  readonly code?: boolean;
}

/** Why a shared sentence stays in one description. */
export type KeepReason = 'not-prose' | 'next-leans' | 'introduces' | 'introduced' | 'would-empty';

/** What `removeSentences` did to one description. */
export interface SentenceRemoval {
  /** The description without the removed sentences (the input when none could go). */
  readonly text: string;
  /** The promoted sentences it lost, in text order (a sentence twice is listed twice). */
  readonly removed: readonly string[];
  /** The promoted sentences it holds but keeps, each with the first reason. */
  readonly kept: readonly { readonly sentence: string; readonly reason: KeepReason }[];
}

/**
 * Splits a description into blocks, CommonMark-style but erring towards "not prose": a fenced or
 * indented code block, a list item (with every line up to the next blank line, and any indented paragraph
 * after it), a block quote, a table, an HTML block and a thematic break are `other`; an ATX heading or a
 * paragraph underlined as a setext heading is `heading`; the rest is prose paragraphs.
 */
export function readBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  const lines = splitLines(text);
  let i = 0;
  let afterList = false;
  while (i < lines.length) {
    const line = lines[i]!;
    if (isBlank(line.text)) {
      i++;
      continue;
    }
    const fence = FENCE.exec(line.text);
    if (fence) {
      const close = new RegExp(`^ {0,3}${fence[1]![0] === '`' ? '`' : '~'}{${fence[1]!.length},}\\s*$`);
      let j = i + 1;
      while (j < lines.length && !close.test(lines[j]!.text)) j++;
      const last = Math.min(j, lines.length - 1);
      blocks.push(other(lines[i]!.start, lines[last]!.end, true));
      i = last + 1;
      afterList = false;
      continue;
    }
    if (HEADING.test(line.text)) {
      blocks.push({ kind: 'heading', start: line.start, end: line.end, sentences: [] });
      i++;
      afterList = false;
      continue;
    }
    const inList: boolean = afterList && /^[ \t]/.test(line.text);
    const code = !inList && INDENTED.test(line.text);
    if (inList || code || LIST_ITEM.test(line.text) || QUOTE.test(line.text) || TABLE_ROW.test(line.text) || HTML.test(line.text) || BREAK.test(line.text)) {
      // Up to the next blank line: lazy continuation lines belong to the item or quote.
      const list: boolean = inList || LIST_ITEM.test(line.text);
      let j = i;
      while (j + 1 < lines.length && !isBlank(lines[j + 1]!.text)) j++;
      blocks.push(other(line.start, lines[j]!.end, code));
      i = j + 1;
      afterList = list;
      continue;
    }
    // A paragraph: up to a blank line or a line that can interrupt one (fence, heading, list item, quote,
    // table row, HTML, thematic break). A setext underline makes it a heading; a table delimiter row a table.
    let j = i;
    let kind: Block['kind'] = 'prose';
    while (j + 1 < lines.length) {
      const next = lines[j + 1]!.text;
      if (isBlank(next) || FENCE.test(next) || HEADING.test(next) || LIST_ITEM.test(next) || QUOTE.test(next) || TABLE_ROW.test(next) || HTML.test(next)) break;
      if (SETEXT.test(next)) {
        kind = 'heading';
        j++;
        break;
      }
      if (BREAK.test(next)) break;
      if (TABLE_DELIMITER.test(next)) kind = 'other';
      j++;
    }
    const start = line.start;
    const end = lines[j]!.end;
    blocks.push(kind === 'prose' ? { kind, start, end, sentences: splitSentences(text, start, end) } : { kind, start, end, sentences: [] });
    i = j + 1;
    afterList = false;
  }
  return blocks;
}

/**
 * Every sentence-like piece of a description, for telling whether a sentence is present in it at all:
 * the sentences of its prose paragraphs, and those of every line outside code fences read alone (so a
 * sentence in a list item or on a line of its own after one is found too).
 */
export function sentencePieces(text: string): Set<string> {
  const pieces = new Set<string>();
  for (const block of readBlocks(text)) {
    for (const s of block.sentences) pieces.add(s.text);
    if (block.kind === 'prose' || block.code) continue;
    for (const line of splitLines(text.slice(block.start, block.end))) {
      for (const s of splitSentences(line.text, 0, line.text.length)) pieces.add(s.text);
    }
  }
  return pieces;
}

/**
 * True when a sentence can stand first in a description, or alone in the instructions: it starts with a
 * capital letter or a code span, and its first word does not lean on what came before (`It`, `This`,
 * `These`, `Also`, `However`, `And`, `If so`, `For example`, …). `This tool` / `This command` (and
 * `function`, `endpoint`, `operation`, `method`, `action`, `API`, `server`) name the tool itself and
 * are fine.
 */
export function standsAlone(sentence: string): boolean {
  const s = sentence.replace(/^["\u201C*_]+/, '');
  if (s.startsWith('`')) return true;
  if (!/^\p{Lu}/u.test(s)) return false;
  if (SELF_REFERENCE.test(s)) return true;
  const words = /^([\p{L}'\u2019]+)(?:[ \t\n]+([\p{L}'\u2019]+))?/u.exec(s);
  if (!words) return false;
  const first = words[1]!.toLowerCase();
  if (LEANING_WORDS.has(first)) return false;
  const two = words[2] === undefined ? '' : `${first} ${words[2].toLowerCase()}`;
  return !LEANING_PHRASES.has(two);
}

/** True for a sentence that ends with `.`, `!` or `?` (before closing quotes, brackets or emphasis). */
export function isComplete(sentence: string): boolean {
  return /[.!?][)"'\u201D\u2019\]*_]*$/.test(sentence) && /\p{L}/u.test(sentence);
}

/**
 * Removes each prose occurrence of a `promoted` sentence from `text` where that is safe: the sentence is
 * not the content a preceding `…:` introduces; the text after it (what becomes next, or first) does not
 * lean on it (see {@link standsAlone}); it is not followed directly by a list, table, code or quote it
 * may introduce; and the description keeps some other text. An occurrence in a list item, code, a
 * table or a quote never goes.
 */
export function removeSentences(text: string, promoted: ReadonlySet<string>): SentenceRemoval {
  const blocks = readBlocks(text);
  // The text in order: each prose sentence and each other block is one unit.
  interface Unit {
    readonly kind: 'sentence' | 'heading' | 'other';
    readonly start: number;
    readonly end: number;
    readonly text: string;
    readonly block: number;
    candidate: boolean;
  }
  const units: Unit[] = [];
  blocks.forEach((b, k) => {
    if (b.kind === 'prose') for (const s of b.sentences) units.push({ kind: 'sentence', start: s.start, end: s.end, text: s.text, block: k, candidate: promoted.has(s.text) });
    else units.push({ kind: b.kind, start: b.start, end: b.end, text: text.slice(b.start, b.end), block: k, candidate: false });
  });
  const kept: { sentence: string; reason: KeepReason; at: number }[] = [];
  // A promoted sentence the text holds only outside prose (in a list item, a table, …) stays there.
  const proseHits = new Set(units.filter((u) => u.candidate).map((u) => u.text));
  const outside: { sentence: string; reason: KeepReason }[] = [];
  if (proseHits.size < promoted.size) {
    const pieces = sentencePieces(text);
    for (const s of promoted) if (!proseHits.has(s) && pieces.has(s)) outside.push({ sentence: s, reason: 'not-prose' });
  }
  // Backwards, so that what follows a sentence is already decided.
  const removed = new Array<boolean>(units.length).fill(false);
  for (let u = units.length - 1; u >= 0; u--) {
    const unit = units[u]!;
    if (!unit.candidate) continue;
    let reason: KeepReason | undefined;
    let prev = u - 1;
    while (prev >= 0 && units[prev]!.candidate) prev--;
    if (prev >= 0 && units[prev]!.kind !== 'other' && /:[)"'\u201D\u2019\]*_]*$/.test(units[prev]!.text)) reason = 'introduced';
    let next = u + 1;
    while (next < units.length && removed[next]) next++;
    if (reason === undefined && next < units.length) {
      const after = units[next]!;
      if (after.kind === 'other') reason = 'introduces';
      else if (after.kind === 'sentence' && !standsAlone(after.text)) reason = 'next-leans';
    }
    if (reason === undefined) removed[u] = true;
    else kept.push({ sentence: unit.text, reason, at: unit.start });
  }
  if (!removed.includes(true)) return { text, removed: [], kept: orderKept(kept, outside) };
  const out = rebuild(text, blocks, units, removed);
  if (out.trim() === '') {
    const all = units.flatMap((unit, u) => (removed[u] ? [{ sentence: unit.text, reason: 'would-empty' as const, at: unit.start }] : []));
    return { text, removed: [], kept: orderKept([...kept, ...all], outside) };
  }
  return { text: out, removed: units.filter((_, u) => removed[u]).map((unit) => unit.text), kept: orderKept(kept, outside) };
}

// ---------------------------------------------------------------------------------------------------

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HEADING = /^ {0,3}#{1,6}(?:[ \t]|$)/;
const INDENTED = /^(?: {4}|\t)/;
const LIST_ITEM = /^[ \t]*(?:[-*+\u2022]|\d{1,9}[.)])(?:[ \t]|$)/;
const QUOTE = /^ {0,3}>/;
const TABLE_ROW = /^[ \t]*\|/;
/**
 * A table's delimiter row (`| --- | :-: |`): cells of dashes (a colon at either end allowed) between pipes.
 * Each run of blanks lies between a pipe and a cell or at an end, never beside another run, so a line matches
 * in one way only. The same rows as `^[ \t]*\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)+\|?[ \t]*$` (checked against
 * it on seeded lines in test/unit/promote-sentences.test.ts), where two runs of blanks meet when a pipe is
 * absent and a failing line had every split of its blanks between them tried: 20,000 blanks and `-|` took 170 ms.
 * @internal
 */
export const TABLE_DELIMITER = /^[ \t]*(?:\|[ \t]*)?:?-+:?(?:[ \t]*\|[ \t]*:?-+:?)+[ \t]*(?:\|[ \t]*)?$/;
const HTML = /^ {0,3}<[A-Za-z/!?]/;
const BREAK = /^ {0,3}(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$/;
const SETEXT = /^ {0,3}(?:=+|-+)[ \t]*$/;
const SELF_REFERENCE = /^This (?:tool|command|function|endpoint|operation|method|action|API|server)\b/;
/** First words that lean on the sentence before. */
const LEANING_WORDS = new Set([
  'it', 'its', "it's", 'it’s', 'this', 'that', 'these', 'those', 'they', 'them', 'their', 'theirs', 'such', 'also', 'additionally', 'furthermore',
  'moreover', 'however', 'but', 'and', 'or', 'nor', 'so', 'then', 'thus', 'therefore', 'hence', 'otherwise', 'instead', 'still', 'yet', 'besides',
  'likewise', 'similarly', 'conversely', 'alternatively', 'meanwhile', 'consequently', 'accordingly', 'again', 'too', 'above', 'here', 'both',
  'either', 'neither', 'same', 'except', 'unless', 'because', 'since', 'although', 'though', 'while', 'whereas', 'which', 'where', 'whose', 'plus',
  'afterwards', 'finally', 'next', 'further', 'else', 'e', 'i', 'eg', 'ie',
]);
/** Two-word openings that lean on the sentence before. */
const LEANING_PHRASES = new Set([
  'if so', 'if not', 'in addition', 'as such', 'as a', 'as above', 'in that', 'in this', 'in which', 'for example', 'for instance', 'in other',
  'on the', 'the former', 'the latter', 'the above', 'the same', 'the previous', 'the preceding', 'the second', 'the other', 'to do', 'to that',
]);
/** Words before a period that do not end a sentence. */
const ABBREVIATIONS = new Set([
  'e.g.', 'i.e.', 'etc.', 'vs.', 'cf.', 'approx.', 'incl.', 'excl.', 'esp.', 'resp.', 'ca.', 'viz.', 'al.', 'fig.', 'no.', 'nos.', 'vol.', 'p.', 'pp.',
  'ed.', 'mr.', 'mrs.', 'ms.', 'dr.', 'prof.', 'st.', 'jr.', 'sr.', 'inc.', 'ltd.', 'co.', 'corp.', 'dept.', 'est.', 'min.', 'max.', 'avg.', 'sec.',
  'hr.', 'hrs.', 'mins.', 'ref.', 'refs.', 'ver.', 'v.', 'ex.', 'eg.', 'ie.', 'jan.', 'feb.', 'mar.', 'apr.', 'jun.', 'jul.', 'aug.', 'sep.', 'sept.',
  'oct.', 'nov.', 'dec.', 'mon.', 'tue.', 'wed.', 'thu.', 'fri.', 'sat.', 'sun.', 'u.s.', 'a.m.', 'p.m.',
]);
const CLOSERS = ')"\'”’]*_';

function other(start: number, end: number, code = false): Block {
  return code ? { kind: 'other', start, end, sentences: [], code } : { kind: 'other', start, end, sentences: [] };
}

function isBlank(line: string): boolean {
  return line.trim() === '';
}

function splitLines(text: string): { text: string; start: number; end: number }[] {
  const out: { text: string; start: number; end: number }[] = [];
  let start = 0;
  for (;;) {
    const nl = text.indexOf('\n', start);
    const end = nl === -1 ? text.length : nl;
    out.push({ text: text.slice(start, end), start, end });
    if (nl === -1) return out;
    start = nl + 1;
  }
}

/**
 * The sentences of `text[from, to)`: a boundary is whitespace after `.`, `!` or `?` (and any closing
 * quotes or brackets), outside code spans, brackets (so links) and double quotes, not after an
 * abbreviation (`e.g.`, `etc.`, `U.S.`), a single letter or an ellipsis. A piece after a boundary that
 * starts in lowercase (`… API. update an instance`) is a sentence too, but one that never stands alone.
 */
function splitSentences(text: string, from: number, to: number): Sentence[] {
  const out: Sentence[] = [];
  const closingTicks = backtickRuns(text, from, to);
  let start = from;
  while (start < to && /\s/.test(text[start]!)) start++;
  let depth = 0;
  let quoted = false;
  let curly = 0;
  for (let i = start; i < to; i++) {
    const c = text[i]!;
    if (c === '`') {
      let n = 1;
      while (i + n < to && text[i + n] === '`') n++;
      const close = nextRun(closingTicks, n, i + n);
      i = close === undefined ? i + n - 1 : close + n - 1;
      continue;
    }
    if (c === '(' || c === '[') depth++;
    else if ((c === ')' || c === ']') && depth > 0) depth--;
    else if (c === '"') quoted = !quoted;
    else if (c === '“') curly++;
    else if (c === '”' && curly > 0) curly--;
    else if ((c === ' ' || c === '\t' || c === '\n' || c === '\r') && depth === 0 && !quoted && curly === 0 && i > start && endsSentence(text, start, i)) {
      let j = i;
      while (j < to && /\s/.test(text[j]!)) j++;
      if (j < to) {
        out.push({ text: text.slice(start, i), start, end: i });
        start = j;
        i = j - 1;
      }
    }
  }
  let end = to;
  while (end > start && /\s/.test(text[end - 1]!)) end--;
  if (end > start) out.push({ text: text.slice(start, end), start, end });
  return out;
}

/** True when `text[start, i)` ends a sentence (see {@link splitSentences}). */
function endsSentence(text: string, start: number, i: number): boolean {
  let k = i - 1;
  while (k > start && CLOSERS.includes(text[k]!)) k--;
  const c = text[k];
  if (c !== '.' && c !== '!' && c !== '?') return false;
  if (c !== '.') return true;
  if (text[k - 1] === '.' || text[k - 1] === '…') return false;
  let w = k;
  while (w > start && !/\s/.test(text[w - 1]!)) w--;
  const word = text.slice(w, k + 1).replace(/^[("'\u201C\u2018[*_]+/, '').toLowerCase();
  if (ABBREVIATIONS.has(word)) return false;
  // Initials and initialisms: `J.`, `U.S.`, `a.m.`
  return !/^(?:\p{L}\.)+$/u.test(word);
}

/** Start offsets of the backtick runs in `text[from, to)`, by run length. */
function backtickRuns(text: string, from: number, to: number): Map<number, number[]> {
  const runs = new Map<number, number[]>();
  for (let i = text.indexOf('`', from); i !== -1 && i < to; i = text.indexOf('`', i)) {
    let n = 1;
    while (i + n < to && text[i + n] === '`') n++;
    let list = runs.get(n);
    if (!list) runs.set(n, (list = []));
    list.push(i);
    i += n;
  }
  return runs;
}

/** The first run of exactly `n` backticks starting at or after `from`, by binary search. */
function nextRun(runs: Map<number, number[]>, n: number, from: number): number | undefined {
  const list = runs.get(n);
  if (!list) return undefined;
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]! < from) lo = mid + 1;
    else hi = mid;
  }
  return lo < list.length ? list[lo] : undefined;
}

/** Kept sentences in text order, then those found only outside prose; each sentence once (its first reason). */
function orderKept(kept: readonly { sentence: string; reason: KeepReason; at: number }[], outside: readonly { sentence: string; reason: KeepReason }[]): { sentence: string; reason: KeepReason }[] {
  const seen = new Set<string>();
  const out: { sentence: string; reason: KeepReason }[] = [];
  for (const k of [...[...kept].sort((x, y) => x.at - y.at), ...outside]) {
    if (seen.has(k.sentence)) continue;
    seen.add(k.sentence);
    out.push({ sentence: k.sentence, reason: k.reason });
  }
  return out;
}

/**
 * The text without the removed units: a sentence goes with the whitespace before it (or, first in its
 * paragraph, after it); a paragraph left empty goes whole, with the line breaks that separated it from
 * the block before (or, when no block before it stays, from the block after). Whitespace elsewhere stays.
 */
function rebuild(text: string, blocks: readonly Block[], units: readonly { start: number; end: number; block: number }[], removed: readonly boolean[]): string {
  const byBlock: number[][] = blocks.map(() => []);
  units.forEach((u, k) => byBlock[u.block]!.push(k));
  let out = '';
  let keptBefore = false;
  let dropGap = false;
  let prevEnd = 0;
  for (let b = 0; b < blocks.length; b++) {
    const block = blocks[b]!;
    const gap = text.slice(prevEnd, block.start);
    prevEnd = block.end;
    const ks = byBlock[b]!;
    if (block.kind === 'prose' && ks.every((k) => removed[k])) {
      // Emptied: the gap before it goes when a block before stays; else the gap after it goes.
      if (!keptBefore) {
        if (!dropGap) out += gap;
        dropGap = true;
      }
      continue;
    }
    if (dropGap) dropGap = false;
    else out += gap;
    out += editBlock(text, block, ks, units, removed);
    keptBefore = true;
  }
  return out + text.slice(prevEnd);
}

/** One paragraph without its removed sentences. */
function editBlock(text: string, block: Block, ks: readonly number[], units: readonly { start: number; end: number }[], removed: readonly boolean[]): string {
  if (block.kind !== 'prose' || !ks.some((k) => removed[k])) return text.slice(block.start, block.end);
  let out = '';
  let pos = block.start;
  for (let x = 0; x < ks.length; x++) {
    if (!removed[ks[x]!]) continue;
    const u = units[ks[x]!]!;
    let before = x - 1;
    while (before >= 0 && removed[ks[before]!]) before--;
    // After a kept sentence: from its end (the whitespace before this one); else up to the next sentence.
    const [a, z] = before >= 0 ? [units[ks[before]!]!.end, u.end] : [u.start, units[ks[x + 1]!]!.start];
    if (a >= pos) out += text.slice(pos, a);
    pos = Math.max(pos, z);
  }
  return out + text.slice(pos, block.end);
}
