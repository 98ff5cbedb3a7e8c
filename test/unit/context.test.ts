import jsonPatch from 'fast-json-patch';
import { describe, expect, it } from 'vitest';
import { EditContext } from '../../src/index.js';
import { shallowCopy } from '../../src/json/cow.js';
import { deepFreeze, jsonClone } from '../helpers/freeze.js';

const MESSAGES = { removed: 'Removed `{name}` from `{container}`', renamed: 'Renamed to `{to}`', plain: 'Did a thing' };

function tool() {
  return deepFreeze({
    name: 't',
    inputSchema: {
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'number' } },
      $defs: { A: { type: 'string' }, B: { type: 'integer' }, C: {} },
      required: ['a', 'b'],
    },
    annotations: { readOnlyHint: true },
  });
}

type Rec = Record<string, Record<string, unknown>>;

function replay(input: unknown, ctx: EditContext): unknown {
  const ops = ctx.changes.map(({ op, path, from, value }) => (op === 'move' ? { op, path, from } : op === 'remove' ? { op, path } : { op, path, value })) as jsonPatch.Operation[];
  return jsonPatch.applyPatch(jsonClone(input), jsonClone(ops), true, false).newDocument;
}

describe('copy-on-write', () => {
  it('copies only the containers on the edited path; siblings stay shared; the input is untouched', () => {
    const input = tool();
    const text = JSON.stringify(input);
    const ctx = new EditContext(input, MESSAGES);
    ctx.remove('/inputSchema/$defs/B', 'removed', { name: 'B', container: '$defs' });
    const root = ctx.root as Rec;
    expect(root).not.toBe(input);
    expect(root.inputSchema).not.toBe(input.inputSchema);
    expect(root.inputSchema!.$defs).not.toBe(input.inputSchema.$defs);
    expect(root.inputSchema!.properties).toBe(input.inputSchema.properties);
    expect(root.inputSchema!.required).toBe(input.inputSchema.required);
    expect((root.inputSchema!.$defs as Rec).A).toBe(input.inputSchema.$defs.A);
    expect(root.annotations).toBe(input.annotations);
    expect(JSON.stringify(input)).toBe(text);
    expect(Object.keys(root.inputSchema!.$defs as object)).toEqual(['A', 'C']);
  });

  it('copies a container once, however many edits go through it; a small object loses a member by being made anew', () => {
    const input = tool();
    const ctx = new EditContext(input, MESSAGES);
    ctx.remove('/inputSchema/$defs/A', 'plain');
    const schema = (ctx.root as Rec).inputSchema!;
    const defs = schema.$defs;
    ctx.replace('/inputSchema/$defs/B', { type: 'string' }, 'plain');
    // A replace writes the owned copy in place.
    expect(schema.$defs).toBe(defs);
    ctx.remove('/inputSchema/$defs/C', 'plain');
    // The containers above were copied once; the object a member left is a new one (never `delete`: V8 would
    // make a slow dictionary of it), with the remaining members in their order.
    expect((ctx.root as Rec).inputSchema).toBe(schema);
    expect(schema.$defs).not.toBe(defs);
    expect(Object.keys(schema.$defs as object)).toEqual(['B']);
    expect((schema.$defs as Rec).B).toEqual({ type: 'string' });
    expect(ctx.changed).toBe(true);
  });

  it('a large object (more than 64 keys) loses members in place, each removal recorded at its position', () => {
    const defs: Record<string, unknown> = {};
    for (let i = 0; i < 100; i++) defs[`D${i}`] = { type: 'string' };
    const input = deepFreeze({ name: 't', inputSchema: { type: 'object', $defs: defs } });
    const ctx = new EditContext(input, MESSAGES);
    ctx.remove('/inputSchema/$defs/D10', 'plain');
    const owned = (ctx.root as Rec).inputSchema!.$defs;
    ctx.remove('/inputSchema/$defs/D20', 'plain');
    ctx.remove('/inputSchema/$defs/D0', 'plain');
    expect((ctx.root as Rec).inputSchema!.$defs).toBe(owned);
    expect(Object.keys(owned as object)).toEqual(Object.keys(defs).filter((k) => !['D0', 'D10', 'D20'].includes(k)));
    // Positions among the keys left at each removal (hand-counted): D10 at 10, D20 at 19 (after D10 left), D0 at 0.
    expect(ctx.changes.map((c) => c.index)).toEqual([10, 19, 0]);
  });

  it('keeps the input as the root when nothing is edited', () => {
    const input = tool();
    const ctx = new EditContext(input, MESSAGES);
    ctx.report('info', 'plain', '/inputSchema');
    expect(ctx.root).toBe(input);
    expect(ctx.changed).toBe(false);
    expect(ctx.diagnostics).toEqual([{ severity: 'info', code: 'plain', path: '/inputSchema', message: 'Did a thing' }]);
  });
});

