/**
 * The BM25 ranker the proxy's search tool runs (src/session/bm25.ts; the session bench prices the same one),
 * checked against values worked out by hand on a three-document corpus.
 */
import { describe, expect, it } from 'vitest';
import { Bm25, regexRank, terms } from '../../src/session/bm25.js';

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
