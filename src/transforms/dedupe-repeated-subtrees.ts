import type { EditContext } from '../core/context.js';
import { defineTransform } from '../engine/define-transform.js';
import { utf8Length } from '../core/measure.js';
import { SCHEMA_SLOTS, type SchemaSlot } from '../core/tool.js';
import { isModernDialect } from '../schema/dialect.js';
import type { SchemaDocument } from '../core/documents.js';
import { canonicalJson } from '../json/canonical.js';
import { ANCHOR_KEYWORDS, REFERENCE_KEYWORDS, type Dialect } from '../schema/keywords.js';
import { appendPointer, escapeToken, unescapeToken } from '../json/pointer.js';
import { formatRefPointer, parseRef } from '../schema/ref-syntax.js';
import { hasOwn, isObject } from '../json/guards.js';
import { collectRefTargets, holdsRefTargetBelow } from '../schema/ref-targets.js';
import { idKeyword } from '../schema/refs.js';
import { uniqueName } from '../schema/names.js';
import { walkSchema } from '../schema/walk.js';
import { builtinProfiles } from '../profiles/profiles.js';

/** The built-in profiles whose reader renders a `$ref` as `any` (issue 27): the readers this transform hurts. */
const TYPESCRIPT_READERS = builtinProfiles.filter((p) => p.reader.renderer === 'typescript').map((p) => p.name).join(', ');

/** Options of {@link dedupeRepeatedSubtrees}. */
export interface DedupeRepeatedSubtreesOptions {
  /** Smallest subtree (UTF-8 bytes of compact JSON) worth a definition. */
  readonly minBytes?: number;
  /** Which schemas of each tool to deduplicate (default both). */
  readonly slots?: readonly SchemaSlot[];
  /** The dialect of a schema without `$schema` (MCP: 2020-12); decides `$defs` or `definitions`. */
  readonly assume?: Dialect;
}

/**
 * Moves a subschema that repeats inside one schema (equal once keys are sorted, at least `minBytes`) into
 * the root definitions once, under a name taken from the nearest property, and makes each place a `$ref`
 * to it, when that saves bytes. A repeat that already is a root definition is reused. Never moves a
 * subtree that holds `$id`/`$anchor`/`$dynamicAnchor`, dynamic or non-fragment references, `$schema` or
 * an `x-mcp-header`; never one inside an embedded resource; never one a reference points into.
 */
export const dedupeRepeatedSubtrees = defineTransform<DedupeRepeatedSubtreesOptions, undefined>({
  name: 'dedupe-repeated-subtrees',
  description: 'Move subschemas repeated inside one schema into a definition referenced from each place',
  safety: 'lossless',
  createsRefs: true,
  defaultOptions: { minBytes: 120, slots: SCHEMA_SLOTS, assume: '2020-12' },
  messages: {
    'added-definition': 'Added definition `{name}` for a subschema repeated {count} times',
    'replaced-subtree': 'Replaced a repeated subschema with a reference to `{name}`',
    'hides-types': 'Replaced {count} subschema(s) with `$ref`, which a TypeScript reader ({readers}) renders as `any`: for those clients run presetForProfile(preset, profile), which leaves this transform out',
    undecidable: 'Left the schema unchanged: `$ref` `{ref}` at `{at}` cannot be resolved here ({reason})',
    'unknown-dialect': 'Left the schema unchanged: `$schema` `{uri}` names a meta-schema toolslim does not know (expected a JSON Schema draft URI)',
  },
  validateOptions(options) {
    if (!Number.isInteger(options.minBytes) || (options.minBytes as number) < 1) throw new Error('`minBytes` must be a positive integer');
  },
  apply(doc, ctx, options) {
    for (const u of doc.unknownDialects) ctx.report('info', 'unknown-dialect', u.base + '/$schema', { uri: String(u.uri) });
    for (const d of doc.documents) dedupeDocument(d, ctx, options.minBytes ?? 120);
  },
});

