/**
 * THE keyword table: every keyword of JSON Schema draft-04, -06, -07, 2019-09 and 2020-12 (plus the
 * OpenAPI 3.0 schema-object extras), classified by the shape of its value and by its role. No other module
 * hard-codes a keyword list; walkers and transforms ask these tables.
 */

/** A dialect toolslim can read. `openapi-3.0` is the schema object of OpenAPI 3.0 (a draft-04 variant). */
export type Dialect = 'draft-04' | 'draft-06' | 'draft-07' | '2019-09' | '2020-12' | 'openapi-3.0';

/** All dialects, oldest first. */
export const DIALECTS: readonly Dialect[] = Object.freeze(['draft-04', 'draft-06', 'draft-07', '2019-09', '2020-12', 'openapi-3.0']);

/**
 * The shape of a keyword's value:
 * - `schema`: one subschema; `schemaArray`: an array of subschemas; `schemaMap`: an object whose values are
 *   subschemas; `schemaOrArray`: draft-07 `items`; `schemaOrStrings`: a map of subschemas or string arrays
 *   (draft-07 `dependencies`); `opaque`: data, kept verbatim, never descended into.
 */
export type KeywordShape = 'schema' | 'schemaArray' | 'schemaMap' | 'schemaOrArray' | 'schemaOrStrings' | 'opaque';

/**
 * What a keyword does. `annotation` keywords never change a verdict; `validation` and `applicator` do;
 * `core` keywords shape identification and references; `definitions` hold reusable subschemas.
 */
export type KeywordRole = 'core' | 'definitions' | 'applicator' | 'validation' | 'annotation';

/** One keyword in one dialect. */
export interface KeywordInfo {
  readonly name: string;
  readonly shape: KeywordShape;
  readonly role: KeywordRole;
  /** Dialect-independent id: `$defs` and `definitions` are both `defs`. */
  readonly id: string;
  /**
   * The JSON type the value must have, for opaque keywords whose form differs between dialects
   * (`exclusiveMinimum` is a boolean modifier in draft-04 and OpenAPI 3.0, a number from draft-06 on).
   */
  readonly valueType?: 'boolean' | 'number' | 'string';
  /** Still accepted but superseded in this dialect (`definitions` in 2019-09 and 2020-12, replaced by `$defs`). */
  readonly deprecated?: boolean;
  /**
   * The instance types a keyword constrains; an instance of any other type passes it (`minLength` ignores
   * numbers and null). Undefined: it can reject an instance of any type (`type`, `enum`, `allOf`, `$ref`…).
   */
  readonly appliesTo?: readonly InstanceTypeName[];
}

/** A JSON instance type a keyword can be specific to. */
export type InstanceTypeName = 'object' | 'array' | 'string' | 'number';

/** A dialect's keywords by name. */
export type KeywordTable = ReadonlyMap<string, KeywordInfo>;

