import { definePreset, type Preset } from '../core/preset.js';
import { dedupeRepeatedSubtrees } from '../transforms/dedupe-repeated-subtrees.js';
import { normalizeSchema } from '../transforms/normalize-schema.js';
import { promoteCommonParams } from '../transforms/promote-common-params.js';
import { pruneUnreachableDefs } from '../transforms/prune-unreachable-defs.js';
import { stripNoise } from '../transforms/strip-noise.js';

/**
 * Transforms that never change which instances a schema accepts. Annotations a reader sees stay, except
 * `title` and `$comment` (normalize-schema).
 */
export const presetLossless: Preset = definePreset('lossless', 'Rewrites that keep every validation verdict (only `title` and `$comment` annotations go)', [pruneUnreachableDefs, normalizeSchema]);

/** The default: `lossless` plus annotation-level cleanups. */
export const presetSafe: Preset = definePreset('safe', 'The default: lossless rewrites plus annotation-level noise removal', [...presetLossless.steps, stripNoise]);

/**
 * Opt-in: `safe` plus rewrites for clients that follow the spec (resolve `$ref`) and show the server's
 * `instructions` to the model.
 */
export const presetMax: Preset = definePreset('max', 'For clients that resolve $ref and show server instructions: safe plus deduplication and promoted parameter descriptions', [
  ...presetSafe.steps,
  dedupeRepeatedSubtrees,
  promoteCommonParams,
]);

/** Every built-in preset, by name. */
export const builtinPresets: readonly Preset[] = Object.freeze([presetLossless, presetSafe, presetMax]);
