import { EditContext } from '../core/context.js';
import { defineTransform } from '../engine/define-transform.js';
import { utf8Length } from '../core/measure.js';
import type { McpTool } from '../core/tool.js';
import type { SchemaDocument } from '../core/documents.js';
import { hasOwn, isObject } from '../json/guards.js';
import { appendPointer, getAt, parsePointer } from '../json/pointer.js';
import { ANCHOR_KEYWORDS, DEFINITIONS_KEYWORDS, type Dialect } from '../schema/keywords.js';
import { collectRefInventory, definitionOf, resolveRefSite, type RefSite } from '../schema/refs.js';
import { onCycles, refNearness } from '../schema/ref-graph.js';
import { mergeRef } from './adapt-to-client/merge-ref.js';
import { anchorDoubt, placeDoubt, within } from './adapt-to-client/nodes.js';

/** Options of {@link inlineSmallRefs}. */
export interface InlineSmallRefsOptions {
  /**
   * How much inlining one definition may grow its tool, as a fraction of the tool with that definition's
   * uses kept as references and every other inlinable reference expanded (default 0.1: 10%), measured by
   * `measure`. Judged on that expanded form, so a second run decides the same (the step is idempotent).
   */
  readonly maxGrowth?: number;
  /**
   * A tool's size as its reader pays for it. Default: UTF-8 bytes of its compact JSON. A transform never
   * loads a renderer or a tokenizer: the profile layer passes the reader's own measure
   * (`presetForProfile(…, 'openai')` passes the `typescript` rendering's length, or its tokens with `tokenizer`).
   */
  readonly measure?: (tool: McpTool) => number;
  /**
   * How many places of a tool its reader cannot see the type of (default: none counted). A definition
   * whose inlining raises the count is kept: a `$ref` hiding a definition with two `anyOf`s is one `any`,
   * the copy two. The profile layer passes the `typescript` reader's count (`findAnyTypes`).
   */
  readonly hidden?: ((tool: McpTool) => number) | undefined;
  /** The dialect of a schema without `$schema` (MCP: 2020-12). */
  readonly assume?: Dialect;
}

/** Definitions considered per tool (a tool with more is left alone). */
const MAX_CANDIDATES = 64;
/**
 * Candidates × bytes of the schema a tool may have (each candidate costs an expansion of the whole
 * schema; the bundled corpus's largest is 27,195): beyond, the tool is left alone, reported.
 */
const MAX_WORK = 400_000;
/** Bytes the expanded schema may reach (definitions used twice by definitions used twice double each level). */
const MAX_EXPANDED = 256 * 1024;

/**
 * Replaces `$ref`s to root definitions with the definition itself where that costs its reader little: a
 * reader that does not resolve references (the `typescript` one renders each `$ref` as `any`) then sees
 * the type. Each definition is judged on quantities inlining does not change, so the step is idempotent:
 * `E`, the tool with every inlinable reference expanded, and `E` with that definition's uses put back as
 * references. It is inlined (all its uses, in definitions too) when that grows the tool by at most
 * `maxGrowth` and does not raise the `hidden` count, and only if those that fit, together, grow the tool by
 * at most `maxGrowth` too (else none: all or nothing keeps the fixed point); a definition no reference uses
 * any more is removed.
 * Never inlines a recursive definition (directly or through others), one holding `$id`/anchors/definitions,
 * or one a reference reaches through an anchor or a place readers disagree on. Keeps every verdict: the
 * copy is the same schema.
 */
export const inlineSmallRefs = defineTransform<InlineSmallRefsOptions, undefined>({
  name: 'inline-small-refs',
  description: 'Replace references with their definition where that grows the tool by at most 10% in its reader’s measure',
  safety: 'lossless',
  defaultOptions: { maxGrowth: 0.1, measure: measureBytes, hidden: undefined, assume: '2020-12' },
  messages: {
    'inlined-ref': 'Inlined `$ref` `{ref}`: its definition grows the tool by {growth} (at most {limit} allowed)',
    'removed-definition': 'Removed definition `{name}`: every reference to it is inlined',
    'removed-empty-defs': 'Removed `{keyword}`, empty once its definitions were inlined',
    'kept-ref': 'Kept `$ref` `{ref}`: inlining its definition would grow the tool by {growth}, more than the {limit} allowed',
    'left-alone': 'Left every `$ref` of this schema as it is: {reason}',
    'kept-ref-hidden': 'Kept `$ref` `{ref}`: inlining its definition would raise the places whose type the reader cannot see from {before} to {after}',
  },
  validateOptions(options) {
    const g = options.maxGrowth;
    if (typeof g !== 'number' || !Number.isFinite(g) || g < 0) throw new Error('`maxGrowth` must be a finite number ≥ 0');
    if (typeof options.measure !== 'function') throw new Error('`measure` must be a function (tool) => number');
    if (options.hidden !== undefined && typeof options.hidden !== 'function') throw new Error('`hidden` must be a function (tool) => number');
  },
  apply(doc, ctx, options) {
    const measure = options.measure ?? measureBytes;
    for (const d of doc.documents) {
      if (d.slot === 'inputSchema' && d.base === '/inputSchema') inlineDocument(d, ctx, measure, options.maxGrowth ?? 0.1, options.hidden);
    }
  },
});

