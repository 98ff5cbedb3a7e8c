/**
 * Identifiers used as anchors: toolslim resolves a plain-name fragment identifier (`$id: "#name"`, draft-04
 * `id: "#name"`) as an anchor, conservatively, so the conversions that rename or drop identifiers
 * (foreign-id, draft-04-id, identifiers, ref-siblings) first ask whether a live `$ref` finds the schema by
 * that name, and keep (or convert) it where one does.
 */
import { hasOwn } from '../../json/guards.js';
import { at, blocks, removeDead, renameKey, current, type Job, type KeyMoves } from './job.js';

/**
 * For an identifier keyword of another dialect holding `#name`, which toolslim resolves as an anchor
 * (conservatively): when a live `$ref` lands on this schema by that name, rewrites it as the target's
 * anchor (`to`: `$anchor`, or a draft-07 `$id`; kept as it is when that is its own key) and returns true;
 * when the name is not unique, or the anchor keyword is taken, the tool cannot be rewritten without
 * breaking that `$ref` (error, true). False when no live `$ref` needs it (dead referrers are removed).
 */
export function keepAsAnchor(orig: string, cur: string, job: Job, moves: KeyMoves, key: string, to: string): boolean {
  const now = current(job, cur);
  const id = now[key] as string;
  const name = id.startsWith('#') ? safeDecode(id.slice(1)) : '';
  if (name === '' || !anchorNeeded(job, orig, name)) return false;
  const unique = (job.anchorCounts.get(name) ?? 0) === 1 && PLAIN_NAME.test(name);
  if (unique && key === to) return true;
  const taken = hasOwn(now, to) || (to === '$anchor' && typeof now.$id === 'string' && now.$id.startsWith('#') && key !== '$id');
  if (unique && !taken) {
    renameKey(job, cur, key, to, moves, 'converted-id', { from: key, to });
    if (to === '$anchor') job.ctx.replace(at(job, cur, '$anchor'), name, 'converted-id', { from: `${key}: ${id}`, to: `$anchor: ${name}` });
    return true;
  }
  if (blocks(job, orig)) job.ctx.report('error', 'ambiguous-anchor', at(job, orig, key), { keyword: key, name });
  return true;
}

/** True when a `$ref` outside the dead definitions lands on `orig` by the anchor `name`; else its dead referrers are removed. */
function anchorNeeded(job: Job, orig: string, name: string): boolean {
  if (!job.anchorRefs.has(name)) return false;
  const dead: string[] = [];
  for (const r of job.refTargets) {
    if (r.anchor !== name || r.target !== orig) continue;
    if (r.siteDef === undefined || !job.deadDefs.includes(r.siteDef)) return true;
    dead.push(r.siteDef);
  }
  for (const d of dead) removeDead(job, d);
  return false;
}

/** True for a plain-name fragment identifier (`#name`) that a `$ref` uses and nothing else declares. */
export function usedAsAnchor(job: Job, id: string): boolean {
  const name = id.startsWith('#') ? safeDecode(id.slice(1)) : '';
  return name !== '' && job.anchorRefs.has(name) && (job.anchorCounts.get(name) ?? 0) === 1 && PLAIN_NAME.test(name);
}

/** An anchor name every dialect accepts (2020-12's `$anchor` grammar). */
export const PLAIN_NAME = /^[A-Za-z_][-A-Za-z0-9._]*$/;

export function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
