/**
 * Key order survives a replay and an inversion, byte for byte. Expected bytes and operations are written
 * by hand below; the operations are recorded by an `EditContext` (what every transform uses), then replayed
 * with `applyPatch` on the input and undone with `invertPatch` on the output.
 */
import { describe, expect, it } from 'vitest';
import { applyPatch, dedupeRepeatedSubtrees, EditContext, invertPatch, normalizeSchema, transformTools, type PatchOperation } from '../../src/index.js';
import { deepFreeze } from '../helpers/freeze.js';

const MESSAGES = { did: 'Did it' };
const INPUT = '{"a":1,"b":2,"c":3}';

/** Runs `edit` on a frozen copy of `input`; returns the output bytes and the recorded operations. */
function record(input: string, edit: (ctx: EditContext) => void): { output: string; ops: PatchOperation[] } {
  const ctx = new EditContext(deepFreeze(JSON.parse(input)), MESSAGES);
  edit(ctx);
  const ops = ctx.changes.map(({ code: _c, message: _m, ...op }) => op as PatchOperation);
  return { output: JSON.stringify(ctx.root), ops };
}

function roundTrip(input: string, output: string, ops: readonly PatchOperation[]): void {
  expect(JSON.stringify(applyPatch(deepFreeze(JSON.parse(input)), ops))).toBe(output);
  expect(JSON.stringify(applyPatch(deepFreeze(JSON.parse(output)), invertPatch(ops)))).toBe(input);
  // The inverse of the inverse is the operations again (up to the oldValue an inverse adds).
  expect(JSON.stringify(applyPatch(deepFreeze(JSON.parse(input)), invertPatch(invertPatch(ops))))).toBe(output);
}

describe('rename (a move in place) at the first, middle and last key', () => {
  const cases: [string, string, string, PatchOperation][] = [
    ['/a', 'x', '{"x":1,"b":2,"c":3}', { op: 'move', from: '/a', path: '/x', index: 0, fromIndex: 0 }],
    ['/b', 'x', '{"a":1,"x":2,"c":3}', { op: 'move', from: '/b', path: '/x', index: 1, fromIndex: 1 }],
    ['/c', 'x', '{"a":1,"b":2,"x":3}', { op: 'move', from: '/c', path: '/x' }],
  ];
  for (const [path, to, output, op] of cases) {
    it(`${path} → ${to}`, () => {
      const got = record(INPUT, (ctx) => ctx.rename(path, to, 'did'));
      expect(got.output).toBe(output);
      expect(got.ops).toEqual([op]);
      roundTrip(INPUT, output, got.ops);
    });
  }

  it('to an integer-like key, which JavaScript puts first whatever is done', () => {
    const got = record(INPUT, (ctx) => ctx.rename('/b', '7', 'did'));
    expect(got.output).toBe('{"7":2,"a":1,"c":3}');
    expect(got.ops).toEqual([{ op: 'move', from: '/b', path: '/7', index: 0, fromIndex: 1 }]);
    roundTrip(INPUT, got.output, got.ops);
  });

  it('several renames of one object in a row', () => {
    const got = record('{"items":1,"additionalItems":2,"type":"array"}', (ctx) => {
      ctx.rename('/items', 'prefixItems', 'did');
      ctx.rename('/additionalItems', 'items', 'did');
    });
    expect(got.output).toBe('{"prefixItems":1,"items":2,"type":"array"}');
    roundTrip('{"items":1,"additionalItems":2,"type":"array"}', got.output, got.ops);
  });
});

