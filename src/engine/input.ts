import type { McpTool } from '../core/tool.js';
import { appendPointer } from '../json/pointer.js';
import { hasOwn, isObject } from '../json/guards.js';
import { ToolslimError } from '../core/errors.js';

/** The shape the tools came in. */
export type Envelope = 'array' | 'list-result' | 'jsonrpc' | 'capture';

/** Where the tools array sits in an input, and how to put a new one back. */
export interface LocatedTools {
  readonly tools: readonly unknown[];
  readonly envelope: Envelope;
  /** JSON Pointer of the tools array inside the input (`""`, `/tools`, `/result/tools`, `/toolsList/tools`). */
  readonly pointer: string;
  /** The input with its tools array replaced (a new object; the input is not changed). */
  wrap(tools: readonly unknown[]): unknown;
}

/** Finds the tools array in any accepted input; throws a {@link ToolslimError} naming what was found instead. */
export function locateTools(input: unknown): LocatedTools {
  if (Array.isArray(input)) return { tools: input, envelope: 'array', pointer: '', wrap: (t) => t };
  if (isObject(input)) {
    if (hasOwn(input, 'tools')) {
      if (!Array.isArray(input.tools)) throw invalid(`\`tools\` is ${describe(input.tools)}, expected an array`, '/tools');
      return { tools: input.tools, envelope: 'list-result', pointer: '/tools', wrap: (t) => replaceMember(input, 'tools', t) };
    }
    if (hasOwn(input, 'result') && isObject(input.result) && hasOwn(input.result, 'tools')) {
      const result = input.result;
      if (!Array.isArray(result.tools)) throw invalid(`\`result.tools\` is ${describe(result.tools)}, expected an array`, '/result/tools');
      return { tools: result.tools, envelope: 'jsonrpc', pointer: '/result/tools', wrap: (t) => replaceMember(input, 'result', replaceMember(result, 'tools', t)) };
    }
    if (hasOwn(input, 'toolsList') && isObject(input.toolsList) && hasOwn(input.toolsList, 'tools')) {
      const list = input.toolsList;
      if (!Array.isArray(list.tools)) throw invalid(`\`toolsList.tools\` is ${describe(list.tools)}, expected an array`, '/toolsList/tools');
      return { tools: list.tools, envelope: 'capture', pointer: '/toolsList/tools', wrap: (t) => replaceMember(input, 'toolsList', replaceMember(list, 'tools', t)) };
    }
    if (hasOwn(input, 'error') && hasOwn(input, 'jsonrpc')) throw invalid('the input is a JSON-RPC error response, not a tools/list result', '/error');
  }
  throw invalid(`expected a tools array, a ListToolsResult ({ "tools": [...] }), a JSON-RPC response or a capture file; got ${describe(input)}`, '');
}

function replaceMember(obj: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(obj)) {
    const v = k === key ? value : obj[k];
    if (k === '__proto__') Object.defineProperty(out, k, { value: v, writable: true, enumerable: true, configurable: true });
    else out[k] = v;
  }
  return out;
}

function invalid(message: string, path: string): ToolslimError {
  return new ToolslimError('invalid-input', message, { path });
}

/** A short description of a value's type for error messages. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object without `tools`';
  if (typeof value === 'string') return 'a string';
  return typeof value === 'undefined' ? 'undefined' : `a ${typeof value}`;
}

/** A problem that makes a tool unsafe to transform: it is passed through unchanged and reported. */
export interface InputProblem {
  /** Pointer inside the tool. */
  readonly path: string;
  readonly message: string;
}

/**
 * Checks that a tool is plain JSON toolslim can rewrite without loss: no object cycles, no values JSON
 * cannot hold (`undefined`, functions, symbols, BigInt, NaN, ±Infinity, class instances), no accessor
 * properties or `Proxy` objects (a live object a library caller passed in: reading it may run code, throw
 * or answer differently each time), and nesting no deeper than `maxDepth`. Iterative; the first problem
 * found is returned, and reading the tool never throws (a throwing trap is itself the problem). With
 * `undefinedMembers`, object members whose value is `undefined` are not problems: their pointers are
 * collected instead (JSON omits them, so they are absent to every reader); `undefined` array elements
 * still are (JSON writes `null`).
 */
