// Why one file: one transform whose two passes (hoisting containers, hoisting `$ref` targets) share the naming
// and path-map helpers below; splitting it scatters them.
import type { EditContext } from '../core/context.js';
import { defineTransform } from '../engine/define-transform.js';
import { SCHEMA_SLOTS, type SchemaSlot } from '../core/tool.js';
import { DEFINITIONS_KEYWORDS, DIALECTS, UNION_KEYWORDS, definitionsKeyword, type Dialect, type KeywordInfo } from '../schema/keywords.js';
import { appendPointer, parsePointer } from '../json/pointer.js';
import { formatRefPointer } from '../schema/ref-syntax.js';
import { hasOwn, isObject } from '../json/guards.js';
import { collectRefInventory, refInventoryOf, resolveRefSite, type RefInventory } from '../schema/refs.js';
import { PathMap, SequentialMoves, planRefRewrites, type Relocation } from '../schema/relocate.js';
import { uniqueName } from '../schema/names.js';
import { someSubschema, walkSchema } from '../schema/walk.js';
import type { SchemaDocument, UnknownDialectDocument } from '../core/documents.js';
import { belowRoot } from './below-root.js';

/** Options of {@link hoistNestedDefs}. */
export interface HoistNestedDefsOptions {
  /**
   * Also move every `$ref` target that lies outside the root definitions (zod's `#/properties/a/properties/b`)
   * into them, and point both places at it: for readers that accept only `#/$defs/…` references.
   */
  readonly refTargets?: boolean;
  /** The dialect of a schema without `$schema` (default `2020-12`, as MCP specifies). */
  readonly assume?: Dialect;
  /** Which schemas of each tool to rewrite (default both). */
  readonly slots?: readonly SchemaSlot[];
}

/**
 * Moves every definitions container below the root into the root's (`$defs`, or `definitions` in
 * draft-04/06/07), prefixing each name with where it came from (`definitions.input.definitions.__schema0`
 * → `$defs.input__schema0`), and rewrites every reference to the old places. Readers register only the
 * root's definitions; nested ones are valid JSON Pointer targets that they never find.
 */
export const hoistNestedDefs = defineTransform<HoistNestedDefsOptions, undefined>({
  name: 'hoist-nested-defs',
  description: 'Move nested definitions (and optionally every $ref target) into the root definitions, rewriting every $ref',
  safety: 'lossless',
  defaultOptions: { refTargets: false, assume: '2020-12', slots: SCHEMA_SLOTS },
  messages: {
    'hoisted-definition': 'Moved definition `{name}` from `{from}` to `{to}`',
    'removed-empty-container': 'Removed `{keyword}` at `{at}`, emptied by the move',
    'created-container': 'Created the root `{keyword}` to hold moved definitions',
    'hoisted-ref-target': 'Moved the schema at `{from}`, which a `$ref` addresses, to `{to}`',
    'pointed-at-definition': 'Replaced the schema at `{from}` with a `$ref` to `{to}`',
    'rewrote-ref': 'Pointed `$ref` at `{to}` (was `{from}`)',
    'left-in-resource': 'Left `{keyword}` at `{at}` in place: it belongs to the embedded resource at `{resource}`, whose references resolve against it',
    'left-embedded-dialect': 'Left `{keyword}` at `{at}` in place: the subschema at `{resource}` declares its own `$schema`',
    'kept-referenced-container': 'Left `{keyword}` at `{at}` in place: a `$ref` addresses the container itself',
    'kept-header-property': 'Left `{from}` in place: it is (or lies in) a property with `x-mcp-header`, which must stay reachable through `properties`',
    'kept-root-ref': 'Left `$ref` `{ref}` at `{at}`: it addresses the whole document, which cannot move into `{keyword}`',
    'unknown-dialect': '`$schema` is `{uri}`, not a dialect toolslim knows; left the schema as it is',
    'root-container-not-object': 'Left nested definitions in place: the root `{keyword}` is not an object',
  },
  validateOptions(options) {
    if (typeof options.refTargets !== 'boolean') throw new Error('`refTargets` must be true or false');
    if (!DIALECTS.includes(options.assume as Dialect)) throw new Error(`\`assume\` must be one of ${DIALECTS.join(', ')}`);
    if (!Array.isArray(options.slots) || options.slots.some((s) => !SCHEMA_SLOTS.includes(s))) throw new Error('`slots` must list `inputSchema` and/or `outputSchema`');
  },
  apply(doc, ctx, options) {
    // The engine's reading of the slots (dialect by `$schema` or `assume`), shared with the run's other steps.
    const slots = options.slots ?? SCHEMA_SLOTS;
    for (let s = 0; s < slots.length; s++) {
      const slot = slots[s]!;
      const unknown = unknownIn(doc.unknownDialects, slot);
      if (unknown !== undefined) {
        ctx.report('info', 'unknown-dialect', `/${slot}/$schema`, { uri: String(unknown.uri) });
        continue;
      }
      const d = documentIn(doc.documents, slot);
      if (d === undefined) continue;
      const { schema, dialect } = d;
      const rootKey = definitionsKeyword(dialect);
      const base = '/' + slot;
      // Read on every call, not only when present: a load this function rarely runs has no type feedback
      // when V8 optimises it, and the first tool with definitions would deoptimise it again.
      const container = schema[rootKey];
      if (hasOwn(schema, rootKey) && !isObject(container)) {
        ctx.report('warning', 'root-container-not-object', base + '/' + rootKey, { keyword: rootKey });
        continue;
      }
      // A look earlier in the run (reconcile-dialect's) found no definitions container below the root: nothing to hoist.
      const below = belowRoot(d);
      if (below === undefined || below.definitions) hoistContainers(schema, base, ctx, dialect, rootKey);
      if (options.refTargets) {
        const now = ctx.get(base);
        if (isObject(now)) hoistRefTargets(now, base, ctx, dialect, rootKey);
      }
    }
  },
});

