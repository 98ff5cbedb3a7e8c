import { assertPlainJson } from './plain.js';

/**
 * JSON text for values of any depth. `JSON.stringify` recurses and overflows the stack a few thousand
 * levels down; a tool passed through unchanged because it is that deep must still be written out. This
 * serializer is iterative and produces the same text as `JSON.stringify(value, null, indent)` for plain
 * JSON values (key order kept; `undefined`, functions and symbols in objects omitted, in arrays `null`).
 */
export function stringifyJson(value: unknown, indent: number | string = 0): string {
  try {
    return JSON.stringify(value, null, indent) ?? 'undefined';
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
  }
  return stringifyIterative(value, indent);
}

/**
 * {@link stringifyJson} of a value a caller of a public function handed in: one it cannot write (one that
 * contains itself, a live object that throws) is a ToolslimError (`invalid-input`) naming `who`, `what` and
 * the pointer of the problem, not JSON.stringify's TypeError. The check runs only when writing failed.
 */
export function stringifyForCaller(value: unknown, who: string, what: string, indent: number | string = 0): string {
  try {
    return stringifyJson(value, indent);
  } catch (e) {
    assertPlainJson(value, who, what);
    throw e;
  }
}

/**
 * The iterative serializer behind {@link stringifyJson} (exported for tests). A value that contains itself
 * is a TypeError, as from `JSON.stringify`: a cycle that closes deeper than `JSON.stringify` can go (it
 * overflows first, and this serializer takes over) was written out forever. `toJSON` is called as
 * `JSON.stringify` calls it: once per place, with the member's key (an element's index as a string, `""` at
 * the root), and what it returns is written as it is (a `toJSON` returning its own object once looped here),
 * or omitted from an object when it is `undefined`, a function or a symbol.
 */
export function stringifyIterative(value: unknown, indent: number | string = 0): string {
  const gap = typeof indent === 'number' ? ' '.repeat(Math.min(10, Math.max(0, indent))) : indent.slice(0, 10);
  const out: string[] = [];
  // Work items: a value to write (with its nesting level), a literal piece of text, or the end of a
  // container (taken off the containers being written).
  type Item = { v: unknown; level: number } | string | { end: object };
  const stack: Item[] = [{ v: viaToJSON(value, ''), level: 0 }];
  const open = new Set<object>();
  const nl = (level: number) => (gap === '' ? '' : '\n' + gap.repeat(level));
  const colon = gap === '' ? ':' : ': ';
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (typeof item === 'string') {
      out.push(item);
      continue;
    }
    if ('end' in item) {
      open.delete(item.end);
      continue;
    }
    const { v, level } = item;
    if (v === null || typeof v !== 'object') {
      out.push(scalar(v) ?? 'null');
      continue;
    }
    if (open.has(v)) throw new TypeError('Converting circular structure to JSON');
    if (Array.isArray(v)) {
      if (v.length === 0) {
        out.push('[]');
        continue;
      }
      const parts: Item[] = ['['];
      for (let i = 0; i < v.length; i++) {
        if (i > 0) parts.push(',');
        parts.push(nl(level + 1));
        const e = viaToJSON(v[i], String(i));
        parts.push(e === undefined || typeof e === 'function' || typeof e === 'symbol' ? 'null' : { v: e, level: level + 1 });
      }
      parts.push(nl(level) + ']');
      open.add(v);
      stack.push({ end: v });
      for (let i = parts.length - 1; i >= 0; i--) stack.push(parts[i]!);
      continue;
    }
    const rec = v as Record<string, unknown>;
    const members: [string, unknown][] = [];
    for (const k of Object.keys(rec)) {
      const e = viaToJSON(rec[k], k);
      if (e !== undefined && typeof e !== 'function' && typeof e !== 'symbol') members.push([k, e]);
    }
    if (members.length === 0) {
      out.push('{}');
      continue;
    }
    const parts: Item[] = ['{'];
    members.forEach(([k, e], i) => {
      if (i > 0) parts.push(',');
      parts.push(nl(level + 1) + JSON.stringify(k) + colon);
      parts.push({ v: e, level: level + 1 });
    });
    parts.push(nl(level) + '}');
    open.add(v);
    stack.push({ end: v });
    for (let i = parts.length - 1; i >= 0; i--) stack.push(parts[i]!);
  }
  return out.join('');
}

/** What `JSON.stringify` writes in place of `v` held under `key`: `v.toJSON(key)` when `v` has one, else `v`. */
function viaToJSON(v: unknown, key: string): unknown {
  if (v === null || (typeof v !== 'object' && typeof v !== 'bigint')) return v;
  const toJSON = (v as { toJSON?: unknown }).toJSON;
  return typeof toJSON === 'function' ? (toJSON as (key: string) => unknown).call(v, key) : v;
}

function scalar(v: unknown): string | undefined {
  if (typeof v === 'bigint') throw new TypeError('Do not know how to serialize a BigInt');
  return JSON.stringify(v);
}
