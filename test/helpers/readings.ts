/**
 * How a fixture's input is read when its `$schema` alone does not say what a reader of its dialect does:
 * ajv's draft-07 class applies keywords beside `$ref` (the spec says to ignore them), OpenAPI 3.0 has no
 * ajv class at all. A fixture instance names the reading with `readAs`.
 */
import { Ajv } from 'ajv';
import Ajv04Module from 'ajv-draft-04';
import formatsModule from 'ajv-formats';
import { makeAjv, verdicts, type AjvDialect } from './ajv.js';

const addFormats = ((formatsModule as unknown as { default?: unknown }).default ?? formatsModule) as (ajv: unknown) => void;
const Ajv04 = ((Ajv04Module as unknown as { default?: unknown }).default ?? Ajv04Module) as typeof Ajv;

/**
 * `draft4`: ajv-draft-04; `draft7-spec`: draft-07 as specified (siblings of `$ref` ignored, ajv option
 * `ignoreKeywordsWithRef`); `none`: no ajv reading (the fixture's hand-written `valid` is the expectation).
 */
export type Reading = AjvDialect | 'draft4' | 'draft7-spec' | 'none';

/** The verdicts of `schema` on `instances` under `reading`, or `{ error }` when it does not compile. */
export function readingVerdicts(reading: Exclude<Reading, 'none'>, schema: unknown, instances: readonly unknown[]): (boolean | 'throws')[] | { error: string } {
  if (reading !== 'draft4' && reading !== 'draft7-spec') return verdicts(schema, instances, reading);
  const opts = { strict: false, logger: false as const, validateSchema: false, ...(reading === 'draft7-spec' ? { ignoreKeywordsWithRef: true } : {}) };
  const ajv = reading === 'draft4' ? new Ajv04(opts) : new Ajv(opts);
  addFormats(ajv);
  try {
    const validate = ajv.compile((reading === 'draft7-spec' ? withoutTypeBesideRef(schema) : schema) as object);
    return instances.map((d) => validate(d) as boolean);
  } catch (e) {
    return { error: (e as Error).message };
  }
}

/**
 * ajv's `ignoreKeywordsWithRef` skips every keyword beside `$ref` except `type` (checked before the
 * others, and only sometimes deferred): a copy without `type`/`nullable` next to a `$ref` makes the
 * reading what draft-07 specifies. Data (`enum`, `const`, `default`, `examples`) is copied as it is.
 */
function withoutTypeBesideRef(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutTypeBesideRef);
  if (typeof schema !== 'object' || schema === null) return schema;
  const node = schema as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  const hasRef = typeof node.$ref === 'string';
  for (const key of Object.keys(node)) {
    if (hasRef && (key === 'type' || key === 'nullable')) continue;
    const value = DATA_KEYWORDS.has(key) ? node[key] : withoutTypeBesideRef(node[key]);
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples', 'example']);

/**
 * What a schema's own dialect says, by its `$schema` (none: 2020-12, as MCP says): draft-04 by ajv-draft-04
 * without the later keywords that class evaluates (`const`, `contains`, `propertyNames`, `if`/`then`/`else`),
 * draft-06 by ajv's draft-07 class without `if`/`then`/`else`, and in draft-04/06/07 the siblings of `$ref`
 * ignored. Written here, apart from the gate's own reading, as the fuzz harness's oracle. Returns a
 * validator, or `{ error }` when ajv refuses the schema.
 */
export function specValidator(schema: unknown): ((data: unknown) => boolean | 'throws') | { error: string } {
  const uri = typeof schema === 'object' && schema !== null ? (schema as Record<string, unknown>).$schema : undefined;
  const m = typeof uri === 'string' ? /draft-0([467])\/schema/.exec(uri) : null;
  const kind: SpecKind = m ? (`draft${m[1]}` as SpecKind) : typeof uri === 'string' && /2019-09/.test(uri) ? 'draft2019' : 'draft2020';
  // One ajv per reading; what a compile registers (the schema, its identifiers) is removed after it, so
  // that two schemas declaring one `$id` never meet.
  let ajv = SHARED.get(kind);
  if (!ajv) SHARED.set(kind, (ajv = makeSpecAjv(kind)));
  const read = m ? withoutTypeBesideRef(schema) : schema;
  const instance = ajv as InstanceType<typeof Ajv> & { refs: Record<string, unknown>; schemas: Record<string, unknown> };
  const refs = new Set(Object.keys(instance.refs));
  const schemas = new Set(Object.keys(instance.schemas));
  return wrap(() => {
    try {
      return instance.compile(read as object) as (data: unknown) => boolean;
    } finally {
      if (typeof read === 'object' && read !== null) instance.removeSchema(read as object);
      for (const k of Object.keys(instance.refs)) if (!refs.has(k)) delete instance.refs[k];
      for (const k of Object.keys(instance.schemas)) if (!schemas.has(k)) delete instance.schemas[k];
    }
  });
}

type SpecKind = 'draft4' | 'draft6' | 'draft7' | 'draft2019' | 'draft2020';
const SHARED = new Map<SpecKind, InstanceType<typeof Ajv>>();

function makeSpecAjv(kind: SpecKind): InstanceType<typeof Ajv> {
  if (kind === 'draft2019' || kind === 'draft2020') return makeAjv(kind, true, { code: { optimize: false } }) as InstanceType<typeof Ajv>;
  // Unoptimized code compiles about twice as fast and validates the same.
  const opts = { strict: false, logger: false as const, validateSchema: false, ignoreKeywordsWithRef: true, code: { optimize: false } };
  const ajv = kind === 'draft4' ? new Ajv04(opts) : new Ajv(opts);
  const later = kind === 'draft4' ? ['const', 'contains', 'propertyNames', 'if', 'then', 'else'] : kind === 'draft6' ? ['if', 'then', 'else'] : [];
  for (const k of later) ajv.removeKeyword(k);
  addFormats(ajv);
  return ajv;
}

function wrap(make: () => (data: unknown) => boolean): ((data: unknown) => boolean | 'throws') | { error: string } {
  let v: (data: unknown) => boolean;
  try {
    v = make();
  } catch (e) {
    return { error: (e as Error).message };
  }
  return (data) => {
    try {
      return v(data);
    } catch {
      return 'throws';
    }
  };
}
