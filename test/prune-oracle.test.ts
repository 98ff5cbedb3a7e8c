/**
 * prune-unreachable-defs against an independent oracle.
 *
 * The oracle below shares no code with the library (no walkSchema, no refs.ts, no pointer.ts): it scans
 * the raw JSON for every `$ref`/`$dynamicRef` string, whatever the keyword it sits under, maps fragment
 * references `#/$defs/X/...` and `#/definitions/X/...` (percent- and `~`-decoded) and anchors (`#name`)
 * to root definition names, and computes the fixpoint from the references outside the definitions.
 *
 * The oracle's conservative assumptions, and where the library deliberately differs:
 * - A fragment pointer is read both as RFC 6901 §6 says (percent-decode the fragment, then split on `/`)
 *   and as ajv does (split first, then percent-decode each token): a reader could use either, so both
 *   targets are needed.
 * - A definition holding an embedded `$id` (not `#…`) can be named by URI from outside: it is a root.
 * - A malformed fragment (bad percent-escape, `~` not followed by 0/1) that is reached means "keep all".
 * - References with a URI part (`other.json#/…`, `https://…`) are not modelled: the oracle treats them as
 *   naming no definition, so where they occur the comparison is "library keeps at least the oracle's set"
 *   (the library resolves them against `$id`s, or keeps everything when it cannot decide).
 * - The library only reads anchors in schema positions and `$ref`s in schema positions or objects inside
 *   data; the oracle reads them anywhere. The generators never put an anchor inside data, so on the
 *   generated graphs and the corpus both must agree exactly.
 * The library must never keep LESS than the oracle.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pruneUnreachableDefs } from '../src/index.js';
import { loadCorpus } from './helpers/corpus.js';
import { deepFreeze, jsonClone } from './helpers/freeze.js';

// ---------------------------------------------------------------------------------------------------
// The oracle
// ---------------------------------------------------------------------------------------------------

const CONTAINERS = ['$defs', 'definitions'];

type Oracle = { kind: 'names'; names: Set<string>; uriRefs: number } | { kind: 'all'; why: string };

const key = (container: string, name: string) => `${container}\u0000${name}`;

function plainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function own(o: object, k: string): boolean {
  return Object.prototype.hasOwnProperty.call(o, k);
}

/** Every definition name of the document's root containers. */
function allDefs(schema: Record<string, unknown>): Set<string> {
  const out = new Set<string>();
  for (const c of CONTAINERS) {
    const defs = own(schema, c) ? schema[c] : undefined;
    if (plainObject(defs)) for (const n of Object.keys(defs)) out.add(key(c, n));
  }
  return out;
}

function unescapeToken(t: string): string | undefined {
  if (/~[^01]|~$/.test(t)) return undefined;
  return t.split('~1').join('/').split('~0').join('~');
}

function decode(s: string): string | undefined {
  try {
    return decodeURIComponent(s);
  } catch {
    return undefined;
  }
}

