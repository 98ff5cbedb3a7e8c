import fc from 'fast-check';
import jsonPatch from 'fast-json-patch';
import { describe, expect, it } from 'vitest';
import { applyPatch, invertPatch, ToolslimError, type PatchOperation } from '../../src/index.js';
import { deepFreeze, jsonClone } from '../helpers/freeze.js';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const esc = (t: string) => t.replace(/~/g, '~0').replace(/\//g, '~1');

/** Every location below the root: [pointer, value]. */
function locations(doc: Json, base = ''): [string, Json][] {
  const out: [string, Json][] = [];
  const stack: [Json, string][] = [[doc, base]];
  while (stack.length > 0) {
    const [v, p] = stack.pop()!;
    if (Array.isArray(v)) v.forEach((x, i) => (out.push([`${p}/${i}`, x]), stack.push([x, `${p}/${i}`])));
    else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) out.push([`${p}/${esc(k)}`, x]), stack.push([x, `${p}/${esc(k)}`]);
  }
  return out;
}

const jsonArb: fc.Arbitrary<Json> = fc.letrec<{ json: Json }>((tie) => ({
  json: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.oneof(fc.constant(null), fc.boolean(), fc.integer(), fc.string({ maxLength: 3 })),
    fc.array(tie('json'), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 3 }).filter((k) => k !== '__proto__'), tie('json'), { maxKeys: 3 }),
  ),
})).json;

/** Turns random numbers into a valid operation on `doc` (with `oldValue`), or undefined. */
function makeOp(doc: Json, kind: number, pick: number, pick2: number, value: Json, key: string): PatchOperation | undefined {
  const locs = locations(doc);
  const containers: [string, Json][] = [['', doc], ...locs].filter(([, v]) => v !== null && typeof v === 'object') as [string, Json][];
  const at = <T>(xs: T[], i: number) => (xs.length === 0 ? undefined : xs[i % xs.length]);
  const addTarget = (pool: [string, Json][]): string | undefined => {
    const c = at(pool, pick2);
    if (!c) return undefined;
    const [p, v] = c;
    if (Array.isArray(v)) return `${p}/${pick % (v.length + 2) === v.length + 1 ? '-' : pick % (v.length + 1)}`;
    if (Object.prototype.hasOwnProperty.call(v, key) || key === '__proto__') return undefined;
    return `${p}/${esc(key)}`;
  };
  switch (kind % 4) {
    case 0: {
      const l = at(locs, pick);
      return l && { op: 'remove', path: l[0], oldValue: l[1] };
    }
    case 1: {
      const l = at(locs, pick);
      return l && { op: 'replace', path: l[0], value, oldValue: l[1] };
    }
    case 2: {
      const path = addTarget(containers);
      return path === undefined ? undefined : { op: 'add', path, value };
    }
    default: {
      const from = at(locs, pick);
      if (!from) return undefined;
      // a destination outside the moved value
      const path = addTarget(containers.filter(([p]) => p !== from[0] && !p.startsWith(from[0] + '/')));
      if (!path || path === from[0]) return undefined;
      // Within one array, `path` is read after the removal: the old length is no longer a position.
      const parentOf = (x: string) => x.slice(0, x.lastIndexOf('/'));
      // and indices after `from` shift down, so a path through a later sibling of `from` moves too.
      if (Array.isArray(jsonPatch.getValueByPointer(doc, parentOf(from[0]))) && parentOf(path).startsWith(parentOf(from[0]) + '/')) return undefined;
      if (parentOf(path) === parentOf(from[0])) {
        const arr = jsonPatch.getValueByPointer(doc, parentOf(path)) as Json;
        if (Array.isArray(arr) && path.endsWith(`/${arr.length}`)) return undefined;
      }
      return { op: 'move', from: from[0], path };
    }
  }
}

