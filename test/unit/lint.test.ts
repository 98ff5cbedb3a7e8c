import { describe, expect, it } from 'vitest';
import { lintTools as lintAll, type Finding, type LintOptions } from '../../src/lint/index.js';
import { o200k } from '../../src/tokens.js';
import { deepFreeze } from '../helpers/freeze.js';

const obj = (extra: Record<string, unknown> = {}) => ({ type: 'object', ...extra });
/** A tool with nothing to complain about. */
const good = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  description: `Does ${name}`,
  inputSchema: obj({ properties: { q: { type: 'string', description: 'query' } } }),
  ...extra,
});
/** The per-tool checks alone: these fixtures' short descriptions read alike on purpose (collisions are tested below). */
const lintTools = (input: unknown, options: LintOptions = {}) => lintAll(input, { collisionThreshold: false, ...options });
const brief = (fs: readonly Finding[]) => fs.map((f) => `${f.severity} ${f.code} ${f.path}`);

describe('lintTools', () => {
  it('finds nothing in healthy tools, in every envelope', () => {
    const tools = deepFreeze([good('a'), good('b.c-d_e')]);
    expect(lintTools(tools)).toEqual([]);
    expect(lintTools({ tools })).toEqual([]);
    expect(lintTools({ jsonrpc: '2.0', id: 1, result: { tools } })).toEqual([]);
    expect(lintTools({ toolsList: { tools } })).toEqual([]);
  });

  it('reports an unresolvable local $ref with its pointer', () => {
    const tools = deepFreeze([good('x', { inputSchema: obj({ properties: { a: { $ref: '#/$defs/Missing', description: 'what a is' } }, $defs: {} }) })]);
    expect(brief(lintTools(tools))).toEqual(['error unresolved-ref /0/inputSchema/properties/a/$ref']);
    expect(lintTools(tools)[0]!.message).toContain('`#/$defs/Missing`');
  });

  it('warns about a $ref to another document', () => {
    const tools = [good('x', { inputSchema: obj({ $id: 'https://example.com/root.json', properties: { a: { $ref: 'https://example.com/other.json', description: 'what a is' } } }) })];
    expect(brief(lintTools(tools))).toEqual(['warning external-ref /0/inputSchema/properties/a/$ref']);
  });

  it('reports a dialect stamp contradicted by the keywords used, once per keyword', () => {
    const d7 = 'http://json-schema.org/draft-07/schema#';
    const tools = [
      good('uses_defs', { inputSchema: obj({ $schema: d7, properties: { a: { $ref: '#/$defs/A', description: 'what a is' }, b: { $ref: '#/$defs/A', description: 'what b is' } }, $defs: { A: { type: 'string', dependentRequired: { x: ['y'] } } } }) }),
      good('array_items', { inputSchema: obj({ $schema: 'https://json-schema.org/draft/2020-12/schema', properties: { t: { type: 'array', items: [{ type: 'string' }], description: 'what t is' } } }) }),
      // Annotations from another dialect change no verdict: not reported.
      good('annotation_only', { inputSchema: obj({ $schema: d7, properties: { q: { type: 'string', deprecated: true, description: 'what q is' } } }) }),
      // Without a stamp the schema is read as 2020-12 (MCP's default): array-form items is found, as a warning (issue 29).
      good('no_stamp', { inputSchema: obj({ properties: { t: { type: 'array', items: [{ type: 'string' }], description: 'what t is' } } }) }),
    ];
    const fs = lintTools(tools);
    expect(brief(fs)).toEqual([
      'error contradicted-dialect /0/inputSchema/$defs',
      'error contradicted-dialect /0/inputSchema/$defs/A/dependentRequired',
      'error contradicted-dialect /1/inputSchema/properties/t/items',
      'warning contradicted-dialect /3/inputSchema/properties/t/items',
    ]);
    expect(fs[0]!.message).toContain('draft-07');
    expect(fs[0]!.message).toContain('2019-09, 2020-12');
    expect(fs[2]!.message).toContain('draft-04, draft-06, draft-07, 2019-09');
  });

  it('counts repeated contradictions in one finding', () => {
    const d4 = 'http://json-schema.org/draft-04/schema#';
    const tools = [good('x', { inputSchema: obj({ $schema: d4, properties: { a: { const: 1, description: 'what a is' }, b: { const: 2, description: 'what b is' } } }) })];
    const fs = lintTools(tools);
    expect(brief(fs)).toEqual(['error contradicted-dialect /0/inputSchema/properties/a/const']);
    expect(fs[0]!.message).toContain('2 places');
  });

  it('reports unreachable definitions with the bytes they waste', () => {
    const unused = { type: 'object', properties: { z: { type: 'number' } } };
    const tools = [good('x', { inputSchema: obj({ properties: { a: { $ref: '#/$defs/Used', description: 'what a is' } }, $defs: { Used: { type: 'string' }, Unused: unused } }) })];
    const fs = lintTools(tools);
    expect(brief(fs)).toEqual(['warning unreachable-def /0/inputSchema/$defs/Unused']);
    // "Unused": + value + comma, counted by hand from the compact JSON.
    const expected = '"Unused":'.length + JSON.stringify(unused).length + 1;
    expect(fs[0]!.bytes).toBe(expected);
    expect(fs[0]!.message).toContain(`${expected} bytes`);
  });

  it('reports duplicate names, names outside the MCP rule and missing names', () => {
    const tools = [good('same'), good('same'), good('has space'), good('x'.repeat(129)), good('ok'), { description: 'no name', inputSchema: obj() }, good('é')];
    expect(brief(lintTools(tools))).toEqual([
      'error duplicate-name /1/name',
      'warning invalid-name /2/name',
      'warning invalid-name /3/name',
      'error missing-name /5',
      'warning invalid-name /6/name',
    ]);
    const fs = lintTools(tools);
    expect(fs[1]!.message).toContain('" "');
    expect(fs[2]!.message).toContain('129 characters');
  });

  it('accepts exactly 128 characters and the full MCP alphabet', () => {
    expect(lintTools([good('a'.repeat(128)), good('AZaz09_-.')])).toEqual([]);
  });

  it('requires inputSchema to be an object schema with type "object" (outputSchema too)', () => {
    const tools = [
      { name: 'none', description: 'd' },
      { name: 'bool', description: 'd', inputSchema: true },
      { name: 'str', description: 'd', inputSchema: { type: 'string' } },
      { name: 'untyped', description: 'd', inputSchema: { properties: {} } },
      { name: 'union', description: 'd', inputSchema: { type: ['object', 'null'] } },
      { name: 'out', description: 'd', inputSchema: obj(), outputSchema: { type: 'array' } },
    ];
    expect(brief(lintTools(tools))).toEqual([
      'error missing-input-schema /0',
      'error missing-input-schema /1/inputSchema',
      'error root-not-object /2/inputSchema/type',
      'error root-not-object /3/inputSchema',
      'error root-not-object /4/inputSchema/type',
      'error root-not-object /5/outputSchema/type',
    ]);
  });

  it('reports tools and parameters without descriptions; a $ref target’s description counts', () => {
    const tools = [
      { name: 'bare', inputSchema: obj({ properties: { a: { type: 'string' }, b: { $ref: '#/$defs/B' }, c: { type: 'string', description: '  ' } }, $defs: { B: { type: 'string', description: 'from the def' } } }) },
      { name: 'empty', description: ' ', inputSchema: obj() },
    ];
    expect(brief(lintTools(tools))).toEqual([
      'warning missing-description /0',
      'info missing-param-description /0/inputSchema/properties/a',
      'info missing-param-description /0/inputSchema/properties/c',
      'warning missing-description /1/description',
    ]);
  });

  it('reports more than maxArguments top-level arguments as info', () => {
    const props = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, { type: 'string', description: 'p' }]));
    const tools = [good('four', { inputSchema: obj({ properties: props(4) }) }), good('five', { inputSchema: obj({ properties: props(5) }) })];
    expect(brief(lintTools(tools))).toEqual(['info many-arguments /1/inputSchema/properties']);
    expect(brief(lintTools(tools, { maxArguments: 5 }))).toEqual([]);
    expect(brief(lintTools(tools, { maxArguments: 3 }))).toEqual(['info many-arguments /0/inputSchema/properties', 'info many-arguments /1/inputSchema/properties']);
  });

  it('reports x-mcp-header behind $ref or composition, and invalid header annotations', () => {
    const tools = [
      good('direct', { inputSchema: obj({ properties: { region: { type: 'string', description: 'r', 'x-mcp-header': 'Region' }, nested: { type: 'object', description: 'n', properties: { zone: { type: 'string', 'x-mcp-header': 'Zone' } } } } }) }),
      good('via_ref', { inputSchema: obj({ properties: { region: { $ref: '#/$defs/R' } }, $defs: { R: { type: 'string', description: 'r', 'x-mcp-header': 'Region' } } }) }),
      good('via_allof', { inputSchema: obj({ allOf: [{ properties: { region: { type: 'string', 'x-mcp-header': 'Region' } } }] }) }),
      good('bad', { inputSchema: obj({ properties: { a: { type: 'number', description: 'what a is', 'x-mcp-header': 'A' }, b: { type: 'string', description: 'what b is', 'x-mcp-header': 'a' }, c: { type: 'string', description: 'what c is', 'x-mcp-header': 'has space' } } }) }),
    ];
    expect(brief(lintTools(tools))).toEqual([
      'warning indirect-mcp-header /1/inputSchema/$defs/R/x-mcp-header',
      'warning indirect-mcp-header /2/inputSchema/allOf/0/properties/region/x-mcp-header',
      'error invalid-mcp-header /3/inputSchema/properties/a/x-mcp-header',
      'error invalid-mcp-header /3/inputSchema/properties/b/x-mcp-header',
      'error invalid-mcp-header /3/inputSchema/properties/c/x-mcp-header',
    ]);
  });

  it('checks byte budgets per tool and for the whole list', () => {
    const tools = [good('a'), good('b')];
    const sizes = tools.map((t) => Buffer.byteLength(JSON.stringify(t)));
    const total = Buffer.byteLength(JSON.stringify(tools));
    expect(lintTools(tools, { maxBytes: total, maxToolBytes: Math.max(...sizes) })).toEqual([]);
    const fs = lintTools(tools, { maxBytes: total - 1, maxToolBytes: sizes[0]! - 1 });
    expect(brief(fs)).toEqual(['error over-budget /0', 'error over-budget /1', 'error over-budget ']);
    expect(fs[2]!.message).toContain(`${total} bytes`);
    expect(fs[2]!.toolIndex).toBe(-1);
  });

  it('checks token budgets with the given tokenizer and refuses them without one', () => {
    const tools = [good('a')];
    const tokens = o200k.count(JSON.stringify(tools));
    expect(lintTools(tools, { tokenizer: o200k, maxTokens: tokens })).toEqual([]);
    expect(brief(lintTools(tools, { tokenizer: o200k, maxTokens: tokens - 1 }))).toEqual(['error over-budget ']);
    expect(() => lintTools(tools, { maxTokens: 10 })).toThrow(/tokenizer/);
  });

  it('lets severities be changed or turned off, and runs extra checks', () => {
    const tools = [{ name: 'a', inputSchema: obj() }];
    expect(brief(lintTools(tools, { severity: { 'missing-description': 'error' } }))).toEqual(['error missing-description /0']);
    expect(lintTools(tools, { severity: { 'missing-description': 'off' } })).toEqual([]);
    const extra = lintTools(tools, { severity: { 'missing-description': 'off' }, checks: [() => [{ severity: 'warning', code: 'surface', tool: 'a', toolIndex: 0, path: '/0', message: 'm' }]] });
    expect(brief(extra)).toEqual(['warning surface /0']);
    expect(() => lintTools(tools, { severity: { x: 'fatal' as never } })).toThrow(/severity/);
  });

  it('reports tools it cannot check without stopping the others', () => {
    const cyclic: Record<string, unknown> = { name: 'cyc', description: 'd', inputSchema: obj() };
    (cyclic.inputSchema as Record<string, unknown>).self = cyclic;
    const fs = lintTools([cyclic, 'not a tool', good('fine', { inputSchema: obj({ properties: { a: { $ref: '#/nope', description: 'what a is' } } }) })]);
    expect(brief(fs)).toEqual(['error invalid-tool /0/inputSchema/self', 'error invalid-tool /1', 'error unresolved-ref /2/inputSchema/properties/a/$ref']);
  });

  it('survives 20,000 levels of nesting (iterative walks)', () => {
    let s: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 20_000; i++) s = { type: 'object', properties: { n: s }, description: 'One level down' };
    const fs = lintTools([{ name: 'deep', description: 'd', inputSchema: s }], { maxDepth: 100_000 });
    expect(fs).toEqual([]);
  });

  it('treats __proto__ and constructor as data', () => {
    const schema = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string","description":"p"},"constructor":{"$ref":"#/$defs/__proto__"}},"$defs":{"__proto__":{"type":"string","description":"c"}}}');
    expect(lintTools([{ name: 'p', description: 'd', inputSchema: schema }])).toEqual([]);
  });
});

