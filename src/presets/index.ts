import { definePreset, type Preset } from '../core/preset.js';
import { hoistNestedDefs } from '../transforms/hoist-nested-defs.js';
import { pruneUnreachableDefs } from '../transforms/prune-unreachable-defs.js';
import { reconcileDialect } from '../transforms/reconcile-dialect.js';

/** Transforms that never change which instances a schema accepts, nor any annotation a reader sees. */
export const presetLossless: Preset = definePreset('lossless', 'Rewrites that keep every validation verdict and every annotation', [reconcileDialect, hoistNestedDefs, pruneUnreachableDefs]);

/** The default: `lossless` plus annotation-level cleanups. */
export const presetSafe: Preset = definePreset('safe', 'The default: lossless rewrites plus annotation-level noise removal', [...presetLossless.steps]);

/** Every built-in preset, by name. */
export const builtinPresets: readonly Preset[] = Object.freeze([presetLossless, presetSafe]);