describe('move between objects at the first, middle and last key', () => {
  const input = '{"s":{"a":1,"b":2,"c":3},"t":{"z":0}}';
  const cases: [string, string, PatchOperation][] = [
    ['/s/a', '{"s":{"b":2,"c":3},"t":{"z":0,"a":1}}', { op: 'move', from: '/s/a', path: '/t/a', fromIndex: 0 }],
    ['/s/b', '{"s":{"a":1,"c":3},"t":{"z":0,"b":2}}', { op: 'move', from: '/s/b', path: '/t/b', fromIndex: 1 }],
    ['/s/c', '{"s":{"a":1,"b":2},"t":{"z":0,"c":3}}', { op: 'move', from: '/s/c', path: '/t/c' }],
  ];
  for (const [from, output, op] of cases) {
    it(from, () => {
      const to = '/t/' + from.slice(3);
      const got = record(input, (ctx) => ctx.move(from, to, 'did'));
      expect(got.output).toBe(output);
      expect(got.ops).toEqual([op]);
      roundTrip(input, output, got.ops);
    });
  }
});

describe('remove at the first, middle and last key', () => {
  const cases: [string, string, number | undefined][] = [
    ['/a', '{"b":2,"c":3}', 0],
    ['/b', '{"a":1,"c":3}', 1],
    ['/c', '{"a":1,"b":2}', undefined],
  ];
  for (const [path, output, index] of cases) {
    it(path, () => {
      const got = record(INPUT, (ctx) => ctx.remove(path, 'did'));
      expect(got.output).toBe(output);
      expect(got.ops).toEqual([index === undefined ? { op: 'remove', path, oldValue: 3 } : { op: 'remove', path, oldValue: index + 1, index }]);
      roundTrip(INPUT, output, got.ops);
    });
  }

  it('every member of an object, in an order that is neither first-to-last nor last-to-first', () => {
    const input = '{"a":1,"b":2,"c":3,"d":4,"e":5}';
    const got = record(input, (ctx) => {
      for (const k of ['c', 'a', 'e', 'b', 'd']) ctx.remove('/' + k, 'did');
    });
    expect(got.output).toBe('{}');
    // Positions among what is left at each step: c of abcde; a of abde; e (last) of bde; b of bd; d (last).
    expect(got.ops.map((o) => o.index)).toEqual([2, 0, undefined, 0, undefined]);
    roundTrip(input, '{}', got.ops);
  });

  it('remove then add of the same key lands it last, in the output as in the replay', () => {
    const got = record(INPUT, (ctx) => {
      ctx.remove('/a', 'did');
      ctx.add('/a', 9, 'did');
    });
    expect(got.output).toBe('{"b":2,"c":3,"a":9}');
    roundTrip(INPUT, got.output, got.ops);
  });
});