function documentIn(documents: readonly SchemaDocument[], slot: SchemaSlot): SchemaDocument | undefined {
  for (const d of documents) if (d.slot === slot) return d;
  return undefined;
}

function unknownIn(unknown: readonly UnknownDialectDocument[], slot: SchemaSlot): UnknownDialectDocument | undefined {
  for (const u of unknown) if (u.slot === slot) return u;
  return undefined;
}

/** A definitions container below the root: what {@link hoistContainers} moves. */
function hasNestedContainer(node: Record<string, unknown>, isRoot: boolean): boolean {
  if (isRoot) return false;
  for (let d = 0; d < DEFINITIONS_KEYWORDS.length; d++) if (hasOwn(node, DEFINITIONS_KEYWORDS[d]!) && isObject(node[DEFINITIONS_KEYWORDS[d]!])) return true;
  return false;
}

/** A subschema being visited: where it was, where it is now, and the namespace its definitions get. */
type Frame = [node: unknown, orig: string, cur: string, namespace: string];

/** Moves every nested definitions container's entries into the root container. */
function hoistContainers(schema: Record<string, unknown>, base: string, ctx: EditContext, dialect: Dialect, rootKey: string): void {
  // Most schemas nest no definitions at all: one pointer-free look, and nothing else to do.
  if (!someSubschema(schema, hasNestedContainer)) return;
  // `schema` is the tool's document as the step received it, never edited in place.
  const inventory = refInventoryOf(schema, dialect);
  const targets = resolvedTargets(schema, inventory);
  const resources = resourceRoots(inventory);
  const dialects = new Set(subschemasDeclaringDialect(schema));
  const map = new PathMap();
  const rootPath = '/' + rootKey;
  const taken = new Set<string>(hasOwn(schema, rootKey) ? Object.keys(schema[rootKey] as object) : []);
  let rootExists = hasOwn(schema, rootKey);
  const stack: Frame[] = [[schema, '', '', '']];
  while (stack.length > 0) {
    const [node, orig, cur, namespace] = stack.pop()!;
    if (orig !== cur) map.set(orig, cur);
    if (!isObject(node)) continue;
    const entryMoves = new Map<string, Map<string, readonly [string, string]>>();
    const removed = new Set<string>();
    if (orig !== '') {
      for (const keyword of Object.keys(node)) {
        if (!DEFINITIONS_KEYWORDS.includes(keyword) || !isObject(node[keyword])) continue;
        const where = base + appendPointer(cur, keyword);
        // Findings point into the input, like every finding of a transform.
        const was = base + appendPointer(orig, keyword);
        const resource = enclosingResource(orig, resources);
        if (resource !== undefined) {
          ctx.report('info', 'left-in-resource', was, { keyword, at: was, resource: base + resource });
          continue;
        }
        const island = enclosingResource(orig, dialects);
        if (island !== undefined) {
          ctx.report('info', 'left-embedded-dialect', was, { keyword, at: was, resource: base + island });
          continue;
        }
        if (targets.has(appendPointer(orig, keyword))) {
          ctx.report('info', 'kept-referenced-container', was, { keyword, at: was });
          continue;
        }
        if (!rootExists) {
          ctx.add(base + rootPath, {}, 'created-container', { keyword: rootKey });
          rootExists = true;
        }
        const moved = new Map<string, readonly [string, string]>();
        const container = node[keyword] as Record<string, unknown>;
        for (const name of Object.keys(container)) {
          const newName = uniqueName(joinName(namespace, name), taken);
          taken.add(newName);
          const to = appendPointer(rootPath, newName);
          ctx.move(appendPointer(where, name), base + to, 'hoisted-definition', { name, from: appendPointer(where, name), to: base + to });
          moved.set(name, [to, newName]);
        }
        ctx.remove(where, 'removed-empty-container', { keyword, at: where });
        entryMoves.set(keyword, moved);
        removed.add(keyword);
      }
    }
    pushChildren(node, orig, cur, namespace, stack, map, entryMoves, removed);
  }
  rewriteRefs(schema, inventory, map, base, ctx);
}

