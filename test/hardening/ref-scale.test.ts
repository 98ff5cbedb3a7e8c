/**
 * Reference resolution at scale: 20,000 references to 20,000 anchors, and to 20,000 embedded `$id` resources.
 * Each `$ref` to an anchor read every anchor of the schema, and each `$ref` to an `$id` every resource (and
 * hoist-nested-defs read every resource per nested container), so these documents took seconds each and four
 * times as long per doubling (prune-unreachable-defs on 20,000 anchors: 4.6 s; lintTools: 5.4 s; hoisting
 * beside 20,000 resources: 40 s); they now take a fraction of a second.
 *
 * No timed assertion here (a test that asserts timings fails on a loaded machine): what is asserted is the
 * result, computed by hand, including which declaration wins when a name or URI is declared twice (the first
 * in document order, as the scan found it). The times are measured by the repro in the commit that made the
 * lookups tables.
 */
import { describe, expect, it } from 'vitest';
import { collectRefInventory, generateProbeInstances, lintTools, lookup, pruneUnreachableDefs as prune, RefIndex, resolveRefSite, transformTools } from '../../src/index.js';

const N = 20_000;
const range = (n: number) => Array.from({ length: n }, (_, i) => i);
const entries = <T>(n: number, f: (i: number) => readonly [string, T]) => Object.fromEntries(range(n).map(f));

type Schema = Record<string, unknown>;

/**
 * `p<i>` → `#a<i>` for every i; `$defs`: `Dup` (declaring `a7` again, first in document order), `D<i>` with
 * `$anchor: a<i>`, an embedded resource `R` with its own `a1` and a reference to it, then ten unreferenced
 * definitions and ten anchored but unreferenced ones; and one reference to an anchor nobody declares.
 */
function anchors(keyword = '$anchor', dialect?: string, container = '$defs'): Schema {
  const declare = (name: string) => (keyword === '$id' ? { $id: '#' + name } : { [keyword]: name });
  return {
    ...(dialect === undefined ? {} : { $schema: dialect }),
    type: 'object',
    properties: { ...entries(N, (i) => ['p' + i, { $ref: '#a' + i }]), dangling: { $ref: '#nope' } },
    [container]: {
      Dup: { ...declare('a7'), type: 'number' },
      ...entries(N, (i) => ['D' + i, { ...declare('a' + i), type: 'string' }]),
      R: { $id: 'https://ex.example/r', properties: { q: { $ref: '#a1' } }, [container]: { In: { ...declare('a1'), type: 'boolean' } } },
      ...entries(10, (i) => ['U' + i, { type: 'null' }]),
      ...entries(10, (i) => ['X' + i, { ...declare('x' + i), type: 'null' }]),
    },
  };
}

/**
 * `p<i>` → `https://ex.example/d<i>`; `$defs`: `DupId` (also `d7`, first in document order), `D<i>` with that
 * `$id`, ten unreferenced definitions; and one reference to an absolute URI no resource has.
 */
function ids(): Schema {
  return {
    type: 'object',
    properties: { ...entries(N, (i) => ['p' + i, { $ref: 'https://ex.example/d' + i }]), gone: { $ref: 'https://ex.example/missing' } },
    $defs: {
      DupId: { $id: 'https://ex.example/d7', type: 'number' },
      ...entries(N, (i) => ['D' + i, { $id: 'https://ex.example/d' + i, type: 'string', properties: { next: { $ref: 'd' + ((i + 1) % N) } } }]),
      ...entries(10, (i) => ['U' + i, { type: 'null' }]),
    },
  };
}

const tool = (inputSchema: Schema) => [{ name: 't', description: 'd', inputSchema }];

/** Where each reference at `paths` resolves (its target's pointer, or the status). */
function targets(schema: Schema, dialect: Parameters<typeof collectRefInventory>[1], paths: readonly string[]): string[] {
  const inventory = collectRefInventory(schema, dialect);
  const byPath = new Map(inventory.refs.map((s) => [s.path, s]));
  return paths.map((p) => {
    const r = resolveRefSite(schema, inventory, byPath.get(p)!);
    return r.status === 'resolved' ? r.path : r.status;
  });
}

const unreferenced = (container = '$defs') => [...range(10).map((i) => `/0/inputSchema/${container}/U${i}`), ...range(10).map((i) => `/0/inputSchema/${container}/X${i}`)];

