/**
 * example (an OpenAPI 3.0 schema object): OpenAPI's `example` becomes `examples: [..]`, unless `examples`
 * is already there.
 */
import { hasOwn } from '../../../json/guards.js';
import { appendPointer } from '../../../json/pointer.js';
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
  // The value now sits in the array: a `$ref` into `example` (its value used as a schema) is retargeted to
  // `examples/0`, not to the array (found attacking the transform: `#/…/example` became `#/…/examples`, and the
  // rewrite accepted what the original refused).
  moves.keys.set('example', appendPointer(appendPointer(cur, 'examples'), 0));
}
