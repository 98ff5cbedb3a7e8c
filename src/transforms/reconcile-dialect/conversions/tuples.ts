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
  // To a modern target only array `items` is a tuple (object `items` means the same in every dialect).
  keywordTests: () => ITEMS_TUPLE,
  convert(_node, orig, cur, job, moves) {
    if (isLegacyDialect(job.target)) tuplesToLegacy(cur, job, moves);
    else tuplesToModern(orig, cur, job, moves);
  },
};

const ITEMS_TUPLE: ReadonlyMap<string, (value: unknown) => boolean> = new Map([['items', (value: unknown) => Array.isArray(value)]]);

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
 * it such a resource is unknown to ajv and the references fail to resolve. The first such resource in
 * document order, found through {@link usedResources}: reading every resource, and every reference for each
 * one below the tuple, per tuple was quadratic (8,000 tuples each holding a resource a reference names: 6.5 s).
 */
function usedResourceIn(job: Job, path: string): { path: string; id: string } | undefined {
  const { sorted, paths } = usedResources(job);
  let best = -1;
  // Those at `path`, then those below it: the sorted roots from `path/` up to `path0` ('0' follows '/').
  for (let i = lowerBound(sorted, paths, path); i < sorted.length && paths[sorted[i]!] === path; i++) if (best === -1 || sorted[i]! < best) best = sorted[i]!;
  const end = path + '0';
  for (let i = lowerBound(sorted, paths, path + '/'); i < sorted.length && paths[sorted[i]!]! < end; i++) if (best === -1 || sorted[i]! < best) best = sorted[i]!;
  return best === -1 ? undefined : job.resources[best];
}

/** The first place in `sorted` (indexes into `paths`, by path) whose path is not before `key`. */
function lowerBound(sorted: readonly number[], paths: readonly string[], key: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (paths[sorted[mid]!]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Of `job`'s resources, those a reference uses (one sits inside it or lands in it: a resource whose root is
 * a reference's site or target, or a prefix of one), as indexes into `job.resources` sorted by root, built on
 * the job's first tuple.
 */
function usedResources(job: Job): { readonly sorted: readonly number[]; readonly paths: readonly string[] } {
  let used = USED.get(job);
  if (used !== undefined) return used;
  const paths = job.resources.map((r) => r.path);
  const roots = new Set(paths);
  const usedRoots = new Set<string>();
  const mark = (p: string) => {
    if (roots.has(p)) usedRoots.add(p);
    for (let k = p.lastIndexOf('/'); k >= 0; k = k === 0 ? -1 : p.lastIndexOf('/', k - 1)) if (roots.has(p.slice(0, k))) usedRoots.add(p.slice(0, k));
  };
  for (const r of job.refTargets) {
    mark(r.site);
    mark(r.target);
  }
  const sorted: number[] = [];
  for (let i = 0; i < paths.length; i++) if (usedRoots.has(paths[i]!)) sorted.push(i);
  sorted.sort((a, b) => (paths[a]! < paths[b]! ? -1 : paths[a]! > paths[b]! ? 1 : a - b));
  USED.set(job, (used = { sorted, paths }));
  return used;
}

const USED = new WeakMap<Job, { readonly sorted: readonly number[]; readonly paths: readonly string[] }>();