/** Pushes a node's subschemas (in document order) with their current pointers and namespaces. */
function pushChildren(
  node: Record<string, unknown>,
  orig: string,
  cur: string,
  namespace: string,
  stack: Frame[],
  map: PathMap,
  entryMoves: ReadonlyMap<string, ReadonlyMap<string, readonly [string, string]>>,
  removed: ReadonlySet<string>,
): void {
  const children: Frame[] = [];
  for (const keyword of Object.keys(node)) {
    const info = UNION_KEYWORDS.get(keyword);
    if (!info || info.shape === 'opaque') continue;
    const value = node[keyword];
    const origKey = appendPointer(orig, keyword);
    const curKey = appendPointer(cur, keyword);
    const moved = entryMoves.get(keyword);
    if (removed.has(keyword)) map.set(origKey, null);
    for (const [entry, origPath, childCur, childNamespace] of subschemaEntries(info, keyword, value, origKey, curKey, namespace)) {
      const to = moved?.get(entry);
      children.push(to === undefined ? [entryValue(value, entry), origPath, childCur, childNamespace] : [entryValue(value, entry), origPath, to[0], to[1]]);
    }
  }
  for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
}

/** The subschema positions of one keyword's value: entry key, original pointer, current pointer, namespace. */
function subschemaEntries(info: KeywordInfo, keyword: string, value: unknown, origKey: string, curKey: string, namespace: string): [string, string, string, string][] {
  const out: [string, string, string, string][] = [];
  if (Array.isArray(value)) {
    if (info.shape === 'schemaArray' || info.shape === 'schemaOrArray') {
      for (let i = 0; i < value.length; i++) out.push([String(i), appendPointer(origKey, i), appendPointer(curKey, i), joinNamespace(namespace, `${keyword}_${i}`)]);
    }
  } else if (info.shape === 'schema' || info.shape === 'schemaOrArray') {
    out.push(['', origKey, curKey, joinNamespace(namespace, keyword)]);
  } else if ((info.shape === 'schemaMap' || info.shape === 'schemaOrStrings') && isObject(value)) {
    for (const k of Object.keys(value)) {
      if (Array.isArray(value[k])) continue;
      out.push([k, appendPointer(origKey, k), appendPointer(curKey, k), joinNamespace(namespace, k)]);
    }
  }
  return out;
}

function entryValue(value: unknown, entry: string): unknown {
  if (entry === '') return value;
  if (Array.isArray(value)) return value[Number(entry)];
  return isObject(value) ? value[entry] : undefined;
}

/** Moves every `$ref` target outside the root definitions into them (deepest first), leaving a `$ref` behind. */
function hoistRefTargets(schema: Record<string, unknown>, base: string, ctx: EditContext, dialect: Dialect, rootKey: string): void {
  const inventory = collectRefInventory(schema, dialect);
  const resources = resourceRoots(inventory);
  const nodes = collectSchemaNodes(schema);
  const candidates = new Map<string, number>();
  for (const site of inventory.refs) {
    if (!site.inSchema) continue;
    const r = resolveRefSite(schema, inventory, site);
    if (r.status !== 'resolved' || r.tokens === undefined || r.base !== '') continue;
    const path = r.path;
    if (path === '') {
      ctx.report('info', 'kept-root-ref', base + site.path, { ref: site.ref, at: base + site.path, keyword: rootKey });
      continue;
    }
    const first = path.slice(1).split('/')[0]!;
    if (DEFINITIONS_KEYWORDS.includes(first) && isObject(schema[first])) continue;
    const info = nodes.get(path);
    if (info === undefined || enclosingResource(path, resources) !== undefined || candidates.has(path)) continue;
    if (underHeaderProperty(path, nodes)) {
      ctx.report('info', 'kept-header-property', base + path, { from: base + path });
      continue;
    }
    candidates.set(path, info.order);
  }
  if (candidates.size === 0) return;
  const order = [...candidates.keys()].sort((a, b) => depth(b) - depth(a) || candidates.get(a)! - candidates.get(b)!);
  const taken = new Set<string>(hasOwn(schema, rootKey) ? Object.keys(schema[rootKey] as object) : []);
  if (!hasOwn(schema, rootKey)) ctx.add(base + '/' + rootKey, {}, 'created-container', { keyword: rootKey });
  const moves = new SequentialMoves();
  for (const path of order) {
    const cur = moves.map(path)!;
    const name = uniqueName(nodes.get(path)!.namespace || 'schema', taken);
    taken.add(name);
    const to = appendPointer('/' + rootKey, name);
    ctx.add(base + to, ctx.get(base + cur), 'hoisted-ref-target', { from: base + cur, to: base + to });
    ctx.replace(base + cur, { $ref: formatRefPointer(parsePointer(to)) }, 'pointed-at-definition', { from: base + cur, to: base + to });
    moves.add(cur, to);
  }
  rewriteRefs(schema, inventory, moves, base, ctx);
}

