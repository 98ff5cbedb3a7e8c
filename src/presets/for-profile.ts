import { lookup } from './index.js';
import { ToolslimError } from '../core/errors.js';
import type { TransformStepInput } from '../core/preset.js';
import { definePreset, type Preset, type PresetOptions } from '../core/preset.js';
import type { AnyTransform } from '../core/transform.js';
import { ADAPT_STEPS, adaptToClient } from '../transforms/adapt-to-client/index.js';
import { builtinTransforms } from '../transforms/index.js';
import { reconcileDialect } from '../transforms/reconcile-dialect/index.js';
import { getProfile, type ClientProfile } from '../profiles/profiles.js';
import type { Tokenizer } from '../core/measure.js';
import type { McpTool } from '../core/tool.js';
import { findAnyTypes, getRenderer } from '../render/index.js';
import { inlineSmallRefs } from '../transforms/inline-small-refs.js';
import { normalizeUnions } from '../transforms/normalize-unions.js';

/**
 * Built-in transforms that create `$ref`s (`createsRefs`): pointless (and costly to undo) for a client that
 * cannot resolve them. Derived from the transforms' own flags; kept as a list for callers that want names.
 */
export const REF_CREATING_TRANSFORMS: readonly string[] = Object.freeze(builtinTransforms.filter((t) => t.createsRefs === true).map((t) => t.name));

/** Built-in transforms that move text into the server's `instructions` (`writesInstructions`): lost on a client that does not show them. */
export const INSTRUCTION_TRANSFORMS: readonly string[] = Object.freeze(builtinTransforms.filter((t) => t.writesInstructions === true).map((t) => t.name));

/** Options of {@link presetForProfile}. */
export interface PresetForProfileOptions extends PresetOptions {
  /** Passed to `adapt-to-client` (default 2). */
  readonly growthCap?: number;
  /**
   * Passed to `adapt-to-client`: bytes a schema may always grow by to become acceptable (default
   * 2,048: `PROFILE_GROWTH_ALLOWANCE`).
   */
  readonly growthAllowance?: number;
  /**
   * Run the profile's lossy conversions (default true): those adapt-to-client steps the profile asks for
   * that accept other arguments than the original (`relaxAssertions`, `describeFormats`, `closeObjects`)
   * or give a tool another name (`renameTools`), without which the client rejects the tool. `false` keeps
   * every verdict and every name, and reports those tools instead.
   */
  readonly lossy?: boolean;
  /**
   * With `lossy`, rename tools whose name the client refuses (default true). A renamed list is usable only
   * through a caller that maps each call back to the server's name (`toolRenamesOf(report)`; `toolslim
   * proxy` does): `false` keeps every name (and the client's `tool-name` findings) for output that goes
   * anywhere else.
   */
  readonly renameTools?: boolean;
  /**
   * Counts the reader's tokens where the plan measures a tool in its reader's unit (`inline-small-refs`
   * for a `typescript` reader). Without it, the rendered text's length in characters stands in (importing
   * toolslim never loads a tokenizer; pass `o200k` from `toolslim/tokens`).
   */
  readonly tokenizer?: Tokenizer;
  /**
   * For a `typescript` reader, run `inline-small-refs` after `normalize-unions` and before
   * `adapt-to-client` (default true, but false for a profile with strict-mode rules, `openai-strict`, whose
   * conversion rewrites kept definitions so that a second run could decide otherwise; `false` keeps every `$ref`). Each definition is inlined where that
   * grows the tool by at most 10% in the reader's own measure (see `tokenizer`) and does not raise the
   * count of types the reader cannot see; the step decides from the fully expanded tool, so running the
   * plan again changes nothing. Ignored for other readers.
   */
  readonly inlineRefs?: boolean;
}

const PROFILE_OPTION_KEYS: readonly string[] = ['overrides', 'growthCap', 'growthAllowance', 'lossy', 'renameTools', 'tokenizer', 'inlineRefs'];

/** A transform of the preset that {@link planForProfile} leaves out, and why. */
export interface SkippedStep {
  readonly transform: string;
  readonly reason: string;
}

/** What {@link planForProfile} runs for a profile, and what it leaves out of the preset. */
export interface ProfilePlan {
  /** Pass as `transforms` to `transformTools` (what {@link presetForProfile} returns). */
  readonly steps: TransformStepInput[];
  /** The preset's transforms left out for this client, each with the reason. */
  readonly skipped: readonly SkippedStep[];
}

