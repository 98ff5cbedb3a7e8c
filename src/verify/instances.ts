// Why one file: one Generator class whose candidates share its bounded work budget, seeded stream and merged
// views; split, the ceilings that keep it terminating would be spread over files.
/**
 * A deterministic instance generator for the equivalence gate: for one JSON Schema it produces a mix of
 * instances the schema likely accepts (defaults, examples, `enum`/`const` members, minimal objects built
 * from `required`, boundary values, format samples) and instances it likely rejects (a required member
 * missing, wrong types, values just outside a bound, an extra member where none is allowed, `null`s).
 * Whether each one is valid is not decided here: the gate asks ajv, before and after a rewrite.
 *
 * Deterministic: the only randomness is a mulberry32 stream seeded from a hash of the schema's JSON
 * text, so the same schema always yields the same instances. Bounded: data depth,
 * `$ref`/`allOf` hops, candidates per node and total work all have ceilings, so recursive and hostile
 * schemas terminate quickly. Recursion depth is bounded by {@link InstanceOptions.maxDepth} (a small
 * constant), never by the size of the schema; merging `$ref`/`allOf` chains is iterative.
 */

import { setOwn } from '../json/cow.js';
import { getDeclaredDialect, getKeywordTable } from '../schema/dialect.js';
import type { Dialect, KeywordTable } from '../schema/keywords.js';
import { appendPointer, getAt } from '../json/pointer.js';
import { hasOwn, isObject } from '../json/guards.js';
import { parseRef } from '../schema/ref-syntax.js';
import { collectRefInventory, resolveRefSite, type RefInventory, type RefSite } from '../schema/refs.js';
import { hashString, jsonKey } from '../json/canonical.js';
import { FORMATS } from './formats.js';
import { samplePattern } from './pattern-sample.js';
import { boundedRegExp, type PatternTest } from './bounded-regexp.js';

/** Options of {@link generateInstances}. */
export interface InstanceOptions {
  /** At least this many distinct instances (default 64). */
  readonly count?: number;
  /**
   * At most this many. Default: 128, raised up to 512 for a schema whose root has many categories of
   * candidates (properties, bounds, branches), up to 64 each, so every property gets its share.
   */
  readonly max?: number;
  /** How to read the schema (default: the dialect its `$schema` names, else 2020-12). */
  readonly dialect?: Dialect;
  /** How deep generated data nests (default 6). */
  readonly maxDepth?: number;
  /** Mixed into the seed (default 0), for callers that want a second, different sample. */
  readonly seed?: number;
}

/**
 * Instances for `schema`: at least `count` distinct JSON values (fewer only if the work budget runs out),
 * at most `max`, the same ones on every call. Never throws on a malformed schema: unknown shapes are
 * treated as unconstrained.
 * Unchecked, for the engine's checked input: the public entry (engine/checked.ts) first refuses a value that
 * contains itself.
 */
export function generateInstances(schema: unknown, options: InstanceOptions = {}): unknown[] {
  return generateKeyedInstances(schema, options).values;
}

/** {@link generateInstances} with the JSON text of each instance (for callers that deduplicate further). */
export function generateKeyedInstances(schema: unknown, options: InstanceOptions = {}): { values: unknown[]; keys: string[] } {
  const count = Math.max(1, options.count ?? DEFAULT_COUNT);
  const max = Math.max(count, options.max ?? DEFAULT_MAX);
  // Without an explicit `max`, schemas with many properties get more instances (each its share).
  const limit = options.max === undefined ? Math.max(max, ADAPTIVE_MAX) : max;
  const dialect = options.dialect ?? getDeclaredDialect(schema).dialect;
  const seed = (hashString(jsonKey(schema)) ^ (options.seed ?? 0)) >>> 0;
  const gen = new Generator(schema, dialect, seed, Math.max(1, options.maxDepth ?? DEFAULT_DEPTH), max, limit);
  return gen.run(count);
}

/** A place in a schema a rewrite touched, and values worth trying there (see {@link generateProbeInstances}). */
export interface ProbeSite {
  /** JSON Pointer of the subschema, from the document root. */
  readonly path: string;
  /** Values to try at the instance position the subschema validates, besides its own candidates. */
  readonly values?: readonly unknown[];
}

/** Options of {@link generateProbeInstances}. */
export interface ProbeOptions {
  /** How to read the schema (default: the dialect its `$schema` names, else 2020-12). */
  readonly dialect?: Dialect;
  readonly sites: readonly ProbeSite[];
  /** Candidates of the site's own subschema tried per site (default 24). */
  readonly perSite?: number;
  /** At most this many instances in all (default 256). */
  readonly max?: number;
}

/**
 * Instances aimed at given subschemas: for each site, the instance position it validates is found (through
 * `properties`, `items`, `prefixItems`, `additionalProperties`, `allOf`/`anyOf`/`oneOf`, and the `$ref`s
 * that lead into definitions), candidate values for that subschema (and the site's own `values`, and
 * `null`) are placed there, and every level around them gets the value its schema most likely accepts
 * (required members present), so that the candidate decides the verdict. A site no route reaches is
 * skipped. Deterministic and bounded like {@link generateInstances}.
 * Unchecked, for the engine's checked input: the public entry (engine/checked.ts) first refuses a value that
 * contains itself.
 */
export function generateProbeInstances(schema: unknown, options: ProbeOptions): { values: unknown[]; keys: string[] } {
  const dialect = options.dialect ?? getDeclaredDialect(schema).dialect;
  const seed = hashString(jsonKey(schema)) >>> 0;
  const gen = new Generator(schema, dialect, seed, DEFAULT_DEPTH, DEFAULT_MAX, DEFAULT_MAX);
  return gen.probe(options.sites, Math.max(1, options.perSite ?? 24), Math.max(1, options.max ?? 256));
}

const DEFAULT_COUNT = 64;
const DEFAULT_MAX = 128;
/** The ceiling of the adaptive size: up to 64 instances per category of the root (property, bound, branch…). */
const ADAPTIVE_MAX = 512;
const ROOT_SHARE = 64;
/** Below the root: at most 128 candidates per node at depth 1, halving with each level (at least 8). */
const INNER_CEILING = 128;
const DEFAULT_DEPTH = 6;
/** Values created per schema before the generator stops elaborating (keeps hostile schemas cheap). */
const WORK_BUDGET = 200_000;
/**
 * Objects and arrays one random value may build out of its schema, and all random values of one generator,
 * before what is left is picked from the candidates (as at the depth bound): an object schema whose 40 optional
 * properties each refer back to an object like it built some 16^6 members per random value (a 12 kB schema
 * ran out of memory). The corpora's largest random value builds 14, all of a schema's 341.
 */
const RANDOM_NODES = 256;
const RANDOM_TOTAL = 16_384;
/**
 * JSON values (objects, arrays and primitives, each counted every time it appears) a base value may hold, or
 * twice the schema's own when that is more: a member that would take it past this is `null`, as at the depth
 * bound. Base values share their parts, so building one is cheap, but written out (an instance's key, ajv's
 * walk) a schema whose every property is required and refers to an object like its own holds properties^6
 * values: 8 such properties took 28 s, 12 ran out of memory. A wide schema (a `required` of 50,000 names) keeps
 * its instances as they were: the bound grows with it.
 */
