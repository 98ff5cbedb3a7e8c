/**
 * `renders-as-any` (issue 27, item 4): one finding per parameter the typescript reader cannot see the
 * type of, with why and a fix. The cases are written by hand from the harmony rules (a schema without
 * `type` is `any`; `oneOf` is a union; a string enum needs `type: "string"`; a type list holding `object`
 * writes the bare word).
 */
import { describe, expect, it } from 'vitest';
import { lintTools } from '../../src/lint/index.js';
import { rendersAsAny, rendersAsAnyFor } from '../../src/lint/rules/renders-as-any.js';
import { runMain } from '../cli/helpers.js';
import { tempDir } from '../helpers/temp.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const tool = (properties: Record<string, unknown>) => ({ name: 't', description: 'd', inputSchema: { type: 'object', properties } });

const CASES: [name: string, schema: unknown, why: RegExp, fix: RegExp][] = [
  ['ref', { $ref: '#/$defs/A' }, /a `\$ref`/, /inline the definition/],
  ['anyOf', { anyOf: [{ type: 'string' }, { type: 'null' }] }, /`anyOf` without `type`/, /type: \[X, "null"\]/],
  ['allOf', { allOf: [{ type: 'string' }] }, /`allOf` without `type`/, /merge the branches/],
  ['const', { const: 'x' }, /`const` without `type`/, /write the `type`/],
  ['enum', { enum: ['a', 'b'] }, /a string `enum` without `type`/, /add `type: "string"`/],
  ['number-enum', { enum: [1, 2] }, /an `enum` of non-strings without `type`/, /add the `type`/],
  ['no-type', { description: 'anything' }, /no `type`/, /add a `type`/],
  ['nullable-object', { type: ['object', 'null'], properties: { a: { type: 'string' } } }, /writes the word `object` and hides the properties/, /oneOf/],
];

describe('renders-as-any', () => {
  it.each(CASES)('%s: names the parameter, the reason and a fix', (name, schema, why, fix) => {
    const found = rendersAsAny([tool({ [name]: schema })], {});
    expect(found.map((f) => [f.code, f.severity, f.path, f.tool])).toEqual([['renders-as-any', 'warning', `/0/inputSchema/properties/${name}`, 't']]);
    expect(found[0]!.message).toMatch(why);
    expect(found[0]!.message).toMatch(fix);
    expect(found[0]!.message).toContain(`\`/properties/${name}\` renders as \`any\` for a TypeScript reader`);
  });

  it('finds nothing where the reader sees every type: typed schemas, oneOf unions, nullable scalars', () => {
    const ok = tool({
      s: { type: 'string', enum: ['a'] },
      n: { type: ['string', 'null'] },
      u: { oneOf: [{ type: 'string' }, { type: 'number' }] },
      o: { type: 'object', properties: { x: { type: 'integer' } } },
      a: { type: 'array', items: { type: 'boolean' } },
    });
    expect(rendersAsAny([ok], {})).toEqual([]);
  });

  it('finds nested places, in tool order, and skips what is not a tool', () => {
    const nested = tool({ outer: { type: 'object', properties: { inner: { $ref: '#/$defs/X' } } }, list: { type: 'array', items: { const: 1 } } });
    expect(rendersAsAny([null, nested], {}).map((f) => f.path)).toEqual(['/1/inputSchema/properties/outer/properties/inner', '/1/inputSchema/properties/list/items']);
  });

  it('runs through lintTools as a check, under the severity overrides', () => {
    const tools = [tool({ r: { $ref: '#/$defs/R' } })];
    (tools[0]!.inputSchema as Record<string, unknown>).$defs = { R: { type: 'string' } };
    expect(lintTools(tools, { checks: [rendersAsAny] }).filter((f) => f.code === 'renders-as-any').map((f) => f.severity)).toEqual(['warning']);
    expect(lintTools(tools, { checks: [rendersAsAny], severity: { 'renders-as-any': 'error' } }).filter((f) => f.code === 'renders-as-any').map((f) => f.severity)).toEqual(['error']);
    expect(lintTools(tools, { checks: [rendersAsAny], severity: { 'renders-as-any': 'off' } }).filter((f) => f.code === 'renders-as-any')).toEqual([]);
  });

  it('for a client that refuses `oneOf` (openai-strict), the fix is never `oneOf`: the same findings, a fix it can take', () => {
    // openai-strict's API answers "'oneOf' is not permitted"; its own nullable forms (a type list with
    // `array`, `anyOf` with null) are what strict mode asks for, so the only fix left is words.
    const t = tool({
      list: { type: ['array', 'null'], items: { type: 'string' } },
      obj: { type: ['object', 'null'], properties: { a: { type: 'string' } } },
      opt: { anyOf: [{ type: 'object', properties: { a: { type: 'string' } } }, { type: 'null' }] },
      ref: { $ref: '#/$defs/A' },
    });
    const plain = rendersAsAny([t], {});
    const strict = rendersAsAnyFor({ oneOfRejected: true })([t], {});
    expect(strict.map((f) => f.path)).toEqual(plain.map((f) => f.path));
    expect(plain.map((f) => f.path)).toEqual(['list', 'obj', 'opt', 'ref'].map((n) => `/0/inputSchema/properties/${n}`));
    for (const f of strict.slice(0, 3)) {
      expect(f.message).toMatch(/it refuses `oneOf`, the one union this reader shows/);
      expect(f.message).toMatch(/in the description$/);
      expect(f.message).not.toMatch(/write `oneOf/);
    }
    // A nullable scalar keeps the fix strict mode takes (a type list, which the reader shows as `X | null`).
    expect(strict[2]!.message).toMatch(/for a nullable scalar X write `type: \[X, "null"\]`/);
    for (const f of plain.slice(0, 3)) expect(f.message).toMatch(/oneOf/);
    expect(strict[3]!.message).toBe(plain[3]!.message);
    expect(rendersAsAnyFor()([t], {})).toEqual(plain);
  });

  it('check --profile openai-strict gives the fix strict mode can take; check --profile openai the oneOf one', async () => {
    const file = join(tempDir('toolslim-any-'), 'tools.json');
    writeFileSync(file, JSON.stringify({ tools: [{ name: 't', description: 'd', inputSchema: { type: 'object', properties: { list: { type: ['array', 'null'], items: { type: 'string' }, description: 'x' } }, required: ['list'], additionalProperties: false } }] }));
    const strict = await runMain(['check', file, '--profile', 'openai-strict', '--format', 'json']);
    const open = await runMain(['check', file, '--profile', 'openai', '--format', 'json']);
    const messages = (out: string) => (JSON.parse(out).findings as { code: string; message: string }[]).filter((f) => f.code === 'renders-as-any').map((f) => f.message);
    expect(messages(strict.stdout)).toHaveLength(1);
    expect(messages(strict.stdout)[0]).toMatch(/refuses `oneOf`/);
    expect(messages(open.stdout)).toHaveLength(1);
    expect(messages(open.stdout)[0]).toMatch(/write `oneOf: \[\{ type: "array"/);
  });
});

