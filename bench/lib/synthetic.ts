/**
 * Deterministic synthetic inputs for the scaling series, built from real corpus tools: long tool lists
 * (corpus tools repeated and renamed) and single huge schemas (corpus input schemas gathered as
 * definitions of one tool). Pure: same pool, same output.
 */
import { fnv1a } from './stats.js';

/** A corpus tool and where it came from (its key decides its place in the synthetic order). */
export interface PoolEntry {
  /** `file#index`: unique and stable. */
  readonly key: string;
  readonly tool: Readonly<Record<string, unknown>>;
}

/** The pool in a fixed pseudo-random order (FNV-1a of the key), so small lists mix many servers. */
export function orderPool(entries: readonly PoolEntry[]): PoolEntry[] {
  return [...entries].sort((a, b) => fnv1a(a.key) - fnv1a(b.key) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/**
 * `count` tools: the ordered pool repeated, tool `k` renamed `<name>_<k>` (key order kept). Repeated tools
 * share their schema objects with the pool; serialize and parse the result for an input without sharing.
 */
export function syntheticToolList(pool: readonly PoolEntry[], count: number): Record<string, unknown>[] {
  if (pool.length === 0) throw new Error('empty pool');
  const out: Record<string, unknown>[] = new Array(count);
  for (let k = 0; k < count; k++) {
    const tool = pool[k % pool.length]!.tool;
    const name = typeof tool.name === 'string' ? tool.name : 'tool';
    out[k] = withMember(tool, 'name', `${name}_${k}`);
  }
  return out;
}

/** The 2020-12 dialect URI stamped on synthetic large schemas. */
export const DRAFT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

/**
 * One tool whose `inputSchema` is at least `targetBytes` of compact JSON: the given self-contained schemas
 * (cycled) become definitions `d0, d1, …`; property `p<k>` refers to `d<k>` for even `k`; each `d<k>` with
 * `k % 4 === 0` also refers to `d<k+1>` (through `allOf`). So `d<4m>`, `d<4m+1>` and `d<4m+2>` are reachable
 * and `d<4m+3>` is not: a quarter of the definitions can be pruned, and reaching `d<4m+1>` needs a walk
 * through another definition.
 */
export function largeSchemaTool(schemas: readonly Readonly<Record<string, unknown>>[], targetBytes: number, label: string): Record<string, unknown> {
  if (schemas.length === 0) throw new Error('no schemas');
  const properties: Record<string, unknown> = {};
  const defs: Record<string, unknown> = {};
  const sizes = schemas.map((s) => JSON.stringify(withoutMember(s, '$schema')).length);
  let bytes = 100;
  for (let k = 0; bytes < targetBytes; k++) {
    const schema = withoutMember(schemas[k % schemas.length]!, '$schema');
    defs[`d${k}`] = k % 4 === 0 ? { allOf: [schema, { $ref: `#/$defs/d${k + 1}` }] } : schema;
    bytes += sizes[k % schemas.length]! + 12 + String(k).length;
    if (k % 2 === 0) {
      properties[`p${k}`] = { $ref: `#/$defs/d${k}` };
      bytes += 28 + 2 * String(k).length;
    }
  }
  // Every d<4m> refers to d<4m+1>: make sure the last one's target exists.
  const last = Object.keys(defs).length;
  if (!(`d${last}` in defs) && (last - 1) % 4 === 0) defs[`d${last}`] = { type: 'object' };
  return {
    name: `large_schema_${label}`,
    description: `Synthetic tool whose input schema is about ${label} of definitions built from corpus schemas.`,
    inputSchema: { $schema: DRAFT_2020_12, type: 'object', properties, $defs: defs },
  };
}

function withMember(obj: Readonly<Record<string, unknown>>, key: string, value: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  let seen = false;
  for (const k of Object.keys(obj)) {
    if (k === key) {
      seen = true;
      out[k] = value;
    } else setOwn(out, k, obj[k]);
  }
  if (!seen) out[key] = value;
  return out;
}

function withoutMember(obj: Readonly<Record<string, unknown>>, key: string): Record<string, unknown> {
  if (!Object.prototype.hasOwnProperty.call(obj, key)) return obj as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(obj)) if (k !== key) setOwn(out, k, obj[k]);
  return out;
}

function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  else obj[key] = value;
}
