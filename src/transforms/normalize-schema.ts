import type { EditContext, MessageData } from '../core/context.js';
import { defineTransform } from '../engine/define-transform.js';
import { SCHEMA_SLOTS, type SchemaSlot } from '../core/tool.js';
import { dialectFromUri } from '../schema/dialect.js';
import type { SchemaDocument } from '../core/documents.js';
import { DEFINITIONS_KEYWORDS, DIALECTS, type Dialect } from '../schema/keywords.js';
import { appendPointer } from '../json/pointer.js';
import { hasOwn, isObject } from '../json/guards.js';
import { collectRefTargets, holdsRefTarget } from '../schema/ref-targets.js';
import { refInventoryOf } from '../schema/refs.js';
import { CHILD, childrenOf, walkSchema } from '../schema/walk.js';
import type { KeywordTable } from '../schema/keywords.js';

/** Options of {@link normalizeSchema}. */
export interface NormalizeSchemaOptions {
  /**
   * The dialect the reader assumes for a schema without `$schema` (MCP: 2020-12). A `$schema` naming
   * exactly this dialect is redundant and removed.
   */
  readonly assume?: Dialect;
  /** Which schemas of each tool to normalize (default both). */
  readonly slots?: readonly SchemaSlot[];
}

/**
 * Removes what never changes a verdict: `$comment`, `title` annotations, `additionalProperties: true`,
 * empty `required`, empty `properties`, empty definitions containers, a `$schema` naming the assumed
 * dialect; and writes one-element `type` arrays as a string. Only schema positions are touched (never
 * data such as `default`, `const`, `enum`, `examples`, or `x-*`), never anything a reference may land
 * on, and nothing that `unevaluatedProperties` could observe in a document that uses it.
 */
export const normalizeSchema = defineTransform<NormalizeSchemaOptions, undefined>({
  name: 'normalize-schema',
  description: 'Remove verdict-neutral noise: $comment, titles, additionalProperties: true, empty containers, a redundant $schema',
  safety: 'lossless',
  defaultOptions: { assume: '2020-12', slots: SCHEMA_SLOTS },
  messages: {
    'removed-comment': 'Removed a `$comment`',
    'removed-title': 'Removed the `title` annotation',
    'removed-additional-properties': 'Removed `additionalProperties: true` (the default)',
    'removed-empty-required': 'Removed an empty `required`',
    'removed-empty-properties': 'Removed an empty `properties`',
    'removed-empty-defs': 'Removed an empty `{container}`',
    'removed-schema-uri': 'Removed `$schema` naming {dialect}, the dialect readers assume',
    'unwrapped-type': 'Replaced the one-element `type` array with `"{type}"`',
    'unknown-dialect': 'Left the schema unchanged: `$schema` `{uri}` names a meta-schema toolslim does not know (expected a JSON Schema draft URI)',
  },
  validateOptions(options) {
    if (!DIALECTS.includes(options.assume as Dialect)) throw new Error(`\`assume\` must be one of ${DIALECTS.join(', ')}`);
    if (!Array.isArray(options.slots) || options.slots.some((s) => !SCHEMA_SLOTS.includes(s))) throw new Error('`slots` must list `inputSchema` and/or `outputSchema`');
  },
  apply(doc, ctx, options) {
    const assume = options.assume ?? '2020-12';
    for (const u of doc.unknownDialects) ctx.report('info', 'unknown-dialect', u.base + '/$schema', { uri: String(u.uri) });
    for (const d of doc.documents) normalizeDocument(d, ctx, assume);
  },
});

interface Edit {
  readonly path: string;
  readonly code: string;
  /** For `unwrapped-type`: the new value. */
  readonly value?: unknown;
  readonly data?: MessageData;
  /** Removing it could change what `unevaluatedProperties` sees. */
  readonly evaluates?: boolean;
}

