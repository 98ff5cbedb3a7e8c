// Why one file: the `$ref` inventory and its resolution share the base-URI and resource rules (a reference
// resolves against the resource the inventory found it in); split, each half would re-derive the other's.
// Resolution finds anchors and resources through tables built from the inventory on first use (see
// findAnchor), not by reading the lists per reference: that was quadratic (20,000 `$anchor` references took
// lintTools 5.4 s, now 0.4 s).
import { ANCHOR_KEYWORDS, DEFINITIONS_KEYWORDS, REFERENCE_KEYWORDS, UNION_KEYWORDS, type Dialect } from './keywords.js';
import { appendPointer, formatPointer, getAt, parsePointer } from '../json/pointer.js';
import { hasOwn, isObject } from '../json/guards.js';
import { parseRef, type ParsedRef } from './ref-syntax.js';
import { CHILD, childrenOf, walkJson } from './walk.js';
import { anchorShape } from '../json/shapes.js';
import { assertPlainJson } from '../json/plain.js';
import type { ToolslimError } from '../json/errors.js';

/** Where a reference sits in a document, and what it says. */
export interface RefSite {
  /** Pointer to the value of the reference keyword, relative to the document root (`/properties/a/$ref`). */
  readonly path: string;
  /** Pointer to the schema object that holds the keyword. */
  readonly schemaPath: string;
  readonly keyword: string;
  readonly ref: string;
  /** False when the `$ref`-shaped value was found inside data (`default`, `enum`, unknown keywords). */
  readonly inSchema: boolean;
  /** Pointer to the root of the schema resource the reference resolves against (`""` = the document). */
  readonly resource: string;
}

/** A plain-name anchor (`$anchor`, `$dynamicAnchor`, or a draft-07 `$id: "#name"`). */
export interface AnchorSite {
  readonly path: string;
  readonly name: string;
  readonly keyword: string;
  readonly resource: string;
  readonly dynamic: boolean;
}

/** A subschema that starts a schema resource of its own (an embedded `$id`). */
export interface ResourceSite {
  readonly path: string;
  readonly id: string;
  /** The id resolved against the enclosing resource; undefined when it cannot be resolved. */
  readonly uri: string | undefined;
}

/** Every reference, anchor and embedded resource of one document, found in one walk. */
export interface RefInventory {
  readonly refs: readonly RefSite[];
  readonly anchors: readonly AnchorSite[];
  readonly resources: readonly ResourceSite[];
  /** The resolved `$id` of the root, or undefined when the root has none. */
  readonly rootUri: string | undefined;
}

const PLACEHOLDER_BASE = 'toolslim-root://document/';

/** The keyword that carries a schema's identifier in `dialect`. */
export function idKeyword(dialect: Dialect): string {
  return dialect === 'draft-04' || dialect === 'openapi-3.0' ? 'id' : '$id';
}

/**
 * The references of one version of one document, each resolved at most once: the inventory (one walk) and,
 * asked for, the resolution of every reference and the list of those that resolve to nothing. A document
 * version is a schema object that is never written again (a pipeline step's input, or its output once the
 * step is done); edits make a new object, and with it a new index.
 */
export class RefIndex {
  /** The document version indexed. */
  readonly schema: unknown;
  /** The dialect it is read in (which keyword is the identifier: `id` or `$id`). */
  readonly dialect: Dialect;
  /** Every reference, anchor and embedded resource, found in one walk. */
  readonly inventory: RefInventory;
  #resolutions: RefResolution[] | undefined;
  #unresolved: { site: RefSite; reason: string }[] | undefined;

  /**
   * Without `inventory`, the schema is walked for one ({@link collectRefInventory}), after the check every
   * public function that walks a caller's schema makes: a schema that contains itself is a
   * {@link ToolslimError} (`invalid-input`) naming the pointer, not a walk that never ends. Toolslim's own
   * indexes are made with their inventory (the engine's input is checked once, per run).
   */
  constructor(schema: unknown, dialect: Dialect, inventory?: RefInventory) {
    if (inventory === undefined) {
      assertPlainJson(schema, 'RefIndex', 'the schema');
      inventory = collectRefInventory(schema, dialect);
    }
    this.schema = schema;
    this.dialect = dialect;
    this.inventory = inventory;
  }

