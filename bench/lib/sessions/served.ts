/**
 * What a server's proxy serves: the hot tools in full, the rest in a cold form; which tools are hot at session
 * start; what an invalid call of a cold tool is answered with.
 */
import { compressColdTools, ToolUsageGraph, UNION_KEYWORDS, type McpTool } from '../../../src/index.js';

/** How a cold tool is served. */
export type ColdForm = 'sentence' | 'no-preamble' | 'parameters' | 'names-types' | 'signature' | 'bare';

export const COLD_FORMS: readonly ColdForm[] = ['sentence', 'no-preamble', 'parameters', 'names-types', 'signature', 'bare'];

export const COLD_FORM_LABEL: Readonly<Record<ColdForm, string>> = {
  sentence: 'first sentence, open schema (compress-cold-tools today)',
  'no-preamble': 'shared preamble removed, first sentence, open schema',
  parameters: 'shared preamble removed, first sentence, parameter names and types (no `required`)',
  'names-types': 'shared preamble removed, first sentence, parameter names and types (and required)',
  signature: 'shared preamble removed, first sentence followed by a signature `(name: type, opt?: type)`, open schema',
  bare: 'shared preamble removed, first sentence, the whole input schema without annotations',
};

/**
 * The served list of one server: `tools` (already through the preset) with every tool outside `hot` in
 * `form`. Tools keep their positions.
 */
export function servedList(tools: readonly McpTool[], hot: ReadonlySet<string>, form: ColdForm): McpTool[] {
  const keep = tools.filter((t) => hot.has(t.name)).map((t) => t.name);
  if (keep.length === tools.length) return tools.slice();
  let input = tools;
  if (form !== 'sentence') {
    const preamble = sharedPreamble(tools);
    if (preamble !== '') {
      input = tools.map((t) => (hot.has(t.name) || typeof t.description !== 'string' ? t : { ...t, description: t.description.slice(preamble.length) }));
    }
  }
  const compressed = compressColdTools(input, { keep }, { measure: false }).tools as McpTool[];
  if (form === 'sentence' || form === 'no-preamble') return compressed;
  if (form === 'signature') return compressed.map((t, i) => (hot.has(t.name) ? t : { ...t, description: `${t.description ?? ''} ${signature(tools[i]!.inputSchema)}`.trim() }));
  const schemaOf =
    form === 'names-types'
      ? namesAndTypes
      : form === 'parameters'
        ? (s: unknown) => {
            const { required: _, ...rest } = namesAndTypes(s);
            return rest;
          }
        : (s: unknown) => stripAnnotations(s ?? { type: 'object' }) as Record<string, unknown>;
  return compressed.map((t, i) => (hot.has(t.name) ? t : { ...t, inputSchema: schemaOf(tools[i]!.inputSchema) as McpTool['inputSchema'] }));
}

/** `(a: string, b?: number)`: the parameter names, their types, `?` when optional. */
export function signature(schema: unknown): string {
  const nt = namesAndTypes(schema);
  const props = (nt.properties ?? {}) as Record<string, { type?: unknown }>;
  const required = new Set((nt.required ?? []) as string[]);
  const parts = Object.entries(props).map(([n, p]) => `${n}${required.has(n) ? '' : '?'}: ${p.type === undefined ? 'any' : Array.isArray(p.type) ? p.type.join(' | ') : String(p.type)}`);
  return `(${parts.join(', ')})`;
}

/**
 * A schema without its annotations (description, title, default, examples, …, by the keyword table) and
 * without keys no dialect defines, descending only where a subschema sits: what validation sees.
 */
