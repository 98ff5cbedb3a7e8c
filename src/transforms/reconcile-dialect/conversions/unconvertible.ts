/**
 * unconvertible (a finding, last; source and target differ): a keyword that changes verdicts in the
 * source and that no conversion before it could say in the target (`$dynamicRef` for draft-07,
 * `$recursiveRef` for 2020-12) keeps the tool as it was, reported; one in a dead definition removes that
 * definition instead.
 */
import { keywordFit } from '../../../schema/dialect.js';
import { KEYWORD_TABLES, type Dialect } from '../../../schema/keywords.js';
import { at, blocks, current, mattersIn, type Job } from '../job.js';
import type { Conversion } from '../rule.js';

export const unconvertible: Conversion = {
  id: 'unconvertible',
  codes: ['unconvertible'],
  runs: (s) => s.source !== s.target,
  keywords: (s) => s.unconvertible,
  convert: (_node, orig, cur, job) => reportUnconvertible(orig, cur, job),
};

/** Keywords that change verdicts in the source and that nothing above could express in the target. */
function reportUnconvertible(orig: string, cur: string, job: Job): void {
  if (job.source === job.target) return;
  const now = current(job, cur);
  const candidates = job.pair.unconvertible;
  for (const key of Object.keys(now)) {
    if (key === '$schema' || !candidates.has(key)) continue;
    const value = now[key];
    if (keywordFit(job.source, key, value) !== 'fits' || !mattersIn(job.source, key) || expressibleIn(job.target, job.source, key, value)) continue;
    const reason = key === '$anchor' ? ' here (the schema already has an `$id`)' : '';
    if (!blocks(job, orig)) continue;
    job.ctx.report('error', 'unconvertible', at(job, orig, key), { keyword: key, dialect: job.source, target: job.target, reason });
  }
}

/**
 * Whether a keyword means the same in the target: a keyword of the target, and not one the target only
 * describes as deprecated (`$recursiveRef` in 2020-12) unless it is deprecated in the source too or is a
 * definitions container (which any reader resolves by pointer).
 */
function expressibleIn(target: Dialect, source: Dialect, key: string, value: unknown): boolean {
  if (keywordFit(target, key, value) !== 'fits') return false;
  const info = KEYWORD_TABLES[target].get(key);
  return !info?.deprecated || info.role === 'definitions' || KEYWORD_TABLES[source].get(key)?.deprecated === true;
}
