/**
 * `typescript`: what OpenAI's gpt-oss models read, following the rules of the openai/harmony library
 * (`src/encoding.rs`: `json_schema_to_typescript` and the tools section; fixture
 * `test-data/test_render_functions_with_parameters.txt`, reproduced byte for byte in test/render/). Written
 * from those rules, not translated from the code. docs/render.md lists them; in short:
 *
 * - a schema's `oneOf` (an array) is a union, one `\n | ` line per variant, checked before anything else;
 * - `type` as an array is its names joined by ` | ` (`integer` → `number`; `object` and `array` stay words);
 * - `type: "object"` is `{` one `name?: type,` line per property `}`, `?` unless `required`, with the
 *   property's `title`, `description` and string `examples` as `//` comments above and `default` after;
 * - `type: "string"` with a string `enum` is the quoted values joined by ` | `; `number`/`integer` is
 *   `number`, `boolean` is `boolean`, `array` is `items` + `[]` (or `Array<any>`);
 * - everything else (no `type`: `$ref`, `anyOf`, `allOf`, `const`, a bare `enum`, …) is `any`;
 * - every other keyword (`$defs`, `additionalProperties`, `format`, `pattern`, bounds, `$schema`, `x-*`) is
 *   not shown.
 *
 * Bad input never throws and never recurses without bound: a subschema deeper than
 * {@link MAX_TYPESCRIPT_DEPTH} JSON levels, one that contains itself, or one that cannot be read renders
 * as `any` (harmony reads parsed JSON, whose depth serde_json limits to 128 and which has no cycles).
 */
import { appendPointer } from '../json/pointer.js';
import { COMPACT, readField, writeJson, type JsonStyle } from './json-text.js';
import { serdeNumber } from './serde-number.js';
import { MAX_TYPESCRIPT_DEPTH, type AnyReason, type ForwardedTool, type Renderer } from './types.js';

export const typescriptRenderer: Renderer = Object.freeze({
  name: 'typescript',
  renderTool(tool: ForwardedTool): string {
    const lines = descriptionLines(readField(tool, 'description')).map((l) => `// ${l}`);
    const name = text(readField(tool, 'name'));
    const params = readField(tool, 'inputSchema');
    lines.push(params === undefined || params === null ? `type ${name} = () => any;\n` : `type ${name} = (_: ${renderParameters(params)}) => any;\n`);
    return lines.join('\n');
  },
  renderTools(tools: readonly ForwardedTool[]): string {
    if (tools.length === 0) return '';
    return ['## functions\n', 'namespace functions {\n', ...tools.map((t) => typescriptRenderer.renderTool(t)), '} // namespace functions'].join('\n');
  },
});

/** Called for each place the renderer writes `any` for a schema. */
export type AnyListener = (path: string, reason: AnyReason) => void;

/** The TypeScript type harmony writes for a tool's parameters schema; `onAny` hears every `any`. */
export function renderParameters(schema: unknown, onAny?: AnyListener): string {
  return typeOf(schema, '', { open: new Set(), onAny }, '', 1);
}

interface Cx {
  /** The schema objects being rendered: one met again is a cycle. */
  readonly open: Set<object>;
  readonly onAny: AnyListener | undefined;
}

function typeOf(schema: unknown, indent: string, cx: Cx, path: string, depth: number): string {
  if (depth > MAX_TYPESCRIPT_DEPTH) return any(cx, path, 'too-deep');
  if (schema === UNREADABLE) return any(cx, path, 'unreadable');
  if (typeof schema !== 'object' || schema === null) return any(cx, path, 'no-type');
  if (cx.open.has(schema)) return any(cx, path, 'cycle');
  let isArray: boolean;
  try {
    isArray = Array.isArray(schema);
    Object.keys(schema);
  } catch {
    return any(cx, path, 'unreadable');
  }
  if (isArray) return any(cx, path, 'no-type');
  cx.open.add(schema);
  const out = typeOfObject(schema as Record<string, unknown>, indent, cx, path, depth);
  cx.open.delete(schema);
  return out;
}

function typeOfObject(s: Record<string, unknown>, indent: string, cx: Cx, path: string, depth: number): string {
  const oneOf = list(get(s, 'oneOf'));
  if (oneOf !== undefined) return unionLines(oneOf, indent, cx, child(cx, path, 'oneOf'), depth + 1);
  const type = get(s, 'type');
  const types = list(type);
  if (types !== undefined) {
    const names = types.filter((t): t is string => typeof t === 'string').map((t) => (t === 'integer' ? 'number' : t));
    if (names.length > 0) {
      if (names.includes('object')) any(cx, path, 'nullable-object');
      else if (names.includes('array')) any(cx, path, 'nullable-array');
      return names.join(' | ');
    }
  }
  if (typeof type !== 'string') return any(cx, path, unreadable(type) ? 'unreadable' : noTypeReason(s));
  switch (type) {
    case 'object':
      return objectType(s, indent, cx, path, depth);
    case 'string': {
      const values = list(get(s, 'enum'));
      const quoted = values !== undefined ? values.filter((v): v is string => typeof v === 'string').map((v) => `"${v}"`) : [];
      return quoted.length > 0 ? quoted.join(' | ') : 'string';
    }
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'array': {
      const items = get(s, 'items');
      return items === undefined ? 'Array<any>' : `${typeOf(items, indent, cx, child(cx, path, 'items'), depth + 1)}[]`;
    }
    default:
      return any(cx, path, 'unknown-type');
  }
}