/** Why `p` is better off without transform `t`, or undefined when it keeps it. */
function reasonToSkip(t: AnyTransform, p: ClientProfile): string | undefined {
  if (t.createsRefs === true && p.refs === 'none') return `\`${p.name}\` cannot resolve \`$ref\`, which ${t.name} writes`;
  if (t.createsRefs === true && p.reader.renderer === 'typescript') {
    return `\`${p.name}\` reads tools as TypeScript, where a \`$ref\` renders as \`any\`: ${t.name} would hide the type of every subtree it replaces`;
  }
  if (t.writesInstructions === true && !p.showsInstructions) return `\`${p.name}\` does not show the server's instructions: what ${t.name} moves there would be lost`;
  if (t.writesInstructions === true && p.reader.alwaysPaid !== 'everything') {
    return `\`${p.name}\` defers tool schemas and pays the server's instructions on every request: ${t.name} would move text from the deferred descriptions into the always-paid part`;
  }
  return undefined;
}

/**
 * A tool's size as `p`'s reader pays for it: the fields the client forwards, rendered by its renderer,
 * counted by `tokenizer` (or in characters without one).
 */
function readerMeasure(p: ClientProfile, tokenizer: Tokenizer | undefined): (tool: McpTool) => number {
  const renderer = getRenderer(p.reader.renderer);
  const fields = p.reader.forwards;
  return (tool) => {
    const t = tool as unknown as Record<string, unknown>;
    const forwarded = { name: typeof t.name === 'string' ? t.name : '', ...(fields.includes('description') && typeof t.description === 'string' ? { description: t.description } : {}), ...(fields.includes('inputSchema') && t.inputSchema !== undefined ? { inputSchema: t.inputSchema } : {}) };
    const text = renderer.renderTool(forwarded);
    return tokenizer ? tokenizer.count(text) : text.length;
  };
}

/**
 * Bytes a schema may always grow by in the profile-tuned preset, whatever the growth cap says: a tool the
 * client rejects is worth about 500 tokens more to make usable (the cap still stops a blow-up).
 */
export const PROFILE_GROWTH_ALLOWANCE = 2048;

/**
 * The options `preset` (with `overrides`) runs the built-in reconcile-dialect with, as the engine merges them
 * (the preset's, then the override's); undefined when it does not run it.
 */
function reconcileOptionsOf(preset: Preset, overrides: Readonly<Record<string, false | object>>): object | undefined {
  if (!preset.steps.includes(reconcileDialect as AnyTransform)) return undefined;
  const override = Object.prototype.hasOwnProperty.call(overrides, reconcileDialect.name) ? overrides[reconcileDialect.name] : undefined;
  if (override === false) return undefined;
  return { ...preset.options?.[reconcileDialect.name], ...override };
}

/**
 * The steps to run for a preset when the output goes to `profile`: the preset without the transforms that
 * create references when the client cannot resolve them (`ref-free`, `gemini`), and without those that
 * move text into the server's `instructions` when the client does not show them, then `adapt-to-client`
 * with the growth allowance and the lossy conversions the profile asks for (see
 * {@link PresetForProfileOptions.lossy}) and, when a lossy schema step is on, the options the preset runs
 * reconcile-dialect with (`reconcile`: adapt-to-client runs it again where a lossy step freed one of its
 * conversions, so one run reaches the fixed point). Pass the result as `transforms` to `transformTools`.
 */
export function presetForProfile(preset: Preset | string, profile: string | ClientProfile, options: PresetForProfileOptions = {}): TransformStepInput[] {
  return planForProfile(preset, profile, options).steps;
}

/**
 * {@link presetForProfile}, with what it leaves out of the preset and why: the transforms that create
 * references for a client that cannot resolve them or reads them as `any` (a `typescript` reader); those
 * that write the server's instructions for a client that does not show them, or that defers schemas (its
 * instructions are always paid, its descriptions are not). For a `typescript` reader without strict-mode rules
 * (`openai`) it adds `normalize-unions` before `adapt-to-client` (unions that reader reads as types, the same
 * verdicts). For a `typescript` reader it then runs
 * `inline-small-refs` (each definition inlined where the tool grows by at most 10% in the reader's own
 * measure; `inlineRefs: false` leaves it out) before `adapt-to-client`.
 */
