import { UNION_KEYWORDS, type KeywordTable } from './keywords.js';
import { appendPointer } from '../json/pointer.js';
import { hasOwn, isObject } from '../json/guards.js';

/**
 * Called for every subschema (an object or a boolean) in preorder, keys in document order.
 * `keyword` is the keyword that led to it (`properties`, `items`, …; undefined at the root) and `parent`
 * the schema object holding that keyword. Return `false` to skip the node's children.
 */
export type SchemaVisitor = (node: unknown, path: string, keyword: string | undefined, parent: Record<string, unknown> | undefined) => void | boolean;

/**
 * Called for the value of every opaque keyword (data such as `enum`, and every unknown keyword), and for
 * an array found where a subschema belongs (`not: [...]`, `anyOf: [[...]]`): `keyword` is the keyword that
 * led there and `path` points at the array itself.
 */
export type OpaqueVisitor = (keyword: string, value: unknown, path: string, owner: Record<string, unknown>) => void;

/** Options of {@link walkSchema}. */
export interface WalkOptions {
  /** The dialect's keyword table; the default, {@link UNION_KEYWORDS}, descends wherever any dialect would. */
  readonly table?: KeywordTable;
  readonly onSchema?: SchemaVisitor;
  readonly onOpaque?: OpaqueVisitor;
}

/** What {@link childrenOf} lists: a subschema, or a value that is data. */
export const CHILD = 0;
export const DATA = 1;

/**
 * THE keyword-shape switch: the subschemas of one schema object, in document order, as `table` classifies
 * its keywords (a keyword the table does not know is data). Every walker goes through it, so what counts
 * as a subschema is decided in one place.
 *
 * Appends four slots per item to `out` (flat, so a walk allocates nothing per child): the kind
 * ({@link CHILD} or {@link DATA}), the value, the keyword, and the entry below the keyword (an index for
 * arrays, a key for maps, `undefined` for a single value). With `data`, values that are not subschemas are
 * listed too, in place: an opaque or unknown keyword's value, a keyword whose value has the wrong shape
 * (`anyOf: {}`), and a string array inside draft-07 `dependencies` (entry: its key). With `data:
 * 'containers'`, only those that are objects or arrays (for a walker that looks inside data for
 * `$ref`-shaped values and has nothing to do with a string or a number).
 */
export function childrenOf(node: Record<string, unknown>, table: KeywordTable, out: unknown[], data: boolean | 'containers' = false): void {
  const shapes = shapeCodes(table);
  for (const key of Object.keys(node)) {
    const value = node[key];
    const shape = shapes.get(key);
    if (shape === undefined) {
      if (data === true || (data === 'containers' && typeof value === 'object' && value !== null)) out.push(DATA, value, key, undefined);
      continue;
    }
    switch (shape) {
      case SCHEMA:
        out.push(CHILD, value, key, undefined);
        break;
      case SCHEMA_ARRAY:
        if (Array.isArray(value)) for (let i = 0; i < value.length; i++) out.push(CHILD, value[i], key, i);
        else if (wants(data, value)) out.push(DATA, value, key, undefined);
        break;
      case SCHEMA_OR_ARRAY:
        if (Array.isArray(value)) for (let i = 0; i < value.length; i++) out.push(CHILD, value[i], key, i);
        else out.push(CHILD, value, key, undefined);
        break;
      case SCHEMA_MAP:
        if (isObject(value)) for (const k of Object.keys(value)) out.push(CHILD, value[k], key, k);
        else if (wants(data, value)) out.push(DATA, value, key, undefined);
        break;
      case SCHEMA_OR_STRINGS:
        if (isObject(value)) {
          for (const k of Object.keys(value)) {
            const v = value[k];
            if (!Array.isArray(v)) out.push(CHILD, v, key, k);
            else if (data !== false) out.push(DATA, v, key, k);
          }
        } else if (wants(data, value)) out.push(DATA, value, key, undefined);
        break;
    }
  }
}

// The table's shapes as small integers, for the keywords a walk descends into only (an opaque keyword
// and an unknown one are alike to a walk): a look-up per key without a string comparison after it.
const SCHEMA = 1;
const SCHEMA_ARRAY = 2;
const SCHEMA_OR_ARRAY = 3;
const SCHEMA_MAP = 4;
const SCHEMA_OR_STRINGS = 5;
const SHAPE_CODES: Readonly<Record<string, number>> = { schema: SCHEMA, schemaArray: SCHEMA_ARRAY, schemaOrArray: SCHEMA_OR_ARRAY, schemaMap: SCHEMA_MAP, schemaOrStrings: SCHEMA_OR_STRINGS };

/** Built once per table (the tables are the keyword module's constants); the last one asked is kept at hand. */
const SHAPES_BY_TABLE = new WeakMap<KeywordTable, ReadonlyMap<string, number>>();
let lastTable: KeywordTable | undefined;
let lastShapes: ReadonlyMap<string, number> = new Map();

