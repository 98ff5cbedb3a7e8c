/**
 * adapt-to-client's inline step asks, for each definition, which references take effect inside it; that is
 * now answered from runs of the references sorted by pointer, and the definition entry of each node is carried
 * from its parent (both were readings of every reference or path per question: quadratic). Oracles: the filter
 * `liveSites` replaced, and a recursive walk written here for the definition entries.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { liveSites } from '../../src/transforms/adapt-to-client/steps/inline-refs.js';
import { indexNodes } from '../../src/transforms/adapt-to-client/nodes.js';
import type { RefSite } from '../../src/schema/refs.js';

const within = (path: string, ancestor: string) => ancestor === '' || path === ancestor || path.startsWith(ancestor + '/');

describe('the references live in a subtree', () => {
  it('are those the filter over every reference finds, in the same order (fixed seed)', () => {
    const pointer = fc.array(fc.constantFrom('$defs', 'a', 'a-x', 'b', 'properties', '0', 'items'), { maxLength: 5 }).map((ts) => ts.map((t) => '/' + t).join(''));
    fc.assert(
      fc.property(fc.array(pointer, { maxLength: 14 }), fc.array(fc.tuple(pointer, fc.option(pointer, { nil: undefined })), { maxLength: 14 }), fc.array(pointer, { minLength: 1, maxLength: 8 }), (paths, entries, roots) => {
        const sites = paths.map((schemaPath) => ({ schemaPath }) as unknown as RefSite);
        const info = new Map(entries.map(([path, defEntry]) => [path, { defEntry }]));
        const live = liveSites(sites, info);
        for (const root of ['', ...roots, ...roots]) {
          const want = sites.filter((s) => {
            if (!within(s.schemaPath, root)) return false;
            const entry = info.get(s.schemaPath)?.defEntry;
            return entry === undefined || within(root, entry);
          });
          expect(live(root), root).toEqual(want);
        }
      }),
      { seed: 7171, numRuns: 500 },
    );
  });
});

describe('indexNodes: the nearest enclosing definition entry of every node', () => {
  it('matches a recursive walk, shared subschemas included', () => {
    const shared = { type: 'object', properties: { s: { type: 'string' } } };
    const schema = {
      type: 'object',
      properties: { a: shared, b: { $ref: '#/$defs/d' } },
      $defs: { d: { type: 'object', properties: { x: shared, y: { items: { type: 'number' } } }, $defs: { e: { anyOf: [shared, true] } } } },
    };
    const want = new Map<string, string | undefined>();
    const visit = (node: unknown, path: string, entry: string | undefined): void => {
      want.set(path, entry);
      if (typeof node !== 'object' || node === null) return;
      const n = node as Record<string, unknown>;
      for (const [k, v] of Object.entries(n)) {
        if (k === 'properties' || k === '$defs') for (const [name, child] of Object.entries(v as object)) visit(child, `${path}/${k}/${name}`, k === '$defs' ? `${path}/${k}/${name}` : entry);
        else if (k === 'items') visit(v, `${path}/items`, entry);
        else if (k === 'anyOf') (v as unknown[]).forEach((child, i) => visit(child, `${path}/anyOf/${i}`, entry));
      }
    };
    visit(schema, '', undefined);
    const got = indexNodes(schema);
    expect(new Map([...got].map(([p, i]) => [p, i.defEntry]))).toEqual(want);
  });
});
