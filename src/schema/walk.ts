import { UNION_KEYWORDS, type KeywordTable } from './keywords.js';
import { appendPointer } from '../json/pointer.js';
import { isObject } from '../json/guards.js';

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

type Frame = [node: unknown, path: string, keyword: string | undefined, parent: Record<string, unknown> | undefined];

/**
 * Walks every subschema of `root` once, iteratively (no recursion: 100,000 levels of nesting cost heap,
 * not stack). The input must be acyclic; the pipeline checks that before any transform runs.
 */
export function walkSchema(root: unknown, basePath: string, options: WalkOptions): void {
  const table = options.table ?? UNION_KEYWORDS;
  const { onSchema, onOpaque } = options;
  const stack: Frame[] = [[root, basePath, undefined, undefined]];
  const children: Frame[] = [];
  while (stack.length > 0) {
    const [node, path, keyword, parent] = stack.pop()!;
    if (onSchema && onSchema(node, path, keyword, parent) === false) continue;
    if (!isObject(node)) {
      // An array where a subschema belongs is not a schema; whatever it holds is data, like an unknown keyword's.
      if (onOpaque && Array.isArray(node) && keyword !== undefined && parent !== undefined) onOpaque(keyword, node, path, parent);
      continue;
    }
    children.length = 0;
    for (const key of Object.keys(node)) {
      const value = node[key];
      const info = table.get(key);
      const shape = info ? info.shape : 'opaque';
      // Most keys of a schema are data (`type`, `description`, …): their pointer is built only when
      // someone asks for it.
      if (shape === 'opaque') {
        if (onOpaque) onOpaque(key, value, appendPointer(path, key), node);
        continue;
      }
      const p = appendPointer(path, key);
      switch (shape) {
        case 'schema':
          children.push([value, p, key, node]);
          break;
        case 'schemaArray':
          if (Array.isArray(value)) for (let i = 0; i < value.length; i++) children.push([value[i], appendPointer(p, i), key, node]);
          else if (onOpaque) onOpaque(key, value, p, node);
          break;
        case 'schemaOrArray':
          if (Array.isArray(value)) for (let i = 0; i < value.length; i++) children.push([value[i], appendPointer(p, i), key, node]);
          else children.push([value, p, key, node]);
          break;
        case 'schemaMap':
          if (isObject(value)) for (const k of Object.keys(value)) children.push([value[k], appendPointer(p, k), key, node]);
          else if (onOpaque) onOpaque(key, value, p, node);
          break;
        case 'schemaOrStrings':
          if (isObject(value)) {
            for (const k of Object.keys(value)) {
              const v = value[k];
              if (Array.isArray(v)) {
                if (onOpaque) onOpaque(key, v, appendPointer(p, k), node);
              } else children.push([v, appendPointer(p, k), key, node]);
            }
          } else if (onOpaque) onOpaque(key, value, p, node);
          break;
      }
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
}

/**
 * True when `test` holds for some subschema object of `root` (the root included, with `isRoot` true): the
 * same positions {@link walkSchema} visits, without building a pointer for any of them, and stopping at
 * the first hit. For the cheap "is there anything to do here at all?" look before a transform's real walk.
 */
export function someSubschema(root: unknown, test: (node: Record<string, unknown>, isRoot: boolean) => boolean, table: KeywordTable = UNION_KEYWORDS): boolean {
  const stack: unknown[] = [root];
  let isRoot = true;
  while (stack.length > 0) {
    const node = stack.pop();
    if (!isObject(node)) {
      isRoot = false;
      continue;
    }
    if (test(node, isRoot)) return true;
    isRoot = false;
    for (const key of Object.keys(node)) {
      const info = table.get(key);
      if (!info || info.shape === 'opaque') continue;
      const value = node[key];
      switch (info.shape) {
        case 'schema':
          stack.push(value);
          break;
        case 'schemaArray':
        case 'schemaOrArray':
          if (Array.isArray(value)) for (let i = 0; i < value.length; i++) stack.push(value[i]);
          else if (info.shape === 'schemaOrArray') stack.push(value);
          break;
        case 'schemaMap':
        case 'schemaOrStrings':
          if (isObject(value)) for (const k of Object.keys(value)) if (!Array.isArray(value[k])) stack.push(value[k]);
          break;
      }
    }
  }
  return false;
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
