import { DEFINITIONS_KEYWORDS, REFERENCE_KEYWORDS, UNION_KEYWORDS, type Dialect } from './keywords.js';
import { getAt, parsePointer } from '../json/pointer.js';
import { hasOwn, isObject } from '../json/guards.js';
import { parseRef, type ParsedRef } from './ref-syntax.js';
import { walkJson, walkSchema } from './walk.js';

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

/** Inventories already taken during one pipeline run, by schema object and dialect. */
let runMemo: WeakMap<object, Map<Dialect, RefInventory>> | undefined;

/**
 * Runs `fn` with a memo for {@link refInventoryOf}: within it, asking twice for the same schema object's
 * inventory walks it once. Only for code that never mutates a schema object after asking (the pipeline:
 * a step's input is never written to, and a step's output is final when the step ends).
 */
export function withRefInventoryMemo<T>(fn: () => T): T {
  const saved = runMemo;
  runMemo = new WeakMap();
  try {
    return fn();
  } finally {
    runMemo = saved;
  }
}

/**
 * {@link collectRefInventory}, remembered for the rest of the current {@link withRefInventoryMemo} scope
 * (and computed afresh outside one). The pipeline's steps each need the inventory of the tool they are
 * given, and most steps change nothing: the next step, and the post-condition check, then ask again for
 * the same object. Never pass an object that will be edited in place afterwards.
 */
export function refInventoryOf(schema: unknown, dialect: Dialect): RefInventory {
  if (runMemo === undefined || typeof schema !== 'object' || schema === null) return collectRefInventory(schema, dialect);
  let byDialect = runMemo.get(schema);
  if (byDialect === undefined) runMemo.set(schema, (byDialect = new Map()));
  let inventory = byDialect.get(dialect);
  if (inventory === undefined) byDialect.set(dialect, (inventory = collectRefInventory(schema, dialect)));
  return inventory;
}

/**
 * Collects references, anchors and embedded resources in one walk over every subschema position any
 * dialect knows, plus `$ref`-shaped objects inside data (conservatively, so nothing they might name is
 * ever removed).
 */