function oracle(schema: Record<string, unknown>, keep: readonly string[] = []): Oracle {
  const defs = allDefs(schema);
  const refs: { owner: string | undefined; ref: string }[] = [];
  const anchors: { owner: string | undefined; name: string }[] = [];
  const roots: string[] = [];
  // 1. A plain scan of the JSON (explicit stack): tokens of every object, every string under a ref key.
  const stack: [unknown, string[]][] = [[schema, []]];
  while (stack.length > 0) {
    const [value, tokens] = stack.pop()!;
    if (Array.isArray(value)) {
      value.forEach((v, i) => stack.push([v, [...tokens, String(i)]]));
      continue;
    }
    if (!plainObject(value)) continue;
    const owner = tokens.length >= 2 && CONTAINERS.includes(tokens[0]!) && defs.has(key(tokens[0]!, tokens[1]!)) ? key(tokens[0]!, tokens[1]!) : undefined;
    for (const k of Object.keys(value)) {
      const v = value[k];
      if (typeof v === 'string') {
        if (k === '$ref' || k === '$dynamicRef') refs.push({ owner, ref: v });
        if (k === '$anchor' || k === '$dynamicAnchor') anchors.push({ owner, name: v });
        if (k === '$id' && v.startsWith('#') && v.length > 1) anchors.push({ owner, name: decode(v.slice(1)) ?? v.slice(1) });
        if (k === '$id' && !v.startsWith('#') && owner !== undefined) roots.push(owner);
      }
      stack.push([v, [...tokens, k]]);
    }
  }
  // 2. What one reference names.
  let uriRefs = 0;
  const targets = (ref: string): string[] | 'all' => {
    if (!ref.startsWith('#')) {
      if (ref !== '') uriRefs++;
      return [];
    }
    const fragment = ref.slice(1);
    const out: string[] = [];
    const fromTokens = (tokens: readonly string[]) => {
      const c = tokens[0];
      if (c === undefined || !CONTAINERS.includes(c)) return;
      if (tokens.length === 1) {
        for (const d of defs) if (d.startsWith(c + '\u0000')) out.push(d);
      } else if (defs.has(key(c, tokens[1]!))) out.push(key(c, tokens[1]!));
    };
    // RFC 6901 §6: percent-decode the fragment, then split.
    const decoded = decode(fragment);
    if (decoded === undefined) return 'all';
    if (decoded.startsWith('/')) {
      const tokens = decoded.slice(1).split('/').map(unescapeToken);
      if (tokens.some((t) => t === undefined)) return 'all';
      fromTokens(tokens as string[]);
      // ajv: split the raw fragment, then percent-decode each token.
      const raw = fragment.slice(1).split('/').map((t) => decode(t));
      if (raw.some((t) => t === undefined)) return 'all';
      const ajvTokens = (raw as string[]).map(unescapeToken);
      if (ajvTokens.some((t) => t === undefined)) return 'all';
      fromTokens(ajvTokens as string[]);
    } else if (decoded !== '') {
      for (const a of anchors) if (a.name === decoded && a.owner !== undefined) out.push(a.owner);
    }
    return out;
  };
  // 3. The fixpoint.
  const reached = new Set<string>();
  const queue: string[] = [];
  const reach = (d: string) => {
    if (reached.has(d)) return;
    reached.add(d);
    for (const r of refs) if (r.owner === d) queue.push(r.ref);
  };
  for (const r of refs) if (r.owner === undefined) queue.push(r.ref);
  for (const d of roots) reach(d);
  for (const name of keep) for (const c of CONTAINERS) if (defs.has(key(c, name))) reach(key(c, name));
  while (queue.length > 0) {
    const t = targets(queue.pop()!);
    if (t === 'all') return { kind: 'all', why: 'a reached reference is malformed' };
    for (const d of t) reach(d);
  }
  return { kind: 'names', names: reached, uriRefs };
}

// ---------------------------------------------------------------------------------------------------
// Running the library and comparing
// ---------------------------------------------------------------------------------------------------

interface Outcome {
  readonly kept: Set<string>;
  readonly undecidable: boolean;
  readonly skipped: number;
}

function runLibrary(schema: Record<string, unknown>, keep: readonly string[] = []): Outcome {
  const input = deepFreeze(jsonClone([{ name: 't', inputSchema: schema }]));
  const { tools, report } = pruneUnreachableDefs(input, keep.length > 0 ? { keep } : {});
  const out = tools[0]!.inputSchema as Record<string, unknown>;
  return {
    kept: allDefs(out),
    undecidable: report.diagnostics.some((d) => d.code === 'undecidable'),
    skipped: report.skipped.length,
  };
}

/** Asserts the library agrees with the oracle (exactly, or as a superset where the oracle is blind). */
function check(schema: Record<string, unknown>, keep: readonly string[] = [], label = ''): void {
  const want = oracle(schema, keep);
  const got = runLibrary(schema, keep);
  const all = allDefs(schema);
  expect(got.skipped, `${label}: the tool was skipped (a post-condition failed)`).toBe(0);
  if (want.kind === 'all') {
    expect(sorted(got.kept), `${label}: ${want.why}, so every definition must stay`).toEqual(sorted(all));
    return;
  }
  for (const d of want.names) expect(got.kept.has(d), `${label}: library removed \`${d.replace('\u0000', '/')}\`, which the oracle reaches`).toBe(true);
  if (want.uriRefs === 0) expect(sorted(got.kept), `${label}: library kept more than the oracle`).toEqual(sorted(want.names));
}

function sorted(s: Set<string>): string[] {
  return [...s].sort();
}