/** One subschema position, in preorder. */
interface Node {
  readonly value: unknown;
  readonly path: string;
  readonly parent: number;
  readonly keyword: string | undefined;
  /** The escaped token below the keyword (`properties/<label>`, `anyOf/<label>`), `""` for a single schema. */
  readonly label: string;
  /** Inside an embedded resource (a non-root `$id`): references there resolve against another base. */
  readonly inResource: boolean;
  children?: Node[];
  index: number;
  id: number;
  bytes: number;
  /** The subtree holds something that must not move. */
  pinned: boolean;
  state?: 'source' | 'gone';
  /** For a source: the pointer of the definition now holding its content. */
  movedTo?: string;
}

function dedupeDocument(d: SchemaDocument, ctx: EditContext, minBytes: number): void {
  const { schema, dialect, base } = d;
  const container = isModernDialect(dialect) ? '$defs' : 'definitions';
  if (!d.table.has(container)) return;
  // In draft-07 and before, a root `$ref` makes every sibling (definitions included) invisible.
  if (!isModernDialect(dialect) && hasOwn(schema, '$ref')) return;
  if (hasOwn(schema, container) && !isObject(schema[container])) return;
  const targets = collectRefTargets(schema, dialect, d.refs);
  if (targets.undecidable) {
    const { site, reason } = targets.undecidable;
    ctx.report('info', 'undecidable', base + site.path, { ref: site.ref, at: base + site.path, reason });
    return;
  }

  const nodes = collectNodes(schema, d);
  measure(nodes, dialect);

  // Candidates: equal subtrees, big enough, free to move.
  const groups = new Map<number, Node[]>();
  for (const n of nodes) {
    if (n.index === 0 || !isObject(n.value) || n.bytes < minBytes || n.pinned || n.inResource || holdsRefTargetBelow(targets, n.path)) continue;
    const list = groups.get(n.id);
    if (list) list.push(n);
    else groups.set(n.id, [n]);
  }
  const ordered = [...groups.values()].filter((g) => g.length > 1).sort((a, b) => b[0]!.bytes - a[0]!.bytes || a[0]!.index - b[0]!.index);
  if (ordered.length === 0) return;

  const used = new Set<string>(isObject(schema[container]) && hasOwn(schema, container) ? Object.keys(schema[container] as object) : []);
  let containerExists = used.size > 0 || (hasOwn(schema, container) && isObject(schema[container]));
  const containerPath = appendPointer(base, container);

  let replaced = 0;
  for (const group of ordered) {
    const live = group.map((n) => [n, currentPath(nodes, n)] as const).filter((x): x is readonly [Node, string] => x[1] !== undefined);
    if (live.length < 2) continue;
    const bytes = live[0]![0].bytes;
    // A repeat that already is a root definition is the one to point at.
    const existing = live.find(([n, p]) => n.parent === 0 && n.keyword === container && p === n.path);
    if (existing) {
      const ref = formatRefPointer([container, unescapeToken(existing[0].label)]);
      const refBytes = utf8Length(JSON.stringify({ $ref: ref }));
      if (bytes <= refBytes) continue;
      const name = unescapeToken(existing[0].label);
      for (const [n, p] of live) {
        if (n === existing[0]) continue;
        ctx.replace(base + p, { $ref: ref }, 'replaced-subtree', { name });
        n.state = 'gone';
        replaced++;
      }
      existing[0].state = 'source';
      existing[0].movedTo = existing[0].path;
      continue;
    }
    const name = uniqueName(nameFor(nodes, live[0]![0]), used);
    const ref = formatRefPointer([container, name]);
    const refBytes = utf8Length(JSON.stringify({ $ref: ref }));
    const entryBytes = utf8Length(JSON.stringify(name)) + 1 + bytes + (containerExists ? 1 : utf8Length(JSON.stringify(container)) + 4);
    const saved = live.length * bytes - live.length * refBytes - entryBytes;
    if (saved <= 0) continue;
    const [source, sourcePath] = live[0]!;
    const value = ctx.get(base + sourcePath);
    if (containerExists) ctx.add(appendPointer(containerPath, name), value, 'added-definition', { name, count: live.length });
    else {
      const entry: Record<string, unknown> = {};
      Object.defineProperty(entry, name, { value, writable: true, enumerable: true, configurable: true });
      ctx.add(containerPath, entry, 'added-definition', { name, count: live.length });
      containerExists = true;
    }
    used.add(name);
    for (const [n, p] of live) {
      ctx.replace(base + p, { $ref: ref }, 'replaced-subtree', { name });
      n.state = 'gone';
      replaced++;
    }
    source.state = 'source';
    source.movedTo = '/' + escapeToken(container) + '/' + escapeToken(name);
  }
  // What a client forwards to the model is the input schema: say which readers lose the types there.
  if (replaced > 0 && d.slot === 'inputSchema') ctx.report('info', 'hides-types', base, { count: replaced, readers: TYPESCRIPT_READERS });
}