/** UTF-8 bytes of a tool's compact JSON. */
function measureBytes(tool: McpTool): number {
  return utf8Length(JSON.stringify(tool) ?? '');
}

interface Candidate {
  /** Pointer of the definition (`/$defs/Name`). */
  readonly target: string;
  /** Every reference to it (in definitions too). */
  readonly sites: readonly RefSite[];
}

interface Edit {
  readonly op: 'replace' | 'remove';
  readonly path: string;
  readonly value?: unknown;
  readonly code: 'inlined-ref' | 'removed-definition' | 'removed-empty-defs';
  readonly data: Readonly<Record<string, string>>;
}

interface Verdict {
  readonly target: string;
  readonly inline: boolean;
  readonly cost: number;
  readonly base: number;
  readonly hiddenWith?: number;
  readonly hiddenWithout?: number;
}

function inlineDocument(d: SchemaDocument, ctx: EditContext, measure: (tool: McpTool) => number, maxGrowth: number, hidden: ((tool: McpTool) => number) | undefined): void {
  const dialect = d.dialect;
  const toolAt = (schema: unknown): McpTool => ({ ...(ctx.root as Record<string, unknown>), inputSchema: schema }) as McpTool;
  const schema = ctx.get(d.base);
  const first = findCandidates(schema, dialect);
  if (first === undefined || first.length === 0) {
    if (first === undefined) ctx.report('info', 'left-alone', d.base, { reason: `more than ${MAX_CANDIDATES} definitions to consider` });
    return;
  }
  const bytes = utf8Length(JSON.stringify(schema) ?? '');
  // Leaving a tool alone changes nothing, so it never breaks the fixed point.
  const leave = (reason: string) => ctx.report('info', 'left-alone', d.base, { reason });
  if (first.length * bytes > MAX_WORK) return leave(`${first.length} definitions in a schema of ${bytes} bytes: more work than allowed`);
  // E: every inlinable reference expanded. The same from the input and from any partly inlined form of it.
  // Judged: every target met on the way (a place that held a reference is a target once that is inlined).
  const seen = new Map<string, Candidate>();
  const expanded = expand(schema, dialect, () => true, [], undefined, seen);
  if (expanded === undefined) return leave(`expanded, it would pass ${MAX_EXPANDED} bytes or ${MAX_CANDIDATES} definitions`);
  const present = [...seen.values()].sort((a, b) => (a.target < b.target ? -1 : a.target > b.target ? 1 : 0));
  const full = toolAt(expanded);
  const mFull = measure(full);
  const hFull = hidden?.(full);
  const verdicts: Verdict[] = [];
  for (const c of present) {
    // E with this definition's uses put back as references.
    const back = expand(schema, dialect, (t) => t !== c.target);
    if (back === undefined) return leave(`expanded, it would pass ${MAX_EXPANDED} bytes or ${MAX_CANDIDATES} definitions`);
    const tool = toolAt(back);
    const base = measure(tool);
    const cost = mFull - base;
    const hBack = hidden?.(tool);
    const hides = hFull !== undefined && hBack !== undefined && hFull > hBack;
    verdicts.push({ target: c.target, inline: !hides && cost <= maxGrowth * base, cost, base, ...(hides ? { hiddenWith: hFull, hiddenWithout: hBack } : {}) });
  }
  const chosen = new Map(verdicts.filter((v) => v.inline).map((v) => [v.target, v]));
  for (const v of verdicts) {
    if (v.inline) continue;
    for (const site of first.find((c) => c.target === v.target)?.sites ?? []) {
      if (insideDefinitions(schema, site.schemaPath)) continue;
      if (v.hiddenWith !== undefined) ctx.report('info', 'kept-ref-hidden', d.base + site.path, { ref: site.ref, before: String(v.hiddenWithout), after: String(v.hiddenWith) });
      else ctx.report('info', 'kept-ref', d.base + site.path, { ref: site.ref, growth: describeGrowth(v.cost, v.base), limit: describeGrowth(maxGrowth * v.base, v.base) });
    }
  }
  if (chosen.size === 0) return;
  // The whole tool grows by at most maxGrowth too, or nothing is inlined (all or nothing keeps the fixed point).
  const mBefore = measure(toolAt(schema));
  const withChosen = expand(schema, dialect, (t) => chosen.has(t));
  if (withChosen === undefined) return leave(`expanded, it would pass ${MAX_EXPANDED} bytes or ${MAX_CANDIDATES} definitions`);
  const growth = measure(toolAt(withChosen)) - mBefore;
  if (growth > maxGrowth * mBefore) return leave(`inlining the ${chosen.size} definition(s) that each fit would grow the tool by ${describeGrowth(growth, mBefore)}, more than ${describeGrowth(maxGrowth * mBefore, mBefore)}`);
  // Cheapest first, ties by pointer: the order of the report (the result is the same in any order).
  const order = [...chosen.values()].sort((a, b) => a.cost - b.cost || (a.target < b.target ? -1 : a.target > b.target ? 1 : 0)).map((v) => v.target);
  expand(schema, dialect, (t) => chosen.has(t), order, (target, edits) => {
    const v = chosen.get(target)!;
    const growth = describeGrowth(v.cost, v.base);
    const limit = describeGrowth(maxGrowth * v.base, v.base);
    for (const e of edits) {
      const data = e.code === 'inlined-ref' ? { ...e.data, growth, limit } : e.data;
      if (e.op === 'replace') ctx.replace(d.base + e.path, e.value, e.code, data);
      else ctx.remove(d.base + e.path, e.code, data);
    }
  });
}