/** Sets an own property (so `__proto__` is data). */
function put(o: Record<string, unknown>, k: string, v: unknown): Record<string, unknown> {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  return o;
}

function ref(container: string, name: string, suffix = ''): { $ref: string } {
  return { $ref: `#/${container}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}${suffix}` };
}

// ---------------------------------------------------------------------------------------------------
// Hand-built graphs: every keyword, every reference form
// ---------------------------------------------------------------------------------------------------

/** Wraps a reference in one keyword position (every applicator of draft-07 and 2020-12). */
const PLACEMENTS: Record<string, (r: object) => Record<string, unknown>> = {
  direct: (r) => ({ ...r }),
  properties: (r) => ({ properties: { p: r } }),
  anyOf: (r) => ({ anyOf: [{ type: 'string' }, r] }),
  oneOf: (r) => ({ oneOf: [r, { type: 'number' }] }),
  allOf: (r) => ({ allOf: [r] }),
  itemsSchema: (r) => ({ items: r }),
  itemsArray: (r) => ({ items: [{}, r] }),
  prefixItems: (r) => ({ prefixItems: [{}, r] }),
  additionalItems: (r) => ({ items: [{}], additionalItems: r }),
  additionalProperties: (r) => ({ additionalProperties: r }),
  patternProperties: (r) => ({ patternProperties: { '^x': r } }),
  not: (r) => ({ not: r }),
  if: (r) => ({ if: r }),
  then: (r) => ({ if: { type: 'object' }, then: r }),
  else: (r) => ({ if: { type: 'object' }, else: r }),
  dependentSchemas: (r) => ({ dependentSchemas: { a: r } }),
  dependenciesSchema: (r) => ({ dependencies: { a: r, b: ['a'] } }),
  contains: (r) => ({ contains: r }),
  propertyNames: (r) => ({ propertyNames: r }),
  unevaluatedProperties: (r) => ({ unevaluatedProperties: r }),
  unevaluatedItems: (r) => ({ unevaluatedItems: r }),
  contentSchema: (r) => ({ contentMediaType: 'application/json', contentSchema: r }),
  nestedDefs: (r) => ({ $defs: { inner: r } }),
  nestedDefinitions: (r) => ({ definitions: { inner: r } }),
  default: (r) => ({ default: r }),
  enum: (r) => ({ enum: [1, r] }),
  const: (r) => ({ const: { deep: [r] } }),
  examples: (r) => ({ examples: [r] }),
  unknownKeyword: (r) => ({ 'x-extra': { nested: r } }),
  unknownKeyword2: (r) => ({ someUnknownKeyword: [r] }),
};