/** A `oneOf` met as a schema (not as a property): each variant on its own ` | ` line, comments after it. */
function unionLines(variants: readonly unknown[], indent: string, cx: Cx, path: string, depth: number): string {
  let out = '';
  variants.forEach((variant, i) => {
    out += `\n${indent} | ` + nullable(variant, typeOf(variant, indent + '   ', cx, child(cx, path, i), depth + 1));
    const notes: string[] = [];
    const description = get(variant, 'description');
    if (typeof description === 'string') notes.push(description);
    const dflt = get(variant, 'default');
    if (dflt !== undefined) notes.push(typeof dflt === 'string' && !isEnum(variant) ? `default: "${dflt}"` : `default: ${display(dflt)}`);
    if (notes.length > 0) out += ` // ${notes.join(' ')}`;
  });
  return out;
}

function objectType(s: Record<string, unknown>, indent: string, cx: Cx, path: string, depth: number): string {
  let out = '';
  const description = get(s, 'description');
  if (typeof description === 'string') out += `${indent}// ${description}\n`;
  out += '{\n';
  const props = get(s, 'properties');
  if (typeof props === 'object' && props !== null && list(props) === undefined && !unreadable(props)) {
    const required = new Set((list(get(s, 'required')) ?? []).filter((r) => typeof r === 'string'));
    const propsPath = child(cx, path, 'properties');
    for (const key of keysOf(props)) {
      const val = get(props, key);
      const mark = required.has(key) ? '' : '?';
      const at = child(cx, propsPath, key);
      const title = get(val, 'title');
      if (typeof title === 'string') out += `${indent}// ${title}\n${indent}//\n`;
      const rawOneOf = get(val, 'oneOf');
      const oneOf = list(rawOneOf);
      const propDescription = get(val, 'description');
      if (rawOneOf === undefined && typeof propDescription === 'string') out += `${indent}// ${propDescription}\n`;
      const rawExamples = get(val, 'examples');
      const examples = list(rawExamples);
      if (examples !== undefined && lengthOf(rawExamples) > 0) {
        out += `${indent}// Examples:\n`;
        for (const ex of examples) if (typeof ex === 'string') out += `${indent}// - "${ex}"\n`;
      }
      const dflt = get(val, 'default');
      if (oneOf !== undefined) {
        out += oneOfProperty(val, oneOf, key + mark, typeof propDescription === 'string' ? propDescription : undefined, dflt, indent, cx, child(cx, at, 'oneOf'), depth + 3);
        continue;
      }
      out += `${indent}${key}${mark}: ` + nullable(val, typeOf(val, indent + '    ', cx, at, depth + 2)) + ',';
      if (rawOneOf === undefined && dflt !== undefined) out += ` // default: ${defaultText(dflt, val)}`;
      out += '\n';
    }
  }
  return out + `${indent}}`;
}

/** A property whose schema has a `oneOf` array: comments above the name, then one ` | ` line per variant. */
function oneOfProperty(val: unknown, variants: readonly unknown[], label: string, propDescription: string | undefined, dflt: unknown, indent: string, cx: Cx, path: string, depth: number): string {
  let out = '';
  // The property's description is written above unless the first variant says the same.
  const skip = propDescription !== undefined && variants.length > 0 && get(variants[0], 'description') === propDescription;
  const above = !skip && propDescription !== undefined;
  if (above) out += `${indent}// ${propDescription}\n`;
  if (dflt !== undefined) out += `${indent}// default: ${defaultText(dflt, val)}\n`;
  out += `${indent}${label}:\n`;
  variants.forEach((variant, i) => {
    out += `${indent} | ` + nullable(variant, typeOf(variant, indent + '   ', cx, child(cx, path, i), depth + 1));
    const notes: string[] = [];
    const description = get(variant, 'description');
    if (!(i === 0 && above) && typeof description === 'string' && description !== propDescription) notes.push(description);
    const d = get(variant, 'default');
    if (d !== undefined) notes.push(`default: ${defaultText(d, variant)}`);
    if (notes.length > 0) out += ` // ${notes.join(' ')}`;
    out += '\n';
  });
  return out + `${indent},\n`;
}

