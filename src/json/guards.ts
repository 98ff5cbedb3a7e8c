/** Type guards for JSON values, safe for `__proto__` keys and objects without a prototype. */

/** Own-property test that is safe for `__proto__` and objects without a prototype. */
export function hasOwn(value: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(value, key);
}

/** True for a plain JSON object (not an array, not null). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
