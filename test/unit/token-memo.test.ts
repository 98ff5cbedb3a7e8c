/**
 * The memoized counts of `toolslim/tokens` (src/core/token-memo.ts) equal direct counts. The oracle is
 * gpt-tokenizer's own `encode(text).length` on the whole text, never the memo's code: for a text with a
 * piece longer than MAX_EXACT_PIECE (counted in slices, an estimate by design), the oracle splits the text
 * with gpt-tokenizer's own pre-tokenizer regex and encodes each piece, a long one slice by slice, as the
 * estimate is documented in src/tokens.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { encode as encodeCl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { encode as encodeO200k } from 'gpt-tokenizer/encoding/o200k_base';
import { CL100K_TOKEN_SPLIT_REGEX, O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants';
import { describe, expect, it } from 'vitest';
import { arrayStandIn, memoized, MEMO_MAX_CHARS, MEMO_MAX_LAST } from '../../src/core/token-memo.js';
import { cl100k, MAX_EXACT_PIECE, o200k } from '../../src/tokens.js';
import { arrayElementKeeper, RELEASE_MEMO } from '../../src/core/measure.js';
import { rng } from '../helpers/rng.js';

const PLAIN = { disallowedSpecial: new Set<string>() };

/**
 * gpt-tokenizer's count of a text, kept per encoding: the oracle is a pure function of the text, and the
 * tests below ask it of the same texts again (each list's elements and the list itself, a text and its
 * copy), which took most of this file's time. The memo under test keeps nothing of these counts.
 */
function kept(encode: (t: string) => number): (t: string) => number {
  const seen = new Map<string, number>();
  return (t) => {
    let n = seen.get(t);
    if (n === undefined) seen.set(t, (n = encode(t)));
    return n;
  };
}

const ENCODINGS = [
  { tokenizer: o200k, encode: kept((t) => encodeO200k(t, PLAIN).length), split: O200K_TOKEN_SPLIT_REGEX },
  { tokenizer: cl100k, encode: kept((t) => encodeCl100k(t, PLAIN).length), split: CL100K_TOKEN_SPLIT_REGEX },
] as const;

/** The direct count: the whole text encoded, or (with a long piece) each piece, a long one in slices. */
function direct(enc: (typeof ENCODINGS)[number], text: string): number {
  const pieces = [...text.matchAll(new RegExp(enc.split.source, enc.split.flags))].map((m) => m[0]);
  if (pieces.every((p) => p.length <= MAX_EXACT_PIECE)) return enc.encode(text);
  let n = 0;
  for (const p of pieces) {
    if (p.length <= MAX_EXACT_PIECE) {
      n += enc.encode(p);
      continue;
    }
    for (let k = 0; k < p.length; ) {
      let end = Math.min(p.length, k + MAX_EXACT_PIECE);
      const last = p.charCodeAt(end - 1);
      if (end < p.length && last >= 0xd800 && last <= 0xdbff) end--;
      n += enc.encode(p.slice(k, end));
      k = end;
    }
  }
  return n;
}

// Characters at the edges of what the pre-tokenizers split: contractions, marks after letters, title case,
// letters of other scripts, digits, whitespace kinds, surrogate pairs and lone halves, special-token text.
const ATOMS = [
  'a', 'Z', 'x', 's', 'S', 't', 'll', 'LL', 've', 're', 'd', 'm', '0', '7', '123', '4567', "'", "'s", "'S", "'ll", "'Re", '"', ',', ':', '{', '}', '[', ']', '.', '/', '\\',
  '-', '_', '<|endoftext|>', '<|fim_prefix|>', ' ', '  ', '\t', '\n', '\r\n', '\r', '\u00a0', '\u2028', '\u3000', 'é', 'e\u0301', '\u0301', 'ß', 'Ǆ', 'ǅ', 'ǆ', 'ʰ', '中文',
  'Ω', 'ω', '٣', 'Ⅻ', '😀', '\ud83d', '\ude00', 'İ', 'ﬃ', '€', '$', '`', '=', '>', '?', '!', '@', '#', '%', '^', '&', '*', '(', ')', '+', '|', '~', ';',
];