  /** How each reference of the inventory resolves, in inventory order. */
  get resolutions(): readonly RefResolution[] {
    if (this.#resolutions === undefined) {
      // Loops, not `map` and `forEach`: an array `map` makes has another elements kind once its caller is
      // optimised (see the engine's `names`, src/engine/run.ts), and a closure made per call takes its
      // optimised code with it at a full GC (src/json/shapes.ts).
      const refs = this.inventory.refs;
      const out: RefResolution[] = [];
      for (let i = 0; i < refs.length; i++) out.push(resolveRefSite(this.schema, this.inventory, refs[i]!));
      this.#resolutions = out;
    }
    return this.#resolutions;
  }

  /** How one reference of the inventory resolves. */
  resolution(site: RefSite): RefResolution {
    const i = this.inventory.refs.indexOf(site);
    return i < 0 ? resolveRefSite(this.schema, this.inventory, site) : this.resolutions[i]!;
  }

  /** Local references in schema positions that resolve to nothing, with the reason for each (see {@link findUnresolvedRefs}). */
  get unresolved(): readonly { readonly site: RefSite; readonly reason: string }[] {
    if (this.#unresolved === undefined) {
      const out: { site: RefSite; reason: string }[] = [];
      const resolutions = this.resolutions;
      const refs = this.inventory.refs;
      for (let i = 0; i < refs.length; i++) {
        const site = refs[i]!;
        if (!site.inSchema) continue;
        const r = resolutions[i]!;
        if (r.status === 'unresolved' || r.status === 'undecidable') out.push({ site, reason: r.reason });
      }
      this.#unresolved = out;
    }
    return this.#unresolved;
  }
}

/**
 * What one run has learned about the schemas it has seen, by schema object and dialect: each document
 * version's {@link RefIndex}, built on first use. The engine makes one per run; nothing else keeps it.
 */
export class SchemaAnalysis {
  readonly #byObject = new WeakMap<object, Map<Dialect, RefIndex>>();
  /** Key summaries of the run's subtrees by object (see schema/summary.ts). */
  readonly keySummaries = new WeakMap<object, readonly number[]>();
  readonly #facts = new WeakMap<object, Map<symbol, unknown>>();
  /** Documents the engine knows hold none of {@link INVENTORY_KEYS} anywhere (see {@link noteNoInventoryKeys}); a Set, as the analysis lives one run. */
  readonly #noInventoryKeys = new Set<object>();

  /**
   * Notes that no object inside `schema` (itself included, data too) has any of {@link INVENTORY_KEYS} as a
   * key: its inventory is then empty in every dialect, and {@link refs} does not walk it. The engine knows
   * it from its input check for every tool, and keeps it for each version a step makes that adds none.
   */
  noteNoInventoryKeys(schema: object): void {
    this.#noInventoryKeys.add(schema);
  }

  /**
   * What steps of this run have noted about `schema` (a step's input or a finished step's output, never
   * written again), by a key each module makes for itself (`Symbol('hoist: no nested definitions')`).
   */
  facts(schema: object): Map<symbol, unknown> {
    let facts = this.#facts.get(schema);
    if (facts === undefined) this.#facts.set(schema, (facts = new Map()));
    return facts;
  }

