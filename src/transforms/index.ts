import type { AnyTransform } from '../core/define-transform.js';
import { adaptToClient } from './adapt-to-client.js';
import { pruneUnreachableDefs } from './prune-unreachable-defs.js';

/** Every built-in transform, sorted by name. */
export const builtinTransforms: readonly AnyTransform[] = Object.freeze([adaptToClient, pruneUnreachableDefs]);

export { adaptToClient, pruneUnreachableDefs };
