import type { AnyTransform } from './transform.js';

/** An ordered, frozen list of transforms. */
export interface Preset {
  readonly kind: 'preset';
  readonly name: string;
  readonly description: string;
  readonly steps: readonly AnyTransform[];
  /** Options the preset gives some of its steps, by transform name (an override object is merged over them). */
  readonly options?: Readonly<Record<string, Readonly<object>>>;
}

/** Tunes a preset: `false` leaves a transform out, an object sets its options. */
export interface PresetOptions {
  readonly overrides?: Readonly<Record<string, false | object>>;
}

/** Creates a frozen preset; `options` sets some steps' options (by transform name). */
export function definePreset(name: string, description: string, steps: readonly AnyTransform[], options?: Readonly<Record<string, object>>): Preset {
  const base = { kind: 'preset' as const, name, description, steps: Object.freeze([...steps]) };
  if (options === undefined) return Object.freeze(base);
  for (const key of Object.keys(options)) if (!steps.some((t) => t.name === key)) throw new Error(`preset \`${name}\` sets options for \`${key}\`, which is not one of its steps`);
  const frozen = Object.fromEntries(Object.entries(options).map(([k, v]) => [k, Object.freeze({ ...v })]));
  return Object.freeze({ ...base, options: Object.freeze(frozen) });
}

/** One entry of `transforms`: a name (transform or preset), a transform, a preset, or either with options. */
export type TransformStepInput =
  | string
  | AnyTransform
  | Preset
  | readonly [string | AnyTransform, object]
  | readonly [Preset, PresetOptions];
