/**
 * inline-refs (profiles whose client cannot resolve references: `refs: none`): every `$ref` outside
 * definitions is replaced by its target, fully expanded (targets first, one shared copy each), and the
 * definitions and anchors nothing references any more are removed. Cycle-aware: a recursive definition is
 * reported and every reference kept; a plan that would multiply the schema far beyond the growth cap stops
 * before building the copies. Fails closed: any early return leaves every reference (the checker then
 * reports them).
 */
import { EditContext, type MessageData } from '../../../core/context.js';
import { utf8Length } from '../../../core/measure.js';
import { DEFAULT_MAX_DEPTH } from '../../../engine/options.js';
import { isObject } from '../../../json/guards.js';
import { appendPointer, getAt, parsePointer } from '../../../json/pointer.js';
import { ANCHOR_KEYWORDS, DEFINITIONS_KEYWORDS, UNION_KEYWORDS, type Dialect } from '../../../schema/keywords.js';
import { collectRefInventory, resolveRefSite, type RefSite } from '../../../schema/refs.js';
import { walkSchema } from '../../../schema/walk.js';
import { collapseNullUnion, findNullUnionSites } from '../../../schema/null-union.js';
import type { ClientProfile } from '../../../profiles/profiles.js';
import { mergeRef } from '../merge-ref.js';
import { anchorDoubt, indexNodes, nameOf, placeDoubt, within } from '../nodes.js';
import type { AdaptStep, StepEditor } from '../step.js';

export const inlineRefs: AdaptStep = {
  id: 'inline-refs',
  safety: 'annotation',
  applies: (p) => p.refs === 'none',
  run: (ed, { dialect, profile, growthLimit }) => inline(ed, dialect, profile, growthLimit),
};

/**
 * The references that take effect inside a subtree (`root`, a pointer): those at or below it and not inside a
 * definitions container below it, in the order of `sites`; each answer remembered. The sites at or below a
 * root are found as runs of the sites sorted by pointer, not by reading every site for each root: a chain of
 * 4,000 definitions (each a reference to the next) took 7 s that way under a profile that inlines, 50,000
 * more than two minutes.
 * @internal (exported for its test)
 */