/** Every subschema position of the document, in preorder, with its parent. */
function collectNodes(schema: Record<string, unknown>, d: SchemaDocument): Node[] {
  const nodes: Node[] = [];
  const chain: Node[] = [];
  const idKey = idKeyword(d.dialect);
  walkSchema(schema, '', {
    table: d.table,
    onSchema(value, path, keyword, parentValue) {
      while (chain.length > 0 && chain[chain.length - 1]!.value !== parentValue) chain.pop();
      const parent = chain[chain.length - 1];
      let label = '';
      if (parent && keyword !== undefined) {
        const rest = path.slice(parent.path.length + 1 + escapeToken(keyword).length);
        label = rest === '' ? '' : rest.slice(1);
      }
      const embedsResource = parent !== undefined && isObject(value) && hasOwn(value, idKey) && typeof value[idKey] === 'string' && !(value[idKey] as string).startsWith('#');
      const node: Node = {
        value,
        path,
        parent: parent ? parent.index : -1,
        keyword,
        label,
        inResource: (parent?.inResource ?? false) || embedsResource,
        index: nodes.length,
        id: 0,
        bytes: 0,
        pinned: false,
      };
      nodes.push(node);
      if (parent) (parent.children ??= []).push(node);
      chain.push(node);
    },
  });
  return nodes;
}

/**
 * Bottom-up (reverse preorder): an id per distinct canonical form (keys sorted, data in the one canonical
 * JSON form, `canonicalJson`, subschemas by id — equal ids exactly when the subtrees' canonical JSON is
 * equal), the compact JSON size, and whether the subtree must stay where it is.
 */
function measure(nodes: Node[], dialect: Dialect): void {
  const interned = new Map<string, number>();
  const intern = (s: string) => {
    let id = interned.get(s);
    if (id === undefined) interned.set(s, (id = interned.size));
    return id;
  };
  const idKey = idKeyword(dialect);
  const pinnedWords = [idKey, ...ANCHOR_KEYWORDS, '$recursiveAnchor', 'x-mcp-header'].map((k) => JSON.stringify(k) + ':');
  for (let i = nodes.length - 1; i >= 0; i--) {
    const n = nodes[i]!;
    const value = n.value;
    if (!isObject(value)) {
      n.id = intern('=' + canonicalData(value));
      n.bytes = utf8Length(JSON.stringify(value) ?? 'null');
      continue;
    }
    const byKeyword = new Map<string, Map<string, Node>>();
    let pinned = isPinned(value, idKey);
    for (const c of n.children ?? []) {
      if (c.pinned) pinned = true;
      let m = byKeyword.get(c.keyword!);
      if (!m) byKeyword.set(c.keyword!, (m = new Map()));
      m.set(c.label, c);
    }
    const keys = Object.keys(value);
    let bytes = 2 + Math.max(0, keys.length - 1);
    const parts: string[] = [];
    for (const key of keys) {
      const kids = byKeyword.get(key);
      const [canon, size] = kids ? describeSchemaValue(value[key], kids) : describeData(value[key]);
      // Data a reader might still index (an `$id` under an unknown keyword a `$ref` compiles): stay put.
      if (!kids && !pinned && typeof value[key] === 'object' && value[key] !== null && pinnedWords.some((w) => canon.includes(w))) pinned = true;
      parts.push(JSON.stringify(key) + ':' + canon);
      bytes += utf8Length(JSON.stringify(key)) + 1 + size;
    }
    parts.sort();
    n.id = intern('{' + parts.join(',') + '}');
    n.bytes = bytes;
    n.pinned = pinned;
  }
}

