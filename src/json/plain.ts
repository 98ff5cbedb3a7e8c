/**
 * Whether a value is plain JSON, decided exactly: the engine's input check (engine/input.ts) takes this walk
 * for every tool its fast path does not clear, and the public functions that walk a value a caller built
 * (a schema, a tool) take it before they start, so that a value that contains itself is refused, with the
 * pointer where it closes the circle, instead of being walked forever. Here, at the lowest layer, so that
 * `schema/` and `verify/` can check the values they are given too.
 */
import { ToolslimError } from './errors.js';
import { appendPointer } from './pointer.js';

/**
 * Nesting deeper than this is not transformed (the run's and the lint's default `maxDepth`), and the public
 * functions that walk a schema or a tool refuse it.
 */
export const DEFAULT_MAX_DEPTH = 1000;

/** Where a value is not plain JSON, and why. */
export interface JsonProblem {
  /** Pointer inside the value. */
  readonly path: string;
  readonly message: string;
}

/**
 * What {@link findJsonProblem} counts on its walk when asked: the UTF-8 bytes of `JSON.stringify(value)`.
 * `stringBytes` gives a string's (core/measure.ts `jsonStringBytes`: the JSON layer does not count UTF-8).
 */
export interface JsonBytes {
  bytes: number;
  readonly stringBytes: (text: string) => number;
}

/**
 * The first place, in document order, where `value` is not plain JSON, or undefined: an object that
 * contains itself (a reference cycle), a value JSON cannot hold (`undefined`, a function, a symbol, a
 * BigInt, NaN, ±Infinity, a class instance), an accessor property or a `Proxy` (a live object: reading it
 * may run code, throw or answer differently each time), nesting deeper than `maxDepth`. Iterative; reading
 * the value never throws (a throwing trap is itself the problem), and no getter is called. With
 * `undefinedMembers`, object members whose value is `undefined` are not problems: their pointers are
 * collected instead (JSON omits them, so they are absent to every reader); `undefined` array elements
 * still are (JSON writes `null`). With `size`, the bytes of the value's compact JSON are counted on the way
 * (when there is no problem). `what` names the value in messages (`tool`, `schema`).
 */
export function findJsonProblem(value: unknown, maxDepth: number, undefinedMembers?: string[], size?: JsonBytes, what = 'tool'): JsonProblem | undefined {
  // Pointers are built only for what is reported: each container on the way down is a link to its parent,
  // and a problem's pointer is spelled out from the links when one is found.
  let atParent: PathLink | undefined;
  let atKey: string | number | undefined;
  try {
    const onPath = new Set<object>();
    // With `size`: the UTF-8 bytes of `JSON.stringify(value)`, counted on the way (brackets, commas, keys
    // and every value), so the engine does not serialize every tool a second time just to measure it.
    let bytes = 0;
    const stringBytes = size?.stringBytes;
    // Frames, four slots each: value, parent link, key (undefined for the root), depth; an exit frame
    // (depth -1, value: the container) takes the container off the ancestor set.
    const stack: unknown[] = [value, undefined, undefined, 0];
    while (stack.length > 0) {
      const depth = stack.pop() as number;
      const key = stack.pop() as string | number | undefined;
      const parent = stack.pop() as PathLink | undefined;
      const value = stack.pop();
      if (depth < 0) {
        onPath.delete(value as object);
        continue;
      }
      atParent = parent;
      atKey = key;
      switch (typeof value) {
        case 'string':
          if (stringBytes) bytes += stringBytes(value);
          continue;
        case 'boolean':
          bytes += value ? 4 : 5;
          continue;
        case 'number':
          if (!Number.isFinite(value)) return { path: pathOf(parent, key), message: `${value} is not a JSON number` };
          bytes += numberBytes(value);
          continue;
        case 'object':
          if (value === null) {
            bytes += 4;
            continue;
          }
          break;
        default:
          return { path: pathOf(parent, key), message: `${typeof value === 'undefined' ? 'undefined' : `a ${typeof value}`} is not a JSON value` };
      }
      const obj = value as object;
      if (isProxy(obj)) return { path: pathOf(parent, key), message: `a Proxy is not plain JSON (pass a plain copy of the ${what})` };
      if (onPath.has(obj)) return { path: pathOf(parent, key), message: 'the object contains itself (a reference cycle); JSON cannot hold it' };
      if (depth > maxDepth) return { path: pathOf(parent, key), message: `nesting deeper than ${maxDepth} levels` };
      const proto = Object.getPrototypeOf(obj);
      const isArray = Array.isArray(obj);
      if (!isArray && proto !== Object.prototype && proto !== null) return { path: pathOf(parent, key), message: `a ${proto?.constructor?.name ?? 'non-plain'} object is not a JSON value` };
      onPath.add(obj);
      stack.push(obj, undefined, undefined, -1);
      const link: PathLink = key === undefined ? ROOT_LINK : { parent: parent!, key };
      if (isArray) {
        const arr = obj as unknown[];
        bytes += arr.length === 0 ? 2 : 1 + arr.length;
        for (let i = arr.length - 1; i >= 0; i--) {
          const d = Object.getOwnPropertyDescriptor(arr, i);
          if (d && !('value' in d)) return { path: pathOf(link, i), message: 'an accessor (getter/setter) is not a JSON value' };
          stack.push(d?.value, link, i, depth + 1);
        }
      } else {
        const rec = obj as Record<string, unknown>;
        const keys = Object.keys(rec);
        let present = 0;
        for (let i = keys.length - 1; i >= 0; i--) {
          const d = Object.getOwnPropertyDescriptor(rec, keys[i]!);
          if (d && !('value' in d)) return { path: pathOf(link, keys[i]!), message: 'an accessor (getter/setter) is not a JSON value' };
          const member = d?.value;
          // An object member that is `undefined` is absent in JSON (SDK servers build tools with
          // `title: undefined`): when the caller collects them, they are noted, kept and not descended into.
          if (member === undefined && undefinedMembers) {
            undefinedMembers.push(pathOf(link, keys[i]!));
            continue;
          }
          present++;
          if (stringBytes) bytes += stringBytes(keys[i]!) + 1;
          stack.push(member, link, keys[i]!, depth + 1);
        }
        bytes += present === 0 ? 2 : 1 + present;
      }
    }
    if (size) size.bytes = bytes;
    return undefined;
  } catch (e) {
    return { path: pathOf(atParent, atKey), message: `reading the ${what} threw (${errorText(e)}); it is not plain JSON` };
  }
}

