import type { EditContext, MessageData } from '../core/context.js';
import { defineTransform } from '../engine/define-transform.js';
import { SCHEMA_SLOTS, type SchemaSlot } from '../core/tool.js';
import { dialectFromUri } from '../schema/dialect.js';
import type { SchemaDocument } from '../core/documents.js';
import { belowRoot } from './below-root.js';
import { DEFINITIONS_KEYWORDS, DIALECTS, REFERENCE_KEYWORDS, type Dialect } from '../schema/keywords.js';
import { appendPointer } from '../json/pointer.js';
import { hasOwn, isObject } from '../json/guards.js';
import { collectRefTargets, holdsRefTarget, type RefTargets } from '../schema/ref-targets.js';
import { collapseNullUnion, isNullUnionShape, type NullUnionKeyword } from '../schema/null-union.js';
import { refInventoryOf } from '../schema/refs.js';
import { CHILD, childrenOf } from '../schema/walk.js';
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
 * dialect; writes one-element `type` arrays as a string; and writes `anyOf`/`oneOf` of a typed schema and
 * `{"type": "null"}` as that schema with `"null"` in its `type` (see schema/null-union.ts for when that is
 * exact). Only schema positions are touched (never data such as `default`, `const`, `examples`, or `x-*`;
 * an `enum` only gains the `null` its union allowed), never anything a reference may land on, and nothing
 * that `unevaluatedProperties` could observe in a document that uses it.
 */
export const normalizeSchema = defineTransform<NormalizeSchemaOptions, undefined>({
  name: 'normalize-schema',
  description: 'Remove verdict-neutral noise: $comment, titles, additionalProperties: true, empty containers, a redundant $schema; write a union with null as "null" in type',
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
    'collapsed-null-union': 'Replaced `{keyword}` of `{type}` and `null` with `"null"` in `type`',
    'unknown-dialect': 'Left the schema unchanged: `$schema` `{uri}` names a meta-schema toolslim does not know (expected a JSON Schema draft URI)',
  },
  validateOptions(options) {
    if (!DIALECTS.includes(options.assume as Dialect)) throw new Error(`\`assume\` must be one of ${DIALECTS.join(', ')}`);
    if (!Array.isArray(options.slots) || options.slots.some((s) => !SCHEMA_SLOTS.includes(s))) throw new Error('`slots` must list `inputSchema` and/or `outputSchema`');
  },
  apply(doc, ctx, options) {
    const assume = options.assume ?? '2020-12';
    for (const u of doc.unknownDialects) ctx.report('info', 'unknown-dialect', u.base + '/$schema', { uri: String(u.uri) });
    for (const d of doc.documents) {
      // A look earlier in the run (reconcile-dialect's) found nothing to tidy below the root: only the root is left.
      const below = belowRoot(d);
      if (below !== undefined && !below.tidy && !rootMayTidy(d.schema)) continue;
      normalizeDocument(d, ctx, assume, doc.mayHold.referenceKeys);
    }
  },
});

/**
 * Whether normalize-schema may remove or rewrite `key` with this value in a subschema below the root, in
 * some dialect: true wherever it does (a superset; the walk decides). For a look made before it runs.
 */
export function mayTidy(key: string, value: unknown): boolean {
  switch (key) {
    case '$comment':
    case 'title':
      return typeof value === 'string';
    case 'additionalProperties':
      return value === true;
    case 'required':
      return Array.isArray(value) && value.length === 0;
    case 'properties':
      return isObject(value) && isEmpty(value);
    case 'type':
      return Array.isArray(value) && value.length === 1 && typeof value[0] === 'string';
    case 'anyOf':
    case 'oneOf':
      return isNullUnionShape(value);
    default:
      return DEFINITIONS.has(key) && isObject(value) && isEmpty(value);
  }
}

/** Whether the root may have something to tidy (a superset: any `$schema` counts). */
function rootMayTidy(schema: Record<string, unknown>): boolean {
  for (const key in schema) if (hasOwn(schema, key) && (key === '$schema' || mayTidy(key, schema[key]))) return true;
  return false;
}

interface Edit {
  readonly path: string;
  readonly code: string;
  /** For `unwrapped-type`: the new value. */
  readonly value?: unknown;
  readonly data?: MessageData;
  /** Removing it could change what `unevaluatedProperties` sees. */
  readonly evaluates?: boolean;
}

/**
 * `mayRefs`: whether the tool may hold a reference keyword anywhere (`ToolDoc.mayHold`); when it certainly holds
 * none, data is not walked to look for one.
 */
