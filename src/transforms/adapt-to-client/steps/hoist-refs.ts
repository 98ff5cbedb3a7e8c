/**
 * hoist-refs (profiles whose client resolves only references to top-level definitions, `openai-strict`,
 * or only `#/$defs/…`, `kimi`): a referenced definition nested elsewhere moves to the top-level `$defs`
 * (or `definitions`, in a draft-07 document that already uses it); any other target (`#/properties/status`,
 * the root for `kimi`) is copied to a new top-level definition; every reference is repointed (canonical
 * `#/$defs/<name>`). Definitions are not evaluated where they sit, and a copy is identical to its original.
 * A top-level definition that only the copied references reached (the one the copied target sat in, found
 * through an anchor the copy drops) is removed with the copy, as prune-unreachable-defs would remove it on
 * the next run: the pipeline reaches its fixed point in one run.
 */
import { hasOwn, isObject } from '../../../json/guards.js';
import { appendPointer, escapeToken, getAt, parsePointer } from '../../../json/pointer.js';
import { isTopLevelDefinitionPath, refProblem } from '../../../profiles/check.js';
import type { ClientProfile } from '../../../profiles/profiles.js';
import { isModernDialect } from '../../../schema/dialect.js';
import { ANCHOR_KEYWORDS, DEFINITIONS_KEYWORDS, type Dialect } from '../../../schema/keywords.js';
import { walkSchema } from '../../../schema/walk.js';
import { formatRefPointer } from '../../../schema/ref-syntax.js';
import { collectRefInventory, resolveRefSite, type RefInventory, type RefSite } from '../../../schema/refs.js';
import { findReachedDefinitions } from '../../prune-unreachable-defs.js';
import { anchorDoubt, indexNodes, placeDoubt, setOwnKey } from '../nodes.js';
import type { AdaptStep, StepEditor } from '../step.js';

export const hoistRefs: AdaptStep = {
  id: 'hoist-refs',
  safety: 'annotation',
  applies: (p) => p.refs !== 'any' && p.refs !== 'none',
  run: (ed, { dialect, profile }) => hoist(ed, dialect, profile),
};

const MAX_HOIST_ROUNDS = 500;

