import type { AnyTransform } from '../core/define-transform.js';
import { hoistNestedDefs } from './hoist-nested-defs.js';
import { pruneUnreachableDefs } from './prune-unreachable-defs.js';
import { reconcileDialect } from './reconcile-dialect.js';

/** Every built-in transform, sorted by name. */
export const builtinTransforms: readonly AnyTransform[] = Object.freeze([hoistNestedDefs, pruneUnreachableDefs, reconcileDialect]);

export { hoistNestedDefs, pruneUnreachableDefs, reconcileDialect };
