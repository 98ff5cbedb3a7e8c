/**
 * strip-vendor-extensions beyond its fixtures: the gate proves a removal annotation-only without ajv (an
 * extension keyword counts as an annotation there), yet still catches a removal a `$ref` depends on; the
 * default preset carries it; options are checked.
 */
import { describe, expect, it } from 'vitest';
import { AjvPool, presetSafe, stripNoise, stripVendorExtensions, transformTools, verifyTool, type McpTool } from '../../src/index.js';
import { deepFreeze } from '../helpers/freeze.js';

const converted: McpTool = deepFreeze({
  name: 'get-user',
  inputSchema: {
    type: 'object',
    properties: { user_id: { type: 'string', format: 'uuid', 'x-parameter-location': 'path' } },
    required: ['user_id'],
    'x-content-type': 'application/json',
  },
});

describe('the gate', () => {
  it('proves an extension removal without compiling anything', () => {
    const { tools } = stripVendorExtensions([converted]);
    expect(JSON.stringify(tools[0])).not.toContain('x-');
    const pool = new AjvPool();
    expect(verifyTool(converted, tools[0]!, { safety: 'annotation', level: 'verdicts', pool })).toBeUndefined();
    expect(pool.compiled).toBe(0);
  });

  it('still compiles when something other than an annotation changed', () => {
    const after = { ...converted, inputSchema: { ...(converted.inputSchema as object), required: [] } } as McpTool;
    const pool = new AjvPool();
    expect(verifyTool(converted, after, { safety: 'annotation', level: 'verdicts', pool })).toBeDefined();
    expect(pool.compiled).toBeGreaterThan(0);
  });

  const refInto: McpTool = deepFreeze({
    name: 'refs',
    inputSchema: { type: 'object', 'x-defs': { A: { type: 'string', minLength: 2 } }, properties: { a: { $ref: '#/x-defs/A' } } },
  });

  it('fails a removal of an extension a $ref points into', () => {
    const after = { ...refInto, inputSchema: { type: 'object', properties: { a: { $ref: '#/x-defs/A' } } } } as McpTool;
    expect(verifyTool(refInto, after, { safety: 'annotation', level: 'structural' })).toMatchObject({ check: 'compile' });
  });

  it('fails a change inside an extension a $ref points into', () => {
    const after = { ...refInto, inputSchema: { type: 'object', 'x-defs': { A: { type: 'integer' } }, properties: { a: { $ref: '#/x-defs/A' } } } } as McpTool;
    expect(verifyTool(refInto, after, { safety: 'annotation', level: 'verdicts' })).toMatchObject({ check: 'verdict' });
  });

  it('the transform itself leaves such an extension in place', () => {
    const { tools, report } = stripVendorExtensions([refInto]);
    expect(tools[0]).toBe(refInto);
    expect(report.diagnostics.map((d) => [d.code, d.path])).toEqual([['kept-ref-target', '/0/inputSchema/x-defs']]);
  });
});

describe('references that land in an extension', () => {
  // The transform looks for reference keywords before it builds a document's `$ref` index: each place a
  // reference can sit must still keep its target.
  const tool = (inputSchema: object) => deepFreeze({ name: 't', inputSchema }) as McpTool;
  it.each([
    ['a `$ref` in a schema', { type: 'object', 'x-a': { type: 'string' }, properties: { p: { $ref: '#/x-a' } } }],
    ['a `$dynamicRef`', { type: 'object', 'x-a': { type: 'string' }, properties: { p: { $dynamicRef: '#/x-a' } } }],
    ['a `$ref`-shaped value in data', { type: 'object', 'x-a': { type: 'string' }, default: { $ref: '#/x-a' } }],
    ['a `$ref` key in a map of subschemas', { type: 'object', 'x-a': { type: 'string' }, properties: { $ref: '#/x-a' } }],
  ])('%s keeps it', (_name, schema) => {
    const { tools, report } = stripVendorExtensions([tool(schema)]);
    expect(report.diagnostics.map((d) => [d.code, d.path])).toEqual([['kept-ref-target', '/0/inputSchema/x-a']]);
    expect(report.changes).toEqual([]);
    expect(tools[0]!.inputSchema).toEqual(schema);
  });

  it('without any reference keyword every extension goes', () => {
    const { tools, report } = stripVendorExtensions([tool({ type: 'object', 'x-a': { type: 'string' }, properties: { p: { type: 'string', 'x-b': { ref: '#/x-a' } } } })]);
    expect(report.changes.map((c) => c.path)).toEqual(['/0/inputSchema/x-a', '/0/inputSchema/properties/p/x-b']);
    expect(tools[0]!.inputSchema).toEqual({ type: 'object', properties: { p: { type: 'string' } } });
  });
});

describe('in the default preset', () => {
  it('runs right after strip-noise', () => {
    const i = presetSafe.steps.indexOf(stripNoise);
    expect(presetSafe.steps[i + 1]).toBe(stripVendorExtensions);
  });

  it('removes converter extensions from the default call and names them in the report', () => {
    const { tools, report } = transformTools([converted]);
    expect(tools[0]!.inputSchema).toEqual({ type: 'object', properties: { user_id: { type: 'string', format: 'uuid' } }, required: ['user_id'] });
    expect(report.changes.filter((c) => c.transform === 'strip-vendor-extensions').map((c) => c.message)).toEqual([
      'Removed the vendor extension `x-content-type`: an unknown keyword is an annotation no validator reads',
      'Removed the vendor extension `x-parameter-location`: an unknown keyword is an annotation no validator reads',
    ]);
    expect(report.skipped).toEqual([]);
  });
});

describe('options', () => {
  it('rejects keep entries that are not extension keywords', () => {
    expect(() => stripVendorExtensions([converted], { keep: ['description'] })).toThrow(/`keep` must list extension keywords/);
    expect(() => stripVendorExtensions([converted], { keep: 'x-a' as never })).toThrow(/`keep`/);
  });

  it('keeps x-mcp-header even when keep lists other names', () => {
    const tool = deepFreeze({ name: 't', inputSchema: { type: 'object', properties: { r: { type: 'string', 'x-mcp-header': 'Region', 'x-a': 1, 'x-b': 2 } } } });
    const { tools } = stripVendorExtensions([tool], { keep: ['x-a'] });
    expect(tools[0]!.inputSchema).toEqual({ type: 'object', properties: { r: { type: 'string', 'x-mcp-header': 'Region', 'x-a': 1 } } });
  });

  // The test a keep list makes is shared by every run with the same names (made once per process, not per
  // run): lists that differ, even only by a name that holds the character a joined key would use, get their own.
  it('gives each keep list its own answer, run after run', () => {
    const tool = deepFreeze({ name: 't', inputSchema: { type: 'object', 'x-a': 1, 'x-b': 2, 'x-a\u0000x-b': 3 } });
    const strip = (keep: string[]) => Object.keys(stripVendorExtensions([tool], { keep }).tools[0]!.inputSchema as object);
    for (let run = 0; run < 2; run++) {
      expect(strip(['x-a', 'x-b'])).toEqual(['type', 'x-a', 'x-b']);
      expect(strip(['x-a\u0000x-b'])).toEqual(['type', 'x-a\u0000x-b']);
      expect(strip(['x-b', 'x-a'])).toEqual(['type', 'x-a', 'x-b']);
      expect(strip([])).toEqual(['type']);
      expect(strip(['x-mcp-header'])).toEqual(['type']);
    }
  });
});
