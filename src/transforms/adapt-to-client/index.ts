/**
 * adapt-to-client: rewrites each tool so that a client profile accepts it. The work is done by step
 * objects (steps/<id>.ts, each with its fixtures in test/fixtures/adapt-to-client/rules/<id>/), run in
 * order on each slot's schema (editor.ts) inside one transaction per tool, rolled back when the reference
 * rewrites grow a slot past the growth cap:
 * 1. reference rewrites, measured: inline-refs, hoist-refs, wrap-ref-siblings;
 * 2. clean-ups that keep every verdict: add-root-type, drop-invalid-annotations, drop-rejected, merge-allof
 *    (run once more after the lossy steps when they edited the slot: they may drop what held an `allOf` back);
 * 3. lossy conversions, each off unless its option is on (presetForProfile turns on those the profile
 *    needs): relax-assertions, describe-formats, close-objects; and, on the tool itself (its name, with
 *    the whole list in view so no two tools end alike), rename-tools.
 * When the lossy steps edited a slot, its steps run once more on what they left (see `runSlot`): a lossy
 * step can remove what stopped a reference rewrite, and one run must reach the fixed point a second would.
 * For the same reason, with the `reconcile` option (presetForProfile sets it), reconcile-dialect runs again
 * on a tool the lossy steps edited, and these steps on what it changed (`settle`, reconcile-again.ts).
 * After the edits each tool is checked with the profile again; every remaining finding is reported.
 */
import { utf8Length } from '../../core/measure.js';
import { defineTransform } from '../../engine/define-transform.js';
import { toolName } from '../../core/tool.js';
import { hasOwn, isObject } from '../../json/guards.js';
import { profileFindings } from '../../profiles/check.js';
import { getProfile, type ClientProfile } from '../../profiles/profiles.js';
import { getDeclaredDialect } from '../../schema/dialect.js';
import { KEYWORD_TABLES } from '../../schema/keywords.js';
import type { EditContext } from '../../core/context.js';
import type { ReconcileDialectOptions } from '../reconcile-dialect/index.js';
import { SlotEditor, type Note } from './editor.js';
import { resolveReconcileOptions, settle, type Capped, type ResolvedReconcileOptions } from './reconcile-again.js';
import { possiblyReachedDefinitions, referencedEmptyDefs, removeHeldBackByUnevaluated, removeOrphanedDefs, removeUnreferencedEmptyDefs, usesUnevaluatedProperties } from './nodes.js';
import { ADAPT_MESSAGES } from './messages.js';
import type { AdaptStep, StepInput } from './step.js';
import { addRootType } from './steps/add-root-type.js';
import { closeObjects } from './steps/close-objects.js';
import { describeFormats } from './steps/describe-formats.js';
import { dropInvalidAnnotations } from './steps/drop-invalid-annotations.js';
import { dropRejected } from './steps/drop-rejected.js';
import { hoistRefs } from './steps/hoist-refs.js';
import { inlineRefs } from './steps/inline-refs.js';
import { mergeAllOf } from './steps/merge-allof.js';
import { relaxAssertions } from './steps/relax-assertions.js';
import { renameTools, type AdaptNameStep, type ToolRenamePlan } from './steps/rename-tools.js';
import { wrapRefSiblings } from './steps/wrap-ref-siblings.js';

