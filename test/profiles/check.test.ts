/** The checker, case by case: hand-written tools and the findings each client is documented to produce. */
import { describe, expect, it } from 'vitest';
import { checkToolsForProfile, type ProfileFinding } from '../../src/index.js';
import { deepFreeze } from '../helpers/freeze.js';

const codes = (fs: ProfileFinding[]) => fs.map((f) => `${f.severity}:${f.code}:${f.path}`);
const obj = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: 'object', properties, ...extra });

describe('references', () => {
  const tools = deepFreeze([
    { name: 'abc', inputSchema: obj({ x: { $ref: '#/$defs/X' }, y: { $ref: '#/properties/x' }, z: { $ref: '#' } }, { $defs: { X: { type: 'string' } } }) },
  ]);
  it('mcp, claude, openai: every resolving reference is fine', () => {
    for (const p of ['mcp', 'claude', 'openai']) expect(codes(checkToolsForProfile(tools, p)), p).toEqual([]);
  });
  it('openai-strict: only `#` and top-level definitions', () => {
    expect(codes(checkToolsForProfile(tools, 'openai-strict')).filter((c) => c.includes('ref'))).toEqual(['error:ref-not-top-level:/0/inputSchema/properties/y/$ref']);
  });
  it('kimi: only references starting with #/$defs/', () => {
    expect(codes(checkToolsForProfile(tools, 'kimi'))).toEqual(['error:ref-not-defs-prefix:/0/inputSchema/properties/y/$ref', 'error:ref-not-defs-prefix:/0/inputSchema/properties/z/$ref']);
  });
  it('ref-free: every reference, and the definitions themselves', () => {
    expect(codes(checkToolsForProfile(tools, 'ref-free'))).toEqual([
      'error:ref-unsupported:/0/inputSchema/properties/x/$ref',
      'error:ref-unsupported:/0/inputSchema/properties/y/$ref',
      'error:ref-unsupported:/0/inputSchema/properties/z/$ref',
      'error:defs-unsupported:/0/inputSchema/$defs',
    ]);
  });
  it('a `$ref`-shaped value inside data is not a reference', () => {
    const t = [{ name: 'a', inputSchema: obj({ x: { type: 'object', default: { $ref: '#/nowhere' } } }) }];
    expect(codes(checkToolsForProfile(t, 'ref-free'))).toEqual([]);
    expect(codes(checkToolsForProfile(t, 'mcp'))).toEqual([]);
  });
  it('kimi: only `description` beside `$ref`', () => {
    const t = [{ name: 'abc', inputSchema: obj({ x: { $ref: '#/$defs/X', description: 'd' }, y: { $ref: '#/$defs/X', type: 'string' } }, { $defs: { X: { type: 'string' } } }) }];
    expect(codes(checkToolsForProfile(t, 'kimi'))).toEqual(['error:ref-sibling:/0/inputSchema/properties/y']);
  });
  it('every profile that resolves references reports one that resolves to nothing', () => {
    const t = [{ name: 'abc', inputSchema: obj({ x: { $ref: '#/$defs/Nope' } }) }];
    for (const p of ['mcp', 'claude', 'openai', 'openai-strict', 'kimi']) expect(codes(checkToolsForProfile(t, p)), p).toContain('error:ref-unresolvable:/0/inputSchema/properties/x/$ref');
  });
  it('gemini, ref-free: a reference that cannot be inlined (nothing there, another document) is not told to be inlined', () => {
    // Reported as ref-unsupported, its fix said `toolslim optimize --profile gemini` inlines it, and after that
    // optimize it said the reference was recursive or over the growth cap: neither, and no optimize could help.
    const t = [{ name: 'abc', inputSchema: obj({ x: { $ref: '#/$defs/Nope' }, y: { $ref: 'https://example.test/other.json' }, z: { $ref: 'other.json#/B' }, w: { $ref: '#/$defs/W' } }, { $defs: { W: { type: 'string' } } }) }];
    for (const p of ['gemini', 'ref-free']) {
      const found = checkToolsForProfile(t, p);
      expect(codes(found).filter((c) => c.includes('/properties/')), p).toEqual([
        'error:ref-unresolvable:/0/inputSchema/properties/x/$ref',
        'error:ref-external:/0/inputSchema/properties/y/$ref',
        'error:ref-unresolvable:/0/inputSchema/properties/z/$ref',
        'error:ref-unsupported:/0/inputSchema/properties/w/$ref',
      ]);
      for (const f of found.filter((f) => !f.path.endsWith('/w/$ref') && f.path.includes('/properties/'))) expect(f.message, p).not.toMatch(/inline it|recursive|growth cap/);
    }
  });
});