  /** The index of `schema` read as `dialect`. Never pass an object that will be written afterwards. */
  refs(schema: object, dialect: Dialect): RefIndex {
    let byDialect = this.#byObject.get(schema);
    if (byDialect === undefined) this.#byObject.set(schema, (byDialect = new Map()));
    let index = byDialect.get(dialect);
    if (index === undefined) byDialect.set(dialect, (index = new RefIndex(schema, dialect, this.#noInventoryKeys.has(schema) ? emptyInventory() : collectRefInventory(schema, dialect))));
    return index;
  }
}

let current: SchemaAnalysis | undefined;

/**
 * Runs `fn` with `analysis` as the one {@link refIndexOf} and {@link refInventoryOf} consult: within it,
 * asking twice for the same schema object walks it once. Only for code that never writes a schema object
 * after asking about it (the pipeline: a step's input is never written to, and a step's output is final
 * when the step ends).
 */
export function withAnalysis<T>(analysis: SchemaAnalysis, fn: () => T): T {
  const saved = current;
  current = analysis;
  try {
    return fn();
  } finally {
    current = saved;
  }
}

/**
 * The current run's notes about a schema object (see {@link SchemaAnalysis.facts}); undefined outside a
 * run, where nothing may be remembered (the caller may change its objects between calls).
 */
export function runFacts(schema: object): Map<symbol, unknown> | undefined {
  return current?.facts(schema);
}

/** The analysis of the current run (see {@link withAnalysis}), or undefined outside one. */
export function currentAnalysis(): SchemaAnalysis | undefined {
  return current;
}

/** The {@link RefIndex} of a document version: the current run's (see {@link withAnalysis}), or a fresh one outside a run. */
export function refIndexOf(schema: unknown, dialect: Dialect): RefIndex {
  if (current === undefined || typeof schema !== 'object' || schema === null) return new RefIndex(schema, dialect, collectRefInventory(schema, dialect));
  return current.refs(schema, dialect);
}

/** {@link collectRefInventory}, remembered for the rest of the current run (see {@link refIndexOf}). */
export function refInventoryOf(schema: unknown, dialect: Dialect): RefInventory {
  return refIndexOf(schema, dialect).inventory;
}

/**
 * Every key {@link collectRefInventory} records anything for, in any dialect: the reference keywords (at a
 * schema position or as a `$ref`-shaped object in data), both identifier keywords (`$id`, and `id`, which is
 * one dialect's identifier and the other's plain-name anchor) and the anchor keywords, each only with a
 * string value. A document where no object has any of them as a key with a string value has an empty
 * inventory.
 */
export const INVENTORY_KEYS: readonly string[] = Object.freeze([...REFERENCE_KEYWORDS, '$id', 'id', ...ANCHOR_KEYWORDS]);

/** What {@link collectRefInventory} finds in a document holding none of {@link INVENTORY_KEYS}. */
function emptyInventory(): RefInventory {
  return { refs: [], anchors: [], resources: [], rootUri: undefined };
}

/**
 * Collects references, anchors and embedded resources in one walk over every subschema position any
 * dialect knows, plus `$ref`-shaped objects inside data (conservatively, so nothing they might name is
 * ever removed).
 * Unchecked, for the engine's checked input: the public entry (engine/checked.ts) first refuses a value that
 * contains itself.
 */
export function collectRefInventory(schema: unknown, dialect: Dialect): RefInventory {
  const refs: RefSite[] = [];
  const anchors: AnchorSite[] = [];
  const resources: ResourceSite[] = [];
  const idKey = idKeyword(dialect);
  // The other dialects' id keyword (`id` ↔ `$id`) as a plain-name anchor too: readers disagree on which
  // key a mislabelled schema uses, and an extra anchor only ever keeps more.
  const otherKey = idKey === 'id' ? '$id' : 'id';
  // Preorder walk: a scope stack of enclosing resources (each with the depth of its root), left when the
  // walk leaves them.
  const scopes: { path: string; uri: string; depth: number }[] = [];
  let rootUri: string | undefined;
  const rootId = isObject(schema) && typeof schema[idKey] === 'string' && !String(schema[idKey]).startsWith('#') ? String(schema[idKey]) : undefined;
  if (rootId !== undefined) rootUri = resolveUri(rootId, PLACEHOLDER_BASE);
  scopes.push({ path: '', uri: stripFragment(rootUri ?? PLACEHOLDER_BASE), depth: -1 });

  // The walk of walkSchema (every subschema position of UNION_KEYWORDS, preorder, document order, data
  // before children), with each node's pointer built only when something is recorded there (PointerTrail).
  const w = new PointerTrail(refs);

  // Frames, four slots each: node, keyword, entry, depth.
  const stack: unknown[] = [schema, undefined, undefined, 0];
  const items: unknown[] = [];
  while (stack.length > 0) {
    const depth = stack.pop() as number;
    const entry = stack.pop() as string | number | undefined;
    const keyword = stack.pop() as string | undefined;
    const node = stack.pop();
    w.enter(depth, keyword, entry);
    while (scopes.length > 1 && scopes[scopes.length - 1]!.depth >= depth) scopes.pop();
    if (!isObject(node)) {
      // `"properties": { "$ref": "#/…" }`: a map of subschemas that is itself `$ref`-shaped (a common
      // mistake); not a schema, but conservatively its target is kept like a reference found in data.
      if (typeof node === 'string' && typeof entry === 'string' && REFERENCE_KEYWORDS.includes(entry)) {
        const path = w.pathAt(depth);
        refs.push({ path, schemaPath: path.slice(0, path.lastIndexOf('/')), keyword: entry, ref: node, inSchema: false, resource: scopes[scopes.length - 1]!.path });
      }
      // An array where a subschema belongs is not a schema; whatever it holds is data.
      if (Array.isArray(node) && keyword !== undefined) w.scanData(node, depth, undefined, undefined, scopes[scopes.length - 1]!.path);
      continue;
    }
    const idValue = hasOwn(node, idKey) ? node[idKey] : undefined;
    if (typeof idValue === 'string') {
      if (idValue.startsWith('#')) {
        if (idValue.length > 1) anchors.push({ path: w.pathAt(depth), name: safeDecode(idValue.slice(1)), keyword: idKey, resource: scopes[scopes.length - 1]!.path, dynamic: false });
      } else if (depth > 0) {
        const path = w.pathAt(depth);
        const uri = resolveUri(idValue, scopes[scopes.length - 1]!.uri);
        resources.push({ path, id: idValue, uri: uri === undefined ? undefined : stripFragment(uri) });
        scopes.push({ path, uri: uri === undefined ? `${PLACEHOLDER_BASE}unresolvable/${resources.length}` : stripFragment(uri), depth });
      }
    }
    const resource = scopes[scopes.length - 1]!.path;
    const otherId = hasOwn(node, otherKey) ? node[otherKey] : undefined;
    if (typeof otherId === 'string' && otherId.length > 1 && otherId.startsWith('#')) anchors.push({ path: w.pathAt(depth), name: safeDecode(otherId.slice(1)), keyword: otherKey, resource, dynamic: false });
    if (typeof node.$anchor === 'string' && hasOwn(node, '$anchor')) anchors.push({ path: w.pathAt(depth), name: node.$anchor, keyword: '$anchor', resource, dynamic: false });
    if (typeof node.$dynamicAnchor === 'string' && hasOwn(node, '$dynamicAnchor')) anchors.push({ path: w.pathAt(depth), name: node.$dynamicAnchor, keyword: '$dynamicAnchor', resource, dynamic: true });
    for (let r = 0; r < REFERENCE_KEYWORDS.length; r++) {
      const refKeyword = REFERENCE_KEYWORDS[r]!;
      // Loaded on every node, not only behind `hasOwn`: a load reached only where a `$ref` is had too little
      // type feedback when the walk was optimised, and deoptimised it on the first `$ref` of each run.
      const ref = node[refKeyword];
      if (typeof ref === 'string' && hasOwn(node, refKeyword)) {
        const path = w.pathAt(depth);
        refs.push({ path: path + '/' + refKeyword, schemaPath: path, keyword: refKeyword, ref, inSchema: true, resource });
      }
    }
    items.length = 0;
    childrenOf(node, UNION_KEYWORDS, items, 'containers');
    // Data first, in document order, then the children, pushed last to first (visited in document order).
    for (let i = 0; i < items.length; i += 4) {
      if (items[i] === CHILD) continue;
      const value = items[i + 1];
      const k = items[i + 2] as string;
      const e = items[i + 3] as string | number | undefined;
      w.scanData(value, depth, k, e, resource);
    }
    for (let i = items.length - 4; i >= 0; i -= 4) {
      if (items[i] !== CHILD) continue;
      stack.push(items[i + 1], items[i + 2], items[i + 3], depth + 1);
    }
  }
  return { refs, anchors, resources, rootUri: rootUri === undefined ? undefined : stripFragment(rootUri) };
}

/**
 * {@link collectRefInventory}'s pointers, built only when something is recorded at a node: by depth, the
 * keyword and entry that led to the current node's ancestors, and their pointers once built; and its scan of
 * data for `$ref`-shaped objects. A class with methods, not closures made per call: V8 keeps a function's
 * optimised code only while one of its closures lives, and per-call closures (one per data value here)
 * had the walk recompiled after every full GC (see json/shapes.ts).
 */
class PointerTrail {
  readonly keywords: (string | undefined)[] = [undefined];
  readonly entries: (string | number | undefined)[] = [undefined];
  readonly paths: (string | undefined)[] = [''];
  constructor(readonly refs: RefSite[]) {}

  /** The walk is at `depth`, reached through `keyword` and `entry`. */
  enter(depth: number, keyword: string | undefined, entry: string | number | undefined): void {
    this.keywords[depth] = keyword;
    this.entries[depth] = entry;
    this.paths[depth] = depth === 0 ? '' : undefined;
  }

  /** The pointer of the node at `depth` (and of its ancestors, kept for the next ask). */
  pathAt(depth: number): string {
    const { paths, keywords, entries } = this;
    let i = depth;
    while (paths[i] === undefined) i--;
    let p = paths[i]!;
    for (let j = i + 1; j <= depth; j++) {
      p = appendPointer(p, keywords[j]!);
      const entry = entries[j];
      if (entry !== undefined) p = appendPointer(p, entry);
      paths[j] = p;
    }
    return p;
  }

  /**
   * Data (`default`, `enum`, unknown keywords, an array where a subschema belongs) at the node at `depth`
   * (under `keyword` and `entry`, or the node itself when `keyword` is undefined): a `$ref`-shaped value
   * anywhere keeps its target. Pointers are spelled out only for data that holds one.
   */
  scanData(value: unknown, depth: number, keyword: string | undefined, entry: string | number | undefined, resource: string): void {
    if (!holdsRefShapedObject(value)) return;
    let at = this.pathAt(depth);
    if (keyword !== undefined) {
      at = appendPointer(at, keyword);
      if (entry !== undefined) at = appendPointer(at, entry);
    }
    const refs = this.refs;
    walkJson(value, at, (v, p) => {
      if (!isObject(v)) return;
      for (let r = 0; r < REFERENCE_KEYWORDS.length; r++) {
        const keyword = REFERENCE_KEYWORDS[r]!;
        if (hasOwn(v, keyword) && typeof v[keyword] === 'string') refs.push({ path: p + '/' + keyword, schemaPath: p, keyword, ref: v[keyword] as string, inSchema: false, resource });
      }
    });
  }
}

/** Whether some object inside `value` (itself included) has a reference keyword with a string value. */
function holdsRefShapedObject(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const x = v[i];
        if (typeof x === 'object' && x !== null) stack.push(x);
      }
    } else if (isObject(v)) {
      for (let r = 0; r < REFERENCE_KEYWORDS.length; r++) if (hasOwn(v, REFERENCE_KEYWORDS[r]!) && typeof v[REFERENCE_KEYWORDS[r]!] === 'string') return true;
      // `Object.values`, not `v[k]`: data objects are rare, so a keyed load here had no type feedback when the
      // walk was optimised (it is inlined into collectRefInventory), and deoptimised the whole walk once per run.
      for (const x of Object.values(v)) if (typeof x === 'object' && x !== null) stack.push(x);
    }
  }
  return false;
}

