/**
 * What a server's proxy serves, through toolslim's own session layer (src/session: chooseHotSet,
 * buildServedTools, invalidArgumentsResult), so the bench prices exactly the bytes `toolslim proxy --hot-set`
 * sends: the hot tools in full, the rest in a cold form; which tools are hot at session start; what an
 * invalid call of a cold tool is answered with.
 */
import { ArgumentValidator, buildServedTools, chooseHotSet, DEFAULT_HOT_SET, invalidArgumentsResult, ToolUsageGraph, UNION_KEYWORDS, type ArgumentIssue, type ColdFormOptions, type HotSetPolicy, type McpTool, type PreambleMode } from '../../../src/index.js';
import { signatureOf } from '../../../src/transforms/compress-cold-tools.js';

/** How a cold tool is served (each a set of the session layer's cold-form options). */
export type ColdForm = 'sentence' | 'no-preamble' | 'parameters' | 'signature' | 'signature-once';

export const COLD_FORMS: readonly ColdForm[] = ['sentence', 'no-preamble', 'parameters', 'signature', 'signature-once'];

/** The compress-cold-tools options each cold form is. */
export const COLD_FORM_OPTIONS: Readonly<Record<ColdForm, ColdFormOptions>> = Object.freeze({
  sentence: {},
  'no-preamble': { dropSharedPreamble: true },
  parameters: { dropSharedPreamble: true, parameters: 'schema' },
  signature: { dropSharedPreamble: true, parameters: 'signature' },
  'signature-once': { dropSharedPreamble: true, parameters: 'signature' },
});

/** Where each cold form serves the shared preamble (`buildServedTools`' `preamble`): hot tools keep it, or it is said once. */
export const PREAMBLE_OF_FORM: Readonly<Record<ColdForm, PreambleMode>> = Object.freeze({ sentence: 'each', 'no-preamble': 'each', parameters: 'each', signature: 'each', 'signature-once': 'once' });

export const COLD_FORM_LABEL: Readonly<Record<ColdForm, string>> = {
  sentence: 'first sentence, open schema (compress-cold-tools\' defaults: `{}`)',
  'no-preamble': 'shared preamble dropped, first sentence, open schema (`{ dropSharedPreamble: true }`)',
  parameters: "shared preamble dropped, first sentence, parameter names and types in the schema, no `required` (`{ dropSharedPreamble: true, parameters: 'schema' }`)",
  signature: "shared preamble dropped, first sentence and a signature `(folder:string, lines?:integer)`, open schema (`{ dropSharedPreamble: true, parameters: 'signature' }`); hot tools keep the preamble (`preamble: 'each'`)",
  'signature-once': "as `signature`, and the preamble said once per server: on its first tool, hot or cold, and on no other, hot tools included (`preamble: 'once'`, the default)",
};

/** The cold form of `DEFAULT_HOT_SET.cold`, by name (throws when the default is not one of ours). */
export function defaultColdForm(): ColdForm {
  const want = JSON.stringify(DEFAULT_HOT_SET.cold);
  const form = COLD_FORMS.find((f) => JSON.stringify(COLD_FORM_OPTIONS[f]) === want && PREAMBLE_OF_FORM[f] === DEFAULT_HOT_SET.preamble);
  if (form === undefined) throw new Error(`DEFAULT_HOT_SET.cold ${want} is none of the bench's cold forms`);
  return form;
}

/**
 * The served list of one server: `tools` (already through the preset) with every tool outside `hot` in
 * `form`: `buildServedTools`, what a `ToolSession` serves.
 */
export function servedList(tools: readonly McpTool[], hot: ReadonlySet<string>, form: ColdForm): McpTool[] {
  return buildServedTools(tools, hot, COLD_FORM_OPTIONS[form], PREAMBLE_OF_FORM[form]);
}

/**
 * What a model shown `cold` (a tool's cold form) learns of its input schema, as a schema: nothing (open),
 * the names and plain types (`parameters`), or those and `required` (a complete signature). `undefined`
 * when a signature was cut short (`, …`): it hides parameters.
 */
export function conveyedSchema(real: McpTool, cold: McpTool, form: ColdForm): unknown {
  if (form === 'sentence' || form === 'no-preamble') return { type: 'object' };
  if (form === 'parameters') return cold.inputSchema;
  const sig = signatureOf(real.inputSchema, 200);
  if (sig.endsWith('…')) return undefined;
  const names = buildServedTools([real], [], { parameters: 'schema' })[0]!.inputSchema as Record<string, unknown>;
  const required = (real.inputSchema as Record<string, unknown> | undefined)?.required;
  return Array.isArray(required) && required.length > 0 ? { ...names, required } : names;
}

const VALIDATOR = new ArgumentValidator();

/**
 * The session layer's answer to an invalid call of `tool` (`invalidArgumentsResult`: the problems and the
 * full input schema), as the text the model reads next (the result's text, not its JSON envelope). The
 * failed call is a guess; its problems are those
 * of an empty arguments object, or, where `{}` is valid, one generic line.
 */
