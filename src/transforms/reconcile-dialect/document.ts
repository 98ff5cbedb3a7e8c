/**
 * One document's rewrite (a tool's `inputSchema` or `outputSchema`): its dialect and contradictions, the
 * analysis the conversions read (references and their targets, embedded resources, anchors, dead
 * definitions), the walk, then the references that follow the moves, the dead definitions removed and the
 * stamp. Everything is staged; the transform (index.ts) commits it or keeps only the findings.
 */
import { EditContext } from '../../core/context.js';
import { hasOwn, isObject } from '../../json/guards.js';
import { appendPointer, parsePointer } from '../../json/pointer.js';
import { findDialectContradictions, getDeclaredDialect } from '../../schema/dialect.js';
import { DEFINITIONS_KEYWORDS, type Dialect } from '../../schema/keywords.js';
import { parseRef } from '../../schema/ref-syntax.js';
import { definitionOf, refInventoryOf, resolveRefSite } from '../../schema/refs.js';
import { PathMap, planRefRewrites } from '../../schema/relocate.js';
import { someSubschema } from '../../schema/walk.js';
import { findReachedDefinitions } from '../prune-unreachable-defs.js';
import { isWithinAny, type Job, type RefTarget } from './job.js';
import { MESSAGES } from './messages.js';
import type { ReconcileDialectOptions } from './options.js';
import { mayNeedConversion, pairTables } from './pair-tables.js';
import { StagedEdits } from './staged-edits.js';
import { writeStamp } from './stamp.js';
import { walkAndConvert } from './walk.js';

/**
 * Stages one document's rewrite (edits are not yet on `ctx`); `blocked` when something in it cannot be
 * expressed in the target with the same verdicts. Undefined when there is nothing to stage.
 */
export function reconcileDocument(
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

/** True when the schema uses a keyword only OpenAPI 3.0 schema objects have that changes verdicts (`nullable`). */
function usesOpenApiKeywords(schema: unknown): boolean {
  return someSubschema(schema, (node) => hasOwn(node, 'nullable') && typeof node.nullable === 'boolean');
}