/** How a reference resolves within its document. */
export type RefResolution =
  /**
   * `path` is the target's pointer from the document root. For a JSON Pointer fragment, `base` is the
   * pointer of the resource it is read against and `tokens` the fragment's tokens (`path` = `base` + `tokens`).
   */
  | { readonly status: 'resolved'; readonly path: string; readonly base?: string; readonly tokens?: readonly string[] }
  /** Local, well-formed, but nothing is there. */
  | { readonly status: 'unresolved'; readonly reason: string }
  /** Names another document (never fetched). */
  | { readonly status: 'external'; readonly uri: string }
  /** Cannot be decided without knowing the document's retrieval URI, or malformed. */
  | { readonly status: 'undecidable'; readonly reason: string };

/** Resolves one reference of `inventory` against `schema`, following embedded resources and anchors. */
export function resolveRefSite(schema: unknown, inventory: RefInventory, site: RefSite): RefResolution {
  const parsed = parseRef(site.ref);
  if (parsed.kind === 'invalid') return { status: 'undecidable', reason: parsed.reason };
  if (site.keyword === '$recursiveRef') return { status: 'resolved', path: site.resource };
  if (parsed.kind === 'external') return resolveExternal(schema, inventory, site, parsed);
  return resolveFragment(schema, inventory, site.resource, parsed, site.keyword === '$dynamicRef');
}

