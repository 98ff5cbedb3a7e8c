/**
 * dependencies: draft-04/06/07 write `dependencies` (a property's required names or its schema); 2019-09
 * and 2020-12 split it into `dependentRequired` and `dependentSchemas`. Split for a 2020-12 target, joined
 * for a draft-07 one (both kinds for one property become an `allOf`).
 */
import { setOwn } from '../../../json/cow.js';
import { hasOwn, isObject } from '../../../json/guards.js';
import { appendPointer } from '../../../json/pointer.js';
import { isLegacyDialect } from '../../../schema/dialect.js';
import { at, current, removeKey, renameKey, type Job, type KeyMoves } from '../job.js';
import type { Conversion } from '../rule.js';

export const dependencies: Conversion = {
  id: 'dependencies',
  codes: ['converted-dependencies'],
  runs: () => true,
  keywords: (s) => (isLegacyDialect(s.target) ? ['dependentRequired', 'dependentSchemas'] : ['dependencies']),
  convert(_node, _orig, cur, job, moves) {
    const now = current(job, cur);
    if (isLegacyDialect(job.target)) {
      // `dependentRequired` + `dependentSchemas` → `dependencies`.
      if ((hasOwn(now, 'dependentRequired') || hasOwn(now, 'dependentSchemas')) && !hasOwn(now, 'dependencies')) joinDependencies(cur, job, moves);
    } else if (hasOwn(now, 'dependencies') && isObject(now.dependencies) && !hasOwn(now, 'dependentRequired') && !hasOwn(now, 'dependentSchemas')) {
      // `dependencies` → `dependentRequired` (string arrays) + `dependentSchemas` (schemas).
      splitDependencies(now.dependencies, cur, job, moves);
    }
  },
};

function splitDependencies(deps: Record<string, unknown>, cur: string, job: Job, moves: KeyMoves): void {
  const names = Object.keys(deps);
  const isRequired = (v: unknown) => Array.isArray(v);
  const isSchema = (v: unknown) => isObject(v) || typeof v === 'boolean';
  if (names.some((n) => !isRequired(deps[n]) && !isSchema(deps[n]))) return;
  const required = names.filter((n) => isRequired(deps[n]));
  const schemas = names.filter((n) => isSchema(deps[n]));
  const firstKeyword = names.length > 0 && isRequired(deps[names[0]!]) ? 'dependentRequired' : 'dependentSchemas';
  const data = { from: 'dependencies', to: required.length > 0 && schemas.length > 0 ? 'dependentRequired` and `dependentSchemas' : firstKeyword };
  renameKey(job, cur, 'dependencies', firstKeyword, moves, 'converted-dependencies', data);
  const entries = new Map<string, string>();
  moves.entries.set('dependencies', entries);
  for (const n of required) entries.set(n, appendPointer(appendPointer(cur, 'dependentRequired'), n));
  for (const n of schemas) entries.set(n, appendPointer(appendPointer(cur, 'dependentSchemas'), n));
  if (required.length === 0 || schemas.length === 0) return;
  const pick = (list: readonly string[]) => {
    const out: Record<string, unknown> = {};
    for (const n of list) setOwn(out, n, deps[n]);
    return out;
  };
  const otherKeyword = firstKeyword === 'dependentRequired' ? 'dependentSchemas' : 'dependentRequired';
  job.ctx.replace(at(job, cur, firstKeyword), pick(firstKeyword === 'dependentRequired' ? required : schemas), 'converted-dependencies', data);
  job.ctx.add(at(job, cur, otherKeyword), pick(otherKeyword === 'dependentRequired' ? required : schemas), 'converted-dependencies', data);
}

function joinDependencies(cur: string, job: Job, moves: KeyMoves): void {
  const now = current(job, cur);
  const req = hasOwn(now, 'dependentRequired') ? now.dependentRequired : undefined;
  const sch = hasOwn(now, 'dependentSchemas') ? now.dependentSchemas : undefined;
  if ((req !== undefined && !isObject(req)) || (sch !== undefined && !isObject(sch))) return;
  const order = Object.keys(now).filter((k) => k === 'dependentRequired' || k === 'dependentSchemas');
  const merged: Record<string, unknown> = {};
  const reqEntries = new Map<string, string>();
  const schEntries = new Map<string, string>();
  const dep = appendPointer(cur, 'dependencies');
  for (const keyword of order) {
    const map = (keyword === 'dependentRequired' ? req : sch) as Record<string, unknown>;
    for (const name of Object.keys(map)) {
      const value = map[name];
      if (!hasOwn(merged, name)) {
        setOwn(merged, name, value);
        (keyword === 'dependentRequired' ? reqEntries : schEntries).set(name, appendPointer(dep, name));
        continue;
      }
      // Both kinds for one property: a schema that requires the names and applies the schema.
      const reqValue = keyword === 'dependentRequired' ? value : merged[name];
      const schValue = keyword === 'dependentSchemas' ? value : merged[name];
      setOwn(merged, name, { allOf: [{ required: reqValue }, schValue] });
      const holder = appendPointer(appendPointer(dep, name), 'allOf');
      reqEntries.set(name, appendPointer(appendPointer(holder, 0), 'required'));
      schEntries.set(name, appendPointer(holder, 1));
    }
  }
  const data = { from: order.join('` and `'), to: 'dependencies' };
  renameKey(job, cur, order[0]!, 'dependencies', moves, 'converted-dependencies', data);
  job.ctx.replace(at(job, cur, 'dependencies'), merged, 'converted-dependencies', data);
  if (order.length > 1) removeKey(job, cur, order[1]!, moves, 'converted-dependencies', data);
  moves.entries.set('dependentRequired', reqEntries);
  moves.entries.set('dependentSchemas', schEntries);
}
