/**
 * The BM25 ranker the proxy's search tool runs (src/session/bm25.ts; the session bench prices the same one),
 * checked against values worked out by hand on a three-document corpus.
 */
import { describe, expect, it } from 'vitest';
import { Bm25, regexRank, terms } from '../../src/session/bm25.js';
import { rng } from '../helpers/rng.js';

describe('BM25', () => {
  // D1 "apple banana" (2 terms), D2 "apple apple cherry" (3), D3 "banana" (1): N = 3, avgdl = 2, k1 = 1.2, b = 0.75.
  const bm = new Bm25(['apple banana', 'apple apple cherry', 'banana']);
  const ln16 = Math.log(1.6); // idf of a term in 2 of 3 documents: ln(1 + (3 − 2 + 0.5) / (2 + 0.5))
  const ln83 = Math.log(8 / 3); // idf of a term in 1 of 3: ln(1 + 2.5 / 1.5)

  it('scores a one-term query by hand', () => {
    // D1: tf 1, |d| = avgdl → 2.2 / 2.2 = 1. D2: tf 2, norm 0.25 + 0.75 · 1.5 = 1.375 → 4.4 / 3.65. D3: no apple.
    const s = bm.scores('apple');
    expect(s[0]).toBeCloseTo(ln16, 12);
    expect(s[1]).toBeCloseTo((ln16 * 4.4) / 3.65, 12);
    expect(s[2]).toBe(0);
    expect(bm.rank('apple')).toEqual([1, 0, 2]);
  });

  it('sums over distinct query terms, once each, and normalises by length', () => {
    // D1: banana, norm 1 → ln1.6. D2: cherry, norm 1.375 → ln(8/3) · 2.2 / 2.65. D3: banana, norm 0.625 → ln1.6 · 2.2 / 1.75.
    const s = bm.scores('Banana cherry banana');
    expect(s[0]).toBeCloseTo(ln16, 12);
    expect(s[1]).toBeCloseTo((ln83 * 2.2) / 2.65, 12);
    expect(s[2]).toBeCloseTo((ln16 * 2.2) / 1.75, 12);
    expect(bm.rank('banana cherry')).toEqual([1, 2, 0]);
    // Nothing matches: every score 0, document order kept.
    expect(bm.rank('durian')).toEqual([0, 1, 2]);
  });

  it('splits names into words', () => {
    expect(terms('get_fileContents')).toEqual(['get', 'file', 'contents']);
    expect(terms('HTTPServer list-all')).toEqual(['http', 'server', 'list', 'all']);
  });

  it('the regex stand-in ranks by distinct content words matched', () => {
    // Content words of the query: "weather", "city" ("in", "the" are out). D2 matches both, D1 one.
    expect(regexRank(['get weather', 'weather of a city', 'send mail'], 'the weather in the city')).toEqual([1, 0, 2]);
  });
});

describe('BM25 from an inverted index, against the formula read document by document', () => {
  /** The module comment's formula, written out here: every document, every distinct query term, in query order. */
  function oracle(documents: readonly string[], query: string): number[] {
    const docs = documents.map((d) => {
      const tf = new Map<string, number>();
      for (const t of terms(d)) tf.set(t, (tf.get(t) ?? 0) + 1);
      return tf;
    });
    const lengths = docs.map((tf) => [...tf.values()].reduce((a, b) => a + b, 0));
    const avgdl = documents.length === 0 ? 0 : lengths.reduce((a, b) => a + b, 0) / documents.length;
    const df = (t: string) => docs.filter((tf) => tf.has(t)).length;
    const q = [...new Set(terms(query))];
    return docs.map((tf, i) => {
      let s = 0;
      const norm = avgdl === 0 ? 1 : 1 - 0.75 + (0.75 * lengths[i]!) / avgdl;
      for (const t of q) {
        const f = tf.get(t);
        if (f === undefined) continue;
        const idf = Math.log(1 + (documents.length - df(t) + 0.5) / (df(t) + 0.5));
        s += (idf * f * 2.2) / (f + 1.2 * norm);
      }
      return s;
    });
  }

  const WORDS = ['get', 'list', 'file', 'files', 'issue', 'pull', 'request', 'create', 'delete', 'user', 'Repo', 'searchCode', 'run_query', 'a', 'the', 'x1', '42'];

  it('gives the same scores (exactly), ranking and top hits on 300 seeded corpora and queries', () => {
    const next = rng(20261206);
    const pick = (n: number) => Array.from({ length: n }, () => WORDS[Math.floor(next() * WORDS.length)]!).join(' ');
    let positive = 0;
    for (let c = 0; c < 300; c++) {
      const documents = Array.from({ length: Math.floor(next() * 30) }, () => pick(Math.floor(next() * 12)));
      const bm = new Bm25(documents);
      for (let k = 0; k < 4; k++) {
        const query = pick(Math.floor(next() * 6)) + (next() < 0.2 ? ' unknownword' : '');
        const expected = oracle(documents, query);
        expect(bm.scores(query)).toEqual(expected);
        const order = expected.map((_v, i) => i).sort((a, b) => expected[b]! - expected[a]! || a - b);
        expect(bm.rank(query)).toEqual(order);
        const hits = order.filter((i) => expected[i]! > 0);
        positive += hits.length;
        expect(bm.top(query, 3)).toEqual(hits.slice(0, 3));
      }
    }
    expect(positive).toBeGreaterThan(1000);
  });

  it('answers a query of 50,000 distinct words over 20,000 documents (the test timeout is the guard)', () => {
    const documents = Array.from({ length: 20_000 }, (_v, i) => `tool_${i} does thing ${i % 97} with item ${i % 13}`);
    const bm = new Bm25(documents);
    const query = Array.from({ length: 50_000 }, (_v, i) => `w${i}`).join(' ') + ' thing 5';
    const top = bm.top(query, 5);
    // `thing` is in every document (its idf is small); `5` in tool_5 (its name and number) and every 97th from 5 and 13th from 5.
    expect(top[0]).toBe(5);
    expect(top).toHaveLength(5);
  });
});

describe('terms: the camelCase split in one pass', () => {
  /** The two replacements it stands for, written out as they stood. */
  const byExpressions = (text: string): string[] => {
    const spaced = text.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2');
    return spaced.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  };

  it('splits as the replacements did on 50,000 seeded strings', () => {
    const next = rng(77);
    // With the neighbours of each ASCII range (` { @ [ / :), so that an off-by-one bound is seen.
    const ALPHABET = ['a', 'b', 'B', 'C', 'D', 'z', 'Z', '1', '9', '0', '_', '-', ' ', 'É', 'é', 'ß', '😀', '\u0130', '`', '{', '@', '[', '/', ':'];
    let splits = 0;
    for (let i = 0; i < 50_000; i++) {
      const s = Array.from({ length: Math.floor(next() * 12) }, () => ALPHABET[Math.floor(next() * ALPHABET.length)]!).join('');
      const expected = byExpressions(s);
      if (expected.length > 1) splits++;
      expect(terms(s), JSON.stringify(s)).toEqual(expected);
    }
    expect(splits).toBeGreaterThan(10_000);
    for (const s of ['getFileContents', 'HTTPServer', 'parseJSONDoc', 'ABCdEFg', 'get_fileContents', 'v2Api', 'A', '']) expect(terms(s), s).toEqual(byExpressions(s));
  });

  it('a query of 400,000 capitals is split at once (the test timeout is the guard)', () => {
    expect(terms('A'.repeat(400_000) + 'b')).toEqual(['a'.repeat(399_999), 'ab']);
  });
});