describe('20,000 references to 20,000 anchors', () => {
  const schema = anchors();

  it('resolve to the first declaration of each name in their resource, in document order', () => {
    expect(targets(schema, '2020-12', ['/properties/p0/$ref', '/properties/p7/$ref', '/properties/p1/$ref', `/properties/p${N - 1}/$ref`, '/$defs/R/properties/q/$ref', '/properties/dangling/$ref'])).toEqual([
      '/$defs/D0',
      '/$defs/Dup', // `a7` is declared by Dup before D7
      '/$defs/D1', // R's own `a1` is in another resource
      `/$defs/D${N - 1}`,
      '/$defs/R/$defs/In', // within R, R's `a1`
      'unresolved',
    ]);
    const index = new RefIndex(schema, '2020-12');
    expect(index.unresolved.map((u) => [u.site.path, u.reason])).toEqual([['/properties/dangling/$ref', 'no anchor `nope`']]);
  });

  it('prune-unreachable-defs keeps every referenced definition (both holders of a7) and removes the others', () => {
    const r = prune(tool(schema));
    expect(r.report.changes.map((c) => [c.op, c.path])).toEqual(unreferenced().map((p) => ['remove', p]));
    expect(Object.keys((r.tools[0]!.inputSchema as Schema).$defs as object)).toEqual(['Dup', ...range(N).map((i) => 'D' + i), 'R']);
  });

  it('lintTools finds only the dangling reference unresolved, and only the unreferenced definitions unreachable', () => {
    const findings = lintTools(tool(schema));
    expect(findings.filter((f) => f.code === 'unresolved-ref').map((f) => f.path)).toEqual(['/0/inputSchema/properties/dangling/$ref']);
    expect(findings.filter((f) => f.code === 'unreachable-def').map((f) => f.path)).toEqual(unreferenced());
  });

  it('lintTools reports each of 20,000 dangling references with the same hint, naming the definitions', () => {
    const dangling: Schema = { type: 'object', properties: entries(N, (i) => ['p' + i, { $ref: '#zz' + i }]), $defs: entries(N, (i) => ['D' + i, { $anchor: 'a' + i }]) };
    const found = lintTools(tool(dangling)).filter((f) => f.code === 'unresolved-ref');
    expect(found.map((f) => f.path)).toEqual(range(N).map((i) => `/0/inputSchema/properties/p${i}/$ref`));
    expect(found[N - 1]!.message).toBe(`\`$ref\` \`#zz${N - 1}\` cannot be resolved: no anchor \`zz${N - 1}\`; \`#/$defs\` holds \`D0\`, \`D1\`, \`D2\`, \`D3\`, \`D4\` and ${N - 5} more: point it at one of them, or add the one it names`);
  });

  it('the default call prunes the same definitions and leaves every reference resolving', () => {
    const r = transformTools(tool(schema));
    expect(r.report.changes.filter((c) => c.transform === 'prune-unreachable-defs').map((c) => c.path)).toEqual(unreferenced());
    const out = lintTools(r.tools);
    expect(out.filter((f) => f.code === 'unresolved-ref').map((f) => f.path)).toEqual(['/0/inputSchema/properties/dangling/$ref']);
  });

  it.each([
    ['$dynamicAnchor', 'https://json-schema.org/draft/2020-12/schema', '2020-12', '$defs'],
    ['$id', 'http://json-schema.org/draft-07/schema#', 'draft-07', 'definitions'],
  ] as const)('%s anchors (%s) resolve the same way', (keyword, uri, dialect, container) => {
    const s = anchors(keyword, uri, container);
    expect(targets(s, dialect, ['/properties/p7/$ref', '/properties/p8/$ref', `/${container}/R/properties/q/$ref`])).toEqual([`/${container}/Dup`, `/${container}/D8`, `/${container}/R/${container}/In`]);
    expect(prune(tool(s)).report.changes.map((c) => c.path)).toEqual(unreferenced(container));
    expect(lintTools(tool(s)).filter((f) => f.code === 'unresolved-ref').map((f) => f.path)).toEqual(['/0/inputSchema/properties/dangling/$ref']);
  });
});

