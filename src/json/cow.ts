/**
 * Copy-on-write building blocks: a shallow copy that keeps key order, and a property write that treats
 * `__proto__` as data. Containers are copied only on the path an edit takes; everything else is shared.
 */
import { isArrayIndex } from './pointer.js';

/** A shallow copy that keeps key order and treats `__proto__` as an ordinary own key. */
export function shallowCopy<T>(value: T): T {
  if (Array.isArray(value)) return value.slice() as T;
  const out: Record<string, unknown> = {};
  const src = value as Record<string, unknown>;
  for (const k of Object.keys(src)) setOwn(out, k, src[k]);
  return out as T;
}

/** Sets an own property; `__proto__` becomes data, never the prototype. */
export function setOwn(target: object, key: string, value: unknown): void {
  if (Array.isArray(target) && isArrayIndex(key)) {
    target[Number(key)] = value;
    return;
  }
  if (key === '__proto__') Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else (target as Record<string, unknown>)[key] = value;
}
