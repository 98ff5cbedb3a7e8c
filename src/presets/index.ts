import type { AnyTransform } from '../core/transform.js';
import { ToolslimError } from '../core/errors.js';
import { definePreset, type Preset } from '../core/preset.js';
import { builtinTransforms } from '../transforms/index.js';
import { dedupeRepeatedSubtrees } from '../transforms/dedupe-repeated-subtrees.js';
import { hoistNestedDefs } from '../transforms/hoist-nested-defs.js';
import { normalizeSchema } from '../transforms/normalize-schema.js';
import { promoteCommonParams } from '../transforms/promote-common-params.js';
import { pruneUnreachableDefs } from '../transforms/prune-unreachable-defs.js';
import { reconcileDialect } from '../transforms/reconcile-dialect/index.js';
import { stripNoise } from '../transforms/strip-noise/index.js';
import { stripVendorExtensions } from '../transforms/strip-vendor-extensions.js';

/**
 * Transforms that never change which instances a schema accepts: the dialect a schema is stamped with is
 * the one its keywords use, nested definitions sit at the root, unreachable ones are gone, and redundant
 * keywords are removed. Annotations a reader sees stay, except `title` and `$comment` (normalize-schema).
 */
export const presetLossless: Preset = definePreset('lossless', 'Rewrites that keep every validation verdict (only `title` and `$comment` annotations go)', [
  reconcileDialect,
  hoistNestedDefs,
  pruneUnreachableDefs,
  normalizeSchema,
]);

/** The default: `lossless` plus annotation-level cleanups (noisy descriptions, vendor extensions). */
export const presetSafe: Preset = definePreset('safe', 'The default: lossless rewrites plus annotation-level noise removal', [...presetLossless.steps, stripNoise, stripVendorExtensions]);

/**
 * Opt-in: `safe` plus rewrites for clients that follow the spec (resolve `$ref`) and show the server's
 * `instructions` to the model; promote-common-params also moves sentences every tool repeats.
 */
export const presetMax: Preset = definePreset(
  'max',
  'For clients that resolve $ref and show server instructions: safe plus deduplication and promoted parameter descriptions and shared sentences',
  [...presetSafe.steps, dedupeRepeatedSubtrees, promoteCommonParams],
  { 'promote-common-params': { sentences: true } },
);

/** Every built-in preset, by name. */
export const builtinPresets: readonly Preset[] = Object.freeze([presetLossless, presetSafe, presetMax]);

/** A built-in transform or preset by name. */
export function lookup(name: string): AnyTransform | Preset {
  const t = builtinTransforms.find((x) => x.name === name) ?? builtinPresets.find((p) => p.name === name);
  if (!t) {
    const known = [...builtinTransforms.map((x) => x.name), ...builtinPresets.map((p) => p.name)].join(', ');
    throw new ToolslimError('unknown-transform', `unknown transform or preset \`${name}\` (known: ${known})`);
  }
  return t;
}
