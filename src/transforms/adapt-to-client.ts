import { EditContext, type MessageData } from '../core/context.js';
import { defineTransform } from '../engine/define-transform.js';
import { utf8Length } from '../core/measure.js';
import type { Severity } from '../core/report.js';
import { checkToolForProfile, isTopLevelDefinitionPath, metaSchemaErrors, refProblem } from '../profiles/check.js';
import { getProfile, type ClientProfile } from '../profiles/profiles.js';
import { getDeclaredDialect, isModernDialect } from '../schema/dialect.js';
import { ANCHOR_KEYWORDS, DEFINITIONS_KEYWORDS, UNION_KEYWORDS, type Dialect } from '../schema/keywords.js';
import { appendPointer, escapeToken, getAt, parsePointer } from '../json/pointer.js';
import { formatRefPointer } from '../schema/ref-syntax.js';
import { hasOwn, isObject } from '../json/guards.js';
import { collectRefInventory, resolveRefSite, type RefInventory, type RefSite } from '../schema/refs.js';
import { walkSchema } from '../schema/walk.js';

/** Options of {@link adaptToClient}. */
export interface AdaptToClientOptions {
  /** The client to adapt to: a built-in profile name or a profile object (default `mcp`). */
  readonly profile?: string | ClientProfile;
  /** A schema may grow to at most this many times its size (default 2); beyond it the tool is left as it was. */
  readonly growthCap?: number;
}

interface AdaptState {
  readonly profile: ClientProfile;
}

/**
 * Rewrites each tool so that a client profile accepts it, without changing any verdict: inlines
 * references the client cannot resolve (cycle-aware), moves reference targets to the top-level `$defs`
 * where the client requires that, moves `$ref` into `allOf` where the client rejects its siblings, and
 * drops annotations the client rejects. What it cannot fix is reported as an error.
 */