function normalizeDocument(d: SchemaDocument, ctx: EditContext, assume: Dialect, mayRefs: boolean): void {
  const { schema, table, base } = d;
  // One walk, building no pointer unless an edit is found there: frames of four slots (node, depth, keyword,
  // entry below the keyword), flat; the pointer of the node being looked at is the keywords and entries
  // of its ancestors, kept per depth.
  const stack: unknown[] = [schema, 0, undefined, undefined];
  const keywords: string[] = [];
  const entries: (string | number | undefined)[] = [];
  const items: unknown[] = [];
  let edits: Edit[] | undefined;
  // Null unions (`anyOf`/`oneOf` of X and `{"type": "null"}`) below the root, rewritten once the edits are made.
  let unions: NullUnionSite[] | undefined;
  let usesUnevaluatedProperties = false;
  let usesUnevaluatedItems = false;
  // Whether a reference keyword is a key somewhere outside data (data is looked at afterwards, if it matters).
  let refKey = false;
  while (stack.length > 0) {
    const entry = stack.pop() as string | number | undefined;
    const keyword = stack.pop() as string | undefined;
    const depth = stack.pop() as number;
    const node = stack.pop();
    if (depth > 0) {
      // What lies beyond `depth` is a finished sibling's: never read (see pointerAt).
      keywords[depth - 1] = keyword!;
      entries[depth - 1] = entry;
    }
    if (!isObject(node)) continue;
    // `for…in` with the own-key test: the same keys in the same order as Object.keys, without the array.
    for (const key in node) {
      if (!hasOwn(node, key)) continue;
      const value = node[key];
      // What the edit found here is, as locals: every edit is then made by one literal of one shape (a
      // spread makes its shape by transitions, which the GC collects with the last object, and with it the
      // optimised code that read it).
      let code: string | undefined;
      let replacement: unknown;
      let data: MessageData | undefined;
      let evaluates = false;
      switch (key) {
        case '$comment':
          if (typeof value === 'string' && table.has(key)) code = 'removed-comment';
          break;
        case 'title':
          if (typeof value === 'string' && table.has(key)) code = 'removed-title';
          break;
        case 'additionalProperties':
          if (value === true) {
            code = 'removed-additional-properties';
            evaluates = true;
          }
          break;
        case 'required':
          if (Array.isArray(value) && value.length === 0) code = 'removed-empty-required';
          break;
        case 'properties':
          // The root `properties` stays: some clients reject an object schema without it.
          if (depth > 0 && isObject(value) && isEmpty(value)) {
            code = 'removed-empty-properties';
            evaluates = true;
          }
          break;
        case '$schema':
          if (depth === 0 && d.source === 'declared' && dialectFromUri(value) === assume) {
            code = 'removed-schema-uri';
            data = { dialect: assume };
          }
          break;
        case 'type':
          // `{"type": ["null"]}` as a `oneOf` branch stays: a typescript reader reads it as `null` and the
          // unwrapped `"null"` as `any` (normalize-unions and reconcile-dialect's nullable split write it so).
          if (Array.isArray(value) && value.length === 1 && typeof value[0] === 'string' && !(value[0] === 'null' && depth > 0 && keywords[depth - 1] === 'oneOf' && isBareNullBranch(node))) {
            code = 'unwrapped-type';
            replacement = value[0];
            data = { type: value[0] };
          }
          break;
        case 'unevaluatedProperties':
          usesUnevaluatedProperties = true;
          break;
        case 'unevaluatedItems':
          usesUnevaluatedItems = true;
          break;
        case 'anyOf':
        case 'oneOf':
          if (depth > 0 && isNullUnionShape(value)) (unions ??= []).push({ path: pointerAt(keywords, entries, depth), keyword: key });
          break;
        default:
          if (DEFINITIONS.has(key)) {
            if (isObject(value) && isEmpty(value)) {
              code = 'removed-empty-defs';
              data = { container: key };
            }
          } else if (key.charCodeAt(0) === 36 /* $ */ && REFERENCES.has(key)) refKey = true;
      }
      if (code !== undefined) (edits ??= []).push({ path: appendPointer(pointerAt(keywords, entries, depth), key), code, value: replacement, data, evaluates });
    }
    items.length = 0;
    childrenOf(node, table, items);
    for (let i = items.length - 4; i >= 0; i -= 4) {
      const at = items[i + 3] as string | number | undefined;
      // A map entry named like a reference keyword (`properties: { $ref: … }`) counts as one.
      if (typeof at === 'string' && at.charCodeAt(0) === 36 && REFERENCES.has(at)) refKey = true;
      stack.push(items[i + 1], depth + 1, items[i + 2], at);
    }
  }
  if (edits === undefined && unions === undefined) return;
  // What data holds (looked at once, only for a document with an edit, and only if it matters).
  let inData: DataKeys | undefined;
  // Which locations a `$ref` points into: none when no reference keyword is a key anywhere in the document
  // (not even in data, where `$ref`-shaped values keep their targets too); asked only now.
  let targets: RefTargets | undefined;
  if (refKey || (mayRefs && (inData ??= dataKeys(schema, table)).references)) targets = collectRefTargets(schema, d.dialect, refInventoryOf(schema, d.dialect));
  if (edits !== undefined) {
    if (targets !== undefined) edits = edits.filter((e) => !holdsRefTarget(targets, e.path));
    // Data can hold a schema that a reference compiles (`#/x-defs/A`); look there too, conservatively, when
    // an edit depends on it.
    if (!usesUnevaluatedProperties && edits.some((e) => e.evaluates)) usesUnevaluatedProperties = (inData ??= dataKeys(schema, table)).unevaluatedProperties;
    for (const edit of edits) {
      if (edit.evaluates && usesUnevaluatedProperties) continue;
      if (edit.code === 'unwrapped-type') ctx.replace(base + edit.path, edit.value, edit.code, edit.data);
      else ctx.remove(base + edit.path, edit.code, edit.data);
    }
  }
  if (unions === undefined || usesUnevaluatedProperties || usesUnevaluatedItems || targets?.undecidable !== undefined) return;
  const data = (inData ??= dataKeys(schema, table));
  if (data.unevaluatedProperties || data.unevaluatedItems) return;
  // In postorder (the walk met them in preorder), each read as the edits so far left it: a union inside
  // another's branch is collapsed before that branch moves, and of a holder with both keywords the first
  // collapses (the second then meets the `type` the first brought, and stays).
  const open: NullUnionSite[] = [];
  for (const site of unions) {
    while (open.length > 0 && !site.path.startsWith(open[open.length - 1]!.path + '/')) collapseAt(open.pop()!, d, ctx, targets);
    open.push(site);
  }
  while (open.length > 0) collapseAt(open.pop()!, d, ctx, targets);
}