describe('hand-written operations', () => {
  it('`index` places an added member; absent, it is appended as RFC 6902 says', () => {
    const doc = deepFreeze({ a: 1, b: 2 });
    expect(JSON.stringify(applyPatch(doc, [{ op: 'add', path: '/x', value: 0, index: 0 }]))).toBe('{"x":0,"a":1,"b":2}');
    expect(JSON.stringify(applyPatch(doc, [{ op: 'add', path: '/x', value: 0, index: 1 }]))).toBe('{"a":1,"x":0,"b":2}');
    expect(JSON.stringify(applyPatch(doc, [{ op: 'add', path: '/x', value: 0 }]))).toBe('{"a":1,"b":2,"x":0}');
    expect(JSON.stringify(applyPatch(doc, [{ op: 'move', from: '/b', path: '/x', index: 0 }]))).toBe('{"x":2,"a":1}');
    // `add` to an existing member replaces it where it is; `index` is for new members
    expect(JSON.stringify(applyPatch(doc, [{ op: 'add', path: '/b', value: 0, index: 0 }]))).toBe('{"a":1,"b":0}');
    expect(() => applyPatch(doc, [{ op: 'add', path: '/x', value: 0, index: -1 }])).toThrow(/index/);
  });

  it('`__proto__` placed by `index` stays data', () => {
    const out = applyPatch(deepFreeze({ a: 1, b: 2 }), [{ op: 'add', path: '/__proto__', value: { polluted: true }, index: 1 }]);
    expect(JSON.stringify(out)).toBe('{"a":1,"__proto__":{"polluted":true},"b":2}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('invertPatch swaps `index` and `fromIndex` of a move', () => {
    expect(invertPatch([{ op: 'move', from: '/s/a', path: '/t/a', index: 3, fromIndex: 1 }])).toEqual([{ op: 'move', from: '/t/a', path: '/s/a', index: 1, fromIndex: 3 }]);
  });
});

describe('a key one step removes and a later step adds anew keeps its place (EditContext `origin`)', () => {
  it('in a context: the added member goes before the first key that followed it in the origin', () => {
    const origin = deepFreeze(JSON.parse('{"a":1,"b":2,"c":3,"d":4}'));
    const ctx = new EditContext(deepFreeze(JSON.parse('{"a":1,"c":3,"d":4,"z":0}')), MESSAGES, { origin });
    ctx.add('/b', 9, 'did');
    ctx.add('/y', 8, 'did'); // not in the origin: appended
    expect(JSON.stringify(ctx.root)).toBe('{"a":1,"b":9,"c":3,"d":4,"z":0,"y":8}');
    expect(ctx.changes.map(({ op, path, index }) => ({ op, path, index }))).toEqual([
      { op: 'add', path: '/b', index: 1 },
      { op: 'add', path: '/y', index: undefined },
    ]);
    // …what followed it is all gone: appended
    const alone = new EditContext(deepFreeze({ a: 1 }), MESSAGES, { origin });
    alone.add('/d', 4, 'did');
    expect(JSON.stringify(alone.root)).toBe('{"a":1,"d":4}');
  });

  it('normalize-schema drops an empty first `$defs`, dedupe-repeated-subtrees writes one: it stays first, and the report replays it there', () => {
    const addr = { type: 'object', properties: { street: { type: 'string', description: 'Street and number' }, city: { type: 'string', description: 'City name' } }, required: ['street', 'city'] };
    const tools = deepFreeze([{ name: 't', inputSchema: { $defs: {}, type: 'object', properties: { home: addr, work: addr, other: addr }, required: ['home'] } }]);
    const result = transformTools(tools, { transforms: [normalizeSchema, dedupeRepeatedSubtrees] });
    const def = '{"type":"object","properties":{"street":{"type":"string","description":"Street and number"},"city":{"type":"string","description":"City name"}},"required":["street","city"]}';
    expect(JSON.stringify(result.tools)).toBe(
      `[{"name":"t","inputSchema":{"$defs":{"home":${def}},"type":"object","properties":{"home":{"$ref":"#/$defs/home"},"work":{"$ref":"#/$defs/home"},"other":{"$ref":"#/$defs/home"}},"required":["home"]}}]`,
    );
    expect(result.report.changes.slice(0, 2).map(({ op, path, index, transform }) => ({ op, path, index, transform }))).toEqual([
      { op: 'remove', path: '/0/inputSchema/$defs', index: 0, transform: 'normalize-schema' },
      { op: 'add', path: '/0/inputSchema/$defs', index: 0, transform: 'dedupe-repeated-subtrees' },
    ]);
    expect(JSON.stringify(applyPatch(tools, result.report.changes))).toBe(JSON.stringify(result.tools));
    expect(JSON.stringify(applyPatch(result.tools, invertPatch(result.report.changes)))).toBe(JSON.stringify(tools));
  });
});

describe('recording positions scales', () => {
  // No timed assertion (issue 31: timings are the bench's). At 100k members a removal that lists every key
  // (quadratic: Object.keys of a 100k-key object per removal, ~5e9 key visits) runs for minutes; linear takes
  // about a second on an idle machine (three on a loaded one), so the test's 60 s timeout is the guard.
  it('removing every member of one big object stays near linear (100k members, within the test timeout)', () => {
    const n = 100_000;
    const obj: Record<string, number> = {};
    for (let i = 0; i < n; i++) obj[`k${i}`] = i;
    const ctx = new EditContext(obj, {});
    // From the middle outwards (7919 is prime, so every index is hit once): each removal is of a member that is not the last.
    for (let i = 0; i < n; i++) ctx.remove(`/k${(i * 7919) % n}`, 'x');
    expect(ctx.changes).toHaveLength(n);
    expect(ctx.changes[1]!.path).toBe('/k7919');
  });
});