describe('hand-built graphs', () => {
  it.each(Object.keys(PLACEMENTS))('a reference under `%s` keeps its target, from the root and from a reached definition', (p) => {
    const wrap = PLACEMENTS[p]!;
    const schema = {
      type: 'object',
      properties: { a: wrap(ref('$defs', 'A')) },
      $defs: { A: wrap(ref('$defs', 'B')), B: { type: 'string' }, Unused: wrap(ref('$defs', 'AlsoUnused')), AlsoUnused: { type: 'null' } },
    };
    check(schema, [], p);
    expect(sorted(runLibrary(schema).kept)).toEqual([key('$defs', 'A'), key('$defs', 'B')]);
  });

  it('cycles, mutual recursion and an unreachable cycle', () => {
    const schema = {
      $ref: '#/definitions/Tree',
      definitions: {
        Tree: { properties: { kids: { items: ref('definitions', 'Tree') }, forest: ref('definitions', 'Forest') } },
        Forest: { items: ref('definitions', 'Tree') },
        Even: { not: ref('definitions', 'Odd') },
        Odd: { not: ref('definitions', 'Even') },
        Self: { anyOf: [ref('definitions', 'Self')] },
      },
    };
    check(schema);
    expect(sorted(runLibrary(schema).kept)).toEqual([key('definitions', 'Forest'), key('definitions', 'Tree')]);
  });

  it('both containers at once, references across them', () => {
    const schema = {
      properties: { x: ref('$defs', 'X') },
      $defs: { X: ref('definitions', 'Y'), Dead: {} },
      definitions: { Y: ref('$defs', 'Z'), Dead: {} },
    };
    put(schema.$defs as Record<string, unknown>, 'Z', { type: 'integer' });
    check(schema);
    expect(sorted(runLibrary(schema).kept)).toEqual([key('$defs', 'X'), key('$defs', 'Z'), key('definitions', 'Y')]);
  });

  it('escaped names: `~0`, `~1`, percent-encoding, non-ASCII, `__proto__`', () => {
    const defs: Record<string, unknown> = {};
    for (const n of ['a/b', 'a~b', 'a b', 'é', '__proto__', 'constructor', '50%', 'dead/one', 'x~1y']) put(defs, n, { type: 'string' });
    const schema = {
      properties: {
        slash: { $ref: '#/$defs/a~1b' },
        tilde: { $ref: '#/$defs/a~0b' },
        space: { $ref: '#/$defs/a%20b' },
        accent: { $ref: '#/$defs/%C3%A9' },
        proto: { $ref: '#/$defs/__proto__' },
        ctor: { $ref: '#/%24defs/constructor' },
        percent: { $ref: '#/$defs/50%25' },
        literal: { $ref: '#/$defs/x~01y' },
      },
      $defs: defs,
    };
    check(schema);
    const kept = runLibrary(schema).kept;
    expect(kept.has(key('$defs', 'dead/one'))).toBe(false);
    expect(kept.size).toBe(8);
  });

  it('`%2F` in a pointer: the RFC reading and ajv’s reading both keep their target', () => {
    const schema = { properties: { p: { $ref: '#/$defs/a%2Fb' } }, $defs: { a: { properties: { b: {} } }, 'a/b': { type: 'string' }, c: {} } };
    check(schema);
  });

  it('refs into a definition’s inside keep that definition', () => {
    const schema = {
      properties: {
        p: { $ref: '#/$defs/A/properties/b' },
        q: { $ref: '#/$defs/B/$defs/Inner' },
        r: { $ref: '#/definitions/C/items/0' },
        s: { $ref: '#/$defs/D/' },
      },
      $defs: { A: { properties: { b: { type: 'string' } } }, B: { $defs: { Inner: {} } }, D: {}, E: {} },
      definitions: { C: { items: [{}] }, F: {} },
    };
    check(schema);
    expect(sorted(runLibrary(schema).kept)).toEqual([key('$defs', 'A'), key('$defs', 'B'), key('$defs', 'D'), key('definitions', 'C')]);
  });

  it('a reference to a whole container keeps all of it', () => {
    const schema = { properties: { p: { $ref: '#/$defs' } }, $defs: { A: {}, B: {} }, definitions: { C: {} } };
    check(schema);
    expect(sorted(runLibrary(schema).kept)).toEqual([key('$defs', 'A'), key('$defs', 'B')]);
  });

  it('anchors, dynamic anchors and draft-07 `$id: "#name"` keep their holders', () => {
    const schema = {
      properties: { a: { $ref: '#node' }, b: { $dynamicRef: '#meta' }, c: { $ref: '#old' } },
      $defs: {
        Node: { $anchor: 'node', type: 'object' },
        Deep: { properties: { x: { $anchor: 'node' } } },
        Meta: { $dynamicAnchor: 'meta' },
        Old: { $id: '#old' },
        Other: { $anchor: 'other' },
      },
    };
    check(schema);
    expect(sorted(runLibrary(schema).kept)).toEqual([key('$defs', 'Deep'), key('$defs', 'Meta'), key('$defs', 'Node'), key('$defs', 'Old')]);
  });

  it('an embedded `$id` resource is kept, with what it references', () => {
    const schema = {
      $id: 'https://example.com/root.json',
      properties: {},
      $defs: { R: { $id: 'https://example.com/r.json', $ref: '#/$defs/S' }, S: {}, T: {} },
    };
    check(schema);
    expect(runLibrary(schema).kept.has(key('$defs', 'R'))).toBe(true);
    expect(runLibrary(schema).kept.has(key('$defs', 'T'))).toBe(false);
  });

  it('the `keep` option keeps a definition and what it references', () => {
    const schema = { properties: {}, $defs: { Kept: { items: ref('$defs', 'Needed') }, Needed: {}, Gone: {} } };
    check(schema, ['Kept']);
    expect(sorted(runLibrary(schema, ['Kept']).kept)).toEqual([key('$defs', 'Kept'), key('$defs', 'Needed')]);
  });

  it('a reached malformed reference keeps everything; an unreached one does not matter', () => {
    check({ properties: { p: { $ref: '#/$defs/%E0%A4%A' } }, $defs: { A: {}, B: {} } }, [], 'bad percent');
    check({ properties: { p: { $ref: '#/$defs/a~2' } }, $defs: { A: {}, B: {} } }, [], 'bad tilde');
    check({ properties: { p: { default: { $ref: '#/$defs/%zz' } } }, $defs: { A: {}, B: {} } }, [], 'bad percent in data');
    const schema = { properties: {}, $defs: { A: { $ref: '#/$defs/%zz' }, B: {} } };
    check(schema, [], 'unreached');
    expect(runLibrary(schema).kept.size).toBe(0);
  });
});