export const adaptToClient = defineTransform<AdaptToClientOptions, AdaptState>({
  name: 'adapt-to-client',
  description: 'Rewrite tools so a client profile accepts them (inline or hoist references, drop rejected annotations) and report what it cannot fix',
  safety: 'annotation',
  defaultOptions: { profile: 'mcp', growthCap: 2 },
  messages: {
    'inlined-ref': 'Inlined `$ref` `{ref}`',
    'removed-defs': 'Removed `{keyword}`: no reference uses it once every reference is inlined',
    'removed-anchor': 'Removed `{keyword}` `{name}`: no reference uses it once every reference is inlined',
    'added-defs': 'Added a top-level `{container}` to hold definitions references can name',
    'hoisted-def': 'Moved definition `{name}` from `{from}` to `{to}`',
    'copied-def': 'Copied the schema at `{from}` to the definition `{to}` so references can name it',
    'removed-empty-defs': 'Removed `{keyword}`, empty once its definitions moved',
    'repointed-ref': 'Repointed `$ref` `{from}` to `{to}`',
    'wrapped-ref': 'Moved `$ref` `{ref}` into `allOf`: `{profile}` rejects {keys} beside it',
    'dropped-annotation': 'Dropped annotation `{keyword}`, which `{profile}` rejects',
    'dropped-unknown-keyword': 'Dropped unknown keyword `{keyword}` (an annotation), which `{profile}` rejects',
    'dropped-invalid-annotation': 'Dropped annotation `{keyword}`: its value is not valid JSON Schema {dialect}, which `{profile}` requires',
    'added-root-type': 'Added `type: "object"` at the root, which `{profile}` requires (MCP arguments are always an object)',
    'dropped-schema-uri': 'Dropped `$schema`, which `{profile}` rejects; the schema reads as {dialect} either way',
    'recursive-ref': 'Kept every reference: `{name}` is recursive and cannot be inlined, which `{profile}` needs',
    'growth-capped': 'Left the tool as it was: adapting `{slot}` to `{profile}` would grow it from {before} to {after} bytes, more than {cap}×',
    'inline-unsafe': 'Kept every reference: {reason}',
    'hoist-unsafe': 'Kept the reference as it was: {reason}',
    'ref-siblings-ambiguous': 'Kept `$ref` `{ref}` as it was: {keys} beside it are ignored by {dialect} readers but applied by others',
    'tool-count': 'Found tool #{position}; `{profile}` accepts at most {max} tools per request',
    // Findings of the profile checker, passed through with their own message.
    'tool-invalid': '{message}',
    'tool-name': '{message}',
    'root-not-object': '{message}',
    'root-combinator': '{message}',
    'schema-invalid': '{message}',
    'ref-unsupported': '{message}',
    'ref-unresolvable': '{message}',
    'ref-external': '{message}',
    'ref-not-top-level': '{message}',
    'ref-not-defs-prefix': '{message}',
    'ref-sibling': '{message}',
    'depth-exceeded': '{message}',
    'keyword-rejected': '{message}',
    'keyword-unknown': '{message}',
    'defs-unsupported': '{message}',
    'format-unsupported': '{message}',
    'strict-additional-properties': '{message}',
    'strict-required': '{message}',
  },
  validateOptions(options) {
    getProfile(options.profile ?? 'mcp');
    const cap = options.growthCap;
    if (typeof cap !== 'number' || !Number.isFinite(cap) || cap < 1) throw new Error('`growthCap` must be a finite number ≥ 1');
  },
  prepare(_tools, options) {
    return { profile: getProfile(options.profile ?? 'mcp') };
  },
  apply(doc, ctx, options) {
    const p = doc.state.profile;
    const cap = options.growthCap ?? 2;
    const tool = doc.tool as Record<string, unknown>;
    const plans: { base: string; plan: SlotPlan }[] = [];
    let capped = false;
    for (const slot of p.slots) {
      if (!hasOwn(tool, slot) || !isObject(tool[slot])) continue;
      const plan = planSlot(tool[slot] as Record<string, unknown>, slot === 'inputSchema', p, cap);
      if (plan.capped) {
        capped = true;
        ctx.report('error', 'growth-capped', '/' + slot, { slot, profile: p.name, before: plan.capped.before, after: plan.capped.after, cap });
      }
      plans.push({ base: '/' + slot, plan });
    }
    for (const { base, plan } of plans) for (const n of plan.notes) ctx.report(n.severity, n.code, base + n.path, n.data);
    if (!capped) for (const { base, plan } of plans) replay(plan.ops, ctx, base);
    if (p.maxTools !== undefined && doc.index >= p.maxTools) ctx.report('error', 'tool-count', '', { position: doc.index + 1, profile: p.name, max: p.maxTools });
    for (const f of checkToolForProfile(ctx.root, p)) ctx.report(f.severity, f.code, f.path, { message: f.message });
  },
});

/** One recorded edit, relative to the schema of a slot. */
interface Op {
  readonly op: 'replace' | 'remove' | 'add' | 'move';
  readonly path: string;
  readonly from?: string;
  readonly value?: unknown;
  readonly code: string;
  readonly data: MessageData;
}

interface Note {
  readonly severity: Severity;
  readonly code: string;
  readonly path: string;
  readonly data: MessageData;
}

interface SlotPlan {
  readonly ops: readonly Op[];
  readonly notes: readonly Note[];
  readonly capped?: { readonly before: number; readonly after: number };
}

/** A scratch copy of one schema that records every edit, so a plan can be measured before it is applied. */
class Editor {
  readonly ops: Op[] = [];
  readonly notes: Note[] = [];
  /** Set when a plan was abandoned for growing past the cap (sizes in bytes; `after` may be an estimate). */
  capped: { before: number; after: number } | undefined;
  readonly #ctx: EditContext;

  constructor(root: unknown) {
    this.#ctx = new EditContext(root, {});
  }

  get root(): unknown {
    return this.#ctx.root;
  }

  get(path: string): unknown {
    return path === '' ? this.#ctx.root : this.#ctx.get(path);
  }

  replace(path: string, value: unknown, code: string, data: MessageData): void {
    this.#ctx.replace(path, value, code);
    this.ops.push({ op: 'replace', path, value, code, data });
  }

