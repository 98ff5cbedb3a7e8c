import { EditContext, type MessageData } from '../../core/context.js';
import { setOwn } from '../../json/cow.js';
import { jsonEqual } from '../../json/equal.js';
import { defineTransform } from '../../engine/define-transform.js';
import type { Severity } from '../../core/report.js';
import { SCHEMA_SLOTS, type SchemaSlot } from '../../core/tool.js';
import { DIALECT_URIS, dialectFromUri, findDialectContradictions, getDeclaredDialect, isLegacyDialect, keywordFit } from '../../schema/dialect.js';
import { ANCHOR_KEYWORDS, DEFINITIONS_KEYWORDS, DIALECTS, KEYWORD_TABLES, REFERENCE_KEYWORDS, UNION_KEYWORDS, type Dialect } from '../../schema/keywords.js';
import { appendPointer, getAt, parsePointer } from '../../json/pointer.js';
import { hasOwn, isObject } from '../../json/guards.js';
import { parseRef } from '../../schema/ref-syntax.js';
import { definitionOf, idKeyword, refInventoryOf, resolveRefSite } from '../../schema/refs.js';
import { findReachedDefinitions } from '../prune-unreachable-defs.js';
import { PathMap, planRefRewrites } from '../../schema/relocate.js';
import { someSubschema } from '../../schema/walk.js';

/** The dialects reconcile-dialect writes. */
export type ReconcileTarget = '2020-12' | 'draft-07';

/** Options of {@link reconcileDialect}. */
export interface ReconcileDialectOptions {
  /** The dialect to write (default `2020-12`, the MCP default). */
  readonly target?: ReconcileTarget;
  /** The dialect of a schema without `$schema` (default `2020-12`; `openapi-3.0` for OpenAPI 3.0 schema objects). */
  readonly assume?: Dialect;
  /**
   * The output's `$schema`: `omit` removes it, `write` sets the target's URI, `keep` keeps it present only
   * where it was (naming the target). Default: `omit` for a 2020-12 target, `write` otherwise.
   */
  readonly stamp?: 'omit' | 'write' | 'keep';
  /**
   * Keywords beside a `$ref` of a draft-04/06/07 (or OpenAPI 3.0) schema, which those dialects ignore and
   * 2020-12 applies: `drop-validation` (default) removes those that can change a verdict and keeps
   * annotations; `apply` keeps them all (verdicts may change).
   */
  readonly refSiblings?: 'drop-validation' | 'apply';
  /**
   * Keywords of a newer dialect in an older schema (`prefixItems` in draft-07), which its readers ignore
   * and the target's apply: `drop` (default) removes those that can change a verdict, `keep` keeps them.
   */
  readonly foreignKeywords?: 'drop' | 'keep';
  /** Which schemas of each tool to rewrite (default both). */
  readonly slots?: readonly SchemaSlot[];
}

const MESSAGES: Readonly<Record<string, string>> = {
  contradiction: 'Tool `{tool}`: {detail}',
  'unknown-dialect': '`$schema` is `{uri}`, not a dialect toolslim knows (draft-04, -06, -07, 2019-09, 2020-12); left the schema as it is',
  'embedded-dialect': 'Found a subschema declaring `{uri}` inside a {dialect} schema; left it as it is',
  unconvertible: '`{keyword}` ({dialect}) has no equivalent in {target}{reason}; left the tool unchanged (the schema stays {dialect})',
  'empty-enum': 'Found `enum: []`: no instance can be valid, and strict readers refuse the schema; expected at least one value',
  'kept-root-type': 'Kept `type: "object"` beside the root `$ref` ({dialect} ignores it, {target} applies it): MCP requires it, and tool arguments and results are objects',
  'referenced-ref-sibling': 'Found `{keyword}` beside `$ref`, which {dialect} readers ignore, with a `$ref` pointing into it: {target} readers would apply it and it cannot be dropped; left the tool unchanged',
  'removed-dead-referrer': 'Removed unreachable definition `{name}` from `{container}`: it holds, or points into, what {target} cannot say as {dialect} does, and would have kept the tool from being rewritten',
  'tuple-id': 'Found `$id` `{id}` inside the tuple `{at}`, and references that use it: 2020-12 writes tuples as `prefixItems`, in which ajv registers no identifier (its schema walker does not know the keyword), so they would no longer resolve; left the tool unchanged',
  'ambiguous-anchor': 'Found `{keyword}: "#{name}"`, which a `$ref` uses as an anchor, where the name is not unique (or the schema already has an anchor): the target cannot say it without changing what that `$ref` finds; left the tool unchanged',
  'kept-root-id': 'Kept `{keyword}` beside the root `$ref`: it names the document, and its references resolve against it either way',
  'ref-sibling-applies': '`{keyword}` beside `$ref` is ignored by {dialect} readers and now applies ({target}, option `refSiblings: apply`)',
  'kept-foreign-keyword': 'Kept `{keyword}` ({newer} keyword) although {dialect} readers ignore it: {why}',
  'referenced-foreign-keyword': 'Found `{keyword}` ({newer} keyword), which {dialect} readers ignore, with a `$ref` pointing into it: {target} readers would apply it and it cannot be dropped; left the tool unchanged',
  'kept-definitions': 'Kept `{from}` beside `{to}`: a `$ref` addresses the container itself',
  'kept-example': 'Kept OpenAPI `example` because `examples` is already present',
  'dropped-ref-sibling': 'Dropped `{keyword}` beside `$ref`: {dialect} ignores it, {target} would apply it',
  'dropped-foreign-keyword': 'Dropped `{keyword}`: it is a {newer} keyword that {dialect} ignores, and {target} would apply it',
  'dropped-inert-keyword': 'Dropped `{keyword}`, which has no effect here ({why})',
  'renamed-definitions': 'Renamed `{from}` to `{to}`',
  'merged-definition': 'Moved definition `{name}` from `{from}` into `{to}` as `{newName}`',
  'removed-empty-container': 'Removed `{keyword}`, emptied by the merge into `{to}`',
  'converted-tuple': 'Renamed `{from}` to `{to}` (tuple form of {target})',
  'converted-dependencies': 'Rewrote `{from}` as `{to}`',
  'converted-id': 'Rewrote `{from}` as `{to}`',
  'converted-exclusive': 'Rewrote boolean `{keyword}` with `{bound}` as numeric `{keyword}`',
  'converted-nullable': 'Rewrote OpenAPI `nullable: true` as {how}',
  'inert-nullable': 'Removed OpenAPI `nullable: true`, which has no effect without `type` (OpenAPI 3.0.3: it adds `null` to the types `type` names, and other keywords keep their meaning)',
  'removed-nullable': 'Removed OpenAPI `nullable: {value}`, which allows nothing more',
  'converted-example': 'Rewrote OpenAPI `example` as `examples: [..]`',
  'wrapped-ref': 'Moved `$ref` into `allOf` so that its siblings still apply in {target}',
  'rewrote-ref': 'Pointed `$ref` at `{to}` (was `{from}`)',
  'removed-stamp': 'Removed `$schema` (`{uri}`): a schema without one is read as 2020-12',
  'wrote-stamp': 'Set `$schema` to `{uri}`',
};

/**
 * Makes each schema speak the dialect it will be read in: reports every keyword that contradicts the
 * declared (or assumed) dialect, and rewrites the schema into the target dialect so that every validation
 * verdict stays what the source dialect gave. Also converts OpenAPI 3.0 schema objects.
 */
