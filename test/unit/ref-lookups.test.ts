/**
 * The lookups by name, resource and URI that reference resolution asks (schema/refs.ts) answer what the
 * scans they replaced answered: the first match in document order (`list.find`), or every match in order
 * (`list.filter`), also for names and URIs declared more than once, on lists shorter than the scan limit
 * (scanned) and longer (a table). Oracle: the scans, written here.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findAnchor, findAnchorsNamed, findResourceAt, findResourceNamed, type AnchorSite, type RefInventory, type ResourceSite } from '../../src/schema/refs.js';

const name = fc.constantFrom('a', 'b', 'c', '', '__proto__', 'constructor', 'a\u0000b');
const pointer = fc.constantFrom('', '/$defs/R', '/$defs/S', '/$defs/R/$defs/T', '/$defs/a\u0000b');
const uri = fc.option(fc.constantFrom('https://ex.example/a', 'https://ex.example/b', 'urn:x', 'toolslim-root://document/'), { nil: undefined });

const anchor = fc.record({ name, resource: pointer, keyword: fc.constantFrom('$anchor', '$dynamicAnchor', '$id') }).map(
  (a): AnchorSite => ({ ...a, path: '', dynamic: a.keyword === '$dynamicAnchor' }),
);
const resource = fc.record({ path: pointer, uri }).map((r): ResourceSite => ({ ...r, id: r.uri ?? 'x' }));

describe('anchor and resource lookups', () => {
  it('answer what the scans answered, the first in document order winning (fixed seed)', () => {
    fc.assert(
      fc.property(fc.array(anchor, { maxLength: 40 }), fc.array(resource, { maxLength: 40 }), (anchors, resources) => {
        // Each site distinct by its place in the list, so `toBe` tells which duplicate was found.
        anchors = anchors.map((a, i) => ({ ...a, path: '/' + i }));
        resources = resources.map((r, i) => ({ ...r, id: String(i) }));
        const inventory: RefInventory = { refs: [], anchors, resources, rootUri: undefined };
        for (let round = 0; round < 2; round++) {
          // The second round reads the tables the first built.
          for (const n of ['a', 'b', 'c', '', '__proto__', 'constructor', 'a\u0000b', 'missing']) {
            expect(findAnchorsNamed(inventory, n)).toEqual(anchors.filter((a) => a.name === n));
            for (const r of ['', '/$defs/R', '/$defs/S', '/$defs/R/$defs/T', '/$defs/a\u0000b', '/$defs/a']) {
              expect(findAnchor(inventory, r, n)).toBe(anchors.find((a) => a.name === n && a.resource === r));
            }
          }
          for (const p of ['', '/$defs/R', '/$defs/S', '/$defs/R/$defs/T', '/$defs/a\u0000b', '/nowhere']) expect(findResourceAt(inventory, p)).toBe(resources.find((r) => r.path === p));
          for (const u of ['https://ex.example/a', 'https://ex.example/b', 'urn:x', 'toolslim-root://document/', 'https://ex.example/c']) expect(findResourceNamed(inventory, u)).toBe(resources.find((r) => r.uri === u));
        }
      }),
      { seed: 20_000, numRuns: 400 },
    );
  });

  it('read a list again once it has grown', () => {
    const anchors: AnchorSite[] = Array.from({ length: 20 }, (_, i) => ({ path: '/' + i, name: 'n' + i, keyword: '$anchor', resource: '', dynamic: false }));
    const inventory: RefInventory = { refs: [], anchors, resources: [], rootUri: undefined };
    expect(findAnchor(inventory, '', 'late')).toBeUndefined();
    anchors.push({ path: '/late', name: 'late', keyword: '$anchor', resource: '', dynamic: false });
    expect(findAnchor(inventory, '', 'late')?.path).toBe('/late');
  });
});
