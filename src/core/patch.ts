import { isArrayIndex, parsePointer, PointerError } from '../json/pointer.js';
import { hasOwn, isObject } from '../json/guards.js';
import { CopyOnWrite, setOwn } from '../json/cow.js';
import { ToolslimError } from './errors.js';

/**
 * An RFC 6902 operation as toolslim records it (extra fields on a {@link Change} are ignored).
 *
 * Key order is part of the output's bytes, and RFC 6902 has no say in it: an `add` (or the `add` half of a
 * `move`) appends a new object member, and a `remove` forgets where a member was. Two optional fields,
 * ignored by any other JSON Patch applier, carry what a byte-exact replay and inversion need; each is left
 * out when the member is (or was) the last of its object, which is what a plain `add` gives:
 * - `index` (`add`, `move`: where the member lands; `remove`: where it was) — its position among its
 *   object's keys (`Object.keys` order) after an `add` or `move`, before a `remove`;
 * - `fromIndex` (`move` from an object member) — where the member was among its object's keys before.
 *
 * A rename in place is a `move` with both (`{"op":"move","from":"/a","path":"/b","index":0,"fromIndex":0}`).
 * Array elements need neither: the pointer is the position.
 */
export interface PatchOperation {
  readonly op: 'add' | 'remove' | 'replace' | 'move';
  readonly path: string;
  readonly from?: string;
  readonly value?: unknown;
  readonly oldValue?: unknown;
  /** The member's position among its object's keys after an `add`/`move`, before a `remove`; absent: the last. */
  readonly index?: number;
  /** For a `move` out of an object: the member's position among that object's keys before; absent: the last. */
  readonly fromIndex?: number;
}

/**
 * Applies operations to a document and returns the result; the document is not changed (containers on
 * edited paths are copied). Replaying `report.changes` on the input tools yields the output tools.
 */
export function applyPatch<T>(document: T, operations: readonly PatchOperation[]): T {
  if (!Array.isArray(operations)) throw new ToolslimError('invalid-input', 'patch: operations must be an array (a report\'s `changes`)');
  const cow = new CopyOnWrite(document);
  const own = (tokens: readonly string[]): Record<string, unknown> | unknown[] => {
    const owned = cow.own(tokens);
    if (typeof owned === 'number') throw new ToolslimError('invalid-input', `patch: no container at \`${owned < 0 ? '' : tokens[owned]}\``);
    return owned;
  };
  let at = 0;
  const take = (path: string): unknown => {
    const tokens = pointerTokens(path, at, operations[at]!.op);
    const parent = own(tokens.slice(0, -1));
    const key = tokens[tokens.length - 1]!;
    if (Array.isArray(parent)) {
      if (!isArrayIndex(key) || Number(key) >= parent.length) throw new ToolslimError('invalid-input', `patch: no array element at \`${path}\``);
      return parent.splice(Number(key), 1)[0];
    }
    if (!hasOwn(parent, key)) throw new ToolslimError('invalid-input', `patch: nothing to remove at \`${path}\``);
    const v = parent[key];
    delete parent[key];
    return v;
  };
  const put = (path: string, value: unknown, replace: boolean, index?: number): void => {
    const tokens = pointerTokens(path, at, operations[at]!.op);
    if (tokens.length === 0) {
      cow.root = value;
      return;
    }
    const parent = own(tokens.slice(0, -1));
    const key = tokens[tokens.length - 1]!;
    if (Array.isArray(parent)) {
      const i = key === '-' && !replace ? parent.length : isArrayIndex(key) ? Number(key) : -1;
      if (i < 0 || i > parent.length || (replace && i === parent.length)) throw new ToolslimError('invalid-input', `patch: no array position \`${path}\``);
      if (replace) parent[i] = value;
      else parent.splice(i, 0, value);
    } else if (index === undefined || replace || hasOwn(parent, key)) setOwn(parent, key, value);
    else insertAt(parent, key, value, index, path);
  };
  for (; at < operations.length; at++) {
    const op = checkOperation(operations[at], at);
    switch (op.op) {
      case 'add':
        put(op.path, op.value, false, op.index);
        break;
      case 'replace':
        put(op.path, op.value, true);
        break;
      case 'remove':
        take(op.path);
        break;
      case 'move':
        put(op.path, take(op.from!), false, op.index);
        break;
    }
  }
  return cow.root as T;
}

