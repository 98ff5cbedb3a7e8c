import { isObject } from './guards.js';

/** Deep equality of two JSON values; key order does not matter, array order does. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  // The common answer without a stack: the same value (copy-on-write shares every unchanged subtree).
  if (a === b) return true;
  const stack: [unknown, unknown][] = [[a, b]];
  while (stack.length > 0) {
    const [x, y] = stack.pop()!;
    if (x === y) continue;
    if (Array.isArray(x)) {
      if (!Array.isArray(y) || x.length !== y.length) return false;
      for (let i = 0; i < x.length; i++) stack.push([x[i], y[i]]);
    } else if (isObject(x)) {
      if (!isObject(y)) return false;
      const kx = Object.keys(x);
      if (kx.length !== Object.keys(y).length) return false;
      for (const k of kx) {
        if (!Object.prototype.hasOwnProperty.call(y, k)) return false;
        stack.push([x[k], y[k]]);
      }
    } else {
      // Distinct primitives (NaN cannot occur in JSON).
      return false;
    }
  }
  return true;
}