function hoist(ed: StepEditor, dialect: Dialect, p: ClientProfile): void {
  const profileRefProblems = new Set(['ref-not-top-level', 'ref-not-defs-prefix']);
  for (let round = 0; round < MAX_HOIST_ROUNDS; round++) {
    const schema = ed.root as Record<string, unknown>;
    const inventory = collectRefInventory(schema, dialect);
    let bad: RefSite | undefined;
    for (const site of inventory.refs) {
      if (!site.inSchema) continue;
      const problem = refProblem(schema, inventory, site, p);
      if (problem && profileRefProblems.has(problem.code)) {
        bad = site;
        break;
      }
    }
    if (!bad) return;
    if (bad.keyword !== '$ref') {
      ed.note('error', 'hoist-unsafe', bad.path, { reason: `\`${bad.keyword}\` \`${bad.ref}\` depends on the dynamic scope` });
      return;
    }
    if (inventory.resources.length > 0) {
      ed.note('error', 'hoist-unsafe', bad.path, { reason: `the schema embeds \`$id\` \`${inventory.resources[0]!.id}\`, which changes what references resolve to` });
      return;
    }
    const doubt = anchorDoubt(schema, inventory, bad, dialect);
    if (doubt !== undefined) {
      ed.note('error', 'hoist-unsafe', bad.path, { reason: doubt });
      return;
    }
    const resolution = resolveRefSite(schema, inventory, bad);
    if (resolution.status !== 'resolved') return;
    const target = resolution.path;
    const misplaced = placeDoubt(schema, target, dialect);
    if (misplaced !== undefined) {
      ed.note('error', 'hoist-unsafe', bad.path, { reason: `\`${bad.ref}\` names a place readers disagree on: ${misplaced}` });
      return;
    }
    const container = chooseContainer(schema, dialect, p);
    if (!hasOwn(schema, container) || !isObject(schema[container])) {
      if (hasOwn(schema, container)) {
        ed.note('error', 'hoist-unsafe', '/' + container, { reason: `\`${container}\` is not an object` });
        return;
      }
      ed.add('/' + container, {}, 'added-defs', { container });
    }
    const defs = (ed.root as Record<string, unknown>)[container] as Record<string, unknown>;
    const info = indexNodes(ed.root);
    const tokens = parsePointer(target);
    const isDefEntry = tokens.length >= 2 && DEFINITIONS_KEYWORDS.includes(tokens[tokens.length - 2]!) && info.get(target)?.defEntry === target;
    const name = uniqueName(defs, target === '' ? 'root' : sanitize(tokens[tokens.length - 1]!));
    const to = '/' + escapeToken(container) + '/' + escapeToken(name);
    const editsBefore = ed.edits;
    if ((p.refs === 'top-level-defs-only' && isTopLevelDefinitionPath(ed.root, target)) || (tokens.length === 2 && tokens[0] === container && isDefEntry)) {
      // Already where it must be: only the reference's spelling is off.
      repoint(ed, dialect, (path) => (path === target ? target : undefined));
    } else if (isDefEntry) {
      const sourceContainer = target.slice(0, target.lastIndexOf('/'));
      ed.move(target, to, 'hoisted-def', { name, from: target, to });
      repoint(ed, dialect, (path) => (path === target || path.startsWith(target + '/') ? to + path.slice(target.length) : undefined));
      const left = ed.get(sourceContainer);
      if (isObject(left) && Object.keys(left).length === 0) ed.remove(sourceContainer, 'removed-empty-defs', { keyword: tokens[tokens.length - 2]! });
    } else {
      const value = getAt(ed.root, tokens);
      const copy = withoutAnchors(target === '' && isObject(value) ? rootCopy(value) : value);
      const reachedBefore = findReachedDefinitions(ed.root as Record<string, unknown>);
      ed.add(to, copy, 'copied-def', { from: target === '' ? '#' : target, to });
      repoint(ed, dialect, (path) => (path === target ? to : undefined));
      removeOrphans(ed, reachedBefore, to);
    }
    if (ed.edits === editsBefore) {
      ed.note('error', 'hoist-unsafe', bad.path, { reason: `could not find a place \`${p.name}\` accepts for \`${bad.ref}\`` });
      return;
    }
  }
  ed.note('error', 'hoist-unsafe', '', { reason: `more than ${MAX_HOIST_ROUNDS} references needed moving` });
}

/**
 * Removes the top-level definitions that a copy left unreachable: those references reached before the copy
 * (`before`) and reach no more now that they name the copy (`to`): typically the definition the copied
 * target sat in, found only through the anchor the copy does not carry. The same reading as
 * prune-unreachable-defs, so that a later run has nothing left to prune; definitions nothing reached
 * before are not this step's to remove. Undecidable reachability (either side) removes nothing.
 */
function removeOrphans(ed: StepEditor, before: ReturnType<typeof findReachedDefinitions>, to: string): void {
  if (!('keys' in before)) return;
  const schema = ed.root as Record<string, unknown>;
  const after = findReachedDefinitions(schema);
  if (!('keys' in after)) return;
  const orphans: { path: string; name: string; container: string }[] = [];
  for (const container of DEFINITIONS_KEYWORDS) {
    const defs = hasOwn(schema, container) ? schema[container] : undefined;
    if (!isObject(defs)) continue;
    for (const name of Object.keys(defs)) {
      const key = container + '\u0000' + name;
      const path = '/' + escapeToken(container) + '/' + escapeToken(name);
      if (path !== to && before.keys.has(key) && !after.keys.has(key)) orphans.push({ path, name, container });
    }
  }
  for (const o of orphans) ed.remove(o.path, 'removed-orphaned-def', { name: o.name, container: o.container, to });
}

/**
 * Rewrites every schema reference whose target `map` sends somewhere new (written in canonical form). The
 * inventory is read from the current schema; a reference into a definition that just moved still names
 * the old place, which `map` translates.
 */
