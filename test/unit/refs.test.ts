import { describe, expect, it } from 'vitest';
import { collectRefInventory, findUnresolvedRefs, resolveRefSite, type RefInventory, type RefResolution } from '../../src/index.js';

/** What these tests pin down of a resolution: status and target (or reason/uri), not helper fields. */
function outcome(r: RefResolution): Record<string, unknown> {
  if (r.status === 'resolved') return { status: r.status, path: r.path };
  if (r.status === 'external') return { status: r.status, uri: r.uri };
  return { status: r.status, reason: r.reason };
}

/** Inventory order is discovery order (data is scanned when its owner is visited); compare by path. */
function byPath<T extends readonly unknown[]>(rows: T[]): T[] {
  return [...rows].sort((a, b) => (String(a[0]) < String(b[0]) ? -1 : 1));
}

function resolveAll(schema: object, dialect: Parameters<typeof collectRefInventory>[1] = '2020-12'): Record<string, Record<string, unknown>> {
  const inv = collectRefInventory(schema, dialect);
  return Object.fromEntries(inv.refs.map((site) => [site.path, outcome(resolveRefSite(schema, inv, site))]));
}

describe('collectRefInventory', () => {
  const schema = {
    $id: 'https://example.com/root.json',
    properties: {
      a: { $ref: '#/$defs/A' },
      b: { items: [{ $dynamicRef: '#meta' }], default: { deep: [{ $ref: '#/$defs/FromData' }] } },
      c: { 'x-ext': { $ref: 'ext.json' } },
    },
    $defs: {
      A: { $anchor: 'anchorA', $ref: '#/$defs/B' },
      B: { $dynamicAnchor: 'meta' },
      R: { $id: 'sub/r.json', $defs: { In: { $anchor: 'inner' } }, properties: { q: { $ref: '#/$defs/In' } } },
      Old: { $id: '#legacy' },
    },
  };
  const inv: RefInventory = collectRefInventory(schema, '2020-12');

  it('lists every reference with where it is and whether it sits in a schema position', () => {
    expect(byPath(inv.refs.map((r) => [r.path, r.schemaPath, r.keyword, r.ref, r.inSchema, r.resource]))).toEqual(byPath([
      ['/properties/a/$ref', '/properties/a', '$ref', '#/$defs/A', true, ''],
      ['/properties/b/items/0/$dynamicRef', '/properties/b/items/0', '$dynamicRef', '#meta', true, ''],
      ['/properties/b/default/deep/0/$ref', '/properties/b/default/deep/0', '$ref', '#/$defs/FromData', false, ''],
      ['/properties/c/x-ext/$ref', '/properties/c/x-ext', '$ref', 'ext.json', false, ''],
      ['/$defs/A/$ref', '/$defs/A', '$ref', '#/$defs/B', true, ''],
      ['/$defs/R/properties/q/$ref', '/$defs/R/properties/q', '$ref', '#/$defs/In', true, '/$defs/R'],
    ]));
  });

  it('lists anchors (plain, dynamic, draft-07 `$id: "#…"`) with their resource', () => {
    expect(inv.anchors.map((a) => [a.path, a.name, a.keyword, a.resource, a.dynamic])).toEqual([
      ['/$defs/A', 'anchorA', '$anchor', '', false],
      ['/$defs/B', 'meta', '$dynamicAnchor', '', true],
      ['/$defs/R/$defs/In', 'inner', '$anchor', '/$defs/R', false],
      ['/$defs/Old', 'legacy', '$id', '', false],
    ]);
  });

  it('lists embedded resources with their id resolved against the enclosing one', () => {
    expect(inv.rootUri).toBe('https://example.com/root.json');
    expect(inv.resources).toEqual([{ path: '/$defs/R', id: 'sub/r.json', uri: 'https://example.com/sub/r.json' }]);
  });

  it('reads `id` in draft-04, `$id` elsewhere', () => {
    const s = { id: 'http://x.example/a.json', definitions: { D: { id: 'd.json' }, E: { $id: 'e.json' } } };
    const d4 = collectRefInventory(s, 'draft-04');
    expect(d4.rootUri).toBe('http://x.example/a.json');
    expect(d4.resources.map((r) => r.uri)).toEqual(['http://x.example/d.json']);
    const d7 = collectRefInventory(s, 'draft-07');
    expect(d7.rootUri).toBeUndefined();
    expect(d7.resources.map((r) => r.id)).toEqual(['e.json']);
  });

  it('never reads a keyword through the prototype chain or from a `__proto__` member as a keyword', () => {
    const s = JSON.parse('{"properties":{"__proto__":{"$ref":"#/$defs/P"}},"__proto__":{"$ref":"#/$defs/Q"},"$defs":{"P":{},"Q":{}}}');
    const refs = collectRefInventory(s, '2020-12').refs.map((r) => [r.path, r.inSchema]);
    // The root `__proto__` member is an unknown keyword (data): its `$ref`-shaped value counts as data.
    expect(byPath(refs)).toEqual([
      ['/__proto__/$ref', false],
      ['/properties/__proto__/$ref', true],
    ]);
    expect(({} as Record<string, unknown>).$ref).toBeUndefined();
  });
});