  remove(path: string, code: string, data: MessageData): void {
    this.#ctx.remove(path, code);
    this.ops.push({ op: 'remove', path, code, data });
  }

  add(path: string, value: unknown, code: string, data: MessageData): void {
    this.#ctx.add(path, value, code);
    this.ops.push({ op: 'add', path, value, code, data });
  }

  move(from: string, path: string, code: string, data: MessageData): void {
    this.#ctx.move(from, path, code);
    this.ops.push({ op: 'move', from, path, code, data });
  }

  note(severity: Severity, code: string, path: string, data: MessageData): void {
    this.notes.push({ severity, code, path, data });
  }
}

function replay(ops: readonly Op[], ctx: EditContext, base: string): void {
  for (const o of ops) {
    if (o.op === 'replace') ctx.replace(base + o.path, o.value, o.code, o.data);
    else if (o.op === 'remove') ctx.remove(base + o.path, o.code, o.data);
    else if (o.op === 'add') ctx.add(base + o.path, o.value, o.code, o.data);
    else ctx.move(base + o.from!, base + o.path, o.code, o.data);
  }
}

function planSlot(schema: Record<string, unknown>, isArguments: boolean, p: ClientProfile, cap: number): SlotPlan {
  const declared = getDeclaredDialect(schema, p.dialect);
  const dialect = declared.dialect;
  const ed = new Editor(schema);
  if (p.refs === 'none') inlineRefs(ed, dialect, p, cap);
  else if (p.refs !== 'any') hoistRefs(ed, dialect, p);
  if (p.refSiblings !== 'any' && p.refs !== 'none') wrapRefSiblings(ed, dialect, p);
  if (ed.capped) return { ops: [], notes: ed.notes, capped: ed.capped };
  if (ed.ops.length > 0) {
    const before = utf8Length(JSON.stringify(schema));
    const after = utf8Length(JSON.stringify(ed.root));
    if (after > cap * before) return { ops: [], notes: ed.notes, capped: { before, after } };
  }
  // MCP sends a tool's arguments as a JSON object, always: saying so at the root accepts exactly the
  // same arguments, and clients that require `type: "object"` there accept the tool.
  if (p.rootObject && isArguments && isObject(ed.root) && !hasOwn(ed.root, 'type')) ed.add('/type', 'object', 'added-root-type', { profile: p.name });
  if (p.metaSchema) dropInvalidAnnotations(ed, p);
  dropRejected(ed, dialect, declared.source, p);
  return { ops: ed.ops, notes: ed.notes };
}

// ---------------------------------------------------------------------------------------------------------
// Inlining (profiles that cannot resolve references)

/** Where each schema node sits: the nearest enclosing definition entry, if any. */
interface NodeInfo {
  /** Pointer of the nearest node (itself included) that is an entry of a definitions container. */
  readonly defEntry: string | undefined;
}

function indexNodes(schema: unknown): Map<string, NodeInfo> {
  const info = new Map<string, NodeInfo>();
  const stack: { path: string; defEntry: string | undefined }[] = [];
  walkSchema(schema, '', {
    table: UNION_KEYWORDS,
    onSchema(_node, path, keyword) {
      while (stack.length > 0 && !path.startsWith(stack[stack.length - 1]!.path + '/')) stack.pop();
      const inherited = stack.length > 0 ? stack[stack.length - 1]!.defEntry : undefined;
      const defEntry = keyword !== undefined && DEFINITIONS_KEYWORDS.includes(keyword) ? path : inherited;
      info.set(path, { defEntry });
      stack.push({ path, defEntry });
    },
  });
  return info;
}

function within(path: string, ancestor: string): boolean {
  return ancestor === '' || path === ancestor || path.startsWith(ancestor + '/');
}

function inlineRefs(ed: Editor, dialect: Dialect, p: ClientProfile, cap: number): void {
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
    targets.set(site, r.path);
  }
  const info = indexNodes(schema);
  // The references that take effect inside a subtree: those not inside a definitions container below it.
  const liveIn = (root: string): RefSite[] =>
    sites.filter((s) => {
      if (!within(s.schemaPath, root)) return false;
      const entry = info.get(s.schemaPath)?.defEntry;
      return entry === undefined || within(root, entry);
    });
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
  if (total > cap * before * 4) {
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
}

