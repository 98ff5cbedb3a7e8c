import type { AnyTransform } from './transform.js';

/** An ordered, frozen list of transforms. */
export interface Preset {
  readonly kind: 'preset';
  readonly name: string;
  readonly description: string;
  readonly steps: readonly AnyTransform[];
}

/** Tunes a preset: `false` leaves a transform out, an object sets its options. */
export interface PresetOptions {
  readonly overrides?: Readonly<Record<string, false | object>>;
}

/** Creates a frozen preset. */
export function definePreset(name: string, description: string, steps: readonly AnyTransform[]): Preset {
  return Object.freeze({ kind: 'preset', name, description, steps: Object.freeze([...steps]) });
}

/** One entry of `transforms`: a name (transform or preset), a transform, a preset, or either with options. */
export type TransformStepInput =
  | string
  | AnyTransform
  | Preset
  | readonly [string | AnyTransform, object]
  | readonly [Preset, PresetOptions];