export const reconcileDialect = defineTransform<ReconcileDialectOptions, undefined>({
  name: 'reconcile-dialect',
  description: 'Rewrite each schema into one dialect (2020-12 by default) with the same verdicts, reporting contradicted dialect stamps',
  safety: 'lossless',
  // The two opt-ins keep keywords the source ignores, so that they start to apply: verdicts may change.
  safetyWith: (options) => (options.refSiblings === 'apply' || options.foreignKeywords === 'keep' ? 'lossy' : 'lossless'),
  defaultOptions: { target: '2020-12', assume: '2020-12', stamp: undefined, refSiblings: 'drop-validation', foreignKeywords: 'drop', slots: SCHEMA_SLOTS },
  messages: MESSAGES,
  validateOptions(options) {
    if (options.target !== '2020-12' && options.target !== 'draft-07') throw new Error('`target` must be `2020-12` or `draft-07`');
    if (!DIALECTS.includes(options.assume as Dialect)) throw new Error(`\`assume\` must be one of ${DIALECTS.join(', ')}`);
    if (options.stamp !== undefined && !['omit', 'write', 'keep'].includes(options.stamp)) throw new Error('`stamp` must be `omit`, `write` or `keep`');
    if (options.refSiblings !== 'drop-validation' && options.refSiblings !== 'apply') throw new Error('`refSiblings` must be `drop-validation` or `apply`');
    if (options.foreignKeywords !== 'drop' && options.foreignKeywords !== 'keep') throw new Error('`foreignKeywords` must be `drop` or `keep`');
    if (!Array.isArray(options.slots) || options.slots.some((s) => !SCHEMA_SLOTS.includes(s))) throw new Error('`slots` must list `inputSchema` and/or `outputSchema`');
  },
  apply(doc, ctx, options) {
    // A schema that cannot be rewritten with the same verdicts leaves the whole tool as it was (its
    // findings are still reported), so a tool is never half in one dialect and half in another.
    const staged: StagedEdits[] = [];
    let blocked = false;
    for (const slot of options.slots ?? SCHEMA_SLOTS) {
      const schema = (doc.tool as Record<string, unknown>)[slot];
      if (!isObject(schema) || !hasOwn(doc.tool, slot)) continue;
      const result = reconcileDocument(schema, '/' + slot, ctx, options as Required<ReconcileDialectOptions>, doc.name);
      if (result === undefined) continue;
      staged.push(result.staged);
      if (result.blocked) blocked = true;
    }
    for (const s of staged) s.commit(ctx, !blocked);
  },
});

/** One resolved reference: where it sits, where it lands, and the root definitions holding either. */
interface RefTarget {
  readonly target: string;
  readonly site: string;
  readonly siteDef?: string;
  readonly targetDef?: string;
  /** The anchor name, for a reference written `#name`. */
  readonly anchor?: string;
}

/** Everything one document's rewrite needs. */
interface Job {
  /** Edits go to a scratch copy first; they reach the tool only when nothing was unconvertible. */
  readonly ctx: StagedEdits;
  /** How many keywords had no equivalent in the target. */
  unconvertible: number;
  /** Pointer of the document inside the tool (`/inputSchema`). */
  readonly base: string;
  /** The dialect the source is read in, and the one written. */
  readonly source: Dialect;
  readonly target: ReconcileTarget;
  /** OpenAPI 3.0 keywords (`example`) are converted: assumed `openapi-3.0`, or detected from `nullable`. */
  readonly openapi: boolean;
  readonly options: Required<ReconcileDialectOptions>;
  readonly map: PathMap;
  /** Pointers (in the source) of every location a `$ref` resolves to. */
  readonly targets: readonly string[];
  /**
   * Every resolved reference's target, with the dead definition the reference sits in, if it does: a root
   * definition no reference from outside the definitions reaches (prune-unreachable-defs removes those).
   */
  readonly refTargets: readonly RefTarget[];
  /** Embedded resources (subschemas with an identifier of their own), by pointer in the source. */
  readonly resources: readonly { readonly path: string; readonly id: string }[];
  /** Root definitions kept whatever references them: those holding an embedded resource or a dynamic anchor. */
  readonly anchoredDefs: ReadonlySet<string>;
  /** Pointers (`/container/name`) of the dead definitions. */
  readonly deadDefs: readonly string[];
  /** Dead definitions removed because, left in place, they alone would keep the tool from being rewritten. */
  readonly deadToRemove: Set<string>;
  /** The plain names that references use as anchors (`#name`), and how many places declare each name. */
  readonly anchorRefs: ReadonlySet<string>;
  readonly anchorCounts: ReadonlyMap<string, number>;
  /** The source document, and what the `$ref` of each of its schema objects resolves to. */
  readonly schema: Record<string, unknown>;
  readonly refTargetOf: ReadonlyMap<string, string>;
  /** The keywords the per-key checks can act on, for this source and target. */
  readonly pair: PairTables;
  /**
   * The working copy's node at `cur` as of `edits` staged edits. Seeded by the walk with the node it is
   * about to convert (in preorder nothing has edited it or below it yet, and copy-on-write shares the
   * node itself), so the first look at a node costs no pointer walk.
   */
  seen?: { readonly cur: string; readonly edits: number; readonly node: Record<string, unknown> };
}

/** What a node's rewrite did to its keys, so its children are visited where they now are. */
interface KeyMoves {
  /** Original keyword → current pointer of its value (`null`: removed). */
  readonly keys: Map<string, string | null>;
  /** Original keyword → (entry → current pointer), for maps whose entries moved one by one. */
  readonly entries: Map<string, Map<string, string>>;
}

/** Findings about the source schema, reported even when its rewrite is dropped. */
const SOURCE_FINDINGS: ReadonlySet<string> = new Set(['unconvertible', 'tuple-id', 'ambiguous-anchor', 'referenced-foreign-keyword', 'referenced-ref-sibling', 'empty-enum', 'embedded-dialect']);

const VERDICT_ROLES: ReadonlySet<string> = new Set(['validation', 'applicator']);
const NEWNESS: Readonly<Record<Dialect, number>> = { 'draft-04': 0, 'openapi-3.0': 0, 'draft-06': 1, 'draft-07': 2, '2019-09': 3, '2020-12': 4 };

/**
 * Stages one document's rewrite (edits are not yet on `ctx`); `blocked` when something in it cannot be
 * expressed in the target with the same verdicts. Undefined when there is nothing to stage.
 */