// Columns: name, id, role, then the shape in draft-04, draft-06, draft-07, 2019-09, 2020-12 ('' = not a keyword).
type Row = readonly [string, string, KeywordRole, string, string, string, string, string];
const ROWS: readonly Row[] = [
  // core
  ['$schema', 'schema-uri', 'core', 'opaque', 'opaque', 'opaque', 'opaque', 'opaque'],
  ['id', 'id', 'core', 'opaque', '', '', '', ''],
  ['$id', 'id', 'core', '', 'opaque', 'opaque', 'opaque', 'opaque'],
  ['$ref', 'ref', 'core', 'opaque', 'opaque', 'opaque', 'opaque', 'opaque'],
  ['$anchor', 'anchor', 'core', '', '', '', 'opaque', 'opaque'],
  // 2020-12 replaced these with `$dynamic*`, but its meta-schema still describes them (and ajv evaluates them)
  ['$recursiveRef', 'recursive-ref', 'core', '', '', '', 'opaque', 'opaque'],
  ['$recursiveAnchor', 'recursive-anchor', 'core', '', '', '', 'opaque', 'opaque'],
  ['$dynamicRef', 'dynamic-ref', 'core', '', '', '', '', 'opaque'],
  ['$dynamicAnchor', 'dynamic-anchor', 'core', '', '', '', '', 'opaque'],
  ['$vocabulary', 'vocabulary', 'core', '', '', '', 'opaque', 'opaque'],
  ['$comment', 'comment', 'annotation', '', '', 'opaque', 'opaque', 'opaque'],
  // definitions (2019-09 and 2020-12 meta-schemas still describe `definitions`, deprecated)
  ['definitions', 'defs', 'definitions', 'schemaMap', 'schemaMap', 'schemaMap', 'schemaMap', 'schemaMap'],
  ['$defs', 'defs', 'definitions', '', '', '', 'schemaMap', 'schemaMap'],
  // applicators
  ['allOf', 'all-of', 'applicator', 'schemaArray', 'schemaArray', 'schemaArray', 'schemaArray', 'schemaArray'],
  ['anyOf', 'any-of', 'applicator', 'schemaArray', 'schemaArray', 'schemaArray', 'schemaArray', 'schemaArray'],
  ['oneOf', 'one-of', 'applicator', 'schemaArray', 'schemaArray', 'schemaArray', 'schemaArray', 'schemaArray'],
  ['not', 'not', 'applicator', 'schema', 'schema', 'schema', 'schema', 'schema'],
  ['if', 'if', 'applicator', '', '', 'schema', 'schema', 'schema'],
  ['then', 'then', 'applicator', '', '', 'schema', 'schema', 'schema'],
  ['else', 'else', 'applicator', '', '', 'schema', 'schema', 'schema'],
  ['items', 'items', 'applicator', 'schemaOrArray', 'schemaOrArray', 'schemaOrArray', 'schemaOrArray', 'schema'],
  ['additionalItems', 'additional-items', 'applicator', 'schema', 'schema', 'schema', 'schema', ''],
  ['prefixItems', 'prefix-items', 'applicator', '', '', '', '', 'schemaArray'],
  ['contains', 'contains', 'applicator', '', 'schema', 'schema', 'schema', 'schema'],
  ['properties', 'properties', 'applicator', 'schemaMap', 'schemaMap', 'schemaMap', 'schemaMap', 'schemaMap'],
  ['patternProperties', 'pattern-properties', 'applicator', 'schemaMap', 'schemaMap', 'schemaMap', 'schemaMap', 'schemaMap'],
  ['additionalProperties', 'additional-properties', 'applicator', 'schema', 'schema', 'schema', 'schema', 'schema'],
  // split into dependentSchemas/dependentRequired in 2019-09; both later meta-schemas still describe it and ajv evaluates it
  ['dependencies', 'dependencies', 'applicator', 'schemaOrStrings', 'schemaOrStrings', 'schemaOrStrings', 'schemaOrStrings', 'schemaOrStrings'],
  ['dependentSchemas', 'dependent-schemas', 'applicator', '', '', '', 'schemaMap', 'schemaMap'],
  ['propertyNames', 'property-names', 'applicator', '', 'schema', 'schema', 'schema', 'schema'],
  ['unevaluatedItems', 'unevaluated-items', 'applicator', '', '', '', 'schema', 'schema'],
  ['unevaluatedProperties', 'unevaluated-properties', 'applicator', '', '', '', 'schema', 'schema'],
  // validation
  ['type', 'type', 'validation', 'opaque', 'opaque', 'opaque', 'opaque', 'opaque'],
  ['enum', 'enum', 'validation', 'opaque', 'opaque', 'opaque', 'opaque', 'opaque'],
  ['const', 'const', 'validation', '', 'opaque', 'opaque', 'opaque', 'opaque'],
  ['multipleOf', 'multiple-of', 'validation', 'opaque', 'opaque', 'opaque', 'opaque', 'opaque'],
  ['maximum', 'maximum', 'validation', 'opaque', 'opaque', 'opaque', 'opaque', 'opaque'],
  ['exclusiveMaximum', 'exclusive-maximum', 'validation', 'opaque', 'opaque', 'opaque', 'opaque', 'opaque'],
  ['minimum', 'minimum', 'validation', 'opaque', 'opaque', 'opaque', 'opaque', 'opaque'],
  ['exclusiveMinimum', 'exclusive-minimum', 'validation', 'opaque', 'opaque', 'opaque', 'opaque', 'opaque'],
  ['maxLength', 'max-length', 'validation', 'opaque', 'opaque', 'opaque', 'opaque', 'opaque'],
  ['minLength', 'min-length', 'validation', 'opaque', 'opaque', 'opaque', 'opaque', 'opaque'],
  ['pattern', 'pattern', 'validation', 'opaque', 'opaque', 'opaque', 'opaque', 'opaque'],
  ['maxItems', 'max-items', 'validation', 'opaque', 'opaque', 'opaque', 'opaque', 'opaque'],
  ['minItems', 'min-items', 'validation', 'opaque', 'opaque', 'opaque', 'opaque', 'opaque'],
  ['uniqueItems', 'unique-items', 'validation', 'opaque', 'opaque', 'opaque', 'opaque', 'opaque'],
  ['maxContains', 'max-contains', 'validation', '', '', '', 'opaque', 'opaque'],
  ['minContains', 'min-contains', 'validation', '', '', '', 'opaque', 'opaque'],
  ['maxProperties', 'max-properties', 'validation', 'opaque', 'opaque', 'opaque', 'opaque', 'opaque'],
  ['minProperties', 'min-properties', 'validation', 'opaque', 'opaque', 'opaque', 'opaque', 'opaque'],
  ['required', 'required', 'validation', 'opaque', 'opaque', 'opaque', 'opaque', 'opaque'],
  ['dependentRequired', 'dependent-required', 'validation', '', '', '', 'opaque', 'opaque'],
  // format asserts in ajv once formats are added, so it is treated as validation
  ['format', 'format', 'validation', 'opaque', 'opaque', 'opaque', 'opaque', 'opaque'],
  ['contentMediaType', 'content-media-type', 'validation', '', '', 'opaque', 'opaque', 'opaque'],
  ['contentEncoding', 'content-encoding', 'validation', '', '', 'opaque', 'opaque', 'opaque'],
  ['contentSchema', 'content-schema', 'annotation', '', '', '', 'schema', 'schema'],
  // annotations
  ['title', 'title', 'annotation', 'opaque', 'opaque', 'opaque', 'opaque', 'opaque'],
  ['description', 'description', 'annotation', 'opaque', 'opaque', 'opaque', 'opaque', 'opaque'],
  ['default', 'default', 'annotation', 'opaque', 'opaque', 'opaque', 'opaque', 'opaque'],
  ['examples', 'examples', 'annotation', '', 'opaque', 'opaque', 'opaque', 'opaque'],
  ['deprecated', 'deprecated', 'annotation', '', '', '', 'opaque', 'opaque'],
  ['readOnly', 'read-only', 'annotation', '', '', 'opaque', 'opaque', 'opaque'],
  ['writeOnly', 'write-only', 'annotation', '', '', 'opaque', 'opaque', 'opaque'],
];

