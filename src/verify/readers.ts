/**
 * How each dialect is read: one ajv instance per reading, made the same way for every part of toolslim that
 * compiles a schema (the equivalence gate's pool, the session's argument checker), so a schema means the
 * same thing to each.
 *
 * Each dialect is read as its specification says, where ajv's classes deviate: draft-04 (and OpenAPI
 * 3.0) with ajv's own draft-04 class (`ajv-draft-04`: `id` identifies, `$id` is an unknown keyword),
 * without the later keywords that class also evaluates (`const`, `contains`, `propertyNames`,
 * `if`/`then`/`else`); draft-06 with the draft-07 class without `if`/`then`/`else`; and in draft-04/06/07
 * the siblings of `$ref` are ignored (ajv's `ignoreKeywordsWithRef`, and `type`/`nullable` beside `$ref`,
 * which that option still checks, left out of the compiled copy: {@link schemaAsRead}).
 */
import type { Ajv, Options as AjvOptions } from 'ajv';
import type { Ajv2019 } from 'ajv/dist/2019.js';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { isLegacyDialect } from '../schema/dialect.js';
import type { Dialect } from '../schema/keywords.js';
import { parsePointer } from '../json/pointer.js';
import { hasOwn, isObject } from '../json/guards.js';
import { walkSchema } from '../schema/walk.js';
import { loadAjv, loadAjvDraft04 } from './ajv-loader.js';

/** An ajv instance of any class. */
export type AnyAjv = InstanceType<typeof Ajv> | InstanceType<typeof Ajv2019> | InstanceType<typeof Ajv2020>;
/** One reading per dialect (OpenAPI 3.0 schema objects are read as draft-04, which they extend). */
export type AjvReading = 'draft-04' | 'draft-06' | 'draft-07' | '2019-09' | '2020-12';

/** The reading of `dialect`. */
export function readingOf(dialect: Dialect): AjvReading {
  return dialect === 'openapi-3.0' ? 'draft-04' : dialect;
}

/** Keywords ajv's class evaluates that the dialect it reads does not have. */
const NOT_IN_DIALECT: Readonly<Record<'draft-04' | 'draft-06', readonly string[]>> = {
  'draft-04': ['const', 'contains', 'propertyNames', 'if', 'then', 'else'],
  'draft-06': ['if', 'then', 'else'],
};

/**
 * A fresh ajv instance that reads `dialect` as its specification says, with `options` (which every reader
 * shares: the gate's, or the argument checker's). See the file comment for where ajv's classes deviate.
 */
export function createReader(dialect: Dialect, options: AjvOptions): AnyAjv {
  const classes = loadAjv();
  const kind = readingOf(dialect);
  if (kind === '2020-12') return new classes.Ajv2020(options);
  if (kind === '2019-09') return new classes.Ajv2019(options);
  const legacy = { ...options, ignoreKeywordsWithRef: true } as AjvOptions;
  const ajv = kind === 'draft-04' ? new (loadAjvDraft04())(legacy) : new classes.Ajv(legacy);
  if (kind === 'draft-04' || kind === 'draft-06') for (const k of NOT_IN_DIALECT[kind]) ajv.removeKeyword(k);
  return ajv;
}

/**
 * The schema as `dialect`'s reader compiles it. For draft-04/06/07 (and OpenAPI 3.0): ajv's `ignoreKeywordsWithRef` skips every sibling of
 * `$ref` but `type` (and `nullable`, which rides on it), so those two are left out of a copy (the
 * subschemas on the way are copied, nothing else). The schema itself when no `$ref` has them.
 */
export function schemaAsRead(schema: unknown, dialect: Dialect): unknown {
  return isLegacyDialect(dialect) ? withoutTypeBesideRef(schema) : schema;
}

function withoutTypeBesideRef(schema: unknown): unknown {
  const paths: string[][] = [];
  walkSchema(schema, '', {
    onSchema(node, path) {
      if (isObject(node) && typeof node.$ref === 'string' && hasOwn(node, '$ref') && (hasOwn(node, 'type') || hasOwn(node, 'nullable'))) paths.push(parsePointer(path));
    },
  });
  if (paths.length === 0) return schema;
  const copies = new Map<object, Record<string, unknown> | unknown[]>();
  const copyOf = (value: object): Record<string, unknown> | unknown[] => {
    let c = copies.get(value);
    if (c === undefined) {
      c = Array.isArray(value) ? value.slice() : copyOwnProps(value as Record<string, unknown>);
      copies.set(value, c);
    }
    return c;
  };
  const root = copyOf(schema as object);
  for (const tokens of paths) {
    let orig: unknown = schema;
    let copy = root as Record<string, unknown> | unknown[];
    for (const t of tokens) {
      orig = (orig as Record<string, unknown>)[t];
      const child = copyOf(orig as object);
      Object.defineProperty(copy, t, { value: child, enumerable: true, writable: true, configurable: true });
      copy = child;
    }
    delete (copy as Record<string, unknown>).type;
    delete (copy as Record<string, unknown>).nullable;
  }
  return root;
}

function copyOwnProps(o: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(o)) Object.defineProperty(out, k, { value: o[k], enumerable: true, writable: true, configurable: true });
  return out;
}

/** True when any schema position holds an identifier (`$id`, or `id` in draft-04), which ajv registers globally. */
export function hasIdentifiers(schema: unknown, dialect: Dialect): boolean {
  let found = false;
  walkSchema(schema, '', {
    onSchema(node) {
      if (found) return false;
      if (isObject(node) && ((hasOwn(node, '$id') && typeof node.$id === 'string') || (hasOwn(node, 'id') && typeof node.id === 'string' && (dialect === 'draft-04' || dialect === 'openapi-3.0')))) found = true;
      return !found;
    },
  });
  return found;
}