function resolveExternal(schema: unknown, inventory: RefInventory, site: RefSite, parsed: Extract<ParsedRef, { kind: 'external' }>): RefResolution {
  const scope = site.resource === '' ? inventory.rootUri : findResourceAt(inventory, site.resource)?.uri;
  const base = scope ?? PLACEHOLDER_BASE;
  const uri = resolveUri(parsed.uri, base);
  if (uri === undefined) return { status: 'undecidable', reason: `\`${site.ref}\` is not a valid URI reference` };
  const target = stripFragment(uri);
  let resource: string | undefined;
  if (inventory.rootUri !== undefined && target === inventory.rootUri) resource = '';
  else resource = findResourceNamed(inventory, target)?.path;
  if (resource === undefined) {
    if (inventory.rootUri === undefined && !isAbsoluteUri(parsed.uri)) {
      return { status: 'undecidable', reason: `\`${site.ref}\` is relative and the document has no \`$id\`: it may name the document itself` };
    }
    return { status: 'external', uri: target };
  }
  const fragment = parseRef('#' + parsed.fragment);
  if (fragment.kind === 'invalid') return { status: 'undecidable', reason: fragment.reason };
  return resolveFragment(schema, inventory, resource, fragment, false);
}

function resolveFragment(schema: unknown, inventory: RefInventory, resource: string, parsed: ParsedRef, dynamic: boolean): RefResolution {
  if (parsed.kind === 'pointer') {
    const base = parsePointer(resource);
    const tokens = [...base, ...parsed.tokens];
    if (getAt(schema, tokens) === undefined) return { status: 'unresolved', reason: `nothing at \`#${formatPointer(parsed.tokens)}\`` };
    return { status: 'resolved', path: formatPointer(tokens), base: resource, tokens: parsed.tokens };
  }
  if (parsed.kind === 'anchor') {
    // A `$dynamicRef` starts where a `$ref` would; its dynamic scope can only widen the set of candidates,
    // so a caller that must be conservative considers every anchor of that name in the document.
    void dynamic;
    const hit = findAnchor(inventory, resource, parsed.name);
    if (hit === undefined) return { status: 'unresolved', reason: `no anchor \`${parsed.name}\`` };
    return { status: 'resolved', path: hit.path };
  }
  return { status: 'undecidable', reason: 'unexpected reference form' };
}