export function stripAnnotations(schema: unknown): unknown {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema as Record<string, unknown>)) {
    const info = UNION_KEYWORDS.get(key);
    if (info === undefined || info.role === 'annotation') continue;
    switch (info.shape) {
      case 'schema':
        out[key] = stripAnnotations(value);
        break;
      case 'schemaArray':
        out[key] = Array.isArray(value) ? value.map(stripAnnotations) : value;
        break;
      case 'schemaOrArray':
        out[key] = Array.isArray(value) ? value.map(stripAnnotations) : stripAnnotations(value);
        break;
      case 'schemaMap':
      case 'schemaOrStrings':
        out[key] =
          typeof value === 'object' && value !== null && !Array.isArray(value)
            ? Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, Array.isArray(v) ? v : stripAnnotations(v)]))
            : value;
        break;
      default:
        out[key] = value;
    }
  }
  return out;
}

/**
 * Whether a model that follows `cold` (the served cold schema) can still send arguments `real` rejects:
 * true unless the two say the same once annotations are gone (an empty `properties` or `required` counts as
 * absent). Conservative: schemas that differ in form but not in meaning count as hiding a constraint.
 */
export function hidesConstraints(real: unknown, cold: unknown): boolean {
  return canonical(normalizeEmpty(stripAnnotations(real ?? { type: 'object' }))) !== canonical(normalizeEmpty(stripAnnotations(cold ?? { type: 'object' })));
}

function normalizeEmpty(schema: unknown): unknown {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema as Record<string, unknown>)) {
    if ((k === 'properties' && typeof v === 'object' && v !== null && Object.keys(v).length === 0) || (k === 'required' && Array.isArray(v) && v.length === 0)) continue;
    out[k] = k === 'properties' && typeof v === 'object' && v !== null ? Object.fromEntries(Object.entries(v).map(([p, s]) => [p, normalizeEmpty(s)])) : v;
  }
  return out;
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * The text every description of the server starts with, cut back to the end of a word: what a cold tool can
 * drop because its siblings say it (empty when there is none, fewer than two tools, or it is under 16 characters).
 */
export function sharedPreamble(tools: readonly McpTool[]): string {
  const texts = tools.map((t) => t.description);
  if (texts.length < 2 || texts.some((d) => typeof d !== 'string')) return '';
  let prefix = texts[0] as string;
  for (const d of texts as string[]) {
    let i = 0;
    while (i < prefix.length && i < d.length && prefix.charCodeAt(i) === d.charCodeAt(i)) i++;
    prefix = prefix.slice(0, i);
  }
  // A preamble ends where a word does; never cut a description to nothing.
  const shortest = Math.min(...(texts as string[]).map((d) => d.length));
  if (prefix.length >= shortest) prefix = prefix.slice(0, shortest - 1);
  const end = prefix.search(/\s\S*$/);
  prefix = end < 0 ? '' : prefix.slice(0, end + 1);
  return prefix.length >= 16 ? prefix : '';
}

/** `{type: "object", properties: {name: {type}}, required}` of a schema: its parameter names and types only. */
export function namesAndTypes(schema: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = { type: 'object' };
  if (typeof schema !== 'object' || schema === null) return out;
  const s = schema as Record<string, unknown>;
  if (typeof s.properties === 'object' && s.properties !== null) {
    const props: Record<string, unknown> = {};
    for (const [name, p] of Object.entries(s.properties as Record<string, unknown>)) {
      const type = typeof p === 'object' && p !== null ? (p as Record<string, unknown>).type : undefined;
      props[name] = type === undefined ? {} : { type };
    }
    out.properties = props;
  }
  if (Array.isArray(s.required) && s.required.length > 0) out.required = s.required;
  return out;
}

/**
 * The answer to a call of a cold tool whose arguments fail validation (reveal in the result): an MCP error
 * result naming the problem and carrying the tool's full `inputSchema` (compact JSON); with `schema: false`
 * (list-changed reveal, where the list brings the schema) only the error line.
 */
export function invalidCallAnswer(tool: McpTool, schema = true): string {
  const line = `Invalid arguments for tool \`${tool.name}\`: they do not match its input schema.`;
  const text = schema ? `${line} Its inputSchema: ${JSON.stringify(tool.inputSchema ?? { type: 'object' })}` : `${line} Its full definition is now in the tools list.`;
  return JSON.stringify({ content: [{ type: 'text', text }], isError: true });
}