const MAX_BASE_NODES = 4096;
/** JSON values an instance may hold (counted so), or 8 times the schema's own: a larger one is left out. */
const MAX_INSTANCE_NODES = 65_536;
/** Nodes merged into one view through `$ref`, `allOf` and chosen `anyOf`/`oneOf` branches. */
const MAX_MERGED = 48;
/** `anyOf`/`oneOf` groups whose other branches are explored per node, and branches per group. */
const MAX_GROUPS = 4;
const MAX_BRANCHES = 8;
/** Properties varied one at a time per object. */
const MAX_VARIED_PROPS = 64;
/** `enum` members used per node. */
const MAX_ENUM = 16;
/** Strings longer than this are not built for a length bound. */
const MAX_STRING = 1 << 20;
/**
 * The same under a `pattern`: ajv runs the schema's own regex on them, and a long string against nested
 * quantifiers can backtrack for a very long time.
 */
const MAX_PATTERN_STRING = 4096;
/** Arrays longer than this are not built for an items bound. */
const MAX_ARRAY = 64;
/**
 * A schema's own value (`default`, `examples`, `const`, an `enum` member) is used in instances only when it
 * holds at most {@link MAX_SAMPLE_NODES} values and no array longer than {@link MAX_SAMPLE_ARRAY}: ajv checks
 * `uniqueItems` over objects pair by pair, in every instance the value sits in, and a server's default of
 * 20,000 small objects under `uniqueItems` held one gate for 34 s (`optimize --verify structural` of a
 * 0.3 MB list), 50,000 for minutes. Values cut this way are ones the generator's own (at most
 * {@link MAX_ARRAY} items) stand beside.
 */
const MAX_SAMPLE_ARRAY = 256;
const MAX_SAMPLE_NODES = 4096;
/** A member name no real schema is likely to declare, for "extra member" instances. */
const EXTRA_KEY = 'toolslimExtraMember';

/** One instance position on a probe's route: the subschemas that validate it, and the step to the next. */
interface RouteLevel {
  seeds: NodeRef[];
  step?: string | number;
}

/** `$ref` jumps a probe route may take (a definition reached through a definition…). */
const MAX_ROUTE_HOPS = 4;

/** A subschema and its pointer in the document (the pointer names it for caches and `$ref` resolution). */
interface NodeRef {
  readonly node: unknown;
  readonly path: string;
}

/** What a set of merged subschemas (one node, its `$ref` targets, `allOf` members, chosen branches) says. */
interface View {
  isFalse: boolean;
  types: string[] | undefined;
  consts: unknown[];
  hasConsts: boolean;
  samples: unknown[];
  props: Map<string, NodeRef[]>;
  required: string[];
  /** The names in {@link View.required}, for membership in constant time (a `required` of 30,000 names asked by `includes` was quadratic). */
  requiredSet: Set<string>;
  closed: boolean;
  additional: NodeRef[];
  patternProps: [string, NodeRef][];
  items: NodeRef[];
  prefix: NodeRef[][];
  extraItems: NodeRef[];
  contains: NodeRef[];
  minimum: number[];
  maximum: number[];
  exclusiveMinimum: number[];
  exclusiveMaximum: number[];
  multipleOf: number[];
  minLength: number[];
  maxLength: number[];
  minItems: number[];
  maxItems: number[];
  minProperties: number[];
  maxProperties: number[];
  uniqueItems: boolean;
  formats: string[];
  patterns: string[];
  groups: NodeRef[][][];
  nots: NodeRef[];
  dependentRequired: [string, string[]][];
}

const ALL_TYPES = ['null', 'boolean', 'integer', 'number', 'string', 'array', 'object'] as const;
const WRONG_TYPE_SAMPLE: Readonly<Record<string, unknown>> = { null: null, boolean: true, integer: 7, number: 2.5, string: 'text', array: [], object: {} };
const STRING_PROBES: readonly string[] = [
  'a',
  'abc',
  'ABC',
  'a1',
  'x-a',
  'a_b',
  'a-b',
  'a.b',
  'A1b2',
  '123',
  '1',
  '0',
  'true',
  'user@example.com',
  'https://example.com',
  '2024-01-15',
  '2024-01-15T10:30:00Z',
  '123e4567-e89b-12d3-a456-426614174000',
  '#fff',
  'hello world',
  '',
];

class Generator {
  readonly #root: unknown;
  readonly #dialect: Dialect;
  readonly #table: KeywordTable;
  readonly #maxDepth: number;
  readonly #max: number;
  readonly #limit: number;
  #state: number;
  #work = 0;
  /** Objects and arrays `#random` built for the value being built, and in all (see {@link RANDOM_NODES}). */
  #valueNodes = 0;
  #randomNodes = 0;
  #inventory: RefInventory | undefined;
  #refSites: Map<string, RefSite> | undefined;
  /** Each resolved `$ref` target (a pointer other than the root) → the sites naming it, in document order (see `#viaRef`). */
  #refTargets: Map<string, RefSite[]> | undefined;
  readonly #views = new Map<string, View>();
  readonly #bases = new Map<string, unknown>();
  /** The JSON values each object or array a base value built holds (itself included; see {@link MAX_BASE_NODES}). */
  readonly #baseSizes = new WeakMap<object, number>();
  /** {@link MAX_BASE_NODES} and {@link MAX_INSTANCE_NODES} for this schema. */
  readonly #baseCap: number;
  readonly #instanceCap: number;
  readonly #candidates = new Map<string, unknown[]>();
  readonly #regexps = new Map<string, PatternTest | null>();

  constructor(root: unknown, dialect: Dialect, seed: number, maxDepth: number, max: number, limit: number) {
    this.#root = root;
    this.#dialect = dialect;
    this.#table = getKeywordTable(dialect);
    this.#state = seed;
    this.#maxDepth = maxDepth;
    this.#max = max;
    this.#limit = limit;
    const nodes = countNodes(root, Number.MAX_SAFE_INTEGER);
    this.#baseCap = Math.max(MAX_BASE_NODES, 2 * nodes);
    this.#instanceCap = Math.max(MAX_INSTANCE_NODES, 8 * nodes);
  }

