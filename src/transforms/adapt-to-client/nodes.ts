/** Helpers adapt-to-client's steps share: where nodes sit, keyword roles, own keys that may be `__proto__`. */
import { hasOwn, isObject } from '../../json/guards.js';
import { escapeToken, formatPointer, getAt, parsePointer } from '../../json/pointer.js';
import { isLegacyDialect } from '../../schema/dialect.js';
import { KEYWORD_TABLES, UNION_KEYWORDS, DEFINITIONS_KEYWORDS, type Dialect, type KeywordTable } from '../../schema/keywords.js';
import { parseRef } from '../../schema/ref-syntax.js';
import { collectRefTargets, holdsRefTarget, type RefTargets } from '../../schema/ref-targets.js';
import type { MessageData } from '../../core/context.js';
import { findAnchorsNamed, refInventoryOf, SchemaAnalysis, withAnalysis, type RefInventory, type RefSite } from '../../schema/refs.js';
import { findReachedDefinitions } from '../prune-unreachable-defs.js';
import type { StepEditor } from './step.js';
import { CHILD, childrenOf, walkSchema } from '../../schema/walk.js';


/** Where each schema node sits: the nearest enclosing definition entry, if any. */
export interface NodeInfo {
  /** Pointer of the nearest node (itself included) that is an entry of a definitions container. */
  readonly defEntry: string | undefined;
  /** The node itself. */
  readonly node: unknown;
}

export function indexNodes(schema: unknown): Map<string, NodeInfo> {
  const info = new Map<string, NodeInfo>();
  // Each node's entry from its parent's, noted by node (the walk is preorder and the input acyclic, so a
  // subschema shared by two places is read under the current one): a stack of enclosing paths tested with
  // `startsWith` read each path whole, quadratic in depth.
  const entries = new Map<object, string | undefined>();
  walkSchema(schema, '', {
    table: UNION_KEYWORDS,
    onSchema(node, path, keyword, parent) {
      const inherited = parent !== undefined ? entries.get(parent) : undefined;
      const defEntry = keyword !== undefined && DEFINITIONS_KEYWORDS.includes(keyword) ? path : inherited;
      info.set(path, { defEntry, node });
      if (isObject(node)) entries.set(node, defEntry);
    },
  });
  return info;
}

export function within(path: string, ancestor: string): boolean {
  return ancestor === '' || path === ancestor || path.startsWith(ancestor + '/');
}


export function isAnnotation(keyword: string): boolean {
  return UNION_KEYWORDS.get(keyword)?.role === 'annotation';
}


export function setOwnKey(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
}

export function nameOf(path: string): string {
  if (path === '') return '#';
  const tokens = parsePointer(path);
  return tokens[tokens.length - 1]!;
}


/**
 * Why readers may disagree on what an anchor reference (`#name`) names, or undefined when they agree: the
 * name is declared by more than one schema of the document (which one is meant depends on the reader), or
 * only where `dialect` reads no schema (see {@link placeDoubt}). Rewriting such a reference to name one
 * schema would choose a reading; reconcile-dialect reports the same shapes (`ambiguous-anchor`,
 * `tuple-id`) and leaves the tool as it is.
 */
export function anchorDoubt(schema: unknown, inventory: RefInventory, site: RefSite, dialect: Dialect): string | undefined {
  const parsed = parseRef(site.ref);
  if (parsed.kind !== 'anchor') return undefined;
  const holders = [...new Set(findAnchorsNamed(inventory, parsed.name).map((a) => a.path))];
  if (holders.length > 1) return `\`${site.ref}\` is declared by ${holders.length} schemas, and readers disagree on which one it names`;
  return undefined;
}

/**
 * Why the value at `path` is not a schema the way `dialect` reads the document, or undefined when it is: it
 * lies inside a keyword the dialect does not know (`prefixItems` in draft-07: ajv registers no anchor
 * there, other readers do), or inside a sibling of `$ref` in a dialect whose `$ref` ignores its siblings
 * (draft-04/06/07: `properties` beside `$ref` is not read, yet a 2019-09+ reader, or the client, applies
 * it). Readers disagree on such a place; reconcile-dialect leaves a tool whose references name one as it
 * is (`referenced-ref-sibling`, `referenced-foreign-keyword`), and copying the target out would change
 * that decision on the next run. Definitions containers are read as such in every dialect (`$defs` in
 * draft-07 too, as ajv and every reader resolve pointers into them), also beside `$ref`.
 */
