import { builtinPresets, presetSafe } from './presets/index.js';
import { builtinTransforms } from './transforms/index.js';
import type { AnyTransform } from './core/transform.js';
import { ToolslimError } from './core/errors.js';
import type { ToolsInput } from './engine/input.js';
import type { Preset, PresetOptions } from './core/preset.js';
import { runSteps, type RunOptions, type Step, type TransformResult } from './engine/run.js';

/** One entry of `transforms`: a name (transform or preset), a transform, a preset, or either with options. */
export type TransformStepInput =
  | string
  | AnyTransform
  | Preset
  | readonly [string | AnyTransform, object]
  | readonly [Preset, PresetOptions];

/** Options of {@link transformTools}. */
export interface TransformToolsOptions extends RunOptions {
  /** What to run, in order (default: the `safe` preset). */
  readonly transforms?: readonly TransformStepInput[];
}

/**
 * Rewrites a `tools/list` result. `input` may be a tools array, a `ListToolsResult`, a JSON-RPC response
 * holding one, or a capture file. The input is never changed; the output shares every unchanged subtree
 * with it (copy-on-write), so treat both as immutable or clone before editing.
 */
export function transformTools(input: ToolsInput, options: TransformToolsOptions = {}): TransformResult {
  const { transforms = [presetSafe], ...run } = options;
  return runSteps(input, resolveSteps(transforms), run);
}

/** Expands names, presets and tuples into ordered `[transform, options]` steps. */
export function resolveSteps(inputs: readonly TransformStepInput[]): Step[] {
  const steps: Step[] = [];
  for (const input of inputs) {
    const [target, options] = Array.isArray(input) ? (input as readonly [unknown, object]) : [input, undefined];
    const resolved = typeof target === 'string' ? lookup(target) : target;
    if (isPreset(resolved)) steps.push(...expandPreset(resolved, (options ?? {}) as PresetOptions));
    else if (isTransform(resolved)) steps.push([resolved, options ?? {}]);
    else throw new ToolslimError('unknown-transform', `not a transform or preset: ${String(target)}`);
  }
  return steps;
}

/** A built-in transform or preset by name. */
export function lookup(name: string): AnyTransform | Preset {
  const t = builtinTransforms.find((x) => x.name === name) ?? builtinPresets.find((p) => p.name === name);
  if (!t) {
    const known = [...builtinTransforms.map((x) => x.name), ...builtinPresets.map((p) => p.name)].join(', ');
    throw new ToolslimError('unknown-transform', `unknown transform or preset \`${name}\` (known: ${known})`);
  }
  return t;
}

function expandPreset(preset: Preset, options: PresetOptions): Step[] {
  const overrides = options.overrides ?? {};
  for (const name of Object.keys(overrides)) {
    if (!preset.steps.some((t) => t.name === name)) {
      throw new ToolslimError('invalid-option', `preset \`${preset.name}\` has no transform \`${name}\` (it has: ${preset.steps.map((t) => t.name).join(', ')})`);
    }
  }
  const steps: Step[] = [];
  for (const t of preset.steps) {
    const o = Object.prototype.hasOwnProperty.call(overrides, t.name) ? overrides[t.name] : {};
    if (o === false) continue;
    steps.push([t, o ?? {}]);
  }
  return steps;
}

function isPreset(x: unknown): x is Preset {
  return typeof x === 'object' && x !== null && (x as Preset).kind === 'preset';
}

function isTransform(x: unknown): x is AnyTransform {
  return typeof x === 'function' && (x as unknown as AnyTransform).kind === 'transform';
}