export function planForProfile(preset: Preset | string, profile: string | ClientProfile, options: PresetForProfileOptions = {}): ProfilePlan {
  for (const key of Object.keys(options)) {
    if (!PROFILE_OPTION_KEYS.includes(key)) throw new ToolslimError('invalid-option', `presetForProfile: unknown option \`${key}\` (known: ${PROFILE_OPTION_KEYS.join(', ')})`);
  }
  const base = typeof preset === 'string' ? lookup(preset) : preset;
  if (typeof base !== 'object' || base === null || base.kind !== 'preset') throw new Error(`\`${String(preset)}\` is not a preset`);
  const p = getProfile(profile);
  // By the transforms' own flags, so a preset's custom transforms are judged like the built-in ones.
  const dropped = (t: AnyTransform) => reasonToSkip(t, p) !== undefined;
  // An override for a dropped transform is dropped with it, whether or not the preset has the transform.
  const drop = new Set<string>([...base.steps, ...builtinTransforms].filter(dropped).map((t) => t.name));
  const steps = base.steps.filter((t) => !drop.has(t.name));
  const skipped: SkippedStep[] = base.steps.filter((t) => drop.has(t.name)).map((t) => ({ transform: t.name, reason: reasonToSkip(t, p)! }));
  const { growthCap, growthAllowance, lossy, renameTools, overrides, tokenizer, inlineRefs } = options;
  if (tokenizer !== undefined && (typeof tokenizer !== 'object' || tokenizer === null || typeof tokenizer.count !== 'function')) {
    throw new ToolslimError('invalid-option', 'presetForProfile: `tokenizer` must have a count(text) method (import { o200k } from "toolslim/tokens")');
  }
  for (const [key, value] of [['lossy', lossy], ['renameTools', renameTools], ['inlineRefs', inlineRefs]] as const) {
    if (value !== undefined && typeof value !== 'boolean') throw new ToolslimError('invalid-option', `presetForProfile: \`${key}\` must be true or false`);
  }
  const kept: Record<string, false | object> = {};
  for (const [name, value] of Object.entries(overrides ?? {})) if (!drop.has(name)) kept[name] = value;
  const keptOptions = base.options === undefined ? undefined : Object.fromEntries(Object.entries(base.options).filter(([name]) => !drop.has(name)));
  const adapted = steps.length === base.steps.length ? base : definePreset(`${base.name}+${p.name}`, `${base.description} (for ${p.title})`, steps, keptOptions);
  const adaptOptions: Record<string, unknown> = { profile: typeof profile === 'string' ? profile : p };
  if (growthCap !== undefined) adaptOptions.growthCap = growthCap;
  adaptOptions.growthAllowance = growthAllowance ?? PROFILE_GROWTH_ALLOWANCE;
  // Only the lossy steps this profile asks for: a profile that needs none keeps adapt-to-client's own safety.
  let schemaLossy = false;
  if (lossy !== false) {
    for (const step of ADAPT_STEPS) {
      if (step.safety !== 'lossy' || step.option === undefined || !step.applies(p) || (step.option === 'renameTools' && renameTools === false)) continue;
      adaptOptions[step.option] = true;
      if (step.option !== 'renameTools') schemaLossy = true;
    }
  }
  // A lossy step may remove the `$ref` that held one of reconcile-dialect's conversions back: adapt-to-client
  // then runs it again, with the options the preset ran it with (see its `reconcile` option).
  const reconcile = schemaLossy ? reconcileOptionsOf(adapted, kept) : undefined;
  if (reconcile !== undefined) adaptOptions.reconcile = reconcile;
  // A typescript reader renders `anyOf`, a nullable object and a `const` as `any`: normalize-unions writes
  // each in a form it reads as a type, with the same verdicts, where the client accepts `oneOf`. Not for a
  // client with strict-mode rules (`openai-strict`): its conversion (close-objects) writes nullable
  // properties as `anyOf` with null, the form OpenAI's strict mode documents, which the next run's
  // normalize-unions would rewrite (the fuzz harness found it: the preset would not reach its fixed point).
  const unions: TransformStepInput[] = p.reader.renderer === 'typescript' && !p.rejected.includes('oneOf') && p.strict === undefined ? [normalizeUnions] : [];
  // inline-small-refs judges each tool as the reader will get it: after normalize-unions, which a copy may
  // let prove what a `$ref` hid (so normalize-unions runs again after it). Judged on that form, a second
  // run of the plan decides the same.
  const readerForm = unions.length > 0 ? (tool: McpTool): McpTool => normalizeUnions([tool]).tools[0] ?? tool : (tool: McpTool) => tool;
  const measureTool = readerMeasure(p, tokenizer);
  // Default on only without strict-mode rules: openai-strict's close-objects rewrites kept definitions after
  // the step, and the next run judges them anew (fuzz shard 1: not a fixed point); `inlineRefs: true` still runs it.
  const inline: TransformStepInput[] = (inlineRefs ?? p.strict === undefined) && p.reader.renderer === 'typescript' && !drop.has(inlineSmallRefs.name) ? [[inlineSmallRefs, { measure: (tool: McpTool) => measureTool(readerForm(tool)), hidden: (tool: McpTool) => findAnyTypes((readerForm(tool) as { inputSchema?: unknown }).inputSchema).length }]] : [];
  return { steps: [[adapted, { overrides: kept }], ...unions, ...inline, ...(inline.length > 0 ? unions : []), [adaptToClient, adaptOptions]], skipped };
}