function hostile(seed: number, count: number, maxAtoms: number): string[] {
  const r = rng(seed);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    let s = '';
    const n = 1 + Math.floor(r() * maxAtoms);
    for (let k = 0; k < n; k++) s += ATOMS[Math.floor(r() * ATOMS.length)]!;
    out.push(s);
  }
  return out;
}

function corpusTexts(): string[] {
  const texts: string[] = [];
  for (const dir of ['corpus', 'validation']) {
    const path = join(import.meta.dirname, '..', '..', 'bench', dir);
    for (const file of readdirSync(path).filter((f) => f.endsWith('.json')).sort()) {
      const data = JSON.parse(readFileSync(join(path, file), 'utf8')) as { toolsList?: { tools?: unknown[] } };
      const tools = data.toolsList?.tools ?? [];
      texts.push(JSON.stringify(tools), JSON.stringify(tools, null, 4), ...tools.map((t) => JSON.stringify(t)));
    }
  }
  return texts;
}

describe('memoized token counts equal direct counts', () => {
  const corpus = corpusTexts();

  for (const enc of ENCODINGS) {
    it(`${enc.tokenizer.name}: every list, indented list and tool of bench/corpus and bench/validation`, () => {
      expect(corpus.length).toBeGreaterThan(1000);
      const wrong = corpus.filter((t) => enc.tokenizer.count(t) !== enc.encode(t));
      expect(wrong.length).toBe(0);
    });

    it(`${enc.tokenizer.name}: hostile strings, alone, twice, and glued to each other (memo hits across contexts)`, () => {
      const strings = [...hostile(1, 400, 60), ...hostile(2, 40, 600)];
      let checked = 0;
      for (let i = 0; i < strings.length; i++) {
        const s = strings[i]!;
        const glued = strings[(i * 7) % strings.length]! + s + strings[(i * 13) % strings.length]!;
        for (const t of [s, s, glued, '"' + s + '"', 'abc' + s + 'xyz']) {
          expect(enc.tokenizer.count(t), JSON.stringify(t)).toBe(direct(enc, t));
          checked++;
        }
      }
      expect(checked).toBe(2200);
    });

    it(`${enc.tokenizer.name}: long pieces (counted in slices) split the same way through the memo`, () => {
      const r = rng(3);
      const texts = [
        'a'.repeat(300) + '"' + 'b'.repeat(1000) + ',x',
        '{"name":"' + 'Q'.repeat(700) + '7","d":"' + ' '.repeat(400) + 'z"}',
        '1'.repeat(900) + 'x"' + '😀'.repeat(300) + 'y,',
        ...Array.from({ length: 20 }, () => hostile(Math.floor(r() * 1e9), 1, 40)[0]!.repeat(30)),
      ];
      for (const t of texts) expect(enc.tokenizer.count(t)).toBe(direct(enc, t));
    });

    it(`${enc.tokenizer.name}: countConcat(parts) counts parts.join(''), however the text is cut into parts`, () => {
      const r = rng(4);
      const sources = [...corpus.slice(0, 30), ...hostile(5, 30, 200)];
      for (const text of sources) {
        const parts: string[] = [];
        for (let at = 0; at < text.length; ) {
          const len = r() < 0.2 ? 0 : 1 + Math.floor(r() * 80);
          parts.push(text.slice(at, at + len));
          at += len;
        }
        expect(enc.tokenizer.countConcat!(parts)).toBe(enc.encode(text));
      }
      expect(enc.tokenizer.countConcat!([])).toBe(0);
      expect(enc.tokenizer.countConcat!(['', ''])).toBe(0);
    });

    it(`${enc.tokenizer.name}: countArray(texts, counts) counts '[' + texts.join(',') + ']' from the elements' counts`, () => {
      const lists: string[][] = [];
      for (const dir of ['corpus', 'validation']) {
        const path = join(import.meta.dirname, '..', '..', 'bench', dir);
        for (const file of readdirSync(path).filter((f) => f.endsWith('.json')).sort()) {
          const data = JSON.parse(readFileSync(join(path, file), 'utf8')) as { toolsList?: { tools?: unknown[] } };
          lists.push((data.toolsList?.tools ?? []).map((t) => JSON.stringify(t) ?? 'null'));
        }
      }
      // Elements that end or start in whitespace, digits, contractions, long pieces, none with a cut
      // point (`}`, `""`, `  `), empty ones, and hostile strings next to each other.
      const r = rng(6);
      const odd = ['', '}', '""', '  ', 'x', '7', "'s", 'a,', ',a', 'null', '{"a":1}', '{"a":"b "}', ' {"x":"y"} ', '"' + 'q'.repeat(600) + '"', 'ab' + ' '.repeat(300) + 'cd:', ...hostile(7, 60, 40)];
      for (let n = 0; n < 60; n++) lists.push(Array.from({ length: Math.floor(r() * 12) }, () => odd[Math.floor(r() * odd.length)]!));
      lists.push([], ['']);
      let checked = 0;
      for (const texts of lists) {
        const whole = direct(enc, '[' + texts.join(',') + ']');
        expect(enc.tokenizer.countArray!(texts), JSON.stringify(texts).slice(0, 200)).toBe(whole);
        const counts = texts.map((t, i) => (i % 3 === 2 ? undefined : direct(enc, t)));
        expect(enc.tokenizer.countArray!(texts, counts), JSON.stringify(texts).slice(0, 200)).toBe(whole);
        // What report and the engine keep of each tool instead of its text: the stand-in, with the
        // element's count, counts the same whole, and is never longer than the text.
        const standIns = texts.map((t) => arrayStandIn(t));
        const allCounts = texts.map((t) => direct(enc, t));
        expect(enc.tokenizer.countArray!(standIns, allCounts), JSON.stringify(texts).slice(0, 200)).toBe(whole);
        for (let i = 0; i < texts.length; i++) expect(standIns[i]!.length).toBeLessThanOrEqual(texts[i]!.length);
        checked++;
      }
      expect(checked).toBeGreaterThan(100);
      // The counts given are used, not counted again: one off by 5 moves the total by 5.
      const texts = lists[0]!;
      const counts = texts.map((t) => direct(enc, t));
      counts[0]! += 5;
      expect(enc.tokenizer.countArray!(texts, counts)).toBe(direct(enc, '[' + texts.join(',') + ']') + 5);
    });
  }
});

