/**
 * `EditContext` with `measure` counts the bytes its edits add or remove from the edited values alone; the
 * engine's per-step sizes rest on it. The oracle is `JSON.stringify` of the whole document before and
 * after, in UTF-8, over hand-picked edge cases and fast-check edit sequences (fixed seed).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EditContext } from '../../src/index.js';

const bytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v) ?? '', 'utf8');
const CODES = { e: 'edited' };

function delta(root: unknown, edit: (ctx: EditContext) => void): { counted: number; actual: number } {
  const ctx = new EditContext(root, CODES, { measure: true });
  edit(ctx);
  return { counted: ctx.bytesDelta, actual: bytes(ctx.root) - bytes(root) };
}

describe('byte counting', () => {
  const cases: [string, unknown, (ctx: EditContext) => void][] = [
    ['removing the only member (no comma)', { a: { b: 1 } }, (c) => c.remove('/a/b', 'e')],
    ['removing one of two members (its comma)', { a: { b: 1, c: 2 } }, (c) => c.remove('/a/b', 'e')],
    ['removing a member whose value is undefined (JSON omits it)', { a: { b: undefined, c: 2 } }, (c) => c.remove('/a/b', 'e')],
    ['removing the last present member beside an undefined one', { a: { b: undefined, c: 2 } }, (c) => c.remove('/a/c', 'e')],
    ['adding to an empty object', { a: {} }, (c) => c.add('/a/x', 'é', 'e')],
    ['adding beside an undefined member', { a: { u: undefined } }, (c) => c.add('/a/x', 1, 'e')],
    ['adding undefined', { a: { b: 1 } }, (c) => c.add('/a/x', undefined, 'e')],
    ['replacing with undefined', { a: { b: 1, c: 2 } }, (c) => c.replace('/a/b', undefined, 'e')],
    ['replacing undefined with a value', { a: { b: undefined, c: 2 } }, (c) => c.replace('/a/b', 'x', 'e')],
    ['replacing a string with a non-ASCII one', { d: 'abc' }, (c) => c.replace('/d', 'ü✓𝄞', 'e')],
    ['replacing the root', { a: 1 }, (c) => c.replace('', { bb: [1, 2] }, 'e')],
    ['array: removing the only element', { a: [1] }, (c) => c.remove('/a/0', 'e')],
    ['array: removing one of several', { a: [1, 22, 333] }, (c) => c.remove('/a/1', 'e')],
    ['array: appending to empty and to non-empty', { a: [], b: [1] }, (c) => (c.add('/a/-', 'x', 'e'), c.add('/b/-', { y: null }, 'e'))],
    ['array: replacing an element', { a: [1, 2] }, (c) => c.replace('/a/0', 'long text', 'e')],
    ['renaming to a longer, escaped key', { a: { b: 1 } }, (c) => c.rename('/a/b', 'quote"d/key', 'e')],
    ['renaming a member whose value is undefined', { a: { b: undefined, c: 1 } }, (c) => c.rename('/a/b', 'longer', 'e')],
    ['renaming __proto__', JSON.parse('{"a":{"__proto__":{"x":1}}}'), (c) => c.rename('/a/__proto__', 'p', 'e')],
    ['moving between objects', { a: { x: 1, y: 2 }, b: {} }, (c) => c.move('/a/x', '/b/x', 'e')],
    ['moving within one object', { a: { x: 1, y: 2 } }, (c) => c.move('/a/x', '/a/z', 'e')],
    ['moving out of an array into an object', { a: [1, { k: 'v' }], b: { c: 0 } }, (c) => c.move('/a/1', '/b/k', 'e')],
  ];
  it.each(cases)('%s', (_name, root, edit) => {
    const { counted, actual } = delta(root, edit);
    expect(counted).toBe(actual);
  });

  it('is 0 without `measure`', () => {
    const ctx = new EditContext({ a: 1 }, CODES);
    ctx.remove('/a', 'e');
    expect(ctx.bytesDelta).toBe(0);
  });

  it('rolls back with a transaction', () => {
    const root = { a: { b: 'text', c: [1, 2] } };
    const ctx = new EditContext(root, CODES, { measure: true });
    ctx.remove('/a/c/0', 'e');
    const kept = ctx.bytesDelta;
    ctx.transaction(() => {
      ctx.remove('/a/b', 'e');
      return false;
    });
    expect(ctx.bytesDelta).toBe(kept);
    expect(ctx.bytesDelta).toBe(bytes(ctx.root) - bytes(root));
  });

  it('matches JSON.stringify over random documents and edit sequences', () => {
    const key = fc.constantFrom('a', 'b', 'é', '__proto__', 'x/y', 'q"');
    const leaf = fc.oneof(fc.integer(), fc.string({ maxLength: 4 }), fc.constant(null), fc.boolean(), fc.constant(undefined));
    const doc = fc.letrec<{ node: unknown }>((tie) => ({
      node: fc.oneof({ maxDepth: 3 }, leaf, fc.array(tie('node'), { maxLength: 3 }), fc.dictionary(key, tie('node'), { maxKeys: 3 })),
    })).node;
    let applied = 0;
    const op = fc.record({ kind: fc.constantFrom('remove', 'replace', 'add', 'rename', 'move'), a: fc.nat(), b: fc.nat(), k: key, v: leaf });
    fc.assert(
      fc.property(fc.dictionary(key, doc, { minKeys: 1, maxKeys: 4 }), fc.array(op, { maxLength: 8 }), (root, ops) => {
        // `undefined` only where the engine allows it: as an object member (arrays of the generator hold none).
        const clean = JSON.parse(JSON.stringify(root, (_k, v) => (Array.isArray(v) ? v.map((x) => (x === undefined ? null : x)) : v)));
        const ctx = new EditContext(clean, CODES, { measure: true });
        for (const o of ops) {
          const containers = collect(ctx.root);
          const paths = collectPaths(ctx.root);
          try {
            const at = paths[o.a % paths.length]!;
            const into = containers[o.b % containers.length]!;
            if (o.kind === 'remove' && at !== '') ctx.remove(at, 'e');
            else if (o.kind === 'replace') ctx.replace(at, o.v === undefined ? 'u' : o.v, 'e');
            else if (o.kind === 'add') ctx.add(into.path + '/' + (into.array ? '-' : o.k.replace(/~/g, '~0').replace(/\//g, '~1')), o.v === undefined ? 7 : o.v, 'e');
            else if (o.kind === 'rename' && at !== '' && !isArrayPath(ctx.root, at)) ctx.rename(at, o.k, 'e');
            else if (o.kind === 'move' && at !== '') ctx.move(at, into.path + '/' + (into.array ? '0' : 'm'), 'e');
            applied = ctx.changes.length > 0 ? applied + 1 : applied;
          } catch {
            // An impossible edit (existing key, moving into itself) changes nothing; the count must agree.
          }
          expect(ctx.bytesDelta).toBe(bytes(ctx.root) - bytes(clean));
        }
      }),
      { seed: 20261201, numRuns: 400 },
    );
    // The sequences are not vacuous: most edits apply.
    expect(applied).toBeGreaterThan(800);
  });
});

function collect(root: unknown, path = '', out: { path: string; array: boolean }[] = []): { path: string; array: boolean }[] {
  if (typeof root === 'object' && root !== null) {
    out.push({ path, array: Array.isArray(root) });
    for (const k of Object.keys(root)) collect((root as Record<string, unknown>)[k], path + '/' + k.replace(/~/g, '~0').replace(/\//g, '~1'), out);
  }
  return out;
}

function collectPaths(root: unknown, path = '', out: string[] = []): string[] {
  out.push(path);
  if (typeof root === 'object' && root !== null) for (const k of Object.keys(root)) collectPaths((root as Record<string, unknown>)[k], path + '/' + k.replace(/~/g, '~0').replace(/\//g, '~1'), out);
  return out;
}

function isArrayPath(root: unknown, path: string): boolean {
  const parent = path.slice(0, path.lastIndexOf('/'));
  let cur: unknown = root;
  for (const t of parent === '' ? [] : parent.slice(1).split('/')) cur = (cur as Record<string, unknown>)[t.replace(/~1/g, '/').replace(/~0/g, '~')];
  return Array.isArray(cur);
}

// Objects past REBUILD_MAX_KEYS (64) lose members by `delete` and are dictionaries to V8, as are objects
// thousands of members are added to: whether a member has a comma is read from a count the context keeps
// for them (listing a dictionary's keys reads them all: moving 4,000 definitions into `$defs` took 2.7 s).
describe('byte counting in large objects', () => {
  it('seeded edits of two objects of 65-80 members (some undefined), drained to none, in groups kept or rolled back: counted = stringify', async () => {
    const { rng } = await import('../helpers/rng.js');
    const next = rng(20261207);
    const int = (n: number) => Math.floor(next() * n);
    const value = () => [1, 'é', null, { x: [1] }, undefined, true][int(6)];
    let drained = 0;
    for (let run = 0; run < 40; run++) {
      const big = () => Object.fromEntries(Array.from({ length: 65 + int(16) }, (_, i) => [`k${i}`, value()]));
      const root = { a: big(), b: big() };
      const ctx = new EditContext(root, CODES, { measure: true });
      for (let step = 0; step < 300; step++) {
        const edit = () => {
          const side = next() < 0.5 ? 'a' : 'b';
          const other = side === 'a' ? 'b' : 'a';
          const obj = (ctx.root as Record<string, Record<string, unknown>>)[side]!;
          const keys = Object.keys(obj);
          const k = keys.length > 0 ? keys[int(keys.length)]! : 'none';
          const r = next();
          try {
            if (r < 0.6 && keys.length > 0) ctx.remove(`/${side}/${k}`, 'e');
            else if (r < 0.7) ctx.add(`/${side}/n${step}`, value(), 'e');
            else if (r < 0.85 && keys.length > 0) ctx.replace(`/${side}/${k}`, value(), 'e');
            else if (keys.length > 0) ctx.move(`/${side}/${k}`, `/${other}/m${step}`, 'e');
          } catch {
            // An impossible edit (the key taken) changes nothing.
          }
        };
        // Groups in every other run only: a group copies the objects anew (then small ones are rebuilt, not counted).
        if (run % 2 === 0 && next() < 0.2) ctx.transaction(() => (edit(), edit(), next() < 0.5));
        else edit();
        expect(ctx.bytesDelta).toBe(bytes(ctx.root) - bytes(root));
      }
      const left = ctx.root as Record<string, object>;
      drained += Object.keys(left.a!).length <= 1 || Object.keys(left.b!).length <= 1 ? 1 : 0;
    }
    // Not vacuous: most runs took an object down to one member or none, where the comma depends on the count.
    expect(drained).toBeGreaterThan(20);
  });

  it('8,000 definitions moved from `definitions` into `$defs` of 8,000: counted = stringify, in linear time', { timeout: 30_000 }, async () => {
    const { runBounded } = await import('../helpers/bounded.js');
    const n = 8000;
    const root = { definitions: Object.fromEntries(Array.from({ length: n }, (_, i) => [`a${i}`, { type: 'string' }])), $defs: Object.fromEntries(Array.from({ length: n }, (_, i) => [`b${i}`, { type: 'integer' }])) };
    const ctx = new EditContext(root, CODES, { measure: true });
    // Bounded (test/helpers/bounded.ts): each move copied `definitions` and listed both objects' keys (some 10 s).
    runBounded(() => {
      for (let i = 0; i < n; i++) ctx.move(`/definitions/a${i}`, `/$defs/a${i}`, 'e');
    }, 120_000);
    expect(Object.keys((ctx.root as { definitions: object }).definitions)).toEqual([]);
    expect(Object.keys((ctx.root as { $defs: object }).$defs).length).toBe(2 * n);
    expect(ctx.bytesDelta).toBe(bytes(ctx.root) - bytes(root));
  });
});
