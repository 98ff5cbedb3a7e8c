/**
 * foreign-keywords (any pair): a keyword of a newer dialect than the source's (`prefixItems` in draft-07)
 * is ignored by the source's readers and would apply in the target's, so it is dropped; or kept with
 * `foreignKeywords: keep`; or, when a `$ref` points into it, the tool is left unchanged.
 */
import { appendPointer } from '../../../json/pointer.js';
import { keywordFit } from '../../../schema/dialect.js';
import { DIALECTS, type Dialect } from '../../../schema/keywords.js';
import { affectsVerdicts, at, current, isTargetedLive, removeKey, type Job, type KeyMoves } from '../job.js';
import type { Conversion } from '../rule.js';

export const foreignKeywords: Conversion = {
  id: 'foreign-keywords',
  codes: ['dropped-foreign-keyword', 'kept-foreign-keyword', 'referenced-foreign-keyword'],
  runs: () => true,
  keywords: (scope) => scope.foreign,
  convert: (_node, orig, cur, job, moves) => dropForeignKeywords(orig, cur, job, moves),
};

const NEWNESS: Readonly<Record<Dialect, number>> = { 'draft-04': 0, 'openapi-3.0': 0, 'draft-06': 1, 'draft-07': 2, '2019-09': 3, '2020-12': 4 };

/** Keywords of a newer dialect than the source's: its readers ignore them, the target's would apply them. */
function dropForeignKeywords(orig: string, cur: string, job: Job, moves: KeyMoves): void {
  const node = current(job, cur);
  const candidates = job.pair.foreign;
  for (const key of Object.keys(node)) {
    if (key === 'nullable' || key === '$ref' || !candidates.has(key)) continue;
    const value = node[key];
    if (keywordFit(job.source, key, value) !== 'unknown' || keywordFit(job.target, key, value) !== 'fits' || !affectsVerdicts(job.target, key)) continue;
    const older = DIALECTS.filter((d) => keywordFit(d, key, value) === 'fits' && NEWNESS[d] <= NEWNESS[job.source]);
    if (older.length > 0) continue;
    const newer = DIALECTS.filter((d) => keywordFit(d, key, value) === 'fits').join('/');
    const data = { keyword: key, dialect: job.source, target: job.target, newer };
    if (job.options.foreignKeywords === 'keep') job.ctx.report('info', 'kept-foreign-keyword', at(job, orig, key), { ...data, why: 'option `foreignKeywords: keep`' });
    else if (isTargetedLive(job, appendPointer(orig, key))) {
      // Dropping it would break the `$ref` that points into it, and keeping it would make it apply.
      job.unconvertible++;
      job.ctx.report('error', 'referenced-foreign-keyword', at(job, orig, key), data);
    } else removeKey(job, cur, key, moves, 'dropped-foreign-keyword', data);
  }
}
