/**
 * Choosing a session's hot set: the `k` tools served in full, chosen **once, when the session starts**,
 * so that the served list keeps the same bytes from one request to the next and the prompt cache keeps
 * hitting. At that moment there is no conversation text, so the choice rests on what earlier sessions
 * recorded (a {@link ToolUsageGraph}), through a small named policy.
 */
import { describeValue, isOptionsObject } from '../core/describe.js';
import { ToolslimError } from '../core/errors.js';
import { isObject } from '../json/guards.js';
import { ToolUsageGraph, type ToolRef } from '../usage/graph.js';
import { DEFAULT_HOT_SET } from './defaults.js';
import { HOT_SET_POLICIES, type HotSetPolicy } from './types.js';

export { HOT_SET_POLICIES, type HotSetPolicy } from './types.js';

/** Options of {@link chooseHotSet}. */
export interface ChooseHotSetOptions {
  /** What earlier sessions recorded. Without it no tool is hot (except with `list-order`). */
  readonly graph?: ToolUsageGraph;
  /** How to rank (default `DEFAULT_HOT_SET.policy`, `frequency`). */
  readonly policy?: HotSetPolicy;
  /**
   * `frequency` only: a tool is hot only when called at least this often per session, that is
   * `graph.callCount(name) / max(1, graph.sessions) >= minCallsPerSession` (default
   * `DEFAULT_HOT_SET.minCallsPerSession`, 0.35; 0 keeps every tool called at least once).
   */
  readonly minCallsPerSession?: number;
}

/**
 * The names of at most `k` tools to serve in full for a whole session, **in list order** (not rank
 * order), so the same set always comes out the same. Deterministic: the same list, graph state and
 * options give the same names. Duplicate names count once; entries without a string name are never hot.
 * Only tools with evidence qualify (see {@link HotSetPolicy}), so fewer than `k` may come back.
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
  const policy = options.policy ?? DEFAULT_HOT_SET.policy;
  const floor = options.minCallsPerSession ?? DEFAULT_HOT_SET.minCallsPerSession;

  const names: string[] = [];
  const seen = new Set<string>();
  for (const t of tools) {
    const name = typeof t === 'string' ? t : isObject(t) && typeof t.name === 'string' ? t.name : undefined;
    if (name === undefined || seen.has(name)) continue;
    seen.add(name);
    names.push(name);
  }
  if (k === 0) return [];
  if (policy === 'list-order') return names.slice(0, k);
  if (graph === undefined) return [];

  const score = scoresOf(names, graph, policy);
  const sessions = Math.max(1, graph.sessions);
  const order: number[] = [];
  for (let i = 0; i < names.length; i++) {
    if (!(score[i]! > 0)) continue;
    if (policy === 'frequency' && graph.callCount(names[i]!) / sessions < floor) continue;
    order.push(i);
  }
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
  const floor = options.minCallsPerSession;
  if (floor !== undefined && (typeof floor !== 'number' || !Number.isFinite(floor) || floor < 0)) {
    throw new ToolslimError('invalid-option', `${where}: \`minCallsPerSession\` must be a non-negative number, got ${describeValue(floor)}`);
  }
}

/** Each name's score under `policy` (higher is hotter). */
function scoresOf(names: readonly string[], graph: ToolUsageGraph, policy: Exclude<HotSetPolicy, 'list-order'>): Float64Array {
  const score = new Float64Array(names.length);
  if (policy === 'frequency') {
    for (let i = 0; i < names.length; i++) score[i] = graph.callCount(names[i]!);
  } else if (policy === 'recency') {
    // step + 1: the first call ever (step 0) is evidence too
    for (let i = 0; i < names.length; i++) score[i] = graph.lastCalled(names[i]!) + 1;
  } else {
    const byName = new Map<string, number>();
    for (const r of graph.rank({})) byName.set(r.name, r.score);
    for (let i = 0; i < names.length; i++) score[i] = byName.get(names[i]!) ?? 0;
  }
  return score;
}

export { describeValue, isOptionsObject };