describe('operations', () => {
  it('record RFC 6902 operations that fast-json-patch replays to the same result', () => {
    const input = tool();
    const ctx = new EditContext(input, MESSAGES);
    ctx.replace('/inputSchema/properties/a/type', 'integer', 'plain');
    ctx.add('/inputSchema/properties/c', { type: 'null' }, 'plain');
    ctx.add('/inputSchema/required/-', 'c', 'plain');
    ctx.add('/inputSchema/required/0', 'first', 'plain');
    ctx.remove('/inputSchema/required/1', 'plain');
    ctx.move('/inputSchema/$defs/C', '/inputSchema/properties/d', 'plain');
    ctx.rename('/inputSchema/$defs/A', 'Alpha', 'renamed', { to: 'Alpha' });
    ctx.replace('/annotations', { title: 'T' }, 'plain');
    expect(ctx.changes.map(({ op, path, from }) => (from === undefined ? [op, path] : [op, path, from]))).toEqual([
      ['replace', '/inputSchema/properties/a/type'],
      ['add', '/inputSchema/properties/c'],
      ['add', '/inputSchema/required/2'], // the index `-` stood for, so the report can be inverted
      ['add', '/inputSchema/required/0'],
      ['remove', '/inputSchema/required/1'],
      ['move', '/inputSchema/properties/d', '/inputSchema/$defs/C'],
      ['move', '/inputSchema/$defs/Alpha', '/inputSchema/$defs/A'],
      ['replace', '/annotations'],
    ]);
    expect(ctx.changes[0]!.oldValue).toBe('string');
    expect(ctx.changes[4]!.oldValue).toBe('a');
    expect(ctx.changes[7]!.oldValue).toBe(input.annotations);
    expect(replay(input, ctx)).toEqual(jsonClone(ctx.root));
    const s = (ctx.root as Rec).inputSchema!;
    expect(s.required).toEqual(['first', 'b', 'c']);
    expect(Object.keys(s.properties as object)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('rename keeps the member’s position among its siblings', () => {
    const ctx = new EditContext(tool(), MESSAGES);
    ctx.rename('/inputSchema/$defs/B', 'Beta', 'renamed', { to: 'Beta' });
    expect(Object.keys((ctx.root as Rec).inputSchema!.$defs as object)).toEqual(['A', 'Beta', 'C']);
    expect(ctx.changes[0]!.message).toBe('Renamed to `Beta`');
    expect(() => ctx.rename('/inputSchema/$defs/A', 'C', 'renamed')).toThrow(/already exists/);
    expect(() => ctx.rename('/inputSchema/$defs/Nope', 'X', 'renamed')).toThrow(/nothing at/);
  });

  it('fills message placeholders; missing data stays visible', () => {
    const ctx = new EditContext(tool(), MESSAGES);
    ctx.remove('/inputSchema/$defs/A', 'removed', { name: 'A' });
    expect(ctx.changes.map((c) => c.message)).toEqual(['Removed `A` from `{container}`']);
  });

  it('throws on a code the messages do not declare (as ESLint does), before editing anything', () => {
    const input = tool();
    const ctx = new EditContext(input, MESSAGES);
    expect(() => ctx.remove('/inputSchema/$defs/B', 'no-such-code')).toThrow(/unknown message code `no-such-code`.*removed, renamed, plain/);
    expect(() => ctx.report('info', 'nope', '')).toThrow(/unknown message code `nope`/);
    expect(ctx.root).toBe(input);
    expect(ctx.changes).toEqual([]);
    expect(ctx.diagnostics).toEqual([]);
  });

  it('refuses impossible edits with the pointer in the message', () => {
    const ctx = new EditContext(tool(), MESSAGES);
    expect(() => ctx.remove('', 'plain')).toThrow(/root/);
    expect(() => ctx.remove('/inputSchema/nope', 'plain')).toThrow(/`\/inputSchema\/nope`/);
    expect(() => ctx.replace('/inputSchema/nope/x', 1, 'plain')).toThrow(/nothing at/);
    expect(() => ctx.add('/inputSchema/type', 'x', 'plain')).toThrow(/already exists/);
    expect(() => ctx.add('/inputSchema/required/7', 'x', 'plain')).toThrow(/no array position/);
    expect(() => ctx.remove('/inputSchema/required/2', 'plain')).toThrow(/nothing at/);
    expect(() => ctx.remove('/inputSchema/required/01', 'plain')).toThrow(/nothing at/);
    expect(() => ctx.move('/inputSchema/properties', '/inputSchema/properties/a/x', 'plain')).toThrow(/into itself/);
    expect(() => ctx.move('/inputSchema/properties', '/inputSchema/properties', 'plain')).toThrow(/into itself/);
    expect(Object.keys((ctx.root as Rec).inputSchema!)).toEqual(['type', 'properties', '$defs', 'required']);
    expect(ctx.changes).toEqual([]);
  });

  it('replace at the root swaps the whole working copy', () => {
    const ctx = new EditContext(tool(), MESSAGES);
    ctx.replace('', { name: 'new' }, 'plain');
    expect(ctx.root).toEqual({ name: 'new' });
  });

  it('get reads own properties of the working copy only', () => {
    const ctx = new EditContext(tool(), MESSAGES);
    expect(ctx.get('/inputSchema/required/1')).toBe('b');
    expect(ctx.get('/inputSchema/constructor')).toBeUndefined();
    expect(ctx.get('/inputSchema/__proto__')).toBeUndefined();
    expect(ctx.get('/inputSchema/required/length')).toBeUndefined();
  });
});

describe('__proto__ is data', () => {
  it('adds, replaces and removes `__proto__` members as own properties; Object.prototype is untouched', () => {
    const input = deepFreeze(JSON.parse('{"inputSchema":{"properties":{"__proto__":{"type":"string"}},"$defs":{}}}'));
    const ctx = new EditContext(input, MESSAGES);
    ctx.add('/inputSchema/$defs/__proto__', { polluted: true }, 'plain');
    ctx.replace('/inputSchema/properties/__proto__/type', 'number', 'plain');
    ctx.add('/inputSchema/properties/__proto__/polluted', true, 'plain');
    const root = ctx.root as Rec;
    const defs = root.inputSchema!.$defs as Record<string, unknown>;
    expect(Object.keys(defs)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(defs)).toBe(Object.prototype);
    expect(Object.getPrototypeOf((root.inputSchema!.properties as object))).toBe(Object.prototype);
    expect(JSON.stringify(root)).toBe('{"inputSchema":{"properties":{"__proto__":{"type":"number","polluted":true}},"$defs":{"__proto__":{"polluted":true}}}}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted')).toBe(false);
    // A rename or a removal makes the object anew: read it again from the root after each.
    const defsNow = () => (ctx.root as Rec).inputSchema!.$defs as Record<string, unknown>;
    ctx.rename('/inputSchema/$defs/__proto__', 'safe', 'plain');
    expect(Object.keys(defsNow())).toEqual(['safe']);
    ctx.rename('/inputSchema/$defs/safe', '__proto__', 'plain');
    expect(Object.keys(defsNow())).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(defsNow())).toBe(Object.prototype);
    expect(JSON.stringify(defsNow())).toBe('{"__proto__":{"polluted":true}}');
    ctx.remove('/inputSchema/$defs/__proto__', 'plain');
    expect(Object.keys(defsNow())).toEqual([]);
    expect(Object.getPrototypeOf(defsNow())).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('shallowCopy keeps key order and own `__proto__` members', () => {
    const src = JSON.parse('{"b":1,"__proto__":{"x":1},"a":2}');
    const copy = shallowCopy(src);
    expect(Object.keys(copy)).toEqual(['b', '__proto__', 'a']);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(JSON.stringify(copy)).toBe(JSON.stringify(src));
  });
});

describe('transactions', () => {
  const MSG = { ...MESSAGES, found: 'Found `{name}`', kept: 'Kept a finding' };

  // RFC 6902 reads a move's destination after the removal: a taken key, or a path the removal shifted away,
  // shows only then. The refused move must leave nothing half done (it took the value out and threw).
  it.each([
    ['an existing key', { a: { x: 1, m: 2 } }, '/a/x', '/a/m'],
    ['a path the removal shifted away', { k: [0, { n: 1 }] }, '/k/0', '/k/1/m'],
    ['an array position past the end once the element is out', { k: [1, 2] }, '/k/0', '/k/2'],
  ])('a move refused at its destination (%s) changes nothing', (_name, doc, from, to) => {
    const input = deepFreeze(jsonClone(doc));
    const ctx = new EditContext(input, MSG);
    ctx.add('/z', 'kept', 'plain');
    const before = JSON.stringify(ctx.root);
    expect(() => ctx.move(from, to, 'plain')).toThrow();
    expect(JSON.stringify(ctx.root)).toBe(before);
    expect(ctx.changes.map((c) => c.op)).toEqual(['add']);
  });

  it('keeps a group whose callback does not return false, as if it had been written directly', () => {
    const input = tool();
    const direct = new EditContext(input, MSG);
    direct.remove('/inputSchema/$defs/A', 'plain');
    direct.rename('/inputSchema/$defs/B', 'Bee', 'renamed', { to: 'Bee' });
    direct.add('/inputSchema/required/-', 'c', 'plain');
    const grouped = new EditContext(input, MSG);
    expect(
      grouped.transaction(() => {
        grouped.remove('/inputSchema/$defs/A', 'plain');
        grouped.rename('/inputSchema/$defs/B', 'Bee', 'renamed', { to: 'Bee' });
        grouped.add('/inputSchema/required/-', 'c', 'plain');
      }),
    ).toBe(true);
    expect(grouped.root).toEqual(direct.root);
    expect(grouped.changes).toEqual(direct.changes);
    expect(replay(input, grouped)).toEqual(grouped.root);
  });

  it('rolls back the working copy, the changes and the findings of a group that returns false', () => {
    const input = tool();
    const ctx = new EditContext(input, MSG);
    ctx.remove('/inputSchema/$defs/C', 'plain');
    ctx.report('info', 'kept', '/x');
    const before = JSON.stringify(ctx.root);
    const defsBefore = (ctx.root as Rec).inputSchema!.$defs;
    const kept = ctx.transaction(() => {
      // Edits through containers the context already owns (the root, inputSchema, $defs) …
      ctx.remove('/inputSchema/$defs/A', 'plain');
      ctx.replace('/inputSchema/type', 'array', 'plain');
      ctx.report('warning', 'found', '/inputSchema', { name: 'A' });
      ctx.report('info', 'kept', '/y');
      return false;
    }, { keep: (code) => code === 'kept' });
    expect(kept).toBe(false);
    // … leave no trace: the owned containers were copied again, not written.
    expect(JSON.stringify(ctx.root)).toBe(before);
    expect((ctx.root as Rec).inputSchema!.$defs).toBe(defsBefore);
    expect(ctx.changes.map((c) => c.path)).toEqual(['/inputSchema/$defs/C']);
    expect(ctx.diagnostics.map((d) => d.path)).toEqual(['/x', '/y']);
    expect(replay(input, ctx)).toEqual(ctx.root);
    // Later edits still work, in place where the context owns the container.
    ctx.remove('/inputSchema/$defs/B', 'plain');
    expect(Object.keys((ctx.root as Rec).inputSchema!.$defs as object)).toEqual(['A']);
    expect(replay(input, ctx)).toEqual(ctx.root);
    expect(JSON.stringify(input)).toBe(JSON.stringify(tool()));
  });

  it('rolls back and rethrows when the group throws', () => {
    const input = tool();
    const ctx = new EditContext(input, MSG);
    expect(() =>
      ctx.transaction(() => {
        ctx.remove('/inputSchema/$defs/A', 'plain');
        ctx.remove('/inputSchema/nope', 'plain');
      }),
    ).toThrow(/nothing at/);
    expect(ctx.root).toBe(input);
    expect(ctx.changes).toEqual([]);
  });

  it('nests: an inner rollback keeps the outer group’s edits; an outer rollback undoes a committed inner group', () => {
    const input = tool();
    const ctx = new EditContext(input, MSG);
    ctx.transaction(() => {
      ctx.remove('/inputSchema/$defs/A', 'plain');
      ctx.transaction(() => {
        ctx.remove('/inputSchema/$defs/B', 'plain');
        return false;
      });
      ctx.transaction(() => {
        ctx.remove('/inputSchema/$defs/C', 'plain');
      });
    });
    expect(Object.keys((ctx.root as Rec).inputSchema!.$defs as object)).toEqual(['B']);
    expect(ctx.changes.map((c) => c.path)).toEqual(['/inputSchema/$defs/A', '/inputSchema/$defs/C']);
    const snapshot = JSON.stringify(ctx.root);
    ctx.transaction(() => {
      ctx.transaction(() => {
        ctx.remove('/inputSchema/$defs/B', 'plain');
        ctx.add('/inputSchema/required/0', 'z', 'plain');
      });
      return false;
    });
    expect(JSON.stringify(ctx.root)).toBe(snapshot);
    expect(ctx.changes).toHaveLength(2);
    expect(replay(input, ctx)).toEqual(ctx.root);
  });
});
