/**
 * nullable (any source): OpenAPI 3.0's `nullable`, which no JSON Schema dialect knows, becomes `"null"` in
 * `type` where it allows something (OpenAPI 3.0.3's reading, and ajv's), and is removed where it has no
 * effect.
 */
import { hasOwn } from '../../../json/guards.js';
import { at, current, removeKey, type Job, type KeyMoves } from '../job.js';
import type { Conversion } from '../rule.js';

export const nullable: Conversion = {
  id: 'nullable',
  codes: ['converted-nullable', 'inert-nullable', 'removed-nullable'],
  runs: () => true,
  keywords: () => ['nullable'],
  convert(_node, _orig, cur, job, moves) {
    if (hasOwn(current(job, cur), 'nullable')) convertNullable(cur, job, moves);
  },
};

/**
 * OpenAPI 3.0.3 `nullable: true`: "A true value adds `"null"` to the allowed types specified by the type
 * keyword, only if type is explicitly defined within the same Schema Object. Other Schema Object
 * constraints retain their defined behavior, and therefore may disallow the use of null as a value." So
 * `"null"` joins `type`; `enum`, `const`, `$ref` and the rest keep rejecting `null` where they did (ajv's
 * `nullable` reads it the same way); without `type` it has no effect.
 */
function convertNullable(cur: string, job: Job, moves: KeyMoves): void {
  const node = current(job, cur);
  const flag = node.nullable;
  if (flag !== true) {
    removeKey(job, cur, 'nullable', moves, 'removed-nullable', { value: JSON.stringify(flag) });
    return;
  }
  const type = node.type;
  if (!hasOwn(node, 'type') || !(typeof type === 'string' || (Array.isArray(type) && type.every((t) => typeof t === 'string')))) {
    removeKey(job, cur, 'nullable', moves, 'inert-nullable');
    return;
  }
  const list = typeof type === 'string' ? [type] : type;
  if (list.includes('null')) {
    removeKey(job, cur, 'nullable', moves, 'converted-nullable', { how: 'nothing: `type` already allowed `null`' });
    return;
  }
  const how = '`"null"` in `type`';
  job.ctx.replace(at(job, cur, 'type'), [...list, 'null'], 'converted-nullable', { how });
  removeKey(job, cur, 'nullable', moves, 'converted-nullable', { how });
}