/** Options of {@link adaptToClient}. */
export interface AdaptToClientOptions {
  /** The client to adapt to: a built-in profile name or a profile object (default `mcp`). */
  readonly profile?: string | ClientProfile;
  /** A schema may grow to at most this many times its size (default 2); beyond it the tool is left as it was. */
  readonly growthCap?: number;
  /** Bytes a schema may always grow by, whatever `growthCap` says (default 0). */
  readonly growthAllowance?: number;
  /**
   * Lossy: rewrite or drop assertions the client rejects (`const` → `enum`, exclusive → inclusive bounds,
   * `oneOf` → `anyOf`, narrowing keywords such as `additionalProperties` dropped). Default false.
   */
  readonly relaxAssertions?: boolean;
  /** Lossy: move a `format` the client does not accept into the description. Default false. */
  readonly describeFormats?: boolean;
  /**
   * Lossy: the strict-mode conversion OpenAI's SDKs apply (every object closed, every property required,
   * optional ones nullable), for profiles with strict-mode rules. Default false.
   */
  readonly closeObjects?: boolean;
  /**
   * Lossy: rename a tool whose name the client refuses to one it accepts (deterministic, never another
   * tool's name; steps/rename-tools.ts). Calls then name the new name: serve the output only through a
   * caller that maps it back (`toolRenamesOf(report)`; `toolslim proxy` does). Default false.
   */
  readonly renameTools?: boolean;
  /**
   * The options reconcile-dialect ran with before this step (`{}`: its defaults), or false (default). With
   * them, when the lossy steps edited a tool, reconcile-dialect runs again on it and then these steps on
   * what it changed, until neither changes anything more: a lossy step may remove the `$ref` that held a
   * conversion back, which the next run would otherwise make (reconcile-again.ts). presetForProfile sets it
   * when it turns a lossy schema step on and the preset runs reconcile-dialect.
   */
  readonly reconcile?: ReconcileDialectOptions | false;
}

interface AdaptState {
  readonly profile: ClientProfile;
  readonly names?: ToolRenamePlan;
  /** The `reconcile` option with reconcile-dialect's defaults filled in; undefined when it is false. */
  readonly reconcile?: ResolvedReconcileOptions;
}

/** The reference rewrites: measured together against the growth cap before anything else runs. */
const REWRITES: readonly AdaptStep[] = [inlineRefs, hoistRefs, wrapRefSiblings];
/** Clean-ups that keep every verdict (merge-allof last: annotations the client rejects are gone by then). */
const CLEANUPS: readonly AdaptStep[] = [addRootType, dropInvalidAnnotations, dropRejected, mergeAllOf];
/** Lossy conversions, each behind its own option. */
const LOSSY: readonly AdaptStep[] = [relaxAssertions, describeFormats, closeObjects];

/** Every step of adapt-to-client, in the order it runs. */
export const ADAPT_STEPS: readonly (AdaptStep | AdaptNameStep)[] = Object.freeze([...REWRITES, ...CLEANUPS, ...LOSSY, renameTools]);

type LossyOption = 'relaxAssertions' | 'describeFormats' | 'closeObjects';

/**
 * Rewrites each tool so that a client profile accepts it, without changing any verdict: inlines
 * references the client cannot resolve (cycle-aware), moves reference targets to the top-level `$defs`
 * where the client requires that, moves `$ref` into `allOf` where the client rejects its siblings, merges
 * `allOf` into one schema where the client rejects it and the merge keeps every verdict, and drops
 * annotations the client rejects. With its lossy options on, it also converts what the client
 * rejects and no verdict-keeping rewrite can fix. What it cannot fix is reported as an error.
 */