describe('one scan, both encodings', () => {
  it('counts a text the other encoding has just scanned from that scan, exactly, and an equal copy of it too', () => {
    // report counts each tool in o200k_base and then in cl100k_base: the second count replays the first one's
    // segments (src/core/token-memo.ts, scanText). The oracle is gpt-tokenizer on the whole text.
    const [a, b] = ENCODINGS;
    const texts = [...corpusTexts().slice(0, 600), ...hostile(4, 200, 80), ...hostile(5, 20, 900), '', 'a', '{"x":1}'];
    let checked = 0;
    for (const t of texts) {
      const copy = (' ' + t).slice(1);
      expect(a.tokenizer.count(t), JSON.stringify(t)).toBe(direct(a, t));
      expect(b.tokenizer.count(t), JSON.stringify(t)).toBe(direct(b, t));
      expect(b.tokenizer.count(copy)).toBe(direct(b, t));
      expect(a.tokenizer.count(copy)).toBe(direct(a, t));
      // A text that differs from the last one scanned (in length, or only in its content) is scanned afresh.
      expect(b.tokenizer.count(t + 'q')).toBe(direct(b, t + 'q'));
      if (t.length > 1) {
        const other = t.slice(0, t.length >> 1) + ' ' + t.slice((t.length >> 1) + 1);
        a.tokenizer.count(t);
        expect(b.tokenizer.count(other), JSON.stringify(other)).toBe(direct(b, other));
      }
      checked++;
    }
    expect(checked).toBe(texts.length);
  });
});