function rewriteRefs(schema: Record<string, unknown>, inventory: RefInventory, relocation: Relocation, base: string, ctx: EditContext): void {
  const { rewrites, problems } = planRefRewrites(schema, inventory, relocation);
  if (problems.length > 0) throw new Error(`\`$ref\` \`${problems[0]!.site.ref}\` at \`${base}${problems[0]!.site.path}\` cannot follow its target: ${problems[0]!.reason}`);
  for (const r of rewrites) {
    const at = relocation.map(r.site.path);
    if (at === undefined) continue;
    ctx.replace(base + at, r.ref, 'rewrote-ref', { from: r.site.ref, to: r.ref });
  }
}

/** Every schema position of a document: its order in a preorder walk and the namespace a moved copy is named by. */
function collectSchemaNodes(schema: Record<string, unknown>): Map<string, { order: number; namespace: string; header: boolean }> {
  const out = new Map<string, { order: number; namespace: string; header: boolean }>();
  const stack: [unknown, string, string][] = [[schema, '', '']];
  while (stack.length > 0) {
    const [node, path, namespace] = stack.pop()!;
    out.set(path, { order: out.size, namespace, header: isObject(node) && hasOwn(node, 'x-mcp-header') });
    if (!isObject(node)) continue;
    const children: [unknown, string, string][] = [];
    for (const keyword of Object.keys(node)) {
      const info = UNION_KEYWORDS.get(keyword);
      if (!info || info.shape === 'opaque') continue;
      const p = appendPointer(path, keyword);
      for (const [entry, childPath, , childNamespace] of subschemaEntries(info, keyword, node[keyword], p, p, namespace)) children.push([entryValue(node[keyword], entry), childPath, childNamespace]);
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return out;
}

/** Pointers of the subschemas (below the root) that declare a `$schema` of their own. */
function subschemasDeclaringDialect(schema: Record<string, unknown>): string[] {
  const out: string[] = [];
  walkSchema(schema, '', {
    onSchema(node, path) {
      if (path !== '' && isObject(node) && hasOwn(node, '$schema')) out.push(path);
    },
  });
  return out;
}

/** True when the schema at `path`, or one it lies in, carries `x-mcp-header`. */
function underHeaderProperty(path: string, nodes: ReadonlyMap<string, { header: boolean }>): boolean {
  let p = path;
  for (;;) {
    if (nodes.get(p)?.header) return true;
    if (p === '') return false;
    p = p.slice(0, p.lastIndexOf('/'));
  }
}

/** The pointers (in the document) every resolvable `$ref` lands on. */
function resolvedTargets(schema: unknown, inventory: RefInventory): Set<string> {
  const out = new Set<string>();
  for (const site of inventory.refs) {
    const r = resolveRefSite(schema, inventory, site);
    if (r.status === 'resolved') out.add(r.path);
  }
  return out;
}

/** The pointers of the embedded resources' roots. */
function resourceRoots(inventory: RefInventory): Set<string> {
  const out = new Set<string>();
  for (const r of inventory.resources) out.add(r.path);
  return out;
}

/**
 * The innermost of `roots` (other than the document, `""`) that `path` lies in or starts, if any. Looked up
 * by `path`'s own prefixes, not by reading every root: once per nested container and per `$ref` target, a
 * read of every root was quadratic in embedded resources (20,000 resources each nesting `$defs`: 40 s).
 */
function enclosingResource(path: string, roots: ReadonlySet<string>): string | undefined {
  if (roots.size === 0) return undefined;
  if (path !== '' && roots.has(path)) return path;
  for (let k = path.lastIndexOf('/'); k > 0; k = path.lastIndexOf('/', k - 1)) {
    const prefix = path.slice(0, k);
    if (roots.has(prefix)) return prefix;
  }
  return undefined;
}

/** A definition's new name: its namespace and its name joined by `__` (leading underscores of the name dropped). */
function joinName(namespace: string, name: string): string {
  if (namespace === '') return name;
  return namespace + '__' + name.replace(/^_+/, '');
}

function joinNamespace(namespace: string, part: string): string {
  return namespace === '' ? part : namespace + '__' + part;
}

function depth(path: string): number {
  let n = 0;
  for (let i = 0; i < path.length; i++) if (path.charCodeAt(i) === 47) n++;
  return n;
}
