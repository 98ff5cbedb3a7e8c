/**
 * How a fixture's input is read when its `$schema` alone does not say what a reader of its dialect does:
 * ajv's draft-07 class applies keywords beside `$ref` (the spec says to ignore them), OpenAPI 3.0 has no
 * ajv class at all. A fixture instance names the reading with `readAs`.
 */
import { Ajv } from 'ajv';
import Ajv04Module from 'ajv-draft-04';
import formatsModule from 'ajv-formats';
import { verdicts, type AjvDialect } from './ajv.js';

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