/** OpenAPI 3.0 schema-object keywords on top of draft-04 (`items` is a single schema there). */
const OPENAPI_EXTRA: readonly KeywordInfo[] = [
  { name: 'nullable', id: 'nullable', role: 'validation', shape: 'opaque' },
  { name: 'example', id: 'example', role: 'annotation', shape: 'opaque' },
  { name: 'discriminator', id: 'discriminator', role: 'annotation', shape: 'opaque' },
  { name: 'xml', id: 'xml', role: 'annotation', shape: 'opaque' },
  { name: 'externalDocs', id: 'external-docs', role: 'annotation', shape: 'opaque' },
  { name: 'readOnly', id: 'read-only', role: 'annotation', shape: 'opaque' },
  { name: 'writeOnly', id: 'write-only', role: 'annotation', shape: 'opaque' },
  { name: 'deprecated', id: 'deprecated', role: 'annotation', shape: 'opaque' },
  { name: 'items', id: 'items', role: 'applicator', shape: 'schema' },
];

// Value types of opaque keywords whose form differs between dialects. Columns: name, then draft-04,
// draft-06, draft-07, 2019-09, 2020-12, openapi-3.0 ('' = no constraint recorded).
type ValueTypeRow = readonly [string, string, string, string, string, string, string];
const VALUE_TYPE_ROWS: readonly ValueTypeRow[] = [
  ['exclusiveMinimum', 'boolean', 'number', 'number', 'number', 'number', 'boolean'],
  ['exclusiveMaximum', 'boolean', 'number', 'number', 'number', 'number', 'boolean'],
  ['id', 'string', '', '', '', '', ''],
  ['$id', '', 'string', 'string', 'string', 'string', ''],
  ['$anchor', '', '', '', 'string', 'string', ''],
  ['$ref', 'string', 'string', 'string', 'string', 'string', 'string'],
  ['$dynamicRef', '', '', '', '', 'string', ''],
  ['$recursiveRef', '', '', '', 'string', '', ''],
  ['nullable', '', '', '', '', '', 'boolean'],
];
const VALUE_TYPE_COLUMN: Record<Dialect, number> = { 'draft-04': 1, 'draft-06': 2, 'draft-07': 3, '2019-09': 4, '2020-12': 5, 'openapi-3.0': 6 };