// ------------------------------------------------------------------------------------------------
// Choosing the hot set at session start.

/** How the hot set is chosen at session start. */
export type Chooser = 'usage' | 'graph' | 'prior' | 'first' | `rate-${number}`;

export function chooserLabel(chooser: Chooser): string {
  if (chooser.startsWith('rate-')) return `usage file without this session: up to k tools called at least ${chooser.slice(5)} times per session that lists the server (ties: list order)`;
  return CHOOSER_LABEL[chooser as keyof typeof CHOOSER_LABEL];
}

export const CHOOSER_LABEL = {
  usage: 'usage file without this session: the k most-called tools (ties: list order; a tool never called is never hot)',
  graph: 'usage file without this session: ToolUsageGraph.hotSet(k) with no text (recency and transitions of the last recorded calls)',
  prior: 'usage file of the earlier sessions only (file order): the k most-called tools',
  first: 'no usage file: the first k tools in list order',
} as const;

/** One recorded tool call: which session made it. */
interface Recorded {
  readonly session: string;
  readonly name: string;
}

/**
 * The usage file a server's proxy would hold: every call of its tools, session by session, in file order.
 * `choose` builds the hot set from the calls of every session except `exclude` (or, for `prior`, of the
 * sessions before the first excluded one).
 */
export class UsageHistory {
  readonly #calls = new Map<string, Recorded[]>();
  readonly #order = new Map<string, number>();
  readonly #listed = new Map<string, string[]>();

  /** A session listed the group's server (each proxy start counts one session). Call before its `add`s. */
  list(session: string, group: string): void {
    if (!this.#order.has(session)) this.#order.set(session, this.#order.size);
    let list = this.#listed.get(group);
    if (list === undefined) this.#listed.set(group, (list = []));
    list.push(session);
  }

  /** One call of a group's tool, in session order. */
  add(session: string, group: string, name: string): void {
    if (!this.#order.has(session)) this.#order.set(session, this.#order.size);
    let list = this.#calls.get(group);
    if (list === undefined) this.#calls.set(group, (list = []));
    list.push({ session, name });
  }

  choose(chooser: Chooser, group: string, tools: readonly McpTool[], k: number, exclude: ReadonlySet<string>): Set<string> {
    if (k <= 0) return new Set();
    if (chooser === 'first') return new Set(tools.slice(0, k).map((t) => t.name));
    const names = tools.map((t) => t.name);
    let calls = (this.#calls.get(group) ?? []).filter((c) => !exclude.has(c.session));
    let listed = (this.#listed.get(group) ?? []).filter((s) => !exclude.has(s));
    if (chooser === 'prior') {
      const first = Math.min(...[...exclude].map((s) => this.#order.get(s) ?? Infinity));
      calls = calls.filter((c) => (this.#order.get(c.session) ?? Infinity) < first);
      listed = listed.filter((s) => (this.#order.get(s) ?? Infinity) < first);
    }
    if (chooser === 'graph') {
      const graph = new ToolUsageGraph(names);
      for (const c of calls) if (names.includes(c.name)) graph.record(c.name);
      return new Set(graph.hotSet(Math.min(k, names.length)));
    }
    const count = new Map<string, number>(names.map((n) => [n, 0]));
    for (const c of calls) if (count.has(c.name)) count.set(c.name, count.get(c.name)! + 1);
    let ranked = names.map((n, i) => ({ n, i, c: count.get(n)! })).sort((a, b) => b.c - a.c || a.i - b.i);
    if (chooser.startsWith('rate-')) {
      const sessions = listed.length;
      const rate = Number(chooser.slice(5));
      ranked = ranked.filter((r) => sessions > 0 && r.c > 0 && r.c / sessions >= rate);
    } else ranked = ranked.filter((r) => r.c > 0);
    return new Set(ranked.slice(0, k).map((r) => r.n));
  }
}