function reconcileDocument(
  schema: Record<string, unknown>,
  base: string,
  ctx: EditContext,
  options: Required<ReconcileDialectOptions>,
  tool: string,
): { readonly staged: StagedEdits; readonly blocked: boolean } | undefined {
  const declared = getDeclaredDialect(schema, options.assume);
  if (declared.source === 'unknown') {
    ctx.report('info', 'unknown-dialect', base + '/$schema', { uri: String(declared.uri) });
    return undefined;
  }
  for (const c of findDialectContradictions(schema, { assume: options.assume })) {
    ctx.report('warning', 'contradiction', base + c.path, { tool: tool || '(unnamed)', detail: c.message });
  }
  const source: Dialect = declared.dialect;
  // Without `$schema`, OpenAPI 3.0's `nullable` marks a schema object copied from an OpenAPI document: its
  // OpenAPI keywords are converted, and the rest is read as the assumed dialect, as MCP readers read it.
  const openapi = source === 'openapi-3.0' || (declared.source === 'assumed' && usesOpenApiKeywords(schema));
  const pair = pairTables(source, options.target);
  const staged = new StagedEdits(new EditContext(ctx.root, MESSAGES));
  // Most schemas already say everything in a form the target shares: nothing to convert, no `$ref` to
  // follow a move. One pointer-free look decides; then only the stamp policy applies.
  const triggers = openapi ? pair.triggersWithOpenApi : pair.triggers;
  if (!someSubschema(schema, (node, isRoot) => mayNeedConversion(node, isRoot, triggers))) {
    const job: Job = { ctx: staged, unconvertible: 0, base, source, openapi, target: options.target, options, map: new PathMap(), targets: [], refTargets: [], resources: [], anchoredDefs: new Set(), deadDefs: [], deadToRemove: new Set(), anchorRefs: new Set(), anchorCounts: new Map(), schema, refTargetOf: new Map(), pair };
    writeStamp(schema, '', job, true);
    return { staged, blocked: false };
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
  const job: Job = { ctx: staged, unconvertible: 0, base, source, openapi, target: options.target, options, map: new PathMap(), targets, refTargets, resources: inventory.resources, anchoredDefs, deadDefs, deadToRemove: new Set(), anchorRefs, anchorCounts, schema, refTargetOf, pair };
  walkAndConvert(schema, job);
  // References that were removed (inside a dropped keyword, or a dead definition removed below) follow nothing.
  const live = { ...inventory, refs: inventory.refs.filter((r) => !isWithinAny(r.path, job.deadToRemove) && job.map.map(r.path) !== undefined) };
  const { rewrites, problems } = planRefRewrites(schema, live, job.map);
  if (problems.length > 0) throw new Error(`\`$ref\` \`${problems[0]!.site.ref}\` at \`${base}${problems[0]!.site.path}\` cannot follow its target: ${problems[0]!.reason}`);
  for (const r of rewrites) {
    const at = job.map.map(r.site.path);
    if (at === undefined) continue;
    staged.replace(base + at, r.ref, 'rewrote-ref', { from: r.site.ref, to: r.ref });
  }
  for (const definition of job.deadToRemove) {
    const at = job.map.map(definition);
    if (at === undefined || at === null) continue;
    const tokens = parsePointer(definition);
    staged.remove(base + at, 'removed-dead-referrer', { name: tokens[1]!, container: tokens[0]!, target: options.target, dialect: source });
  }
  writeStamp(schema, '', job, true);
  // A schema that cannot be fully expressed in the target keeps its own dialect, stamp and all.
  return { staged, blocked: job.unconvertible > 0 };
}

/**
 * Edits applied to a scratch context and recorded, so that a document's rewrite can be dropped as a whole
 * (only its findings kept) or replayed onto the tool's context, with the same operations in the same order.
 */
class StagedEdits {
  readonly #scratch: EditContext;
  readonly #calls: ((ctx: EditContext) => void)[] = [];
  readonly #findings: [code: string, replay: (ctx: EditContext) => void][] = [];

  constructor(scratch: EditContext) {
    this.#scratch = scratch;
  }

  /** The working copy's value at `path`. */
  get(path: string): unknown {
    return this.#scratch.get(path);
  }

  /** How many edits were staged so far. */
  get edits(): number {
    return this.#calls.length;
  }

  replace(path: string, value: unknown, code: string, data?: MessageData): void {
    this.#scratch.replace(path, value, code, data);
    this.#calls.push((c) => c.replace(path, value, code, data));
  }

  remove(path: string, code: string, data?: MessageData): void {
    this.#scratch.remove(path, code, data);
    this.#calls.push((c) => c.remove(path, code, data));
  }

  add(path: string, value: unknown, code: string, data?: MessageData): void {
    this.#scratch.add(path, value, code, data);
    this.#calls.push((c) => c.add(path, value, code, data));
  }

  rename(path: string, newKey: string, code: string, data?: MessageData): void {
    this.#scratch.rename(path, newKey, code, data);
    this.#calls.push((c) => c.rename(path, newKey, code, data));
  }

  move(from: string, path: string, code: string, data?: MessageData): void {
    this.#scratch.move(from, path, code, data);
    this.#calls.push((c) => c.move(from, path, code, data));
  }

  report(severity: Severity, code: string, path: string, data?: MessageData): void {
    this.#findings.push([code, (c) => c.report(severity, code, path, data)]);
  }

  /**
   * Replays the edits and findings onto `ctx`; when the rewrite is dropped (`keepEdits` false), only the
   * findings about the source itself (not about the rewrite that did not happen).
   */
  commit(ctx: EditContext, keepEdits: boolean): void {
    if (keepEdits) for (const call of this.#calls) call(ctx);
    for (const [code, call] of this.#findings) if (keepEdits || SOURCE_FINDINGS.has(code)) call(ctx);
  }
}

/** True when the schema uses a keyword only OpenAPI 3.0 schema objects have that changes verdicts (`nullable`). */
function usesOpenApiKeywords(schema: unknown): boolean {
  return someSubschema(schema, (node) => hasOwn(node, 'nullable') && typeof node.nullable === 'boolean');
}

/** Walks the source top-down, rewriting each schema object at the place its ancestors' rewrites left it. */
function walkAndConvert(schema: Record<string, unknown>, job: Job): void {
  const stack: [node: unknown, orig: string, cur: string][] = [[schema, '', '']];
  while (stack.length > 0) {
    const [node, orig, cur] = stack.pop()!;
    if (orig !== cur) job.map.set(orig, cur);
    if (!isObject(node)) continue;
    const editsBefore = job.ctx.edits;
    if (orig !== '' && hasOwn(node, '$schema')) {
      const inner = dialectFromUri(node.$schema);
      if (inner !== job.source) {
        job.ctx.report('info', 'embedded-dialect', job.base + orig + '/$schema', { uri: String(node.$schema), dialect: job.source });
        continue;
      }
      writeStamp(node, cur, job, false);
    }
    // Preorder: nothing has edited this node or below it yet, so the working copy holds this very object.
    if (job.ctx.edits === editsBefore) job.seen = { cur, edits: editsBefore, node };
    const moves: KeyMoves = { keys: new Map(), entries: new Map() };
    convertNode(node, orig, cur, job, moves);
    const children: [unknown, string, string][] = [];
    for (const key of Object.keys(node)) {
      const moved = moves.keys.get(key);
      const info = UNION_KEYWORDS.get(key);
      const opaque = !info || info.shape === 'opaque';
      // Data that stayed where it was: no pointer to build, nothing to map.
      if (opaque && moved === undefined && orig === cur) continue;
      const origKey = appendPointer(orig, key);
      const curKey = moved === undefined ? appendPointer(cur, key) : moved;
      if (curKey !== origKey) job.map.set(origKey, curKey);
      if (!info || opaque) continue;
      const value = node[key];
      const entryMoves = moves.entries.get(key);
      if (curKey === null && entryMoves === undefined) continue;
      const entryAt = (entry: string | number) => entryMoves?.get(String(entry)) ?? appendPointer(curKey ?? '', entry);
      if (Array.isArray(value)) {
        if (info.shape === 'schemaArray' || info.shape === 'schemaOrArray') for (let i = 0; i < value.length; i++) children.push([value[i], appendPointer(origKey, i), entryAt(i)]);
      } else if (info.shape === 'schema' || info.shape === 'schemaOrArray') {
        if (curKey !== null) children.push([value, origKey, curKey]);
      } else if ((info.shape === 'schemaMap' || info.shape === 'schemaOrStrings') && isObject(value)) {
        for (const k of Object.keys(value)) {
          const v = value[k];
          const entryOrig = appendPointer(origKey, k);
          if (Array.isArray(v)) {
            const to = entryAt(k);
            if (to !== entryOrig) job.map.set(entryOrig, to);
          } else children.push([v, entryOrig, entryAt(k)]);
        }
      }
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
}

/** Rewrites one schema object's own keywords (never its children's). */
function convertNode(node: Record<string, unknown>, orig: string, cur: string, job: Job, moves: KeyMoves): void {
  const legacySource = isLegacyDialect(job.source);
  const legacyTarget = isLegacyDialect(job.target);
  if (legacySource && !legacyTarget && typeof node.$ref === 'string' && hasOwn(node, '$ref')) dropRefSiblings(orig, cur, job, moves);
  if (hasOwn(current(job, cur), 'nullable')) convertNullable(cur, job, moves);
  dropForeignKeywords(orig, cur, job, moves);
  dropForeignId(orig, cur, job, moves);
  dropDraft04Id(orig, cur, job, moves);
  convertExclusiveBounds(cur, job, moves);
  if (legacyTarget) convertToLegacy(node, orig, cur, job, moves);
  else convertToModern(node, orig, cur, job, moves);
  if (job.openapi && hasOwn(current(job, cur), 'example')) convertExample(orig, cur, job, moves);
  const now = current(job, cur);
  if (Array.isArray(now.enum) && now.enum.length === 0 && hasOwn(now, 'enum')) job.ctx.report('warning', 'empty-enum', job.base + orig + '/enum');
  reportUnconvertible(orig, cur, job);
}

/** The working copy of the schema object at `cur`. */
function current(job: Job, cur: string): Record<string, unknown> {
  // Asked several times per node with the same `cur` string: remembered until the next edit.
  const seen = job.seen;
  if (seen !== undefined && seen.cur === cur && seen.edits === job.ctx.edits) return seen.node;
  const node = job.ctx.get(job.base + cur) as Record<string, unknown>;
  job.seen = { cur, edits: job.ctx.edits, node };
  return node;
}

function at(job: Job, cur: string, key: string): string {
  return job.base + appendPointer(cur, key);
}

/** True when a `$ref` resolves to `path` or below it. */
function isTargeted(job: Job, path: string): boolean {
  for (const t of job.targets) if (t === path || t.startsWith(path + '/')) return true;
  return false;
}

/**
 * For a keyword that can be neither kept (it would start to apply) nor dropped while a `$ref` points into
 * it: true when such a reference exists outside the dead definitions. When the keyword lies in a dead
 * definition, or only dead definitions point into it, those are removed instead (nothing reaches them,
 * so no verdict depends on them; left in place, the next prune would remove them and a second run would
 * then rewrite what this one could not).
 */
function isTargetedLive(job: Job, path: string): boolean {
  const d = deadDefinitionAt(job, path);
  if (d !== undefined) {
    removeDead(job, d);
    return false;
  }
  const within = (p: string) => p === path || p.startsWith(path + '/');
  if (!job.refTargets.some((r) => within(r.target) && !within(r.site))) return false;
  // Which definitions stay reachable once the keyword is gone (references inside it go with it).
  const reached = new Set(job.anchoredDefs);
  const queue = job.refTargets.filter((r) => !within(r.site) && (r.siteDef === undefined || reached.has(r.siteDef)));
  while (queue.length > 0) {
    const r = queue.pop()!;
    if (r.targetDef === undefined || reached.has(r.targetDef)) continue;
    reached.add(r.targetDef);
    for (const s of job.refTargets) if (s.siteDef === r.targetDef && !within(s.site)) queue.push(s);
  }
  const dead: string[] = [];
  for (const r of job.refTargets) {
    if (!within(r.target) || within(r.site)) continue;
    if (r.siteDef === undefined || reached.has(r.siteDef)) return true;
    dead.push(r.siteDef);
  }
  for (const def of dead) removeDead(job, def);
  return false;
}

/** Counts something the target cannot express, unless it lies in a dead definition, which is removed instead. */
function blocks(job: Job, orig: string): boolean {
  const d = deadDefinitionAt(job, orig);
  if (d !== undefined) {
    removeDead(job, d);
    return false;
  }
  job.unconvertible++;
  return true;
}

function deadDefinitionAt(job: Job, path: string): string | undefined {
  for (const d of job.deadDefs) if (path === d || path.startsWith(d + '/')) return d;
  return undefined;
}

/** Schedules a dead definition for removal, and every dead definition whose references point into it. */
function removeDead(job: Job, definition: string): void {
  const queue = [definition];
  while (queue.length > 0) {
    const d = queue.pop()!;
    if (job.deadToRemove.has(d)) continue;
    job.deadToRemove.add(d);
    for (const r of job.refTargets) if (r.siteDef !== undefined && r.siteDef !== d && (r.target === d || r.target.startsWith(d + '/'))) queue.push(r.siteDef);
  }
}

function isWithinAny(path: string, prefixes: ReadonlySet<string>): boolean {
  for (const p of prefixes) if (path === p || path.startsWith(p + '/')) return true;
  return false;
}

/** True when a keyword can change a verdict in `dialect` (a validation keyword, an applicator or a reference). */
function affectsVerdicts(dialect: Dialect, keyword: string): boolean {
  const info = KEYWORD_TABLES[dialect].get(keyword);
  return info !== undefined && (VERDICT_ROLES.has(info.role) || REFERENCE_KEYWORDS.includes(keyword));
}

/** True when losing the keyword in `dialect` can change a verdict: {@link affectsVerdicts}, or an anchor a reference may find. */
function mattersIn(dialect: Dialect, keyword: string): boolean {
  const info = KEYWORD_TABLES[dialect].get(keyword);
  return affectsVerdicts(dialect, keyword) || ANCHOR_KEYWORDS.includes(keyword) || info?.id === 'recursive-anchor';
}

function removeKey(job: Job, cur: string, key: string, moves: KeyMoves, code: string, data?: MessageData): void {
  job.ctx.remove(at(job, cur, key), code, data);
  moves.keys.set(key, null);
}

function renameKey(job: Job, cur: string, from: string, to: string, moves: KeyMoves, code: string, data?: MessageData): void {
  job.ctx.rename(at(job, cur, from), to, code, data);
  moves.keys.set(from, appendPointer(cur, to));
}

/** Draft-04/06/07 and OpenAPI 3.0 ignore every keyword beside `$ref`; 2020-12 applies them. */
function dropRefSiblings(orig: string, cur: string, job: Job, moves: KeyMoves): void {
  const node = current(job, cur);
  const targetPath = job.refTargetOf.get(orig);
  const target = targetPath === undefined ? undefined : getAt(job.schema, parsePointer(targetPath));
  for (const key of Object.keys(node)) {
    if (key === '$ref' || key === '$schema') continue;
    // The source's identifier (`$id` in draft-04 is no keyword at all: dropForeignId handles it).
    const isId = key === idKeyword(job.source) && job.source !== 'openapi-3.0' && typeof node[key] === 'string';
    if (isId && usedAsAnchor(job, node[key] as string)) continue; // a `$ref` lands here by it: converted to `$anchor` below
    if (!isId && !affectsVerdicts(job.source, key) && !affectsVerdicts(job.target, key)) continue;
    // The target says the same thing itself, and will still say it after this pass: applying it twice
    // changes nothing.
    if (!isId && saysTheSame(job, target, node, key)) continue;
    const data = { keyword: key, dialect: job.source, target: job.target };
    if (isId && orig === '' && !String(node[key]).startsWith('#')) {
      // The root's identifier names the document: its local references resolve against it in either
      // reading, and relative ones (`item.json`) need it to stay external rather than undecidable.
      job.ctx.report('info', 'kept-root-id', at(job, orig, key), data);
      continue;
    }
    if (orig === '' && key === 'type' && node.type === 'object') {
      // MCP requires `type: "object"` at the root, and tool arguments and structured results are objects.
      job.ctx.report('info', 'kept-root-type', at(job, orig, key), data);
      continue;
    }
    if (job.options.refSiblings === 'apply') job.ctx.report('info', 'ref-sibling-applies', at(job, orig, key), data);
    else if (isTargetedLive(job, appendPointer(orig, key))) {
      // Dropping it would break the `$ref` that points into it, and keeping it would make it apply.
      job.unconvertible++;
      job.ctx.report('error', 'referenced-ref-sibling', at(job, orig, key), data);
    } else removeKey(job, cur, key, moves, 'dropped-ref-sibling', data);
  }
}

/**
 * Keywords rewritten together: a sibling of `$ref` is only "said by the target" when the target holds the
 * whole group the same way (`type` with `nullable`, a bound with its draft-04 boolean exclusive flag, a
 * tuple with `additionalItems`), so the conversions this pass makes to the group give both the same result.
 */
const SIBLING_GROUPS: Readonly<Record<string, readonly string[]>> = {
  type: ['type', 'nullable'],
  nullable: ['type', 'nullable'],
  minimum: ['minimum', 'exclusiveMinimum'],
  exclusiveMinimum: ['minimum', 'exclusiveMinimum'],
  maximum: ['maximum', 'exclusiveMaximum'],
  exclusiveMaximum: ['maximum', 'exclusiveMaximum'],
  items: ['items', 'additionalItems'],
  additionalItems: ['items', 'additionalItems'],
};

/**
 * True when the `$ref` target of a draft-04/06/07 schema says `key` exactly as its referrer does, as the
 * target will read after this pass: a target that is itself a `$ref` says nothing besides it (its own
 * siblings are ignored by the source and dropped here), and a keyword the source does not know (dropped
 * as foreign) is not said either.
 */
function saysTheSame(job: Job, target: unknown, node: Record<string, unknown>, key: string): boolean {
  if (!isObject(target) || (typeof target.$ref === 'string' && hasOwn(target, '$ref'))) return false;
  if (hasOwn(target, '$schema')) return false;
  for (const k of SIBLING_GROUPS[key] ?? [key]) {
    const inNode = hasOwn(node, k);
    if (inNode !== hasOwn(target, k)) return false;
    if (!inNode) continue;
    if (!jsonEqual(node[k], target[k])) return false;
    if (k !== 'nullable' && keywordFit(job.source, k, node[k]) !== 'fits') return false;
  }
  return true;
}

/**
 * OpenAPI 3.0.3 `nullable: true`: "A true value adds `"null"` to the allowed types specified by the type
 * keyword, only if type is explicitly defined within the same Schema Object. Other Schema Object
 * constraints retain their defined behavior, and therefore may disallow the use of null as a value." So
 * `"null"` joins `type`; `enum`, `const`, `$ref` and the rest keep rejecting `null` where they did (ajv's
 * `nullable` reads it the same way); without `type` it has no effect.
 */
function convertNullable(cur: string, job: Job, moves: KeyMoves): void {
  const node = current(job, cur);
  const flag = node.nullable;
  if (flag !== true) {
    removeKey(job, cur, 'nullable', moves, 'removed-nullable', { value: JSON.stringify(flag) });
    return;
  }
  const type = node.type;
  if (!hasOwn(node, 'type') || !(typeof type === 'string' || (Array.isArray(type) && type.every((t) => typeof t === 'string')))) {
    removeKey(job, cur, 'nullable', moves, 'inert-nullable');
    return;
  }
  const list = typeof type === 'string' ? [type] : type;
  if (list.includes('null')) {
    removeKey(job, cur, 'nullable', moves, 'converted-nullable', { how: 'nothing: `type` already allowed `null`' });
    return;
  }
  const how = '`"null"` in `type`';
  job.ctx.replace(at(job, cur, 'type'), [...list, 'null'], 'converted-nullable', { how });
  removeKey(job, cur, 'nullable', moves, 'converted-nullable', { how });
}

/** Keywords of a newer dialect than the source's: its readers ignore them, the target's would apply them. */
function dropForeignKeywords(orig: string, cur: string, job: Job, moves: KeyMoves): void {
  const node = current(job, cur);
  const candidates = job.pair.foreign;
  for (const key of Object.keys(node)) {
    if (key === 'nullable' || key === '$ref' || !candidates.has(key)) continue;
    const value = node[key];
    if (keywordFit(job.source, key, value) !== 'unknown' || keywordFit(job.target, key, value) !== 'fits' || !affectsVerdicts(job.target, key)) continue;
    const older = DIALECTS.filter((d) => keywordFit(d, key, value) === 'fits' && NEWNESS[d] <= NEWNESS[job.source]);
    if (older.length > 0) continue;
    const newer = DIALECTS.filter((d) => keywordFit(d, key, value) === 'fits').join('/');
    const data = { keyword: key, dialect: job.source, target: job.target, newer };
    if (job.options.foreignKeywords === 'keep') job.ctx.report('info', 'kept-foreign-keyword', at(job, orig, key), { ...data, why: 'option `foreignKeywords: keep`' });
    else if (isTargetedLive(job, appendPointer(orig, key))) {
      // Dropping it would break the `$ref` that points into it, and keeping it would make it apply.
      job.unconvertible++;
      job.ctx.report('error', 'referenced-foreign-keyword', at(job, orig, key), data);
    } else removeKey(job, cur, key, moves, 'dropped-foreign-keyword', data);
  }
}

/**
 * `$id` in a draft-04 or OpenAPI 3.0 schema is not a keyword there (draft-04 names a schema with `id`;
 * OpenAPI 3.0 schema objects have neither), so its readers ignore it; a draft-07 or 2020-12 reader takes
 * it as a resource boundary, and the `$ref`s below it would resolve against it instead of the document.
 * It is removed, except a plain-name fragment (`#name`) that a `$ref` uses, which toolslim resolves as
 * an anchor (conservatively): that one becomes `$anchor` (2020-12) or stays (draft-07).
 */
function dropForeignId(orig: string, cur: string, job: Job, moves: KeyMoves): void {
  if (job.source !== 'draft-04' && job.source !== 'openapi-3.0') return;
  const now = current(job, cur);
  if (!hasOwn(now, '$id') || typeof now.$id !== 'string') return;
  const id = now.$id;
  // draft-07 writes an anchor as `$id: "#name"`: a needed one can stay as it is.
  const keep = job.target === 'draft-07' ? '$id' : '$anchor';
  if (keepAsAnchor(orig, cur, job, moves, '$id', keep)) return;
  removeKey(job, cur, '$id', moves, 'dropped-foreign-keyword', { keyword: '$id', dialect: job.source, target: job.target, newer: 'draft-06/draft-07/2019-09/2020-12' });
  void id;
}

/**
 * `id` outside draft-04 is not a keyword (draft-06 renamed it `$id`): readers ignore it, and ajv refuses
 * a schema holding it ("NOT SUPPORTED: keyword id"). It is removed, except a plain-name fragment a `$ref`
 * uses, which toolslim resolves as an anchor: that one becomes the target's anchor (`$anchor`, or a
 * draft-07 `$id: "#name"`).
 */
function dropDraft04Id(orig: string, cur: string, job: Job, moves: KeyMoves): void {
  if (job.source === 'draft-04') return;
  const now = current(job, cur);
  if (!hasOwn(now, 'id') || typeof now.id !== 'string') return;
  if (keepAsAnchor(orig, cur, job, moves, 'id', job.target === 'draft-07' ? '$id' : '$anchor')) return;
  removeKey(job, cur, 'id', moves, 'dropped-inert-keyword', { keyword: 'id', why: `\`id\` is draft-04's identifier: ${job.source} readers ignore it, and ajv refuses it` });
}

/**
 * For an identifier keyword of another dialect holding `#name`, which toolslim resolves as an anchor
 * (conservatively): when a live `$ref` lands on this schema by that name, rewrites it as the target's
 * anchor (`to`: `$anchor`, or a draft-07 `$id`; kept as it is when that is its own key) and returns true;
 * when the name is not unique, or the anchor keyword is taken, the tool cannot be rewritten without
 * breaking that `$ref` (error, true). False when no live `$ref` needs it (dead referrers are removed).
 */
function keepAsAnchor(orig: string, cur: string, job: Job, moves: KeyMoves, key: string, to: string): boolean {
  const now = current(job, cur);
  const id = now[key] as string;
  const name = id.startsWith('#') ? safeDecode(id.slice(1)) : '';
  if (name === '' || !anchorNeeded(job, orig, name)) return false;
  const unique = (job.anchorCounts.get(name) ?? 0) === 1 && PLAIN_NAME.test(name);
  if (unique && key === to) return true;
  const taken = hasOwn(now, to) || (to === '$anchor' && typeof now.$id === 'string' && now.$id.startsWith('#') && key !== '$id');
  if (unique && !taken) {
    renameKey(job, cur, key, to, moves, 'converted-id', { from: key, to });
    if (to === '$anchor') job.ctx.replace(at(job, cur, '$anchor'), name, 'converted-id', { from: `${key}: ${id}`, to: `$anchor: ${name}` });
    return true;
  }
  if (blocks(job, orig)) job.ctx.report('error', 'ambiguous-anchor', at(job, orig, key), { keyword: key, name });
  return true;
}

/** True when a `$ref` outside the dead definitions lands on `orig` by the anchor `name`; else its dead referrers are removed. */
function anchorNeeded(job: Job, orig: string, name: string): boolean {
  if (!job.anchorRefs.has(name)) return false;
  const dead: string[] = [];
  for (const r of job.refTargets) {
    if (r.anchor !== name || r.target !== orig) continue;
    if (r.siteDef === undefined || !job.deadDefs.includes(r.siteDef)) return true;
    dead.push(r.siteDef);
  }
  for (const d of dead) removeDead(job, d);
  return false;
}

/** True for a plain-name fragment identifier (`#name`) that a `$ref` uses and nothing else declares. */
function usedAsAnchor(job: Job, id: string): boolean {
  const name = id.startsWith('#') ? safeDecode(id.slice(1)) : '';
  return name !== '' && job.anchorRefs.has(name) && (job.anchorCounts.get(name) ?? 0) === 1 && PLAIN_NAME.test(name);
}

/** An anchor name every dialect accepts (2020-12's `$anchor` grammar). */
const PLAIN_NAME = /^[A-Za-z_][-A-Za-z0-9._]*$/;

/** Draft-04 boolean `exclusiveMinimum`/`exclusiveMaximum` modify `minimum`/`maximum`; later dialects take the bound itself. */
function convertExclusiveBounds(cur: string, job: Job, moves: KeyMoves): void {
  for (const [keyword, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    const node = current(job, cur);
    if (!hasOwn(node, keyword) || typeof node[keyword] !== 'boolean') continue;
    if (node[keyword] === true && typeof node[bound] === 'number' && hasOwn(node, bound)) {
      job.ctx.remove(at(job, cur, keyword), 'converted-exclusive', { keyword, bound });
      renameKey(job, cur, bound, keyword, moves, 'converted-exclusive', { keyword, bound });
    } else {
      removeKey(job, cur, keyword, moves, 'dropped-inert-keyword', { keyword, why: node[keyword] === true ? `no \`${bound}\` to make exclusive` : '`false` is the default' });
    }
  }
}

function convertToModern(node: Record<string, unknown>, orig: string, cur: string, job: Job, moves: KeyMoves): void {
  // Tuples: array `items` → `prefixItems`, `additionalItems` → `items`.
  let now = current(job, cur);
  if (Array.isArray(now.items) && hasOwn(now, 'items')) {
    const hidden = usedResourceIn(job, appendPointer(orig, 'items'));
    if (hidden !== undefined && blocks(job, orig)) {
      job.ctx.report('error', 'tuple-id', job.base + hidden.path + '/$id', { id: hidden.id, at: at(job, orig, 'items') });
    } else if (!hasOwn(now, 'prefixItems')) {
      renameKey(job, cur, 'items', 'prefixItems', moves, 'converted-tuple', { from: 'items', to: 'prefixItems', target: job.target });
      if (hasOwn(now, 'additionalItems')) renameKey(job, cur, 'additionalItems', 'items', moves, 'converted-tuple', { from: 'additionalItems', to: 'items', target: job.target });
    }
  } else if (hasOwn(now, 'additionalItems') && !isTargetedLive(job, appendPointer(orig, 'additionalItems'))) {
    removeKey(job, cur, 'additionalItems', moves, 'dropped-inert-keyword', { keyword: 'additionalItems', why: '`items` is not an array' });
  }
  // `dependencies` → `dependentRequired` (string arrays) + `dependentSchemas` (schemas).
  now = current(job, cur);
  if (hasOwn(now, 'dependencies') && isObject(now.dependencies) && !hasOwn(now, 'dependentRequired') && !hasOwn(now, 'dependentSchemas')) {
    splitDependencies(now.dependencies, cur, job, moves);
  }
  // Identifiers: draft-04 `id` → `$id`; a plain-name fragment id → `$anchor`.
  convertIdToModern(orig, cur, job, moves);
  // The resource's definitions container: `definitions` → `$defs`.
  if (isResourceRoot(node, orig, job.source)) reconcileContainer(orig, cur, job, moves, 'definitions', '$defs');
}

function convertToLegacy(node: Record<string, unknown>, orig: string, cur: string, job: Job, moves: KeyMoves): void {
  let now = current(job, cur);
  // Tuples: `items` → `additionalItems`, `prefixItems` → array `items`.
  if (Array.isArray(now.prefixItems) && hasOwn(now, 'prefixItems') && !hasOwn(now, 'additionalItems')) {
    if (hasOwn(now, 'items')) renameKey(job, cur, 'items', 'additionalItems', moves, 'converted-tuple', { from: 'items', to: 'additionalItems', target: job.target });
    renameKey(job, cur, 'prefixItems', 'items', moves, 'converted-tuple', { from: 'prefixItems', to: 'items', target: job.target });
  }
  // `dependentRequired` + `dependentSchemas` → `dependencies`.
  now = current(job, cur);
  if ((hasOwn(now, 'dependentRequired') || hasOwn(now, 'dependentSchemas')) && !hasOwn(now, 'dependencies')) joinDependencies(cur, job, moves);
  // Identifiers: draft-04 `id` → `$id`; `$anchor` → `$id: "#name"`.
  now = current(job, cur);
  if (job.source === 'draft-04' && typeof now.id === 'string' && hasOwn(now, 'id') && !hasOwn(now, '$id')) {
    renameKey(job, cur, 'id', '$id', moves, 'converted-id', { from: 'id', to: '$id' });
  }
  now = current(job, cur);
  if (typeof now.$anchor === 'string' && hasOwn(now, '$anchor') && !hasOwn(now, '$id')) {
    const name = now.$anchor;
    renameKey(job, cur, '$anchor', '$id', moves, 'converted-id', { from: '$anchor', to: '$id' });
    job.ctx.replace(at(job, cur, '$id'), '#' + name, 'converted-id', { from: `$anchor: ${name}`, to: `$id: #${name}` });
  }
  // A `$ref` with siblings that change verdicts: draft-07 would ignore them, so the `$ref` moves into `allOf`.
  now = current(job, cur);
  if (!isLegacyDialect(job.source) && typeof now.$ref === 'string' && hasOwn(now, '$ref')) {
    const verdictSiblings = Object.keys(now).filter((k) => k !== '$ref' && (affectsVerdicts(job.source, k) || affectsVerdicts(job.target, k) || k === '$id'));
    if (verdictSiblings.length > 0) {
      const ref = now.$ref;
      if (Array.isArray(now.allOf) && hasOwn(now, 'allOf')) {
        const index = now.allOf.length;
        job.ctx.add(appendPointer(at(job, cur, 'allOf'), '-'), { $ref: ref }, 'wrapped-ref', { target: job.target });
        job.ctx.remove(at(job, cur, '$ref'), 'wrapped-ref', { target: job.target });
        moves.keys.set('$ref', appendPointer(appendPointer(appendPointer(cur, 'allOf'), index), '$ref'));
      } else if (!hasOwn(now, 'allOf')) {
        job.ctx.rename(at(job, cur, '$ref'), 'allOf', 'wrapped-ref', { target: job.target });
        job.ctx.replace(at(job, cur, 'allOf'), [{ $ref: ref }], 'wrapped-ref', { target: job.target });
        moves.keys.set('$ref', appendPointer(appendPointer(appendPointer(cur, 'allOf'), 0), '$ref'));
      }
    }
  }
  if (isResourceRoot(node, orig, job.source)) reconcileContainer(orig, cur, job, moves, '$defs', 'definitions');
}

/** The document root, or a subschema that starts a resource of its own (an `$id` that is not just a fragment). */
function isResourceRoot(node: Record<string, unknown>, orig: string, dialect: Dialect): boolean {
  if (orig === '') return true;
  const key = idKeyword(dialect);
  const id = hasOwn(node, key) ? node[key] : undefined;
  return typeof id === 'string' && !id.startsWith('#') && !(typeof node.$ref === 'string' && isLegacyDialect(dialect));
}

/** Renames (or merges) a resource's `from` definitions container into `to`. */
function reconcileContainer(orig: string, cur: string, job: Job, moves: KeyMoves, from: string, to: string): void {
  const now = current(job, cur);
  if (!hasOwn(now, from) || !isObject(now[from])) return;
  if (!hasOwn(now, to)) {
    renameKey(job, cur, from, to, moves, 'renamed-definitions', { from, to });
    return;
  }
  if (!isObject(now[to])) return;
  const fromPath = appendPointer(orig, from);
  if (job.targets.includes(fromPath)) {
    job.ctx.report('warning', 'kept-definitions', at(job, orig, from), { from, to });
    return;
  }
  const taken = new Set(Object.keys(now[to]));
  const entries = new Map<string, string>();
  const source = now[from];
  for (const name of Object.keys(source)) {
    const newName = uniqueName(name, taken);
    taken.add(newName);
    const dest = appendPointer(appendPointer(cur, to), newName);
    job.ctx.move(appendPointer(at(job, cur, from), name), job.base + dest, 'merged-definition', { name, from, to, newName });
    entries.set(name, dest);
  }
  removeKey(job, cur, from, moves, 'removed-empty-container', { keyword: from, to });
  moves.entries.set(from, entries);
}

/** `name`, or `name_2`, `name_3`… : the first not in `taken`. */
export function uniqueName(name: string, taken: ReadonlySet<string>): string {
  if (!taken.has(name)) return name;
  for (let i = 2; ; i++) {
    const candidate = `${name}_${i}`;
    if (!taken.has(candidate)) return candidate;
  }
}

function splitDependencies(deps: Record<string, unknown>, cur: string, job: Job, moves: KeyMoves): void {
  const names = Object.keys(deps);
  const isRequired = (v: unknown) => Array.isArray(v);
  const isSchema = (v: unknown) => isObject(v) || typeof v === 'boolean';
  if (names.some((n) => !isRequired(deps[n]) && !isSchema(deps[n]))) return;
  const required = names.filter((n) => isRequired(deps[n]));
  const schemas = names.filter((n) => isSchema(deps[n]));
  const firstKeyword = names.length > 0 && isRequired(deps[names[0]!]) ? 'dependentRequired' : 'dependentSchemas';
  const data = { from: 'dependencies', to: required.length > 0 && schemas.length > 0 ? 'dependentRequired` and `dependentSchemas' : firstKeyword };
  renameKey(job, cur, 'dependencies', firstKeyword, moves, 'converted-dependencies', data);
  const entries = new Map<string, string>();
  moves.entries.set('dependencies', entries);
  for (const n of required) entries.set(n, appendPointer(appendPointer(cur, 'dependentRequired'), n));
  for (const n of schemas) entries.set(n, appendPointer(appendPointer(cur, 'dependentSchemas'), n));
  if (required.length === 0 || schemas.length === 0) return;
  const pick = (list: readonly string[]) => {
    const out: Record<string, unknown> = {};
    for (const n of list) setOwn(out, n, deps[n]);
    return out;
  };
  const otherKeyword = firstKeyword === 'dependentRequired' ? 'dependentSchemas' : 'dependentRequired';
  job.ctx.replace(at(job, cur, firstKeyword), pick(firstKeyword === 'dependentRequired' ? required : schemas), 'converted-dependencies', data);
  job.ctx.add(at(job, cur, otherKeyword), pick(otherKeyword === 'dependentRequired' ? required : schemas), 'converted-dependencies', data);
}

function joinDependencies(cur: string, job: Job, moves: KeyMoves): void {
  const now = current(job, cur);
  const req = hasOwn(now, 'dependentRequired') ? now.dependentRequired : undefined;
  const sch = hasOwn(now, 'dependentSchemas') ? now.dependentSchemas : undefined;
  if ((req !== undefined && !isObject(req)) || (sch !== undefined && !isObject(sch))) return;
  const order = Object.keys(now).filter((k) => k === 'dependentRequired' || k === 'dependentSchemas');
  const merged: Record<string, unknown> = {};
  const reqEntries = new Map<string, string>();
  const schEntries = new Map<string, string>();
  const dep = appendPointer(cur, 'dependencies');
  for (const keyword of order) {
    const map = (keyword === 'dependentRequired' ? req : sch) as Record<string, unknown>;
    for (const name of Object.keys(map)) {
      const value = map[name];
      if (!hasOwn(merged, name)) {
        setOwn(merged, name, value);
        (keyword === 'dependentRequired' ? reqEntries : schEntries).set(name, appendPointer(dep, name));
        continue;
      }
      // Both kinds for one property: a schema that requires the names and applies the schema.
      const reqValue = keyword === 'dependentRequired' ? value : merged[name];
      const schValue = keyword === 'dependentSchemas' ? value : merged[name];
      setOwn(merged, name, { allOf: [{ required: reqValue }, schValue] });
      const holder = appendPointer(appendPointer(dep, name), 'allOf');
      reqEntries.set(name, appendPointer(appendPointer(holder, 0), 'required'));
      schEntries.set(name, appendPointer(holder, 1));
    }
  }
  const data = { from: order.join('` and `'), to: 'dependencies' };
  renameKey(job, cur, order[0]!, 'dependencies', moves, 'converted-dependencies', data);
  job.ctx.replace(at(job, cur, 'dependencies'), merged, 'converted-dependencies', data);
  if (order.length > 1) removeKey(job, cur, order[1]!, moves, 'converted-dependencies', data);
  moves.entries.set('dependentRequired', reqEntries);
  moves.entries.set('dependentSchemas', schEntries);
}

function convertIdToModern(orig: string, cur: string, job: Job, moves: KeyMoves): void {
  const now = current(job, cur);
  const key = job.source === 'draft-04' ? 'id' : job.source === 'openapi-3.0' ? undefined : '$id';
  if (key === undefined || !hasOwn(now, key) || typeof now[key] !== 'string') return;
  const id = now[key] as string;
  const hash = id.indexOf('#');
  if (hash === 0) {
    const name = safeDecode(id.slice(1));
    if (name === '' || hasOwn(now, '$anchor') || !PLAIN_NAME.test(name)) {
      // A `$ref` that uses the name would find nothing in the target: `id` is no keyword there.
      if (name !== '' && job.anchorRefs.has(name)) {
        if (blocks(job, orig)) job.ctx.report('error', 'ambiguous-anchor', at(job, orig, key), { keyword: key, name });
      } else if (key === 'id') {
        removeKey(job, cur, 'id', moves, 'dropped-inert-keyword', { keyword: 'id', why: `no \`$ref\` uses it, it cannot become \`$anchor\` here, and ajv refuses \`id\`` });
      }
      return;
    }
    renameKey(job, cur, key, '$anchor', moves, 'converted-id', { from: key, to: '$anchor' });
    job.ctx.replace(at(job, cur, '$anchor'), name, 'converted-id', { from: `${key}: ${id}`, to: `$anchor: ${name}` });
    return;
  }
  if (hash !== -1 && hash !== id.length - 1) {
    if (!blocks(job, orig)) return;
    job.ctx.report('error', 'unconvertible', at(job, orig, key), { keyword: key, dialect: job.source, target: job.target, reason: ` with a fragment (\`${id}\`); use \`$anchor\`` });
    return;
  }
  if (key === 'id' && !hasOwn(now, '$id')) renameKey(job, cur, 'id', '$id', moves, 'converted-id', { from: 'id', to: '$id' });
}

function convertExample(orig: string, cur: string, job: Job, moves: KeyMoves): void {
  const now = current(job, cur);
  if (hasOwn(now, 'examples')) {
    job.ctx.report('info', 'kept-example', at(job, orig, 'example'));
    return;
  }
  const value = now.example;
  renameKey(job, cur, 'example', 'examples', moves, 'converted-example');
  job.ctx.replace(at(job, cur, 'examples'), [value], 'converted-example');
}

/**
 * An embedded resource below `path` that a reference uses (one sits inside it, or lands in it), if any:
 * ajv finds identifiers with json-schema-traverse, which does not descend into `prefixItems`, so inside
 * it such a resource is unknown to ajv and the references fail to resolve.
 */
function usedResourceIn(job: Job, path: string): { path: string; id: string } | undefined {
  const within = (p: string, root: string) => p === root || p.startsWith(root + '/');
  for (const res of job.resources) {
    if (!within(res.path, path)) continue;
    if (job.refTargets.some((r) => within(r.site, res.path) || within(r.target, res.path))) return res;
  }
  return undefined;
}

/** Keywords that change verdicts in the source and that nothing above could express in the target. */
function reportUnconvertible(orig: string, cur: string, job: Job): void {
  if (job.source === job.target) return;
  const now = current(job, cur);
  const candidates = job.pair.unconvertible;
  for (const key of Object.keys(now)) {
    if (key === '$schema' || !candidates.has(key)) continue;
    const value = now[key];
    if (keywordFit(job.source, key, value) !== 'fits' || !mattersIn(job.source, key) || expressibleIn(job.target, job.source, key, value)) continue;
    const reason = key === '$anchor' ? ' here (the schema already has an `$id`)' : '';
    if (!blocks(job, orig)) continue;
    job.ctx.report('error', 'unconvertible', at(job, orig, key), { keyword: key, dialect: job.source, target: job.target, reason });
  }
}

/**
 * The keywords whose presence in a schema object can make {@link walkAndConvert} do anything there (edit,
 * report or move): every keyword {@link convertNode} and the functions it calls look for, for this source
 * and target, plus the per-key checks' candidates. Deliberately coarse (presence, not value, for most):
 * a false alarm costs the full walk, a miss would skip a conversion.
 */
function conversionTriggers(source: Dialect, target: Dialect, foreign: ReadonlySet<string>, unconvertible: ReadonlySet<string>): Set<string> {
  const legacySource = isLegacyDialect(source);
  const legacyTarget = isLegacyDialect(target);
  const keys = new Set<string>([...foreign, ...unconvertible, 'nullable', 'exclusiveMinimum', 'exclusiveMaximum', 'id', '$id', 'definitions', '$defs']);
  // dropRefSiblings (legacy source, modern target) and the `allOf` wrap (modern source, legacy target).
  if (legacySource !== legacyTarget) keys.add('$ref');
  for (const k of legacyTarget ? ['prefixItems', 'dependentRequired', 'dependentSchemas', '$anchor'] : ['items', 'additionalItems', 'dependencies']) keys.add(k);
  return keys;
}

/** Whether {@link walkAndConvert} may have work at this schema object (see {@link conversionTriggers}). */
function mayNeedConversion(node: Record<string, unknown>, isRoot: boolean, triggers: ReadonlySet<string>): boolean {
  for (const key of Object.keys(node)) {
    if (triggers.has(key)) return true;
    // An embedded `$schema` is reported or restamped; an empty `enum` is reported.
    if (key === '$schema' && !isRoot) return true;
    if (key === 'enum' && Array.isArray(node.enum) && node.enum.length === 0) return true;
  }
  return false;
}

/** Per (source, target): the only keywords the per-key checks below can act on. */
interface PairTables {
  /** Keywords of the target that the source does not know and that change verdicts in the target. */
  readonly foreign: ReadonlySet<string>;
  /** Keywords of the source that matter there and that the target may not express the same way. */
  readonly unconvertible: ReadonlySet<string>;
  /** {@link conversionTriggers}, for a schema read as plain JSON Schema and for one with OpenAPI keywords (`example`). */
  readonly triggers: ReadonlySet<string>;
  readonly triggersWithOpenApi: ReadonlySet<string>;
}

const PAIR_TABLES = new Map<string, PairTables>();

/**
 * Narrows {@link dropForeignKeywords} and {@link reportUnconvertible} to the keywords that can pass their
 * checks, so that the ordinary keywords of a node cost one set lookup each. A keyword is left out only when
 * the full check could not pass for any value: not in the target's table or not a verdict keyword there
 * (foreign); not in the source's table, or the same shape, value type and standing in both (unconvertible).
 */
function pairTables(source: Dialect, target: Dialect): PairTables {
  const key = `${source}>${target}`;
  let tables = PAIR_TABLES.get(key);
  if (tables) return tables;
  const src = KEYWORD_TABLES[source];
  const tgt = KEYWORD_TABLES[target];
  const foreign = new Set<string>();
  for (const name of tgt.keys()) if (!src.has(name) && affectsVerdicts(target, name)) foreign.add(name);
  const unconvertible = new Set<string>();
  for (const [name, s] of src) {
    if (!mattersIn(source, name)) continue;
    const t = tgt.get(name);
    const sameShape = t !== undefined && t.shape === s.shape && t.valueType === s.valueType;
    const standing = t !== undefined && (!t.deprecated || t.role === 'definitions' || s.deprecated === true);
    if (!sameShape || !standing) unconvertible.add(name);
  }
  const triggers = conversionTriggers(source, target, foreign, unconvertible);
  tables = { foreign, unconvertible, triggers, triggersWithOpenApi: new Set([...triggers, 'example']) };
  PAIR_TABLES.set(key, tables);
  return tables;
}

/**
 * Whether a keyword means the same in the target: a keyword of the target, and not one the target only
 * describes as deprecated (`$recursiveRef` in 2020-12) unless it is deprecated in the source too or is a
 * definitions container (which any reader resolves by pointer).
 */
function expressibleIn(target: Dialect, source: Dialect, key: string, value: unknown): boolean {
  if (keywordFit(target, key, value) !== 'fits') return false;
  const info = KEYWORD_TABLES[target].get(key);
  return !info?.deprecated || info.role === 'definitions' || KEYWORD_TABLES[source].get(key)?.deprecated === true;
}

/** The stamp policy for a `$schema` (the root's, or an embedded one naming the source dialect). */
function writeStamp(node: Record<string, unknown>, cur: string, job: Job, isRoot: boolean): void {
  const policy = job.options.stamp ?? (job.target === '2020-12' ? 'omit' : 'write');
  const uri = DIALECT_URIS[job.target]!;
  const present = hasOwn(node, '$schema');
  const path = at(job, cur, '$schema');
  if (policy === 'omit') {
    if (present) job.ctx.remove(path, 'removed-stamp', { uri: String(node.$schema) });
    return;
  }
  if (present) {
    if (dialectFromUri(node.$schema) !== job.target) job.ctx.replace(path, uri, 'wrote-stamp', { uri });
  } else if (policy === 'write' && isRoot) {
    job.ctx.add(path, uri, 'wrote-stamp', { uri });
  }
}


function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
