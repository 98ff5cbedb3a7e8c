import type { AnyTransform } from '../core/define-transform.js';
import { adaptToClient } from './adapt-to-client.js';
import { compressColdTools } from './compress-cold-tools.js';
import { pruneUnreachableDefs } from './prune-unreachable-defs.js';

/** Every built-in transform, sorted by name. */
export const builtinTransforms: readonly AnyTransform[] = Object.freeze([adaptToClient, compressColdTools, pruneUnreachableDefs]);

export { adaptToClient, compressColdTools, pruneUnreachableDefs };