export function invalidCallAnswer(tool: McpTool, revealed = false): string {
  const check = VALIDATOR.check(tool, {});
  const issues: readonly ArgumentIssue[] = check.status === 'invalid' ? check.issues : [{ path: '', message: 'must match the input schema' }];
  // What the model reads is the result's text (a client passes `content` on, `isError` as the tool result's
  // flag), as for every other result; the JSON envelope around it, with its escaped quotes, is the wire's.
  return invalidArgumentsResult(tool.name, tool, issues, check.status === 'invalid' ? check.omitted : 0, revealed).content.map((c) => c.text).join('\n');
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

// ------------------------------------------------------------------------------------------------
// Choosing the hot set at session start.

/** How the hot set is chosen at session start (each maps to `chooseHotSet` options). */
export type Chooser = 'usage' | 'recency' | 'graph' | 'prior' | 'first' | `rate-${number}`;

export function chooserLabel(chooser: Chooser): string {
  if (chooser.startsWith('rate-')) return `usage file without this session: up to k of the most-called tools, each called at least ${chooser.slice(5)} times per recorded session (\`frequency\`, \`minCallsPerSession: ${chooser.slice(5)}\`)`;
  return CHOOSER_LABEL[chooser as keyof typeof CHOOSER_LABEL];
}

export const CHOOSER_LABEL = {
  usage: 'usage file without this session: up to k of the most-called tools, any called at all (`frequency`, `minCallsPerSession: 0`)',
  recency: 'usage file without this session: up to k of the tools called most recently (`recency`)',
  graph: "usage file without this session: ToolUsageGraph's own rank with no text — transitions from the previous session's last call, recency (`graph`)",
  prior: `a usage file that has seen only the earlier sessions (file order), ranked by the defaults (\`frequency\`, \`minCallsPerSession: ${DEFAULT_HOT_SET.minCallsPerSession}\`)`,
  first: 'the first k tools in list order (`list-order`, the only policy that needs no usage file)',
} as const;

/** `chooseHotSet` options of a chooser (`prior` is `frequency` with the default floor, on less history). */
export function chooserOptions(chooser: Chooser): { policy: HotSetPolicy; minCallsPerSession: number } {
  if (chooser.startsWith('rate-')) return { policy: 'frequency', minCallsPerSession: Number(chooser.slice(5)) };
  switch (chooser) {
    case 'usage':
      return { policy: 'frequency', minCallsPerSession: 0 };
    case 'prior':
      return { policy: 'frequency', minCallsPerSession: DEFAULT_HOT_SET.minCallsPerSession };
    case 'first':
      return { policy: 'list-order', minCallsPerSession: 0 };
    default:
      return { policy: chooser as HotSetPolicy, minCallsPerSession: 0 };
  }
}

/**
 * The usage files the servers' proxies would hold: for each server (group), the sessions that listed it in
 * file order, each with its calls of that server's tools. `choose` builds the ToolUsageGraph a proxy would
 * have read — one `beginSession()` per session, then its calls — from every session except `exclude` (for
 * `prior`: only those before the first excluded one), and asks `chooseHotSet`.
 */
export class UsageHistory {
  readonly #sessions = new Map<string, { id: string; calls: string[] }[]>();
  readonly #order = new Map<string, number>();
  readonly #graphs = new Map<string, ToolUsageGraph>();

  /** A session listed the group's server (one proxy start). Call before its `add`s. */
  list(session: string, group: string): void {
    if (!this.#order.has(session)) this.#order.set(session, this.#order.size);
    let list = this.#sessions.get(group);
    if (list === undefined) this.#sessions.set(group, (list = []));
    list.push({ id: session, calls: [] });
  }

  /** One call of a group's tool by the session last listed for it. */
  add(session: string, group: string, name: string): void {
    const list = this.#sessions.get(group);
    const last = list?.[list.length - 1];
    if (last === undefined || last.id !== session) throw new Error(`UsageHistory: call of \`${name}\` by ${session} before it listed ${group}`);
    last.calls.push(name);
  }

  /** The graph a proxy of `group` would have read at the start of a session that must not see `exclude`. */
  graph(group: string, names: readonly string[], exclude: ReadonlySet<string>, priorOnly: boolean): ToolUsageGraph {
    const first = priorOnly ? Math.min(...[...exclude].map((s) => this.#order.get(s) ?? Infinity)) : Infinity;
    const key = `${group}\u0000${priorOnly ? `<${first}` : [...exclude].sort().join('\u0001')}\u0000${names.join('\u0001')}`;
    let graph = this.#graphs.get(key);
    if (graph === undefined) {
      graph = new ToolUsageGraph(names);
      const known = new Set(names);
      for (const s of this.#sessions.get(group) ?? []) {
        if (exclude.has(s.id) || (this.#order.get(s.id) ?? Infinity) >= first) continue;
        graph.beginSession();
        for (const c of s.calls) if (known.has(c)) graph.record(c);
      }
      this.#graphs.set(key, graph);
    }
    return graph;
  }

  choose(chooser: Chooser, group: string, tools: readonly McpTool[], k: number, exclude: ReadonlySet<string>): Set<string> {
    const { policy, minCallsPerSession } = chooserOptions(chooser);
    if (policy === 'list-order') return new Set(chooseHotSet(tools, k, { policy }));
    const graph = this.graph(group, tools.map((t) => t.name), exclude, chooser === 'prior');
    return new Set(chooseHotSet(tools, k, { graph, policy, minCallsPerSession }));
  }
}