export function checkJsonTool(tool: unknown, maxDepth: number, undefinedMembers?: string[]): InputProblem | undefined {
  let at = '';
  try {
    if (isProxy(tool)) return { path: '', message: 'a Proxy is not plain JSON (pass a plain copy of the tool)' };
    if (!isObject(tool)) return { path: '', message: `the tool is ${describe(tool)}, expected an object` };
    // Frames: [value, path, depth]; an `exit` frame (value undefined, depth -1) pops the ancestor set.
    const onPath = new Set<object>();
    const exits: object[] = [];
    const stack: [unknown, string, number][] = [[tool, '', 0]];
    while (stack.length > 0) {
      const [value, path, depth] = stack.pop()!;
      at = path;
      if (depth < 0) {
        onPath.delete(exits.pop()!);
        continue;
      }
      switch (typeof value) {
        case 'string':
        case 'boolean':
          continue;
        case 'number':
          if (!Number.isFinite(value)) return { path, message: `${value} is not a JSON number` };
          continue;
        case 'object':
          if (value === null) continue;
          break;
        default:
          return { path, message: `${typeof value === 'undefined' ? 'undefined' : `a ${typeof value}`} is not a JSON value` };
      }
      const obj = value as object;
      if (isProxy(obj)) return { path, message: 'a Proxy is not plain JSON (pass a plain copy of the tool)' };
      if (onPath.has(obj)) return { path, message: 'the object contains itself (a reference cycle); JSON cannot hold it' };
      if (depth > maxDepth) return { path, message: `nesting deeper than ${maxDepth} levels` };
      const proto = Object.getPrototypeOf(obj);
      const isArray = Array.isArray(obj);
      if (!isArray && proto !== Object.prototype && proto !== null) return { path, message: `a ${proto?.constructor?.name ?? 'non-plain'} object is not a JSON value` };
      onPath.add(obj);
      exits.push(obj);
      stack.push([undefined, path, -1]);
      if (isArray) {
        const arr = obj as unknown[];
        for (let i = arr.length - 1; i >= 0; i--) {
          const d = Object.getOwnPropertyDescriptor(arr, i);
          if (d && !('value' in d)) return { path: appendPointer(path, i), message: 'an accessor (getter/setter) is not a JSON value' };
          stack.push([d?.value, appendPointer(path, i), depth + 1]);
        }
      } else {
        const rec = obj as Record<string, unknown>;
        const keys = Object.keys(rec);
        for (let i = keys.length - 1; i >= 0; i--) {
          const d = Object.getOwnPropertyDescriptor(rec, keys[i]!);
          if (d && !('value' in d)) return { path: appendPointer(path, keys[i]!), message: 'an accessor (getter/setter) is not a JSON value' };
          const member = d?.value;
          // An object member that is `undefined` is absent in JSON (SDK servers build tools with
          // `title: undefined`): when the caller collects them, they are noted, kept and not descended into.
          if (member === undefined && undefinedMembers) {
            undefinedMembers.push(appendPointer(path, keys[i]!));
            continue;
          }
          stack.push([member, appendPointer(path, keys[i]!), depth + 1]);
        }
      }
    }
    return undefined;
  } catch (e) {
    return { path: at, message: `reading the tool threw (${errorText(e)}); it is not plain JSON` };
  }
}

function errorText(e: unknown): string {
  try {
    return e instanceof Error ? e.message : String(e);
  } catch {
    return 'an exception';
  }
}

/** `util.types.isProxy` where the runtime has it (Node); elsewhere Proxies are caught only when they throw. */
const isProxy: (value: unknown) => boolean = (() => {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const util = proc?.getBuiltinModule?.('node:util') as { types?: { isProxy?: (v: unknown) => boolean } } | undefined;
  const fn = util?.types?.isProxy;
  return typeof fn === 'function' ? (v: unknown) => typeof v === 'object' && v !== null && fn(v) : () => false;
})();
