/**
 * exclusive-bounds (any source): draft-04's boolean `exclusiveMinimum`/`exclusiveMaximum` modify
 * `minimum`/`maximum`; later dialects take the bound itself. `true` with its bound becomes the numeric
 * keyword; one with no effect (`false`, or no bound) is removed.
 */
import { hasOwn } from '../../../json/guards.js';
import { at, current, removeKey, renameKey, type Job, type KeyMoves } from '../job.js';
import type { Conversion } from '../rule.js';

export const exclusiveBounds: Conversion = {
  id: 'exclusive-bounds',
  codes: ['converted-exclusive', 'dropped-inert-keyword'],
  runs: () => true,
  keywords: () => ['exclusiveMinimum', 'exclusiveMaximum'],
  convert: (_node, _orig, cur, job, moves) => convertExclusiveBounds(cur, job, moves),
};

/** Draft-04 boolean `exclusiveMinimum`/`exclusiveMaximum` modify `minimum`/`maximum`; later dialects take the bound itself. */
function convertExclusiveBounds(cur: string, job: Job, moves: KeyMoves): void {
  for (const [keyword, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    const node = current(job, cur);
    if (!hasOwn(node, keyword) || typeof node[keyword] !== 'boolean') continue;
    if (node[keyword] === true && typeof node[bound] === 'number' && hasOwn(node, bound)) {
      job.ctx.remove(at(job, cur, keyword), 'converted-exclusive', { keyword, bound });
      renameKey(job, cur, bound, keyword, moves, 'converted-exclusive', { keyword, bound });
    } else {
      removeKey(job, cur, keyword, moves, 'dropped-inert-keyword', { keyword, why: node[keyword] === true ? `no \`${bound}\` to make exclusive` : '`false` is the default' });
    }
  }
}
