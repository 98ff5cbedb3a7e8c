/**
 * openai-strict's nesting limit (object schemas at most 10 deep): the depth is now carried from each schema's
 * parent, not found by testing a stack of enclosing paths with `startsWith` (quadratic in depth: an array
 * nested 40,000 deep took 36 s). The oracle is a recursive walk written here over the same subschema places
 * (properties, items, anyOf), counting object schemas on the way; the first place past 10 in document order
 * is the one reported. Subschemas shared between places (the same object at two depths) included.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkToolsForProfile } from '../../src/index.js';

type Node = Record<string, unknown>;

/** The first place (pointer) whose object-nesting depth passes `max`, in document order, and that depth. */
function firstTooDeep(root: Node, max: number): [string, number] | undefined {
  const visit = (node: unknown, path: string, above: number): [string, number] | undefined => {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return undefined;
    const n = node as Node;
    const depth = above + (n.type === 'object' ? 1 : 0);
    if (depth > max) return [path, depth];
    for (const key of Object.keys(n)) {
      const v = n[key];
      if (key === 'properties' && typeof v === 'object' && v !== null) {
        for (const [name, child] of Object.entries(v as Node)) {
          const hit = visit(child, `${path}/properties/${name}`, depth);
          if (hit) return hit;
        }
      } else if (key === 'items') {
        const hit = visit(v, `${path}/items`, depth);
        if (hit) return hit;
      } else if (key === 'anyOf' && Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) {
          const hit = visit(v[i], `${path}/anyOf/${i}`, depth);
          if (hit) return hit;
        }
      }
    }
    return undefined;
  };
  return visit(root, '', 0);
}

describe('openai-strict: object schemas nested past 10', () => {
  it('reports the first place past the limit, with its depth, as a recursive walk finds it (fixed seed)', () => {
    // Trees of objects, arrays and unions, some subschemas shared between places.
    const tree = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.constant({ type: 'string' }),
        fc.dictionary(fc.constantFrom('a', 'b', 'c'), tie('node'), { minKeys: 1, maxKeys: 2 }).map((properties) => ({ type: 'object', properties })),
        tie('node').map((items) => ({ type: 'array', items })),
        fc.array(tie('node'), { minLength: 1, maxLength: 2 }).map((anyOf) => ({ anyOf })),
      ),
    })).node;
    const deepen = (leaf: Node, levels: number): Node => {
      let n = leaf;
      for (let i = 0; i < levels; i++) n = i % 3 === 2 ? { type: 'array', items: n } : { type: 'object', properties: { n } };
      return n;
    };
    fc.assert(
      fc.property(tree, fc.integer({ min: 0, max: 16 }), fc.boolean(), (t, levels, share) => {
        const inner = deepen(t as Node, levels);
        // The same subschema object at two places of different depths.
        const root: Node = share ? { type: 'object', properties: { shallow: inner, deep: { type: 'object', properties: { x: inner } } } } : { type: 'object', properties: { only: inner } };
        const findings = checkToolsForProfile([{ name: 't', description: 'd', inputSchema: root }], 'openai-strict').filter((f) => f.code === 'depth-exceeded');
        const want = firstTooDeep(root, 10);
        expect(findings.map((f) => f.path)).toEqual(want ? [`/0/inputSchema${want[0]}`] : []);
        if (want) expect(findings[0]!.message).toContain(`nested ${want[1]} levels deep`);
      }),
      { seed: 6161, numRuns: 300 },
    );
  });

  it('an array nested 100,000 deep inside objects 12 deep: reported once, at the twelfth object', () => {
    let n: Node = { type: 'string' };
    for (let i = 0; i < 100_000; i++) n = { type: 'array', items: n };
    for (let i = 0; i < 12; i++) n = { type: 'object', properties: { o: n } };
    const findings = checkToolsForProfile([{ name: 't', description: 'd', inputSchema: n }], 'openai-strict').filter((f) => f.code === 'depth-exceeded');
    expect(findings.map((f) => f.path)).toEqual(['/0/inputSchema' + '/properties/o'.repeat(10)]);
  });
});
