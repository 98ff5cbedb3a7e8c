// Why one file: one class (ToolUsageGraph) with its JSON form; the four signals read the same per-tool arrays.
/**
 * ToolUsageGraph: which tools to send in full on the next turn. It records tool executions and ranks
 * every tool from four signals, each in [0, 1]:
 *
 * - transition: weight(last → X) / out-weight(last), first-order, cycles and self-loops allowed;
 * - alternation: 1 when the two most recent calls were X then another tool (A → B → A);
 * - recency: 2^(−age / halfLife), age being the number of calls since X was last called (0 for the last call);
 * - lexical: the share of X's name words (split at `_`, `-`, `.` and camelCase) found in the conversation text.
 *
 * The score is their weighted mean; ties go to the tool listed first. No clock, no randomness: the same
 * events give the same state, the same ranking and the same JSON.
 */
import { ToolslimError } from '../core/errors.js';
import { splitWords } from '../lint/surface.js';
import { hasOwn, isObject } from '../json/guards.js';

/** How much each signal counts; any non-negative numbers (they are divided by their sum). */
export interface UsageWeights {
  readonly transition: number;
  readonly alternation: number;
  readonly recency: number;
  readonly lexical: number;
}

/** Options of {@link ToolUsageGraph}. */
export interface ToolUsageGraphOptions {
  /** Calls after which a tool's recency halves (default 4). */
  readonly halfLife?: number;
  /**
   * Weights of the signals (defaults: transition 0.3, alternation 0.1, recency 0.2, lexical 0.4: the user's
   * latest words are the freshest evidence of a new intent; history carries the follow-ups).
   */
  readonly weights?: Partial<UsageWeights>;
}

/** What the next turn is about. */
export interface RankContext {
  /** Conversation text (say, the latest user message); its words are matched against tool names. */
  readonly text?: string;
}

/** One tool's rank and the signals behind it. */
export interface RankedTool {
  readonly name: string;
  /** Position in the graph's tool list (the tie-breaker). */
  readonly index: number;
  /** Weighted mean of the signals, in [0, 1]. */
  readonly score: number;
  readonly transition: number;
  readonly alternation: number;
  readonly recency: number;
  readonly lexical: number;
}

/** The JSON form of a graph (see {@link ToolUsageGraph.toJSON}). */
export interface ToolUsageGraphJSON {
  readonly version: 1;
  readonly halfLife: number;
  readonly weights: UsageWeights;
  /** Every tool, in list order (tools first seen in `record` are appended). */
  readonly tools: readonly string[];
  /** Number of recorded calls. */
  readonly steps: number;
  /**
   * Number of sessions begun ({@link ToolUsageGraph.beginSession}); absent when none was, so graphs that
   * never count sessions keep the JSON they always had (and older readers ignore the member).
   */
  readonly sessions?: number;
  /** The two most recent calls, oldest first (fewer at the start). */
  readonly recent: readonly string[];
  /** `[tool, step of its last call]`, in tool order, for tools called at least once. */
  readonly lastUsed: readonly (readonly [string, number])[];
  /** `[from, to, weight]`, ordered by the positions of `from`, then `to`. */
  readonly transitions: readonly (readonly [string, string, number])[];
}

const DEFAULT_HALF_LIFE = 4;
const DEFAULT_WEIGHTS: UsageWeights = Object.freeze({ transition: 0.3, alternation: 0.1, recency: 0.2, lexical: 0.4 });

/** A tool list entry: a name, or anything with a string `name` (an MCP tool). */
export type ToolRef = string | { readonly name: string };

/** Records tool executions and ranks tools for the next turn. Serializable with `JSON.stringify`. */
export class ToolUsageGraph {
  readonly halfLife: number;
  readonly weights: Readonly<UsageWeights>;
  readonly #tools: string[] = [];
  readonly #position = new Map<string, number>();
  readonly #lastUsed: number[] = [];
  readonly #outWeight: number[] = [];
  readonly #transitions: Map<number, number>[] = [];
  readonly #nameWords: (string[] | undefined)[] = [];
  #steps = 0;
  #sessions = 0;
  #prev = -1;
  #prevPrev = -1;

