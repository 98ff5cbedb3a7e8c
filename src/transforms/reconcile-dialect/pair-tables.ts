/**
 * Per (source, target) dialect pair, computed once: the candidates of the per-key conversions
 * (foreign-keywords, unconvertible) and the quick look's keywords, the union of what every conversion that
 * runs for the pair matches (see {@link Conversion.keywords}).
 */
import { hasOwn } from '../../json/guards.js';
import { judgeKeyword } from '../../schema/dialect.js';
import { KEYWORD_TABLES, UNION_KEYWORDS, type Dialect } from '../../schema/keywords.js';
import { CONVERSIONS } from './conversions/index.js';
import { affectsVerdicts, KIND_SAMPLES, mattersIn, type KeyFacts, type PairTables, type Trigger, type Triggers } from './job.js';
import type { ReconcileTarget } from './options.js';
import type { ConversionScope } from './rule.js';

/** By source, then target: asked once per document, so no key string is built for the lookup. */
const PAIR_TABLES = new Map<Dialect, Map<ReconcileTarget, PairTables>>();

/**
 * Narrows the foreign-keywords and unconvertible conversions to the keywords that can pass their
 * checks, so that the ordinary keywords of a node cost one set lookup each. A keyword is left out only when
 * the full check could not pass for any value: not in the target's table or not a verdict keyword there
 * (foreign); not in the source's table, or the same shape, value type and standing in both (unconvertible).
 */
export function pairTables(source: Dialect, target: ReconcileTarget): PairTables {
  let bySource = PAIR_TABLES.get(source);
  if (bySource === undefined) PAIR_TABLES.set(source, (bySource = new Map()));
  let tables = bySource.get(target);
  if (tables) return tables;
  const src = KEYWORD_TABLES[source];
  const tgt = KEYWORD_TABLES[target];
  const foreign = new Set<string>();
  for (const name of tgt.keys()) if (!src.has(name) && affectsVerdicts(target, name)) foreign.add(name);
  const unconvertible = new Set<string>();
  for (const [name, s] of src) {
    if (!mattersIn(source, name)) continue;
    const t = tgt.get(name);
    const sameShape = t !== undefined && t.shape === s.shape && t.valueType === s.valueType;
    const standing = t !== undefined && (!t.deprecated || t.role === 'definitions' || s.deprecated === true);
    if (!sameShape || !standing) unconvertible.add(name);
  }
  const scope = { source, target, foreign, unconvertible };
  const triggers = triggersOf({ ...scope, openapi: false });
  const triggersWithOpenApi = triggersOf({ ...scope, openapi: true });
  tables = { foreign, unconvertible, triggers, triggersWithOpenApi, keys: keyFactsOf(source, triggers, triggersWithOpenApi) };
  bySource.set(target, tables);
  return tables;
}

/**
 * {@link KeyFacts} of every keyword any dialect knows and every trigger: `judgeKeyword` asked once per
 * keyword and kind of value (it reads the value only through `keywordFit`, which looks at its JSON kind),
 * so the look at a schema object costs one map lookup per key. `$schema` is left to the look itself (an
 * embedded one changes the dialect below it).
 */
function keyFactsOf(source: Dialect, triggers: Triggers, triggersWithOpenApi: Triggers): ReadonlyMap<string, KeyFacts> {
  const out = new Map<string, KeyFacts>();
  const asTrigger = (t: Triggers, key: string): Trigger => (!t.has(key) ? false : (t.get(key) ?? true));
  for (const key of new Set([...UNION_KEYWORDS.keys(), ...triggers.keys(), ...triggersWithOpenApi.keys()])) {
    if (key === '$schema') continue;
    let contradicts = 0;
    KIND_SAMPLES.forEach((sample, bit) => {
      if (judgeKeyword(source, key, sample) !== undefined) contradicts |= 1 << bit;
    });
    const plain = asTrigger(triggers, key);
    const withOpenApi = asTrigger(triggersWithOpenApi, key);
    if (contradicts !== 0 || plain !== false || withOpenApi !== false) out.set(key, Object.freeze({ contradicts, plain, withOpenApi }));
  }
  return out;
}

/**
 * Every keyword the conversions that run in `scope` match (by presence, or by value with a test: a keyword
 * some conversion matches by presence is matched so; tests of several conversions are or-ed), and the
 * keywords they match only by value (`enum: []`).
 */
function triggersOf(scope: ConversionScope): Triggers {
  const tests = new Map<string, ((value: unknown) => boolean)[] | undefined>();
  const add = (key: string, test: ((value: unknown) => boolean) | undefined) => {
    if (tests.has(key) && tests.get(key) === undefined) return;
    if (test === undefined) tests.set(key, undefined);
    else tests.set(key, [...(tests.get(key) ?? []), test]);
  };
  for (const c of CONVERSIONS) {
    if (!c.runs(scope)) continue;
    const byKey = c.keywordTests?.(scope);
    for (const k of c.keywords(scope)) add(k, byKey?.get(k));
    if (c.matchesValue) add(c.matchesValue.keyword, c.matchesValue.test);
  }
  const out = new Map<string, ((value: unknown) => boolean) | undefined>();
  for (const [key, list] of tests) out.set(key, list === undefined ? undefined : list.length === 1 ? list[0] : (value) => list.some((t) => t(value)));
  return out;
}

/**
 * Whether the walk may have work at this schema object: a keyword the conversions match (`triggers`,
 * from {@link pairTables}, by presence or with a value that passes its test), or an embedded `$schema`
 * (reported or restamped).
 */
export function mayNeedConversion(node: Record<string, unknown>, isRoot: boolean, triggers: Triggers): boolean {
  for (const key in node) {
    if (!hasOwn(node, key)) continue;
    if (triggers.has(key)) {
      const test = triggers.get(key);
      if (test === undefined || test(node[key])) return true;
    }
    if (key === '$schema' && !isRoot) return true;
  }
  return false;
}
