/**
 * definitions: a resource's definitions container is `definitions` in draft-04/06/07 and `$defs` in
 * 2019-09/2020-12. Renamed to the target's; when both are present the entries are merged into the
 * target's (renamed `name_2`… on a clash), unless a `$ref` addresses the container itself.
 */
import { hasOwn, isObject } from '../../../json/guards.js';
import { appendPointer } from '../../../json/pointer.js';
import { isLegacyDialect } from '../../../schema/dialect.js';
import type { Dialect } from '../../../schema/keywords.js';
import { idKeyword } from '../../../schema/refs.js';
import { at, current, removeKey, renameKey, type Job, type KeyMoves } from '../job.js';
import type { Conversion } from '../rule.js';

export const definitions: Conversion = {
  id: 'definitions',
  codes: ['renamed-definitions', 'merged-definition', 'removed-empty-container', 'kept-definitions'],
  runs: () => true,
  keywords: () => ['definitions', '$defs'],
  convert(node, orig, cur, job, moves) {
    if (!isResourceRoot(node, orig, job.source)) return;
    if (isLegacyDialect(job.target)) reconcileContainer(orig, cur, job, moves, '$defs', 'definitions');
    else reconcileContainer(orig, cur, job, moves, 'definitions', '$defs');
  },
};

/** The document root, or a subschema that starts a resource of its own (an `$id` that is not just a fragment). */
function isResourceRoot(node: Record<string, unknown>, orig: string, dialect: Dialect): boolean {
  if (orig === '') return true;
  const key = idKeyword(dialect);
  const id = hasOwn(node, key) ? node[key] : undefined;
  return typeof id === 'string' && !id.startsWith('#') && !(typeof node.$ref === 'string' && isLegacyDialect(dialect));
}

/** Renames (or merges) a resource's `from` definitions container into `to`. */
function reconcileContainer(orig: string, cur: string, job: Job, moves: KeyMoves, from: string, to: string): void {
  const now = current(job, cur);
  if (!hasOwn(now, from) || !isObject(now[from])) return;
  if (!hasOwn(now, to)) {
    renameKey(job, cur, from, to, moves, 'renamed-definitions', { from, to });
    return;
  }
  if (!isObject(now[to])) return;
  const fromPath = appendPointer(orig, from);
  if (job.targets.includes(fromPath)) {
    job.ctx.report('warning', 'kept-definitions', at(job, orig, from), { from, to });
    return;
  }
  const taken = new Set(Object.keys(now[to]));
  const entries = new Map<string, string>();
  const source = now[from];
  for (const name of Object.keys(source)) {
    const newName = uniqueName(name, taken);
    taken.add(newName);
    const dest = appendPointer(appendPointer(cur, to), newName);
    job.ctx.move(appendPointer(at(job, cur, from), name), job.base + dest, 'merged-definition', { name, from, to, newName });
    entries.set(name, dest);
  }
  removeKey(job, cur, from, moves, 'removed-empty-container', { keyword: from, to });
  moves.entries.set(from, entries);
}

/** `name`, or `name_2`, `name_3`… : the first not in `taken`. */
export function uniqueName(name: string, taken: ReadonlySet<string>): string {
  if (!taken.has(name)) return name;
  for (let i = 2; ; i++) {
    const candidate = `${name}_${i}`;
    if (!taken.has(candidate)) return candidate;
  }
}