/**
 * Lookups by name, resource and URI over an inventory's anchors and resources. Every `$ref` to an anchor or an
 * `$id` asks one; a scan of the list per reference made resolution quadratic (20,000 `$anchor` references:
 * prune-unreachable-defs 4.6 s, lintTools 5.4 s; 20,000 `$id` references: reconcile-dialect 3.9 s). Each
 * answers what the scan `list.find(…)` answered: the first match in document order, also when a name or URI
 * is declared twice. A short list is still scanned (nothing to build); a longer one gets a table on first
 * use, kept by the list itself (an inventory's lists are never written once made, and `{ ...inventory, refs }`
 * keeps them and so its tables).
 */
const SCAN_LIMIT = 8;

/** An inventory's anchors by name (all, in document order) and by resource and name (the first). */
class AnchorTable {
  /** How many anchors the table was built from (a list that has grown since gets a new one). */
  readonly size: number;
  readonly byName = new Map<string, AnchorSite[]>();
  readonly byResource = new Map<string, Map<string, AnchorSite>>();
  constructor(anchors: readonly AnchorSite[]) {
    for (let i = 0; i < anchors.length; i++) {
      const a = anchors[i]!;
      const named = this.byName.get(a.name);
      if (named === undefined) this.byName.set(a.name, [a]);
      else named.push(a);
      let inResource = this.byResource.get(a.resource);
      if (inResource === undefined) this.byResource.set(a.resource, (inResource = new Map()));
      if (!inResource.has(a.name)) inResource.set(a.name, a);
    }
    this.size = anchors.length;
  }
}

/** An inventory's resources by path and by resolved URI (the first of each). */
class ResourceTable {
  readonly size: number;
  readonly byPath = new Map<string, ResourceSite>();
  readonly byUri = new Map<string, ResourceSite>();
  constructor(resources: readonly ResourceSite[]) {
    for (let i = 0; i < resources.length; i++) {
      const r = resources[i]!;
      if (!this.byPath.has(r.path)) this.byPath.set(r.path, r);
      if (r.uri !== undefined && !this.byUri.has(r.uri)) this.byUri.set(r.uri, r);
    }
    this.size = resources.length;
  }
}

const anchorTables = new WeakMap<readonly AnchorSite[], AnchorTable>();
const resourceTables = new WeakMap<readonly ResourceSite[], ResourceTable>();

function anchorTableOf(anchors: readonly AnchorSite[]): AnchorTable {
  let table = anchorTables.get(anchors);
  if (table === undefined || table.size !== anchors.length) anchorTables.set(anchors, (table = new AnchorTable(anchors)));
  return table;
}

