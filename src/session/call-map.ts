/**
 * What a `tools/call` of a served list needs before it reaches the server, read from the report of the run
 * that made the list (never guessed from names):
 * - a tool the profile-tuned preset renamed (adapt-to-client/renamed-tool) is called by its new name: the
 *   server gets the old one;
 * - a property that openai-strict's close-objects made required and nullable (adapt-to-client/made-nullable)
 *   is sent as `null` when the model means "absent": the server gets it left out, as the original schema
 *   wanted. Only those properties, and only `null`: every other value passes untouched.
 *
 * The arguments are walked alongside the served `inputSchema` (local `$ref`s followed, `anyOf`/`oneOf`/
 * `allOf` branches, `items`/`prefixItems`, `additionalProperties`/`patternProperties`); a `null` is dropped
 * only where every schema that applies there and lists the property had it made nullable. An `anyOf`/`oneOf`
 * branch whose own `const`/`enum` refuses the instance (a discriminated union's other kinds) does not apply. Work is bounded
 * by the arguments' size times the schema's branching; nesting deeper than {@link MAX_DEPTH} is left as it is.
 */
import type { Change } from '../core/report.js';
import type { TransformResult } from '../core/run-types.js';
import { hasOwn, isObject } from '../json/guards.js';
import { jsonEqual } from '../json/equal.js';
import { appendPointer, getAt, parsePointer } from '../json/pointer.js';
import { toolRenamesOf } from '../transforms/adapt-to-client/steps/rename-tools.js';
import { boundedRegExp } from '../verify/bounded-regexp.js';

/** Arguments nested deeper than this are forwarded as they are (JSON from a model is never near it). */
const MAX_DEPTH = 128;
/** `$ref` hops followed at one place of the arguments before giving up (a cycle of references). */
const MAX_REFS = 32;

/** How one served tool's calls reach the server. */
export interface ToolCallMapping {
  /** The name the server knows. */
  readonly server: string;
  /** The served `inputSchema` (the nullable properties are looked up in it). */
  readonly schema: unknown;
  /** Pointers (relative to `inputSchema`, as the report wrote them) of the properties made nullable. */
  readonly nullable: ReadonlySet<string>;
  /** Of those, the ones wrapped as `anyOf: [<schema>, { "type": "null" }]`. */
  readonly wrapped: ReadonlySet<string>;
}

/** The `params` of a `tools/call`, as the server should get them. */
export interface MappedCall {
  readonly name: string;
  /** Absent when the request had none. */
  readonly arguments?: unknown;
  /** Where each dropped `null` was in the arguments (tokens from the arguments object down), in document order. */
  readonly removed: readonly (readonly string[])[];
}

/**
 * The calls of one served list, by the name the client knows. Built with {@link CallMap.fromResult} from
 * the pipeline's result; empty (and free) when nothing was renamed or made nullable.
 */
export class CallMap {
  readonly #tools: ReadonlyMap<string, ToolCallMapping>;

  constructor(tools: ReadonlyMap<string, ToolCallMapping>) {
    this.#tools = tools;
  }

  /** The map for the list in `result` (`result.tools` as served, `result.report` the run's). */
  static fromResult(result: Pick<TransformResult, 'tools' | 'report'>): CallMap {
    const renames = new Map(toolRenamesOf(result.report).map((r) => [r.toolIndex, r.from]));
    const nullable = new Map<number, { all: Set<string>; wrapped: Set<string> }>();
    for (const c of result.report.changes) {
      if (c.transform !== 'adapt-to-client' || c.code !== 'made-nullable' || c.op !== 'replace') continue;
      const prefix = appendPointer(appendPointer('', c.toolIndex), 'inputSchema');
      if (!c.path.startsWith(prefix + '/')) continue;
      const at = c.path.slice(prefix.length);
      let entry = nullable.get(c.toolIndex);
      if (!entry) nullable.set(c.toolIndex, (entry = { all: new Set(), wrapped: new Set() }));
      entry.all.add(at);
      if (isWrap(c)) entry.wrapped.add(at);
    }
    const tools = new Map<string, ToolCallMapping>();
    for (const i of new Set([...renames.keys(), ...nullable.keys()])) {
      const tool = result.tools[i];
      if (!isObject(tool) || typeof tool.name !== 'string' || tools.has(tool.name)) continue;
      const n = nullable.get(i);
      tools.set(tool.name, { server: renames.get(i) ?? tool.name, schema: tool.inputSchema, nullable: n?.all ?? new Set(), wrapped: n?.wrapped ?? new Set() });
    }
    // `this`, not the class's own name: esbuild names a class that refers to itself `_CallMap`.
    return new this(tools);
  }