export function collectRefInventory(schema: unknown, dialect: Dialect): RefInventory {
  const refs: RefSite[] = [];
  const anchors: AnchorSite[] = [];
  const resources: ResourceSite[] = [];
  const idKey = idKeyword(dialect);
  // Preorder walk: a scope stack of enclosing resources, popped when the walk leaves them.
  const scopes: { path: string; uri: string }[] = [];
  let rootUri: string | undefined;
  const rootId = isObject(schema) && typeof schema[idKey] === 'string' && !String(schema[idKey]).startsWith('#') ? String(schema[idKey]) : undefined;
  if (rootId !== undefined) rootUri = resolveUri(rootId, PLACEHOLDER_BASE);
  scopes.push({ path: '', uri: stripFragment(rootUri ?? PLACEHOLDER_BASE) });

  const scanData = (value: unknown, path: string, resource: string) => {
    walkJson(value, path, (v, p) => {
      if (!isObject(v)) return;
      for (const keyword of REFERENCE_KEYWORDS) {
        if (hasOwn(v, keyword) && typeof v[keyword] === 'string') refs.push({ path: p + '/' + keyword, schemaPath: p, keyword, ref: v[keyword] as string, inSchema: false, resource });
      }
    });
  };

  walkSchema(schema, '', {
    table: UNION_KEYWORDS,
    onSchema(node, path) {
      while (scopes.length > 1 && !isWithin(path, scopes[scopes.length - 1]!.path)) scopes.pop();
      if (!isObject(node)) {
        // `"properties": { "$ref": "#/…" }`: a map of subschemas that is itself `$ref`-shaped (a common
        // mistake); not a schema, but conservatively its target is kept like a reference found in data.
        const slash = path.lastIndexOf('/');
        const keyword = path.slice(slash + 1);
        if (typeof node === 'string' && slash > 0 && REFERENCE_KEYWORDS.includes(keyword)) {
          refs.push({ path, schemaPath: path.slice(0, slash), keyword, ref: node, inSchema: false, resource: scopes[scopes.length - 1]!.path });
        }
        return;
      }
      const idValue = hasOwn(node, idKey) ? node[idKey] : undefined;
      if (typeof idValue === 'string') {
        if (idValue.startsWith('#')) {
          if (idValue.length > 1) anchors.push({ path, name: safeDecode(idValue.slice(1)), keyword: idKey, resource: scopes[scopes.length - 1]!.path, dynamic: false });
        } else if (path !== '') {
          const uri = resolveUri(idValue, scopes[scopes.length - 1]!.uri);
          resources.push({ path, id: idValue, uri: uri === undefined ? undefined : stripFragment(uri) });
          scopes.push({ path, uri: uri === undefined ? `${PLACEHOLDER_BASE}unresolvable/${resources.length}` : stripFragment(uri) });
        }
      }
      const resource = scopes[scopes.length - 1]!.path;
      // The other dialects' id keyword (`id` ↔ `$id`) as a plain-name anchor too: readers disagree on which
      // key a mislabelled schema uses, and an extra anchor only ever keeps more.
      const otherKey = idKey === 'id' ? '$id' : 'id';
      const otherId = hasOwn(node, otherKey) ? node[otherKey] : undefined;
      if (typeof otherId === 'string' && otherId.length > 1 && otherId.startsWith('#')) anchors.push({ path, name: safeDecode(otherId.slice(1)), keyword: otherKey, resource, dynamic: false });
      if (typeof node.$anchor === 'string' && hasOwn(node, '$anchor')) anchors.push({ path, name: node.$anchor, keyword: '$anchor', resource, dynamic: false });
      if (typeof node.$dynamicAnchor === 'string' && hasOwn(node, '$dynamicAnchor')) anchors.push({ path, name: node.$dynamicAnchor, keyword: '$dynamicAnchor', resource, dynamic: true });
      for (const keyword of REFERENCE_KEYWORDS) {
        if (hasOwn(node, keyword) && typeof node[keyword] === 'string') {
          refs.push({ path: path + '/' + keyword, schemaPath: path, keyword, ref: node[keyword] as string, inSchema: true, resource });
        }
      }
    },
    onOpaque(keyword, value, path) {
      if (value === null || typeof value !== 'object') return;
      const resource = scopes[scopes.length - 1]!.path;
      // Data (`default`, `enum`, …) and unknown keywords alike: a `$ref`-shaped value anywhere keeps its target.
      void keyword;
      scanData(value, path, resource);
    },
  });
  return { refs, anchors, resources, rootUri: rootUri === undefined ? undefined : stripFragment(rootUri) };
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
  const scope = site.resource === '' ? inventory.rootUri : inventory.resources.find((r) => r.path === site.resource)?.uri;
  const base = scope ?? PLACEHOLDER_BASE;
  const uri = resolveUri(parsed.uri, base);
  if (uri === undefined) return { status: 'undecidable', reason: `\`${site.ref}\` is not a valid URI reference` };
  const target = stripFragment(uri);
  let resource: string | undefined;
  if (inventory.rootUri !== undefined && target === inventory.rootUri) resource = '';
  else resource = inventory.resources.find((r) => r.uri === target)?.path;
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
    if (getAt(schema, tokens) === undefined) return { status: 'unresolved', reason: `nothing at \`#${pointerOf(parsed.tokens)}\`` };
    return { status: 'resolved', path: pointerOf(tokens), base: resource, tokens: parsed.tokens };
  }
  if (parsed.kind === 'anchor') {
    // A `$dynamicRef` starts where a `$ref` would; its dynamic scope can only widen the set of candidates,
    // so a caller that must be conservative considers every anchor of that name in the document.
    void dynamic;
    const hit = inventory.anchors.find((a) => a.name === parsed.name && a.resource === resource);
    if (hit === undefined) return { status: 'unresolved', reason: `no anchor \`${parsed.name}\`` };
    return { status: 'resolved', path: hit.path };
  }
  return { status: 'undecidable', reason: 'unexpected reference form' };
}

/** Local references (in schema positions) that resolve to nothing, with the reason for each. */
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

function pointerOf(tokens: readonly string[]): string {
  let out = '';
  for (const t of tokens) out += '/' + t.replace(/~/g, '~0').replace(/\//g, '~1');
  return out;
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
