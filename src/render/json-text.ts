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
 */

/** Separators and indentation of one JSON style. */
export interface JsonStyle {
  /** Between items: `,` or `, `. With an indent, the newline and indentation follow it. */
  readonly item: string;
  /** Between a key and its value: `:` or `: `. */
  readonly key: string;
  /** Indentation per level (`''`: one line). */
  readonly indent: string;
}

export const COMPACT: JsonStyle = Object.freeze({ item: ',', key: ':', indent: '' });
/** Python `json.dumps(x, ensure_ascii=False)`: Jinja's `tojson` in Hugging Face chat templates. */
export const SPACED: JsonStyle = Object.freeze({ item: ', ', key: ': ', indent: '' });
/** Python `json.dumps(x, ensure_ascii=False, indent=4)`: `tojson(indent=4)`. */
export const INDENT4: JsonStyle = Object.freeze({ item: ',', key: ': ', indent: '    ' });

export const CIRCULAR = '"[Circular]"';
export const UNREADABLE = '"[Unreadable]"';

type Item = { readonly v: unknown; readonly level: number } | string | { readonly leave: object };

/** `value` as JSON text in `style`. Never throws. */
export function writeJson(value: unknown, style: JsonStyle): string {
  const out: string[] = [];
  const open = new Set<object>(); // the containers being written: a value among them is a cycle
  const stack: Item[] = [{ v: value, level: 0 }];
  const nl = (level: number): string => (style.indent === '' ? '' : '\n' + style.indent.repeat(level));
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (typeof item === 'string') {
      out.push(item);
      continue;
    }
    if ('leave' in item) {
      open.delete(item.leave);
      continue;
    }
    const origin = item.v;
    let v = origin;
    const level = item.level;
    if (typeof v === 'object' && v !== null) {
      if (open.has(v)) {
        out.push(CIRCULAR);
        continue;
      }
      const toJSON = read(v, 'toJSON');
      if (toJSON === FAILED) {
        out.push(UNREADABLE);
        continue;
      }
      if (typeof toJSON === 'function') {
        try {
          v = (toJSON as (this: unknown, key: string) => unknown).call(v, '');
        } catch {
          out.push(UNREADABLE);
          continue;
        }
      }
    }
    if (v === null || typeof v !== 'object') {
      out.push(scalar(v) ?? 'null');
      continue;
    }
    if (open.has(v)) {
      out.push(CIRCULAR);
      continue;
    }
    let isArray: boolean;
    let keys: string[];
    try {
      isArray = Array.isArray(v);
      keys = isArray ? [] : Object.keys(v);
    } catch {
      out.push(UNREADABLE);
      continue;
    }
    const parts: Item[] = [];
    if (isArray) {
      const length = read(v, 'length');
      const n = typeof length === 'number' ? length : 0;
      for (let i = 0; i < n; i++) {
        const e = read(v, String(i));
        parts.push(i > 0 ? style.item + nl(level + 1) : nl(level + 1));
        parts.push(e === FAILED ? UNREADABLE : omitted(e) ? 'null' : { v: e, level: level + 1 });
      }
    } else {
      for (const k of keys) {
        const e = read(v, k);
        if (e !== FAILED && omitted(e)) continue;
        parts.push((parts.length > 0 ? style.item : '') + nl(level + 1) + JSON.stringify(k) + style.key);
        parts.push(e === FAILED ? UNREADABLE : { v: e, level: level + 1 });
      }
    }
    const [first, last] = isArray ? ['[', ']'] : ['{', '}'];
    if (parts.length === 0) {
      out.push(first + last);
      continue;
    }
    out.push(first);
    open.add(v);
    stack.push({ leave: v });
    // A `toJSON` that returns a new object holding its receiver recurs through the receiver: mark both.
    if (origin !== v && typeof origin === 'object' && origin !== null && !open.has(origin)) {
      open.add(origin);
      stack.push({ leave: origin });
    }
    stack.push(nl(level) + last);
    for (let i = parts.length - 1; i >= 0; i--) stack.push(parts[i]!);
  }
  return out.join('');
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

function scalar(v: unknown): string | undefined {
  if (typeof v === 'bigint') return v.toString();
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
