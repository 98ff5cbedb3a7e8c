/**
 * Choosing a session's hot set: the `k` tools served in full, chosen **once, when the session starts**,
 * so that the served list keeps the same bytes from one request to the next and the prompt cache keeps
 * hitting. At that moment there is no conversation text, so the choice rests on what earlier sessions
 * recorded (a {@link ToolUsageGraph}), through a small named policy.
 */
import { ToolslimError } from '../core/errors.js';
import { isObject } from '../schema/pointer.js';
import { ToolUsageGraph, type ToolRef } from '../usage/graph.js';

/**
 * How a session's hot set is ranked at its start:
 * - `frequency` (the default with a graph): the most-called tools of earlier sessions;
 * - `recency`: the tools called most recently, whatever their count;
 * - `graph`: the graph's own score with no conversation text (transition from the last recorded call,
 *   alternation and recency, weighted as the graph says). The "last call" is the previous session's, a
 *   weak signal at a new session's start; kept for measurement;
 * - `list-order`: the first `k` tools of the list (the choice without a graph: with no usage there is
 *   no evidence that any tool is likelier than another, and the list order is the one choice that is
 *   stable, explainable and costs nothing).
 *
 * Every policy breaks ties by list order, and a tool the graph has never seen scores as never called.
 */
export type HotSetPolicy = 'frequency' | 'recency' | 'graph' | 'list-order';

/** Every {@link HotSetPolicy}, in the order the docs list them. */
export const HOT_SET_POLICIES: readonly HotSetPolicy[] = Object.freeze(['frequency', 'recency', 'graph', 'list-order']);

/** The policy used when a graph is given and no policy is named. */
export const DEFAULT_HOT_SET_POLICY: HotSetPolicy = 'frequency';

/** Options of {@link chooseHotSet}. */
export interface ChooseHotSetOptions {
  /** What earlier sessions recorded. Without it the hot set is the first `k` tools (`list-order`). */
  readonly graph?: ToolUsageGraph;
  /** How to rank (default {@link DEFAULT_HOT_SET_POLICY} with a graph, `list-order` without). */
  readonly policy?: HotSetPolicy;
}

/**
 * The names of the `k` tools to serve in full for a whole session, **in list order** (not rank order),
 * so the same set always comes out the same. Deterministic: the same list, graph state and policy give
 * the same names. Duplicate names count once; entries without a string name are never hot. With `k` at
 * least the number of named tools, every tool is hot.
 *
 * @param tools - the session's tool list (MCP tools or names), in the order they are served
 * @param k - how many tools to serve in full (a non-negative integer)
 * @throws ToolslimError (`invalid-option`) when `k`, `graph` or `policy` is unusable
 */
export function chooseHotSet(tools: readonly ToolRef[], k: number, options: ChooseHotSetOptions = {}): string[] {
  if (!Number.isSafeInteger(k) || k < 0) throw new ToolslimError('invalid-option', `chooseHotSet: \`k\` must be a non-negative integer, got ${describeValue(k)}`);
  if (!Array.isArray(tools)) throw new ToolslimError('invalid-input', `chooseHotSet: \`tools\` must be an array of tools or names, got ${describeValue(tools)}`);
  checkOptions(options, 'chooseHotSet');
  const { graph } = options;
  const policy = options.policy ?? (graph ? DEFAULT_HOT_SET_POLICY : 'list-order');

  const names: string[] = [];
  const seen = new Set<string>();
  for (const t of tools) {
    const name = typeof t === 'string' ? t : isObject(t) && typeof t.name === 'string' ? t.name : undefined;
    if (name === undefined || seen.has(name)) continue;
    seen.add(name);
    names.push(name);
  }
  if (k >= names.length) return names;
  if (k === 0) return [];
  if (policy === 'list-order' || graph === undefined) return names.slice(0, k);

  const score = scoresOf(names, graph, policy);
  const order = names.map((_, i) => i);
  order.sort((a, b) => score[b]! - score[a]! || a - b);
  return order
    .slice(0, k)
    .sort((a, b) => a - b)
    .map((i) => names[i]!);
}

/** Throws a clear error for a policy or graph that is not one. Shared with the session options. */
export function checkOptions(options: ChooseHotSetOptions, where: string): void {
  if (!isOptionsObject(options)) throw new ToolslimError('invalid-option', `${where}: options must be an object, got ${describeValue(options)}`);
  if (options.graph !== undefined && !(options.graph instanceof ToolUsageGraph)) {
    throw new ToolslimError('invalid-option', `${where}: \`graph\` must be a ToolUsageGraph (read a usage file with ToolUsageGraph.fromJSON or a UsageStore), got ${describeValue(options.graph)}`);
  }
  if (options.policy !== undefined && !HOT_SET_POLICIES.includes(options.policy)) {
    throw new ToolslimError('invalid-option', `${where}: unknown hot-set policy ${describeValue(options.policy)} (known: ${HOT_SET_POLICIES.join(', ')})`);
  }
}

/** Each name's score under `policy` (higher is hotter). */
function scoresOf(names: readonly string[], graph: ToolUsageGraph, policy: Exclude<HotSetPolicy, 'list-order'>): Float64Array {
  const score = new Float64Array(names.length);
  if (policy === 'frequency') {
    for (let i = 0; i < names.length; i++) score[i] = graph.callCount(names[i]!);
  } else if (policy === 'recency') {
    for (let i = 0; i < names.length; i++) score[i] = graph.lastCalled(names[i]!);
  } else {
    const byName = new Map<string, number>();
    for (const r of graph.rank({})) byName.set(r.name, r.score);
    for (let i = 0; i < names.length; i++) score[i] = byName.get(names[i]!) ?? 0;
  }
  return score;
}

/** A value as an error message shows it. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) {
    return `a ${(value as object).constructor?.name ?? 'non-plain'} object`;
  }
  try {
    const text = JSON.stringify(value);
    return text === undefined ? String(value) : text.length > 80 ? text.slice(0, 77) + '…' : text;
  } catch {
    return String(value);
  }
}

/** True for an object that can hold options (not null, not an array); not a type guard, so option types stay. */
export function isOptionsObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
