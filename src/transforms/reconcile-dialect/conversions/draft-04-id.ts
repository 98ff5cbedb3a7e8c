/**
 * draft-04-id (any source but draft-04): `id` is draft-04's identifier and no keyword elsewhere (ajv
 * refuses it). It is removed, or becomes the target's anchor where a live `$ref` finds the schema by its
 * plain-name fragment (see anchors.ts).
 */
import { hasOwn } from '../../../json/guards.js';
import { keepAsAnchor } from '../anchors.js';
import { current, removeKey, type Job, type KeyMoves } from '../job.js';
import type { Conversion } from '../rule.js';

export const draft04Id: Conversion = {
  id: 'draft-04-id',
  codes: ['dropped-inert-keyword', 'converted-id', 'ambiguous-anchor'],
  runs: (s) => s.source !== 'draft-04',
  keywords: () => ['id'],
  convert: (_node, orig, cur, job, moves) => dropDraft04Id(orig, cur, job, moves),
};

/**
 * `id` outside draft-04 is not a keyword (draft-06 renamed it `$id`): readers ignore it, and ajv refuses
 * a schema holding it ("NOT SUPPORTED: keyword id"). It is removed, except a plain-name fragment a `$ref`
 * uses, which toolslim resolves as an anchor: that one becomes the target's anchor (`$anchor`, or a
 * draft-07 `$id: "#name"`).
 */
function dropDraft04Id(orig: string, cur: string, job: Job, moves: KeyMoves): void {
  if (job.source === 'draft-04') return;
  const now = current(job, cur);
  if (!hasOwn(now, 'id') || typeof now.id !== 'string') return;
  if (keepAsAnchor(orig, cur, job, moves, 'id', job.target === 'draft-07' ? '$id' : '$anchor')) return;
  removeKey(job, cur, 'id', moves, 'dropped-inert-keyword', { keyword: 'id', why: `\`id\` is draft-04's identifier: ${job.source} readers ignore it, and ajv refuses it` });
}
