/**
 * wrap-ref (a 2019-09 or 2020-12 source, a draft-07 target): draft-07 ignores every keyword beside `$ref`,
 * so a `$ref` with siblings that change verdicts moves into `allOf`, where they and it both apply.
 */
import { hasOwn } from '../../../json/guards.js';
import { appendPointer } from '../../../json/pointer.js';
import { isLegacyDialect } from '../../../schema/dialect.js';
import { affectsVerdicts, at, current } from '../job.js';
import type { Conversion } from '../rule.js';

export const wrapRef: Conversion = {
  id: 'wrap-ref',
  codes: ['wrapped-ref'],
  runs: (s) => !isLegacyDialect(s.source) && isLegacyDialect(s.target),
  keywords: () => ['$ref'],
  convert(_node, _orig, cur, job, moves) {
    const now = current(job, cur);
    if (!isLegacyDialect(job.source) && typeof now.$ref === 'string' && hasOwn(now, '$ref')) {
      const verdictSiblings = Object.keys(now).filter((k) => k !== '$ref' && (affectsVerdicts(job.source, k) || affectsVerdicts(job.target, k) || k === '$id'));
      if (verdictSiblings.length > 0) {
        const ref = now.$ref;
        if (Array.isArray(now.allOf) && hasOwn(now, 'allOf')) {
          const index = now.allOf.length;
          job.ctx.add(appendPointer(at(job, cur, 'allOf'), '-'), { $ref: ref }, 'wrapped-ref', { target: job.target });
          job.ctx.remove(at(job, cur, '$ref'), 'wrapped-ref', { target: job.target });
          moves.keys.set('$ref', appendPointer(appendPointer(appendPointer(cur, 'allOf'), index), '$ref'));
        } else if (!hasOwn(now, 'allOf')) {
          job.ctx.rename(at(job, cur, '$ref'), 'allOf', 'wrapped-ref', { target: job.target });
          job.ctx.replace(at(job, cur, 'allOf'), [{ $ref: ref }], 'wrapped-ref', { target: job.target });
          moves.keys.set('$ref', appendPointer(appendPointer(appendPointer(cur, 'allOf'), 0), '$ref'));
        }
      }
    }
  },
};