describe('names and counts', () => {
  const names = ['get_weather', 'caldav-mcp.create-event', '1st', 'ab', 'a'.repeat(65), 'x'.repeat(129), 'get weather'];
  const tools = names.map((name) => ({ name, inputSchema: { type: 'object' } }));
  const bad = (p: string) => checkToolsForProfile(tools, p).filter((f) => f.code === 'tool-name').map((f) => names[f.toolIndex]);
  it('follows each documented pattern', () => {
    // MCP (SHOULD: warnings): [A-Za-z0-9_.-], 1..128
    expect(bad('mcp')).toEqual(['x'.repeat(129), 'get weather']);
    expect(checkToolsForProfile(tools, 'mcp').every((f) => f.severity === 'warning')).toBe(true);
    // Anthropic: ^[a-zA-Z0-9_-]{1,128}$
    expect(bad('claude')).toEqual(['caldav-mcp.create-event', 'x'.repeat(129), 'get weather']);
    // OpenAI: a-z, A-Z, 0-9, _ and -, at most 64
    expect(bad('openai')).toEqual(['caldav-mcp.create-event', 'a'.repeat(65), 'x'.repeat(129), 'get weather']);
    // Gemini: starts with a letter or underscore; letters, digits, _ . -; at most 64
    expect(bad('gemini')).toEqual(['1st', 'a'.repeat(65), 'x'.repeat(129), 'get weather']);
    // Kimi: ^[a-zA-Z_][a-zA-Z0-9-_]{2,63}$
    expect(bad('kimi')).toEqual(['caldav-mcp.create-event', '1st', 'ab', 'a'.repeat(65), 'x'.repeat(129), 'get weather']);
  });
  it('reports more tools than the cap once, for the whole list', () => {
    const many = Array.from({ length: 129 }, (_, i) => ({ name: `t_${i}`, inputSchema: { type: 'object', additionalProperties: false } }));
    for (const p of ['openai', 'openai-strict', 'kimi']) {
      const f = checkToolsForProfile(many, p);
      expect(codes(f), p).toEqual(['error:tool-count:']);
      expect(f[0]!.toolIndex).toBe(-1);
      expect(codes(checkToolsForProfile(many.slice(0, 128), p))).toEqual([]);
    }
    expect(codes(checkToolsForProfile(many, 'claude'))).toEqual([]);
  });
});