describe('applyPatch', () => {
  it('agrees with fast-json-patch on random operation sequences, never mutating the input', () => {
    fc.assert(
      fc.property(jsonArb, fc.array(fc.tuple(fc.nat(), fc.nat(), fc.nat(), jsonArb, fc.string({ maxLength: 2 })), { maxLength: 8 }), (doc, cmds) => {
        let state = jsonClone(doc);
        const ops: PatchOperation[] = [];
        const concrete: PatchOperation[] = [];
        for (const [kind, a, b, value, key] of cmds) {
          const op = makeOp(state, kind, a, b, value, key);
          if (!op) continue;
          const { oldValue: _ignored, ...plain } = op;
          const next = jsonPatch.applyPatch(jsonClone(state), [jsonClone(plain) as jsonPatch.Operation], true, false).newDocument as Json;
          ops.push(op);
          // What a report records: the index `-` stood for (found in the new state, where the value landed).
          const parent = op.path.slice(0, op.path.lastIndexOf('/'));
          const arr = jsonPatch.getValueByPointer(next, parent) as Json;
          if (op.path.endsWith('/-') && Array.isArray(arr)) concrete.push({ ...op, path: `${parent}/${arr.length - 1}` });
          else concrete.push(op);
          state = next;
        }
        const input = deepFreeze(jsonClone(doc));
        const out = applyPatch(input, ops);
        expect(out).toEqual(state);
        expect(applyPatch(input, concrete)).toEqual(state);
        expect(input).toEqual(doc);
        // Inverting restores the original.
        expect(applyPatch(deepFreeze(jsonClone(out)), invertPatch(concrete))).toEqual(doc);
        // With `-` left in, the inverse fails loudly instead of removing the wrong element.
        if (ops.some((o, i) => o.path !== concrete[i]!.path)) expect(() => applyPatch(deepFreeze(jsonClone(out)), invertPatch(ops))).toThrow(/`-`|no array/);
      }),
      { numRuns: 500, seed: 79 },
    );
  });

  it('treats `__proto__` as a member name and leaves Object.prototype alone', () => {
    const doc = deepFreeze(JSON.parse('{"a":{"__proto__":{"x":1}}}'));
    const out = applyPatch(doc, [
      { op: 'add', path: '/a/__proto__/polluted', value: true },
      { op: 'add', path: '/b', value: 1 },
      { op: 'add', path: '/__proto__', value: { polluted: true } },
    ]) as Record<string, unknown>;
    expect(JSON.stringify(out)).toBe('{"a":{"__proto__":{"x":1,"polluted":true}},"b":1,"__proto__":{"polluted":true}}');
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('shares what the patch does not touch', () => {
    const doc = deepFreeze({ a: { deep: [1] }, b: { c: 1 } });
    const out = applyPatch(doc, [{ op: 'replace', path: '/b/c', value: 2 }]);
    expect(out.a).toBe(doc.a);
    expect(out.b).not.toBe(doc.b);
  });

  it('rejects array positions that do not exist instead of guessing', () => {
    expect(() => applyPatch([1, 2], [{ op: 'remove', path: '/-' }])).toThrow(/no array element at `\/-`/);
    expect(() => applyPatch([1, 2], [{ op: 'remove', path: '/2' }])).toThrow(ToolslimError);
    expect(() => applyPatch([1, 2], [{ op: 'remove', path: '/01' }])).toThrow(ToolslimError);
    expect(() => applyPatch([1, 2], [{ op: 'add', path: '/3', value: 0 }])).toThrow(/no array position/);
    expect(() => applyPatch([1, 2], [{ op: 'replace', path: '/2', value: 0 }])).toThrow(/no array position/);
    expect(() => applyPatch([1, 2], [{ op: 'replace', path: '/-', value: 0 }])).toThrow(/no array position/);
    expect(applyPatch([1, 2], [{ op: 'add', path: '/2', value: 3 }])).toEqual([1, 2, 3]);
  });

  it('errors name the problem', () => {
    expect(() => applyPatch({ a: 1 }, [{ op: 'remove', path: '/b' }])).toThrow(ToolslimError);
    expect(() => applyPatch({ a: 1 }, [{ op: 'add', path: '/x/y', value: 1 }])).toThrow(/no container/);
    expect(() => applyPatch({ a: 1 }, [{ op: 'copy', path: '/b', from: '/a' } as unknown as PatchOperation])).toThrow(/unsupported op `copy`/);
  });

  it('a malformed operation (no object, no string `path`, a `move` without `from`, a pointer without `/`) is an invalid-input error naming it, not a TypeError', () => {
    // Found as a user: `applyPatch(tools, invertPatch(input, changes))` (a wrong call) threw
    // "Cannot read properties of undefined (reading 'charCodeAt')" from deep inside the applier.
    const bad: [unknown, RegExp][] = [
      [null, /operation 0 is not an object/],
      [{ op: 'remove' }, /operation 0 \(`remove`\) has no string `path`/],
      [{ op: 'add', path: 5, value: 1 }, /operation 0 \(`add`\) has no string `path`/],
      [{ op: 'move', path: '/b' }, /operation 0 \(`move`\) has no string `from`/],
      [{ op: 'remove', path: 'a' }, /operation 0 \(`remove`\): `a` is not a JSON Pointer/],
    ];
    for (const [op, message] of bad) {
      let thrown: unknown;
      try {
        applyPatch({ a: 1 }, [op as PatchOperation]);
      } catch (e) {
        thrown = e;
      }
      expect(thrown, JSON.stringify(op)).toBeInstanceOf(ToolslimError);
      expect((thrown as ToolslimError).code).toBe('invalid-input');
      expect((thrown as Error).message).toMatch(message);
    }
    // The document is untouched, as with every other refused patch.
    const doc = deepFreeze({ a: 1 });
    expect(() => applyPatch(doc, [{ op: 'add', path: '/b', value: 2 }, null as unknown as PatchOperation])).toThrow(ToolslimError);
    expect(doc).toEqual({ a: 1 });
  });
});

describe('invertPatch', () => {
  it('refuses what it cannot invert: removals without oldValue; an append to `-` fails when applied', () => {
    expect(() => invertPatch([{ op: 'remove', path: '/a' }])).toThrow(/oldValue/);
    expect(() => invertPatch([{ op: 'replace', path: '/a', value: 1 }])).toThrow(/oldValue/);
    const inverse = invertPatch([{ op: 'add', path: '/a/-', value: 1 }]);
    expect(() => applyPatch({ a: [0, 1] }, inverse)).toThrow(/no array element at `\/a\/-`/);
    // `-` as an object member is just a name
    expect(applyPatch({ o: { '-': 1 } }, invertPatch([{ op: 'add', path: '/o/-', value: 1 }]))).toEqual({ o: {} });
  });

  it('refuses what is no list of operations, and malformed operations, instead of inverting garbage', () => {
    // Found as a user: invertPatch('x') returned [{ op: 'move' }] (a string read as an array of one).
    for (const notOps of ['x', { op: 'add' }, null, 5]) expect(() => invertPatch(notOps as unknown as PatchOperation[])).toThrow(/operations must be an array/);
    expect(() => invertPatch([null as unknown as PatchOperation])).toThrow(/operation 0 is not an object/);
    expect(() => invertPatch([{ op: 'move', path: '/b' } as PatchOperation])).toThrow(/has no string `from`/);
    expect(() => invertPatch([{ op: 'copy', path: '/b', from: '/a' } as unknown as PatchOperation])).toThrow(/unsupported op `copy`/);
  });

  it('undoes a report’s changes (with oldValue) in reverse order', () => {
    const before = { name: 't', s: { $defs: { A: 1, B: [2] }, list: ['x', 'y'] } };
    const ops: PatchOperation[] = [
      { op: 'remove', path: '/s/$defs/B', oldValue: [2] },
      { op: 'replace', path: '/s/list/0', value: 'X', oldValue: 'x' },
      { op: 'add', path: '/s/list/1', value: 'ins' },
      { op: 'move', from: '/s/$defs/A', path: '/s/A' },
    ];
    const after = applyPatch(deepFreeze(jsonClone(before)), ops);
    expect(after).toEqual({ name: 't', s: { $defs: {}, list: ['X', 'ins', 'y'], A: 1 } });
    expect(invertPatch(ops)).toEqual([
      { op: 'move', from: '/s/A', path: '/s/$defs/A' },
      { op: 'remove', path: '/s/list/1', oldValue: 'ins' },
      { op: 'replace', path: '/s/list/0', value: 'x', oldValue: 'X' },
      { op: 'add', path: '/s/$defs/B', value: [2] },
    ]);
    expect(applyPatch(deepFreeze(after), invertPatch(ops))).toEqual(before);
  });
});
