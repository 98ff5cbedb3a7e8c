/**
 * JSON text in the three styles the JSON readers see, for any value: iterative (no depth limit, no
 * recursion, so a 100,000-deep schema is written out like any other), and never throwing.
 *
 * What is not plain JSON gets a fixed text instead of an exception:
 * - a container that contains itself (only possible in objects built in JavaScript) is written as the
 *   string `"[Circular]"` where it recurs;
 * - a value whose reading throws (a throwing getter, a revoked Proxy) is written as `"[Unreadable]"`;
 * - a `bigint` is written as its digits (as Python's `json.dumps` writes an int);
 * - otherwise as `JSON.stringify` does: `toJSON` applied once, `undefined`, functions and symbols omitted
 *   in objects and `null` in arrays, non-finite numbers `null`, lone surrogates escaped.
 *
 * Indentation grows with depth, so an indented text of a deep value grows with the square of its depth
 * (100,000 levels would be about 80 GB). Containers nested deeper than {@link MAX_INDENT_LEVELS} are
 * therefore written on one line with `, ` and `: ` (Python's `json.dumps` raises RecursionError near that
 * depth, so no chat template renders such a tool at all).
 */

/** Separators and indentation of one JSON style. */
export interface JsonStyle {
  /** Between items: `,` or `, `. With an indent, the newline and indentation follow it. */
  readonly item: string;
  /** Between a key and its value: `:` or `: `. */
  readonly key: string;
  /** Indentation per level (`''`: one line). */
  readonly indent: string;
  /** How a finite number is written; absent: as `JSON.stringify` writes it. */
  readonly number?: (n: number) => string;
}

export const COMPACT: JsonStyle = Object.freeze({ item: ',', key: ':', indent: '' });
/** Python `json.dumps(x, ensure_ascii=False)`: Jinja's `tojson` in Hugging Face chat templates. */
export const SPACED: JsonStyle = Object.freeze({ item: ', ', key: ': ', indent: '' });
/** Python `json.dumps(x, ensure_ascii=False, indent=4)`: `tojson(indent=4)`. */
export const INDENT4: JsonStyle = Object.freeze({ item: ',', key: ': ', indent: '    ' });

/** Levels of indentation written; deeper containers go on one line. */
export const MAX_INDENT_LEVELS = 1000;

export const CIRCULAR = '"[Circular]"';
export const UNREADABLE = '"[Unreadable]"';

/** One container being written: its keys (objects) or length (arrays), and how far it has got. */
interface Frame {
  readonly v: object;
  /** The `toJSON` receiver it came from, when different: marked open too. */
  readonly origin: object | undefined;
  readonly keys: readonly string[] | undefined;
  readonly n: number;
  i: number;
  /** Items written so far (objects skip omitted values). */
  written: number;
  readonly level: number;
}

/** `value` as JSON text in `style`. Never throws. */
export function writeJson(value: unknown, style: JsonStyle): string {
  const flat = style.indent === '';
  const open = new Set<object>(); // the containers being written: a value among them is a cycle
  const frames: Frame[] = [];
  let out = '';
  /** Writes a value: a scalar or a placeholder now, a container by opening its frame. */
  const write = (value: unknown, level: number): void => {
    if (typeof value !== 'object' || value === null) {
      out += scalar(value, style) ?? 'null';
      return;
    }
    if (open.has(value)) {
      out += CIRCULAR;
      return;
    }
    let v: unknown = value;
    const toJSON = read(value, 'toJSON');
    if (toJSON === FAILED) {
      out += UNREADABLE;
      return;
    }
    if (typeof toJSON === 'function') {
      try {
        v = (toJSON as (this: unknown, key: string) => unknown).call(value, '');
      } catch {
        out += UNREADABLE;
        return;
      }
      if (typeof v !== 'object' || v === null) {
        out += scalar(v, style) ?? 'null';
        return;
      }
      if (open.has(v)) {
        out += CIRCULAR;
        return;
      }
    }
    const obj = v as object;
    let keys: string[] | undefined;
    let n: number;
    try {
      if (Array.isArray(obj)) {
        const length = read(obj, 'length');
        n = typeof length === 'number' ? length : 0;
      } else {
        keys = Object.keys(obj);
        n = keys.length;
      }
    } catch {
      out += UNREADABLE;
      return;
    }
    out += keys === undefined ? '[' : '{';
    const origin = obj !== value ? value : undefined;
    open.add(obj);
    if (origin !== undefined) open.add(origin);
    frames.push({ v: obj, origin, keys, n, i: 0, written: 0, level });
  };
  write(value, 0);
  while (frames.length > 0) {
    const f = frames[frames.length - 1]!;
    // Indentation stops at MAX_INDENT_LEVELS: deeper containers are written on one line.
    const inline = flat || f.level + 1 > MAX_INDENT_LEVELS;
    if (f.i >= f.n) {
      frames.pop();
      open.delete(f.v);
      if (f.origin !== undefined) open.delete(f.origin);
      const close = f.keys === undefined ? ']' : '}';
      out += f.written === 0 || inline ? close : '\n' + style.indent.repeat(f.level) + close;
      continue;
    }
    const at = f.i++;
    const key = f.keys === undefined ? String(at) : f.keys[at]!;
    const e = read(f.v, key);
    if (f.keys !== undefined && e !== FAILED && omitted(e)) continue;
    if (f.written++ > 0) out += inline && !flat ? ', ' : style.item;
    if (!inline) out += '\n' + style.indent.repeat(f.level + 1);
    if (f.keys !== undefined) out += JSON.stringify(key) + style.key;
    if (e === FAILED) out += UNREADABLE;
    else if (omitted(e)) out += 'null';
    else write(e, f.level + 1);
  }
  return out;
}

const FAILED: unique symbol = Symbol('failed');

function read(v: object, key: string): unknown {
  try {
    return (v as Record<string, unknown>)[key];
  } catch {
    return FAILED;
  }
}

function omitted(v: unknown): boolean {
  return v === undefined || typeof v === 'function' || typeof v === 'symbol';
}

function scalar(v: unknown, style: JsonStyle): string | undefined {
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number' && style.number !== undefined && Number.isFinite(v)) return style.number(v);
  return JSON.stringify(v);
}

/** A value whose reading failed: written as {@link UNREADABLE}. */
export const UNREADABLE_VALUE: object = Object.freeze({
  toJSON(): never {
    throw new Error('unreadable');
  },
});

/** `tool[key]`, or {@link UNREADABLE_VALUE} when reading it throws. */
export function readField(tool: unknown, key: string): unknown {
  if (typeof tool !== 'object' || tool === null) return undefined;
  try {
    return (tool as Record<string, unknown>)[key];
  } catch {
    return UNREADABLE_VALUE;
  }
}

/** The OpenAI-style function object that chat templates embed: `{type, function: {name, description, parameters}}`. */
export function openAiFunction(tool: unknown): object {
  return { type: 'function', function: { name: readField(tool, 'name'), description: readField(tool, 'description'), parameters: readField(tool, 'inputSchema') } };
}
