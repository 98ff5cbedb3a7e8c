/**
 * reconcile-dialect: the transform (options, messages, the per-tool decision). The work is done by
 * conversion objects (conversions/<id>.ts, in the order of conversions/index.ts, each with its fixtures in
 * test/fixtures/reconcile-dialect/rules/<id>/) applied to each schema object by the walk (walk.ts) of one
 * document's rewrite (document.ts), which ends with the stamp (stamp.ts, a part of its own). job.ts holds
 * what a document's conversions share, anchors.ts the identifier-as-anchor rules several of them use,
 * pair-tables.ts what each dialect pair narrows the work to.
 */
import { SCHEMA_SLOTS } from '../../core/tool.js';
import { defineTransform } from '../../engine/define-transform.js';
import { hasOwn, isObject } from '../../json/guards.js';
import { DIALECTS, type Dialect } from '../../schema/keywords.js';
import { dialectFromUri } from '../../schema/dialect.js';
import { CONVERSIONS } from './conversions/index.js';
import { readDocument, reconcileDocument, type SourceDocument } from './document.js';
import { MESSAGES, SOURCE_FINDINGS } from './messages.js';
import type { ReconcileDialectOptions } from './options.js';
import { STAMP_PART } from './stamp.js';
import type { SchemaDocument } from '../../core/documents.js';
import { noteBelowRoot } from '../below-root.js';

export type { ReconcileDialectOptions, ReconcileTarget } from './options.js';
export { CONVERSIONS } from './conversions/index.js';
export type { Conversion, ConversionScope } from './rule.js';

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
  // Each conversion is a part with its own fixtures (test/fixtures/reconcile-dialect/rules/<id>/), and so is the stamp.
  parts: [...CONVERSIONS.map((c) => ({ id: c.id })), { id: STAMP_PART.id }],
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
    const opts = options as Required<ReconcileDialectOptions>;
    // First what every schema says about itself (unknown dialects, contradictions), then the rewrites.
    const sources: SourceDocument[] = [];
    const slots = options.slots ?? SCHEMA_SLOTS;
    for (let s = 0; s < slots.length; s++) {
      const slot = slots[s]!;
      const schema = (doc.tool as Record<string, unknown>)[slot];
      if (!isObject(schema) || !hasOwn(doc.tool, slot)) continue;
      // An output schema is read by the client, to check results, and the MCP TypeScript SDK's client reads
      // it with a draft-07 validator: tuples rewritten as 2020-12's `prefixItems` with `items: false` made it
      // refuse every valid result (found as a user: @mapbox/mcp-server's zod tuples through the proxy). The
      // model never reads an output schema, so nothing is lost by leaving one with tuples as it is (stamped
      // draft-07, or not stamped: the SDK reads that as draft-07 too).
      // A document that declares 2020-12 itself is converted as before: no draft-07 reader reads it as it is.
      if (slot === 'outputSchema' && opts.target === '2020-12' && dialectFromUri(schema.$schema) !== '2020-12' && holdsTupleForms(schema)) {
        ctx.report('info', 'kept-output-tuples', '/outputSchema');
        continue;
      }
      const source = readDocument(schema, '/' + slot, ctx, opts, doc.name);
      if (source !== undefined) sources.push(source);
    }
    // Nothing to convert anywhere (nearly every tool): only the stamp policy applies, which never blocks.
    if (sources.every((s) => !s.look.work)) {
      for (const source of sources) reconcileDocument(source, ctx, opts);
      // Left as it was: the next steps read the same documents, and can use what the look found below their roots.
      if (!ctx.changed) noteLooks(doc.documents, sources);
      return;
    }
    // A schema that cannot be rewritten with the same verdicts leaves the whole tool as it was (its
    // findings about the source are still reported), so a tool is never half in one dialect and half in
    // another. Every schema is still rewritten, so that each one's findings are reported.
    ctx.transaction(
      () => {
        let blocked = false;
        for (const source of sources) if (reconcileDocument(source, ctx, opts)) blocked = true;
        return !blocked;
      },
      { keep: (code) => SOURCE_FINDINGS.has(code) },
    );
  },
});

/**
 * Whether an object anywhere in `schema` has an array `items` or an `additionalItems` key (data positions
 * included: saying yes there only leaves a schema as it is). Iterative, and stops at the first; the engine's
 * input check has refused a tool that contains itself (not `walkJson`: it spells a pointer for every value).
 */
function holdsTupleForms(schema: unknown): boolean {
  const stack: unknown[] = [schema];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      for (const v of node) if (typeof v === 'object' && v !== null) stack.push(v);
      continue;
    }
    if (!isObject(node)) continue;
    if (hasOwn(node, 'additionalItems') || (hasOwn(node, 'items') && Array.isArray(node.items))) return true;
    for (const k in node) {
      const v = node[k];
      if (typeof v === 'object' && v !== null && hasOwn(node, k)) stack.push(v);
    }
  }
  return false;
}

/** Hands what each source's look found below its root to the engine's documents of the same schema (see below-root.ts). */
function noteLooks(documents: readonly SchemaDocument[], sources: readonly SourceDocument[]): void {
  for (const source of sources) {
    if (source.below === undefined) continue;
    for (const d of documents) if (d.schema === source.schema) noteBelowRoot(d, source.below);
  }
}