describe('isEstimate: true exactly when a split of the text holds a piece longer than MAX_EXACT_PIECE', () => {
  // The oracle splits with gpt-tokenizer's own pre-tokenizer regexes (both encodings), as src/tokens.ts documents.
  const exact = (t: string) => ENCODINGS.some((enc) => [...t.matchAll(new RegExp(enc.split.source, enc.split.flags))].some((m) => m[0].length > MAX_EXACT_PIECE));
  const near = [MAX_EXACT_PIECE - 5, MAX_EXACT_PIECE - 4, MAX_EXACT_PIECE - 3, MAX_EXACT_PIECE - 1, MAX_EXACT_PIECE, MAX_EXACT_PIECE + 1, MAX_EXACT_PIECE + 2];
  const edges: string[] = [];
  for (const n of near) {
    // Words with what a piece may take beside them (a character before, a contraction after), punctuation runs
    // with the line breaks and slashes after them, whitespace runs, letters of other scripts, marks, digits.
    for (const [before, run, after] of [['', 'a', ''], [' ', 'a', "'ll"], ['"', 'Ab', "'s"], ['x1', 'é', ''], ['', 'e\u0301', ''], [' ', '{', '\n/\n'], ['a', '}', '\r\n'], ['', '/', ''], ['', ' ', ''], ['', '\n', ''], ['x', ' \t', 'y'], ['', '\u00a0', ''], ['', '\u00a0 ', ''], ['', '\u3000\n', ''], ['', '—{', ''], ['', '中', ''], ['', '1', ''], ['', '😀', '']]) {
      const body = run!.repeat(Math.ceil(n / run!.length)).slice(0, n);
      edges.push(before + body + after, 'pad ' + before + body + after + ' pad');
    }
  }
  const corpus = corpusTexts();

  // One oracle answer per text, asked of both tokenizers (each says whether its count of the text is an estimate).
  // Each tokenizer is asked twice: of a text it has not just counted (it reads the text), and right after
  // counting it (it answers from what its memo knows of the text's segments).
  const ask = (t: string): boolean => {
    const want = exact(t);
    for (const enc of ENCODINGS) {
      expect(enc.tokenizer.isEstimate!(t), `${enc.tokenizer.name}: ${JSON.stringify(t.slice(0, 60))}`).toBe(want);
      enc.tokenizer.count(t);
      expect(enc.tokenizer.isEstimate!(t), `${enc.tokenizer.name}, just counted: ${JSON.stringify(t.slice(0, 60))}`).toBe(want);
      // Counted again: now from what the memo kept.
      enc.tokenizer.count(t);
      expect(enc.tokenizer.isEstimate!(t), `${enc.tokenizer.name}, counted again: ${JSON.stringify(t.slice(0, 60))}`).toBe(want);
    }
    return want;
  };

  it('runs at the limit, hostile strings, and every list and tool of both bench sets (o200k_base and cl100k_base)', () => {
    let estimates = 0;
    for (const t of [...edges, ...hostile(7, 400, 400).map((h) => h.repeat(3))]) if (ask(t)) estimates++;
    // Both answers occur among these texts.
    expect(estimates).toBeGreaterThan(20);
    expect(estimates).toBeLessThan(edges.length);
    // Compact JSON is split into short pieces however long it is.
    for (const t of corpus) ask(t);
  });
});

describe('arrayStandIn', () => {
  it('keeps a text up to its first cut point and from its last, and a text without one whole', () => {
    // Cut points (a letter or digit, then punctuation other than an apostrophe), found by hand.
    expect(arrayStandIn('{"name":"a","description":"Reads a file."}')).toBe('{"name."}');
    expect(arrayStandIn('{"x":1}')).toBe('{"x}');
    expect(arrayStandIn('{"a":"b "}')).toBe('{"a":"b "}');
    expect(arrayStandIn('"it\'s"')).toBe('"it\'s"');
    expect(arrayStandIn('null')).toBe('null');
    expect(arrayStandIn('}')).toBe('}');
    // Long texts keep only the head and tail: what a 31k-tool report holds per tool.
    const long = '{"name":"t","description":"' + 'word, '.repeat(5000) + 'end"}';
    expect(arrayStandIn(long)).toBe('{"name"}');
  });
  it('is what toolslim/tokens gives the engine and report to keep (another tokenizer keeps the text)', () => {
    expect(arrayElementKeeper(o200k)('{"x":1,"y":2}')).toBe('{"x}');
    expect(arrayElementKeeper({ name: 'words', count: (t) => t.split(' ').length })('{"x":1,"y":2}')).toBe('{"x":1,"y":2}');
    // A copy of o200k with a countArray of its own (which may read the whole element) keeps the text.
    const { countArray: _dropped, ...noArray } = o200k;
    expect(arrayElementKeeper(noArray)('{"x":1,"y":2}')).toBe('{"x":1,"y":2}');
    expect(arrayElementKeeper({ ...o200k, countArray: (texts: readonly string[]) => texts.length })('{"x":1,"y":2}')).toBe('{"x":1,"y":2}');
    // A plain copy keeps o200k's countArray, and so its stand-in.
    expect(arrayElementKeeper({ ...o200k })('{"x":1,"y":2}')).toBe('{"x}');
  });
});