  /** Nothing to map: every call reaches the server as the client sent it. */
  get empty(): boolean {
    return this.#tools.size === 0;
  }

  /** Whether calls of the served tool `name` are mapped (renamed, or with nulls to drop). */
  has(name: string): boolean {
    return this.#tools.has(name);
  }

  /** The server's name for a served tool (the same name when it was not renamed). */
  serverName(name: string): string {
    return this.#tools.get(name)?.server ?? name;
  }

  /** Client name → server name, for every renamed tool. */
  get renames(): ReadonlyMap<string, string> {
    const out = new Map<string, string>();
    for (const [name, m] of this.#tools) if (m.server !== name) out.set(name, m.server);
    return out;
  }

  /**
   * The call as the server should get it, or undefined when it goes as it came: `name` → the server's name,
   * `args` without the `null`s the client sent for properties made nullable.
   */
  toServer(name: unknown, args: unknown): MappedCall | undefined {
    if (typeof name !== 'string') return undefined;
    const m = this.#tools.get(name);
    if (!m) return undefined;
    const removed: string[][] = [];
    const stripped = m.nullable.size === 0 || args === undefined ? args : rewrite(args, applied([[m.schema, '']], m, args), m, [], removed);
    if (m.server === name && stripped === args) return undefined;
    return args === undefined ? { name: m.server, removed } : { name: m.server, arguments: stripped, removed };
  }
}

/**
 * An answer to a call of a renamed tool as the client should read it: where a JSON-RPC `error`'s message,
 * or the text of an `isError` result, names the tool by the server's name, it names it by the client's
 * (the name the model called). Undefined when nothing names it. Only errors: a result is the tool's output.
 */
export function renameInAnswer(answer: { readonly error?: unknown; readonly result?: unknown }, server: string, client: string): { error: unknown } | { result: unknown } | undefined {
  if (server === client) return undefined;
  const re = new RegExp(`(?<![A-Za-z0-9_.-])${server.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![A-Za-z0-9_.-])`, 'gu');
  const swap = (text: string) => text.replace(re, () => client);
  if (isObject(answer.error) && typeof answer.error.message === 'string') {
    const message = swap(answer.error.message);
    return message === answer.error.message ? undefined : { error: { ...answer.error, message } };
  }
  const result = answer.result;
  if (!isObject(result) || result.isError !== true || !Array.isArray(result.content)) return undefined;
  let changed = false;
  const content = result.content.map((c: unknown) => {
    if (!isObject(c) || c.type !== 'text' || typeof c.text !== 'string') return c;
    const text = swap(c.text);
    if (text === c.text) return c;
    changed = true;
    return { ...c, text };
  });
  return changed ? { result: { ...result, content } } : undefined;
}

/** A made-nullable change that wrapped the property (`{ anyOf: [<old>, { type: "null" }] }`). */
function isWrap(c: Change): boolean {
  const v = c.value;
  return isObject(v) && Object.keys(v).length === 1 && Array.isArray(v.anyOf) && v.anyOf.length === 2 && jsonEqual(v.anyOf[1], { type: 'null' }) && jsonEqual(v.anyOf[0], c.oldValue);
}

interface Applied {
  readonly node: Record<string, unknown>;
  /** Where the node sat when the report was written (a wrap's own `anyOf/0` is not in it). */
  readonly at: string;
}

/**
 * Every schema that applies at one place of the instance, from the schemas reached there: each with the
 * branches of its `allOf`/`anyOf`/`oneOf` and the target of its local `$ref`, each place visited once.
 */
function applied(start: readonly (readonly [unknown, string])[], m: ToolCallMapping, instance: unknown): Applied[] {
  const out: Applied[] = [];
  const seen = new Set<string>();
  const visit = (node: unknown, at: string, key: string, refs: number): void => {
    if (!isObject(node) || seen.has(key)) return;
    seen.add(key);
    out.push({ node, at });
    if (m.wrapped.has(at) && key === at && Array.isArray(node.anyOf)) {
      // The wrap close-objects made: its first branch is the property's schema, at the property's pointer.
      visit(node.anyOf[0], at, `${at} (wrapped)`, refs);
      return;
    }
    for (const k of ['allOf', 'anyOf', 'oneOf'] as const) {
      const branches = node[k];
      if (!Array.isArray(branches)) continue;
      // An `anyOf`/`oneOf` branch whose own `const`/`enum` on a property refuses the instance's value (a
      // discriminated union's other kinds) cannot be what the instance matches: the properties it lists do
      // not keep a null (found attacking the proxy: an optional `a` made nullable in branch `x` was kept as
      // `a: null` for a `kind: "x"` call, because branch `y` declares `a` itself, and the server refused it).
      branches.forEach((b, i) => {
        if (k !== 'allOf' && refusesByDiscriminator(b, instance)) return;
        visit(b, `${at}/${k}/${i}`, `${at}/${k}/${i}`, refs);
      });
    }
    const ref = node.$ref;
    if (typeof ref !== 'string' || !ref.startsWith('#') || refs >= MAX_REFS) return;
    let target: unknown;
    let path: string;
    try {
      path = decodeURIComponent(ref.slice(1));
      target = getAt(m.schema, parsePointer(path));
    } catch {
      return;
    }
    visit(target, path, path, refs + 1);
  };
  for (const [node, at] of start) visit(node, at, at, 0);
  return out;
}

/**
 * Whether `branch` refuses the object `instance` by a property's `const` or `enum` (written in the branch
 * itself, not behind a reference): the instance has the property, and its value is not the `const` nor
 * among the `enum`'s. Such a branch fails on the instance in the served schema and in the original alike
 * (close-objects keeps `const` and `enum` as they are, and wraps only properties it made nullable, which
 * this does not read through). Anything else: false (the branch may apply).
 */
function refusesByDiscriminator(branch: unknown, instance: unknown): boolean {
  if (!isObject(branch) || !isObject(instance) || !isObject(branch.properties)) return false;
  const props = branch.properties;
  for (const k of Object.keys(props)) {
    const p = props[k];
    if (!isObject(p) || !hasOwn(instance, k)) continue;
    const v = instance[k];
    if (hasOwn(p, 'const') && !jsonEqual(p.const, v)) return true;
    if (Array.isArray(p.enum) && !p.enum.some((e) => jsonEqual(e, v))) return true;
  }
  return false;
}

/** `value` without the nulls of made-nullable properties (the same object when there are none); each dropped one's place goes to `removed`. */
function rewrite(value: unknown, nodes: readonly Applied[], m: ToolCallMapping, path: readonly string[], removed: string[][]): unknown {
  if (nodes.length === 0 || path.length > MAX_DEPTH) return value;
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    value.forEach((item, j) => {
      const reached: [unknown, string][] = [];
      for (const { node, at } of nodes) {
        const prefix = node.prefixItems;
        if (Array.isArray(prefix) && j < prefix.length) reached.push([prefix[j], `${at}/prefixItems/${j}`]);
        else if (Array.isArray(node.items)) reached.push([node.items[j], `${at}/items/${j}`]);
        else reached.push([node.items, `${at}/items`]);
      }
      const next = rewrite(item, applied(reached, m, item), m, [...path, String(j)], removed);
      if (next !== item) (out ??= value.slice())[j] = next;
    });
    return out ?? value;
  }
  if (!isObject(value)) return value;
  let out: Record<string, unknown> | undefined;
  const keys = Object.keys(value);
  for (const [index, key] of keys.entries()) {
    const item = value[key];
    let madeNullable = false;
    let declared = false;
    const reached: [unknown, string][] = [];
    for (const { node, at } of nodes) {
      const props = node.properties;
      if (isObject(props) && hasOwn(props, key)) {
        const propAt = appendPointer(appendPointer(at, 'properties'), key);
        if (m.nullable.has(propAt)) madeNullable = true;
        else declared = true;
        reached.push([props[key], propAt]);
        continue;
      }
      let matched = false;
      const patterns = node.patternProperties;
      if (isObject(patterns)) {
        for (const pattern of Object.keys(patterns)) {
          if (!matches(pattern, key)) continue;
          matched = true;
          reached.push([patterns[pattern], appendPointer(appendPointer(at, 'patternProperties'), pattern)]);
        }
      }
      if (!matched && isObject(node.additionalProperties)) reached.push([node.additionalProperties, `${at}/additionalProperties`]);
    }
    if (item === null && madeNullable && !declared) {
      // The client's "absent": left out, as the server's own schema has it.
      out ??= copyKeys(value, keys.slice(0, index));
      removed.push([...path, key]);
      continue;
    }
    const next = item !== null && typeof item === 'object' && reached.length > 0 ? rewrite(item, applied(reached, m, item), m, [...path, key], removed) : item;
    if (next !== item || out !== undefined) {
      out ??= copyKeys(value, keys.slice(0, index));
      define(out, key, next);
    }
  }
  return out ?? value;
}

/** A server's `patternProperties` pattern met with a model's key: bounded where V8 can bound it (bounded-regexp.ts). */
function matches(pattern: string, key: string): boolean {
  try {
    return boundedRegExp(pattern, 'u').test(key);
  } catch {
    return false;
  }
}

function copyKeys(value: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) define(out, k, value[k]);
  return out;
}

/** Sets an own member, `__proto__` included, without touching the prototype. */
function define(obj: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
}