// ---------------------------------------------------------------------------------------------------
// Generated graphs
// ---------------------------------------------------------------------------------------------------

const NAMES = ['A', 'B', 'c', 'a/b', 'a~b', 'sp ace', 'ü', '__proto__', 'constructor', '%', '~1', 'x/y~z', ''];
const PLACEMENT_NAMES = Object.keys(PLACEMENTS);

interface Edge {
  readonly target: number;
  readonly placement: string;
  readonly form: 'plain' | 'percent' | 'dollar' | 'inner' | 'anchor' | 'dynamic';
}

interface Graph {
  readonly defs: readonly { name: string; container: string; edges: Edge[]; anchor: boolean; id: boolean }[];
  readonly rootEdges: Edge[];
  readonly keep: number[];
}

function edgeArb(n: number): fc.Arbitrary<Edge> {
  return fc.record({
    target: fc.nat({ max: n - 1 }),
    placement: fc.constantFrom(...PLACEMENT_NAMES),
    form: fc.constantFrom('plain', 'plain', 'percent', 'dollar', 'inner', 'anchor', 'dynamic'),
  });
}

const graphArb: fc.Arbitrary<Graph> = fc.integer({ min: 1, max: 10 }).chain((n) =>
  fc.record({
    defs: fc.array(
      fc.record({
        name: fc.constantFrom(...NAMES),
        container: fc.constantFrom('$defs', 'definitions'),
        edges: fc.array(edgeArb(n), { maxLength: 3 }),
        anchor: fc.boolean(),
        id: fc.nat({ max: 4 }).map((x) => x === 0),
      }),
      { minLength: n, maxLength: n },
    ),
    rootEdges: fc.array(edgeArb(n), { maxLength: 3 }),
    keep: fc.array(fc.nat({ max: n - 1 }), { maxLength: 2 }),
  }),
);

function percentAll(token: string): string {
  return [...token].map((ch) => (/[A-Za-z0-9]/.test(ch) ? ch : encodeURIComponent(ch).replace(/^[^%]/, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase()))).join('');
}