/**
 * Throws a {@link ToolslimError} (`invalid-input`) when `value` is not plain JSON (see
 * {@link findJsonProblem}; members whose value is `undefined` are allowed, JSON omits them), above all when
 * it contains itself, which a walk would follow forever. What a public function that walks a value a caller
 * built does first, once per call. Nesting is bounded only by `maxDepth` when given (a function that reads
 * every depth, iteratively, takes none; one that recurses takes {@link DEFAULT_MAX_DEPTH}, as the engine
 * does). The message names `who` (the public function), `what` (`the schema`, ``tool `x` (index 3)``) and
 * the pointer: `at` (where the value sits in what the caller passed, e.g. `/3` in a tools array) followed by
 * the pointer inside the value; it is the error's `path`, and `tool` its `tool`.
 */
export function assertPlainJson(value: unknown, who: string, what: string, options: { readonly maxDepth?: number; readonly tool?: string; readonly at?: string } = {}): void {
  const problem = findJsonProblem(value, options.maxDepth ?? Infinity, [], undefined, 'value');
  if (problem === undefined) return;
  const path = (options.at ?? '') + problem.path;
  throw new ToolslimError('invalid-input', `${who}: ${what} is not plain JSON: ${problem.message} at \`${path}\``, options.tool === undefined ? { path } : { tool: options.tool, path });
}

/**
 * The length of `JSON.stringify(v)` for a finite number. An integer short of 10^15 is its digits and a minus
 * sign, counted without writing it out (`String(v)` made a string for each of the lists' numbers, about 7%
 * of the input check on the validation set); anything else is written out.
 * @internal
 */
export function numberBytes(v: number): number {
  if (Number.isInteger(v) && v > -1e15 && v < 1e15) {
    let n = v < 0 ? 2 : 1;
    const a = v < 0 ? -v : v;
    for (let p = 10; a >= p; p *= 10) n++;
    return n;
  }
  return String(v).length;
}

/** A container on the way down from the value: its parent and its key there. */
interface PathLink {
  readonly parent: PathLink | undefined;
  readonly key: string | number | undefined;
}

const ROOT_LINK: PathLink = { parent: undefined, key: undefined };

/** The pointer of member `key` of the container at `link` (the container itself without a key). */
function pathOf(link: PathLink | undefined, key: string | number | undefined): string {
  const keys: (string | number)[] = key === undefined ? [] : [key];
  for (let l = link; l !== undefined && l.key !== undefined; l = l.parent) keys.push(l.key);
  let out = '';
  for (let i = keys.length - 1; i >= 0; i--) out = appendPointer(out, keys[i]!);
  return out;
}

function errorText(e: unknown): string {
  try {
    return e instanceof Error ? e.message : String(e);
  } catch {
    return 'an exception';
  }
}

/** `util.types.isProxy` where the runtime has it (Node); elsewhere Proxies are caught only when they throw. */
export const isProxy: (value: unknown) => boolean = (() => {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const util = proc?.getBuiltinModule?.('node:util') as { types?: { isProxy?: (v: unknown) => boolean } } | undefined;
  const fn = util?.types?.isProxy;
  return typeof fn === 'function' ? (v: unknown) => typeof v === 'object' && v !== null && fn(v) : () => false;
})();