export const adaptToClient = defineTransform<AdaptToClientOptions, AdaptState>({
  name: 'adapt-to-client',
  description: 'Rewrite tools so a client profile accepts them (inline or hoist references, drop rejected annotations) and report what it cannot fix',
  safety: 'annotation',
  // Each step is a part with its own fixtures (test/fixtures/adapt-to-client/rules/<id>/); the lossy ones have an option.
  parts: ADAPT_STEPS.map((s) => (s.option === undefined ? { id: s.id } : { id: s.id, option: s.option })),
  safetyWith: (options) => (LOSSY.some((s) => options[s.option as LossyOption] === true) ? 'lossy' : 'annotation'),
  // A renamed tool is a lossy rewrite; the others keep the step's safety (the gate checks their verdicts).
  safetyFor: (doc) => (doc.state.names?.renames.has(doc.name) ? 'lossy' : undefined),
  defaultOptions: { profile: 'mcp', growthCap: 2, growthAllowance: 0, relaxAssertions: false, describeFormats: false, closeObjects: false, renameTools: false, reconcile: false },
  messages: ADAPT_MESSAGES,
  validateOptions(options) {
    getProfile(options.profile ?? 'mcp');
    const cap = options.growthCap;
    if (typeof cap !== 'number' || !Number.isFinite(cap) || cap < 1) throw new Error('`growthCap` must be a finite number ≥ 1');
    const allowance = options.growthAllowance ?? 0;
    if (typeof allowance !== 'number' || !Number.isFinite(allowance) || allowance < 0) throw new Error('`growthAllowance` must be a finite number of bytes ≥ 0');
    for (const s of [...LOSSY, renameTools]) {
      const v = options[s.option as LossyOption | 'renameTools'];
      if (v !== undefined && typeof v !== 'boolean') throw new Error(`\`${s.option}\` must be true or false`);
    }
    resolveReconcileOptions(options.reconcile);
  },
  prepare(tools, options) {
    const profile = getProfile(options.profile ?? 'mcp');
    const reconcile = resolveReconcileOptions(options.reconcile);
    const withReconcile = reconcile === undefined ? {} : { reconcile };
    if (options.renameTools !== true || !renameTools.applies(profile)) return { profile, ...withReconcile };
    return { profile, names: renameTools.plan(tools.map(toolName), profile), ...withReconcile };
  },
  apply(doc, ctx, options) {
    const p = doc.state.profile;
    const cap = options.growthCap ?? 2;
    const allowance = options.growthAllowance ?? 0;
    const lossy = LOSSY.filter((s) => options[s.option as LossyOption] === true && s.applies(p));
    const growthLimit = (before: number) => Math.max(cap * before, before + allowance);
    // Each slot's notes, by slot (they are reported once every pass is decided, in slot order).
    const notes = new Map<string, readonly Note[]>();
    // Every slot's steps in one transaction: a slot over the growth cap leaves the whole tool as it was.
    const first = adaptSlots(ctx, p.slots, p, growthLimit, lossy, notes);
    // What the lossy steps removed may have held reconcile-dialect back: see `settle`.
    // A slot capped in the first pass is left as it was; one capped in a later round keeps the edits before
    // that round (the first pass's and reconcile-dialect's conversion), so it is said differently.
    const reportCapped = (code: 'growth-capped' | 'growth-capped-again', capped: readonly Capped[]) => {
      for (const c of capped) ctx.report('error', code, '/' + c.slot, { slot: c.slot, profile: p.name, before: c.before, after: c.after, cap });
    };
    reportCapped('growth-capped', first.capped);
    if (first.capped.length === 0 && first.lossyEdited && doc.state.reconcile !== undefined) {
      reportCapped('growth-capped-again', settle(ctx, doc.index, doc.name, doc.state.reconcile, (slots) => adaptSlots(ctx, p.slots.filter((slot) => slots.includes(slot)), p, growthLimit, lossy, notes)));
    }
    for (const [base, slotNotes] of notes) for (const n of slotNotes) ctx.report(n.severity, n.code, base + n.path, n.data);
    const renamed = doc.state.names?.renames.get(doc.name);
    if (renamed !== undefined) ctx.replace('/name', renamed, 'renamed-tool', { from: doc.name, to: renamed, profile: p.name });
    else if (doc.state.names?.kept.has(doc.name)) ctx.report('error', 'name-kept', '/name', { name: doc.name, pattern: p.toolName!.pattern });
    if (p.maxTools !== undefined && doc.index >= p.maxTools) ctx.report('error', 'tool-count', '', { position: doc.index + 1, profile: p.name, max: p.maxTools });
    for (const f of profileFindings(ctx.root, p)) ctx.report(f.severity, f.code, f.path, { message: f.message });
  },
});


/**
 * Runs the steps on each of `slots` of the tool as `ctx` holds it, in one transaction, rolled back when a
 * slot grows past the limit (then listed in `capped`); sets each slot's notes in `notes` (whether kept or not:
 * they say why). `lossyEdited`: the lossy steps edited some slot (and the transaction was kept).
 */