function normalizeDocument(d: SchemaDocument, ctx: EditContext, assume: Dialect): void {
  const { schema, table, base } = d;
  // Which locations a `$ref` points into: asked only once there is something to remove.
  let targets: ReturnType<typeof collectRefTargets> | undefined;
  const edits: Edit[] = [];
  let usesUnevaluatedProperties = false;
  const knows = (keyword: string) => table.has(keyword);

  walkSchema(schema, '', {
    table,
    onSchema(node, path) {
      if (!isObject(node)) return;
      if (hasOwn(node, 'unevaluatedProperties')) usesUnevaluatedProperties = true;
      for (const key of Object.keys(node)) {
        const value = node[key];
        let edit: Omit<Edit, 'path'> | undefined;
        if (key === '$comment' && knows(key) && typeof value === 'string') edit = { code: 'removed-comment' };
        else if (key === 'title' && knows(key) && typeof value === 'string') edit = { code: 'removed-title' };
        else if (key === 'additionalProperties' && value === true) edit = { code: 'removed-additional-properties', evaluates: true };
        else if (key === 'required' && Array.isArray(value) && value.length === 0) edit = { code: 'removed-empty-required' };
        // The root `properties` stays: some clients reject an object schema without it.
        else if (key === 'properties' && path !== '' && isObject(value) && Object.keys(value).length === 0) edit = { code: 'removed-empty-properties', evaluates: true };
        else if (DEFINITIONS_KEYWORDS.includes(key) && isObject(value) && Object.keys(value).length === 0) edit = { code: 'removed-empty-defs', data: { container: key } };
        else if (key === '$schema' && path === '' && d.source === 'declared' && dialectFromUri(value) === assume) edit = { code: 'removed-schema-uri', data: { dialect: assume } };
        else if (key === 'type' && Array.isArray(value) && value.length === 1 && typeof value[0] === 'string') edit = { code: 'unwrapped-type', value: value[0], data: { type: value[0] } };
        if (edit === undefined) continue;
        const at = appendPointer(path, key);
        targets ??= collectRefTargets(schema, d.dialect, refInventoryOf(schema, d.dialect));
        if (!holdsRefTarget(targets, at)) edits.push({ ...edit, path: at });
      }
    },
  });
  // Data can hold a schema that a reference compiles (`#/x-defs/A`); look there too, conservatively, when
  // an edit depends on it.
  if (!usesUnevaluatedProperties && edits.some((e) => e.evaluates)) usesUnevaluatedProperties = dataHoldsKey(schema, table, 'unevaluatedProperties');

  for (const edit of edits) {
    if (edit.evaluates && usesUnevaluatedProperties) continue;
    if (edit.code === 'unwrapped-type') ctx.replace(base + edit.path, edit.value, edit.code, edit.data);
    else ctx.remove(base + edit.path, edit.code, edit.data);
  }
}

/**
 * True when an object with own key `key` sits anywhere inside data of `schema` (an opaque or unknown
 * keyword's value, a value of the wrong shape, an array where a subschema belongs), as `table` reads it.
 * No pointers are built.
 */
function dataHoldsKey(schema: Record<string, unknown>, table: KeywordTable, key: string): boolean {
  const schemas: unknown[] = [schema];
  const data: unknown[] = [];
  const items: unknown[] = [];
  while (schemas.length > 0) {
    const node = schemas.pop();
    if (Array.isArray(node)) data.push(node);
    if (!isObject(node)) continue;
    items.length = 0;
    childrenOf(node, table, items, true);
    for (let i = 0; i < items.length; i += 4) (items[i] === CHILD ? schemas : data).push(items[i + 1]);
  }
  while (data.length > 0) {
    const v = data.pop();
    if (Array.isArray(v)) {
      for (const x of v) if (typeof x === 'object' && x !== null) data.push(x);
    } else if (isObject(v)) {
      if (hasOwn(v, key)) return true;
      for (const k of Object.keys(v)) {
        const x = v[k];
        if (typeof x === 'object' && x !== null) data.push(x);
      }
    }
  }
  return false;
}