/**
 * `schema` with every use of each inlinable definition `allow` accepts expanded, one definition at a time
 * (those in `order` first), each applied edit passed to `sink`, each candidate met added to `seen`.
 * Undefined when the schema has more candidates than considered.
 */
function expand(schema: unknown, dialect: Dialect, allow: (target: string) => boolean, order: readonly string[] = [], sink?: (target: string, edits: readonly Edit[]) => void, seen?: Map<string, Candidate>): unknown {
  let now = schema;
  const failed = new Set<string>();
  for (let round = 0; round <= MAX_CANDIDATES; round++) {
    const candidates = findCandidates(now, dialect)?.filter((c) => allow(c.target) && !failed.has(c.target));
    if (candidates === undefined) return undefined;
    if (candidates.length === 0) return now;
    for (const c of candidates) if (seen !== undefined && !seen.has(c.target)) seen.set(c.target, c);
    const rank = (t: string) => (order.includes(t) ? order.indexOf(t) : order.length);
    const c = candidates.reduce((a, b) => (rank(b.target) < rank(a.target) ? b : a));
    const plan = planInline(now, c, dialect);
    if (plan === undefined) failed.add(c.target);
    else {
      // Only while judging: once judged, the edits go through (what they apply stays below what E holds).
      if (sink === undefined && (JSON.stringify(plan.next)?.length ?? 0) > MAX_EXPANDED) return undefined;
      sink?.(c.target, plan.edits);
      now = plan.next;
    }
  }
  return undefined;
}

function describeGrowth(amount: number, of: number): string {
  if (of <= 0) return String(amount);
  return `${((amount / of) * 100).toFixed(1)}%`;
}

/**
 * Root definitions `$ref`s reach and that may be inlined, and other places of the schema references reach
 * (see inside), with every reference to each, in pointer order;
 * undefined when there are more than {@link MAX_CANDIDATES}.
 */
