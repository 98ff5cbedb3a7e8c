/**
 * Bad and hostile input through the library: a clear error or a reported skip, never a crash, hang,
 * prototype pollution or silent loss (issue 8).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ToolslimError, pruneUnreachableDefs, transformTools } from '../../src/index.js';
import { stringifyJson } from '../../src/json/stringify.js';
import { deepFreeze } from '../helpers/freeze.js';

/** These tests pin down prune-unreachable-defs' exact changes on hostile input; the presets are covered elsewhere. */
const pruneOnly = (input: unknown, options: Record<string, unknown> = {}) => transformTools(input, { transforms: ['prune-unreachable-defs'], ...options });

function nested(depth: number): unknown {
  return JSON.parse('{"type":"object","properties":{"a":'.repeat(depth) + '{}' + '}}'.repeat(depth));
}

const protoKeys = ['__proto__', 'constructor', 'prototype'];
let fetchSpy: ReturnType<typeof vi.fn>;
beforeEach(() => {
  fetchSpy = vi.fn(() => {
    throw new Error('network access attempted');
  });
  vi.stubGlobal('fetch', fetchSpy);
});
afterEach(() => {
  vi.unstubAllGlobals();
  expect(fetchSpy).not.toHaveBeenCalled();
  for (const k of ['polluted', 'type', '$ref', 'a']) expect(Object.prototype).not.toHaveProperty(k);
});

describe('input shape', () => {
  it('rejects a non-array `tools` with a clear error naming where', () => {
    for (const bad of [{ tools: 'x' }, { tools: null }, { tools: {} }, 42, 'tools', null, { result: { tools: 1 } }]) {
      let err: unknown;
      try {
        pruneOnly(bad);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ToolslimError);
      expect((err as ToolslimError).code).toBe('invalid-input');
      expect((err as Error).message).toMatch(/tools|expected/);
    }
  });

  it('passes tools without a name, without inputSchema, or with null/boolean/array schemas through', () => {
    const tools = deepFreeze([
      { inputSchema: { type: 'object' } },
      { name: 'no-schema' },
      { name: 'null-schema', inputSchema: null },
      { name: 'bool-schema', inputSchema: true },
      { name: 'array-schema', inputSchema: [{ type: 'object' }] },
      { name: 'bool-inside', inputSchema: { type: 'object', properties: { a: true, b: false }, $defs: { X: false, Y: true }, additionalProperties: { $ref: '#/$defs/Y' } } },
    ]);
    const r = pruneOnly(tools);
    expect(r.tools.length).toBe(6);
    // A slot that is not a schema (null, an array; a string too) is left as it is and named (issue 15).
    expect(r.report.skipped).toEqual([
      { tool: 'null-schema', toolIndex: 2, transform: 'input', reason: '`inputSchema` is null, not a JSON Schema: left as it is at `/2/inputSchema`' },
      { tool: 'array-schema', toolIndex: 4, transform: 'input', reason: '`inputSchema` is an array, not a JSON Schema: left as it is at `/4/inputSchema`' },
    ]);
    for (let i = 0; i < 5; i++) expect(r.tools[i]).toBe(tools[i]);
    const text = pruneOnly(deepFreeze([{ name: 'text-schema', inputSchema: 'object' }]) as never);
    expect(text.report.skipped.map((s) => s.reason)).toEqual(['`inputSchema` is a string, not a JSON Schema: left as it is at `/0/inputSchema`']);
    // X is unreachable, Y is used: boolean schemas are handled as schemas.
    expect(r.report.changes.map((c) => c.path)).toEqual(['/5/inputSchema/$defs/X']);
  });

  it('reports a tool that is not an object and processes the rest', () => {
    const tools = deepFreeze([42, 'x', null, { name: 'ok', inputSchema: { type: 'object', $defs: { Unused: {} } } }]);
    const r = pruneOnly(tools as never);
    expect(r.report.skipped.map((s) => [s.toolIndex, s.transform])).toEqual([
      [0, 'input'],
      [1, 'input'],
      [2, 'input'],
    ]);
    expect(r.report.skipped[0]!.reason).toMatch(/expected an object/);
    expect(r.tools.slice(0, 3)).toEqual([42, 'x', null]);
    expect(r.report.changes.map((c) => c.path)).toEqual(['/3/inputSchema/$defs/Unused']);
  });
});

