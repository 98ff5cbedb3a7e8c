/**
 * One document's rewrite (a tool's `inputSchema` or `outputSchema`): its dialect and contradictions, the
 * analysis the conversions read (references and their targets, embedded resources, anchors, dead
 * definitions), the walk, then the references that follow the moves, the dead definitions removed and the
 * stamp. It runs in two parts: {@link readDocument} reports what the source says (its dialect, its
 * contradictions) for every slot first, then {@link reconcileDocument} edits through the tool's context
 * inside the transaction the transform (index.ts) holds, committed or rolled back (keeping the findings
 * about the source) for the whole tool, so the report lists every slot's contradictions before any
 * slot's conversion findings.
 */
import type { EditContext } from '../../core/context.js';
import { hasOwn, isObject } from '../../json/guards.js';
import { appendPointer, parsePointer } from '../../json/pointer.js';
import { findDialectContradictions, getDeclaredDialect, type DeclaredDialect } from '../../schema/dialect.js';
import { DEFINITIONS_KEYWORDS, type Dialect } from '../../schema/keywords.js';
import { parseRef } from '../../schema/ref-syntax.js';
import { definitionOf, refInventoryOf, resolveRefSite } from '../../schema/refs.js';
import { PathMap, planRefRewrites } from '../../schema/relocate.js';
import { someSubschema } from '../../schema/walk.js';
import { anchorShape } from '../../json/shapes.js';
import { findReachedDefinitions } from '../prune-unreachable-defs.js';
import { isWithinAny, valueKind, type Job, type PairTables, type RefTarget, type Trigger } from './job.js';
import type { ReconcileDialectOptions } from './options.js';
import { mayNeedConversion, pairTables } from './pair-tables.js';
import { writeStamp } from './stamp.js';
import type { BelowRoot } from '../below-root.js';
import { mayTidy } from '../normalize-schema.js';
import { walkAndConvert } from './walk.js';
import { splitNullables } from './conversions/nullable.js';

/** A document whose dialect toolslim knows, as {@link readDocument} found it: what {@link reconcileDocument} rewrites. */
export interface SourceDocument {
  readonly schema: Record<string, unknown>;
  /** Pointer of the document inside the tool (`/inputSchema`). */
  readonly base: string;
  /** Declared or assumed, never `unknown`. */
  readonly declared: DeclaredDialect;
  /** What the source's dialect pair narrows the work to. */
  readonly pair: PairTables;
  /** The quick look's answer (see {@link quickLook}), found with the look for contradictions. */
  readonly look: QuickLook;
  /** What the look found below the root, for later steps (see below-root.ts), when it looked everywhere. */
  readonly below?: BelowRoot;
}

/** Whether the document is read with OpenAPI 3.0's keywords, and whether the walk may have work. */
interface QuickLook {
  readonly openapi: boolean;
  readonly work: boolean;
}

/** How the quick look decides about OpenAPI 3.0's keywords (see {@link quickLook}). */
type OpenApiMode = 'yes' | 'no' | 'look';

/**
 * Reports what the source says about itself: a `$schema` toolslim does not know (the document is then left
 * as it is: undefined), or each keyword that contradicts the declared dialect. Edits nothing.
 */
export function readDocument(schema: Record<string, unknown>, base: string, ctx: EditContext, options: Required<ReconcileDialectOptions>, tool: string): SourceDocument | undefined {
  const declared = getDeclaredDialect(schema, options.assume);
  if (declared.source === 'unknown') {
    ctx.report('info', 'unknown-dialect', base + '/$schema', { uri: String(declared.uri) });
    return undefined;
  }
  const pair = pairTables(declared.dialect, options.target);
  // Without `$schema`, OpenAPI 3.0's `nullable` marks a schema object copied from an OpenAPI document: its
  // OpenAPI keywords are converted, and the rest is read as the assumed dialect, as MCP readers read it.
  const mode: OpenApiMode = declared.dialect === 'openapi-3.0' ? 'yes' : declared.source === 'assumed' ? 'look' : 'no';
  // Nearly every document has no contradiction and nothing to convert: one pointer-free look answers both.
  const seen = lookAtSource(schema, mode, pair);
  if (!seen.noContradiction) {
    for (const c of findDialectContradictions(schema, { assume: options.assume })) {
      ctx.report('warning', 'contradiction', base + c.path, { tool: tool || '(unnamed)', detail: c.message });
    }
  }
  const look = seen.look ?? quickLook(schema, mode, pair);
  return seen.below === undefined ? { schema, base, declared, pair, look } : { schema, base, declared, pair, look, below: seen.below };
}

/**
 * Rewrites one document through `ctx` (the caller holds the transaction); true when something in it cannot
 * be expressed in the target with the same verdicts (the caller then rolls the tool's rewrite back).
 */