describe('resolveRefSite', () => {
  it('pointers, anchors, embedded resources by URI and relative to themselves', () => {
    const schema = {
      $id: 'https://example.com/root.json',
      properties: {
        p: { $ref: '#/$defs/A' },
        q: { $ref: '#anchorA' },
        r: { $ref: 'sub/r.json' },
        s: { $ref: 'https://example.com/sub/r.json#/$defs/In' },
        t: { $ref: 'sub/r.json#inner' },
        u: { $ref: 'root.json#/$defs/A' },
        v: { $ref: '#/$defs/Missing' },
        w: { $ref: '#nope' },
      },
      $defs: {
        A: { $anchor: 'anchorA' },
        R: { $id: 'sub/r.json', $defs: { In: { $anchor: 'inner' } }, items: { $ref: '#/$defs/In' } },
      },
    };
    expect(resolveAll(schema)).toEqual({
      '/properties/p/$ref': { status: 'resolved', path: '/$defs/A' },
      '/properties/q/$ref': { status: 'resolved', path: '/$defs/A' },
      '/properties/r/$ref': { status: 'resolved', path: '/$defs/R' },
      '/properties/s/$ref': { status: 'resolved', path: '/$defs/R/$defs/In' },
      '/properties/t/$ref': { status: 'resolved', path: '/$defs/R/$defs/In' },
      '/properties/u/$ref': { status: 'resolved', path: '/$defs/A' },
      '/properties/v/$ref': { status: 'unresolved', reason: expect.stringContaining('Missing') },
      '/properties/w/$ref': { status: 'unresolved', reason: expect.stringContaining('nope') },
      '/$defs/R/items/$ref': { status: 'resolved', path: '/$defs/R/$defs/In' },
    });
  });

  it('external documents are never fetched; a relative one in a document without `$id` is undecidable', () => {
    expect(resolveAll({ properties: { a: { $ref: 'https://elsewhere.example/x.json#/a' }, b: { $ref: 'other.json' }, c: { $ref: '' } } })).toEqual({
      '/properties/a/$ref': { status: 'external', uri: 'https://elsewhere.example/x.json' },
      '/properties/b/$ref': { status: 'undecidable', reason: expect.stringContaining('other.json') },
      '/properties/c/$ref': { status: 'resolved', path: '' },
    });
    expect(resolveAll({ $id: 'https://example.com/a/root.json', properties: { b: { $ref: 'other.json' } } })).toEqual({
      '/properties/b/$ref': { status: 'external', uri: 'https://example.com/a/other.json' },
    });
  });

  it('a relative embedded `$id` in a document without `$id` still resolves within the document', () => {
    expect(resolveAll({ properties: { a: { $ref: 'thing.json' } }, $defs: { T: { $id: 'thing.json' } } })).toEqual({
      '/properties/a/$ref': { status: 'resolved', path: '/$defs/T' },
    });
  });

  it('escaped and percent-encoded pointers resolve to the escaped path', () => {
    const schema = JSON.parse('{"properties":{"a":{"$ref":"#/$defs/a~1b%20c"}},"$defs":{"a/b c":{}}}');
    expect(resolveAll(schema)['/properties/a/$ref']).toEqual({ status: 'resolved', path: '/$defs/a~1b c' });
  });

  it('malformed references are undecidable', () => {
    expect(resolveAll({ properties: { a: { $ref: '#/%zz' } } })['/properties/a/$ref']!.status).toBe('undecidable');
  });

  it('`$recursiveRef` resolves to its resource root', () => {
    expect(resolveAll({ $defs: { R: { $id: 'r.json', items: { $recursiveRef: '#' } } } })).toEqual({ '/$defs/R/items/$recursiveRef': { status: 'resolved', path: '/$defs/R' } });
  });
});

describe('findUnresolvedRefs', () => {
  it('lists broken and undecidable references in schema positions only', () => {
    const schema = {
      properties: { ok: { $ref: '#/$defs/A' }, broken: { $ref: '#/$defs/Gone' }, rel: { $ref: 'x.json' }, ext: { $ref: 'https://e.example/x' }, data: { default: { $ref: '#/$defs/Gone' } } },
      $defs: { A: {} },
    };
    expect(findUnresolvedRefs(schema, '2020-12').map((u) => u.site.path)).toEqual(['/properties/broken/$ref', '/properties/rel/$ref']);
  });
});

describe('mislabelled id keywords', () => {
  it('a plain-name `$id: "#x"` in a draft-04 document (or `id: "#x"` elsewhere) is still an anchor', () => {
    const d4 = { $schema: 'http://json-schema.org/draft-04/schema#', properties: { a: { $ref: '#x' } }, definitions: { X: { $id: '#x' } } };
    const inv = collectRefInventory(d4, 'draft-04');
    expect(inv.anchors.map((a) => [a.path, a.name, a.keyword])).toEqual([['/definitions/X', 'x', '$id']]);
    expect(outcome(resolveRefSite(d4, inv, inv.refs[0]!))).toEqual({ status: 'resolved', path: '/definitions/X' });
    const d7 = collectRefInventory({ definitions: { Y: { id: '#y' } } }, 'draft-07');
    expect(d7.anchors.map((a) => [a.name, a.keyword])).toEqual([['y', 'id']]);
  });
});