  /** `tools` fixes the tie-breaking order (an MCP `tools` array or names); duplicates count once. */
  constructor(tools: readonly ToolRef[] = [], options: ToolUsageGraphOptions = {}) {
    const halfLife = options.halfLife ?? DEFAULT_HALF_LIFE;
    if (typeof halfLife !== 'number' || !Number.isFinite(halfLife) || halfLife <= 0) throw new ToolslimError('invalid-option', `ToolUsageGraph: \`halfLife\` must be a positive number of calls, got ${String(halfLife)}`);
    const weights = { ...DEFAULT_WEIGHTS, ...(options.weights ?? {}) };
    for (const key of Object.keys(DEFAULT_WEIGHTS) as (keyof UsageWeights)[]) {
      const w = weights[key];
      if (typeof w !== 'number' || !Number.isFinite(w) || w < 0) throw new ToolslimError('invalid-option', `ToolUsageGraph: weight \`${key}\` must be a non-negative number, got ${String(w)}`);
    }
    for (const key of Object.keys(options.weights ?? {})) {
      if (!hasOwn(DEFAULT_WEIGHTS, key)) throw new ToolslimError('invalid-option', `ToolUsageGraph: unknown weight \`${key}\` (known: ${Object.keys(DEFAULT_WEIGHTS).join(', ')})`);
    }
    this.halfLife = halfLife;
    this.weights = Object.freeze({ transition: weights.transition, alternation: weights.alternation, recency: weights.recency, lexical: weights.lexical });
    if (!Array.isArray(tools)) throw new ToolslimError('invalid-input', 'ToolUsageGraph: `tools` must be an array of names or tools');
    for (const [i, t] of tools.entries()) {
      const name = typeof t === 'string' ? t : isObject(t) && typeof t.name === 'string' ? t.name : undefined;
      if (name === undefined) throw new ToolslimError('invalid-input', `ToolUsageGraph: tool ${i} has no string \`name\``, { path: '/' + i });
      this.#intern(name);
    }
  }

  /** The tools, in tie-breaking order. */
  get tools(): readonly string[] {
    return this.#tools.slice();
  }

  /** Number of recorded calls. */
  get steps(): number {
    return this.#steps;
  }

  /**
   * How many recorded calls went to `name` (0 for a tool never called or not in the list). Every call but
   * the latest has exactly one outgoing transition, so this is the tool's out-weight, plus one if it made
   * the latest call: no extra state, and graphs read from JSON answer it too.
   */
  callCount(name: string): number {
    const i = this.#position.get(name);
    if (i === undefined) return 0;
    return this.#outWeight[i]! + (i === this.#prev ? 1 : 0);
  }

  /**
   * The step of `name`'s latest call (0 for the first call ever recorded), or -1 when it was never called
   * or is not in the list.
   */
  lastCalled(name: string): number {
    const i = this.#position.get(name);
    return i === undefined ? -1 : this.#lastUsed[i]!;
  }

  /** Number of sessions begun (see {@link ToolUsageGraph.beginSession}). */
  get sessions(): number {
    return this.#sessions;
  }

  /**
   * Counts one more session (a proxy run, an SDK connection), so that calls can be read per session
   * (`callCount(name) / sessions`). The chain of calls is not broken: a session's first call follows the
   * previous session's last one.
   */
  beginSession(): this {
    this.#sessions++;
    return this;
  }

  /** Records one tool execution. A name not in the list is appended to it. */
  record(name: string): this {
    if (typeof name !== 'string') throw new ToolslimError('invalid-input', `ToolUsageGraph.record: expected a tool name, got ${typeof name}`);
    const i = this.#intern(name);
    if (this.#prev >= 0) {
      const row = this.#transitions[this.#prev]!;
      row.set(i, (row.get(i) ?? 0) + 1);
      this.#outWeight[this.#prev]! += 1;
    }
    this.#lastUsed[i] = this.#steps;
    this.#steps++;
    this.#prevPrev = this.#prev;
    this.#prev = i;
    return this;
  }

  /** Records calls in order. */
  recordAll(names: Iterable<string>): this {
    for (const n of names) this.record(n);
    return this;
  }

