// Why one file: the engine's input checks (where the tools sit, which tools are plain JSON) are one linear
// walk with its fast and exact paths side by side, so they stay equal.
import { SCHEMA_SLOTS, type McpTool } from '../core/tool.js';
import type { Diagnostic, Skip } from '../core/report.js';
import { appendPointer } from '../json/pointer.js';
import { hasOwn, isObject } from '../json/guards.js';
import { ToolslimError } from '../core/errors.js';
import { jsonStringBytes } from '../core/measure.js';
import { isExtensionKeyword, REFERENCE_KEYWORDS } from '../schema/keywords.js';
import { INVENTORY_KEYS } from '../schema/refs.js';
import { findJsonProblem, isProxy, numberBytes } from '../json/plain.js';

export { numberBytes };

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
    if (hasOwn(input, 'error') && hasOwn(input, 'jsonrpc')) throw invalid(`the input is a JSON-RPC error response${rpcError(input.error)}, not a tools/list result`, '/error');
  }
  throw invalid(`expected a tools array, a ListToolsResult ({ "tools": [...] }), a JSON-RPC response or a capture file; got ${describe(input)}`, '');
}

/** What the server said in a JSON-RPC error (` (-32601: Method not found)`), short; '' when it says nothing readable. */
function rpcError(error: unknown): string {
  if (!isObject(error)) return '';
  const code = typeof error.code === 'number' && Number.isFinite(error.code) ? String(error.code) : '';
  const raw = typeof error.message === 'string' ? error.message.replace(/\s+/g, ' ').trim() : '';
  const message = raw.length > 200 ? `${raw.slice(0, 199)}…` : raw;
  return code || message ? ` (${[code, message].filter(Boolean).join(': ')})` : '';
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
 * still are (JSON writes `null`). `parsed`: the tool is part of a value `JSON.parse` made (src/json/parsed.ts),
 * whose members are read without property descriptors on the common path.
 */
export function checkJsonTool(tool: unknown, maxDepth: number, undefinedMembers?: string[], size?: ToolFacts, keyBytes?: Map<string, number>, parsed = false): InputProblem | undefined {
  // The common case first: a plain JSON tool with nothing to report. Anything else (a problem, an
  // `undefined` member, a nesting deep enough to hide a cycle) is decided by the exact walk below, which
  // reports the first problem in document order.
  if (maxDepth <= FAST_MAX_DEPTH) {
    const facts = size ?? { bytes: 0, refKeys: true, extensionKeys: true, inventoryKeys: true };
    if (plainJsonBytes(tool, maxDepth, facts, keyBytes ?? new Map(), parsed)) return undefined;
  }
  if (size) {
    size.refKeys = true;
    size.extensionKeys = true;
    size.inventoryKeys = true;
  }
  return checkExactly(tool, maxDepth, undefinedMembers, size);
}

/** The exact walk (json/plain.ts) over a tool, whose root must be an object. */
function checkExactly(tool: unknown, maxDepth: number, undefinedMembers?: string[], size?: ToolFacts): InputProblem | undefined {
  try {
    if (!isProxy(tool) && !isObject(tool)) return { path: '', message: `the tool is ${describe(tool)}, expected an object` };
  } catch (e) {
    return { path: '', message: `reading the tool threw (${e instanceof Error ? e.message : 'an exception'}); it is not plain JSON` };
  }
  const counted = size ? { bytes: 0, stringBytes: jsonStringBytes } : undefined;
  const problem = findJsonProblem(tool, maxDepth, undefinedMembers, counted);
  if (size && problem === undefined) size.bytes = counted!.bytes;
  return problem;
}

/**
 * What the input check learns about a tool on its walk: the UTF-8 bytes of its compact JSON, whether any
 * object in it has a reference keyword (`$ref`, `$dynamicRef`, `$recursiveRef`) as a key, and whether any
 * has an extension keyword (`x-…`). `refKeys: false` means no `$ref` inventory of any part of the tool lists
 * anything (the engine skips the post-condition's walk for a tool that stays so); `extensionKeys: false`
 * means no `x-` key anywhere (see `ToolDoc.mayHold`); `inventoryKeys: false`, no key a `$ref` inventory records
 * anything for (`INVENTORY_KEYS` of schema/refs.ts: the reference, identifier and anchor keywords) with a
 * string value, the only value an inventory records, so every inventory of the tool's schemas is empty (a
 * property named `id`, common in tool schemas, has an object as its value: 70 of the validation set's 85 tools
 * with such a key hold none with a string). `true` is only "maybe".
 */
export interface ToolFacts {
  bytes: number;
  refKeys?: boolean;
  extensionKeys?: boolean;
  inventoryKeys?: boolean;
}

/**
 * Keys {@link plainJsonBytes} remembers the bytes of per run (`"key":`, with its colon). Tools repeat their
 * keys (`type`, `description`, property names): over both bench sets a list's keys are 3% distinct, and a
 * map look-up cost less than counting a key's characters again (steady-state instructions of the check:
 * validation 74.5M -> 65M per pass in isolation; `safe` with the gate off 580/572M -> 537/550M). Bounded, for a
 * list of a million distinct names.
 */
const KEY_BYTES_MAX = 65_536;

/** Depth up to which {@link plainJsonBytes} may run into a cycle before it gives up (it has no ancestor set). */
const FAST_MAX_DEPTH = 10_000;

/**
 * True, with `facts` filled in (the bytes of `JSON.stringify(tool)`, and whether a reference keyword is a
 * key anywhere), when the tool is plain JSON (no problem, no `undefined` member, no deeper than
 * `maxDepth`); else false. Primitives are checked where they sit, without frames; containers go on a stack
 * with their depth. A cycle makes some path deeper than `maxDepth`, so it ends in false too.
 */
function plainJsonBytes(tool: unknown, maxDepth: number, facts: ToolFacts, keyBytes: Map<string, number>, parsed: boolean): boolean {
  try {
    if (!isObject(tool) || (!parsed && isProxy(tool))) return false;
    let bytes = 0;
    let refKeys = false;
    let extensionKeys = false;
    let inventoryKeys = false;
    const stack: unknown[] = [tool, 0];
    while (stack.length > 0) {
      const depth = stack.pop() as number;
      const obj = stack.pop() as object;
      if (depth > maxDepth || (!parsed && isProxy(obj))) return false;
      if (Array.isArray(obj)) {
        const n = obj.length;
        bytes += n === 0 ? 2 : 1 + n;
        for (let i = 0; i < n; i++) {
          let v: unknown;
          if (parsed) v = obj[i];
          else {
            const d = Object.getOwnPropertyDescriptor(obj, i);
            if (d === undefined || !('value' in d)) return false;
            v = d.value;
          }
          const b = valueBytes(v, stack, depth);
          if (b < 0) return false;
          bytes += b;
        }
        continue;
      }
      const proto = Object.getPrototypeOf(obj);
      if (proto !== Object.prototype && proto !== null) return false;
      // `for…in` lists the own keys Object.keys would, in its order, without an array; an inherited one
      // (a polluted prototype) has no own descriptor and sends the tool to the exact path.
      let n = 0;
      for (const k in obj) {
        let v: unknown;
        if (parsed) v = (obj as Record<string, unknown>)[k];
        else {
          const d = Object.getOwnPropertyDescriptor(obj, k);
          if (d === undefined || !('value' in d)) return false;
          v = d.value;
        }
        n++;
        let kb = keyBytes.get(k);
        if (kb === undefined) {
          kb = jsonStringBytes(k) + 1;
          if (keyBytes.size < KEY_BYTES_MAX) keyBytes.set(k, kb);
        }
        bytes += kb;
        const c = k.charCodeAt(0);
        if (c === 36 /* $ */) {
          if (!refKeys && REFERENCE_KEYWORDS.includes(k)) refKeys = true;
          // An inventory records a key only with a string value (a reference keyword is one of them).
          if (!inventoryKeys && typeof v === 'string' && INVENTORY_KEYS.includes(k)) inventoryKeys = true;
        } else if (c === 120 /* x */) {
          if (isExtensionKeyword(k)) extensionKeys = true;
        } else if (c === 105 /* i */ && k === 'id' && typeof v === 'string') {
          // Only with a string value: a property named `id` (its value a schema, an object) is not one.
          inventoryKeys = true;
        }
        const b = valueBytes(v, stack, depth);
        if (b < 0) return false;
        bytes += b;
      }
      bytes += n === 0 ? 2 : 1 + n;
    }
    facts.bytes = bytes;
    facts.refKeys = refKeys;
    facts.extensionKeys = extensionKeys;
    facts.inventoryKeys = inventoryKeys;
    return true;
  } catch {
    return false;
  }
}

/** The bytes of a member's value (a container is pushed with its depth and counted when popped); -1 for a value that is not plain JSON. */
function valueBytes(v: unknown, stack: unknown[], depth: number): number {
  switch (typeof v) {
    case 'string':
      return jsonStringBytes(v);
    case 'boolean':
      return v ? 4 : 5;
    case 'number':
      return Number.isFinite(v) ? numberBytes(v) : -1;
    case 'object':
      if (v === null) return 4;
      stack.push(v, depth + 1);
      return 0;
    default:
      return -1;
  }
}

/** Which tools a run may rewrite, and what the input check reported about the others. */
export interface InputCheck {
  /** Per tool: plain JSON toolslim can rewrite without loss. */
  readonly usable: readonly boolean[];
  /** Per tool that passed the check: the UTF-8 bytes of its compact JSON. */
  readonly bytes: readonly number[];
  /** Per tool: some object in it may have a reference keyword as a key (false: certainly none; see {@link ToolFacts}). */
  readonly refKeys: readonly boolean[];
  /** Per tool: some object in it may have an extension keyword (`x-…`) as a key (false: certainly none). */
  readonly extensionKeys: readonly boolean[];
  /** Per tool: some object in it may have a key a `$ref` inventory records, with a string value (false: certainly none; see {@link ToolFacts}). */
  readonly inventoryKeys: readonly boolean[];
  readonly diagnostics: readonly Diagnostic[];
  readonly skipped: readonly Skip[];
}

/**
 * Checks every tool of a run (see {@link checkJsonTool}): a tool that is not plain JSON is passed through
 * untouched and listed in `skipped` (with `onError: 'throw'` the first one throws); an object member whose
 * value is `undefined` is noted (`input/undefined-member`) and kept; a tool in `keepUnchanged` is passed
 * through with its reason (never a throw). `parsed`: the tools are part of a value `JSON.parse` made (see
 * {@link checkJsonTool}).
 */
export function checkInputs(tools: readonly unknown[], names: readonly string[], maxDepth: number, onError: 'report' | 'throw', keepUnchanged?: ReadonlyMap<number, string>, parsed = false): InputCheck {
  const n = tools.length;
  const usable: boolean[] = new Array(n);
  const bytes: number[] = new Array(n);
  const refKeys: boolean[] = new Array(n);
  const extensionKeys: boolean[] = new Array(n);
  const inventoryKeys: boolean[] = new Array(n);
  const diagnostics: Diagnostic[] = [];
  const skipped: Skip[] = [];
  const size: ToolFacts = { bytes: 0, refKeys: true, extensionKeys: true, inventoryKeys: true };
  // Filled only by a tool that takes the exact path; read before the next tool.
  const undefinedMembers: string[] = [];
  const keyBytes = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    undefinedMembers.length = 0;
    const problem = checkJsonTool(tools[i], maxDepth, undefinedMembers, size, keyBytes, parsed);
    bytes[i] = size.bytes;
    refKeys[i] = size.refKeys !== false;
    extensionKeys[i] = size.extensionKeys !== false;
    inventoryKeys[i] = size.inventoryKeys !== false;
    // A tool the caller asked to keep (its number texts, say) is passed through like one that failed the check.
    const keep = problem === undefined ? keepUnchanged?.get(i) : undefined;
    usable[i] = problem === undefined && keep === undefined;
    if (keep !== undefined) skipped.push({ tool: names[i]!, toolIndex: i, transform: 'input', reason: keep });
    for (const path of undefinedMembers) {
      diagnostics.push({
        severity: 'info',
        tool: names[i]!,
        toolIndex: i,
        transform: 'input',
        code: 'undefined-member',
        path: appendPointer('', i) + path,
        message: 'Found a member whose value is `undefined`: JSON omits it, so readers see it as absent; it was kept as it is',
      });
    }
    if (problem) {
      const reason = `${problem.message} at \`${appendPointer('', i)}${problem.path}\``;
      if (onError === 'throw') throw new ToolslimError('invalid-input', `tool ${names[i] === '' ? '(unnamed)' : `\`${names[i]}\``} (index ${i}): ${reason}`, { tool: names[i], path: appendPointer('', i) + problem.path });
      skipped.push({ tool: names[i]!, toolIndex: i, transform: 'input', reason });
    }
    // A schema slot holding something that is not a schema is left as it is, and said so (issue 15).
    if (problem === undefined && isObject(tools[i])) {
      for (let s = 0; s < SCHEMA_SLOTS.length; s++) {
        const slot = SCHEMA_SLOTS[s]!;
        const v = (tools[i] as Record<string, unknown>)[slot];
        if (v !== undefined && hasOwn(tools[i] as object, slot) && typeof v !== 'boolean' && !isObject(v)) {
          skipped.push({ tool: names[i]!, toolIndex: i, transform: 'input', reason: `\`${slot}\` is ${describe(v)}, not a JSON Schema: left as it is at \`${appendPointer('', i)}/${slot}\`` });
        }
      }
    }
  }
  return { usable, bytes, refKeys, extensionKeys, inventoryKeys, diagnostics, skipped };
}
