import { EditContext } from '../core/context.js';
import { defineTransform } from '../engine/define-transform.js';
import { utf8Length } from '../core/measure.js';
import type { McpTool } from '../core/tool.js';
import type { SchemaDocument } from '../core/documents.js';
import { hasOwn, isObject } from '../json/guards.js';
import { appendPointer, getAt, parsePointer } from '../json/pointer.js';
import { ANCHOR_KEYWORDS, DEFINITIONS_KEYWORDS, type Dialect } from '../schema/keywords.js';
import { collectRefInventory, definitionOf, resolveRefSite, type RefSite } from '../schema/refs.js';
import { mergeRef } from './adapt-to-client/merge-ref.js';
import { anchorDoubt, placeDoubt, within } from './adapt-to-client/nodes.js';

/** Options of {@link inlineSmallRefs}. */
export interface InlineSmallRefsOptions {
  /**
   * How much each tool may grow, as a fraction of its size before this step (default 0.1: 10%), measured
   * by `measure`.
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

/** Definitions considered per tool (the rest keep their references, reported). */
const MAX_CANDIDATES = 64;

/**
 * Replaces `$ref`s to root definitions with the definition itself, where the tool grows by at most
 * `maxGrowth` in its reader's measure: a reader that does not resolve references (the `typescript` one
 * renders each `$ref` as `any`) then sees the type. Cheapest first (a definition used once usually costs
 * nothing), all uses of a definition at once; a definition no reference uses any more is removed. Never
 * inlines a recursive definition, one holding `$id`/anchors/definitions, or one a reference reaches
 * through an anchor or a place readers disagree on. Keeps every verdict: the copy is the same schema.
 */
export const inlineSmallRefs = defineTransform<InlineSmallRefsOptions, undefined>({
  name: 'inline-small-refs',
  description: 'Replace references with their definition where the tool grows by at most 10% in its reader’s measure',
  safety: 'lossless',
  defaultOptions: { maxGrowth: 0.1, measure: measureBytes, hidden: undefined, assume: '2020-12' },
  messages: {
    'inlined-ref': 'Inlined `$ref` `{ref}`: the tool grows {growth} (at most {limit} allowed)',
    'removed-definition': 'Removed definition `{name}`: every reference to it is inlined',
    'removed-empty-defs': 'Removed `{keyword}`, empty once its definitions were inlined',
    'kept-ref': 'Kept `$ref` `{ref}`: inlining it would grow the tool by {growth}, more than the {limit} left',
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
  readonly sites: readonly RefSite[];
}

interface Edit {
  readonly op: 'replace' | 'remove';
  readonly path: string;
  readonly value?: unknown;
  readonly code: 'inlined-ref' | 'removed-definition' | 'removed-empty-defs';
  readonly data: Readonly<Record<string, string>>;
}

function inlineDocument(d: SchemaDocument, ctx: EditContext, measure: (tool: McpTool) => number, maxGrowth: number, hidden: ((tool: McpTool) => number) | undefined): void {
  const dialect = d.dialect;
  const toolAt = (schema: unknown): McpTool => ({ ...(ctx.root as Record<string, unknown>), inputSchema: schema }) as McpTool;
  let schema = ctx.get(d.base);
  const start = measure(toolAt(schema));
  const limit = start * maxGrowth;
  let spent = 0;
  const tried = new Set<string>();
  let kept: { site: RefSite; growth: number }[] = [];
  // Each round: the cheapest candidate as the schema now is; a copy may bring new references (inlined in a later round).
  for (let round = 0; round < MAX_CANDIDATES; round++) {
    const candidates = findCandidates(schema, dialect).filter((c) => !tried.has(c.target));
    if (candidates.length === 0) break;
    let best: { c: Candidate; edits: Edit[]; next: unknown; growth: number } | undefined;
    const now = measure(toolAt(schema));
    const hiddenNow = hidden?.(toolAt(schema)) ?? 0;
    kept = [];
    for (const c of candidates) {
      const plan = planInline(schema, c, dialect);
      if (plan === undefined || (hidden !== undefined && hidden(toolAt(plan.next)) > hiddenNow)) {
        tried.add(c.target);
        continue;
      }
      const growth = measure(toolAt(plan.next)) - now;
      if (spent + growth > limit) {
        for (const s of c.sites) kept.push({ site: s, growth });
        continue;
      }
      if (best === undefined || growth < best.growth) best = { c, ...plan, growth };
    }
    if (best === undefined) break;
    tried.add(best.c.target);
    spent += best.growth;
    const growth = describeGrowth(best.growth, start);
    for (const e of best.edits) {
      const data = e.code === 'inlined-ref' ? { ...e.data, growth, limit: describeGrowth(limit, start) } : e.data;
      if (e.op === 'replace') ctx.replace(d.base + e.path, e.value, e.code, data);
      else ctx.remove(d.base + e.path, e.code, data);
    }
    schema = ctx.get(d.base);
  }
  for (const k of kept) ctx.report('info', 'kept-ref', d.base + k.site.path, { ref: k.site.ref, growth: describeGrowth(k.growth, start), limit: describeGrowth(Math.max(0, limit - spent), start) });
}

function describeGrowth(amount: number, of: number): string {
  if (of <= 0) return String(amount);
  return `${((amount / of) * 100).toFixed(1)}%`;
}

/** Root definitions reached by `$ref`s outside every definitions container, with those references. */
function findCandidates(schema: unknown, dialect: Dialect): Candidate[] {
  if (!isObject(schema)) return [];
  const inventory = collectRefInventory(schema, dialect);
  if (inventory.resources.length > 0) return [];
  const byTarget = new Map<string, RefSite[]>();
  const spoiled = new Set<string>();
  for (const site of inventory.refs) {
    if (!site.inSchema) continue;
    if (site.keyword !== '$ref') return []; // dynamic scope: leave the whole schema alone
    const r = resolveRefSite(schema, inventory, site);
    if (r.status !== 'resolved') continue;
    const def = definitionOf(schema, r.path);
    if (def === undefined) continue;
    const target = appendPointer(appendPointer('', def[0]), def[1]);
    if (r.path !== target) {
      spoiled.add(target); // a reference into the definition would lose its target
      continue;
    }
    if (anchorDoubt(schema, inventory, site, dialect) !== undefined || placeDoubt(schema, r.path, dialect) !== undefined) spoiled.add(target);
    if (within(site.schemaPath, target) || site.schemaPath === '') spoiled.add(target); // recursive, or the root itself
    if (insideDefinitions(schema, site.schemaPath)) continue;
    const list = byTarget.get(target) ?? [];
    list.push(site);
    byTarget.set(target, list);
  }
  const out: Candidate[] = [];
  for (const [target, sites] of byTarget) {
    if (spoiled.has(target) || holdsIdentity(getAt(schema, parsePointer(target)))) continue;
    out.push({ target, sites });
    if (out.length >= MAX_CANDIDATES) break;
  }
  return out;
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
  if (!stillUsed) {
    const [container, name] = definitionOf(schema, c.target)!;
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
