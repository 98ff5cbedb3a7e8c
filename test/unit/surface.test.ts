/**
 * analyzeSurface. Similarities are worked out by hand in the comments (bigram sets listed), byte parts
 * are counted by hand or by Node's encoder over hand-built member text. Collisions are checked against a
 * brute-force oracle written here (strings, Sets, every pair), on seeded random lists and the corpus.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyzeSurface, ToolslimError } from '../../src/index.js';
import { bigramSet, collisionText, jaccard } from '../../src/lint/collisions.js';
import { loadCorpus } from '../helpers/corpus.js';
import { deepFreeze } from '../helpers/freeze.js';

const obj = { type: 'object' };

describe('the compared text and its bigrams', () => {
  it('joins name and description, lower-cases, drops `_` and whitespace', () => {
    expect(collisionText('get_User', 'Get a\tuser\n by ID.')).toBe('getusergetauserbyid.');
    expect(collisionText(undefined, 7)).toBe('');
    expect(collisionText('a-b', undefined)).toBe('a-b'); // only `_` and whitespace go
  });

  it('takes every two consecutive characters of the whole string, each once', () => {
    const decode = (codes: number[]) => codes.map((c) => String.fromCodePoint(Math.floor(c / 0x110000)) + String.fromCodePoint(c % 0x110000)).sort();
    // "getuserget" → ge et tu us se er rg ge et → 7 distinct
    expect(decode(bigramSet(collisionText('get_user', 'get')))).toEqual(['er', 'et', 'ge', 'rg', 'se', 'tu', 'us']);
    expect(bigramSet('a')).toEqual([]);
    // an astral character counts as one
    expect(decode(bigramSet('𝑎x😀'))).toEqual(['x😀', '𝑎x']);
  });
});

describe('jaccard (hand-computed)', () => {
  const j = (a: string, b: string) => jaccard(bigramSet(collisionText(a, '')), bigramSet(collisionText(b, '')));
  it('get_user vs get_users: {ge,et,tu,us,se,er} vs the same + rs = 6/7', () => {
    expect(j('get_user', 'get_users')).toBe(6 / 7);
  });
  it('"readFile Read a file." vs "write_file Write a file.": 6/17', () => {
    // readfilereadafile. → re ea ad df fi il le er da af e. (11)
    // writefilewriteafile. → wr ri it te ef fi il le ew ea af e. (12); shared: fi il le ea af e. (6)
    expect(jaccard(bigramSet(collisionText('readFile', 'Read a file.')), bigramSet(collisionText('write_file', 'Write a file.')))).toBe(6 / 17);
  });
  it('abcdefgh vs abcdxyz: 3 of 10 = 0.3 exactly', () => {
    expect(j('abcdefgh', 'abcdxyz')).toBe(0.3);
  });
  it('disjoint texts = 0; two texts without bigrams = 0 (nothing to confuse)', () => {
    expect(j('ab', 'cd')).toBe(0);
    expect(j('', '')).toBe(0);
    expect(j('a', 'ab')).toBe(0);
  });
});

describe('analyzeSurface', () => {
  // get_user: ge et us se er (5); get_users: + rs (6); delete: de el le et te (5)
  // A·B = 5/6, A·C = {et} 1/9, B·C = {et} 1/10
  const tools = deepFreeze([
    { name: 'get_user', inputSchema: obj },
    { name: 'get_users', description: '', inputSchema: { type: 'object', properties: { a: {}, b: {}, c: {}, d: {}, e: {} } } },
    { name: 'delete', description: 7, inputSchema: { type: 'object', properties: { a: {}, b: {}, c: {}, d: {} } } },
  ]);

  // getuser: ge et tu us se er (6); getusers: + rs (7); delete: de el le et te (5)
  // 0·1 = 6/7, 0·2 = {et} 1/10, 1·2 = {et} 1/11
  it('lists each tool\'s partners strictly above the threshold, and the pairs they make', () => {
    const r = analyzeSurface(tools);
    expect(r.tools).toBe(3);
    expect(r.collisions.threshold).toBe(0.3);
    expect(r.collisions.partners).toBe(3);
    expect(r.collisions.tools).toEqual([
      { tool: 'get_user', toolIndex: 0, partners: [{ tool: 'get_users', toolIndex: 1, score: 6 / 7 }] },
      { tool: 'get_users', toolIndex: 1, partners: [{ tool: 'get_user', toolIndex: 0, score: 6 / 7 }] },
    ]);
    expect(r.collisions.pairs).toEqual([{ a: 'get_user', aIndex: 0, b: 'get_users', bIndex: 1, score: 6 / 7 }]);
  });

  it('honours the threshold and the number of partners', () => {
    const low = analyzeSurface(tools, { collisionThreshold: 0.05 });
    expect(low.collisions.tools.map((t) => [t.toolIndex, t.partners.map((p) => [p.toolIndex, p.score])])).toEqual([
      [0, [[1, 6 / 7], [2, 1 / 10]]],
      [1, [[0, 6 / 7], [2, 1 / 11]]],
      [2, [[0, 1 / 10], [1, 1 / 11]]],
    ]);
    expect(low.collisions.pairs.map((p) => p.score)).toEqual([6 / 7, 1 / 10, 1 / 11]);
    const one = analyzeSurface(tools, { collisionThreshold: 0.05, collisionPartners: 1 });
    expect(one.collisions.tools.map((t) => t.partners.map((p) => p.toolIndex))).toEqual([[1], [0], [0]]);
    expect(analyzeSurface(tools, { collisionThreshold: 0.9 }).collisions.tools).toEqual([]);
  });

  it('flags a pair exactly at the threshold (0.3 = 3/10), as the tool-surface metric counts it (≥), and none just above', () => {
    const pair = [
      { name: 'abcdefgh', inputSchema: obj },
      { name: 'abcdxyz', inputSchema: obj },
    ];
    expect(analyzeSurface(pair).collisions.pairs.map((p) => p.score)).toEqual([0.3]);
    expect(analyzeSurface(pair, { collisionThreshold: 0.31 }).collisions.tools).toEqual([]);
    expect(analyzeSurface(pair, { collisionThreshold: 0.29 }).collisions.pairs.map((p) => p.score)).toEqual([0.3]);
  });

  it('breaks score ties by position', () => {
    // abc {ab bc}, abx {ab bx}, aby {ab by}, abz {ab bz}: every pair shares `ab` only, 1/3
    const r = analyzeSurface(['abc', 'abx', 'aby', 'abz'].map((name) => ({ name, inputSchema: obj })), { collisionPartners: 2 });
    expect(r.collisions.tools.map((t) => [t.toolIndex, t.partners.map((p) => p.toolIndex)])).toEqual([
      [0, [1, 2]],
      [1, [0, 2]],
      [2, [0, 1]],
      [3, [0, 1]],
    ]);
    expect(r.collisions.pairs.map((p) => [p.aIndex, p.bIndex])).toEqual([
      [0, 1],
      [0, 2],
      [0, 3],
      [1, 2],
      [1, 3],
    ]);
  });

  it('flags argument counts over the threshold and missing, blank or non-string descriptions', () => {
    const r = analyzeSurface(tools);
    expect(r.arguments).toEqual({ threshold: 4, over: [{ tool: 'get_users', toolIndex: 1, count: 5 }] });
    expect(analyzeSurface(tools, { maxArguments: 3 }).arguments.over.map((o) => o.count)).toEqual([5, 4]);
    expect(r.missingDescriptions).toEqual([
      { tool: 'get_user', toolIndex: 0 },
      { tool: 'get_users', toolIndex: 1 },
      { tool: 'delete', toolIndex: 2 },
    ]);
  });

  it('emits findings with severity, code, tool, path and message, in list order', () => {
    const r = analyzeSurface(tools);
    expect(r.findings.map((f) => [f.severity, f.code, f.tool, f.toolIndex, f.path])).toEqual([
      ['warning', 'missing-description', 'get_user', 0, '/0'],
      ['info', 'description-collision', 'get_user', 0, '/0'],
      ['warning', 'missing-description', 'get_users', 1, '/1/description'],
      ['info', 'many-arguments', 'get_users', 1, '/1/inputSchema/properties'],
      ['info', 'description-collision', 'get_users', 1, '/1'],
      ['warning', 'missing-description', 'delete', 2, '/2/description'],
    ]);
    const collision = r.findings.find((f) => f.code === 'description-collision')!;
    expect(collision.message).toBe('`get_user` reads like `get_users` (0.86) (character-bigram similarity at or above 0.30); a model may call one for the other: say in each description what sets it apart, or merge the tools');
    expect(r.findings.find((f) => f.code === 'many-arguments')!.message).toBe('`get_users` takes 5 arguments, expected at most 4');
  });

  it('splits the bytes of the list into parts that add up exactly', () => {
    const list = [{ name: 'a', description: 'xy', inputSchema: obj, annotations: { readOnlyHint: true } }, { name: 'b', inputSchema: obj, outputSchema: obj, _meta: { k: 1 } }];
    const r = analyzeSurface({ tools: list });
    const total = Buffer.byteLength(JSON.stringify(list));
    expect(r.bytes.total).toBe(total);
    // "description":"xy" = 13 + 1 + 4; "inputSchema":{"type":"object"} = 13 + 1 + 17 (twice);
    // "outputSchema":{"type":"object"} = 14 + 1 + 17; "annotations":{"readOnlyHint":true} = 13 + 1 + 21
    expect(r.bytes.descriptions.bytes).toBe(18);
    expect(r.bytes.inputSchemas.bytes).toBe(62);
    expect(r.bytes.outputSchemas.bytes).toBe(32);
    expect(r.bytes.annotations.bytes).toBe(35);
    expect(r.bytes.other.bytes).toBe(total - 18 - 62 - 32 - 35);
    expect(r.bytes.descriptions.share).toBe(18 / total);
  });

  it('handles an empty list and odd entries without throwing', () => {
    const r = analyzeSurface([]);
    expect(r.collisions).toEqual({ threshold: 0.3, partners: 3, tools: [], pairs: [], compared: 0, searched: 0, complete: true });
    expect(r.bytes.total).toBe(2);
    const odd = analyzeSurface([null, 'x', { name: 'ok', description: 'fine', inputSchema: true }] as never);
    expect(odd.tools).toBe(3);
    expect(odd.bytes.total).toBe(Buffer.byteLength(JSON.stringify([null, 'x', { name: 'ok', description: 'fine', inputSchema: true }])));
  });

  it('rejects unusable options', () => {
    expect(() => analyzeSurface(tools, { collisionThreshold: 2 })).toThrow(ToolslimError);
    expect(() => analyzeSurface(tools, { collisionThreshold: Number.NaN })).toThrow(/collisionThreshold/);
    expect(() => analyzeSurface(tools, { collisionPartners: 0 })).toThrow(/collisionPartners/);
    expect(() => analyzeSurface(tools, { collisionPartners: 1.5 })).toThrow(/collisionPartners/);
    expect(() => analyzeSurface(tools, { maxArguments: -1 })).toThrow(/maxArguments/);
  });

  it('property: each tool\'s partners equal a brute-force oracle over every pair (random lists, fixed seed)', () => {
    // Dense: long texts over a small alphabet (most pairs alike, deep rounds). Copies: a few base texts,
    // each repeated with a small edit (near-duplicates, the early-stopping path). Wide: short names over a
    // wide alphabet with astral characters (few shared bigrams).
    const dense = fc.array(fc.record({ name: fc.stringMatching(/^[a-c_]{0,6}$/), description: fc.stringMatching(/^[a-eA-E _.]{0,80}$/) }), { minLength: 0, maxLength: 40 });
    const copies = fc
      .tuple(fc.array(fc.stringMatching(/^[a-h ]{5,60}$/), { minLength: 1, maxLength: 6 }), fc.array(fc.tuple(fc.nat(), fc.stringMatching(/^[a-z0-9]{0,3}$/)), { minLength: 2, maxLength: 60 }))
      .map(([bases, picks]) => picks.map(([b, suffix], i) => ({ name: `t_${suffix}${i}`, description: bases[b % bases.length]! })));
    const wide = fc.array(fc.record({ name: fc.stringMatching(/^[\u4e00-\u4e0f𝑎𝑏A-C]{1,4}$/), description: fc.constant('') }), { minLength: 2, maxLength: 80 });
    fc.assert(
      fc.property(fc.oneof(dense, copies, wide), fc.constantFrom(0, 0.1, 0.3, 0.45, 0.7, 0.95), fc.integer({ min: 1, max: 4 }), (list, threshold, partners) => {
        const tools = deepFreeze(list.map((t) => ({ ...t, inputSchema: obj })));
        const r = analyzeSurface(tools, { collisionThreshold: threshold, collisionPartners: partners });
        const expected = oracleCollisions(tools, threshold, partners);
        expect(r.collisions.tools.map((t) => [t.toolIndex, t.partners.map((p) => [p.toolIndex, p.score])])).toEqual(expected);
        for (const t of r.collisions.tools) for (const p of t.partners) expect(p.tool).toBe(tools[p.toolIndex]!.name);
        const pairs = new Set(expected.flatMap(([x, ps]) => ps.map(([y]) => `${Math.min(x, y)},${Math.max(x, y)}`)));
        expect(new Set(r.collisions.pairs.map((p) => `${p.aIndex},${p.bIndex}`))).toEqual(pairs);
      }),
      { seed: 1515, numRuns: 300 },
    );
  });

  it('agrees with the oracle on every corpus server, and on a list of renamed copies of corpus tools', () => {
    const all: Record<string, unknown>[] = [];
    for (const { file, data } of loadCorpus()) {
      const list = data.toolsList.tools;
      all.push(...list);
      const r = analyzeSurface(list);
      expect(r.collisions.tools.map((t) => [t.toolIndex, t.partners.map((p) => [p.toolIndex, p.score])]), file).toEqual(oracleCollisions(list, 0.3, 3));
      expect(r.bytes.total, file).toBe(Buffer.byteLength(JSON.stringify(list)));
    }
    // 450 tools: every 7th corpus tool (150 of them), each three times under new names (the shape of large lists).
    const picked = all.filter((_, i) => i % 7 === 0).slice(0, 150);
    const mixed = [0, 1, 2].flatMap((copy) => picked.map((t) => ({ ...t, name: `${String(t.name)}_${copy}` })));
    const r = analyzeSurface(mixed);
    expect(r.collisions.tools.map((t) => [t.toolIndex, t.partners.map((p) => [p.toolIndex, p.score])])).toEqual(oracleCollisions(mixed, 0.3, 3));
    expect(r.collisions.compared).toBeLessThan((mixed.length * (mixed.length - 1)) / 2);
    // Well within the search's bound of work: every tool searched.
    expect(r.collisions.complete).toBe(true);
    expect(r.collisions.searched).toBe(mixed.length);
  });
});

/**
 * The oracle: for every tool, every other tool's Jaccard over plain Sets of two-character strings, built
 * from the normalized text independently of the code under test; partners strictly above `threshold`,
 * most similar first, ties by position, the first `partners`.
 */
function oracleCollisions(tools: readonly Record<string, unknown>[], threshold: number, partners: number): [number, [number, number][]][] {
  const sets = tools.map((t) => {
    const text = `${typeof t.name === 'string' ? t.name : ''}${typeof t.description === 'string' ? t.description : ''}`.toLowerCase();
    const chars = Array.from(text).filter((c) => c !== '_' && !/\s/u.test(c));
    const set = new Set<string>();
    for (let i = 0; i + 1 < chars.length; i++) set.add(chars[i]! + '\u0000' + chars[i + 1]!);
    return set;
  });
  const out: [number, [number, number][]][] = [];
  for (let x = 0; x < tools.length; x++) {
    const found: [number, number][] = [];
    for (let y = 0; y < tools.length; y++) {
      if (y === x) continue;
      const a = sets[x]!;
      const b = sets[y]!;
      let inter = 0;
      for (const g of a) if (b.has(g)) inter++;
      const score = a.size + b.size === 0 ? 0 : inter / (a.size + b.size - inter);
      if (score >= threshold && score > 0) found.push([y, score]);
    }
    found.sort((p, q) => q[1] - p[1] || p[0] - q[0]);
    if (found.length > 0) out.push([x, found.slice(0, partners)]);
  }
  return out;
}