/**
 * Keywords a dialect's meta-schema still describes (so walkers must descend into them, and ajv enforces
 * some) but that an older dialect's style left behind: using them contradicts the dialect.
 */
const DEPRECATED: Readonly<Partial<Record<Dialect, readonly string[]>>> = {
  '2019-09': ['definitions', 'dependencies'],
  '2020-12': ['definitions', 'dependencies', '$recursiveRef', '$recursiveAnchor'],
};

/** What each deprecated keyword was replaced by. */
export const DEPRECATED_REPLACEMENTS: Readonly<Record<string, string>> = Object.freeze({
  definitions: '`$defs`',
  dependencies: '`dependentRequired` / `dependentSchemas`',
  $recursiveRef: '`$dynamicRef`',
  $recursiveAnchor: '`$dynamicAnchor`',
});

/** The instance types of type-specific keywords (every dialect agrees). */
const APPLIES_TO: Readonly<Record<string, readonly InstanceTypeName[]>> = {
  properties: ['object'],
  patternProperties: ['object'],
  additionalProperties: ['object'],
  required: ['object'],
  minProperties: ['object'],
  maxProperties: ['object'],
  dependencies: ['object'],
  dependentRequired: ['object'],
  dependentSchemas: ['object'],
  propertyNames: ['object'],
  unevaluatedProperties: ['object'],
  items: ['array'],
  additionalItems: ['array'],
  prefixItems: ['array'],
  contains: ['array'],
  minContains: ['array'],
  maxContains: ['array'],
  minItems: ['array'],
  maxItems: ['array'],
  uniqueItems: ['array'],
  unevaluatedItems: ['array'],
  minLength: ['string'],
  maxLength: ['string'],
  pattern: ['string'],
  contentMediaType: ['string'],
  contentEncoding: ['string'],
  // string formats and the numeric formats of ajv-formats (int32, double, etc.)
  format: ['string', 'number'],
  minimum: ['number'],
  maximum: ['number'],
  exclusiveMinimum: ['number'],
  exclusiveMaximum: ['number'],
  multipleOf: ['number'],
};

function decorate(dialect: Dialect, info: KeywordInfo): KeywordInfo {
  const row = VALUE_TYPE_ROWS.find((r) => r[0] === info.name);
  const valueType = row ? (row[VALUE_TYPE_COLUMN[dialect]] as 'boolean' | 'number' | 'string' | '') : '';
  const deprecated = DEPRECATED[dialect]?.includes(info.name) ?? false;
  const appliesTo = Object.prototype.hasOwnProperty.call(APPLIES_TO, info.name) ? APPLIES_TO[info.name] : undefined;
  return Object.freeze({
    ...info,
    ...(valueType ? { valueType } : {}),
    ...(deprecated ? { deprecated } : {}),
    ...(appliesTo ? { appliesTo: Object.freeze([...appliesTo]) } : {}),
  });
}

const COLUMN: Record<Exclude<Dialect, 'openapi-3.0'>, number> = {
  'draft-04': 3,
  'draft-06': 4,
  'draft-07': 5,
  '2019-09': 6,
  '2020-12': 7,
};

function buildTable(dialect: Dialect): KeywordTable {
  const map = new Map<string, KeywordInfo>();
  const column = COLUMN[dialect === 'openapi-3.0' ? 'draft-04' : dialect];
  for (const row of ROWS) {
    const shape = row[column] as KeywordShape | '';
    if (shape === '') continue;
    map.set(row[0], decorate(dialect, { name: row[0], id: row[1], role: row[2], shape }));
  }
  if (dialect === 'openapi-3.0') {
    map.delete('id');
    map.delete('definitions');
    for (const info of OPENAPI_EXTRA) map.set(info.name, decorate(dialect, info));
  }
  return map;
}

