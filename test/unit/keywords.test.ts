/**
 * The keyword table against two independent sources: the meta-schemas ajv ships (every keyword a dialect's
 * meta-schema describes, with the shape its meta-schema gives the value) and the keywords ajv evaluates.
 */
import { createRequire } from 'node:module';
import { Ajv } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { KEYWORD_TABLES, UNION_KEYWORDS, type Dialect, type KeywordShape } from '../../src/index.js';

const require = createRequire(import.meta.url);
type Meta = { properties?: Record<string, Record<string, unknown>> };
const load = (p: string) => require(p) as Meta;

const META: Record<Exclude<Dialect, 'openapi-3.0'>, Meta[]> = {
  'draft-04': [load('ajv-draft-04/dist/refs/json-schema-draft-04.json')],
  'draft-06': [load('ajv/dist/refs/json-schema-draft-06.json')],
  'draft-07': [load('ajv/dist/refs/json-schema-draft-07.json')],
  '2019-09': ['schema', 'meta/core', 'meta/applicator', 'meta/validation', 'meta/meta-data', 'meta/format', 'meta/content'].map((f) => load(`ajv/dist/refs/json-schema-2019-09/${f}.json`)),
  '2020-12': ['schema', 'meta/core', 'meta/applicator', 'meta/unevaluated', 'meta/validation', 'meta/meta-data', 'meta/format-annotation', 'meta/content'].map((f) => load(`ajv/dist/refs/json-schema-2020-12/${f}.json`)),
};

const isSchemaRef = (s: unknown): boolean => {
  if (typeof s !== 'object' || s === null) return false;
  const o = s as Record<string, unknown>;
  return o.$ref === '#' || o.$dynamicRef === '#meta' || o.$recursiveRef === '#';
};
const isArrayRef = (s: unknown) => typeof s === 'object' && s !== null && /schemaArray$/.test(String((s as Record<string, unknown>).$ref));
const isStrings = (s: unknown) => typeof s === 'object' && s !== null && /stringArray$/.test(String((s as Record<string, unknown>).$ref));

/** The shape a meta-schema gives a keyword's value. */
function shapeOf(p: Record<string, unknown>): KeywordShape {
  if (isSchemaRef(p)) return 'schema';
  // draft-04: `{ anyOf: [{ type: 'boolean' }, { $ref: '#' }] }`
  if (Array.isArray(p.anyOf) && p.anyOf.length === 2 && p.anyOf.some(isSchemaRef) && p.anyOf.some((x) => (x as Record<string, unknown>).type === 'boolean')) return 'schema';
  if (isArrayRef(p)) return 'schemaArray';
  const anyOf = p.anyOf as unknown[] | undefined;
  if (anyOf && anyOf.some(isSchemaRef) && anyOf.some(isArrayRef)) return 'schemaOrArray';
  const ap = p.additionalProperties as Record<string, unknown> | undefined;
  if (ap && isSchemaRef(ap)) return 'schemaMap';
  if (ap && Array.isArray(ap.anyOf) && ap.anyOf.some(isSchemaRef) && ap.anyOf.some(isStrings)) return 'schemaOrStrings';
  return 'opaque';
}

describe.each(Object.keys(META) as Exclude<Dialect, 'openapi-3.0'>[])('%s', (dialect) => {
  const table = KEYWORD_TABLES[dialect];
  it('knows every keyword its meta-schemas describe, with the shape they give it', () => {
    const seen: string[] = [];
    for (const meta of META[dialect]) {
      for (const [name, p] of Object.entries(meta.properties ?? {})) {
        seen.push(name);
        expect(table.get(name)?.shape, `\`${name}\``).toBe(shapeOf(p));
        expect(UNION_KEYWORDS.has(name), `\`${name}\` in UNION_KEYWORDS`).toBe(true);
      }
    }
    expect(seen.length).toBeGreaterThan(25);
  });
});

describe('the keywords ajv evaluates', () => {
  // `id` is registered by ajv only to reject it; `nullable` is ajv's OpenAPI extension; Ajv2019 shares its
  // dynamic vocabulary with Ajv2020, so it also evaluates the 2020-12 `$dynamic*` keywords.
  const AJV_ONLY = new Set(['id', 'nullable']);
  const AJV_2019_ONLY = new Set(['$dynamicAnchor', '$dynamicRef']);
  it.each([
    ['draft-07', new Ajv({ strict: false })],
    ['2019-09', new Ajv2019({ strict: false })],
    ['2020-12', new Ajv2020({ strict: false })],
  ] as const)('are all in the %s table', (dialect, ajv) => {
    const names = Object.keys((ajv as unknown as { RULES: { all: Record<string, unknown> } }).RULES.all).filter((k) => !AJV_ONLY.has(k) && !(dialect === '2019-09' && AJV_2019_ONLY.has(k)));
    expect(names.length).toBeGreaterThan(30);
    for (const k of names) expect(KEYWORD_TABLES[dialect].has(k), `\`${k}\``).toBe(true);
  });
});
