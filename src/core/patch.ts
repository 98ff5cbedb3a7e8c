import { hasOwn } from '../json/guards.js';
import { isArrayIndex, parsePointer } from '../json/pointer.js';
import { CopyOnWrite, setOwn } from '../json/cow.js';
import { ToolslimError } from './errors.js';

/** An RFC 6902 operation as toolslim records it (extra fields on a {@link Change} are ignored). */
export interface PatchOperation {
  readonly op: 'add' | 'remove' | 'replace' | 'move';
  readonly path: string;
  readonly from?: string;
  readonly value?: unknown;
  readonly oldValue?: unknown;
}

/**
 * Applies operations to a document and returns the result; the document is not changed (containers on
 * edited paths are copied). Replaying `report.changes` on the input tools yields the output tools.
 */
export function applyPatch<T>(document: T, operations: readonly PatchOperation[]): T {
  const cow = new CopyOnWrite(document);
  const own = (tokens: readonly string[]): Record<string, unknown> | unknown[] => {
    const owned = cow.own(tokens);
    if (typeof owned === 'number') throw new ToolslimError('invalid-input', `patch: no container at \`${owned < 0 ? '' : tokens[owned]}\``);
    return owned;
  };
  const take = (path: string): unknown => {
    const tokens = parsePointer(path);
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
  const put = (path: string, value: unknown, replace: boolean): void => {
    const tokens = parsePointer(path);
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
    } else setOwn(parent, key, value);
  };
  for (const op of operations) {
    switch (op.op) {
      case 'add':
        put(op.path, op.value, false);
        break;
      case 'replace':
        put(op.path, op.value, true);
        break;
      case 'remove':
        take(op.path);
        break;
      case 'move':
        put(op.path, take(op.from!), false);
        break;
      default:
        throw new ToolslimError('invalid-input', `patch: unsupported op \`${(op as { op: string }).op}\``);
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
  const out: PatchOperation[] = [];
  for (let i = operations.length - 1; i >= 0; i--) {
    const op = operations[i]!;
    if ((op.op === 'remove' || op.op === 'replace') && !('oldValue' in op)) {
      throw new ToolslimError('invalid-input', `patch: cannot invert \`${op.op}\` at \`${op.path}\` without its \`oldValue\``);
    }
    if (op.op === 'add') out.push({ op: 'remove', path: op.path });
    else if (op.op === 'remove') out.push({ op: 'add', path: op.path, value: op.oldValue });
    else if (op.op === 'replace') out.push({ op: 'replace', path: op.path, value: op.oldValue });
    else out.push({ op: 'move', from: op.path, path: op.from! });
  }
  return out;
}

