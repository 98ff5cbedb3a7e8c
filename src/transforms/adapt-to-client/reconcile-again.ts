/**
 * reconcile-dialect once more, after adapt-to-client's lossy steps (option `reconcile`, which
 * presetForProfile sets to the options the preset ran reconcile-dialect with).
 *
 * reconcile-dialect leaves a tool as it is when a `$ref` makes a conversion choose a reading: a reference
 * into a keyword the source dialect does not know (`referenced-foreign-keyword`), into a sibling of a
 * draft-04/06/07 `$ref` (`referenced-ref-sibling`), an anchor declared twice (`ambiguous-anchor`). When a
 * lossy step removes that `$ref` (relax-assertions drops a `not` or an `if`), nothing holds the conversion
 * back any more, and the next run of the preset would make it. So adapt-to-client runs reconcile-dialect
 * itself on the tool it left, the same code with the same options, and then its own steps on the slots that
 * conversion changed (see `settle` in index.ts).
 *
 * It runs on a scratch context over the tool (its messages are reconcile-dialect's; its findings about the
 * source were reported by the preset's own reconcile-dialect step and are not repeated), with a fresh
 * analysis (the working copy is written in place once owned: the run's analysis may remember what it was).
 */
import { EditContext } from '../../core/context.js';
import { getSchemaDocuments, type SchemaDocuments } from '../../core/documents.js';
import type { McpTool } from '../../core/tool.js';
import type { ToolDoc } from '../../core/transform.js';
import { SchemaAnalysis, withAnalysis } from '../../schema/refs.js';
import { reconcileDialect, type ReconcileDialectOptions } from '../reconcile-dialect/index.js';

/** reconcile-dialect's options with every default filled in (as the engine would give them to it). */
export type ResolvedReconcileOptions = Required<Pick<ReconcileDialectOptions, 'target' | 'assume' | 'refSiblings' | 'foreignKeywords' | 'slots'>> & Pick<ReconcileDialectOptions, 'stamp'>;

/** Checks the `reconcile` option (false, or reconcile-dialect's options) and fills in reconcile-dialect's defaults. */
export function resolveReconcileOptions(value: unknown): ResolvedReconcileOptions | undefined {
  if (value === false || value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('`reconcile` must be false or reconcile-dialect\'s options');
  const known = Object.keys(reconcileDialect.defaultOptions);
  for (const key of Object.keys(value)) if (!known.includes(key)) throw new Error(`\`reconcile\`: unknown option \`${key}\` of reconcile-dialect (known: ${known.join(', ')})`);
  const merged = { ...reconcileDialect.defaultOptions, ...(value as ReconcileDialectOptions) } as ResolvedReconcileOptions;
  reconcileDialect.validateOptions!(merged);
  return merged;
}

/** What reconcile-dialect did to the tool: the tool it left and the messages of its edits. */
export interface Reconciled {
  readonly tool: McpTool;
  readonly messages: readonly string[];
}

/** Runs reconcile-dialect on `tool` (as its step would, with `options`); undefined when it changes nothing. */
export function reconcileAgain(tool: McpTool, index: number, name: string, options: ResolvedReconcileOptions): Reconciled | undefined {
  return withAnalysis(new SchemaAnalysis(), () => {
    const scratch = new EditContext(tool, reconcileDialect.messages);
    let documents: SchemaDocuments | undefined;
    const read = () => (documents ??= getSchemaDocuments(tool, options.slots, options.assume));
    const doc: ToolDoc<undefined> = {
      tool,
      index,
      name,
      state: undefined,
      get documents() {
        return read().documents;
      },
      get unknownDialects() {
        return read().unknown;
      },
    };
    reconcileDialect.apply(doc, scratch, options);
    if (!scratch.changed) return undefined;
    return { tool: scratch.root as McpTool, messages: scratch.changes.map((c) => c.message) };
  });
}