  /** Every tool with its score and signals, best first (ties: list order). */
  rank(context: string | RankContext = {}): RankedTool[] {
    const s = this.#signals(context);
    const ranked: RankedTool[] = new Array(this.#tools.length);
    for (let i = 0; i < ranked.length; i++) {
      ranked[i] = { name: this.#tools[i]!, index: i, score: s.score[i]!, transition: s.transition[i]!, alternation: s.alternation[i]!, recency: s.recency[i]!, lexical: s.lexical[i]! };
    }
    ranked.sort((a, b) => b.score - a.score || a.index - b.index);
    return ranked;
  }

  /**
   * The names of the `k` best-ranked tools, in list order (not rank order, so the same set always comes
   * out the same). Pass them as `keep` to `compressColdTools`.
   */
  hotSet(k: number, context: string | RankContext = {}): string[] {
    if (!Number.isSafeInteger(k) || k < 0) throw new ToolslimError('invalid-option', `ToolUsageGraph.hotSet: \`k\` must be a non-negative integer, got ${String(k)}`);
    const n = this.#tools.length;
    if (k >= n) return this.#tools.slice();
    const { score } = this.#signals(context);
    // Top k by (score desc, index asc), kept sorted; k is small next to n.
    const top: number[] = [];
    for (let i = 0; i < n && k > 0; i++) {
      const v = score[i]!;
      if (top.length === k && v <= score[top[k - 1]!]!) continue; // ties keep the earlier tool
      let at = top.length;
      while (at > 0 && score[top[at - 1]!]! < v) at--;
      top.splice(at, 0, i);
      if (top.length > k) top.pop();
    }
    top.sort((a, b) => a - b);
    return top.map((i) => this.#tools[i]!);
  }

  /** The whole state, canonical: equal states give equal JSON text. */
  toJSON(): ToolUsageGraphJSON {
    const lastUsed: [string, number][] = [];
    const transitions: [string, string, number][] = [];
    for (let i = 0; i < this.#tools.length; i++) {
      if (this.#lastUsed[i]! >= 0) lastUsed.push([this.#tools[i]!, this.#lastUsed[i]!]);
      const row = [...this.#transitions[i]!].sort((a, b) => a[0] - b[0]);
      for (const [to, weight] of row) transitions.push([this.#tools[i]!, this.#tools[to]!, weight]);
    }
    const recent = [this.#prevPrev, this.#prev].filter((x) => x >= 0).map((x) => this.#tools[x]!);
    const sessions = this.#sessions > 0 ? { sessions: this.#sessions } : {};
    return { version: 1, halfLife: this.halfLife, weights: { ...this.weights }, tools: this.#tools.slice(), steps: this.#steps, ...sessions, recent, lastUsed, transitions };
  }

  /** Rebuilds a graph from {@link ToolUsageGraph.toJSON}'s output (or its parsed text); throws naming what is wrong. */
  static fromJSON(json: unknown): ToolUsageGraph {
    const fail = (path: string, what: string): never => {
      throw new ToolslimError('invalid-input', `ToolUsageGraph.fromJSON: ${what} at \`${path}\``, { path });
    };
    if (!isObject(json)) return fail('', 'expected an object');
    if (json.version !== 1) fail('/version', `unsupported version ${JSON.stringify(json.version)}, expected 1`);
    if (!Array.isArray(json.tools) || json.tools.some((t) => typeof t !== 'string')) fail('/tools', 'expected an array of names');
    const tools = json.tools as string[];
    if (new Set(tools).size !== tools.length) fail('/tools', 'duplicate tool names');
    // `this`, not the class's own name: esbuild names a class that refers to itself `_ToolUsageGraph`.
    const g = new this(tools, { halfLife: json.halfLife as number, weights: isObject(json.weights) ? (json.weights as Partial<UsageWeights>) : fail('/weights', 'expected an object') });
    const steps = json.steps;
    if (!Number.isSafeInteger(steps) || (steps as number) < 0) fail('/steps', 'expected a non-negative integer');
    g.#steps = steps as number;
    if (hasOwn(json, 'sessions')) {
      if (!Number.isSafeInteger(json.sessions) || (json.sessions as number) < 0) fail('/sessions', 'expected a non-negative integer');
      g.#sessions = json.sessions as number;
    }
    const index = (name: unknown, path: string): number => {
      const i = typeof name === 'string' ? g.#position.get(name) : undefined;
      return i === undefined ? fail(path, `unknown tool ${JSON.stringify(name)}`) : i;
    };
    if (!Array.isArray(json.lastUsed)) fail('/lastUsed', 'expected an array');
    for (const [k, entry] of (json.lastUsed as unknown[]).entries()) {
      const path = `/lastUsed/${k}`;
      if (!Array.isArray(entry) || entry.length !== 2) fail(path, 'expected [tool, step]');
      const [name, step] = entry as [unknown, unknown];
      if (!Number.isSafeInteger(step) || (step as number) < 0 || (step as number) >= g.#steps) fail(path + '/1', `step must be an integer below ${g.#steps}`);
      g.#lastUsed[index(name, path + '/0')] = step as number;
    }
    if (!Array.isArray(json.transitions)) fail('/transitions', 'expected an array');
    for (const [k, entry] of (json.transitions as unknown[]).entries()) {
      const path = `/transitions/${k}`;
      if (!Array.isArray(entry) || entry.length !== 3) fail(path, 'expected [from, to, weight]');
      const [from, to, weight] = entry as [unknown, unknown, unknown];
      if (typeof weight !== 'number' || !Number.isFinite(weight) || weight <= 0) fail(path + '/2', 'weight must be a positive number');
      const f = index(from, path + '/0');
      const t = index(to, path + '/1');
      const row = g.#transitions[f]!;
      if (row.has(t)) fail(path, 'duplicate transition');
      row.set(t, weight as number);
      g.#outWeight[f]! += weight as number;
    }
    if (!Array.isArray(json.recent) || json.recent.length !== Math.min(2, g.#steps)) fail('/recent', `expected the ${Math.min(2, g.#steps)} most recent calls`);
    const recent = (json.recent as unknown[]).map((n, k) => index(n, `/recent/${k}`));
    g.#prev = recent.length > 0 ? recent[recent.length - 1]! : -1;
    g.#prevPrev = recent.length > 1 ? recent[0]! : -1;
    return g;
  }

  /** Every signal and the score of every tool, by position. */
  #signals(context: string | RankContext): { score: Float64Array; transition: Float64Array; alternation: Float64Array; recency: Float64Array; lexical: Float64Array } {
    const n = this.#tools.length;
    const text = typeof context === 'string' ? context : context?.text ?? '';
    if (typeof text !== 'string') throw new ToolslimError('invalid-option', `ToolUsageGraph: the context text must be a string, got ${typeof text}`);
    const transition = new Float64Array(n);
    const alternation = new Float64Array(n);
    const recency = new Float64Array(n);
    const lexical = new Float64Array(n);
    const score = new Float64Array(n);
    const prev = this.#prev;
    if (prev >= 0 && this.#outWeight[prev]! > 0) {
      const out = this.#outWeight[prev]!;
      for (const [to, weight] of this.#transitions[prev]!) transition[to] = weight / out;
    }
    if (this.#prevPrev >= 0 && this.#prevPrev !== prev) alternation[this.#prevPrev] = 1;
    const words = text === '' ? undefined : new Set(splitWords(text).map(stem));
    const w = this.weights;
    const total = w.transition + w.alternation + w.recency + w.lexical;
    for (let i = 0; i < n; i++) {
      const last = this.#lastUsed[i]!;
      if (last >= 0) recency[i] = Math.pow(2, -(this.#steps - 1 - last) / this.halfLife);
      if (words !== undefined && words.size > 0) lexical[i] = this.#lexical(i, words);
      score[i] = total === 0 ? 0 : (w.transition * transition[i]! + w.alternation * alternation[i]! + w.recency * recency[i]! + w.lexical * lexical[i]!) / total;
    }
    return { score, transition, alternation, recency, lexical };
  }

  #intern(name: string): number {
    const known = this.#position.get(name);
    if (known !== undefined) return known;
    const i = this.#tools.length;
    this.#tools.push(name);
    this.#position.set(name, i);
    this.#lastUsed.push(-1);
    this.#outWeight.push(0);
    this.#transitions.push(new Map());
    this.#nameWords.push(undefined);
    return i;
  }

  #lexical(i: number, words: ReadonlySet<string>): number {
    let own = this.#nameWords[i];
    if (own === undefined) {
      own = [...new Set(splitWords(this.#tools[i]!).map(stem))];
      this.#nameWords[i] = own;
    }
    if (own.length === 0) return 0;
    let hits = 0;
    for (let k = 0; k < own.length; k++) if (words.has(own[k]!)) hits++;
    return hits / own.length;
  }
}

/** A light plural fold so `issue` matches `issues` and `repository` matches `repositories`. */
function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return word.slice(0, -3) + 'y';
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}
