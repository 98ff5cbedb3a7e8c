import { defineTransform } from '../engine/define-transform.js';
import type { EditContext } from '../core/context.js';
import { SCHEMA_SLOTS, type SchemaSlot } from '../core/tool.js';
import { getDeclaredDialect } from '../schema/dialect.js';
import { DEFINITIONS_KEYWORDS } from '../schema/keywords.js';
import { appendPointer } from '../json/pointer.js';
import { hasOwn, isObject } from '../json/guards.js';
import { parsePointerTokenwise, parseRef } from '../schema/ref-syntax.js';
import { definitionOf, findAnchorsNamed, refInventoryOf, resolveRefSite, type RefInventory, type RefSite } from '../schema/refs.js';

/** Options of {@link pruneUnreachableDefs}. */
export interface PruneUnreachableDefsOptions {
  /** Definition names kept even when nothing references them. */
  readonly keep?: readonly string[];
  /** Which schemas of each tool to prune (default both). */
  readonly slots?: readonly SchemaSlot[];
}

/**
 * Removes the root definitions (`$defs` and `definitions`) that no `$ref` reachable from outside the
 * definitions can reach. Conservative: `$ref`-shaped values in data keep their targets, definitions that
 * hold an embedded `$id` are kept, and a document with a reference whose target cannot be decided is left
 * alone with a diagnostic.
 */
export const pruneUnreachableDefs = defineTransform<PruneUnreachableDefsOptions, undefined>({
  name: 'prune-unreachable-defs',
  description: 'Remove definitions that no $ref reachable from the tool’s schema uses',
  safety: 'lossless',
  defaultOptions: { keep: [], slots: SCHEMA_SLOTS },
  messages: {
    removed: 'Removed unreachable definition `{name}` from `{container}`',
    undecidable: 'Kept every definition: `$ref` `{ref}` at `{at}` cannot be resolved here ({reason})',
  },
  validateOptions(options) {
    if (!Array.isArray(options.keep) || options.keep.some((k) => typeof k !== 'string')) throw new Error('`keep` must be an array of definition names');
    if (!Array.isArray(options.slots) || options.slots.some((s) => !SCHEMA_SLOTS.includes(s))) throw new Error('`slots` must list `inputSchema` and/or `outputSchema`');
  },
  apply(doc, ctx, options) {
    const slots = options.slots ?? SCHEMA_SLOTS;
    for (let s = 0; s < slots.length; s++) {
      const slot = slots[s]!;
      const schema = (doc.tool as Record<string, unknown>)[slot];
      // Most schemas have no definitions: nothing to prune, and nothing to allocate for them.
      if (!isObject(schema) || !hasDefinitions(schema) || !hasOwn(doc.tool, slot)) continue;
      pruneDocument(schema, '/' + slot, ctx, new Set(options.keep ?? []));
    }
  },
});

/** Whether the root holds a definitions container (an object under `$defs` or `definitions`). */
function hasDefinitions(schema: Record<string, unknown>): boolean {
  // Each key read on every call (see hoist-nested-defs' apply): a rarely run load has no type feedback.
  for (let d = 0; d < DEFINITIONS_KEYWORDS.length; d++) if (isObject(schema[DEFINITIONS_KEYWORDS[d]!]) && hasOwn(schema, DEFINITIONS_KEYWORDS[d]!)) return true;
  return false;
}

function pruneDocument(schema: Record<string, unknown>, base: string, ctx: EditContext, keep: ReadonlySet<string>): void {
  const containers = DEFINITIONS_KEYWORDS.filter((k) => hasOwn(schema, k) && isObject(schema[k]));
  const reached = findReachedDefinitions(schema, keep);
  if ('undecidable' in reached) {
    const { site, reason } = reached.undecidable;
    ctx.report('info', 'undecidable', base + site.path, { ref: site.ref, at: base + site.path, reason });
    return;
  }
  for (const container of containers) {
    const defs = schema[container] as Record<string, unknown>;
    for (const name of Object.keys(defs)) {
      if (reached.keys.has(defKey(container, name))) continue;
      ctx.remove(appendPointer(appendPointer(base, container), name), 'removed', { name, container });
    }
  }
}