describe('openai-strict', () => {
  it('wants every property required and every object closed, at every level', () => {
    const t = [{ name: 'q', inputSchema: obj({ a: { type: 'string' }, b: obj({ c: { type: 'string' } }, { required: ['c'], additionalProperties: false }) }, { required: ['a'], additionalProperties: false }) }];
    expect(codes(checkToolsForProfile(t, 'openai-strict'))).toEqual(['error:strict-required:/0/inputSchema']);
    const open = [{ name: 'q', inputSchema: obj({ b: obj({ c: { type: 'string' } }, { required: ['c'] }) }, { required: ['b'], additionalProperties: false }) }];
    expect(codes(checkToolsForProfile(open, 'openai-strict'))).toEqual(['error:strict-additional-properties:/0/inputSchema/properties/b']);
  });
  it('rejects unsupported composition, a combinator at the root, unknown formats, and nesting beyond 10', () => {
    const closed = (properties: Record<string, unknown>) => obj(properties, { required: Object.keys(properties), additionalProperties: false });
    let deep: Record<string, unknown> = closed({ leaf: { type: 'string' } });
    for (let i = 0; i < 10; i++) deep = closed({ n: deep });
    const t = [
      { name: 'a', inputSchema: { ...closed({ u: { type: 'string', format: 'uri' }, d: { type: 'string', format: 'date-time' } }), anyOf: [{ required: ['u'] }] } },
      { name: 'b', inputSchema: closed({ x: { allOf: [{ type: 'string' }] }, y: { not: { type: 'string' } } }) },
      { name: 'c', inputSchema: deep },
    ];
    expect(codes(checkToolsForProfile(t, 'openai-strict'))).toEqual([
      'error:root-combinator:/0/inputSchema/anyOf',
      'error:format-unsupported:/0/inputSchema/properties/u/format',
      'error:keyword-rejected:/1/inputSchema/properties/x/allOf',
      'error:keyword-rejected:/1/inputSchema/properties/y/not',
      'error:depth-exceeded:/2/inputSchema' + '/properties/n'.repeat(10),
    ]);
  });
});

describe('gemini', () => {
  it('rejects what its schema object does not have, unknown fields included', () => {
    const t = [{ name: 'g', inputSchema: obj({ a: { type: 'string', const: 'x' }, b: { type: 'number', exclusiveMinimum: 0 }, c: { type: 'string', 'x-ui': 'wide', nullable: true }, d: { type: 'string', format: 'uuid' } }, { additionalProperties: false }) }];
    expect(codes(checkToolsForProfile(t, 'gemini'))).toEqual([
      'error:keyword-rejected:/0/inputSchema/additionalProperties',
      'error:keyword-rejected:/0/inputSchema/properties/a/const',
      'error:keyword-rejected:/0/inputSchema/properties/b/exclusiveMinimum',
      'error:keyword-unknown:/0/inputSchema/properties/c/x-ui',
      'error:format-unsupported:/0/inputSchema/properties/d/format',
    ]);
  });
});

describe('claude', () => {
  it('requires a root object and the 2020-12 meta-schema', () => {
    const t = [
      { name: 'a', inputSchema: { type: 'array', items: { type: 'string' } } },
      { name: 'b', inputSchema: obj({ t: { type: 'array', items: [{ type: 'string' }] }, d: { type: 'date' } }) },
    ];
    expect(codes(checkToolsForProfile(t, 'claude'))).toEqual([
      'error:root-not-object:/0/inputSchema',
      'error:schema-invalid:/1/inputSchema/properties/t/items',
      'error:schema-invalid:/1/inputSchema/properties/d/type',
    ]);
  });
  it('reads only the input schema (an LLM API never sees outputSchema)', () => {
    const t = [{ name: 'a', inputSchema: { type: 'object' }, outputSchema: { type: 'date' } }];
    expect(checkToolsForProfile(t, 'claude')).toEqual([]);
    expect(codes(checkToolsForProfile([{ name: 'a', inputSchema: { type: 'object' }, outputSchema: { $ref: '#/$defs/X' } }], 'mcp'))).toEqual(['error:ref-unresolvable:/0/outputSchema/$ref']);
  });
});

it('accepts every envelope and never changes its input', () => {
  const list = deepFreeze({ tools: [{ name: 'a b', inputSchema: { type: 'object' } }] });
  expect(codes(checkToolsForProfile(list))).toEqual(['warning:tool-name:/0/name']);
  expect(codes(checkToolsForProfile({ jsonrpc: '2.0', id: 1, result: list }, 'claude'))).toEqual(['error:tool-name:/0/name']);
});
