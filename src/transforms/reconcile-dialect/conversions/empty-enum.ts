/**
 * empty-enum (a finding, any pair): `enum: []` accepts nothing, and strict readers refuse the schema. Reported
 * (about the source: kept when the rewrite is dropped), never rewritten.
 */
import { hasOwn } from '../../../json/guards.js';
import { current } from '../job.js';
import type { Conversion } from '../rule.js';

export const emptyEnum: Conversion = {
  id: 'empty-enum',
  codes: ['empty-enum'],
  runs: () => true,
  keywords: () => [],
  matchesValue: { keyword: 'enum', test: (value) => Array.isArray(value) && value.length === 0 },
  convert(_node, orig, cur, job) {
    const now = current(job, cur);
    if (Array.isArray(now.enum) && now.enum.length === 0 && hasOwn(now, 'enum')) job.ctx.report('warning', 'empty-enum', job.base + orig + '/enum');
  },
};
