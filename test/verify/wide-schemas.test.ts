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
