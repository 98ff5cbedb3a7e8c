/**
 * inline-small-refs' two whole-schema questions, each once quadratic in references and now answered in about
 * linear time. Which definitions lie on a cycle of references (never inlined): one pass over strongly
 * connected components instead of a search from each definition (a chain of 8,000 definitions: 4 s; 50,000:
 * more than 120 s); the oracle, for each node, a breadth-first search written here for a way back to itself.
 * Whether a reference lies in, at or around a place another reference points to (such a place is not copied):
 * a set and a sorted list of the references' places instead of reading every reference per place (8,000
 * properties referencing a first one: 30 s); the oracle, the reading of every reference it replaced.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { onCycles, refNearness } from '../../src/schema/ref-graph.js';
import type { RefSite } from '../../src/schema/refs.js';
import { transformTools, builtinTransforms } from '../../src/index.js';

function oracle(edges: ReadonlyMap<string, readonly string[]>, nodes: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const start of nodes) {
    const seen = new Set<string>();
    const queue = [...(edges.get(start) ?? [])];
    for (let q = 0; q < queue.length; q++) {
      const n = queue[q]!;
      if (n === start) {
        out.add(start);
        break;
      }
      if (seen.has(n)) continue;
      seen.add(n);
      queue.push(...(edges.get(n) ?? []));
    }
  }
  return out;
}

describe('definitions on a cycle of references', () => {
  it('are the nodes a search from each finds its way back to (random graphs, fixed seed)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 30 }).chain((n) => fc.tuple(fc.constant(n), fc.array(fc.tuple(fc.nat(n - 1), fc.nat(n - 1)), { maxLength: 3 * n }), fc.subarray([...Array(n).keys()]))),
        ([n, pairs, roots]) => {
          const name = (i: number) => `/$defs/d${i}`;
          const edges = new Map<string, string[]>();
          for (const [a, b] of pairs) edges.set(name(a), [...(edges.get(name(a)) ?? []), name(b)]);
          // The nodes asked about: every target (as the transform asks), and sometimes only some of them.
          const nodes = roots.length > 0 ? roots.map(name) : [...Array(n).keys()].map(name);
          const got = onCycles(edges, nodes);
          const want = oracle(edges, [...Array(n).keys()].map(name));
          // Every node on a cycle reachable from those asked is found; none off a cycle.
          for (const x of got) expect(want.has(x), x).toBe(true);
          for (const x of nodes) expect(got.has(x), x).toBe(want.has(x));
        },
      ),
      { seed: 4242, numRuns: 500 },
    );
  });

  it('a chain of 50,000 definitions ending in a cycle of two: the two are found, the chain is not on a cycle', () => {
    const edges = new Map<string, string[]>();
    const N = 50_000;
    for (let i = 0; i < N; i++) edges.set(`d${i}`, [`d${i + 1}`]);
    edges.set(`d${N}`, [`d${N + 1}`]);
    edges.set(`d${N + 1}`, [`d${N}`]);
    const got = onCycles(edges, [...Array(N + 2).keys()].map((i) => `d${i}`));
    expect([...got].sort()).toEqual([`d${N}`, `d${N + 1}`]);
  });

  it('the transform still leaves recursive definitions and inlines the rest of a chain of references', () => {
    const step = builtinTransforms.find((t) => t.name === 'inline-small-refs')!;
    const defs: Record<string, unknown> = {
      a: { anyOf: [{ $ref: '#/$defs/b' }, { type: 'null' }] },
      b: { type: 'string' },
      self: { type: 'object', properties: { next: { $ref: '#/$defs/self' } } },
    };
    const tool = { name: 't', description: 'd', inputSchema: { type: 'object', properties: { x: { $ref: '#/$defs/a' }, y: { $ref: '#/$defs/self' } }, $defs: defs } };
    const r = transformTools([tool], { transforms: [step], verify: false });
    const out = JSON.stringify(r.tools[0]);
    expect(out).toContain('"$ref":"#/$defs/self"');
    expect(out).not.toContain('"$ref":"#/$defs/a"');
    expect(out).not.toContain('"$ref":"#/$defs/b"');
  });
});

describe('a reference near a place', () => {
  it('answers as reading every reference would (random pointers, fixed seed)', () => {
    const within = (path: string, ancestor: string) => ancestor === '' || path === ancestor || path.startsWith(ancestor + '/');
    const pointer = fc.array(fc.constantFrom('a', 'ab', 'b', 'a~1b', '0', '1', 'properties', 'p'), { maxLength: 4 }).map((ts) => ts.map((t) => '/' + t).join(''));
    fc.assert(
      fc.property(fc.array(fc.tuple(pointer, fc.boolean()), { maxLength: 12 }), fc.array(pointer.filter((p) => p !== ''), { minLength: 1, maxLength: 12 }), (sites, queries) => {
        const refs = sites.map(([schemaPath, inSchema]) => ({ schemaPath, inSchema }) as unknown as RefSite);
        const near = refNearness(refs);
        for (const q of [...queries, ...queries]) {
          const want = refs.some((s) => s.inSchema && (within(q, s.schemaPath) || within(s.schemaPath, q)));
          expect(near(q), q).toBe(want);
        }
      }),
      { seed: 5151, numRuns: 500 },
    );
  });
});