/** Removes definitions containers and anchors once no reference is left in the schema. */
function removeDeadMachinery(ed: Editor): void {
  const found: { path: string; keyword: string; name?: string }[] = [];
  walkSchema(ed.root, '', {
    table: UNION_KEYWORDS,
    onSchema(node, path, keyword) {
      if (keyword !== undefined && DEFINITIONS_KEYWORDS.includes(keyword)) return false;
      if (!isObject(node)) return;
      for (const k of Object.keys(node)) {
        if (DEFINITIONS_KEYWORDS.includes(k) && isObject(node[k])) found.push({ path: appendPointer(path, k), keyword: k });
        else if ((ANCHOR_KEYWORDS.includes(k) || k === '$recursiveAnchor') && typeof node[k] !== 'object') found.push({ path: appendPointer(path, k), keyword: k, name: String(node[k]) });
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
  // Definitions and anchors inside the copy are dead (references name the original) and would clash.
  const dead: string[] = [];
  walkSchema(b.root, '', {
    table: UNION_KEYWORDS,
    onSchema(node, path, keyword) {
      if (keyword !== undefined && DEFINITIONS_KEYWORDS.includes(keyword)) return false;
      if (!isObject(node)) return;
      for (const k of Object.keys(node)) {
        if ((DEFINITIONS_KEYWORDS.includes(k) && isObject(node[k])) || ANCHOR_KEYWORDS.includes(k) || k === '$recursiveAnchor') dead.push(appendPointer(path, k));
      }
      return undefined;
    },
  });
  for (let i = dead.length - 1; i >= 0; i--) b.remove(dead[i]!, 'x');
  return { value: b.root };
}

const INTERACTING: readonly (readonly string[])[] = [
  ['properties', 'patternProperties', 'additionalProperties'],
  ['prefixItems', 'items', 'additionalItems'],
  ['contains', 'minContains', 'maxContains'],
  ['if', 'then', 'else'],
  ['contentMediaType', 'contentEncoding', 'contentSchema'],
];
const UNEVALUATED = ['unevaluatedProperties', 'unevaluatedItems'];
const IDENTITY = ['$id', 'id', '$schema', '$anchor', '$dynamicAnchor', '$recursiveAnchor', '$ref', '$dynamicRef', '$recursiveRef'];

/**
 * What replaces `{ "$ref": …, ...siblings }` once the target is known. Without siblings: the target. With
 * siblings that cannot interact with the target's keywords (annotations, or independent assertions with no
 * shared key): one merged object (an annotation both have keeps the sibling's value, the one written at
 * the use site). Otherwise: `allOf: [target]` in the place of `$ref` (2019-09 and later evaluate `$ref`
 * beside its siblings exactly like that). Fails, naming the keys, for assertions beside `$ref` in an older
 * dialect, where readers disagree on whether they apply.
 */
function mergeRef(node: Record<string, unknown>, target: unknown, dialect: Dialect): { value: unknown } | { fail: string } {
  const siblings = Object.keys(node).filter((k) => k !== '$ref');
  if (siblings.length === 0) return { value: target };
  const asserting = siblings.filter((k) => !isAnnotation(k) && !DEFINITIONS_KEYWORDS.includes(k) && k !== '$schema' && k !== '$comment');
  if (!isModernDialect(dialect) && asserting.length > 0) return { fail: asserting.map((k) => `\`${k}\``).join(', ') };
  if (target === true) return { value: withoutRef(node) };
  if (isObject(target) && canMerge(siblings, target)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(node)) {
      if (k === '$ref') {
        for (const tk of Object.keys(target)) if (!hasOwn(node, tk)) setOwnKey(out, tk, target[tk]);
      } else setOwnKey(out, k, node[k]);
    }
    return { value: out };
  }
  const out: Record<string, unknown> = {};
  const existing = Array.isArray(node.allOf) ? node.allOf : undefined;
  for (const k of Object.keys(node)) {
    if (k === '$ref') {
      if (!existing) setOwnKey(out, 'allOf', [target]);
    } else if (k === 'allOf' && existing) setOwnKey(out, 'allOf', [...existing, target]);
    else setOwnKey(out, k, node[k]);
  }
  return { value: out };
}

function canMerge(siblings: readonly string[], target: Record<string, unknown>): boolean {
  const targetKeys = Object.keys(target);
  if (targetKeys.some((k) => IDENTITY.includes(k) || DEFINITIONS_KEYWORDS.includes(k))) return false;
  if (siblings.some((k) => IDENTITY.includes(k) && k !== '$schema')) return false;
  for (const k of siblings) if (hasOwn(target, k) && !isAnnotation(k)) return false;
  const side = (keys: readonly string[]) => new Set(keys);
  const a = side(siblings.filter((k) => !DEFINITIONS_KEYWORDS.includes(k)));
  const b = side(targetKeys);
  for (const group of INTERACTING) if (group.some((k) => a.has(k)) && group.some((k) => b.has(k))) return false;
  const assertsOn = (s: Set<string>) => [...s].some((k) => !isAnnotation(k) && k !== '$schema' && k !== '$comment');
  if (UNEVALUATED.some((k) => a.has(k)) && assertsOn(b)) return false;
  if (UNEVALUATED.some((k) => b.has(k)) && assertsOn(a)) return false;
  return true;
}

function isAnnotation(keyword: string): boolean {
  return UNION_KEYWORDS.get(keyword)?.role === 'annotation';
}

function withoutRef(node: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(node)) if (k !== '$ref') setOwnKey(out, k, node[k]);
  return out;
}

function setOwnKey(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
}

function nameOf(path: string): string {
  if (path === '') return '#';
  const tokens = parsePointer(path);
  return tokens[tokens.length - 1]!;
}

// ---------------------------------------------------------------------------------------------------------
// Hoisting (profiles that resolve only references to top-level definitions)

const MAX_HOIST_ROUNDS = 500;

function hoistRefs(ed: Editor, dialect: Dialect, p: ClientProfile): void {
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
    const resolution = resolveRefSite(schema, inventory, bad);
    if (resolution.status !== 'resolved') return;
    const target = resolution.path;
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
    const opsBefore = ed.ops.length;
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
      ed.add(to, copy, 'copied-def', { from: target === '' ? '#' : target, to });
      repoint(ed, dialect, (path) => (path === target ? to : undefined));
    }
    if (ed.ops.length === opsBefore) {
      ed.note('error', 'hoist-unsafe', bad.path, { reason: `could not find a place \`${p.name}\` accepts for \`${bad.ref}\`` });
      return;
    }
  }
  ed.note('error', 'hoist-unsafe', '', { reason: `more than ${MAX_HOIST_ROUNDS} references needed moving` });
}