export function placeDoubt(root: unknown, path: string, dialect: Dialect): string | undefined {
  const table = KEYWORD_TABLES[dialect];
  const legacy = isLegacyDialect(dialect);
  const tokens = parsePointer(path);
  let node = root;
  for (let i = 0; i < tokens.length; ) {
    if (!isObject(node)) return `\`${path}\` is not inside a schema`;
    const k = tokens[i]!;
    const here = formatPointer(tokens.slice(0, i + 1));
    const defs = DEFINITIONS_KEYWORDS.includes(k);
    if (legacy && !defs && typeof node.$ref === 'string' && hasOwn(node, '$ref')) return `\`${path}\` lies in \`${here}\`, beside \`$ref\`, which ${dialect} readers ignore and others apply`;
    const shape = defs ? 'schemaMap' : table.get(k)?.shape;
    if (shape === undefined || shape === 'opaque' || !hasOwn(node, k)) return `\`${path}\` lies in \`${here}\`, which ${dialect} does not read as a schema`;
    const value = node[k];
    const entry = tokens[i + 1];
    const notRead = `\`${path}\` lies in \`${here}\`, which ${dialect} does not read as a schema`;
    if (shape === 'schema' || (shape === 'schemaOrArray' && !Array.isArray(value))) {
      node = value;
      i += 1;
    } else if (shape === 'schemaArray' || shape === 'schemaOrArray') {
      if (!Array.isArray(value) || entry === undefined || !/^(?:0|[1-9][0-9]*)$/.test(entry) || Number(entry) >= value.length) return notRead;
      node = value[Number(entry)];
      i += 2;
    } else {
      // schemaMap, or draft-07 `dependencies` (a schema, or a list of names that is no schema)
      if (!isObject(value) || entry === undefined || !hasOwn(value, entry)) return notRead;
      node = value[entry];
      if (shape === 'schemaOrStrings' && Array.isArray(node)) return notRead;
      i += 2;
    }
  }
  return undefined;
}

/**
 * Runs `read` with a fresh analysis: the run's (see `withAnalysis`) remembers each schema object's
 * references, and a step's working copy is written in place once it owns it (copy-on-write), so asking the
 * run's analysis about it before and after an edit would give the answer from before twice.
 */
function fresh<T>(read: () => T): T {
  return withAnalysis(new SchemaAnalysis(), read);
}

/** The top-level definitions references reach (as prune-unreachable-defs reads it), or undefined when undecidable or there are none. */
export function reachedDefinitions(schema: unknown): ReadonlySet<string> | undefined {
  if (!isObject(schema) || !DEFINITIONS_KEYWORDS.some((c) => hasOwn(schema, c) && isObject(schema[c]))) return undefined;
  const r = fresh(() => findReachedDefinitions(schema));
  return 'keys' in r ? r.keys : undefined;
}

/**
 * Like {@link reachedDefinitions}, but when reachability is undecidable (a reference whose target cannot be
 * decided may name any definition), every top-level definition: each may be reached. For the lossy steps,
 * which can remove that reference: what no reference reaches after them is then theirs to remove, as
 * prune-unreachable-defs would on the next run, now that it can decide.
 */
export function possiblyReachedDefinitions(schema: unknown): ReadonlySet<string> | undefined {
  if (!isObject(schema) || !DEFINITIONS_KEYWORDS.some((c) => hasOwn(schema, c) && isObject(schema[c]))) return undefined;
  const r = fresh(() => findReachedDefinitions(schema));
  if ('keys' in r) return r.keys;
  const all = new Set<string>();
  for (const container of DEFINITIONS_KEYWORDS) {
    const defs = hasOwn(schema, container) ? schema[container] : undefined;
    if (isObject(defs)) for (const name of Object.keys(defs)) all.add(container + '\u0000' + name);
  }
  return all;
}

/**
 * Removes the top-level definitions that references reached before some edits (`before`, from
 * {@link reachedDefinitions}) and reach no more, reading reachability as prune-unreachable-defs does, so
 * that a later run has nothing left to prune. Definitions nothing reached before are not the edits' to
 * remove; undecidable reachability removes nothing. `except`: a pointer kept whatever (a copy just made).
 */
export function removeOrphanedDefs(ed: StepEditor, before: ReadonlySet<string> | undefined, code: string, data: MessageData, except?: string): void {
  if (before === undefined) return;
  const schema = ed.root as Record<string, unknown>;
  const after = reachedDefinitions(schema);
  if (after === undefined) return;
  const orphans: { path: string; name: string; container: string }[] = [];
  for (const container of DEFINITIONS_KEYWORDS) {
    const defs = hasOwn(schema, container) ? schema[container] : undefined;
    if (!isObject(defs)) continue;
    for (const name of Object.keys(defs)) {
      const key = container + '\u0000' + name;
      const path = '/' + escapeToken(container) + '/' + escapeToken(name);
      if (path !== except && before.has(key) && !after.has(key)) orphans.push({ path, name, container });
    }
  }
  for (const o of orphans) ed.remove(o.path, code, { ...data, name: o.name, container: o.container });
  // A container these removals emptied goes too (normalize-schema would remove it on the next run).
  for (const container of new Set(orphans.map((o) => o.container))) {
    const left = ed.get('/' + escapeToken(container));
    if (isObject(left) && Object.keys(left).length === 0) ed.remove('/' + escapeToken(container), 'removed-emptied-defs', { keyword: container });
  }
}

/**
 * Whether an object of `schema` has an own `unevaluatedProperties`, in a schema position or anywhere in data
 * (an opaque or unknown keyword's value, a value of the wrong shape), as `table` reads it: the test
 * normalize-schema makes before it removes `additionalProperties: true` or an empty `properties` (which
 * `unevaluatedProperties` can observe). The same reading, so that what it holds back is known here.
 */