export function reconcileDocument(doc: SourceDocument, ctx: EditContext, options: Required<ReconcileDialectOptions>): boolean {
  const { schema, base, declared, pair, look } = doc;
  const source: Dialect = declared.dialect;
  const openapi = look.openapi;
  // Most schemas already say everything in a form the target shares: nothing to convert, no `$ref` to
  // follow a move (the quick look decided both); then only the stamp policy applies.
  if (!look.work) {
    writeStamp(schema, '', { ctx, base, target: options.target, options }, true);
    return false;
  }
  const inventory = refInventoryOf(schema, source);
  const targets: string[] = [];
  const refTargets: RefTarget[] = [];
  const defOf = (path: string) => {
    const def = definitionOf(schema, path);
    return def ? appendPointer(appendPointer('', def[0]), def[1]) : undefined;
  };
  const refTargetOf = new Map<string, string>();
  const anchorRefs = new Set<string>();
  const reached = findReachedDefinitions(schema);
  for (const site of inventory.refs) {
    const parsed = parseRef(site.ref);
    if (parsed.kind === 'anchor') anchorRefs.add(parsed.name);
    const r = resolveRefSite(schema, inventory, site);
    if (r.status !== 'resolved') continue;
    targets.push(r.path);
    if (site.inSchema && site.keyword === '$ref') refTargetOf.set(site.schemaPath, r.path);
    refTargets.push({ target: r.path, site: site.schemaPath, siteDef: defOf(site.schemaPath), targetDef: defOf(r.path), ...(parsed.kind === 'anchor' ? { anchor: parsed.name } : {}) });
  }
  const anchoredDefs = new Set<string>();
  for (const res of inventory.resources) {
    const d = defOf(res.path);
    if (d !== undefined) anchoredDefs.add(d);
  }
  const deadDefs: string[] = [];
  if ('keys' in reached) {
    for (const c of DEFINITIONS_KEYWORDS) {
      const defs = hasOwn(schema, c) ? schema[c] : undefined;
      if (!isObject(defs)) continue;
      for (const name of Object.keys(defs)) {
        // A dynamic anchor is an extension point: a `$dynamicRef` of another document may land on it.
        const pointer = appendPointer(appendPointer('', c), name);
        if (someSubschema(defs[name], (n) => hasOwn(n, '$dynamicAnchor') || hasOwn(n, '$recursiveAnchor'))) anchoredDefs.add(pointer);
        else if (!reached.keys.has(c + '\u0000' + name)) deadDefs.push(pointer);
      }
    }
  }
  const anchorCounts = new Map<string, number>();
  for (const a of inventory.anchors) anchorCounts.set(a.name, (anchorCounts.get(a.name) ?? 0) + 1);
  const job: Job = { ctx, unconvertible: 0, base, source, openapi, target: options.target, options, map: new PathMap(), targets, refTargets, resources: inventory.resources, anchoredDefs, deadDefs, deadToRemove: new Set(), anchorRefs, anchorCounts, schema, refTargetOf, pair, seen: undefined, nullableSplits: undefined };
  // `seen` and `nullableSplits` are written during the walk: present from the start, every job has one map, which
  // V8 keeps between runs (a map made by adding them later dies with the last job, and with it the optimized
  // walkAndConvert: 'weak objects' in node --trace-deopt, a recompile per run on the validation set).
  walkAndConvert(schema, job);
  // References that were removed (inside a dropped keyword, or a dead definition removed below) follow nothing.
  const live = { ...inventory, refs: inventory.refs.filter((r) => !isWithinAny(r.path, job.deadToRemove) && job.map.map(r.path) !== undefined) };
  const { rewrites, problems } = planRefRewrites(schema, live, job.map);
  if (problems.length > 0) throw new Error(`\`$ref\` \`${problems[0]!.site.ref}\` at \`${base}${problems[0]!.site.path}\` cannot follow its target: ${problems[0]!.reason}`);
  for (const r of rewrites) {
    const at = job.map.map(r.site.path);
    if (at === undefined) continue;
    ctx.replace(base + at, r.ref, 'rewrote-ref', { from: r.site.ref, to: r.ref });
  }
  for (const definition of job.deadToRemove) {
    const at = job.map.map(definition);
    if (at === undefined || at === null) continue;
    const tokens = parsePointer(definition);
    ctx.remove(base + at, 'removed-dead-referrer', { name: tokens[1]!, container: tokens[0]!, target: options.target, dialect: source });
  }
  splitNullables(job, options.target);
  writeStamp(schema, '', job, true);
  // A schema that cannot be fully expressed in the target keeps its own dialect, stamp and all.
  return job.unconvertible > 0;
}

/**
 * The look at the source that {@link readDocument} makes, pointer-free: whether a keyword anywhere may
 * contradict the source dialect (`noContradiction` true only when none can: `findDialectContradictions`
 * would then find none, its own first look testing the same positions for the same keywords), and with
 * it the {@link quickLook}'s answer (`look`, unless a possible contradiction cut the look short). Stops
 * where the quick look would, and at the first possible contradiction.
 */
