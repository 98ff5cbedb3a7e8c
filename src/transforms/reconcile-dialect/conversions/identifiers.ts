/**
 * identifiers: draft-04's `id` becomes `$id`; a plain-name fragment identifier (`$id: "#name"`) becomes
 * 2020-12's `$anchor`, and `$anchor` becomes draft-07's `$id: "#name"`. An identifier with a fragment
 * after a base URI, or an anchor name that is not unique, cannot be said in 2020-12: the tool is left.
 */
import { hasOwn } from '../../../json/guards.js';
import { isLegacyDialect } from '../../../schema/dialect.js';
import { PLAIN_NAME, safeDecode } from '../anchors.js';
import { at, blocks, current, removeKey, renameKey, type Job, type KeyMoves } from '../job.js';
import type { Conversion } from '../rule.js';

export const identifiers: Conversion = {
  id: 'identifiers',
  codes: ['converted-id', 'ambiguous-anchor', 'unconvertible', 'dropped-inert-keyword'],
  runs: () => true,
  keywords: (s) => (isLegacyDialect(s.target) ? ['id', '$id', '$anchor'] : ['id', '$id']),
  convert(_node, orig, cur, job, moves) {
    if (isLegacyDialect(job.target)) identifiersToLegacy(cur, job, moves);
    else convertIdToModern(orig, cur, job, moves);
  },
};

/** Draft-04 `id` → `$id`; `$anchor` → `$id: "#name"`. */
function identifiersToLegacy(cur: string, job: Job, moves: KeyMoves): void {
  let now = current(job, cur);
  if (job.source === 'draft-04' && typeof now.id === 'string' && hasOwn(now, 'id') && !hasOwn(now, '$id')) {
    renameKey(job, cur, 'id', '$id', moves, 'converted-id', { from: 'id', to: '$id' });
  }
  now = current(job, cur);
  if (typeof now.$anchor === 'string' && hasOwn(now, '$anchor') && !hasOwn(now, '$id')) {
    const name = now.$anchor;
    renameKey(job, cur, '$anchor', '$id', moves, 'converted-id', { from: '$anchor', to: '$id' });
    job.ctx.replace(at(job, cur, '$id'), '#' + name, 'converted-id', { from: `$anchor: ${name}`, to: `$id: #${name}` });
  }
}

function convertIdToModern(orig: string, cur: string, job: Job, moves: KeyMoves): void {
  const now = current(job, cur);
  const key = job.source === 'draft-04' ? 'id' : job.source === 'openapi-3.0' ? undefined : '$id';
  if (key === undefined || !hasOwn(now, key) || typeof now[key] !== 'string') return;
  const id = now[key] as string;
  const hash = id.indexOf('#');
  if (hash === 0) {
    const name = safeDecode(id.slice(1));
    if (name === '' || hasOwn(now, '$anchor') || !PLAIN_NAME.test(name)) {
      // A `$ref` that uses the name would find nothing in the target: `id` is no keyword there.
      if (name !== '' && job.anchorRefs.has(name)) {
        if (blocks(job, orig)) job.ctx.report('error', 'ambiguous-anchor', at(job, orig, key), { keyword: key, name });
      } else if (key === 'id') {
        removeKey(job, cur, 'id', moves, 'dropped-inert-keyword', { keyword: 'id', why: `no \`$ref\` uses it, it cannot become \`$anchor\` here, and ajv refuses \`id\`` });
      }
      return;
    }
    renameKey(job, cur, key, '$anchor', moves, 'converted-id', { from: key, to: '$anchor' });
    job.ctx.replace(at(job, cur, '$anchor'), name, 'converted-id', { from: `${key}: ${id}`, to: `$anchor: ${name}` });
    return;
  }
  if (hash !== -1 && hash !== id.length - 1) {
    if (!blocks(job, orig)) return;
    job.ctx.report('error', 'unconvertible', at(job, orig, key), { keyword: key, dialect: job.source, target: job.target, reason: ` with a fragment (\`${id}\`); use \`$anchor\`` });
    return;
  }
  if (key === 'id' && !hasOwn(now, '$id')) renameKey(job, cur, 'id', '$id', moves, 'converted-id', { from: 'id', to: '$id' });
}