function resourceTableOf(resources: readonly ResourceSite[]): ResourceTable {
  let table = resourceTables.get(resources);
  if (table === undefined || table.size !== resources.length) resourceTables.set(resources, (table = new ResourceTable(resources)));
  return table;
}

const NO_ANCHORS: readonly AnchorSite[] = Object.freeze([]);

/** Every anchor of the inventory declaring `name`, in any resource, in document order. */
export function findAnchorsNamed(inventory: RefInventory, name: string): readonly AnchorSite[] {
  const anchors = inventory.anchors;
  if (anchors.length <= SCAN_LIMIT) {
    let out: AnchorSite[] | undefined;
    for (let i = 0; i < anchors.length; i++) if (anchors[i]!.name === name) (out ??= []).push(anchors[i]!);
    return out ?? NO_ANCHORS;
  }
  return anchorTableOf(anchors).byName.get(name) ?? NO_ANCHORS;
}

/** The first anchor (in document order) declaring `name` in the resource rooted at `resource`. */
export function findAnchor(inventory: RefInventory, resource: string, name: string): AnchorSite | undefined {
  const anchors = inventory.anchors;
  if (anchors.length <= SCAN_LIMIT) {
    for (let i = 0; i < anchors.length; i++) if (anchors[i]!.name === name && anchors[i]!.resource === resource) return anchors[i];
    return undefined;
  }
  return anchorTableOf(anchors).byResource.get(resource)?.get(name);
}

/** The first embedded resource (in document order) rooted at `path`. */
export function findResourceAt(inventory: RefInventory, path: string): ResourceSite | undefined {
  const resources = inventory.resources;
  if (resources.length <= SCAN_LIMIT) {
    for (let i = 0; i < resources.length; i++) if (resources[i]!.path === path) return resources[i];
    return undefined;
  }
  return resourceTableOf(resources).byPath.get(path);
}

/** The first embedded resource (in document order) whose resolved URI is `uri` (without a fragment). */
export function findResourceNamed(inventory: RefInventory, uri: string): ResourceSite | undefined {
  const resources = inventory.resources;
  if (resources.length <= SCAN_LIMIT) {
    for (let i = 0; i < resources.length; i++) if (resources[i]!.uri === uri) return resources[i];
    return undefined;
  }
  return resourceTableOf(resources).byUri.get(uri);
}

/**
 * Local references (in schema positions) that resolve to nothing, with the reason for each.
 * Unchecked, for the engine's checked input: the public entry (engine/checked.ts) first refuses a value that
 * contains itself.
 */
export function findUnresolvedRefs(schema: unknown, dialect: Dialect, inventory = collectRefInventory(schema, dialect)): { site: RefSite; reason: string }[] {
  const out: { site: RefSite; reason: string }[] = [];
  for (const site of inventory.refs) {
    if (!site.inSchema) continue;
    const r = resolveRefSite(schema, inventory, site);
    if (r.status === 'unresolved' || r.status === 'undecidable') out.push({ site, reason: r.reason });
  }
  return out;
}

/** The `[container, name]` of the root definition a pointer lies in, or undefined. */
export function definitionOf(schema: unknown, path: string): readonly [string, string] | undefined {
  if (!isObject(schema) || path.length < 2) return undefined;
  const second = path.indexOf('/', 1);
  const container = path.slice(1, second === -1 ? undefined : second);
  if (second === -1 || !DEFINITIONS_KEYWORDS.includes(container) || !isObject(schema[container]) || !hasOwn(schema, container)) return undefined;
  const third = path.indexOf('/', second + 1);
  const tokens = parsePointer(path.slice(0, third === -1 ? undefined : third));
  return [tokens[0]!, tokens[1]!];
}

function isWithin(path: string, ancestor: string): boolean {
  return ancestor === '' || path === ancestor || path.startsWith(ancestor + '/');
}

function resolveUri(ref: string, base: string): string | undefined {
  try {
    return new URL(ref, base).href;
  } catch {
    return undefined;
  }
}

function stripFragment(uri: string): string {
  const i = uri.indexOf('#');
  return i === -1 ? uri : uri.slice(0, i);
}

function isAbsoluteUri(uri: string): boolean {
  return /^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(uri);
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

// Keeps RefIndex's and SchemaAnalysis's shapes (and the code optimised for them) alive between runs.
anchorShape([new RefIndex({}, 'draft-07', emptyInventory()), new SchemaAnalysis(), new PointerTrail([]), new AnchorTable([]), new ResourceTable([])]);