function adaptSlots(ctx: EditContext, slots: readonly string[], p: ClientProfile, growthLimit: (before: number) => number, lossy: readonly AdaptStep[], notes: Map<string, readonly Note[]>): { capped: Capped[]; lossyEdited: boolean } {
  const capped: Capped[] = [];
  let lossyEdited = false;
  ctx.transaction(() => {
    for (const slot of slots) {
      const tool = ctx.root as Record<string, unknown>;
      if (!hasOwn(tool, slot) || !isObject(tool[slot])) continue;
      const ed = new SlotEditor(ctx, '/' + slot);
      const r = runSlot(ed, tool[slot] as Record<string, unknown>, slot === 'inputSchema', p, growthLimit, lossy);
      if (r.over !== undefined) capped.push({ slot, ...r.over });
      if (r.lossyEdited) lossyEdited = true;
      notes.set('/' + slot, ed.notes);
    }
    return capped.length === 0;
  });
  return { capped, lossyEdited: capped.length === 0 && lossyEdited };
}

/**
 * Runs the steps on one slot (`schema` is its value before them): the reference rewrites, then, unless
 * they grew it past the limit (returned, sizes in bytes), the clean-ups and the lossy steps asked for.
 *
 * A lossy step can remove what stopped a reference rewrite (a recursion through `dependentSchemas`, an
 * embedded `$id` under `not`, …): the next run would then rewrite the references. So, when the lossy steps
 * edited the slot, the steps run once more on what they left, as that next run would (its growth measured
 * from there, as it would be), and the second pass is kept when its rewrites changed something and it stays
 * within the limit; its notes then replace the first pass's (they describe the output). When its rewrites
 * change nothing it is undone, and what they noted replaces what the first pass's rewrites noted (a
 * recursion or `$id` the lossy steps removed is no longer said to stop them). One run reaches the fixed
 * point a second would.
 */
function runSlot(ed: SlotEditor, schema: Record<string, unknown>, isArguments: boolean, p: ClientProfile, growthLimit: (before: number) => number, lossy: readonly AdaptStep[]): { over?: { before: number; after: number }; lossyEdited: boolean } {
  const declared = getDeclaredDialect(schema, p.dialect);
  const input = { profile: p, dialect: declared.dialect, source: declared.source, isArguments, growthLimit };
  const first = runPass(ed, schema, input, growthLimit, lossy);
  if (first.over !== undefined) return { over: first.over, lossyEdited: false };
  const lossyEdited = first.lossyEdited;
  if (!first.lossyEdited || !REWRITES.some((s) => s.applies(p))) return { lossyEdited };
  const start = ed.root as Record<string, unknown>;
  const earlierNotes = ed.notes.length;
  let rewriteNotes: Note[] | undefined;
  const kept = ed.attempt(() => {
    const second = runPass(ed, start, input, growthLimit, lossy);
    if (!second.rewrote) rewriteNotes = ed.notes.slice(earlierNotes, earlierNotes + second.rewriteNotes);
    return second.over === undefined && second.rewrote;
  });
  if (kept) ed.notes.splice(0, earlierNotes);
  else if (rewriteNotes !== undefined) ed.notes.splice(0, first.rewriteNotes, ...rewriteNotes);
  return { lossyEdited };
}

interface Pass {
  /** Set when the reference rewrites grew the slot past the limit (sizes in bytes). */
  readonly over?: { before: number; after: number };
  /** Whether the reference rewrites edited the slot. */
  readonly rewrote: boolean;
  /** How many notes the reference rewrites made (the pass's first notes). */
  readonly rewriteNotes: number;
  /** Whether the lossy steps edited the slot. */
  readonly lossyEdited: boolean;
}