/** The keyword table of each dialect. */
export const KEYWORD_TABLES: Readonly<Record<Dialect, KeywordTable>> = Object.freeze({
  'draft-04': buildTable('draft-04'),
  'draft-06': buildTable('draft-06'),
  'draft-07': buildTable('draft-07'),
  '2019-09': buildTable('2019-09'),
  '2020-12': buildTable('2020-12'),
  'openapi-3.0': buildTable('openapi-3.0'),
});

/**
 * Every subschema position any dialect knows, for walks that must find refs and ids wherever a reader of
 * any dialect would look (reachability, inventories). `items` takes either form; nothing is opaque that a
 * dialect descends into.
 */
export const UNION_KEYWORDS: KeywordTable = (() => {
  const map = new Map<string, KeywordInfo>();
  for (const row of ROWS) {
    const shapes = row.slice(3).filter((s) => s !== '') as KeywordShape[];
    const shape = shapes.includes('schemaOrArray') ? 'schemaOrArray' : shapes[shapes.length - 1]!;
    const appliesTo = Object.prototype.hasOwnProperty.call(APPLIES_TO, row[0]) ? { appliesTo: Object.freeze([...APPLIES_TO[row[0]]!]) } : {};
    map.set(row[0], Object.freeze({ name: row[0], id: row[1], role: row[2], shape, ...appliesTo }));
  }
  for (const info of OPENAPI_EXTRA) if (!map.has(info.name)) map.set(info.name, Object.freeze({ ...info }));
  return map;
})();

/** The keyword that holds a resource's reusable definitions in a dialect (`$defs` from 2019-09 on). */
export function definitionsKeyword(dialect: Dialect): '$defs' | 'definitions' {
  return dialect === '2019-09' || dialect === '2020-12' ? '$defs' : 'definitions';
}

/** Keywords that hold definitions, in every dialect. */
export const DEFINITIONS_KEYWORDS: readonly string[] = Object.freeze(['$defs', 'definitions']);

/** Keywords that reference another schema. */
export const REFERENCE_KEYWORDS: readonly string[] = Object.freeze(['$ref', '$dynamicRef', '$recursiveRef']);

/** Keywords that name a schema so a reference can find it without a pointer. */
export const ANCHOR_KEYWORDS: readonly string[] = Object.freeze(['$anchor', '$dynamicAnchor']);

/** Keywords whose value holds data (instances), never schemas: nothing inside them is a keyword. */
export const INSTANCE_VALUE_KEYWORDS: readonly string[] = Object.freeze(['default', 'const', 'enum', 'examples', 'example']);

/** The keyword info for `name` in `table`, or undefined for an unknown keyword (which is opaque). */
export function keywordInfo(table: KeywordTable, name: string): KeywordInfo | undefined {
  return table.get(name);
}

/** True for a vendor-extension keyword (`x-…`), which is always opaque. */
export function isExtensionKeyword(name: string): boolean {
  return name.length > 2 && name.charCodeAt(0) === 120 /* x */ && name.charCodeAt(1) === 45 /* - */;
}

/**
 * Keywords whose verdict depends on a sibling in the same schema object, as groups: moving one of them
 * into an object that holds another of its group changes what it means (`additionalProperties` counts the
 * names `properties` and `patternProperties` list; draft-07 `additionalItems` and 2020-12 `items` follow
 * the tuple before them; `min`/`maxContains` count `contains` matches; draft-04's boolean
 * `exclusiveMaximum` modifies `maximum`; `then`/`else` follow `if`; ajv's `nullable` reads `type`, and its
 * `discriminator` reads `oneOf`). `unevaluatedProperties`/`unevaluatedItems` depend on every sibling and
 * are in their group too.
 */
export const SIBLING_DEPENDENT_GROUPS: readonly (readonly string[])[] = Object.freeze(
  [
    ['properties', 'patternProperties', 'additionalProperties', 'unevaluatedProperties'],
    ['items', 'additionalItems', 'prefixItems', 'unevaluatedItems'],
    ['contains', 'minContains', 'maxContains'],
    ['maximum', 'exclusiveMaximum'],
    ['minimum', 'exclusiveMinimum'],
    ['if', 'then', 'else'],
    ['contentMediaType', 'contentEncoding', 'contentSchema'],
    ['type', 'nullable'],
    ['oneOf', 'discriminator'],
  ].map((g) => Object.freeze(g)),
);
