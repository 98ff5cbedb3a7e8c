/**
 * analyzeSurface. Similarities are worked out by hand in the comments (bigram sets listed), byte parts
 * are counted by hand or by Node's encoder over hand-built member text.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyzeSurface, ToolslimError } from '../../src/index.js';
import { bigramSet, jaccard, splitWords } from '../../src/lint/surface.js';
import { loadCorpus } from '../helpers/corpus.js';
import { deepFreeze } from '../helpers/freeze.js';

const obj = { type: 'object' };

describe('word splitting and bigrams', () => {
  it('splits snake_case, kebab, dots, camelCase, acronyms and whitespace', () => {
    expect(splitWords('get_user-byID.now  listIssues HTTPServer')).toEqual(['get', 'user', 'by', 'id', 'now', 'list', 'issues', 'http', 'server']);
    expect(splitWords('Read a file, (quickly)!')).toEqual(['read', 'a', 'file', 'quickly']);
    expect(splitWords('überPrüfen')).toEqual(['über', 'prüfen']);
  });

  it('takes bigrams inside words only, each once', () => {
    const decode = (codes: number[]) => codes.map((c) => String.fromCodePoint(Math.floor(c / 0x110000)) + String.fromCodePoint(c % 0x110000)).sort();
    // "get_user get" → get, user, get → ge et us se er
    expect(decode(bigramSet('get_user get'))).toEqual(['er', 'et', 'ge', 'se', 'us']);
    expect(bigramSet('a b c')).toEqual([]);
    // astral letters count as one character; an emoji is not a letter, so it splits words
    expect(decode(bigramSet('𝑎x'))).toEqual(['𝑎x']);
    expect(bigramSet('😀x')).toEqual([]);
  });
});

describe('jaccard (hand-computed)', () => {
  const j = (a: string, b: string) => jaccard(bigramSet(a), bigramSet(b));
  it('get_user vs get_users: {ge,et,us,se,er} vs the same + rs = 5/6', () => {
    expect(j('get_user ', 'get_users ')).toBe(5 / 6);
  });
  it('"readFile Read a file." vs "write_file Write a file.": {fi,il,le} of 10 = 0.3', () => {
    // read,file → re ea ad fi il le (6); write,file → wr ri it te fi il le (7); ∩ = 3, ∪ = 10
    expect(j('readFile Read a file.', 'write_file Write a file.')).toBe(0.3);
  });
  it('HTTPServer vs http-server: identical words = 1', () => {
    expect(j('HTTPServer', 'http-server')).toBe(1);
  });
  it('disjoint texts = 0; two empty texts = 0 (nothing to confuse)', () => {
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

  it('reports pairs at or above the threshold, the worst pairs and the mean', () => {
    const r = analyzeSurface(tools);
    expect(r.tools).toBe(3);
    expect(r.collisions.compared).toBe(3);
    expect(r.collisions.threshold).toBe(0.3);
    expect(r.collisions.pairs).toEqual([{ a: 'get_user', aIndex: 0, b: 'get_users', bIndex: 1, score: 5 / 6 }]);
    expect(r.collisions.worst.map((p) => [p.aIndex, p.bIndex, p.score])).toEqual([
      [0, 1, 5 / 6],
      [0, 2, 1 / 9],
      [1, 2, 1 / 10],
    ]);
    expect(r.collisions.mean).toBeCloseTo((5 / 6 + 1 / 9 + 1 / 10) / 3, 12);
  });

  it('honours the threshold and the number of worst pairs', () => {
    const r = analyzeSurface(tools, { collisionThreshold: 0.1, worst: 1 });
    expect(r.collisions.pairs.map((p) => p.score)).toEqual([5 / 6, 1 / 9, 1 / 10]);
    expect(r.collisions.worst.map((p) => p.score)).toEqual([5 / 6]);
    expect(analyzeSurface(tools, { collisionThreshold: 0.9 }).collisions.pairs).toEqual([]);
    expect(analyzeSurface(tools, { worst: 0 }).collisions.worst).toEqual([]);
  });

  it('counts a pair exactly at the threshold (0.3 = 3/10)', () => {
    const r = analyzeSurface([
      { name: 'readFile', description: 'Read a file.', inputSchema: obj },
      { name: 'write_file', description: 'Write a file.', inputSchema: obj },
    ]);
    expect(r.collisions.pairs.map((p) => p.score)).toEqual([0.3]);
    // Below the warning threshold (0.60) a reported pair is `info`.
    expect(r.findings.map((f) => [f.severity, f.code])).toEqual([['info', 'description-collision']]);
    const strict = analyzeSurface([{ name: 'readFile', description: 'Read a file.', inputSchema: obj }, { name: 'write_file', description: 'Write a file.', inputSchema: obj }], { collisionWarningThreshold: 0.3 });
    expect(strict.findings.map((f) => f.severity)).toEqual(['warning']);
  });

  it('breaks score ties by position', () => {
    const r = analyzeSurface([
      { name: 'ab', inputSchema: obj },
      { name: 'cd', inputSchema: obj },
      { name: 'ab', inputSchema: obj },
      { name: 'cd', inputSchema: obj },
    ]);
    expect(r.collisions.pairs.map((p) => [p.aIndex, p.bIndex])).toEqual([
      [0, 2],
      [1, 3],
    ]);
    expect(r.collisions.worst.map((p) => [p.aIndex, p.bIndex])).toEqual([
      [0, 2],
      [1, 3],
      [0, 1],
      [0, 3],
      [1, 2],
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
      ['warning', 'description-collision', 'get_user', 0, '/0'],
      ['warning', 'missing-description', 'get_users', 1, '/1/description'],
      ['info', 'too-many-arguments', 'get_users', 1, '/1/inputSchema/properties'],
      ['warning', 'missing-description', 'delete', 2, '/2/description'],
    ]);
    const collision = r.findings.find((f) => f.code === 'description-collision')!;
    expect(collision.message).toContain('`get_user` and `get_users`');
    expect(collision.message).toContain('0.83');
    expect(r.findings.find((f) => f.code === 'too-many-arguments')!.message).toBe('`get_users` takes 5 arguments, expected at most 4');
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
    expect(r.collisions).toEqual({ threshold: 0.3, pairs: [], worst: [], mean: 0, compared: 0 });
    expect(r.bytes.total).toBe(2);
    const odd = analyzeSurface([null, 'x', { name: 'ok', description: 'fine', inputSchema: true }] as never);
    expect(odd.tools).toBe(3);
    expect(odd.bytes.total).toBe(Buffer.byteLength(JSON.stringify([null, 'x', { name: 'ok', description: 'fine', inputSchema: true }])));
  });

  it('rejects unusable options', () => {
    expect(() => analyzeSurface(tools, { collisionThreshold: 2 })).toThrow(ToolslimError);
    expect(() => analyzeSurface(tools, { maxArguments: -1 })).toThrow(/maxArguments/);
  });

  it('property: every pair score equals a naive Set-based Jaccard, on dense (bitset) and sparse (merge) lists', () => {
    // Dense: long texts over a small alphabet share bigrams (bitset path). Sparse: many short names over a
    // wide alphabet barely share any (the sorted-merge path).
    const dense = fc.array(fc.record({ name: fc.stringMatching(/^[a-c_]{0,6}$/), description: fc.stringMatching(/^[a-eA-E .]{0,80}$/) }), { minLength: 2, maxLength: 12 });
    // (70+ tools of one CJK bigram each: ⌈distinct/32⌉ words exceed twice the mean set size.)
    const sparse = fc.array(fc.record({ name: fc.stringMatching(/^[\u4e00-\u4e3f]{2}$/), description: fc.constant('') }), { minLength: 70, maxLength: 90 });
    fc.assert(
      fc.property(fc.oneof(dense, sparse), (list) => {
        const tools = list.map((t) => ({ ...t, inputSchema: obj }));
        const n = tools.length;
        const r = analyzeSurface(tools, { worst: (n * (n - 1)) / 2, collisionThreshold: 0 });
        const sets = tools.map((t) => oracle(`${t.name} ${t.description}`));
        expect(r.collisions.pairs.length).toBe((n * (n - 1)) / 2);
        const wrong = r.collisions.pairs.filter((p) => Math.abs(p.score - oracleJaccard(sets[p.aIndex]!, sets[p.bIndex]!)) > 1e-12);
        expect(wrong).toEqual([]);
        expect(r.collisions.worst).toEqual(r.collisions.pairs);
      }),
      { seed: 99, numRuns: 150 },
    );
  });

  it('agrees with a naive Set-based oracle on every corpus server and stays cheap', () => {
    for (const { file, data } of loadCorpus()) {
      const list = data.toolsList.tools;
      const t0 = performance.now();
      const r = analyzeSurface(list);
      const ms = performance.now() - t0;
      expect(ms, file).toBeLessThan(2_000);
      const sets = list.map((t) => oracle(`${typeof t.name === 'string' ? t.name : ''} ${typeof t.description === 'string' ? t.description : ''}`));
      let sum = 0;
      let above = 0;
      for (let i = 0; i < list.length; i++) for (let k = i + 1; k < list.length; k++) {
        const s = oracleJaccard(sets[i]!, sets[k]!);
        sum += s;
        if (s >= 0.3) above++;
      }
      expect(r.collisions.pairs.length, file).toBe(above);
      if (list.length > 1) expect(r.collisions.mean, file).toBeCloseTo(sum / ((list.length * (list.length - 1)) / 2), 9);
      expect(r.bytes.total, file).toBe(Buffer.byteLength(JSON.stringify(list)));
    }
  });
});

/** The oracle: a plain Set of character bigrams per word, and their Jaccard index (naive, no bitsets). */
function oracle(text: string): Set<string> {
  const set = new Set<string>();
  for (const w of splitWords(text)) {
    const cps = [...w];
    for (let k = 0; k + 1 < cps.length; k++) set.add(cps[k]! + '\u0000' + cps[k + 1]!);
  }
  return set;
}

function oracleJaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 && b.size === 0) return 0;
  let inter = 0;
  for (const x of a) if (b.has(x)) inter++;
  return inter / (a.size + b.size - inter);
}
