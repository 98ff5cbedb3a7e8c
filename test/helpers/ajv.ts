import { Ajv } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';

// ajv-formats is CommonJS with a `default` property; under NodeNext the default import is the module.
const addFormats = ((formatsModule as unknown as { default?: unknown }).default ?? formatsModule) as (ajv: AnyAjv) => void;

type AnyAjv = InstanceType<typeof Ajv> | InstanceType<typeof Ajv2019> | InstanceType<typeof Ajv2020>;
export type AjvDialect = 'draft7' | 'draft2019' | 'draft2020';

/**
 * The ajv class a reader would pick for a schema: by its `$schema` (draft-04/06/07 → Ajv, 2019-09 →
 * Ajv2019, 2020-12 or none → Ajv2020, as MCP says a schema without `$schema` is 2020-12).
 */
export function ajvDialectOf(schema: unknown): AjvDialect {
  const uri = typeof schema === 'object' && schema !== null ? (schema as Record<string, unknown>).$schema : undefined;
  if (typeof uri === 'string') {
    if (/draft-0[4-7]/.test(uri)) return 'draft7';
    if (/2019-09/.test(uri)) return 'draft2019';
  }
  return 'draft2020';
}

/** A fresh, lenient ajv of the dialect (as the JSON Schema Test Suite cases were checked: strict off, no logger). */
export function makeAjv(dialect: AjvDialect, formats = true, extra: { ignoreKeywordsWithRef?: boolean; code?: { optimize?: boolean } } = {}): AnyAjv {
  const opts = { strict: false, logger: false as const, allErrors: false, validateSchema: false, ...extra };
  const ajv = dialect === 'draft7' ? new Ajv(opts) : dialect === 'draft2019' ? new Ajv2019(opts) : new Ajv2020(opts);
  if (formats) addFormats(ajv);
  return ajv;
}

/** Compiles `schema` in `dialect` (or the one its `$schema` names); throws when ajv refuses it. */
export function compile(schema: unknown, dialect: AjvDialect = ajvDialectOf(schema), formats = true): (data: unknown) => boolean {
  const ajv = makeAjv(dialect, formats);
  const validate = ajv.compile(schema as object);
  return (data: unknown) => validate(data) as boolean;
}

/**
 * ajv's verdict on every instance (`'throws'` when validation itself fails, e.g. a `$ref` cycle that
 * consumes no input overflows the stack), or `{ error }` when the schema does not compile.
 */
export function verdicts(schema: unknown, instances: readonly unknown[], dialect?: AjvDialect): (boolean | 'throws')[] | { error: string } {
  let validate: (d: unknown) => boolean;
  try {
    validate = compile(schema, dialect ?? ajvDialectOf(schema));
  } catch (e) {
    return { error: (e as Error).message };
  }
  return instances.map((d) => {
    try {
      return validate(d);
    } catch {
      return 'throws' as const;
    }
  });
}
