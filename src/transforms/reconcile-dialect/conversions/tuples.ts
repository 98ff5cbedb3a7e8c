/**
 * tuples: draft-04/06/07 write a tuple as array `items` (the rest in `additionalItems`), 2019-09 too;
 * 2020-12 as `prefixItems` (the rest in `items`). Renamed either way; `additionalItems` beside a
 * non-array `items` has no effect and goes. A tuple holding an identifier a reference uses is left
 * (ajv registers none inside `prefixItems`), and the tool with it.
 */
import { hasOwn } from '../../../json/guards.js';
import { appendPointer } from '../../../json/pointer.js';
import { isLegacyDialect } from '../../../schema/dialect.js';
import { at, blocks, current, isTargetedLive, removeKey, renameKey, type Job, type KeyMoves } from '../job.js';
import type { Conversion } from '../rule.js';

export const tuples: Conversion = {
  id: 'tuples',
  codes: ['converted-tuple', 'tuple-id', 'dropped-inert-keyword'],
  runs: () => true,
  keywords: (s) => (isLegacyDialect(s.target) ? ['prefixItems'] : ['items', 'additionalItems']),
  convert(_node, orig, cur, job, moves) {
    if (isLegacyDialect(job.target)) tuplesToLegacy(cur, job, moves);
    else tuplesToModern(orig, cur, job, moves);
  },
};

/** Array `items` → `prefixItems`, `additionalItems` → `items`. */
function tuplesToModern(orig: string, cur: string, job: Job, moves: KeyMoves): void {
  const now = current(job, cur);
  if (Array.isArray(now.items) && hasOwn(now, 'items')) {
    const hidden = usedResourceIn(job, appendPointer(orig, 'items'));
    if (hidden !== undefined && blocks(job, orig)) {
      job.ctx.report('error', 'tuple-id', job.base + hidden.path + '/$id', { id: hidden.id, at: at(job, orig, 'items') });
    } else if (!hasOwn(now, 'prefixItems')) {
      renameKey(job, cur, 'items', 'prefixItems', moves, 'converted-tuple', { from: 'items', to: 'prefixItems', target: job.target });
      if (hasOwn(now, 'additionalItems')) renameKey(job, cur, 'additionalItems', 'items', moves, 'converted-tuple', { from: 'additionalItems', to: 'items', target: job.target });
    }
  } else if (hasOwn(now, 'additionalItems') && !isTargetedLive(job, appendPointer(orig, 'additionalItems'))) {
    removeKey(job, cur, 'additionalItems', moves, 'dropped-inert-keyword', { keyword: 'additionalItems', why: '`items` is not an array' });
  }
}

/** `items` → `additionalItems`, `prefixItems` → array `items`. */
function tuplesToLegacy(cur: string, job: Job, moves: KeyMoves): void {
  const now = current(job, cur);
  if (Array.isArray(now.prefixItems) && hasOwn(now, 'prefixItems') && !hasOwn(now, 'additionalItems')) {
    if (hasOwn(now, 'items')) renameKey(job, cur, 'items', 'additionalItems', moves, 'converted-tuple', { from: 'items', to: 'additionalItems', target: job.target });
    renameKey(job, cur, 'prefixItems', 'items', moves, 'converted-tuple', { from: 'prefixItems', to: 'items', target: job.target });
  }
}

/**
 * An embedded resource below `path` that a reference uses (one sits inside it, or lands in it), if any:
 * ajv finds identifiers with json-schema-traverse, which does not descend into `prefixItems`, so inside
 * it such a resource is unknown to ajv and the references fail to resolve.
 */
function usedResourceIn(job: Job, path: string): { path: string; id: string } | undefined {
  const within = (p: string, root: string) => p === root || p.startsWith(root + '/');
  for (const res of job.resources) {
    if (!within(res.path, path)) continue;
    if (job.refTargets.some((r) => within(r.site, res.path) || within(r.target, res.path))) return res;
  }
  return undefined;
}