export function liveSites(sites: readonly RefSite[], info: ReadonlyMap<string, { readonly defEntry: string | undefined }>): (root: string) => RefSite[] {
  const byPath = sites.map((_, i) => i).sort((a, b) => {
    const x = sites[a]!.schemaPath;
    const y = sites[b]!.schemaPath;
    return x < y ? -1 : x > y ? 1 : a - b;
  });
  /** The first position of `byPath` whose pointer is not below `key`. */
  const from = (key: string): number => {
    let lo = 0;
    let hi = byPath.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (sites[byPath[mid]!]!.schemaPath < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const known = new Map<string, RefSite[]>();
  return (root: string): RefSite[] => {
    let found = known.get(root);
    if (found !== undefined) return found;
    const picked: number[] = [];
    const take = (i: number) => {
      const entry = info.get(sites[i]!.schemaPath)?.defEntry;
      if (entry === undefined || within(root, entry)) picked.push(i);
    };
    if (root === '') for (let i = 0; i < sites.length; i++) take(i);
    else {
      // The root itself, then everything below it (`root/…`: one run; `root-x` and the like sort between them).
      for (let k = from(root); k < byPath.length && sites[byPath[k]!]!.schemaPath === root; k++) take(byPath[k]!);
      const below = root + '/';
      for (let k = from(below); k < byPath.length && sites[byPath[k]!]!.schemaPath.startsWith(below); k++) take(byPath[k]!);
      picked.sort((a, b) => a - b);
    }
    found = picked.map((i) => sites[i]!);
    known.set(root, found);
    return found;
  };
}

function inline(ed: StepEditor, dialect: Dialect, p: ClientProfile, limit: (before: number) => number): void {
  // Fails closed: any early return below leaves every reference (the checker then reports them).
  const schema = ed.root as Record<string, unknown>;
  const inventory = collectRefInventory(schema, dialect);
  const sites = inventory.refs.filter((s) => s.inSchema);
  if (sites.length === 0) {
    removeDeadMachinery(ed);
    return;
  }
  if (inventory.resources.length > 0) {
    ed.note('error', 'inline-unsafe', inventory.resources[0]!.path, { reason: `the schema embeds \`$id\` \`${inventory.resources[0]!.id}\`, and copies of it would clash` });
    return;
  }
  const targets = new Map<RefSite, string>();
  for (const site of sites) {
    if (site.keyword !== '$ref') {
      ed.note('error', 'inline-unsafe', site.path, { reason: `\`${site.keyword}\` \`${site.ref}\` depends on the dynamic scope and cannot be inlined` });
      return;
    }
    const r = resolveRefSite(schema, inventory, site);
    if (r.status !== 'resolved') return; // the checker reports it (unresolvable or external)
    // A reference readers resolve differently is not inlined as one reading (hoist-refs holds back the same).
    const doubt = anchorDoubt(schema, inventory, site, dialect) ?? placeDoubt(schema, r.path, dialect);
    if (doubt !== undefined) {
      ed.note('error', 'inline-unsafe', site.path, { reason: doubt });
      return;
    }
    targets.set(site, r.path);
  }
  const nodes = indexNodes(schema);
  const liveIn = liveSites(sites, nodes);
  const outer = liveIn('');
  // Dependency order with cycle detection, iteratively.
  const order: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const deps = new Map<string, string[]>();
  const depsOf = (t: string) => {
    let d = deps.get(t);
    if (!d) {
      d = [...new Set(liveIn(t).map((s) => targets.get(s)!))];
      deps.set(t, d);
    }
    return d;
  };
  for (const start of new Set(outer.map((s) => targets.get(s)!))) {
    if (state.get(start) === 'done') continue;
    const stack: { t: string; i: number }[] = [{ t: start, i: 0 }];
    state.set(start, 'open');
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const d = depsOf(top.t);
      if (top.i < d.length) {
        const next = d[top.i++]!;
        const s = state.get(next);
        if (s === 'open') {
          ed.note('error', 'recursive-ref', next, { name: nameOf(next), profile: p.name });
          return;
        }
        if (s === undefined) {
          state.set(next, 'open');
          stack.push({ t: next, i: 0 });
        }
      } else {
        state.set(top.t, 'done');
        order.push(top.t);
        stack.pop();
      }
    }
  }
  // Depth before building anything: each copy nests its target's copy at the reference, so a chain of
  // definitions nests as deep as it is long. The run leaves a tool nested deeper than DEFAULT_MAX_DEPTH
  // untransformed, and a serializer's stack ends a few thousand levels down (a chain of 4,000 threw in
  // `JSON.stringify`): toolslim does not build what it would not read back. An upper bound, in containers
  // from the slot's root down: a target lands at its reference (no siblings), or beside the siblings or
  // under `allOf` (two levels more, counted for every reference with siblings).
  const height = containerHeights(schema);
  const under = (path: string, from: number) => {
    let n = 0;
    for (let i = from; i < path.length; i++) if (path.charCodeAt(i) === 47) n++;
    return n;
  };
  const wrap = (s: RefSite) => {
    const node = nodes.get(s.schemaPath)?.node;
    return isObject(node) && Object.keys(node).length > 1 ? 2 : 0;
  };
  const depth = new Map<string, number>();
  for (const t of order) {
    const own = getAt(schema, parsePointer(t));
    let d = isObject(own) || Array.isArray(own) ? (height.get(own) ?? 0) : 0;
    for (const s of liveIn(t)) d = Math.max(d, under(s.schemaPath, t.length) + wrap(s) + depth.get(targets.get(s)!)!);
    depth.set(t, d);
  }
  let deepest = -1;
  let most = height.get(schema) ?? 0;
  for (let i = 0; i < outer.length; i++) {
    const s = outer[i]!;
    const d = under(s.schemaPath, 0) + wrap(s) + depth.get(targets.get(s)!)!;
    if (d > most) {
      most = d;
      if (d > DEFAULT_MAX_DEPTH) deepest = i;
    }
  }
  if (deepest >= 0) {
    ed.note('error', 'inline-unsafe', outer[deepest]!.schemaPath, { reason: `its copies could nest the schema ${most} levels deep, and toolslim transforms at most ${DEFAULT_MAX_DEPTH}` });
    return;
  }
  // Size estimate before building anything: a chain of references can multiply a schema.
  const before = utf8Length(JSON.stringify(schema));
  const estimate = new Map<string, number>();
  for (const t of order) {
    let size = utf8Length(JSON.stringify(getAt(schema, parsePointer(t))) ?? '');
    for (const s of liveIn(t)) size += estimate.get(targets.get(s)!)!;
    estimate.set(t, size);
  }
  let total = before;
  for (const s of outer) total += estimate.get(targets.get(s)!)!;
  if (total > limit(before) * 4) {
    // Far beyond the cap: stop before building the copies (the caller reports the cap).
    ed.capped = { before, after: total };
    return;
  }
  const expanded = new Map<string, unknown>();
  for (const t of order) {
    const value = expand(schema, t, liveIn(t), targets, expanded, dialect);
    if ('fail' in value) {
      ed.note('error', 'ref-siblings-ambiguous', value.fail.path, value.fail.data);
      return;
    }
    expanded.set(t, value.value);
  }
  // Replace the outer references, deepest first, reading each node as it now is.
  const replacements: { path: string; value: unknown; ref: string }[] = [];
  const scratch = new EditContext(schema, {});
  for (let i = outer.length - 1; i >= 0; i--) {
    const site = outer[i]!;
    const node = site.schemaPath === '' ? scratch.root : scratch.get(site.schemaPath);
    const merged = mergeRef(node as Record<string, unknown>, expanded.get(targets.get(site)!), dialect);
    if ('fail' in merged) {
      ed.note('error', 'ref-siblings-ambiguous', site.schemaPath, { ref: site.ref, keys: merged.fail, dialect });
      return;
    }
    scratch.replace(site.schemaPath, merged.value, 'x');
    replacements.push({ path: site.schemaPath, value: merged.value, ref: site.ref });
  }
  for (const r of replacements) ed.replace(r.path, r.value, 'inlined-ref', { ref: r.ref });
  removeDeadMachinery(ed);
  collapseNullUnions(ed, dialect);
}

/**
 * A copy can complete a null union (`oneOf: [X, {$ref: N}]` with N `{"type": "null"}`) that normalize-schema
 * could not see through the reference: collapsed here, as normalize-schema would on the next run.
 */
function collapseNullUnions(ed: StepEditor, dialect: Dialect): void {
  for (const { path, keyword } of findNullUnionSites(ed.root, dialect)) {
    const holder = ed.get(path);
    if (!isObject(holder)) continue;
    const result = collapseNullUnion(holder, keyword, dialect);
    if (result.ok) ed.replace(path, result.schema, 'collapsed-null-union', { keyword, type: result.type });
  }
}

/**
 * An identifier that only names a place (`$id: "#name"`, draft-06/07's anchor, or draft-04's `id: "#name"`):
 * an anchor, read as one by the reference inventory (either key, conservatively) and by reconcile-dialect,
 * which rewrites it as `$anchor`. It sets no base URI, so removing it changes no verdict once nothing uses it.
 */
function isFragmentId(key: string, value: unknown): boolean {
  return (key === '$id' || key === 'id') && typeof value === 'string' && value.length > 1 && value.startsWith('#');
}

/**
 * Removes definitions containers and anchors (`$anchor`, `$dynamicAnchor`, `$recursiveAnchor`, and an
 * identifier that is only a fragment, `$id: "#name"`) once no reference is left in the schema: left
 * behind, an anchor would be rewritten or removed by the next run instead of this one.
 */
function removeDeadMachinery(ed: StepEditor): void {
  const found: { path: string; keyword: string; name?: string }[] = [];
  walkSchema(ed.root, '', {
    table: UNION_KEYWORDS,
    onSchema(node, path, keyword) {
      if (keyword !== undefined && DEFINITIONS_KEYWORDS.includes(keyword)) return false;
      if (!isObject(node)) return;
      for (const k of Object.keys(node)) {
        if (DEFINITIONS_KEYWORDS.includes(k) && isObject(node[k])) found.push({ path: appendPointer(path, k), keyword: k });
        else if (((ANCHOR_KEYWORDS.includes(k) || k === '$recursiveAnchor') && typeof node[k] !== 'object') || isFragmentId(k, node[k])) found.push({ path: appendPointer(path, k), keyword: k, name: String(node[k]) });
      }
      return undefined;
    },
  });
  for (let i = found.length - 1; i >= 0; i--) {
    const f = found[i]!;
    if (f.name === undefined) ed.remove(f.path, 'removed-defs', { keyword: f.keyword });
    else ed.remove(f.path, 'removed-anchor', { keyword: f.keyword, name: f.name });
  }
}

type Expansion = { value: unknown } | { fail: { path: string; data: MessageData } };

/** A copy of the subtree at `root` with every live reference replaced by its (already expanded) target. */
function expand(
  schema: unknown,
  root: string,
  live: readonly RefSite[],
  targets: ReadonlyMap<RefSite, string>,
  expanded: ReadonlyMap<string, unknown>,
  dialect: Dialect,
): Expansion {
  const original = getAt(schema, parsePointer(root));
  if (!isObject(original)) return { value: original };
  const b = new EditContext(original, {});
  const rel = (path: string) => path.slice(root.length);
  for (let i = live.length - 1; i >= 0; i--) {
    const site = live[i]!;
    const at = rel(site.schemaPath);
    const node = at === '' ? b.root : b.get(at);
    const merged = mergeRef(node as Record<string, unknown>, expanded.get(targets.get(site)!), dialect);
    if ('fail' in merged) return { fail: { path: site.schemaPath, data: { ref: site.ref, keys: merged.fail, dialect } } };
    b.replace(at, merged.value, 'x');
  }
  // Definitions and anchors inside the copy are dead (references name the original) and would clash. They
  // are looked for in the original, not in the copy: a target spliced in above is an expansion, already
  // without them (canMerge brings none of its keys beside a reference's siblings, which keep their places),
  // and walking the copies again made a chain of n definitions, each holding the rest, cost n² (4,000: 2.8 s).
  const dead: string[] = [];
  walkSchema(original, '', {
    table: UNION_KEYWORDS,
    onSchema(node, path, keyword) {
      if (keyword !== undefined && DEFINITIONS_KEYWORDS.includes(keyword)) return false;
      if (!isObject(node)) return;
      for (const k of Object.keys(node)) {
        if ((DEFINITIONS_KEYWORDS.includes(k) && isObject(node[k])) || ANCHOR_KEYWORDS.includes(k) || k === '$recursiveAnchor' || isFragmentId(k, node[k])) dead.push(appendPointer(path, k));
      }
      return undefined;
    },
  });
  for (let i = dead.length - 1; i >= 0; i--) b.remove(dead[i]!, 'x');
  return { value: b.root };
}


/**
 * Each container's height under `root` (1 for one that holds no container), by identity; iterative, each
 * container read twice. A container met again while open (a cycle, which the run's input check excludes)
 * counts as a leaf.
 */
function containerHeights(root: unknown): Map<object, number> {
  const height = new Map<object, number>();
  if (root === null || typeof root !== 'object') return height;
  const open = new Set<object>([root]);
  const stack: object[] = [root];
  while (stack.length > 0) {
    const node = stack[stack.length - 1]!;
    let best = 0;
    let pending = false;
    for (const v of Object.values(node)) {
      if (v === null || typeof v !== 'object') continue;
      const h = height.get(v);
      if (h !== undefined) best = Math.max(best, h);
      else if (!open.has(v)) {
        open.add(v);
        stack.push(v);
        pending = true;
      }
    }
    if (!pending) {
      height.set(node, best + 1);
      open.delete(node);
      stack.pop();
    }
  }
  return height;
}
