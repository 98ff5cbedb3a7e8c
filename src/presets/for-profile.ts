import { lookup } from './index.js';
import type { TransformStepInput } from '../core/preset.js';
import { definePreset, type Preset, type PresetOptions } from '../core/preset.js';
import { ADAPT_STEPS, adaptToClient } from '../transforms/adapt-to-client/index.js';
import { getProfile, type ClientProfile } from '../profiles/profiles.js';

/** Transforms that create `$ref`s: pointless (and costly to undo) for a client that cannot resolve them. */
export const REF_CREATING_TRANSFORMS: readonly string[] = Object.freeze(['dedupe-repeated-subtrees']);

/** Transforms that move text into the server's `instructions`: lost on a client that does not show them. */
export const INSTRUCTION_TRANSFORMS: readonly string[] = Object.freeze(['promote-common-params']);

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
   * that accept other arguments than the original (`relaxAssertions`, `describeFormats`, `closeObjects`),
   * without which the client rejects the tool. `false` keeps every verdict and reports those tools instead.
   */
  readonly lossy?: boolean;
}

/**
 * Bytes a schema may always grow by in the profile-tuned preset, whatever the growth cap says: a tool the
 * client rejects is worth about 500 tokens more to make usable (the cap still stops a blow-up).
 */
export const PROFILE_GROWTH_ALLOWANCE = 2048;

/**
 * The steps to run for a preset when the output goes to `profile`: the preset without the transforms that
 * create references when the client cannot resolve them (`ref-free`, `gemini`), and without those that
 * move text into the server's `instructions` when the client does not show them, then `adapt-to-client`
 * with the growth allowance and the lossy conversions the profile asks for (see
 * {@link PresetForProfileOptions.lossy}). Pass the result as `transforms` to `transformTools`.
 */
export function presetForProfile(preset: Preset | string, profile: string | ClientProfile, options: PresetForProfileOptions = {}): TransformStepInput[] {
  const base = typeof preset === 'string' ? lookup(preset) : preset;
  if (typeof base !== 'object' || base === null || base.kind !== 'preset') throw new Error(`\`${String(preset)}\` is not a preset`);
  const p = getProfile(profile);
  const drop = new Set<string>([...(p.refs === 'none' ? REF_CREATING_TRANSFORMS : []), ...(p.showsInstructions ? [] : INSTRUCTION_TRANSFORMS)]);
  const steps = base.steps.filter((t) => !drop.has(t.name));
  const { growthCap, growthAllowance, lossy, overrides, ...rest } = options;
  const kept: Record<string, false | object> = {};
  for (const [name, value] of Object.entries(overrides ?? {})) if (!drop.has(name)) kept[name] = value;
  const keptOptions = base.options === undefined ? undefined : Object.fromEntries(Object.entries(base.options).filter(([name]) => !drop.has(name)));
  const adapted = steps.length === base.steps.length ? base : definePreset(`${base.name}+${p.name}`, `${base.description} (for ${p.title})`, steps, keptOptions);
  const adaptOptions: Record<string, unknown> = { profile: typeof profile === 'string' ? profile : p };
  if (growthCap !== undefined) adaptOptions.growthCap = growthCap;
  adaptOptions.growthAllowance = growthAllowance ?? PROFILE_GROWTH_ALLOWANCE;
  // Only the lossy steps this profile asks for: a profile that needs none keeps adapt-to-client's own safety.
  if (lossy !== false) for (const step of ADAPT_STEPS) if (step.safety === 'lossy' && step.option !== undefined && step.applies(p)) adaptOptions[step.option] = true;
  return [[adapted, { ...rest, overrides: kept }], [adaptToClient, adaptOptions]];
}
