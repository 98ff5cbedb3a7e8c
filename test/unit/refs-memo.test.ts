import { describe, expect, it } from 'vitest';
import { collectRefInventory, refIndexOf, refInventoryOf, SchemaAnalysis, withAnalysis } from '../../src/schema/refs.js';
import { transformTools } from '../../src/index.js';

// The pipeline remembers each schema object's `$ref` inventory for the length of one run. These tests
// make sure the memory never outlives the run: a caller may edit its own tools between two calls.

const schemaWithDefs = () => ({
  type: 'object',
  properties: { a: { $ref: '#/$defs/A' } },
  $defs: { A: { type: 'string' }, B: { type: 'number' } },
});

describe('ref inventory memo', () => {
  it('outside a run, every call walks the schema afresh', () => {
    const s = schemaWithDefs();
    expect(refInventoryOf(s, '2020-12').refs.map((r) => r.ref)).toEqual(['#/$defs/A']);
    (s.properties as Record<string, unknown>).b = { $ref: '#/$defs/B' };
    expect(refInventoryOf(s, '2020-12').refs.map((r) => r.ref)).toEqual(['#/$defs/A', '#/$defs/B']);
  });

  it('inside a scope, a second call for the same object returns the first answer; the scope ends with the call', () => {
    const s = schemaWithDefs();
    const first = withAnalysis(new SchemaAnalysis(), () => {
      const a = refInventoryOf(s, '2020-12');
      expect(refInventoryOf(s, '2020-12')).toBe(a);
      // Another dialect is another question.
      expect(refInventoryOf(s, 'draft-07')).not.toBe(a);
      return a;
    });
    expect(refInventoryOf(s, '2020-12')).not.toBe(first);
    expect(refInventoryOf(s, '2020-12')).toEqual(collectRefInventory(s, '2020-12'));
  });

  it('a nested scope does not leak into the outer one', () => {
    const s = schemaWithDefs();
    withAnalysis(new SchemaAnalysis(), () => {
      const outer = refInventoryOf(s, '2020-12');
      withAnalysis(new SchemaAnalysis(), () => expect(refInventoryOf(s, '2020-12')).not.toBe(outer));
      expect(refInventoryOf(s, '2020-12')).toBe(outer);
    });
  });

  it('resolves each reference of an index once, in inventory order, and lists the broken ones', () => {
    const s = { ...schemaWithDefs(), not: { $ref: '#/$defs/Missing' } };
    const index = withAnalysis(new SchemaAnalysis(), () => refIndexOf(s, '2020-12'));
    expect(index.resolutions).toBe(index.resolutions);
    expect(index.resolutions.map((r) => r.status)).toEqual(['resolved', 'unresolved']);
    expect(index.resolution(index.inventory.refs[0]!)).toBe(index.resolutions[0]);
    expect(index.unresolved.map((u) => u.site.ref)).toEqual(['#/$defs/Missing']);
  });

  it('a caller that edits its tools between two runs gets the second run right', () => {
    const schema = schemaWithDefs();
    const tools = [{ name: 't', inputSchema: schema }];
    const once = transformTools(tools, { verify: false });
    // B was unreachable: pruned.
    expect(Object.keys((once.tools[0]!.inputSchema as { $defs: object }).$defs)).toEqual(['A']);
    // Now B is used: the same schema object, edited in place by its owner.
    (schema.properties as Record<string, unknown>).b = { $ref: '#/$defs/B' };
    const twice = transformTools(tools, { verify: false });
    expect(Object.keys((twice.tools[0]!.inputSchema as { $defs: object }).$defs)).toEqual(['A', 'B']);
    expect(twice.report.changes.some((c) => c.code === 'removed')).toBe(false);
  });
});