function shapeCodes(table: KeywordTable): ReadonlyMap<string, number> {
  if (table === lastTable) return lastShapes;
  let shapes = SHAPES_BY_TABLE.get(table);
  if (shapes === undefined) {
    const map = new Map<string, number>();
    for (const [name, info] of table) if (info.shape !== 'opaque') map.set(name, SHAPE_CODES[info.shape]!);
    SHAPES_BY_TABLE.set(table, (shapes = map));
  }
  lastTable = table;
  lastShapes = shapes;
  return shapes;
}

/** Whether {@link childrenOf} lists a data value in mode `data`. */
function wants(data: boolean | 'containers', value: unknown): boolean {
  return data === true || (data === 'containers' && typeof value === 'object' && value !== null);
}

/**
 * Walks every subschema of `root` once, iteratively (no recursion: 100,000 levels of nesting cost heap,
 * not stack). The input must be acyclic; the pipeline checks that before any transform runs.
 */
export function walkSchema(root: unknown, basePath: string, options: WalkOptions): void {
  const table = options.table ?? UNION_KEYWORDS;
  const { onSchema, onOpaque } = options;
  const plainNames = namesArePlain(table);
  // Frames, four slots each (node, path, keyword, parent), flat; `items` is reused for every node.
  const stack: unknown[] = [root, basePath, undefined, undefined];
  const items: unknown[] = [];
  while (stack.length > 0) {
    const parent = stack.pop() as Record<string, unknown> | undefined;
    const keyword = stack.pop() as string | undefined;
    const path = stack.pop() as string;
    const node = stack.pop();
    // Called as methods of `options`: a visitor may be an object of a class (its methods live as long as the
    // class, so their optimised code survives a full GC; closures made per call do not, see json/shapes.ts).
    if (onSchema && options.onSchema!(node, path, keyword, parent) === false) continue;
    if (!isObject(node)) {
      // An array where a subschema belongs is not a schema; whatever it holds is data, like an unknown keyword's.
      if (onOpaque && Array.isArray(node) && keyword !== undefined && parent !== undefined) options.onOpaque!(keyword, node, path, parent);
      continue;
    }
    items.length = 0;
    childrenOf(node, table, items, onOpaque !== undefined);
    // Data first, in document order (before any child is visited), then the children, pushed last to first
    // so that they are visited in document order.
    if (onOpaque) {
      for (let i = 0; i < items.length; i += 4) if (items[i] !== CHILD) options.onOpaque!(items[i + 2] as string, items[i + 1], childPath(path, items[i + 2] as string, items[i + 3] as string | number | undefined), node);
    }
    for (let i = items.length - 4; i >= 0; i -= 4) {
      if (items[i] !== CHILD) continue;
      const key = items[i + 2] as string;
      // A keyword of the table is a plain token (no `~` or `/` to escape); its entry below may not be.
      const entry = items[i + 3] as string | number | undefined;
      const p = plainNames ? path + '/' + key : appendPointer(path, key);
      stack.push(items[i + 1], entry === undefined ? p : appendPointer(p, entry), key, node);
    }
  }
}

/** Whether no keyword of `table` that a walk descends into has a `~` or `/` (true of every built-in table). */
function namesArePlain(table: KeywordTable): boolean {
  let plain = PLAIN_NAMES.get(table);
  if (plain === undefined) {
    plain = true;
    for (const name of shapeCodes(table).keys()) if (name.includes('~') || name.includes('/')) plain = false;
    PLAIN_NAMES.set(table, plain);
  }
  return plain;
}

const PLAIN_NAMES = new WeakMap<KeywordTable, boolean>();

/** The pointer of a child: its keyword, then its entry below the keyword (an index or a key) when it has one. */
function childPath(path: string, key: string, entry: string | number | undefined): string {
  const p = appendPointer(path, key);
  return entry === undefined ? p : appendPointer(p, entry);
}

/**
 * True when `test` holds for some subschema object of `root` (the root included, with `isRoot` true): the
 * same positions {@link walkSchema} visits, without building a pointer for any of them, and stopping at
 * the first hit. For the cheap "is there anything to do here at all?" look before a transform's real walk.
 * `state` is handed to every `test` call (so `test` can be a module function, not a closure made per call).
 */
export function someSubschema<S = undefined>(root: unknown, test: (node: Record<string, unknown>, isRoot: boolean, state: S) => boolean, table: KeywordTable = UNION_KEYWORDS, state?: S): boolean {
  if (!isObject(root)) return false;
  if (test(root, true, state as S)) return true;
  // Only schema objects go on the stack (what else sits where a subschema belongs is never tested), each
  // node's in document order, so nodes are tested in the order a stack of all its children would give.
  const stack: Record<string, unknown>[] = [];
  pushSubschemaObjects(root, table, stack);
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (test(node, false, state as S)) return true;
    pushSubschemaObjects(node, table, stack);
  }
  return false;
}

