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
 * conversion changed ({@link settle}).
 *
 * It runs on a scratch context over the tool (its messages are reconcile-dialect's; its findings about the
 * source were reported by the preset's own reconcile-dialect step and are not repeated), with a fresh
 * analysis (the working copy is written in place once owned: the run's analysis may remember what it was).
 */
import { EditContext } from '../../core/context.js';
import { hasOwn, isObject } from '../../json/guards.js';
import { DEFINITIONS_KEYWORDS } from '../../schema/keywords.js';
import { getSchemaDocuments, type SchemaDocuments } from '../../core/documents.js';
import type { McpTool } from '../../core/tool.js';
import { ANY_KEYS, type ToolDoc } from '../../core/transform.js';
import { SchemaAnalysis, withAnalysis } from '../../schema/refs.js';
import { reconcileDialect, type ReconcileDialectOptions } from '../reconcile-dialect/index.js';
import { SlotEditor } from './editor.js';
import { possiblyReachedDefinitions, removeOrphanedDefs } from './nodes.js';

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

/** A slot whose steps grew it past the growth cap (sizes in bytes). */
export interface Capped {
  readonly slot: string;
  readonly before: number;
  readonly after: number;
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
      // Not known here: every kind of key may be there.
      mayHold: ANY_KEYS,
    };
    reconcileDialect.apply(doc, scratch, options);
    if (!scratch.changed) return undefined;
    return { tool: scratch.root as McpTool, messages: scratch.changes.map((c) => c.message) };
  });
}

/**
 * At most this many times reconcile-dialect runs again on one tool. Each time follows a round of lossy
 * edits (the first round's, then one per round of `settle`), and the loop stops as soon as reconcile-dialect
 * or the lossy steps change nothing more; see {@link settle} for why a few rounds always suffice. Over the fuzz
 * corpus (bench/fuzz.ts, seeds 20261212 and 7: 66,500 lossy runs) it converted something in one round at
 * most (29 tools), and the round after found nothing to convert (2 tools).
 */
const MAX_RECONCILE_ROUNDS = 4;

/**
 * After the lossy steps edited the tool: reconcile-dialect again (reconcile-again.ts), as the next run of
 * the preset would, since a lossy step may have removed the `$ref` that held one of its conversions back;
 * then, on the slots it changed, what the next run's other steps would do: the definitions its conversion
 * left unreferenced are removed (as prune-unreachable-defs would), and this transform's steps run again on
 * what it left (a draft-07 `dependencies` it now rewrites as `dependentSchemas`, which `openai-strict`
 * rejects, goes as a lossy step removes it). Their lossy edits may in turn free another conversion, so this
 * repeats until reconcile-dialect or the lossy steps change nothing.
 *
 * It ends: each round removes at least one `$ref` or keyword that held a conversion back (the lossy steps
 * only remove and relax assertions, and close objects, which adds no reference and no keyword of another
 * dialect; reconcile-dialect only converts, writing the target's keywords, which it never holds back), and
 * a schema has finitely many; `MAX_RECONCILE_ROUNDS` bounds it regardless. A round whose steps grow a slot
 * past the growth cap is rolled back (as the next run would leave the tool as reconcile-dialect left it) and
 * returned. `adapt` runs this transform's steps on those of the slots it is given that the profile adapts (index.ts:
 * `adaptSlots`), and the notes of a slot a round adapted replace that slot's earlier notes: they describe
 * the output.
 */
export function settle(ctx: EditContext, index: number, name: string, options: ResolvedReconcileOptions, adapt: (slots: readonly string[]) => { readonly capped: readonly Capped[]; readonly lossyEdited: boolean }): readonly Capped[] {
  for (let round = 0; round < MAX_RECONCILE_ROUNDS; round++) {
    const tool = ctx.root as Record<string, unknown>;
    const reached = new Map<string, ReadonlySet<string> | undefined>();
    for (const slot of options.slots) if (hasOwn(tool, slot) && isObject(tool[slot])) reached.set(slot, underEitherContainer(possiblyReachedDefinitions(tool[slot])));
    const again = reconcileAgain(tool as McpTool, index, name, options);
    if (again === undefined) return [];
    const changed = options.slots.filter((slot) => hasOwn(tool, slot) && (again.tool as Record<string, unknown>)[slot] !== tool[slot]);
    // At a fresh copy-on-write level, each slot replaced whole by what reconcile-dialect made of it.
    ctx.transaction(() => {
      for (const slot of changed) ctx.replace('/' + slot, (again.tool as Record<string, unknown>)[slot], 'reconciled-again', { slot, edits: again.messages.join('; ') });
      for (const slot of changed) {
        const ed = new SlotEditor(ctx, '/' + slot);
        ed.group(() => removeOrphanedDefs(ed, reached.get(slot), 'removed-unreferenced-def', {}));
      }
    });
    const next = adapt(changed);
    if (next.capped.length > 0) return next.capped;
    if (!next.lossyEdited) return [];
  }
  return [];
}

/**
 * Definitions reached (keys `container\0name`, as {@link possiblyReachedDefinitions} gives them), each under
 * every definitions container: reconcile-dialect renames `definitions` to `$defs` (2020-12) or back, and a
 * definition reached before it did is the same definition after.
 */
function underEitherContainer(reached: ReadonlySet<string> | undefined): ReadonlySet<string> | undefined {
  if (reached === undefined) return undefined;
  const out = new Set<string>();
  for (const key of reached) {
    const name = key.slice(key.indexOf('\u0000') + 1);
    for (const container of DEFINITIONS_KEYWORDS) out.add(container + '\u0000' + name);
  }
  return out;
}
