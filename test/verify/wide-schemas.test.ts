/**
 * The gate on an object with thousands of properties. Without `allErrors`, ajv nests each property's check
 * inside the one before; past some 2,000 properties V8 runs out of stack parsing that code, at compile time or
 * (lazily) at every call. Every call then threw, the gate read "throws" on both sides for every instance, so a
 * rewrite that changes a verdict was accepted (nothing was compared) and a correct one took minutes (2,000
 * properties referencing a first one, inlined: 110 s). The gate now judges such a schema with a twin compiled
 * with `allErrors` (checks in a row, the same verdicts). Verdicts expected here are written by hand.
 */
import { describe, expect, it } from 'vitest';
import { AjvPool, builtinTransforms, transformTools, verifyTool } from '../../src/index.js';
import { runBounded } from '../helpers/bounded.js';

const WIDE = 2500;

function wide(edit?: (props: Record<string, unknown>) => void): { name: string; description: string; inputSchema: Record<string, unknown> } {
  const properties: Record<string, unknown> = { p0: { type: 'string' } };
  for (let i = 1; i <= WIDE; i++) properties[`p${i}`] = { type: 'string' };
  edit?.(properties);
  return { name: 'wide', description: 'A tool with many arguments', inputSchema: { type: 'object', properties } };
}

describe('the gate on an object with 2,500 properties', () => {
  it('compiles it and judges instances (valid, invalid) as written by hand', () => {
    const pool = new AjvPool();
    const c = pool.compile(wide().inputSchema, '2020-12');
    expect(c.ok).toBe(true);
    if (!c.ok) return;
    expect(pool.judge(c.validate, { p1: 'x', p2500: 'y' })).toBe(true);
    expect(pool.judge(c.validate, { p1: 7 })).toBe(false);
    expect(pool.judge(c.validate, { p2500: null })).toBe(false);
    expect(pool.judge(c.validate, {})).toBe(true);
  });

  it('rejects a rewrite that changes a verdict deep in the list (it was accepted: both sides threw)', () => {
    const before = wide();
    const after = wide((p) => {
      p.p2400 = { type: 'integer' };
    });
    const failure = verifyTool(before, after, { level: 'verdicts', safety: 'lossless' });
    expect(failure?.check).toBe('verdict');
  });

  it('accepts an equivalent rewrite (a property given as a reference to an equal one)', () => {
    const before = wide();
    const after = wide((p) => {
      p.p2400 = { $ref: '#/properties/p0' };
    });
    expect(verifyTool(before, after, { level: 'verdicts', safety: 'lossless' })).toBeUndefined();
  });

  it('a schema whose validation really recurses without end still reads "throws" on both sides (the same verdict)', () => {
    const pool = new AjvPool();
    const c = pool.compile({ allOf: [{ $ref: '#' }] }, '2020-12');
    expect(c.ok).toBe(true);
    if (c.ok) expect(pool.judge(c.validate, { a: 1 })).toBe('throws');
  });

  it('inline-small-refs with the gate on: 2,500 properties referencing a first one are inlined, with verdicts compared', () => {
    const step = builtinTransforms.find((t) => t.name === 'inline-small-refs')!;
    const tool = wide((p) => {
      for (let i = 1; i <= WIDE; i++) p[`p${i}`] = { $ref: '#/properties/p0' };
    });
    const r = transformTools([tool], { transforms: [step], verify: 'verdicts' } as never);
    expect(r.report.skipped).toEqual([]);
    expect(JSON.stringify(r.tools[0])).not.toContain('$ref');
    expect(r.report.changes.length).toBe(WIDE);
  });
});

// The tests' timeouts are the guard: ajv nests a test per name of a `dependentRequired` list in its plain code
// (1,000 names 0.45 s to compile, 2,500 four seconds and then out of stack), so the gate spent 13 s on a list
// of 3,000 names before comparing anything, and 50 s and 3.6 GB on 20,000 (whose code even the twin cannot build).
describe('the gate on a dependentRequired list of thousands of names', () => {
  const names = (n: number) => Array.from({ length: n }, (_, i) => `p${i}`);
  const schemaWith = (n: number, s: unknown = { type: 'string' }) => ({ type: 'object', properties: { s }, required: ['trigger'], dependentRequired: { trigger: names(n) } });

  it('3,000 names: compiled, judged as written by hand, and a changed verdict caught', () => {
    const pool = new AjvPool();
    const c = pool.compile(schemaWith(3000), '2020-12');
    expect(c.ok).toBe(true);
    if (!c.ok) return;
    const all = Object.fromEntries(names(3000).map((n) => [n, 1]));
    expect(pool.judge(c.validate, { trigger: 1, ...all })).toBe(true);
    const { p2999: _last, ...allButLast } = all;
    expect(pool.judge(c.validate, { trigger: 1, ...allButLast })).toBe(false);
    expect(pool.judge(c.validate, { p1: 1 })).toBe(false);
    // A rewrite that drops `required: ["trigger"]`: `{}` is valid after, and the gate says so.
    const { required: _dropped, ...loose } = schemaWith(3000);
    expect(verifyTool({ name: 'dep', inputSchema: schemaWith(3000) }, { name: 'dep', inputSchema: loose }, { level: 'verdicts' })).toMatchObject({ check: 'verdict' });
  });

  it('20,000 names: not compiled, with the reason, at once (and so not held to compiling after a rewrite)', () => {
    const c = new AjvPool().compile(schemaWith(20_000), '2020-12');
    expect(c.ok).toBe(false);
    if (c.ok) return;
    expect(c.error).toMatch(/20000 names/);
    expect(verifyTool({ name: 'dep', inputSchema: schemaWith(20_000) }, { name: 'dep', inputSchema: schemaWith(20_000, { type: 'integer' }) }, { level: 'verdicts' })).toBeUndefined();
  });
});

// ajv nests the code of a `oneOf`'s branches one inside the next, with `allErrors` or without: past some 1,500
// branches V8 runs out of stack parsing it, lazily, at every call (1.5–1.8 s each), so the gate spent 190 s
// judging 160 instances of a 1,700-branch schema, all "throws" on both sides. It is not run now, with the reason.
describe('a `oneOf` whose code nests too deep for V8 to parse', () => {
  const schema = (n: number) => ({ type: 'object', properties: { u: { oneOf: Array.from({ length: n }, (_, i) => ({ type: 'object', properties: { k: { const: i } }, required: ['k'] })) } } });

  it('1,700 branches: not compiled, with the reason, and the gate ends at once', () => {
    const c = new AjvPool().compile(schema(1700), '2020-12');
    expect(c.ok).toBe(false);
    expect(c.ok ? '' : c.error).toMatch(/^ajv's code for it nests 1,?7\d\d blocks deep/);
    // A rewrite under `verdicts` (a draft-07 stamp dropped): bounded (test/helpers/bounded.ts), 190 s before.
    const tool = { name: 'wide_one_of', description: 'x', inputSchema: { $schema: 'http://json-schema.org/draft-07/schema#', ...schema(1700) } };
    const out = runBounded(() => transformTools([tool], { verify: 'verdicts' }), 120_000);
    expect(out.report.skipped).toEqual([]);
  });

  it('1,000 branches: compiled and judged as written by hand', () => {
    const pool = new AjvPool();
    const c = pool.compile(schema(1000), '2020-12');
    expect(c.ok).toBe(true);
    if (!c.ok) return;
    expect(pool.judge(c.validate, { u: { k: 999 } })).toBe(true);
    expect(pool.judge(c.validate, { u: { k: 1000 } })).toBe(false);
    expect(pool.judge(c.validate, {})).toBe(true);
  });
});