function repoint(ed: StepEditor, dialect: Dialect, map: (target: string) => string | undefined): void {
  const schema = ed.root;
  const inventory: RefInventory = collectRefInventory(schema, dialect);
  const edits: { path: string; from: string; to: string }[] = [];
  for (const site of inventory.refs) {
    if (!site.inSchema || site.keyword !== '$ref') continue;
    const target = refTarget(schema, inventory, site);
    if (target === undefined) continue;
    const next = map(target);
    if (next === undefined) continue;
    const ref = formatRefPointer(parsePointer(next));
    if (ref !== site.ref) edits.push({ path: site.path, from: site.ref, to: ref });
  }
  for (const e of edits) ed.replace(e.path, e.to, 'repointed-ref', { from: e.from, to: e.to });
}

/** The pointer a reference names: where it resolves, or (after a move emptied that place) its own text. */
function refTarget(schema: unknown, inventory: RefInventory, site: RefSite): string | undefined {
  const r = resolveRefSite(schema, inventory, site);
  if (r.status === 'resolved') return r.path;
  if (r.status === 'unresolved' && site.ref.startsWith('#')) {
    try {
      const tokens = parsePointer(decodeURIComponent(site.ref.slice(1)));
      let out = '';
      for (const t of tokens) out = appendPointer(out, t);
      return out;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

function chooseContainer(schema: Record<string, unknown>, dialect: Dialect, p: ClientProfile): string {
  if (p.refs === 'defs-prefix-only') return '$defs';
  if (hasOwn(schema, '$defs')) return '$defs';
  if (hasOwn(schema, 'definitions')) return 'definitions';
  return isModernDialect(dialect) ? '$defs' : 'definitions';
}

/** The root without what only the root may hold (definitions, `$schema`, `$id`): the part that validates. */
function rootCopy(root: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(root)) if (!DEFINITIONS_KEYWORDS.includes(k) && k !== '$schema' && k !== '$id') setOwnKey(out, k, root[k]);
  return out;
}

/**
 * A copy of a subschema that stays where it is, without the anchors it declares (`$anchor`,
 * `$dynamicAnchor`, a fragment `$id`/`id`): the original keeps them, and two schemas declaring one anchor
 * are refused by readers ("resolves to more than one schema"). References by anchor name still find the
 * original, which says the same.
 */
function withoutAnchors(value: unknown): unknown {
  let found = false;
  walkSchema(value, '', {
    onSchema(node) {
      if (isObject(node) && declaresAnchor(node)) found = true;
      return !found;
    },
  });
  if (!found) return value;
  // JSON data (the pipeline checked it): a JSON round trip is a deep copy that keeps `__proto__` as data.
  const copy = JSON.parse(JSON.stringify(value)) as unknown;
  walkSchema(copy, '', {
    onSchema(node) {
      if (!isObject(node)) return;
      for (const k of [...ANCHOR_KEYWORDS, '$id', 'id']) if (hasOwn(node, k) && isAnchorValue(k, node[k])) delete node[k];
    },
  });
  return copy;
}

function declaresAnchor(node: Record<string, unknown>): boolean {
  for (const k of [...ANCHOR_KEYWORDS, '$id', 'id']) if (hasOwn(node, k) && isAnchorValue(k, node[k])) return true;
  return false;
}

function isAnchorValue(keyword: string, value: unknown): boolean {
  if (typeof value !== 'string') return false;
  return ANCHOR_KEYWORDS.includes(keyword) || (value.startsWith('#') && value.length > 1);
}

function sanitize(name: string): string {
  const s = name.replace(/[^A-Za-z0-9_.-]/g, '_');
  return s.length === 0 ? 'def' : s;
}

function uniqueName(defs: Record<string, unknown>, base: string): string {
  if (!hasOwn(defs, base)) return base;
  for (let i = 2; ; i++) if (!hasOwn(defs, `${base}_${i}`)) return `${base}_${i}`;
}