/** The subschema objects {@link childrenOf} lists (as `CHILD`) for `node`, pushed onto `out` in document order. */
function pushSubschemaObjects(node: Record<string, unknown>, table: KeywordTable, out: Record<string, unknown>[]): void {
  const shapes = shapeCodes(table);
  for (const key in node) {
    const shape = shapes.get(key);
    if (shape === undefined || !hasOwn(node, key)) continue;
    const value = node[key];
    if (shape === SCHEMA) {
      if (isObject(value)) out.push(value);
    } else if (shape === SCHEMA_ARRAY || shape === SCHEMA_OR_ARRAY) {
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
          const v = value[i];
          if (isObject(v)) out.push(v);
        }
      } else if (shape === SCHEMA_OR_ARRAY && isObject(value)) out.push(value);
    } else if (isObject(value)) {
      // A map of subschemas (a string array in draft-07 `dependencies` is not an object: not pushed).
      for (const k in value) {
        if (!hasOwn(value, k)) continue;
        const v = value[k];
        if (isObject(v)) out.push(v);
      }
    }
  }
}

/**
 * Visits every value inside a JSON value (objects and arrays included), iteratively, in preorder.
 * Used to scan data (`default`, `enum`, unknown keywords) for `$ref`-shaped values.
 */
export function walkJson(root: unknown, basePath: string, visit: (value: unknown, path: string) => void): void {
  const stack: [unknown, string][] = [[root, basePath]];
  while (stack.length > 0) {
    const [value, path] = stack.pop()!;
    visit(value, path);
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push([value[i], appendPointer(path, i)]);
    } else if (isObject(value)) {
      const keys = Object.keys(value);
      for (let i = keys.length - 1; i >= 0; i--) stack.push([value[keys[i]!], appendPointer(path, keys[i]!)]);
    }
  }
}

/**
 * Where a subschema sits, as a link to the schema holding it: the keyword that led to it and the entry
 * below the keyword (an index for arrays, a key for maps, `undefined` for a single value). Its pointer is
 * spelt out only when asked ({@link placePointer}), so a walk that reports on few nodes builds few.
 */
export interface SchemaPlace {
  /** The place of the schema object holding the keyword (undefined: that schema is the walk's root). */
  readonly up: SchemaPlace | undefined;
  readonly keyword: string;
  readonly entry: string | number | undefined;
  /** The schema object holding the keyword. */
  readonly parent: Record<string, unknown>;
}

/** The pointer of `place` below the walk's root (`""` for the root itself). */
export function placePointer(place: SchemaPlace | undefined): string {
  if (place === undefined) return '';
  const links: SchemaPlace[] = [];
  for (let p: SchemaPlace | undefined = place; p !== undefined; p = p.up) links.push(p);
  let out = '';
  for (let i = links.length - 1; i >= 0; i--) {
    const l = links[i]!;
    out = appendPointer(out, l.keyword);
    if (l.entry !== undefined) out = appendPointer(out, l.entry);
  }
  return out;
}

/**
 * Visits every subschema object of `root` once, the root included (`place` undefined), in the order
 * {@link walkSchema} calls `onSchema` for them, without building a pointer for any: `visit` asks for one
 * with {@link placePointer}. Positions that hold something other than an object (a boolean schema, an
 * array where a subschema belongs) are not visited. Return `false` to skip a node's children. `state` is
 * handed to every `visit` call (so `visit` can be a module function, not a closure made per call).
 *
 * Its shape switch is the one of {@link pushSubschemaObjects} with each child's place recorded (a shared
 * switch would cost a call per child on these hot walks); test/unit/walk.test.ts holds both, and
 * {@link childrenOf}, to json-schema-traverse's positions.
 */
export function visitSchemaObjects<S = undefined>(root: unknown, table: KeywordTable, visit: (node: Record<string, unknown>, place: SchemaPlace | undefined, state: S) => void | boolean, state?: S): void {
  if (!isObject(root)) return;
  const shapes = shapeCodes(table);
  const stack: (Record<string, unknown> | SchemaPlace | undefined)[] = [root, undefined];
  const kids: (Record<string, unknown> | SchemaPlace)[] = [];
  while (stack.length > 0) {
    const place = stack.pop() as SchemaPlace | undefined;
    const node = stack.pop() as Record<string, unknown>;
    if (visit(node, place, state as S) === false) continue;
    kids.length = 0;
    for (const key in node) {
      const shape = shapes.get(key);
      if (shape === undefined || !hasOwn(node, key)) continue;
      const value = node[key];
      if (shape === SCHEMA) {
        if (isObject(value)) kids.push(value, { up: place, keyword: key, entry: undefined, parent: node });
      } else if (shape === SCHEMA_ARRAY || shape === SCHEMA_OR_ARRAY) {
        if (Array.isArray(value)) {
          for (let i = 0; i < value.length; i++) {
            const v = value[i];
            if (isObject(v)) kids.push(v, { up: place, keyword: key, entry: i, parent: node });
          }
        } else if (shape === SCHEMA_OR_ARRAY && isObject(value)) kids.push(value, { up: place, keyword: key, entry: undefined, parent: node });
      } else if (isObject(value)) {
        for (const k in value) {
          if (!hasOwn(value, k)) continue;
          const v = value[k];
          if (isObject(v)) kids.push(v, { up: place, keyword: key, entry: k, parent: node });
        }
      }
    }
    for (let i = kids.length - 2; i >= 0; i -= 2) stack.push(kids[i], kids[i + 1]);
  }
}
