/**
 * The collision search against every pair, on lists of near-duplicates: the search prunes candidates by
 * counts, sizes and the positions of the bigrams it met them by, and near-duplicates (a few edits apart,
 * or one text under many numbers) are where those bounds are tightest and a rounding slip would drop a
 * partner or a tie. The oracle here shares no code with the search: plain Sets of two-character strings,
 * every pair, sorted by score then position.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findCollisions } from '../../src/lint/collisions.js';
import { allPairsPartners } from '../helpers/all-pairs.js';

interface Expected {
  readonly tools: { toolIndex: number; partners: { toolIndex: number; score: number }[] }[];
  readonly pairs: { aIndex: number; bIndex: number; score: number }[];
}

/** Every tool's `partners` best partners at or above `threshold` (and above 0), and the pairs they name, from every pair. */
function oracle(texts: readonly string[], threshold: number, partners: number): Expected {
  const tools: Expected['tools'] = [];
  const pairs = new Map<string, { aIndex: number; bIndex: number; score: number }>();
  const all = allPairsPartners(texts, threshold, partners);
  for (let x = 0; x < texts.length; x++) {
    const mine = all[x]!;
    if (mine.length === 0) continue;
    tools.push({ toolIndex: x, partners: mine });
    for (const p of mine) {
      const [a, b] = x < p.toolIndex ? [x, p.toolIndex] : [p.toolIndex, x];
      pairs.set(`${a},${b}`, { aIndex: a, bIndex: b, score: p.score });
    }
  }
  const sorted = [...pairs.values()].sort((p, q) => q.score - p.score || p.aIndex - q.aIndex || p.bIndex - q.bIndex);
  return { tools, pairs: sorted };
}

/** A text a few random edits (replace, insert, delete) away from `base`. */
const edited = (base: string) =>
  fc.array(fc.tuple(fc.constantFrom('replace', 'insert', 'delete'), fc.nat(), fc.constantFrom(...'abcdefgh0123456789-')), { maxLength: 4 }).map((edits) => {
    let text = base;
    for (const [kind, at, ch] of edits) {
      const i = text.length === 0 ? 0 : at % (text.length + (kind === 'insert' ? 1 : 0));
      if (kind === 'insert') text = text.slice(0, i) + ch + text.slice(i);
      else if (text.length > 0) text = text.slice(0, i) + (kind === 'replace' ? ch : '') + text.slice(i + 1);
    }
    return text;
  });

/** Up to 300 texts: a few bases, each repeated with edits and, often, a number after it (as bench/check-scale.ts's list renames its tools). */
const nearDuplicates = fc
  .tuple(fc.array(fc.stringMatching(/^[a-h]{2,40}$/), { minLength: 1, maxLength: 8 }), fc.integer({ min: 2, max: 300 }))
  .chain(([bases, length]) =>
    fc.array(
      fc.tuple(fc.constantFrom(...bases).chain(edited), fc.option(fc.nat({ max: 99_999 }), { nil: undefined })).map(([text, k]) => (k === undefined ? text : `${text}${k}`)),
      { minLength: length, maxLength: length },
    ),
  );

describe('findCollisions on near-duplicates gives what comparing every pair gives (fixed seed)', () => {
  it('for thresholds from 0.05 to 1 and 1 to 5 partners', () => {
    let withPartners = 0;
    fc.assert(
      fc.property(
        nearDuplicates,
        // Ratios, as similarities are: a score equal to the threshold as a fraction is the same double
        // (the search's "at or above" reads a hair below the threshold; an arbitrary double a hair above a
        // score would split the two on that hair, which is not what this test is about).
        fc.oneof(fc.integer({ min: 5, max: 100 }).map((k) => k / 100), fc.integer({ min: 2, max: 24 }).map((k) => k / 24)),
        fc.integer({ min: 1, max: 5 }),
        (texts, threshold, partners) => {
          const names = texts.map((_, i) => `n${i}`);
          const r = findCollisions(texts, names, { threshold, partners });
          const want = oracle(texts, threshold, partners);
          expect(r.complete).toBe(true);
          expect(r.searched).toBe(texts.length);
          expect(r.tools).toEqual(want.tools.map((t) => ({ tool: `n${t.toolIndex}`, toolIndex: t.toolIndex, partners: t.partners.map((p) => ({ tool: `n${p.toolIndex}`, ...p })) })));
          expect(r.pairs).toEqual(want.pairs.map((p) => ({ a: `n${p.aIndex}`, aIndex: p.aIndex, b: `n${p.bIndex}`, bIndex: p.bIndex, score: p.score })));
          if (r.pairs.length > 0) withPartners++;
        },
      ),
      { seed: 7070, numRuns: 150 },
    );
    // The lists drawn are alike enough to hold collisions, most of them.
    expect(withPartners).toBeGreaterThan(100);
  });
});