  run(count: number): { values: unknown[]; keys: string[] } {
    const seeds: NodeRef[] = [{ node: this.#root, path: '' }];
    const structured = this.#candidatesOf(seeds, 0);
    const max = Math.max(count, Math.min(this.#limit, structured.length));
    const out: unknown[] = [];
    const keys: string[] = [];
    const seen = new Set<string>();
    const push = (v: unknown) => {
      if (out.length >= max || exceedsNodes(v, this.#instanceCap)) return;
      const key = jsonKey(v);
      if (seen.has(key)) return;
      seen.add(key);
      out.push(v);
      keys.push(key);
    };
    for (const v of structured) push(v);
    // Random combinations of the structured candidates, then arbitrary JSON, until `count` is reached.
    for (let attempts = 0; out.length < count && attempts < count * 20; attempts++) {
      if (attempts % 4 === 3) push(this.#arbitrary(3));
      else {
        this.#valueNodes = 0;
        push(this.#random(seeds, 0));
      }
    }
    for (let attempts = 0; out.length < count && attempts < count * 20; attempts++) push(this.#arbitrary(4));
    return { values: out, keys };
  }

  /** See {@link generateProbeInstances}. */
  probe(sites: readonly ProbeSite[], perSite: number, max: number): { values: unknown[]; keys: string[] } {
    const out: unknown[] = [];
    const keys: string[] = [];
    const seen = new Set<string>();
    for (const site of sites) {
      if (out.length >= max) break;
      const route = this.#route(site.path, 0);
      if (route === undefined) continue;
      const last = route[route.length - 1]!;
      const here = this.#candidatesOf(last.seeds, Math.min(route.length - 1, this.#maxDepth)).slice(0, perSite);
      for (const v of [...here, ...(site.values ?? []), null]) {
        if (out.length >= max) break;
        const instance = this.#embed(route, v);
        if (exceedsNodes(instance, this.#instanceCap)) continue;
        const key = jsonKey(instance);
        if (seen.has(key)) continue;
        seen.add(key);
        out.push(instance);
        keys.push(key);
      }
    }
    return { values: out, keys };
  }

  /**
   * The instance positions from the root to the subschema at `path`: each level's subschemas (seeds) and
   * the member name or index that leads to the next level. Undefined when no route is known.
   */
  #route(path: string, hops: number): RouteLevel[] | undefined {
    const tokens = pointerTokens(path);
    return this.#walkRoute([{ seeds: [{ node: this.#root, path: '' }] }], this.#root, '', tokens, 0, hops);
  }

  #walkRoute(levels: RouteLevel[], start: unknown, startPath: string, tokens: readonly string[], from: number, hops: number): RouteLevel[] | undefined {
    let node = start;
    let at = startPath;
    let i = from;
    while (i < tokens.length) {
      if (!isObject(node)) return undefined;
      const key = tokens[i]!;
      const value = hasOwn(node, key) ? node[key] : undefined;
      if (value === undefined) return undefined;
      const level = levels[levels.length - 1]!;
      const next = (child: unknown, childPath: string, step: string | number | undefined, mode: 'new' | 'add' | 'replace') => {
        const ref: NodeRef = { node: child, path: childPath };
        if (mode === 'new') {
          level.step = step;
          levels.push({ seeds: [ref] });
        } else if (mode === 'add') level.seeds = [...level.seeds, ref];
        else level.seeds = [ref];
        node = child;
        at = childPath;
      };
      const entry = tokens[i + 1];
      const info = this.#table.get(key);
      switch (key) {
        case 'properties':
          if (entry === undefined || !isObject(value) || !hasOwn(value, entry)) return undefined;
          next(value[entry], appendPointer(appendPointer(at, key), entry), entry, 'new');
          i += 2;
          continue;
        case 'patternProperties': {
          if (entry === undefined || !isObject(value) || !hasOwn(value, entry)) return undefined;
          const name = this.#patternSamples(entry).find((p) => p !== '');
          if (name === undefined) return undefined;
          next(value[entry], appendPointer(appendPointer(at, key), entry), name, 'new');
          i += 2;
          continue;
        }
        case 'additionalProperties':
        case 'unevaluatedProperties':
          next(value, appendPointer(at, key), EXTRA_KEY, 'new');
          i += 1;
          continue;
        case 'prefixItems':
        case 'items':
          if (Array.isArray(value)) {
            if (entry === undefined || !/^(0|[1-9]\d{0,3})$/.test(entry) || Number(entry) >= value.length) return undefined;
            next(value[Number(entry)], appendPointer(appendPointer(at, key), entry), Number(entry), 'new');
            i += 2;
          } else {
            const prefix = hasOwn(node, 'prefixItems') && Array.isArray(node.prefixItems) && info?.shape === 'schema' ? node.prefixItems.length : 0;
            next(value, appendPointer(at, key), prefix, 'new');
            i += 1;
          }
          continue;
        case 'additionalItems':
          next(value, appendPointer(at, key), hasOwn(node, 'items') && Array.isArray(node.items) ? node.items.length : 0, 'new');
          i += 1;
          continue;
        case 'contains':
          next(value, appendPointer(at, key), 0, 'new');
          i += 1;
          continue;
        case 'allOf':
        case 'anyOf':
        case 'oneOf':
          if (entry === undefined || !Array.isArray(value) || !/^\d+$/.test(entry) || Number(entry) >= value.length) return undefined;
          next(value[Number(entry)], appendPointer(appendPointer(at, key), entry), undefined, key === 'allOf' ? 'add' : 'replace');
          i += 2;
          continue;
        case 'dependentSchemas':
        case 'dependencies':
          if (entry === undefined || !isObject(value) || !hasOwn(value, entry) || Array.isArray(value[entry])) return undefined;
          next(value[entry], appendPointer(appendPointer(at, key), entry), undefined, 'add');
          i += 2;
          continue;
        case 'not':
        case 'if':
        case 'then':
        case 'else':
          next(value, appendPointer(at, key), undefined, 'replace');
          i += 1;
          continue;
      }
      // Anywhere else (definitions, unknown keywords): continue from a `$ref` that lands on the way.
      return this.#viaRef(levels, tokens, hops);
    }
    return levels;
  }

  /** Routes to the subschema at `tokens` through the first `$ref` (outside it) whose target lies on the way. */
  #viaRef(levels: RouteLevel[], tokens: readonly string[], hops: number): RouteLevel[] | undefined {
    void levels;
    if (hops >= MAX_ROUTE_HOPS) return undefined;
    if (this.#inventory === undefined) {
      this.#inventory = collectRefInventory(this.#root, this.#dialect);
      this.#refSites = new Map(this.#inventory.refs.map((s) => [s.path, s]));
    }
    // Every `$ref`'s target, resolved once per schema (resolving all of them on every call made a schema of
    // 4,000 definitions each behind one reference take 20 s in generateProbeInstances; 2,000, 5.4 s).
    if (this.#refTargets === undefined) {
      const targets = new Map<string, RefSite[]>();
      for (const site of this.#inventory.refs) {
        if (!site.inSchema || site.keyword !== '$ref') continue;
        const r = resolveRefSite(this.#root, this.#inventory, site);
        if (r.status !== 'resolved' || r.path === '') continue;
        const list = targets.get(r.path);
        if (list === undefined) targets.set(r.path, [site]);
        else list.push(site);
      }
      this.#refTargets = targets;
    }
    // The longest target on the way (`tokens`' pointer itself, then each shorter prefix), and of its
    // references the first in document order that is not inside the target itself (a reference from inside
    // the target leads nowhere new).
    const prefixes: string[] = [];
    let prefix = '';
    for (const t of tokens) prefixes.push((prefix = appendPointer(prefix, t)));
    let best: { site: RefSite; target: string } | undefined;
    for (let k = prefixes.length - 1; k >= 0 && best === undefined; k--) {
      const target = prefixes[k]!;
      const sites = this.#refTargets.get(target);
      if (sites === undefined) continue;
      for (const site of sites) {
        if (site.schemaPath === target || site.schemaPath.startsWith(target + '/')) continue;
        best = { site, target };
        break;
      }
    }
    if (best === undefined) return undefined;
    const holder = this.#route(best.site.schemaPath, hops + 1);
    if (holder === undefined) return undefined;
    const target = getAt(this.#root, pointerTokens(best.target));
    const last = holder[holder.length - 1]!;
    last.seeds = [...last.seeds, { node: target, path: best.target }];
    return this.#walkRoute(holder, target, best.target, tokens, pointerTokens(best.target).length, hops + 1);
  }

  /** `value` placed at the end of `route`, inside the most likely accepted value of every level around it. */
  #embed(route: readonly RouteLevel[], value: unknown): unknown {
    let out = value;
    for (let k = route.length - 2; k >= 0; k--) {
      const level = route[k]!;
      const step = level.step!;
      const base = this.#baseOf(level.seeds, Math.min(k, this.#maxDepth));
      if (typeof step === 'string') out = withMember(isObject(base) ? base : {}, step, out);
      else {
        const arr = Array.isArray(base) ? base.slice(0, MAX_ARRAY) : [];
        while (arr.length < step) arr.push(this.#itemBase(level, arr.length, k));
        arr[step] = out;
        out = arr;
      }
    }
    return out;
  }

  /** The likely accepted value of tuple member `i` (or of any member) of a level's array schema. */
  #itemBase(level: RouteLevel, i: number, depth: number): unknown {
    const v = this.#view(level.seeds);
    const refs = v.prefix[i] ?? (v.items.length > 0 ? v.items : v.extraItems);
    return refs.length === 0 ? null : this.#childBase(refs, Math.min(depth, this.#maxDepth));
  }

  // ---- randomness --------------------------------------------------------------------------------

  /** mulberry32: a float in [0, 1). */
  #next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  #int(n: number): number {
    return Math.floor(this.#next() * n);
  }

  #pick<T>(list: readonly T[]): T {
    return list[this.#int(list.length)]!;
  }

  // ---- views -------------------------------------------------------------------------------------

  /**
   * Merges `seeds` with everything they pull in: `$ref` targets, `allOf` members, and for each
   * `anyOf`/`oneOf` group met (and `if`/`then`/`else`) the branch `choose(groupIndex)` names.
   */
  #view(seeds: readonly NodeRef[], choose?: (group: number) => number): View {
    const key = keyOf(seeds);
    const cached = this.#views.get(key);
    // A view that met no `anyOf`/`oneOf`/`if` never asked `choose` (see #addGroup): every choice gives it, so
    // a random value reuses it. Merged anew for each random value, a schema's long keywords were read again
    // each time: 50,000 `dependentRequired` entries took 5.8 s.
    if (cached !== undefined && (choose === undefined || cached.groups.length === 0)) return cached;
    const v = this.#collect(seeds, choose ?? (() => 0));
    if (choose === undefined || v.groups.length === 0) this.#views.set(key, v);
    return v;
  }

  #collect(seeds: readonly NodeRef[], choose: (group: number) => number): View {
    const v: View = {
      isFalse: false,
      types: undefined,
      consts: [],
      hasConsts: false,
      samples: [],
      props: new Map(),
      required: [],
      requiredSet: new Set(),
      closed: false,
      additional: [],
      patternProps: [],
      items: [],
      prefix: [],
      extraItems: [],
      contains: [],
      minimum: [],
      maximum: [],
      exclusiveMinimum: [],
      exclusiveMaximum: [],
      multipleOf: [],
      minLength: [],
      maxLength: [],
      minItems: [],
      maxItems: [],
      minProperties: [],
      maxProperties: [],
      uniqueItems: false,
      formats: [],
      patterns: [],
      groups: [],
      nots: [],
      dependentRequired: [],
    };
    const queue: NodeRef[] = [...seeds];
    const visited = new Set<string>();
    let merged = 0;
    while (queue.length > 0 && merged < MAX_MERGED) {
      const ref = queue.shift()!;
      if (visited.has(ref.path)) continue;
      visited.add(ref.path);
      merged++;
      const node = ref.node;
      if (node === false) {
        v.isFalse = true;
        continue;
      }
      if (!isObject(node)) continue;
      for (const key of Object.keys(node)) this.#merge(v, node, key, ref.path, queue, choose);
    }
    return v;
  }

  #merge(v: View, node: Record<string, unknown>, key: string, path: string, queue: NodeRef[], choose: (group: number) => number): void {
    const value = node[key];
    const info = this.#table.get(key);
    switch (key) {
      case '$ref':
      case '$dynamicRef':
      case '$recursiveRef': {
        if (typeof value !== 'string' || !info) return;
        const target = this.#resolve(path, key, value);
        if (target !== undefined) queue.push(target);
        return;
      }
      case 'type': {
        // Only JSON's type names: no other name yields a value (effectiveTypes reads only these), and two `allOf`
        // members listing 10,000 other names, intersected again for each instance, took this generator 25 s.
        const list = (Array.isArray(value) ? value : [value]).filter(isTypeName);
        v.types = v.types === undefined ? list : intersectTypes(v.types, list);
        return;
      }
      case 'const':
        if (!info) return;
        if (isSmallSample(value)) v.consts.unshift(value);
        v.hasConsts = true;
        return;
      case 'enum':
        if (!Array.isArray(value)) return;
        v.consts.push(...value.slice(0, MAX_ENUM).filter(isSmallSample));
        v.hasConsts = true;
        return;
      case 'default':
        if (isSmallSample(value)) v.samples.push(value);
        return;
      case 'examples':
        if (Array.isArray(value)) v.samples.push(...value.slice(0, MAX_ENUM).filter(isSmallSample));
        return;
      case 'example':
        if (isSmallSample(value)) v.samples.push(value);
        return;
      case 'required':
        if (Array.isArray(value)) {
          for (const r of value) {
            if (typeof r !== 'string' || v.requiredSet.has(r)) continue;
            v.requiredSet.add(r);
            v.required.push(r);
          }
        }
        return;
      case 'minimum':
        return pushNumber(v.minimum, value);
      case 'maximum':
        return pushNumber(v.maximum, value);
      case 'exclusiveMinimum':
        if (value === true) v.exclusiveMinimum.push(...numbersOf(node.minimum));
        else pushNumber(v.exclusiveMinimum, value);
        return;
      case 'exclusiveMaximum':
        if (value === true) v.exclusiveMaximum.push(...numbersOf(node.maximum));
        else pushNumber(v.exclusiveMaximum, value);
        return;
      case 'multipleOf':
        if (typeof value === 'number' && value > 0 && Number.isFinite(value)) v.multipleOf.push(value);
        return;
      case 'minLength':
        return pushNumber(v.minLength, value);
      case 'maxLength':
        return pushNumber(v.maxLength, value);
      case 'minItems':
        return pushNumber(v.minItems, value);
      case 'maxItems':
        return pushNumber(v.maxItems, value);
      case 'minProperties':
        return pushNumber(v.minProperties, value);
      case 'maxProperties':
        return pushNumber(v.maxProperties, value);
      case 'uniqueItems':
        if (value === true) v.uniqueItems = true;
        return;
      case 'format':
        if (typeof value === 'string') v.formats.push(value);
        return;
      case 'pattern':
        if (typeof value === 'string') v.patterns.push(value);
        return;
      case 'dependentRequired':
        if (isObject(value)) for (const k of Object.keys(value)) if (Array.isArray(value[k])) v.dependentRequired.push([k, (value[k] as unknown[]).filter((x): x is string => typeof x === 'string')]);
        return;
      case 'dependencies':
        if (isObject(value)) for (const k of Object.keys(value)) if (Array.isArray(value[k])) v.dependentRequired.push([k, (value[k] as unknown[]).filter((x): x is string => typeof x === 'string')]);
        return;
      case 'nullable':
        return;
    }
    if (!info) return;
    const kp = appendPointer(path, key);
    switch (key) {
      case 'properties':
        if (!isObject(value)) return;
        for (const k of Object.keys(value)) {
          const list = v.props.get(k);
          const r = { node: value[k], path: appendPointer(kp, k) };
          if (list) list.push(r);
          else v.props.set(k, [r]);
        }
        return;
      case 'patternProperties':
        if (isObject(value)) for (const k of Object.keys(value)) v.patternProps.push([k, { node: value[k], path: appendPointer(kp, k) }]);
        return;
      case 'additionalProperties':
      case 'unevaluatedProperties':
        if (value === false) v.closed = true;
        else if (key === 'additionalProperties') v.additional.push({ node: value, path: kp });
        return;
      case 'items':
        if (Array.isArray(value)) {
          if (info.shape !== 'schemaOrArray') return;
          value.forEach((x, i) => {
            (v.prefix[i] ??= []).push({ node: x, path: appendPointer(kp, i) });
          });
        } else if (v.prefix.length > 0 && info.shape === 'schema' && this.#table.has('prefixItems')) v.extraItems.push({ node: value, path: kp });
        else v.items.push({ node: value, path: kp });
        return;
      case 'prefixItems':
        if (Array.isArray(value))
          value.forEach((x, i) => {
            (v.prefix[i] ??= []).push({ node: x, path: appendPointer(kp, i) });
          });
        if (v.items.length > 0 && v.extraItems.length === 0) {
          v.extraItems.push(...v.items);
          v.items = [];
        }
        return;
      case 'additionalItems':
        v.extraItems.push({ node: value, path: kp });
        return;
      case 'contains':
        v.contains.push({ node: value, path: kp });
        return;
      case 'allOf':
        if (Array.isArray(value)) value.forEach((x, i) => queue.push({ node: x, path: appendPointer(kp, i) }));
        return;
      case 'anyOf':
      case 'oneOf': {
        if (!Array.isArray(value) || value.length === 0) return;
        const branches = value.slice(0, MAX_BRANCHES).map((x, i) => [{ node: x, path: appendPointer(kp, i) }]);
        this.#addGroup(v, branches, queue, choose);
        return;
      }
      case 'if': {
        const then = hasOwn(node, 'then') && this.#table.has('then') ? [{ node: node.then, path: appendPointer(path, 'then') }] : [];
        const otherwise = hasOwn(node, 'else') && this.#table.has('else') ? [{ node: node.else, path: appendPointer(path, 'else') }] : [];
        this.#addGroup(v, [[{ node: value, path: kp }, ...then], otherwise], queue, choose);
        return;
      }
      case 'not':
        v.nots.push({ node: value, path: kp });
        return;
    }
  }

  #addGroup(v: View, branches: NodeRef[][], queue: NodeRef[], choose: (group: number) => number): void {
    const index = v.groups.length;
    v.groups.push(branches);
    const chosen = branches[choose(index) % branches.length]!;
    queue.push(...chosen);
  }

  /** The subschema a reference names, or undefined when it does not resolve locally. */
  #resolve(path: string, keyword: string, ref: string): NodeRef | undefined {
    if (this.#inventory === undefined) {
      // One walk per schema, only when it has references at all.
      this.#inventory = collectRefInventory(this.#root, this.#dialect);
      this.#refSites = new Map(this.#inventory.refs.map((s) => [s.path, s]));
    }
    const site = this.#refSites!.get(appendPointer(path, keyword));
    if (site) {
      const r = resolveRefSite(this.#root, this.#inventory, site);
      return r.status === 'resolved' ? { node: getAt(this.#root, pointerTokens(r.path)), path: r.path } : undefined;
    }
    const parsed = parseRef(ref);
    if (parsed.kind !== 'pointer') return undefined;
    const node = getAt(this.#root, parsed.tokens);
    return node === undefined ? undefined : { node, path: pointerOf(parsed.tokens) };
  }

  // ---- base values -------------------------------------------------------------------------------

  /** One value the merged schema most likely accepts (its first `const`/`enum` member, default, or a built one). */
  #baseOf(seeds: readonly NodeRef[], depth: number): unknown {
    const key = keyOf(seeds) + '@' + depth;
    if (this.#bases.has(key)) return this.#bases.get(key);
    // Recursive schemas: the entry is set before descending, so a cycle reads a placeholder.
    this.#bases.set(key, null);
    const value = this.#baseOfView(this.#view(seeds), depth);
    this.#bases.set(key, value);
    return value;
  }

  #baseOfView(v: View, depth: number): unknown {
    this.#work++;
    if (v.consts.length > 0) return v.consts[0];
    if (v.samples.length > 0) return v.samples[0];
    const type = primaryType(v);
    switch (type) {
      case 'object':
        return this.#minimalObject(v, depth);
      case 'array': {
        const min = Math.min(MAX_ARRAY, Math.max(0, ...v.minItems, v.contains.length > 0 ? 1 : 0));
        const out: unknown[] = [];
        let size = 1;
        const add = (value: unknown): void => {
          const placed = this.#within(size, value);
          out.push(placed);
          size += this.#nodesOf(placed);
        };
        for (const p of v.prefix.slice(0, MAX_ARRAY)) add(this.#childBase(p, depth));
        if (out.length === 0 && v.contains.length > 0 && depth < this.#maxDepth) add(this.#childBase(v.contains, depth));
        while (out.length < min) add(this.#childBase(v.items, depth));
        this.#baseSizes.set(out, size);
        return out;
      }
      case 'string':
        return this.#stringBase(v);
      case 'integer':
      case 'number':
        return numberBase(v, type === 'integer');
      case 'boolean':
        return true;
      case 'null':
        return null;
      default:
        return 'value';
    }
  }

  #childBase(seeds: readonly NodeRef[], depth: number): unknown {
    if (depth + 1 > this.#maxDepth) return null;
    return seeds.length === 0 ? 'value' : this.#baseOf(seeds, depth + 1);
  }

  /** The object with only its required members (and enough optional ones for `minProperties`). */
  #minimalObject(v: View, depth: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    let size = 1;
    // Members so far, counted (each name is added once): the keys counted again for every property took
    // `minProperties: 20000` over 20,000 properties 46 s.
    let members = 0;
    const add = (name: string): void => {
      const placed = this.#within(size, this.#memberBase(v, name, depth));
      setOwn(out, name, placed);
      size += this.#nodesOf(placed);
      members++;
    };
    for (const name of v.required) add(name);
    const min = Math.max(0, ...v.minProperties);
    if (members < min) {
      for (const name of v.props.keys()) {
        if (members >= min) break;
        if (!hasOwn(out, name)) add(name);
      }
    }
    this.#baseSizes.set(out, size);
    return out;
  }

  /** `value`, or `null` when it would take a base value already holding `size` values past the bound. */
  #within(size: number, value: unknown): unknown {
    return size + this.#nodesOf(value) > this.#baseCap ? null : value;
  }

  /** The JSON values `value` holds (itself included): a base value's as recorded, a schema's own value's counted. */
  #nodesOf(value: unknown): number {
    if (typeof value !== 'object' || value === null) return 1;
    const known = this.#baseSizes.get(value);
    if (known !== undefined) return known;
    // A schema's own value (a `const`, `default` or example: at most MAX_SAMPLE_NODES values, see isSmallSample).
    const n = countNodes(value, this.#baseCap + 1);
    this.#baseSizes.set(value, n);
    return n;
  }

  /** The base value of member `name`: its property schema, else a matching pattern's, else `additionalProperties`. */
  #memberBase(v: View, name: string, depth: number): unknown {
    return this.#childBase(this.#memberSchemas(v, name), depth);
  }

  #memberSchemas(v: View, name: string): NodeRef[] {
    const own = v.props.get(name);
    if (own) return own;
    const byPattern = v.patternProps.filter(([p]) => this.#regexp(p)?.test(name)).map(([, r]) => r);
    if (byPattern.length > 0) return byPattern;
    return v.additional;
  }

  #stringBase(v: View): string {
    const formats = v.formats.map((f) => (hasOwn(FORMATS, f) ? FORMATS[f] : undefined)).filter((f) => f !== undefined);
    const min = Math.max(0, ...v.minLength);
    const max = Math.min(...v.maxLength, Infinity);
    const pool = [...formats.flatMap((f) => f.valid), ...v.patterns.slice(0, 4).flatMap((p) => this.#patternSamples(p)), ...STRING_PROBES];
    for (const probe of pool) {
      const len = [...probe].length;
      if (len >= min && len <= max && v.patterns.every((p) => this.#regexp(p)?.test(probe) ?? true) && formats.every((f) => f.check(probe))) return probe;
    }
    return 'a'.repeat(Math.min(MAX_STRING, Math.max(1, min)));
  }

  /** Strings that match `pattern` (built from it, or among the probes). */
  #patternSamples(pattern: string): string[] {
    const re = this.#regexp(pattern);
    if (!re) return [];
    const built = samplePattern(pattern).filter((s) => re.test(s));
    const probe = STRING_PROBES.find((s) => re.test(s));
    return probe === undefined ? built : [...built, probe];
  }

  #regexp(pattern: string): PatternTest | null {
    let r = this.#regexps.get(pattern);
    if (r === undefined) {
      try {
        // A server's pattern met with toolslim's own probes (a 36-character UUID among them): bounded where V8
        // can bound it, as ajv's are in the gate (bounded-regexp.ts). `^([0-9a-f]|[0-9a-z-])+!$` backtracked
        // exponentially on the UUID with `u`: one `optimize --verify structural` of a 170-byte list, 118 s.
        r = boundedRegExp(pattern, 'u');
      } catch {
        try {
          r = new RegExp(pattern);
        } catch {
          r = null;
        }
      }
      this.#regexps.set(pattern, r);
    }
    return r;
  }

  // ---- candidates --------------------------------------------------------------------------------

  /**
   * Candidate values for the merged schema at `depth`, base value first, then variants interleaved by
   * category (so a cap keeps some of every kind): `enum`/`const` members and a non-member, defaults and
   * examples, boundary and format values, wrong types, each property varied alone, other branches.
   */
  #candidatesOf(seeds: readonly NodeRef[], depth: number): unknown[] {
    const key = keyOf(seeds) + '@' + depth;
    const cached = this.#candidates.get(key);
    if (cached) return cached;
    this.#candidates.set(key, [this.#baseOf(seeds, depth)]);
    const v = this.#view(seeds);
    const categories: unknown[][] = [[this.#baseOf(seeds, depth)]];
    if (this.#work < WORK_BUDGET) {
      if (v.isFalse) categories.push([{}, 0, 'value']);
      if (v.hasConsts) categories.push([...v.consts, { [EXTRA_KEY]: 'not a member' }, 'not a member', 987654]);
      if (v.samples.length > 0) categories.push(v.samples);
      const types = effectiveTypes(v);
      for (const t of types) {
        if (t === 'object') categories.push(...this.#objectVariants(v, depth));
        else if (t === 'array') categories.push(...this.#arrayVariants(v, depth));
        else if (t === 'string') categories.push(this.#stringVariants(v));
        else if (t === 'number' || t === 'integer') categories.push(numberVariants(v, t === 'integer' || !types.includes('number')));
        else if (t === 'boolean') categories.push([true, false]);
        else if (t === 'null') categories.push([null]);
      }
      categories.push(wrongTypes(v.types));
      // Other branches of each `anyOf`/`oneOf`/`if` group.
      v.groups.slice(0, MAX_GROUPS).forEach((branches, g) => {
        const list: unknown[] = [];
        for (let b = 1; b < branches.length; b++) {
          const other = this.#view(seeds, (i) => (i === g ? b : 0));
          list.push(this.#baseOfView(other, depth));
        }
        if (list.length > 0) categories.push(list);
        if (depth + 1 <= this.#maxDepth) for (const branch of branches.slice(0, MAX_BRANCHES)) categories.push(this.#candidatesOf(branch, depth + 1));
      });
      if (depth < this.#maxDepth) for (const n of v.nots) categories.push([this.#baseOf([n], depth + 1)]);
    }
    // At the root each category (a property, the bounds, a branch…) earns up to ROOT_SHARE instances;
    // below it a ceiling halves with depth. The round-robin keeps every category represented.
    let share = 0;
    if (depth === 0) for (const c of categories) share += Math.min(c.length, ROOT_SHARE);
    const cap = depth === 0 ? Math.max(this.#max, Math.min(this.#limit, share)) : Math.max(8, INNER_CEILING >> (depth - 1));
    const out = interleave(categories, cap);
    this.#work += out.length;
    this.#candidates.set(key, out);
    return out;
  }

  #objectVariants(v: View, depth: number): unknown[][] {
    const minimal = this.#minimalObject(v, depth);
    const lists: unknown[][] = [];
    const shapes: unknown[] = [minimal, {}];
    const names = [...v.props.keys()];
    const full = copyOwn(minimal);
    for (const name of names.slice(0, MAX_VARIED_PROPS * 4)) if (!hasOwn(full, name)) setOwn(full, name, this.#memberBase(v, name, depth));
    shapes.push(full);
    // Missing each required member.
    const missing = v.required.slice(0, MAX_VARIED_PROPS).map((r) => without(minimal, r));
    // An extra member (rejected where additionalProperties/unevaluatedProperties is false).
    const extra: unknown[] = [];
    let extraKey = EXTRA_KEY;
    while (v.props.has(extraKey)) extraKey += '_';
    extra.push(withMember(minimal, extraKey, v.additional.length > 0 ? this.#childBase(v.additional, depth) : 'value'));
    if (v.additional.length > 0) extra.push(withMember(minimal, extraKey, wrongTypes(undefined)[0]));
    for (const [pattern, ref] of v.patternProps.slice(0, 4)) {
      const re = this.#regexp(pattern);
      const name = re ? this.#patternSamples(pattern).find((p) => p !== '' && !v.props.has(p)) : undefined;
      if (name !== undefined) extra.push(withMember(minimal, name, this.#childBase([ref], depth)), withMember(minimal, name, { [EXTRA_KEY]: [] }));
    }
    for (const [trigger, deps] of v.dependentRequired.slice(0, 8)) {
      extra.push(withoutAll(withMember(minimal, trigger, this.#memberBase(v, trigger, depth)), deps));
    }
    const maxProps = Math.min(...v.maxProperties, Infinity);
    if (Number.isFinite(maxProps) && maxProps < MAX_VARIED_PROPS) {
      let o = full;
      for (let i = 0; Object.keys(o).length <= maxProps; i++) o = withMember(o, `${extraKey}${i}`, 'value');
      extra.push(o);
    }
    lists.push(shapes, missing, extra);
    if (depth < this.#maxDepth && v.additional.length > 0 && !v.closed) {
      lists.push(this.#candidatesOf(v.additional, depth + 1).map((c) => withMember(minimal, extraKey, c)));
    }
    // Each property varied alone, on top of the minimal object.
    if (depth < this.#maxDepth) {
      const ordered = [...v.required.filter((r) => v.props.has(r)), ...names.filter((n) => !v.requiredSet.has(n))].slice(0, MAX_VARIED_PROPS);
      const size = Object.keys(minimal).length + 1;
      for (const name of ordered) {
        if (this.#work >= WORK_BUDGET) break;
        // A required member's first candidate is its base value: that is the minimal object again.
        const all = this.#candidatesOf(this.#memberSchemas(v, name), depth + 1);
        const values = v.requiredSet.has(name) ? all.slice(1) : all;
        // Each variant copies the minimal object: a huge `required` list costs in proportion.
        const take = Math.max(1, Math.min(values.length, Math.floor((WORK_BUDGET - this.#work) / size)));
        this.#work += take * size;
        lists.push(values.slice(0, take).map((c) => withMember(minimal, name, c)));
      }
    }
    return lists;
  }

  #arrayVariants(v: View, depth: number): unknown[][] {
    const base = this.#baseOfView(v, depth) as unknown[];
    if (!Array.isArray(base)) return [];
    const item = v.items.length > 0 ? this.#childBase(v.items, depth) : 'value';
    const shapes: unknown[] = [[], base, [...base, item], [item, item]];
    for (const n of [...v.minItems, ...v.maxItems]) {
      for (const len of [n - 1, n, n + 1]) if (len >= 0 && len <= MAX_ARRAY) shapes.push(Array.from({ length: len }, (_, i) => (i < base.length ? base[i] : item)));
    }
    const lists: unknown[][] = [shapes];
    if (depth < this.#maxDepth) {
      if (v.items.length > 0) lists.push(this.#candidatesOf(v.items, depth + 1).map((c) => [...base, c]));
      if (v.extraItems.length > 0) lists.push(this.#candidatesOf(v.extraItems, depth + 1).map((c) => [...base, c]));
      v.prefix.slice(0, 16).forEach((refs, i) => {
        lists.push(this.#candidatesOf(refs, depth + 1).map((c) => replaceAt(base, i, c)));
      });
      if (v.contains.length > 0) lists.push(this.#candidatesOf(v.contains, depth + 1).slice(0, 8).map((c) => [c]));
    }
    return lists;
  }

  #stringVariants(v: View): unknown[] {
    const out: unknown[] = [];
    // Under a pattern, strings of a bounding length are built by stretching a matching sample.
    const seed = v.patterns.length > 0 ? this.#patternSamples(v.patterns[0]!).find((x) => x.length > 0) : undefined;
    const ofLength = (len: number, fill: string) => (seed === undefined ? fill.repeat(len) : stretch(seed, len));
    const longest = seed === undefined ? MAX_STRING : MAX_PATTERN_STRING;
    const length = (n: number, fill: string) => {
      if (n >= 0 && n <= longest) out.push(ofLength(n, fill));
    };
    const formats = v.formats.map((f) => (hasOwn(FORMATS, f) ? FORMATS[f] : undefined)).filter((f) => f !== undefined);
    const patterns = v.patterns.slice(0, 4).filter((p) => this.#regexp(p) !== null);
    // Just outside each bound first (they are what tells a dropped constraint), then on the bounds.
    for (const n of v.minLength) length(n - 1, 'b');
    for (const n of v.maxLength) length(n + 1, 'c');
    for (const f of formats) out.push(f.invalid[0]!);
    for (const p of patterns) {
      const re = this.#regexp(p)!;
      const no = STRING_PROBES.find((x) => !re.test(x));
      if (no !== undefined) out.push(no);
    }
    for (const n of v.minLength) length(n, 'b');
    for (const n of v.maxLength) length(n, 'c');
    for (const f of formats) out.push(...f.valid, ...f.invalid.slice(1));
    for (const p of patterns) out.push(...this.#patternSamples(p));
    out.push('', 'a', 'A longer sample string', 'é🙂', '123', 'null');
    return out;
  }

  // ---- random combinations -----------------------------------------------------------------------

  /** A random value built from the candidates: objects get a random subset of members, each a random candidate. */
  #random(seeds: readonly NodeRef[], depth: number): unknown {
    const v = this.#view(seeds, () => this.#int(MAX_BRANCHES));
    const types = effectiveTypes(v);
    const roll = this.#next();
    if (depth >= this.#maxDepth || roll < 0.15 || this.#valueNodes >= RANDOM_NODES || this.#randomNodes >= RANDOM_TOTAL) return this.#pick(this.#candidatesOf(seeds, Math.min(depth, this.#maxDepth)));
    this.#valueNodes++;
    this.#randomNodes++;
    if (types.includes('object') && (types.length === 1 || roll < 0.7)) {
      const out: Record<string, unknown> = {};
      for (const name of v.required) if (this.#next() < 0.9) setOwn(out, name, this.#random(this.#memberSchemas(v, name), depth + 1));
      for (const name of [...v.props.keys()].slice(0, MAX_VARIED_PROPS)) if (!hasOwn(out, name) && this.#next() < 0.4) setOwn(out, name, this.#random(v.props.get(name)!, depth + 1));
      if (this.#next() < 0.1) setOwn(out, EXTRA_KEY, this.#arbitrary(1));
      return out;
    }
    if (types.includes('array') && (types.length === 1 || roll < 0.7)) {
      const len = this.#int(4);
      const out: unknown[] = [];
      for (let i = 0; i < len; i++) out.push(this.#random(v.prefix[i] ?? (v.items.length > 0 ? v.items : v.extraItems), depth + 1));
      return out;
    }
    return this.#pick(this.#candidatesOf(seeds, depth));
  }

  /** Arbitrary JSON of bounded depth, from the seeded stream. */
  #arbitrary(depth: number): unknown {
    const k = this.#int(depth > 0 ? 8 : 5);
    switch (k) {
      case 0:
        return null;
      case 1:
        return this.#next() < 0.5;
      case 2:
        return this.#int(2001) - 1000;
      case 3:
        return Math.round((this.#next() * 200 - 100) * 1000) / 1000;
      case 4:
        return `s${this.#int(100000)}`;
      case 5:
      case 6: {
        const len = this.#int(4);
        return Array.from({ length: len }, () => this.#arbitrary(depth - 1));
      }
      default: {
        const out: Record<string, unknown> = {};
        const len = this.#int(4);
        for (let i = 0; i < len; i++) setOwn(out, `k${this.#int(10)}`, this.#arbitrary(depth - 1));
        return out;
      }
    }
  }
}

/**
 * The cache key of a list of seeds: each path with its length before it, so that no two lists share one (joined
 * by a separator, no seeds and the root alone were both `""`, and a path holding the separator read as two).
 */
function keyOf(seeds: readonly NodeRef[]): string {
  let key = '';
  for (const s of seeds) key += s.path.length + ':' + s.path;
  return key;
}

function pointerTokens(path: string): string[] {
  return path === '' ? [] : path.slice(1).split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function pointerOf(tokens: readonly string[]): string {
  let out = '';
  for (const t of tokens) out = appendPointer(out, t);
  return out;
}

function pushNumber(list: number[], x: unknown): void {
  if (typeof x === 'number' && Number.isFinite(x)) list.push(x);
}

function numbersOf(x: unknown): number[] {
  return typeof x === 'number' && Number.isFinite(x) ? [x] : [];
}

/** `type` lists intersected (an `integer` meets a `number`); `b` as a set, so long lists stay linear. */
function intersectTypes(a: readonly string[], b: readonly string[]): string[] {
  const inB = new Set(b);
  const out: string[] = [];
  for (const t of a) {
    if (inB.has(t)) out.push(t);
    else if (t === 'integer' && inB.has('number')) out.push('integer');
    else if (t === 'number' && inB.has('integer')) out.push('integer');
  }
  return out;
}

/** Whether a `type` entry names one of JSON's types. */
function isTypeName(t: unknown): t is string {
  return typeof t === 'string' && (ALL_TYPES as readonly string[]).includes(t);
}

/** The types to build values of: the declared ones, else those the keywords present suggest, else none. */
function effectiveTypes(v: View): string[] {
  if (v.types !== undefined) return v.types.filter((t) => (ALL_TYPES as readonly string[]).includes(t));
  const out: string[] = [];
  if (v.props.size > 0 || v.required.length > 0 || v.closed || v.additional.length > 0 || v.patternProps.length > 0 || v.minProperties.length > 0 || v.maxProperties.length > 0) out.push('object');
  if (v.items.length > 0 || v.prefix.length > 0 || v.contains.length > 0 || v.minItems.length > 0 || v.maxItems.length > 0) out.push('array');
  if (v.minLength.length > 0 || v.maxLength.length > 0 || v.patterns.length > 0 || v.formats.length > 0) out.push('string');
  if (v.minimum.length + v.maximum.length + v.exclusiveMinimum.length + v.exclusiveMaximum.length + v.multipleOf.length > 0) out.push('number');
  return out;
}

function primaryType(v: View): string | undefined {
  const types = effectiveTypes(v);
  if (v.types !== undefined && v.types.length === 0) return undefined;
  for (const t of ['object', 'array', 'string', 'integer', 'number', 'boolean', 'null']) if (types.includes(t)) return t;
  return undefined;
}

/** One sample of every JSON type the `type` list does not allow (all of them when there is no list). */
function wrongTypes(types: readonly string[] | undefined): unknown[] {
  const out: unknown[] = [];
  for (const t of ALL_TYPES) {
    if (types === undefined || !(types.includes(t) || (t === 'integer' && types.includes('number')))) out.push(WRONG_TYPE_SAMPLE[t]);
  }
  return out;
}

/** A number inside the bounds (and a multiple of `multipleOf`) when one is easy to find, else the lower bound. */
function numberBase(v: View, integer: boolean): number {
  const lo = Math.max(...v.minimum, ...v.exclusiveMinimum.map((x) => x + (integer ? 1 : 0.5)), -Infinity);
  const hi = Math.min(...v.maximum, ...v.exclusiveMaximum.map((x) => x - (integer ? 1 : 0.5)), Infinity);
  const step = v.multipleOf[0];
  const candidates = [1, 0, lo, Math.ceil(lo), hi, Math.floor(hi)];
  if (step !== undefined) candidates.unshift(step, Number.isFinite(lo) ? Math.ceil(lo / step) * step : step);
  for (const c of candidates) {
    if (!Number.isFinite(c) || c < lo || c > hi) continue;
    if (integer && !Number.isInteger(c)) continue;
    if (step !== undefined && !isMultiple(c, step)) continue;
    return c;
  }
  return Number.isFinite(lo) ? lo : Number.isFinite(hi) ? hi : 1;
}

function isMultiple(x: number, step: number): boolean {
  const q = x / step;
  return Math.abs(q - Math.round(q)) < 1e-9;
}

/** Values around every bound: on it, just inside and just outside; a fraction for integers; multiples. */
function numberVariants(v: View, integer: boolean): unknown[] {
  const out: number[] = [];
  const d = integer ? 1 : 0.5;
  // Just outside each bound first (they are what tells a dropped constraint), then on and inside.
  for (const b of v.minimum) out.push(b - 1);
  for (const b of v.maximum) out.push(b + 1);
  out.push(...v.exclusiveMinimum, ...v.exclusiveMaximum);
  for (const m of v.multipleOf) out.push(m * 1.5);
  if (integer) out.push(2.5);
  out.push(...v.minimum, ...v.maximum);
  for (const b of v.exclusiveMinimum) out.push(b + d);
  for (const b of v.exclusiveMaximum) out.push(b - d);
  for (const m of v.multipleOf) out.push(m, m * 2);
  out.push(0, 1, -1, 1.5, 100, -100, 1e6);
  for (const b of [...v.minimum, ...v.maximum, ...v.exclusiveMinimum, ...v.exclusiveMaximum]) out.push(b - d, b + d, b - 0.001, b + 0.001);
  for (const m of v.multipleOf) out.push(m * 3, m / 2);
  return [...new Set(out.filter((x) => Number.isFinite(x)).map((x) => (Object.is(x, -0) ? 0 : x)))];
}

/** Round-robin over the categories until `cap` values are taken. */
function interleave(categories: readonly (readonly unknown[])[], cap: number): unknown[] {
  const out: unknown[] = [];
  // Cheap deduplication: equal primitives and the same object; equal objects built apart may repeat
  // here (the root deduplicates by JSON text).
  const seen = new Set<unknown>();
  let longest = 0;
  for (const c of categories) longest = Math.max(longest, c.length);
  for (let i = 0; i < longest && out.length < cap; i++) {
    for (const c of categories) {
      if (i >= c.length) continue;
      const v = c[i];
      const key = typeof v === 'string' ? 's' + v : typeof v === 'object' && v !== null ? v : typeof v + String(v);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(v);
      if (out.length >= cap) break;
    }
  }
  return out;
}

/** `sample` made `len` characters long by repeating its last character (or cut). */
function stretch(sample: string, len: number): string {
  const chars = [...sample];
  if (chars.length >= len) return chars.slice(0, len).join('');
  return sample + chars[chars.length - 1]!.repeat(len - chars.length);
}

function copyOwn(o: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(o)) setOwn(out, k, o[k]);
  return out;
}

/**
 * The JSON values `value` holds, itself included, each counted every time it appears (what writing it out
 * visits), counted up to `cap` (a larger count is returned as `cap`, and so is any value holding an array of
 * more than `maxArray` items). Iterative.
 */
function countNodes(value: unknown, cap: number, maxArray = Infinity): number {
  let n = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && n < cap) {
    const x = stack.pop();
    n++;
    if (typeof x !== 'object' || x === null) continue;
    if (Array.isArray(x)) {
      if (x.length > maxArray) return cap;
      for (let i = 0; i < x.length; i++) stack.push(x[i]);
    } else for (const k in x) if (hasOwn(x, k)) stack.push((x as Record<string, unknown>)[k]);
  }
  return n < cap ? n : cap;
}

/** Whether `value` holds more than `max` JSON values (see {@link countNodes}). */
function exceedsNodes(value: unknown, max: number): boolean {
  return countNodes(value, max + 1) > max;
}

function withMember(o: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const out = copyOwn(o);
  if (hasOwn(out, key)) delete out[key];
  setOwn(out, key, value);
  return out;
}

function without(o: Record<string, unknown>, key: string): Record<string, unknown> {
  const out = copyOwn(o);
  delete out[key];
  return out;
}

/**
 * `o` without the members `keys` names: what removing each in turn gives, in one copy (a copy per name took a
 * `dependentRequired` of 20,000 names beside 20,000 required members 53 s).
 */
function withoutAll(o: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const drop = new Set(keys);
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(o)) if (!drop.has(k)) setOwn(out, k, o[k]);
  return out;
}

function replaceAt(a: readonly unknown[], i: number, value: unknown): unknown[] {
  const out = a.slice();
  while (out.length < i) out.push(null);
  out[i] = value;
  return out;
}

/** Whether a schema's own value is small enough to sit in instances (see {@link MAX_SAMPLE_ARRAY}); iterative. */
function isSmallSample(value: unknown): boolean {
  return countNodes(value, MAX_SAMPLE_NODES + 1, MAX_SAMPLE_ARRAY) <= MAX_SAMPLE_NODES;
}