/**
 * Rewrites every schema reference whose target `map` sends somewhere new (written in canonical form). The
 * inventory is read from the current schema; a reference into a definition that just moved still names
 * the old place, which `map` translates.
 */
function repoint(ed: Editor, dialect: Dialect, map: (target: string) => string | undefined): void {
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

// ---------------------------------------------------------------------------------------------------------
// `$ref` siblings

function wrapRefSiblings(ed: Editor, dialect: Dialect, p: ClientProfile): void {
  const allowed = p.refSiblings as readonly string[];
  const inventory = collectRefInventory(ed.root, dialect);
  const sites = inventory.refs.filter((s) => s.inSchema && s.keyword === '$ref');
  for (let i = sites.length - 1; i >= 0; i--) {
    const site = sites[i]!;
    const node = ed.get(site.schemaPath);
    if (!isObject(node) || node.$ref !== site.ref) continue;
    const extra = Object.keys(node).filter((k) => k !== '$ref' && !allowed.includes(k));
    if (extra.length === 0) continue;
    const keys = extra.map((k) => `\`${k}\``).join(', ');
    if (!isModernDialect(dialect) && extra.some((k) => !isAnnotation(k) && !DEFINITIONS_KEYWORDS.includes(k) && k !== '$schema' && k !== '$comment')) {
      ed.note('error', 'ref-siblings-ambiguous', site.schemaPath, { ref: site.ref, keys, dialect });
      continue;
    }
    const out: Record<string, unknown> = {};
    const existing = Array.isArray(node.allOf) ? node.allOf : undefined;
    for (const k of Object.keys(node)) {
      if (k === '$ref') {
        if (!existing) setOwnKey(out, 'allOf', [{ $ref: node.$ref }]);
      } else if (k === 'allOf' && existing) setOwnKey(out, 'allOf', [...existing, { $ref: node.$ref }]);
      else setOwnKey(out, k, node[k]);
    }
    ed.replace(site.schemaPath, out, 'wrapped-ref', { ref: site.ref, keys, profile: p.name });
  }
}

// ---------------------------------------------------------------------------------------------------------
// Rejected annotations

function dropRejected(ed: Editor, dialect: Dialect, source: 'declared' | 'assumed' | 'unknown', p: ClientProfile): void {
  const annotations = new Set(p.rejectedAnnotations);
  const allowed = new Set(p.allowedKeywords ?? []);
  const dropUnknown = p.unknownKeywords === 'reject';
  const dropSchemaUri = p.rejected.includes('$schema') && source === 'declared' && dialect === p.dialect;
  if (annotations.size === 0 && !dropUnknown && !dropSchemaUri) return;
  const schema = ed.root;
  const inventory = collectRefInventory(schema, dialect);
  // Never drop a keyword a remaining reference points into.
  const kept: string[] = [];
  for (const site of inventory.refs) {
    const r = resolveRefSite(schema, inventory, site);
    if (r.status === 'resolved') kept.push(r.path);
  }
  const holdsTarget = (path: string) => kept.some((t) => within(t, path));
  const drops: { path: string; code: string; keyword: string }[] = [];
  walkSchema(schema, '', {
    table: UNION_KEYWORDS,
    onSchema(node, path) {
      if (!isObject(node)) return;
      for (const k of Object.keys(node)) {
        const at = appendPointer(path, k);
        let code: string | undefined;
        if (annotations.has(k)) code = 'dropped-annotation';
        else if (dropUnknown && !UNION_KEYWORDS.has(k) && !allowed.has(k)) code = 'dropped-unknown-keyword';
        else if (dropSchemaUri && k === '$schema' && path === '') code = 'dropped-schema-uri';
        if (code && !holdsTarget(at)) drops.push({ path: at, code, keyword: k });
      }
    },
  });
  // Outermost first in document order; anything inside a dropped keyword goes with it.
  const chosen: typeof drops = [];
  for (const d of drops) if (!chosen.some((c) => within(d.path, c.path))) chosen.push(d);
  for (let i = chosen.length - 1; i >= 0; i--) {
    const d = chosen[i]!;
    ed.remove(d.path, d.code, { keyword: d.keyword, profile: p.name, dialect });
  }
}


/** Drops annotations whose value breaks the meta-schema (`"description": null`): no verdict depends on them. */
function dropInvalidAnnotations(ed: Editor, p: ClientProfile): void {
  const nodes = indexNodes(ed.root);
  const drops: { path: string; keyword: string }[] = [];
  for (const e of metaSchemaErrors(ed.root)) {
    if (e.path === '') continue;
    const tokens = parsePointer(e.path);
    const keyword = tokens[tokens.length - 1]!;
    const parent = e.path.slice(0, e.path.lastIndexOf('/'));
    if (!isAnnotation(keyword) || !nodes.has(parent)) continue;
    if (drops.some((d) => within(e.path, d.path))) continue;
    drops.push({ path: e.path, keyword });
  }
  for (let i = drops.length - 1; i >= 0; i--) ed.remove(drops[i]!.path, 'dropped-invalid-annotation', { keyword: drops[i]!.keyword, dialect: p.dialect, profile: p.name });
}
