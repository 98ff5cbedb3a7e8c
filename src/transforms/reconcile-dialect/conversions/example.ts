/**
 * example (an OpenAPI 3.0 schema object): OpenAPI's `example` becomes `examples: [..]`, unless `examples`
 * is already there.
 */
import { hasOwn } from '../../../json/guards.js';
import { at, current, renameKey, type Job, type KeyMoves } from '../job.js';
import type { Conversion } from '../rule.js';

export const example: Conversion = {
  id: 'example',
  codes: ['converted-example', 'kept-example'],
  runs: (s) => s.openapi,
  keywords: () => ['example'],
  convert(_node, orig, cur, job, moves) {
    if (hasOwn(current(job, cur), 'example')) convertExample(orig, cur, job, moves);
  },
};

function convertExample(orig: string, cur: string, job: Job, moves: KeyMoves): void {
  const now = current(job, cur);
  if (hasOwn(now, 'examples')) {
    job.ctx.report('info', 'kept-example', at(job, orig, 'example'));
    return;
  }
  const value = now.example;
  renameKey(job, cur, 'example', 'examples', moves, 'converted-example');
  job.ctx.replace(at(job, cur, 'examples'), [value], 'converted-example');
}
