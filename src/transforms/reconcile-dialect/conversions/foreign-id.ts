/**
 * foreign-id (a draft-04 or OpenAPI 3.0 source): `$id` is no keyword there, so its readers ignore it; a
 * newer reader would take it as a resource boundary. It is removed, or kept as the target's anchor where
 * a live `$ref` finds the schema by its plain-name fragment (see anchors.ts).
 */
import { hasOwn } from '../../../json/guards.js';
import { keepAsAnchor } from '../anchors.js';
import { current, removeKey, type Job, type KeyMoves } from '../job.js';
import type { Conversion } from '../rule.js';

export const foreignId: Conversion = {
  id: 'foreign-id',
  codes: ['dropped-foreign-keyword', 'converted-id', 'ambiguous-anchor'],
  runs: (s) => s.source === 'draft-04' || s.source === 'openapi-3.0',
  keywords: () => ['$id'],
  convert: (_node, orig, cur, job, moves) => dropForeignId(orig, cur, job, moves),
};

/**
 * `$id` in a draft-04 or OpenAPI 3.0 schema is not a keyword there (draft-04 names a schema with `id`;
 * OpenAPI 3.0 schema objects have neither), so its readers ignore it; a draft-07 or 2020-12 reader takes
 * it as a resource boundary, and the `$ref`s below it would resolve against it instead of the document.
 * It is removed, except a plain-name fragment (`#name`) that a `$ref` uses, which toolslim resolves as
 * an anchor (conservatively): that one becomes `$anchor` (2020-12) or stays (draft-07).
 */
function dropForeignId(orig: string, cur: string, job: Job, moves: KeyMoves): void {
  if (job.source !== 'draft-04' && job.source !== 'openapi-3.0') return;
  const now = current(job, cur);
  if (!hasOwn(now, '$id') || typeof now.$id !== 'string') return;
  // draft-07 writes an anchor as `$id: "#name"`: a needed one can stay as it is.
  const keep = job.target === 'draft-07' ? '$id' : '$anchor';
  if (keepAsAnchor(orig, cur, job, moves, '$id', keep)) return;
  removeKey(job, cur, '$id', moves, 'dropped-foreign-keyword', { keyword: '$id', dialect: job.source, target: job.target, newer: 'draft-06/draft-07/2019-09/2020-12' });
}