function lookAtSource(schema: unknown, mode: OpenApiMode, pair: PairTables): { readonly noContradiction: boolean; readonly look?: QuickLook; readonly below?: BelowRoot } {
  const s = new SourceLook(pair.keys, mode);
  const stopped = someSubschema(schema, lookAtNode, undefined, s);
  if (s.contradiction) return { noContradiction: false };
  const { nullable, plain, withOpenApi } = s;
  const look = mode === 'look' ? { openapi: nullable, work: nullable ? withOpenApi : plain } : { openapi: mode === 'yes', work: mode === 'yes' ? withOpenApi : plain };
  return stopped ? { noContradiction: false, look } : { noContradiction: true, look, below: { definitions: s.definitions, tidy: s.tidy } };
}

/**
 * What {@link lookAtSource} has seen so far. A class, and its visitor {@link lookAtNode} a module function
 * rather than a closure per call: V8 keeps a function's optimised code only while one of its closures lives,
 * so a closure made per document is recompiled after every full collection (docs/architecture.md).
 */
class SourceLook {
  nullable = false;
  plain = false;
  withOpenApi = false;
  contradiction = false;
  // For later steps (below-root.ts): what hoist-nested-defs and normalize-schema would look for below the root.
  definitions = false;
  tidy = false;
  constructor(
    readonly keys: PairTables['keys'],
    readonly mode: OpenApiMode,
  ) {}
}

anchorShape(new SourceLook(new Map(), 'look'));

function lookAtNode(node: Record<string, unknown>, isRoot: boolean, s: SourceLook): boolean {
  for (const key in node) {
    if (!hasOwn(node, key)) continue;
    const value = node[key];
    if (!isRoot) {
      if (!s.definitions && DEFINITIONS.has(key) && isObject(value)) s.definitions = true;
      if (!s.tidy && mayTidy(key, value)) s.tidy = true;
    }
    if (key === '$schema') {
      // An embedded `$schema` changes the dialect below it: left to the full look.
      if (isRoot) continue;
      s.contradiction = true;
      return true;
    }
    if (key === 'nullable' && typeof value === 'boolean') s.nullable = true;
    const facts = s.keys.get(key);
    if (facts === undefined) continue;
    if ((facts.contradicts & valueKind(value)) !== 0) {
      s.contradiction = true;
      return true;
    }
    if (!s.plain && fires(facts.plain, value)) s.plain = true;
    if (!s.withOpenApi && fires(facts.withOpenApi, value)) s.withOpenApi = true;
  }
  // Where the quick look stops: once neither of its answers can change.
  return s.mode === 'yes' ? s.withOpenApi : s.mode === 'no' ? s.plain : s.nullable && s.withOpenApi;
}

const DEFINITIONS: ReadonlySet<string> = new Set(DEFINITIONS_KEYWORDS);

function fires(trigger: Trigger, value: unknown): boolean {
  return trigger === true || (trigger !== false && trigger(value));
}

/**
 * In one pointer-free look: whether the document is read with OpenAPI 3.0's keywords (`openapi`: `yes`,
 * `no`, or `look`: when some schema object has a boolean `nullable`, the keyword only OpenAPI 3.0 schema
 * objects have that changes verdicts), and whether the walk may have work (see {@link mayNeedConversion}),
 * with the triggers that reading gives.
 */
function quickLook(schema: unknown, openapi: OpenApiMode, pair: PairTables): QuickLook {
  if (openapi !== 'look') {
    const triggers = openapi === 'yes' ? pair.triggersWithOpenApi : pair.triggers;
    return { openapi: openapi === 'yes', work: someSubschema(schema, mayNeedConversion, undefined, triggers) };
  }
  const q = new QuickLookState(pair);
  someSubschema(schema, quickLookAt, undefined, q);
  return { openapi: q.nullable, work: q.nullable ? q.withOpenApi : q.plain };
}

/** What {@link quickLook} has seen so far: a class and a module visitor, not a closure per call (see {@link SourceLook}). */
class QuickLookState {
  nullable = false;
  plain = false;
  withOpenApi = false;
  constructor(readonly pair: PairTables) {}
}

anchorShape(new QuickLookState({} as PairTables));

function quickLookAt(node: Record<string, unknown>, isRoot: boolean, q: QuickLookState): boolean {
  if (!q.nullable && hasOwn(node, 'nullable') && typeof node.nullable === 'boolean') q.nullable = true;
  if (!q.plain && mayNeedConversion(node, isRoot, q.pair.triggers)) q.plain = true;
  if (!q.withOpenApi && mayNeedConversion(node, isRoot, q.pair.triggersWithOpenApi)) q.withOpenApi = true;
  // Done once neither answer can change: `nullable` found, and work with it (without one, every object is looked at).
  return q.nullable && q.withOpenApi;
}