describe('deep nesting', () => {
  it.each([10_000, 100_000])('handles %i levels without overflowing the stack', (depth) => {
    const deep = { name: 'deep', inputSchema: nested(depth) };
    const fine = { name: 'fine', inputSchema: { type: 'object', $defs: { U: {} } } };
    const r = pruneOnly([deep, fine]);
    expect(r.tools[0]).toBe(deep);
    expect(r.report.skipped).toHaveLength(1);
    expect(r.report.skipped[0]).toMatchObject({ tool: 'deep', toolIndex: 0, transform: 'input' });
    expect(r.report.skipped[0]!.reason).toMatch(/nesting deeper than \d+ levels at `\/0\/inputSchema(\/properties\/a)+/);
    expect(r.report.changes.map((c) => c.path)).toEqual(['/1/inputSchema/$defs/U']);
    // The untouched deep tool is still measured and can still be written out.
    expect(r.report.stats.tools[0]!.before.bytes).toBe(Buffer.byteLength(stringifyJson(deep)));
    expect(stringifyJson(r.output).length).toBeGreaterThan(depth * 10);
  });
});

describe('__proto__, constructor and prototype are data', () => {
  it('as property names, definition names and pointer tokens', () => {
    const text = `[{"name":"p","inputSchema":{"type":"object","properties":{"__proto__":{"$ref":"#/$defs/__proto__"},"constructor":{"$ref":"#/$defs/constructor"}},"$defs":{"__proto__":{"type":"string","polluted":true},"constructor":{"type":"number"},"prototype":{"type":"boolean"},"toString":{"$ref":"#/$defs/prototype"}}}}]`;
    const tools = deepFreeze(JSON.parse(text));
    const r = pruneOnly(tools);
    const defs = (r.tools[0]!.inputSchema as Record<string, Record<string, unknown>>).$defs!;
    expect(Object.keys(defs)).toEqual(['__proto__', 'constructor']);
    expect(Object.getOwnPropertyDescriptor(defs, '__proto__')?.value).toEqual({ type: 'string', polluted: true });
    expect(Object.getPrototypeOf(defs)).toBe(Object.prototype);
    expect(r.report.changes.map((c) => c.path)).toEqual(['/0/inputSchema/$defs/prototype', '/0/inputSchema/$defs/toString']);
    expect(JSON.stringify(r.tools)).toBe(text.replace(',"prototype":{"type":"boolean"},"toString":{"$ref":"#/$defs/prototype"}', ''));
  });

  it.each(protoKeys)('a $ref to #/$defs/%s that does not exist is not resolved through the prototype chain', (key) => {
    const tools = deepFreeze([{ name: 't', inputSchema: { type: 'object', properties: { a: { $ref: `#/$defs/${key}` } }, $defs: { Other: {} } } }]);
    const r = pruneOnly(tools);
    expect(r.report.skipped).toEqual([]);
    expect(r.report.changes.map((c) => c.path)).toEqual(['/0/inputSchema/$defs/Other']);
  });
});

describe('object graphs JSON cannot hold', () => {
  it('a reference cycle is a clear skip naming tool and path, or a ToolslimError with onError throw', () => {
    const schema: Record<string, unknown> = { type: 'object', properties: {} };
    (schema.properties as Record<string, unknown>).self = schema;
    const tools = [{ name: 'cyclic', inputSchema: schema }, { name: 'ok', inputSchema: { $defs: { U: {} } } }];
    const r = pruneOnly(tools);
    expect(r.report.skipped).toEqual([{ tool: 'cyclic', toolIndex: 0, transform: 'input', reason: expect.stringMatching(/cycle.*`\/0\/inputSchema\/properties\/self`/) }]);
    expect(r.tools[0]).toBe(tools[0]);
    expect(r.report.changes).toHaveLength(1);
    expect(() => pruneOnly(tools, { onError: 'throw' })).toThrow(/`cyclic`.*cycle/);
  });

  it('shared subobjects (the same object in two places) are rewritten correctly in both, and the input never changes', () => {
    const shared = { type: 'object', properties: { x: { $ref: '#/$defs/Used' } }, $defs: { Used: { type: 'string' }, Unused: { type: 'number' } } };
    const tools = deepFreeze([
      { name: 'a', inputSchema: shared },
      { name: 'b', inputSchema: shared, outputSchema: shared },
    ]);
    const before = JSON.stringify(tools);
    const r = pruneOnly(tools);
    expect(JSON.stringify(tools)).toBe(before);
    const expected = { type: 'object', properties: { x: { $ref: '#/$defs/Used' } }, $defs: { Used: { type: 'string' } } };
    expect(r.tools[0]!.inputSchema).toEqual(expected);
    expect(r.tools[1]!.inputSchema).toEqual(expected);
    expect(r.tools[1]!.outputSchema).toEqual(expected);
    // Copy-on-write: the unchanged `properties` subtree is shared with the input (as documented) ...
    expect((r.tools[0]!.inputSchema as Record<string, unknown>).properties).toBe(shared.properties);
    // ... and the changed containers are fresh: editing the output's $defs never reaches the input.
    const outDefs = (r.tools[1]!.inputSchema as Record<string, Record<string, unknown>>).$defs!;
    expect(outDefs).not.toBe(shared.$defs);
    outDefs.New = {};
    expect(JSON.stringify(tools)).toBe(before);
  });

  it.each([
    ['undefined (as an array element)', [undefined], /undefined is not a JSON value/],
    ['a function', () => 1, /function is not a JSON value/],
    ['NaN', Number.NaN, /NaN is not a JSON number/],
    ['Infinity', Number.POSITIVE_INFINITY, /Infinity is not a JSON number/],
    ['a BigInt', BigInt(1), /bigint is not a JSON value/],
    ['a Date', new Date(0), /Date object is not a JSON value/],
  ])('%s inside a tool is reported, and the tool is left exactly as it was', (_label, value, reason) => {
    const tool = { name: 'odd', inputSchema: { type: 'object', default: { v: value }, $defs: { U: {} } } };
    const r = pruneOnly([tool]);
    expect(r.tools[0]).toBe(tool);
    expect(r.report.skipped).toHaveLength(1);
    expect(r.report.skipped[0]!.reason).toMatch(reason);
    expect(r.report.skipped[0]!.reason).toContain('/0/inputSchema/default/v');
  });
});

describe('hostile references', () => {
  const run = (inputSchema: unknown) => pruneUnreachableDefs([{ name: 't', inputSchema } as never]);

  it('a $ref to nowhere, to #/$defs/ and to a remote URL: nothing fetched, nothing broken', () => {
    const r = run({
      type: 'object',
      properties: { a: { $ref: '#/$defs/Missing' }, b: { $ref: '#/$defs/' }, c: { $ref: 'https://example.com/schema.json#/$defs/Used' } },
      $defs: { Used: {}, Unused: {} },
    });
    expect(r.report.skipped).toEqual([]);
    // The remote ref names another document: local definitions are not its target.
    expect(r.report.changes.map((c) => c.path)).toEqual(['/0/inputSchema/$defs/Used', '/0/inputSchema/$defs/Unused']);
  });

  it('a malformed percent-escape makes the document undecidable: nothing is pruned and the finding says why', () => {
    const r = run({ type: 'object', properties: { a: { $ref: '#/$defs/%E0%A4%A' } }, $defs: { Unused: {} } });
    expect(r.report.changes).toEqual([]);
    expect(r.report.diagnostics.map((d) => [d.code, d.path])).toEqual([['undecidable', '/0/inputSchema/properties/a/$ref']]);
    expect(r.report.diagnostics[0]!.message).toMatch(/percent-escape/);
  });

  it('a chain of 10,000 refs is followed without recursion', () => {
    const n = 10_000;
    const defs: Record<string, unknown> = {};
    for (let i = 0; i < n; i++) defs[`D${i}`] = { $ref: `#/$defs/D${i + 1}` };
    defs[`D${n}`] = { type: 'string' };
    defs.Unused = { $ref: '#/$defs/D0' };
    const r = run({ type: 'object', properties: { a: { $ref: '#/$defs/D0' } }, $defs: defs });
    expect(r.report.changes.map((c) => c.path)).toEqual(['/0/inputSchema/$defs/Unused']);
  });

  it('a definition graph whose expansion is exponential costs linear time', () => {
    // Dk refers to D(k+1) twice: full expansion has 2^60 leaves; reachability visits each definition once.
    const defs: Record<string, unknown> = {};
    for (let i = 0; i < 60; i++) defs[`D${i}`] = { anyOf: [{ $ref: `#/$defs/D${i + 1}` }, { items: { $ref: `#/$defs/D${i + 1}` } }] };
    defs.D60 = { type: 'integer' };
    // Expanded, this is 2^60 leaves: the test's timeout is the guard, not a timed assertion.
    const r = run({ $ref: '#/$defs/D0', $defs: defs });
    expect(r.report.changes).toEqual([]);
  });
});

describe('scale', () => {
  it('100,000 small tools complete and keep their order', () => {
    const tools = Array.from({ length: 100_000 }, (_, i) => ({ name: `t${i}`, inputSchema: { type: 'object', properties: { a: { $ref: '#/$defs/A' } }, $defs: { A: { type: 'string' }, B: {} } } }));
    const r = pruneOnly(tools, { measure: false });
    expect(r.tools.length).toBe(100_000);
    expect(r.tools[99_999]!.name).toBe('t99999');
    expect(r.report.changes.length).toBe(100_000);
  });
});