function collapseAt({ path, keyword }: NullUnionSite, d: SchemaDocument, ctx: EditContext, targets: RefTargets | undefined): void {
  // Its branches move up: nothing a reference may land on can be there.
  if (targets !== undefined && holdsRefTarget(targets, appendPointer(path, keyword))) return;
  const holder = ctx.get(d.base + path);
  if (!isObject(holder)) return;
  const result = collapseNullUnion(holder, keyword, d.dialect);
  if (result.ok) ctx.replace(d.base + path, result.schema, 'collapsed-null-union', { keyword, type: result.type });
}

/** A null union met by the walk: its holder's pointer and its keyword. */
interface NullUnionSite {
  readonly path: string;
  readonly keyword: NullUnionKeyword;
}

const DEFINITIONS: ReadonlySet<string> = new Set(DEFINITIONS_KEYWORDS);
const REFERENCES: ReadonlySet<string> = new Set(REFERENCE_KEYWORDS);

/** The pointer of the node at `depth` of the walk: its ancestors' keywords, each with its entry when it has one. */
function pointerAt(keywords: readonly string[], entries: readonly (string | number | undefined)[], depth: number): string {
  let path = '';
  for (let i = 0; i < depth; i++) {
    path = appendPointer(path, keywords[i]!);
    const entry = entries[i];
    if (entry !== undefined) path = appendPointer(path, entry);
  }
  return path;
}

function isEmpty(obj: Record<string, unknown>): boolean {
  for (const k in obj) if (hasOwn(obj, k)) return false;
  return true;
}

/** Which keys some object inside a document's data has (see {@link dataKeys}). */
interface DataKeys {
  /** A reference keyword (`$ref`, `$dynamicRef`, `$recursiveRef`). */
  readonly references: boolean;
  readonly unevaluatedProperties: boolean;
  readonly unevaluatedItems: boolean;
}

/**
 * Which of the keys normalize-schema cares about some object inside data of `schema` has as an own key
 * (an opaque or unknown keyword's value, a value of the wrong shape, an array where a subschema belongs),
 * as `table` reads it. No pointers are built.
 */
function dataKeys(schema: Record<string, unknown>, table: KeywordTable): DataKeys {
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
  let references = false;
  let unevaluatedProperties = false;
  let unevaluatedItems = false;
  while (data.length > 0 && !(references && unevaluatedProperties && unevaluatedItems)) {
    const v = data.pop();
    if (Array.isArray(v)) {
      for (const x of v) if (typeof x === 'object' && x !== null) data.push(x);
    } else if (isObject(v)) {
      for (const k of Object.keys(v)) {
        if (k === 'unevaluatedProperties') unevaluatedProperties = true;
        else if (k === 'unevaluatedItems') unevaluatedItems = true;
        else if (REFERENCES.has(k)) references = true;
        const x = v[k];
        if (typeof x === 'object' && x !== null) data.push(x);
      }
    }
  }
  return { references, unevaluatedProperties, unevaluatedItems };
}

/** `{"type": ["null"]}` with nothing else. */
function isBareNullBranch(node: Record<string, unknown>): boolean {
  let keys = 0;
  for (const key in node) if (hasOwn(node, key)) keys++;
  return keys === 1;
}