function findCandidates(schema: unknown, dialect: Dialect): Candidate[] | undefined {
  if (!isObject(schema)) return [];
  const inventory = collectRefInventory(schema, dialect);
  if (inventory.resources.length > 0) return [];
  const byTarget = new Map<string, RefSite[]>();
  const spoiled = new Set<string>();
  const nearRef = refNearness(inventory.refs);
  for (const site of inventory.refs) {
    if (!site.inSchema) continue;
    if (site.keyword !== '$ref') return []; // dynamic scope: leave the whole schema alone
    const r = resolveRefSite(schema, inventory, site);
    if (r.status !== 'resolved') continue;
    const def = definitionOf(schema, r.path);
    if (def === undefined) {
      // A reference to another place of the schema (`#/properties/start`, as zod-to-json-schema writes a
      // repeated type): copied, the place itself stays. Only a place with no reference inside and no
      // reference around it, so neither the copy nor the place changes while others are inlined.
      if (r.path === '' || anchorDoubt(schema, inventory, site, dialect) !== undefined || placeDoubt(schema, r.path, dialect) !== undefined) continue;
      if (nearRef(r.path)) continue;
      const list = byTarget.get(r.path) ?? [];
      list.push(site);
      byTarget.set(r.path, list);
      continue;
    }
    const target = appendPointer(appendPointer('', def[0]), def[1]);
    if (r.path !== target) {
      spoiled.add(target); // a reference into the definition would lose its target
      continue;
    }
    if (anchorDoubt(schema, inventory, site, dialect) !== undefined || placeDoubt(schema, r.path, dialect) !== undefined) spoiled.add(target);
    if (site.schemaPath === '') spoiled.add(target); // the root itself
    const list = byTarget.get(target) ?? [];
    list.push(site);
    byTarget.set(target, list);
  }
  for (const t of recursive(schema, byTarget)) spoiled.add(t);
  const out: Candidate[] = [];
  for (const [target, sites] of [...byTarget].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (spoiled.has(target) || holdsIdentity(getAt(schema, parsePointer(target)))) continue;
    out.push({ target, sites });
  }
  return out.length > MAX_CANDIDATES ? undefined : out;
}

/** Definitions on a cycle of references (one reaching itself, directly or through others; see schema/ref-graph.ts). */
function recursive(schema: unknown, byTarget: ReadonlyMap<string, readonly RefSite[]>): Set<string> {
  const edges = new Map<string, string[]>();
  for (const [target, sites] of byTarget) {
    for (const s of sites) {
      const from = definitionOf(schema, s.schemaPath);
      if (from === undefined) continue;
      const source = appendPointer(appendPointer('', from[0]), from[1]);
      const list = edges.get(source) ?? [];
      list.push(target);
      edges.set(source, list);
    }
  }
  return onCycles(edges, byTarget.keys());
}

/** True when `path` lies inside a root definitions container. */
function insideDefinitions(schema: unknown, path: string): boolean {
  return definitionOf(schema, path) !== undefined;
}

/** The subtree holds `$id`, an anchor or a definitions container: a copy would clash with the original. */
function holdsIdentity(node: unknown): boolean {
  const stack: unknown[] = [node];
  let seen = 0;
  while (stack.length > 0) {
    const n = stack.pop();
    if (++seen > 100_000) return true;
    if (Array.isArray(n)) for (const x of n) stack.push(x);
    else if (isObject(n)) {
      for (const k of Object.keys(n)) {
        if (k === '$id' || k === 'id' || ANCHOR_KEYWORDS.includes(k) || k === '$recursiveAnchor' || DEFINITIONS_KEYWORDS.includes(k)) return true;
        stack.push(n[k]);
      }
    }
  }
  return false;
}

/** The edits that inline every use of `c.target`, and the schema after them; undefined when one cannot be merged. */
function planInline(schema: unknown, c: Candidate, dialect: Dialect): { edits: Edit[]; next: unknown } | undefined {
  const value = getAt(schema, parsePointer(c.target));
  const scratch = new EditContext(schema, {});
  const edits: Edit[] = [];
  for (let i = c.sites.length - 1; i >= 0; i--) {
    const site = c.sites[i]!;
    const node = site.schemaPath === '' ? scratch.root : scratch.get(site.schemaPath);
    if (!isObject(node)) return undefined;
    const merged = mergeRef(node, value, dialect);
    if ('fail' in merged) return undefined;
    scratch.replace(site.schemaPath, merged.value, 'x');
    edits.push({ op: 'replace', path: site.schemaPath, value: merged.value, code: 'inlined-ref', data: { ref: site.ref } });
  }
  // The definition goes when no reference reaches it any more (one inside another definition may).
  const after = scratch.root;
  const inventory = collectRefInventory(after, dialect);
  const stillUsed = inventory.refs.some((s) => {
    if (!s.inSchema) return false;
    const r = resolveRefSite(after, inventory, s);
    return r.status === 'resolved' && within(r.path, c.target);
  });
  const def = definitionOf(schema, c.target);
  if (!stillUsed && def !== undefined) {
    const [container, name] = def;
    const holder = (after as Record<string, unknown>)[container];
    if (isObject(holder) && Object.keys(holder).length === 1 && hasOwn(holder, name)) {
      scratch.remove(appendPointer('', container), 'x');
      edits.push({ op: 'remove', path: appendPointer('', container), code: 'removed-empty-defs', data: { keyword: container } });
    } else {
      scratch.remove(c.target, 'x');
      edits.push({ op: 'remove', path: c.target, code: 'removed-definition', data: { name } });
    }
  }
  return { edits, next: scratch.root };
}