describe('description collisions', () => {
  // get_user / getUser: "getusergetauserbyid" → ge et tu us se er rg ta au rb by yi id (13); the period of
  // the second adds `d.`: 13 of 14 = 0.93. send_invoice_email shares too little with either.
  const alike = [
    { name: 'get_user', description: 'Get a user by id', inputSchema: { type: 'object' } },
    { name: 'getUser', description: 'Get a user by id.', inputSchema: { type: 'object' } },
    { name: 'send_invoice_email', description: 'Email an invoice PDF to a customer', inputSchema: { type: 'object' } },
  ];

  it('reports each tool that reads like another, as info, then one summary line', () => {
    const found = lintAll(alike).filter((f) => f.code === 'description-collision');
    expect(found.map((f) => [f.severity, f.toolIndex, f.path])).toEqual([
      ['info', 0, '/0'],
      ['info', 1, '/1'],
      ['info', -1, ''],
    ]);
    expect(found[0]!.message).toMatch(/^`get_user` reads like `getUser` \(0\.93\) \(character-bigram similarity at or above 0\.30\)/);
    expect(found[2]!.message).toMatch(/^2 of 3 tools read like another tool: 1 pair at or above 0\.30 \(character-bigram similarity; each tool names up to 3 closest\), mean 0\.93, worst `get_user` ≈ `getUser` \(0\.93\);/);
  });

  it('can be tuned or turned off', () => {
    expect(lintAll(alike, { collisionThreshold: false }).filter((f) => f.code === 'description-collision')).toEqual([]);
    expect(lintAll(alike, { severity: { 'description-collision': 'off' } }).filter((f) => f.code === 'description-collision')).toEqual([]);
    expect(lintAll(alike, { collisionThreshold: 0.95 }).filter((f) => f.code === 'description-collision')).toEqual([]);
    expect(lintAll(alike, { severity: { 'description-collision': 'error' } }).filter((f) => f.code === 'description-collision').map((f) => f.severity)).toEqual(['error', 'error', 'error']);
    expect(() => lintAll(alike, { collisionThreshold: 1.5 })).toThrow(/collisionThreshold/);
    expect(() => lintAll(alike, { collisionPartners: 0 })).toThrow(/collisionPartners/);
  });

  it('600 tools that read alike: one finding per tool naming at most 3 partners, no lint-failed', () => {
    // (These once made 179,700 pair findings, and spreading them into one push overflowed the stack.)
    const many = Array.from({ length: 600 }, (_, i) => ({ name: `get_item_${i}`, description: 'Get one item of the store by its id', inputSchema: { type: 'object' } }));
    const found = lintAll(many);
    expect(found.filter((f) => f.code === 'lint-failed')).toEqual([]);
    const collisions = found.filter((f) => f.code === 'description-collision');
    expect(collisions.length).toBe(601);
    for (const f of collisions.slice(0, -1)) expect(f.message.match(/\(\d\.\d\d\)/g)).toHaveLength(3);
  });
});
