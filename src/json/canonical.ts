/**
 * Iterative helpers over JSON values for the gate: a canonical text (object keys sorted), a 32-bit hash
 * of it, and deep equality. None of them recurse, so a value 100,000 levels deep costs heap, not stack.
 */

import { isObject } from './guards.js';

/**
 * JSON text of `value` with object keys sorted, so two values that are equal as JSON data (whatever their
 * key order) get the same text. Strings and numbers are written as `JSON.stringify` writes them. With
 * `cycles`, a value that contains itself is JSON.stringify's TypeError (the check costs a set of the
 * containers being written, so only a caller whose value may not be checked JSON asks for it); without it,
 * such a value is written forever.
 */
export function canonicalJson(value: unknown, cycles = false): string {
  const out: string[] = [];
  // Work items: a value to write, a literal piece of text, or (with `cycles`) the end of a container.
  const stack: ({ v: unknown } | string | { end: object })[] = [{ v: value }];
  const open = cycles ? new Set<object>() : undefined;
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (typeof item === 'string') {
      out.push(item);
      continue;
    }
    // Ends are pushed only with `cycles`: without it, every other item is a value.
    if (open !== undefined && !('v' in item)) {
      open.delete(item.end);
      continue;
    }
    const v = (item as { v: unknown }).v;
    if (open !== undefined && typeof v === 'object' && v !== null) {
      if (open.has(v)) throw new TypeError('Converting circular structure to JSON');
      open.add(v);
      stack.push({ end: v });
    }
    if (Array.isArray(v)) {
      out.push('[');
      stack.push(']');
      for (let i = v.length - 1; i >= 0; i--) {
        stack.push({ v: v[i] === undefined ? null : v[i] });
        if (i > 0) stack.push(',');
      }
    } else if (isObject(v)) {
      const keys = Object.keys(v)
        .filter((k) => v[k] !== undefined)
        .sort();
      out.push('{');
      stack.push('}');
      for (let i = keys.length - 1; i >= 0; i--) {
        const k = keys[i]!;
        stack.push({ v: v[k] });
        stack.push(JSON.stringify(k) + ':');
        if (i > 0) stack.push(',');
      }
    } else {
      out.push(JSON.stringify(v) ?? 'null');
    }
  }
  return out.join('');
}

/** FNV-1a (32-bit) of a string's UTF-16 code units: a cheap, stable seed, not a cryptographic hash. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}


/**
 * A cheap identity text for a JSON value: `JSON.stringify` (key order matters), falling back to
 * {@link canonicalJson} for values too deep for it. A value that contains itself is JSON.stringify's
 * TypeError, at any depth (the fallback was a walk that never ended).
 */
export function jsonKey(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'undefined';
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    return canonicalJson(value, true);
  }
}
