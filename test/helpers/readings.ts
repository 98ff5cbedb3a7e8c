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
    const validate = ajv.compile(schema as object);
    return instances.map((d) => validate(d) as boolean);
  } catch (e) {
    return { error: (e as Error).message };
  }
}