/**
 * The operations that undo `operations` (apply them to the output to get the input back). Needs the
 * `oldValue` of every `remove` and `replace` (a report's changes have it) and concrete array indices (a
 * report never records `-`; the inverse of an `add` to an array's `-` fails when applied, rather than
 * removing the wrong element).
 */
export function invertPatch(operations: readonly PatchOperation[]): PatchOperation[] {
  if (!Array.isArray(operations)) throw new ToolslimError('invalid-input', 'patch: operations must be an array (a report\'s `changes`)');
  const out: PatchOperation[] = [];
  for (let i = operations.length - 1; i >= 0; i--) {
    const op = checkOperation(operations[i], i);
    if ((op.op === 'remove' || op.op === 'replace') && !('oldValue' in op)) {
      throw new ToolslimError('invalid-input', `patch: cannot invert \`${op.op}\` at \`${op.path}\` without its \`oldValue\``);
    }
    const at = op.index === undefined ? {} : { index: op.index };
    if (op.op === 'add') out.push({ op: 'remove', path: op.path, oldValue: op.value, ...at });
    else if (op.op === 'remove') out.push({ op: 'add', path: op.path, value: op.oldValue, ...at });
    else if (op.op === 'replace') out.push({ op: 'replace', path: op.path, value: op.oldValue, oldValue: op.value });
    else {
      out.push({ op: 'move', from: op.path, path: op.from!, ...(op.fromIndex === undefined ? {} : { index: op.fromIndex }), ...(op.index === undefined ? {} : { fromIndex: op.index }) });
    }
  }
  return out;
}

const OPS: ReadonlySet<string> = new Set(['add', 'remove', 'replace', 'move']);

/** The operation, once it has the shape its `op` needs (a malformed one is an `invalid-input` error naming it). */
function checkOperation(op: unknown, i: number): PatchOperation {
  if (!isObject(op)) throw new ToolslimError('invalid-input', `patch: operation ${i} is not an object`);
  if (typeof op.op !== 'string' || !OPS.has(op.op)) throw new ToolslimError('invalid-input', `patch: unsupported op \`${String(op.op)}\``);
  if (typeof op.path !== 'string') throw new ToolslimError('invalid-input', `patch: operation ${i} (\`${op.op}\`) has no string \`path\``);
  if (op.op === 'move' && typeof op.from !== 'string') throw new ToolslimError('invalid-input', `patch: operation ${i} (\`${op.op}\`) has no string \`from\``);
  return op as unknown as PatchOperation;
}

/** The pointer's tokens; a malformed pointer is an `invalid-input` error naming the operation. */
function pointerTokens(path: string, i: number, op: string): string[] {
  try {
    return parsePointer(path);
  } catch (e) {
    if (!(e instanceof PointerError)) throw e;
    throw new ToolslimError('invalid-input', `patch: operation ${i} (\`${op}\`): \`${path}\` is not a JSON Pointer (${e.message})`);
  }
}

/**
 * Adds member `key` to `obj` at position `index` of its keys: the members from there on are taken out and
 * put back after it (JavaScript keeps string keys in insertion order; integer-like keys come first whatever
 * is done, as they did in the document the operation was recorded on). Costs the object's size.
 */
function insertAt(obj: Record<string, unknown>, key: string, value: unknown, index: number, path: string): void {
  if (!Number.isInteger(index) || index < 0) throw new ToolslimError('invalid-input', `patch: \`index\` must be a non-negative integer at \`${path}\``);
  const keys = Object.keys(obj);
  const after = keys.slice(index).map((k) => [k, obj[k]] as const);
  for (const [k] of after) delete obj[k];
  setOwn(obj, key, value);
  for (const [k, v] of after) setOwn(obj, k, v);
}

