/**
 * The stamp (a part of its own, with fixtures in test/fixtures/reconcile-dialect/rules/stamp/): the output's
 * `$schema` by the `stamp` option, at the root and on an embedded subschema naming the source dialect.
 */
import { hasOwn } from '../../json/guards.js';
import { DIALECT_URIS, dialectFromUri } from '../../schema/dialect.js';
import { at, type Job } from './job.js';

/** The stamp's part id and the codes it writes. */
export const STAMP_PART = Object.freeze({ id: 'stamp', codes: Object.freeze(['removed-stamp', 'wrote-stamp']) });

/** What the stamp reads of a document's {@link Job} (a document with nothing to convert needs no more). */
export type StampJob = Pick<Job, 'ctx' | 'base' | 'target' | 'options'>;

/** The stamp policy for a `$schema` (the root's, or an embedded one naming the source dialect). */
export function writeStamp(node: Record<string, unknown>, cur: string, job: StampJob, isRoot: boolean): void {
  const policy = job.options.stamp ?? (job.target === '2020-12' ? 'omit' : 'write');
  const uri = DIALECT_URIS[job.target]!;
  const present = hasOwn(node, '$schema');
  const path = at(job, cur, '$schema');
  if (policy === 'omit') {
    if (present) job.ctx.remove(path, 'removed-stamp', { uri: String(node.$schema) });
    return;
  }
  if (present) {
    if (dialectFromUri(node.$schema) !== job.target) job.ctx.replace(path, uri, 'wrote-stamp', { uri });
  } else if (policy === 'write' && isRoot) {
    job.ctx.add(path, uri, 'wrote-stamp', { uri });
  }
}