/** A property's default as a comment writes it: a string quoted unless the schema has an `enum`, raw if it has. */
function defaultText(value: unknown, schema: unknown): string {
  if (typeof value === 'string') return isEnum(schema) ? value : `"${value}"`;
  return display(value);
}

function nullable(schema: unknown, type: string): string {
  return get(schema, 'nullable') === true && !type.includes('null') ? `${type} | null` : type;
}

function isEnum(schema: unknown): boolean {
  return lengthOf(get(schema, 'enum')) > 0;
}

function noTypeReason(s: Record<string, unknown>): AnyReason {
  if (get(s, '$ref') !== undefined) return 'ref';
  if (get(s, 'anyOf') !== undefined) return 'anyOf';
  if (get(s, 'allOf') !== undefined) return 'allOf';
  if (get(s, 'const') !== undefined) return 'const';
  const values = list(get(s, 'enum'));
  if (values !== undefined) return values.every((v) => typeof v === 'string') ? 'enum' : 'number-enum';
  return 'no-type';
}

function any(cx: Cx, path: string, reason: AnyReason): 'any' {
  cx.onAny?.(path, reason);
  return 'any';
}

/** The pointer of a child, built only when someone listens for `any`. */
function child(cx: Cx, path: string, token: string | number): string {
  return cx.onAny === undefined ? '' : appendPointer(path, token);
}

/** An own property of a plain object; `undefined` when absent, not an object, or reading throws. */
function get(value: unknown, key: string): unknown {
  if (typeof value !== 'object' || value === null) return undefined;
  try {
    if (Array.isArray(value)) return undefined;
    return Object.prototype.hasOwnProperty.call(value, key) ? (value as Record<string, unknown>)[key] : undefined;
  } catch {
    return undefined;
  }
}

/** An item whose reading threw (a throwing getter or Proxy); rendered `any` (`unreadable`) where a schema is expected. */
const UNREADABLE: unique symbol = Symbol('unreadable');

/**
 * `value`'s items when it is an array, read once and without throwing: an item that cannot be read is
 * {@link UNREADABLE}, an unreadable `length` (or list of keys) reads as no items (the JSON readers write
 * `"[Unreadable]"` and `[]` there); `undefined` when `value` is not an array or cannot even be told apart
 * from one (a revoked Proxy, which the JSON readers write as the string `"[Unreadable]"`). Only the items
 * present are read: a hole in a sparse array (built in JavaScript; parsed JSON has none) is left out, so a
 * 4-billion `length` costs nothing.
 */
function list(value: unknown): unknown[] | undefined {
  if (!isList(value)) return undefined;
  let n: unknown;
  let keys: string[];
  try {
    n = (value as unknown[]).length;
    keys = Object.keys(value);
  } catch {
    return [];
  }
  if (typeof n !== 'number') return [];
  const indices: number[] = [];
  for (const k of keys) {
    if (!/^(?:0|[1-9]\d*)$/.test(k)) continue;
    const i = Number(k);
    if (i < n) indices.push(i);
  }
  for (let j = 1; j < indices.length; j++) {
    if (indices[j - 1]! > indices[j]!) {
      indices.sort((x, y) => x - y);
      break;
    }
  }
  return indices.map((i) => {
    try {
      return (value as unknown[])[i];
    } catch {
      return UNREADABLE;
    }
  });
}

/** An array's `length` (holes count, as in the JSON text); 0 for anything else or when it cannot be read. */
function lengthOf(value: unknown): number {
  if (!isList(value)) return 0;
  try {
    const n = (value as unknown[]).length;
    return typeof n === 'number' ? n : 0;
  } catch {
    return 0;
  }
}

/** `Array.isArray`, false where it throws (a revoked Proxy). */
function isList(value: unknown): value is unknown[] {
  try {
    return Array.isArray(value);
  } catch {
    return false;
  }
}

/** True for an object whose kind cannot be read (`Array.isArray` throws: a revoked Proxy). */
function unreadable(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  try {
    Array.isArray(value);
    return false;
  } catch {
    return true;
  }
}

function keysOf(value: object): string[] {
  try {
    return Object.keys(value);
  } catch {
    return [];
  }
}

/** serde_json's `Display` of a value: compact JSON, numbers as serde_json writes them. */
const SERDE: JsonStyle = Object.freeze({ ...COMPACT, number: serdeNumber });
function display(value: unknown): string {
  return writeJson(value, SERDE);
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : display(value);
}

/**
 * Rust's `str::lines`: split on `\n` or `\r\n` (a bare `\r` is not a line end, also at the very end), no
 * final empty line; `''` has none.
 */
function descriptionLines(value: unknown): string[] {
  if (typeof value !== 'string' || value === '') return [];
  const pieces = value.split('\n');
  const last = pieces.pop()!; // the text after the last `\n`: no line end of its own
  const lines = pieces.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  if (last !== '') lines.push(last);
  return lines;
}