function describeData(value: unknown): [string, number] {
  return [canonicalData(value), utf8Length(JSON.stringify(value) ?? 'null')];
}

/** Canonical JSON of data; a member that is `undefined` (JSON omits it) stays distinct from `null`. */
function canonicalData(value: unknown): string {
  return value === undefined ? 'undefined' : canonicalJson(value);
}

/** The canonical form and size of a keyword's value that holds subschemas (`kids`, by label). */
function describeSchemaValue(value: unknown, kids: ReadonlyMap<string, Node>): [string, number] {
  const single = kids.get('');
  if (single) return ['#' + single.id, single.bytes];
  if (Array.isArray(value)) {
    let size = 2 + Math.max(0, value.length - 1);
    const items = value.map((item, i) => {
      const kid = kids.get(String(i));
      if (kid) {
        size += kid.bytes;
        return '#' + kid.id;
      }
      const [c, s] = describeData(item);
      size += s;
      return c;
    });
    return ['[' + items.join(',') + ']', size];
  }
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj);
  let size = 2 + Math.max(0, keys.length - 1);
  const entries: string[] = [];
  for (const k of keys) {
    const kid = kids.get(escapeToken(k));
    let c: string;
    if (kid) {
      c = '#' + kid.id;
      size += kid.bytes;
    } else {
      const [dc, ds] = describeData(obj[k]);
      c = dc;
      size += ds;
    }
    size += utf8Length(JSON.stringify(k)) + 1;
    entries.push(JSON.stringify(k) + ':' + c);
  }
  entries.sort();
  return ['{' + entries.join(',') + '}', size];
}

/** True when a schema object itself holds something that must not move. */
function isPinned(node: Record<string, unknown>, idKey: string): boolean {
  if (hasOwn(node, idKey) && typeof node[idKey] === 'string') return true;
  if (hasOwn(node, '$schema') || hasOwn(node, 'x-mcp-header')) return true;
  for (const k of ANCHOR_KEYWORDS) if (hasOwn(node, k)) return true;
  if (hasOwn(node, '$recursiveAnchor')) return true;
  for (const k of REFERENCE_KEYWORDS) {
    if (!hasOwn(node, k)) continue;
    if (k !== '$ref') return true;
    const ref = node[k];
    // Only fragment references (`#/…`, `#name`) mean the same wherever the subtree sits in the resource.
    if (typeof ref !== 'string' || parseRef(ref).kind === 'external' || parseRef(ref).kind === 'invalid') return true;
  }
  return false;
}

/** Where a node is now: moved with its source into a definition, or gone inside a replaced copy. */
function currentPath(nodes: readonly Node[], n: Node): string | undefined {
  if (n.state !== undefined) return undefined;
  for (let a = n.parent; a >= 0; a = nodes[a]!.parent) {
    const anc = nodes[a]!;
    if (anc.state === 'gone') return undefined;
    if (anc.state === 'source') return anc.movedTo! + n.path.slice(anc.path.length);
  }
  return n.path;
}

/** The name of the nearest property holding the subtree, as a plain identifier, else `shared`. */
function nameFor(nodes: readonly Node[], n: Node): string {
  for (let cur: Node | undefined = n; cur; cur = cur.parent >= 0 ? nodes[cur.parent] : undefined) {
    if (cur.keyword === 'properties' && cur.label !== '') {
      const name = unescapeToken(cur.label).replace(/[^A-Za-z0-9_-]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 48);
      if (name !== '') return name;
    }
  }
  return 'shared';
}