/**
 * The root definitions a schema's references can reach (from outside the definitions, from embedded
 * resources and from the definitions named in `keep`), or the first reference that makes it undecidable.
 */
export function findReachedDefinitions(
  schema: Record<string, unknown>,
  keep: ReadonlySet<string> = new Set(),
): { readonly keys: ReadonlySet<string> } | { readonly undecidable: { readonly site: RefSite; readonly reason: string } } {
  const inventory = refInventoryOf(schema, getDeclaredDialect(schema).dialect);
  const byDef = new Map<string, RefSite[]>();
  const outside: RefSite[] = [];
  for (const site of inventory.refs) {
    const def = definitionOf(schema, site.schemaPath);
    if (!def) outside.push(site);
    else {
      const key = defKey(def[0], def[1]);
      const list = byDef.get(key);
      if (list) list.push(site);
      else byDef.set(key, [site]);
    }
  }
  const reached = new Set<string>();
  const queue: RefSite[] = [...outside];
  const reach = (key: string) => {
    if (reached.has(key)) return;
    reached.add(key);
    const inner = byDef.get(key);
    if (inner) queue.push(...inner);
  };
  // An embedded resource can be named by URI from anywhere (or from outside): its definition stays.
  for (const resource of inventory.resources) {
    const def = definitionOf(schema, resource.path);
    if (def) reach(defKey(def[0], def[1]));
  }
  // Definitions kept by option stay, and so does everything they reference.
  for (const name of keep) {
    for (const c of DEFINITIONS_KEYWORDS) {
      if (hasOwn(schema, c) && isObject(schema[c]) && hasOwn(schema[c] as object, name)) reach(defKey(c, name));
    }
  }
  while (queue.length > 0) {
    const site = queue.pop()!;
    const targets = targetsOf(schema, inventory, site);
    if ('undecidable' in targets) return { undecidable: { site, reason: targets.undecidable } };
    for (const key of targets.keys) reach(key);
  }
  return { keys: reached };
}

/** Every root definition a reference could name (more than one when it is conservative to assume so). */
function targetsOf(schema: Record<string, unknown>, inventory: RefInventory, site: RefSite): { keys: string[] } | { undecidable: string } {
  const keys: string[] = [];
  const parsed = parseRef(site.ref);
  if (parsed.kind === 'anchor') {
    // Anchors (and dynamic anchors, whose scope is decided at evaluation time): every holder of the name.
    for (const anchor of findAnchorsNamed(inventory, parsed.name)) {
      const def = definitionOf(schema, anchor.path);
      if (def) keys.push(defKey(def[0], def[1]));
    }
    return { keys };
  }
  const addPath = (path: string) => {
    const def = definitionOf(schema, path);
    if (def) keys.push(defKey(def[0], def[1]));
    else {
      // A reference to a whole container (`#/$defs`) reaches all of it.
      for (const c of DEFINITIONS_KEYWORDS) {
        if (path === '/' + c && isObject(schema[c]) && hasOwn(schema, c)) for (const n of Object.keys(schema[c] as object)) keys.push(defKey(c, n));
      }
    }
  };
  if (parsed.kind === 'pointer') {
    // Read against the document root too, whatever resource the reference sits in: a reader that ignores
    // an embedded `$id` would look there.
    addPath(pointerFrom(parsed.tokens));
    // ajv splits the fragment before percent-decoding each token (RFC 6901 decodes first): where the two
    // readings differ (`%2F`), keep both targets.
    const tokenwise = parsePointerTokenwise(site.ref.slice(1));
    if (tokenwise !== undefined) addPath(pointerFrom(tokenwise));
  }
  const resolution = resolveRefSite(schema, inventory, site);
  if (resolution.status === 'resolved') addPath(resolution.path);
  // A `$ref`-shaped value in data is treated like a reference here too: its target must be decidable.
  else if (resolution.status === 'undecidable') return { undecidable: resolution.reason };
  return { keys };
}

function pointerFrom(tokens: readonly string[]): string {
  let out = '';
  for (const t of tokens) out = appendPointer(out, t);
  return out;
}

function defKey(container: string, name: string): string {
  return container + '\u0000' + name;
}