export function usesUnevaluatedProperties(schema: unknown, table: KeywordTable): boolean {
  // Fast path: an object key shows in the compact text as `"unevaluatedProperties":` (an escaped quote
  // inside a string cannot end in `":`).
  if (!JSON.stringify(schema).includes('"unevaluatedProperties":')) return false;
  const schemas: unknown[] = [schema];
  const data: unknown[] = [];
  const items: unknown[] = [];
  while (schemas.length > 0) {
    const node = schemas.pop();
    if (Array.isArray(node)) data.push(node);
    if (!isObject(node)) continue;
    if (hasOwn(node, 'unevaluatedProperties')) return true;
    items.length = 0;
    childrenOf(node, table, items, true);
    for (let i = 0; i < items.length; i += 4) (items[i] === CHILD ? schemas : data).push(items[i + 1]);
  }
  while (data.length > 0) {
    const v = data.pop();
    if (Array.isArray(v)) {
      for (const x of v) if (typeof x === 'object' && x !== null) data.push(x);
    } else if (isObject(v)) {
      if (hasOwn(v, 'unevaluatedProperties')) return true;
      for (const k of Object.keys(v)) {
        const x = v[k];
        if (typeof x === 'object' && x !== null) data.push(x);
      }
    }
  }
  return false;
}

/**
 * Removes what normalize-schema held back only because `unevaluatedProperties` could observe it (an
 * `additionalProperties: true`, an empty `properties` below the root), once the lossy steps removed the
 * last `unevaluatedProperties` (the caller checks that it was there before them and is gone): the next
 * run's normalize-schema would remove them, so the preset reaches its fixed point in one run. Read as
 * normalize-schema reads it: schema positions of `dialect`, nothing a reference may land on.
 */
export function removeHeldBackByUnevaluated(ed: StepEditor, dialect: Dialect): void {
  const root = ed.root;
  let targets: RefTargets | undefined;
  const found: { path: string; code: 'removed-additional-properties' | 'removed-empty-properties' }[] = [];
  walkSchema(root, '', {
    table: KEYWORD_TABLES[dialect],
    onSchema(node, path) {
      if (!isObject(node)) return;
      for (const key of Object.keys(node)) {
        const value = node[key];
        let code: (typeof found)[number]['code'] | undefined;
        if (key === 'additionalProperties' && value === true) code = 'removed-additional-properties';
        // The root `properties` stays, as normalize-schema keeps it (some clients want it).
        else if (key === 'properties' && path !== '' && isObject(value) && Object.keys(value).length === 0) code = 'removed-empty-properties';
        if (code === undefined) continue;
        const at = path + '/' + escapeToken(key);
        targets ??= fresh(() => collectRefTargets(root, dialect, refInventoryOf(root, dialect)));
        if (!holdsRefTarget(targets, at)) found.push({ path: at, code });
      }
    },
  });
  for (const f of found) ed.remove(f.path, f.code, {});
}

/**
 * The empty definitions containers (`$defs: {}`, in schema positions of `dialect`) that a reference may
 * land in: normalize-schema removes an empty container, except where a reference may land. The lossy steps
 * can remove that reference; see {@link removeUnreferencedEmptyDefs}.
 */
export function referencedEmptyDefs(schema: unknown, dialect: Dialect): string[] {
  const empty: string[] = [];
  walkSchema(schema, '', {
    table: KEYWORD_TABLES[dialect],
    onSchema(node, path) {
      if (!isObject(node)) return;
      for (const key of Object.keys(node)) {
        const value = node[key];
        if (DEFINITIONS_KEYWORDS.includes(key) && isObject(value) && Object.keys(value).length === 0) empty.push(path + '/' + escapeToken(key));
      }
    },
  });
  if (empty.length === 0) return empty;
  const targets = fresh(() => collectRefTargets(schema, dialect, refInventoryOf(schema, dialect)));
  return empty.filter((path) => holdsRefTarget(targets, path));
}

/**
 * Removes the containers `before` listed (from {@link referencedEmptyDefs}, read before the lossy steps)
 * that are still there and empty and that no reference may land in any more, as the next run's
 * normalize-schema would.
 */
export function removeUnreferencedEmptyDefs(ed: StepEditor, before: readonly string[], dialect: Dialect): void {
  if (before.length === 0) return;
  const root = ed.root;
  const targets = fresh(() => collectRefTargets(root, dialect, refInventoryOf(root, dialect)));
  const gone: string[] = [];
  for (const path of before) {
    const value = getAt(root, parsePointer(path));
    if (isObject(value) && Object.keys(value).length === 0 && !holdsRefTarget(targets, path)) gone.push(path);
  }
  for (let i = gone.length - 1; i >= 0; i--) {
    const path = gone[i]!;
    ed.remove(path, 'removed-unreferenced-empty-defs', { keyword: parsePointer(path).at(-1)! });
  }
}
