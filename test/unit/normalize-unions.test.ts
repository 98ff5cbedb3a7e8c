/**
 * normalize-unions from the reader's side: what the `typescript` reader shows before and after (texts
 * written by hand from harmony's rules, docs/render.md), that the verify gate accepts every rewrite at
 * `verdicts`, that input is never mutated and output is byte-deterministic, and that the profile plan
 * reaches its fixed point. The rewrites' verdicts are checked in test/jsts-normalize-unions.test.ts and the
 * fixtures (test/fixtures/normalize-unions/).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findAnyTypes, getRenderer, normalizeUnions, presetForProfile, transformTools, type McpTool } from '../../src/index.js';
import { anyOfAsOneOf, branchesDisjoint, constAsEnum, splitNullableType } from '../../src/schema/readable-types.js';
import { deepFreeze } from '../helpers/freeze.js';

const fixture = (name: string) => JSON.parse(readFileSync(join(import.meta.dirname, '../fixtures/normalize-unions/01-readable-forms', name), 'utf8')) as McpTool[];

describe('what the typescript reader sees', () => {
  it('each rewritten parameter reads as a type (hand-written harmony text)', () => {
    const out = normalizeUnions(deepFreeze(fixture('input.json'))).tools[0]!;
    const text = getRenderer('typescript').renderTool(out);
    expect(text).toContain('to:\n | string\n | string[]\n,\n');
    expect(text).toContain('pos?:\n | "top" | "bottom"\n | number\n,\n');
    expect(text).toContain('units?:\n | "metric"\n | "imperial"\n,\n');
    expect(text).toContain('kind?: "workspace",\n');
    expect(text).toContain('// A link, or null for none\nlink?:\n | {\n   url: string,\n   }\n | null\n,\n');
    expect(text).toContain('tags?:\n | string[]\n | null\n,\n');
    expect(text).toContain('value?:\n | string\n | number\n | boolean\n | null\n,\n');
  });
  it('takes the fixture from nine `any`s to two (the enum-only branches of `pick`, which say no `type`)', () => {
    const input = fixture('input.json');
    expect(findAnyTypes(input[0]!.inputSchema).map((a) => a.reason)).toEqual(['anyOf', 'anyOf', 'anyOf', 'const', 'nullable-object', 'nullable-array', 'anyOf', 'anyOf', 'anyOf']);
    const out = normalizeUnions(input).tools[0]!;
    expect(findAnyTypes(out.inputSchema)).toEqual([
      { path: '/properties/pick/oneOf/0', reason: 'enum' },
      { path: '/properties/pick/oneOf/1', reason: 'enum' },
    ]);
  });
});

describe('the rules on one object (hand-written before/after)', () => {
  it('anyOf → oneOf only for provably disjoint branches', () => {
    expect(anyOfAsOneOf({ description: 'd', anyOf: [{ type: 'string' }, { type: 'null' }] }, '2020-12')).toEqual({ ok: true, schema: { description: 'd', oneOf: [{ type: 'string' }, { type: ['null'] }] } });
    expect(branchesDisjoint([{ type: 'integer' }, { type: 'number' }], '2020-12')).toBe(false);
    expect(branchesDisjoint([{ type: ['string', 'integer'] }, { type: 'boolean' }, false], '2020-12')).toBe(true);
    expect(branchesDisjoint([{ const: 1 }, { type: 'number', minimum: 5 }], '2020-12')).toBe(false);
    expect(branchesDisjoint([{ const: 'a' }, { type: 'number' }], '2020-12')).toBe(true);
    expect(branchesDisjoint([{ enum: [1, 'a'] }, { enum: ['b', 2] }], '2020-12')).toBe(true);
    expect(branchesDisjoint([{ enum: [{ a: 1, b: 2 }] }, { enum: [{ b: 2, a: 1 }] }], '2020-12')).toBe(false);
    expect(branchesDisjoint([{ type: 'string', $ref: '#/$defs/S' }, { type: 'number' }], '2020-12')).toBe(false);
    expect(branchesDisjoint([{ type: 'string', nullable: true }, { type: 'null' }], '2020-12')).toBe(false);
    expect(branchesDisjoint([true, { type: 'null' }], '2020-12')).toBe(false);
    // `const` is no keyword of draft-04: the branch may be anything there.
    expect(branchesDisjoint([{ const: 'a' }, { const: 'b' }], 'draft-04')).toBe(false);
    expect(anyOfAsOneOf({ anyOf: [{ type: 'string' }, { type: 'number' }], discriminator: {} }, '2020-12').ok).toBe(false);
  });
  it('a nullable object splits: object keywords into the branch, the rest stay', () => {
    const holder = { title: 'T', type: ['null', 'object'], properties: { a: {} }, enum: [null, { a: 1 }], minProperties: 1, default: null };
    expect(splitNullableType(holder, '2020-12')).toEqual({ ok: true, schema: { title: 'T', oneOf: [{ type: 'object', properties: { a: {} }, minProperties: 1 }, { type: ['null'] }], enum: [null, { a: 1 }], default: null } });
    // `if` stays and `then` would stay too; `additionalProperties` moves with `properties`: a split group is refused.
    expect(splitNullableType({ type: ['object', 'null'], properties: { a: {} }, unevaluatedProperties: false }, '2020-12').ok).toBe(false);
    expect(splitNullableType({ type: ['object', 'null'], properties: { a: {} }, $ref: '#/$defs/A' }, '2020-12').ok).toBe(false);
    expect(splitNullableType({ type: ['object', 'string', 'null'], properties: { a: {} } }, '2020-12').ok).toBe(false);
    expect(splitNullableType({ type: ['array', 'null'] }, '2020-12').ok).toBe(false);
  });
  it('a string const becomes a one-value enum, typed when it was not', () => {
    expect(constAsEnum({ description: 'd', const: 'x', default: 'x' }, '2020-12')).toEqual({ ok: true, schema: { description: 'd', type: 'string', enum: ['x'], default: 'x' } });
    expect(constAsEnum({ type: 'string', const: 'x' }, 'draft-07')).toEqual({ ok: true, schema: { type: 'string', enum: ['x'] } });
    expect(constAsEnum({ type: ['string', 'null'], const: 'x' }, '2020-12').ok).toBe(false);
    expect(constAsEnum({ const: true }, '2020-12').ok).toBe(false);
    expect(constAsEnum({ const: 'x' }, 'draft-04').ok).toBe(false);
  });
});

describe('as a transform', () => {
  it('the verify gate accepts every rewrite at `verdicts` (it compiles them and compares instances)', () => {
    const r = transformTools(fixture('input.json'), { transforms: [normalizeUnions], verify: 'verdicts', onError: 'throw' });
    expect(r.report.skipped).toEqual([]);
    expect(r.report.changes.length).toBe(11);
    expect(r.report.stats.verify).toMatchObject({ level: 'verdicts', failed: 0 });
  });
  it('never mutates its input and writes the same bytes every time', () => {
    const input = deepFreeze(fixture('input.json'));
    const a = JSON.stringify(normalizeUnions(input).tools);
    const b = JSON.stringify(normalizeUnions(input).tools);
    expect(a).toBe(b);
    expect(a).toBe(JSON.stringify(fixture('output.json')));
  });
  it('leaves outputSchema alone (clients do not forward it)', () => {
    const schema = { type: 'object', properties: { a: { anyOf: [{ type: 'string' }, { type: 'number' }] } } };
    const r = normalizeUnions([{ name: 't', inputSchema: { type: 'object' }, outputSchema: schema }]);
    expect(r.tools[0]!.outputSchema).toEqual(schema);
  });
});

describe("presetForProfile(…, 'openai') reaches its fixed point", () => {
  it('on the fixture and on the bundled corpus: a second run of the plan changes nothing', () => {
    const dir = join(import.meta.dirname, '../../bench/corpus');
    const files = ['brave__brave-search-mcp-server.json', 'notionhq__notion-mcp-server@2.5.2.json', 'openapi-mcp-generator--notion-spec.json', 'wonderwhy-er__desktop-commander.json'];
    const lists = [fixture('input.json'), ...files.map((f) => {
      const d = JSON.parse(readFileSync(join(dir, f), 'utf8')) as { toolsList?: { tools?: McpTool[] }; tools?: McpTool[] };
      return d.toolsList?.tools ?? d.tools ?? [];
    })];
    for (const tools of lists) {
      const steps = presetForProfile('safe', 'openai');
      const once = transformTools(deepFreeze(tools), { transforms: steps });
      const twice = transformTools(once.tools, { transforms: steps });
      expect(twice.report.changes).toEqual([]);
    }
  });
});
