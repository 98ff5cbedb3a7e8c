/**
 * Per (source, target) dialect pair, computed once: the candidates of the per-key conversions
 * (foreign-keywords, unconvertible) and the quick look's keywords, the union of what every conversion that
 * runs for the pair matches (see {@link Conversion.keywords}).
 */
import { KEYWORD_TABLES, type Dialect } from '../../schema/keywords.js';
import { CONVERSIONS } from './conversions/index.js';
import { affectsVerdicts, mattersIn, type PairTables } from './job.js';
import type { ReconcileTarget } from './options.js';
import type { ConversionScope } from './rule.js';

const PAIR_TABLES = new Map<string, PairTables>();

/**
 * Narrows the foreign-keywords and unconvertible conversions to the keywords that can pass their
 * checks, so that the ordinary keywords of a node cost one set lookup each. A keyword is left out only when
 * the full check could not pass for any value: not in the target's table or not a verdict keyword there
 * (foreign); not in the source's table, or the same shape, value type and standing in both (unconvertible).
 */
export function pairTables(source: Dialect, target: ReconcileTarget): PairTables {
  const key = `${source}>${target}`;
  let tables = PAIR_TABLES.get(key);
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
  tables = { foreign, unconvertible, triggers: triggersOf({ ...scope, openapi: false }), triggersWithOpenApi: triggersOf({ ...scope, openapi: true }) };
  PAIR_TABLES.set(key, tables);
  return tables;
}

/** Every keyword the conversions that run in `scope` match. */
function triggersOf(scope: ConversionScope): Set<string> {
  const keys = new Set<string>();
  for (const c of CONVERSIONS) if (c.runs(scope)) for (const k of c.keywords(scope)) keys.add(k);
  return keys;
}

/** The keywords conversions match by their value (`enum: []`), each with its test. */
const VALUE_MATCHES: ReadonlyMap<string, (value: unknown) => boolean> = new Map(CONVERSIONS.flatMap((c) => (c.matchesValue ? [[c.matchesValue.keyword, c.matchesValue.test] as const] : [])));

/**
 * Whether the walk may have work at this schema object: a keyword the conversions match (`triggers`,
 * from {@link pairTables}), an embedded `$schema` (reported or restamped), or a value a conversion matches.
 */
export function mayNeedConversion(node: Record<string, unknown>, isRoot: boolean, triggers: ReadonlySet<string>): boolean {
  for (const key of Object.keys(node)) {
    if (triggers.has(key)) return true;
    if (key === '$schema' && !isRoot) return true;
    const test = VALUE_MATCHES.get(key);
    if (test !== undefined && test(node[key])) return true;
  }
  return false;
}