describe('the memo', () => {
  it('counts a repeated stretch once, and only the new piece of a text that differs in a few characters', () => {
    const counted: string[] = [];
    const memo = memoized((t) => {
      counted.push(t);
      return t.length;
    });
    const body = JSON.stringify({ description: 'Fetches the weather for a city, in metric units', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } });
    const a = memo.count('{"name":"weather_1",' + body.slice(1));
    const seen = counted.join('').length;
    const b = memo.count('{"name":"weather_2",' + body.slice(1));
    expect(a).toBe(('{"name":"weather_1",' + body.slice(1)).length);
    expect(b).toBe(a);
    // The second text was counted by tokenizing at most a short stretch around the new name.
    expect(counted.join('').length - seen).toBeLessThan(40);
    expect(counted.slice(-1)[0]).toContain('_2');
  });

  it('never gives one segment the count of another that shares its key', () => {
    // The memo keys a segment by the low 30 bits of FNV-1a over its UTF-16 code units (src/core/token-memo.ts),
    // written out here on its own. A text of lower-case letters has no cut point, so it is one segment.
    const key = (t: string) => {
      let h = 0x811c9dc5 | 0;
      for (let i = 0; i < t.length; i++) h = Math.imul(h ^ t.charCodeAt(i), 0x01000193);
      return h & 0x3fffffff;
    };
    const r = rng(8);
    const seen = new Map<number, string>();
    let pair: [string, string] | undefined;
    while (!pair) {
      let t = '';
      for (let i = 0; i < 7; i++) t += String.fromCharCode(97 + Math.floor(r() * 26));
      const other = seen.get(key(t));
      if (other !== undefined && other !== t) pair = [other, t];
      else seen.set(key(t), t);
    }
    const [a, b] = pair;
    let calls = 0;
    // A count that tells the two apart (the same length, different letters).
    const memo = memoized((t) => {
      calls++;
      let n = 0;
      for (let i = 0; i < t.length; i++) n = n * 31 + t.charCodeAt(i);
      return n;
    });
    const countOf = (t: string) => [...t].reduce((n, ch) => n * 31 + ch.charCodeAt(0), 0);
    expect(memo.count(a)).toBe(countOf(a));
    expect(memo.count(b)).toBe(countOf(b));
    expect(memo.count(b)).toBe(countOf(b));
    expect(memo.count(a)).toBe(countOf(a));
    // They did share the key: the second took the first one's place, so the first was counted again.
    expect(calls).toBe(3);
  });

  it('knows whether the text it last counted may hold a long piece, from a new segment, a kept one and an aged one', () => {
    // One segment each (letters only: no cut point); the test given is "holds an L".
    const memo = memoized((t) => t.length, (t) => t.includes('L'));
    const withL = 'abcLdef'.repeat(20);
    const without = 'abcxdef'.repeat(20);
    expect(memo.mayHoldLong(withL)).toBeUndefined(); // not counted yet
    memo.count(withL);
    expect(memo.mayHoldLong(withL)).toBeUndefined();
    memo.count(without);
    expect(memo.mayHoldLong(without)).toBe(false);
    expect(memo.mayHoldLong(withL)).toBeUndefined(); // not the last text counted
    memo.count(withL); // kept: a hit
    expect(memo.mayHoldLong(withL)).toBeUndefined();
    // A text holding both: whichever way it is cut, the segment with the L may.
    memo.count(`${without}0,${withL}`);
    expect(memo.mayHoldLong(`${without}0,${withL}`)).toBeUndefined();
    // A text longer than MEMO_MAX_LAST is not held as the last one (the memo keeps no large text alive).
    const large = without.repeat(Math.ceil((MEMO_MAX_LAST + 1) / without.length));
    memo.count(large);
    expect(memo.mayHoldLong(large)).toBeUndefined();
    memo.count(without);
    expect(memo.mayHoldLong(without)).toBe(false);
    // Pushed into the old generation by distinct text, then counted again from there.
    for (let i = 0; i < (MEMO_MAX_CHARS / 1000) * 0.6; i++) memo.count(`${i}:${'w'.repeat(990)}9"`);
    memo.count(without);
    expect(memo.mayHoldLong(without)).toBe(false);
    memo.count(withL);
    expect(memo.mayHoldLong(withL)).toBeUndefined();
    // A memo without the test never says no.
    const plain = memoized((t) => t.length);
    plain.count(without);
    expect(plain.mayHoldLong(without)).toBeUndefined();
  });

  it(`is bounded: after ${MEMO_MAX_CHARS} characters of distinct text, the first is counted again`, () => {
    const { memo, calls } = lengthMemo();
    const first = 'first_' + 'q'.repeat(100) + '"';
    memo.count(first);
    const once = calls();
    memo.count(first);
    expect(calls()).toBe(once);
    // Distinct segments of ~1,000 characters each without a cut point inside (letters, then the `9"`
    // boundary): each is new text the memo keeps whole.
    const letters = (i: number) => {
      let t = '';
      do {
        t += String.fromCharCode(97 + (i % 26));
        i = Math.floor(i / 26);
      } while (i > 0);
      return t;
    };
    for (let i = 0; i < (MEMO_MAX_CHARS / 1000) * 1.2; i++) memo.count(`${letters(i)}${'w'.repeat(990)}9"`);
    const before = calls();
    memo.count(first);
    expect(calls()).toBeGreaterThan(before);
  });

  it('keeps the pieces of a segment that holds new text, not the segment: distinct names do not push out what repeats', () => {
    const { memo, calls } = lengthMemo();
    const repeated = 'repeated_' + 'q'.repeat(100) + '"';
    memo.count(repeated);
    const once = calls();
    // As many characters as the memo holds, and more, in texts that differ only in a number (a tool's name
    // in a list of repeated tools): `:www…9` is met again and again, each number once. The number sits past
    // the text's first HEAD characters (which are cut at every cut point), in a segment of its own only once
    // the memo has missed it and cut it finely.
    const lead = 'p'.repeat(80);
    for (let i = 0; i < (MEMO_MAX_CHARS / 1000) * 1.2; i++) expect(memo.count(`${lead}${i}:${'w'.repeat(990)}9"`)).toBe(80 + String(i).length + 993);
    // Each number was counted, and the rest about once: the memo never filled up.
    const after = calls();
    expect(after - once).toBeLessThanOrEqual(Math.ceil((MEMO_MAX_CHARS / 1000) * 1.2) + 2);
    memo.count(repeated);
    expect(calls()).toBe(after);
  });
});