function buildSchema(g: Graph): { schema: Record<string, unknown>; keep: string[] } {
  // Unique (container, name) per index; a later duplicate gets a suffix.
  const seen = new Set<string>();
  const defs = g.defs.map((d, i) => {
    let name = d.name;
    while (seen.has(key(d.container, name))) name += `_${i}`;
    seen.add(key(d.container, name));
    return { ...d, name };
  });
  const refFor = (e: Edge): object => {
    const t = defs[e.target]!;
    const escaped = t.name.replace(/~/g, '~0').replace(/\//g, '~1');
    switch (e.form) {
      case 'percent':
        return { $ref: `#/${t.container}/${percentAll(escaped)}` };
      case 'dollar':
        return { $ref: `#/${t.container.replace('$', '%24')}/${escaped}` };
      case 'inner':
        return { $ref: `#/${t.container}/${escaped}/properties/self` };
      case 'anchor':
        return t.anchor ? { $ref: `#anchor${e.target}` } : { $ref: `#/${t.container}/${escaped}` };
      case 'dynamic':
        return t.anchor ? { $dynamicRef: `#anchor${e.target}` } : { $ref: `#/${t.container}/${escaped}` };
      default:
        return { $ref: `#/${t.container}/${escaped}` };
    }
  };
  const body = (edges: readonly Edge[]) => {
    const properties: Record<string, unknown> = {};
    edges.forEach((e, i) => put(properties, `p${i}`, PLACEMENTS[e.placement]!(refFor(e))));
    return properties;
  };
  const schema: Record<string, unknown> = { type: 'object', properties: body(g.rootEdges) };
  defs.forEach((d, i) => {
    const def: Record<string, unknown> = { properties: { self: { type: 'string' }, ...body(d.edges) } };
    if (d.anchor) def.$anchor = `anchor${i}`;
    if (d.id) def.$id = `https://example.com/def${i}.json`;
    if (!own(schema, d.container)) schema[d.container] = {};
    put(schema[d.container] as Record<string, unknown>, d.name, def);
  });
  return { schema, keep: g.keep.map((i) => defs[i]!.name) };
}

describe('generated graphs (fast-check)', () => {
  it('the library keeps exactly what the oracle reaches', () => {
    let removed = 0;
    let runsThatRemove = 0;
    fc.assert(
      fc.property(graphArb, fc.boolean(), (g, useKeep) => {
        const { schema, keep } = buildSchema(g);
        check(jsonClone(schema), useKeep ? keep : [], JSON.stringify(schema));
        const want = oracle(schema, useKeep ? keep : []);
        if (want.kind === 'names') {
          removed += allDefs(schema).size - want.names.size;
          if (allDefs(schema).size > want.names.size) runsThatRemove++;
        }
      }),
      { numRuns: 400, seed: 1404 },
    );
    // The generator is not vacuous: many definitions were unreachable and had to go. With the fixed seed
    // these counts are the same on every run (measured with fast-check 4.11: 469 definitions removed, in 178
    // of the 400 runs); the bounds leave room for a fast-check release that draws differently.
    expect(removed).toBeGreaterThan(400);
    expect(runsThatRemove).toBeGreaterThan(100);
  });

  it('a `$ref` string placed anywhere in arbitrary JSON never makes the library keep less than the oracle', () => {
    const refArb = fc.oneof(
      fc.constantFrom('#/$defs/A', '#/$defs/B/properties/x', '#/definitions/C', '#/$defs', '#a', '#/$defs/%41', '#/$defs/%zz', 'other.json#/$defs/A', 'https://x.example/y#/$defs/B', ''),
      fc.string(),
    );
    const leaf = fc.oneof(fc.integer(), fc.string(), fc.constant(null), refArb.map(($ref) => ({ $ref })));
    const json = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('node'), { maxLength: 3 }), fc.dictionary(fc.constantFrom('properties', 'items', 'anyOf', 'not', 'default', 'x', 'enum', 'a', '$defs'), tie('node'), { maxKeys: 3 })),
    })).node;
    fc.assert(
      fc.property(json, json, json, (root, a, b) => {
        const schema: Record<string, unknown> = { properties: { r: root }, $defs: { A: { $anchor: 'a', items: a }, B: b }, definitions: { C: {} } };
        // Only documents the library accepts as JSON schemas it can read (no anchors inside data here).
        check(jsonClone(schema), [], JSON.stringify(schema));
      }),
      { numRuns: 400, seed: 1405 },
    );
  });
});

// ---------------------------------------------------------------------------------------------------
// The corpus
// ---------------------------------------------------------------------------------------------------

describe('every tool of every corpus file', () => {
  const corpus = loadCorpus();
  it.each(corpus.map((c) => [c.file, c] as const))('%s', (_file, c) => {
    let checked = 0;
    for (const tool of c.data.toolsList.tools) {
      for (const slot of ['inputSchema', 'outputSchema']) {
        const schema = tool[slot];
        if (!plainObject(schema)) continue;
        check(schema, [], `${String(tool.name)} ${slot}`);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(0);
  });

  it('prunes something on the captures that carry definitions (the oracle is not vacuous)', () => {
    const notion = corpus.find((c) => c.file === 'notionhq__notion-mcp-server@2.5.2.json')!;
    let removed = 0;
    for (const tool of notion.data.toolsList.tools) {
      const s = tool.inputSchema as Record<string, unknown>;
      const want = oracle(s);
      if (want.kind === 'names') removed += allDefs(s).size - want.names.size;
    }
    expect(removed).toBeGreaterThan(100);
  });
});