/** One pass of the steps over a slot whose value is `schema` when it starts. */
function runPass(ed: SlotEditor, schema: Record<string, unknown>, input: StepInput, growthLimit: (before: number) => number, lossy: readonly AdaptStep[]): Pass {
  const p = input.profile;
  const start = ed.edits;
  const notesBefore = ed.notes.length;
  for (const step of REWRITES) if (step.applies(p)) step.run(ed, input);
  const rewriteNotes = ed.notes.length - notesBefore;
  if (ed.capped) return { over: ed.capped, rewrote: true, rewriteNotes, lossyEdited: false };
  const rewrote = ed.edits > start;
  if (rewrote) {
    const before = utf8Length(JSON.stringify(schema));
    const after = utf8Length(JSON.stringify(ed.root));
    if (after > growthLimit(before)) return { over: { before, after }, rewrote, rewriteNotes, lossyEdited: false };
  }
  let mergeNotes: readonly [number, number] | undefined;
  for (const step of CLEANUPS) {
    if (!step.applies(p)) continue;
    const n = ed.notes.length;
    step.run(ed, input);
    if (step === mergeAllOf) mergeNotes = [n, ed.notes.length];
  }
  if (lossy.length === 0) return { rewrote, rewriteNotes, lossyEdited: false };
  // A lossy step may drop the keyword that held the only reference to a definition (or the reference that
  // made reachability undecidable): removed here, as prune-unreachable-defs would remove it on the next
  // run (the preset reaches its fixed point in one).
  const reached = possiblyReachedDefinitions(ed.root);
  // Likewise normalize-schema keeps `additionalProperties: true` and an empty `properties` while
  // `unevaluatedProperties` can observe them; once a lossy step removed the last one, they go here.
  const table = input.source === 'unknown' ? undefined : KEYWORD_TABLES[input.dialect];
  const unevaluated = table !== undefined && usesUnevaluatedProperties(ed.root, table);
  // And it keeps an empty definitions container a reference may land in (`$ref: "#/$defs/Gone"`).
  const emptyDefs = table === undefined ? [] : referencedEmptyDefs(ed.root, input.dialect);
  const editsBefore = ed.edits;
  // Each at a fresh copy-on-write level (`group`): a later step may edit a node an earlier one put inside
  // a recorded value (close-objects wraps an edited property in `anyOf`), which must not change that value.
  // A lossy step may drop what held an `allOf` back (`if`, `not`, `additionalProperties` for `gemini`): the
  // merge runs again, as the next run would, before close-objects (which would wrap the `allOf` where it
  // would have made the merged `type` nullable) and once more at the end if anything changed since.
  const remerge = mergeNotes === undefined ? undefined : remergeAllOf(ed, input, mergeNotes, editsBefore);
  for (const step of lossy) {
    if (step === closeObjects) remerge?.();
    ed.group(() => step.run(ed, input));
  }
  const lossyEdited = ed.edits > editsBefore;
  if (lossyEdited) {
    ed.group(() => removeOrphanedDefs(ed, reached, 'removed-unreferenced-def', {}));
    if (unevaluated && !usesUnevaluatedProperties(ed.root, table!)) ed.group(() => removeHeldBackByUnevaluated(ed, input.dialect));
    if (emptyDefs.length > 0) ed.group(() => removeUnreferencedEmptyDefs(ed, emptyDefs, input.dialect));
    remerge?.();
  }
  return { rewrote, rewriteNotes, lossyEdited };
}

/**
 * merge-allof again, when the slot changed since it last ran (`since`: the edit count then): the notes it
 * makes replace those of its last run (`notes`: their range in the editor's notes), as they describe the output.
 */
function remergeAllOf(ed: SlotEditor, input: StepInput, notes: readonly [number, number], since: number): () => void {
  let range = notes;
  let last = since;
  return () => {
    if (ed.edits === last) return;
    const n = ed.notes.length;
    ed.group(() => mergeAllOf.run(ed, input));
    const fresh = ed.notes.splice(n);
    ed.notes.splice(range[0], range[1] - range[0], ...fresh);
    range = [range[0], range[0] + fresh.length];
    last = ed.edits;
  };
}