describe('release', () => {
  it('forgets what the memo holds (the text is tokenized again) and the counts stay exact', () => {
    const { memo, calls } = lengthMemo();
    const text = JSON.stringify({ name: 'weather', description: 'Fetches the weather for a city, in metric units', inputSchema: { type: 'object' } });
    expect(memo.count(text)).toBe(text.length);
    const first = calls();
    expect(first).toBeGreaterThan(0);
    expect(memo.count(text)).toBe(text.length);
    expect(calls()).toBe(first);
    memo.release();
    expect(memo.count(text)).toBe(text.length);
    expect(calls()).toBe(2 * first);
  });

  it('is what toolslim/tokens carries under RELEASE_MEMO, and counts after it equal gpt-tokenizer', () => {
    const text = JSON.stringify(JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'bench', 'corpus', readdirSync(join(import.meta.dirname, '..', '..', 'bench', 'corpus')).filter((f) => f.endsWith('.json')).sort()[0]!), 'utf8')).toolsList.tools);
    for (const [t, encode] of [[o200k, encodeO200k], [cl100k, encodeCl100k]] as const) {
      const release = (t as { [RELEASE_MEMO]?: () => void })[RELEASE_MEMO];
      expect(typeof release).toBe('function');
      const before = t.count(text);
      release!();
      expect(t.count(text)).toBe(before);
      expect(before).toBe(encode(text, { disallowedSpecial: new Set() }).length);
    }
  });
});

/** A memo over a count of characters, and how many times that count was asked for (each a segment tokenized). */
function lengthMemo(): { memo: ReturnType<typeof memoized>; calls: () => number } {
  let n = 0;
  const memo = memoized((t) => {
    n++;
    return t.length;
  });
  return { memo, calls: () => n };
}