describe('20,000 references to 20,000 embedded resources', () => {
  const schema = ids();

  it('resolve to the first resource with each URI, in document order; relative ones against their resource', () => {
    expect(targets(schema, '2020-12', ['/properties/p0/$ref', '/properties/p7/$ref', `/properties/p${N - 1}/$ref`, '/$defs/D6/properties/next/$ref', `/$defs/D${N - 1}/properties/next/$ref`, '/properties/gone/$ref'])).toEqual([
      '/$defs/D0',
      '/$defs/DupId', // `d7` is DupId's too, declared first
      `/$defs/D${N - 1}`,
      '/$defs/DupId', // D6's `d7`
      '/$defs/D0',
      'external',
    ]);
  });

  it('lintTools reports only the URI no resource has, as external', () => {
    const findings = lintTools(tool(schema));
    expect(findings.filter((f) => f.code === 'unresolved-ref')).toEqual([]);
    expect(findings.filter((f) => f.code === 'external-ref').map((f) => f.path)).toEqual(['/0/inputSchema/properties/gone/$ref']);
    expect(findings.filter((f) => f.code === 'unreachable-def').map((f) => f.path)).toEqual(range(10).map((i) => `/0/inputSchema/$defs/U${i}`));
  });

  it('reconcile-dialect leaves the document as it is', () => {
    const reconciled = transformTools(tool(schema), { transforms: [lookup('reconcile-dialect')], verify: false });
    expect(reconciled.report.changes).toEqual([]);
    expect(reconciled.report.diagnostics).toEqual([]);
  });

  it('the default call removes only the unreferenced definitions', () => {
    const r = transformTools(tool(schema));
    expect(r.report.changes.map((c) => [c.op, c.path])).toEqual(range(10).map((i) => ['remove', `/0/inputSchema/$defs/U${i}`]));
  });

  it('reconcile-dialect leaves every draft-07 tuple holding a resource a reference uses, naming the first such resource in document order', () => {
    // 5,000 tuples (20,000 resources, 10,000 references). Tuple i holds resources at items/2, items/10 and
    // items/12/properties/{b,a}; p<i> and q<i> name two of them: items/10 and items/2 for even i, a and b
    // for odd i. The first in document order is reported.
    const N = 5_000;
    const base = (i: number) => `https://ex.example/t${i}/`;
    const s: Schema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: {
        ...entries(N, (i) => ['t' + i, { type: 'array', items: [...range(12).map((k) => (k === 2 || k === 10 ? { $id: base(i) + k } : {})), { properties: { b: { $id: base(i) + 'b' }, a: { $id: base(i) + 'a' } } }] }]),
        ...entries(N, (i) => ['p' + i, { $ref: base(i) + (i % 2 === 0 ? '10' : 'a') }]),
        ...entries(N, (i) => ['q' + i, { $ref: base(i) + (i % 2 === 0 ? '2' : 'b') }]),
      },
    };
    const r = transformTools(tool(s), { transforms: [['reconcile-dialect', { target: '2020-12' }]], verify: false });
    expect(r.report.changes).toEqual([]);
    expect(r.report.diagnostics.filter((d) => d.code === 'tuple-id').map((d) => d.path)).toEqual(range(N).map((i) => `/0/inputSchema/properties/t${i}/items/${i % 2 === 0 ? '2' : '12/properties/b'}/$id`));
  });

  it('hoist-nested-defs leaves each resource’s definitions in the innermost resource holding them', () => {
    const s: Schema = {
      type: 'object',
      properties: entries(N, (i) => ['p' + i, { $ref: 'https://ex.example/d' + i }]),
      $defs: {
        ...entries(N, (i) => ['D' + i, { $id: 'https://ex.example/d' + i, properties: { x: { $ref: '#/$defs/X' } }, $defs: { X: { type: 'string' } } }]),
        Outer: { $id: 'https://ex.example/outer', $defs: { Inner: { $id: 'inner', $defs: { Y: { type: 'string' } } } } },
        Plain: { $defs: { Z: { type: 'string' } } },
      },
    };
    const r = transformTools(tool(s), { transforms: [lookup('hoist-nested-defs')], verify: false });
    const left = r.report.diagnostics.filter((d) => d.code === 'left-in-resource').map((d) => d.path + ' in ' + d.message.match(/resource at `([^`]*)`/)![1]);
    expect(left).toEqual([
      // The message names the resource within the tool, from the slot.
      ...range(N).map((i) => `/0/inputSchema/$defs/D${i}/$defs in /inputSchema/$defs/D${i}`),
      '/0/inputSchema/$defs/Outer/$defs in /inputSchema/$defs/Outer',
      '/0/inputSchema/$defs/Outer/$defs/Inner/$defs in /inputSchema/$defs/Outer/$defs/Inner',
    ]);
    expect(r.report.changes.filter((c) => c.code === 'hoisted-definition').map((c) => [c.from, c.path])).toEqual([['/0/inputSchema/$defs/Plain/$defs/Z', '/0/inputSchema/$defs/Plain__Z']]);
  });
});

describe('probe instances routed through 4,000 references', () => {
  // `p<i>` → `#/$defs/D<i>`; `D<i>`: an object whose `v` is an integer of at least i. A probe site inside a
  // definition is reached through the reference that names it: every `$ref`'s target was resolved again for
  // every site (4,000 sites: 20 s; 2,000: 5.4 s).
  const n = 4_000;
  const schema = {
    type: 'object',
    properties: entries(n, (i) => ['p' + i, { $ref: `#/$defs/D${i}` }]),
    $defs: entries(n, (i) => ['D' + i, { type: 'object', properties: { v: { type: 'integer', minimum: i } } }]),
  };

  it('place each site’s candidates under the property whose reference leads to it', () => {
    const sites = range(n).map((i) => ({ path: `/$defs/D${i}/properties/v`, values: ['probe'] }));
    const { values } = generateProbeInstances(schema, { sites, perSite: 1, max: 3 * n });
    // Per site: its own candidate, the site's value, and null, each at p<i>.v and nowhere else.
    for (const i of [0, 1, 1234, n - 1]) {
      const at = values.filter((v) => Object.keys(v as object).join() === 'p' + i).map((v) => (v as Record<string, { v: unknown }>)['p' + i]!.v);
      expect(at).toContain('probe');
      expect(at).toContain(null);
      expect(at.some((x) => Number.isInteger(x) && (x as number) >= i)).toBe(true);
    }
    expect(values.every((v) => Object.keys(v as object).length === 1)).toBe(true);
  });
});
