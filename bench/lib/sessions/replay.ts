/**
 * Replaying a session's turns and reference calls under a tool-list policy, as an explicit sequence of model
 * requests, and pricing it (see price.ts).
 *
 * Requests of one turn: the user message is appended; then one request per reference call (its output is
 * the call; the call and its result are appended), then one request for the final answer (appended too).
 * A call of a cold tool:
 * - `max` bound: it fails validation once. The failed call and the proxy's answer are appended and one
 *   extra request produces the real call. With reveal in the result the answer carries the tool's schema;
 *   with list-changed the tool becomes hot and the extra request already sees the new list.
 * - `first` bound: only the first call of each cold tool in the session fails (afterwards its schema is in
 *   the conversation, or in the list).
 * - `hidden` bound: a cold call fails only when its served cold schema hides a constraint of the real one
 *   (the model is taken to follow the schema it sees; an open schema hides every constraint there is).
 * - `min` bound: no call fails; no extra request (list-changed still reveals the tool).
 * Tokens of the failed call are taken to be those of the real call (a guess of the same shape).
 */
import type { McpTool } from '../../../src/index.js';
import { jsonOf, jsonUnit, type ReaderUnit } from './unit.js';
import { priceRequests, type Block, type ModelRequest, type PriceModel, type SessionPrice } from './price.js';
import type { Session, SessionCall } from './data.js';

export type Bound = 'max' | 'first' | 'hidden' | 'min';

/** Token counts the data does not give. */
export interface ConversationModel {
  /** Tokens of each call's result (the data has calls and arguments, no results). */
  readonly resultTokens: number;
  /** Tokens of the model's final answer of each turn. */
  readonly answerTokens: number;
}

export const CONVERSATION_MODEL: ConversationModel = Object.freeze({ resultTokens: 50, answerTokens: 50 });

/** Counts tokens of a text (o200k_base in the bench; anything in tests). */
export type CountTokens = (text: string) => number;

/** The tools a request carries, as the policy serves them. */
export interface ServedTools {
  /** The served list, in order (the concatenation of every server's list). */
  readonly tools: readonly McpTool[];
  /** Names served in full. */
  readonly hot: ReadonlySet<string>;
  /** Plain-text blocks the prompt carries after the tools (a deferring client's list of tool names), in order. */
  readonly texts?: readonly string[];
}

/**
 * A round trip a mechanism makes before a call (a tool search, a schema load): one extra request whose output
 * is `output` (the search or load call, as JSON) and whose result is appended to the conversation after it.
 * A string result is counted as text (a tool result); `{ tools }` is loaded definitions, which the client
 * renders as it renders its tool list (counted in the reader's unit).
 */
export interface RoundTrip {
  readonly output: string;
  readonly result: string | { readonly tools: readonly McpTool[] };
  /** For a search: the 1-based rank of the call's tool in its result ranking (Infinity: not ranked at all). */
  readonly rank?: number;
}

/** A policy's state over one session. */
export interface PolicyRun {
  /** Called before each turn's first request. */
  beforeTurn(turn: number, text: string): void;
  /** The list the next request carries. */
  served(): ServedTools;
  /** The proxy's answer to an invalid call of the cold tool `name` (reveal in the result, or list-changed's short error). */
  invalidAnswer(name: string): string;
  /** Whether the served cold form of `name` hides a constraint of its real input schema. */
  coldHides(name: string): boolean;
  /** A call of a cold tool went through the proxy (list-changed: the tool becomes hot). */
  coldCalled(name: string): void;
  /** A call was executed (the per-turn ranking records it). */
  executed(call: SessionCall): void;
  /** Round trips before `call` (a peer's search or load; none for toolslim's own policies). */
  roundTrips?(call: SessionCall, turnText: string): readonly RoundTrip[];
  /** The call as the model writes it, when the mechanism wraps it (a meta-tool's `invoke_tool`). */
  callText?(call: SessionCall): string;
}

export interface Policy {
  readonly name: string;
  start(session: Session): PolicyRun;
}

/** What one replay counted. */
export interface ReplayStats {
  calls: number;
  hotCalls: number;
  coldCalls: number;
  /** Cold calls of a tool already called cold earlier in the session. */
  repeatColdCalls: number;
  /** Requests the policy-free conversation needs (calls + one answer per turn). */
  baseRequests: number;
  extraRequests: number;
  /** Over the base requests: served bytes (UTF-8 of compact JSON), tokens (sum over tools), hot tools. */
  toolBytes: number;
  toolTokens: number;
  hotTools: number;
  /** Turns after the first whose first request carries a list other than the previous turn's. */
  turnsChanged: number;
  turnsAfterFirst: number;
  /** Tokens the proxy's answers to invalid calls added to the conversation. */
  revealTokens: number;
  /** Round trips (searches, loads) before calls, and the tokens their calls and results added to the conversation. */
  loadRequests: number;
  loadTokens: number;
  /** Searches run for a call's first use, and how many ranked the call's tool within the top 1, 3, 5. */
  searches: number;
  at1: number;
  at3: number;
  at5: number;
}

export interface Replay {
  readonly requests: ModelRequest[];
  readonly stats: ReplayStats;
}

export interface ReplayOptions {
  readonly bound: Bound;
  readonly conversation: ConversationModel;
  readonly count: CountTokens;
  /** `tool` (default): one cache block per tool; `list`: the whole list is one block (a change anywhere re-writes all of it). */
  readonly granularity?: 'tool' | 'list';
  /** What a tool definition is to the reader (default: compact JSON counted by `count`). */
  readonly unit?: ReaderUnit;
}

/** Memoized token counts of texts (tool JSON repeats across requests and sessions). */
export class TokenMemo {
  readonly #memo = new Map<string, number>();
  constructor(readonly count: CountTokens) {}
  tokens(text: string): number {
    let n = this.#memo.get(text);
    if (n === undefined) this.#memo.set(text, (n = this.count(text)));
    return n;
  }
}

const memos = new WeakMap<CountTokens, TokenMemo>();
function memoFor(count: CountTokens): TokenMemo {
  let m = memos.get(count);
  if (m === undefined) memos.set(count, (m = new TokenMemo(count)));
  return m;
}

interface ToolBlocks {
  readonly blocks: Block[];
  readonly bytes: number;
  readonly tokens: number;
  readonly key: string;
  readonly hotTools: number;
}

// Policies hand out the same ServedTools object for the same list, so its blocks are computed once
// (per unit and granularity).
const blockMemos = new WeakMap<ReaderUnit, { tool: WeakMap<ServedTools, ToolBlocks>; list: WeakMap<ServedTools, ToolBlocks> }>();
const renderMemos = new WeakMap<ReaderUnit, WeakMap<McpTool, string>>();

let nextListId = 0;

/** Replays `session` under `policy`. */
export function replaySession(session: Session, policy: Policy, options: ReplayOptions): Replay {
  const unit = options.unit ?? jsonUnit(options.count);
  const memo = memoFor(unit.count);
  let rendered = renderMemos.get(unit);
  if (rendered === undefined) renderMemos.set(unit, (rendered = new WeakMap()));
  const renderMemo = rendered;
  const textOf = (tool: McpTool): string => {
    let t = renderMemo.get(tool);
    if (t === undefined) renderMemo.set(tool, (t = unit.render(tool)));
    return t;
  };
  const run = policy.start(session);
  const conversation: Block[] = [];
  const requests: ModelRequest[] = [];
  const stats: ReplayStats = {
    calls: 0,
    hotCalls: 0,
    coldCalls: 0,
    repeatColdCalls: 0,
    baseRequests: 0,
    extraRequests: 0,
    toolBytes: 0,
    toolTokens: 0,
    hotTools: 0,
    turnsChanged: 0,
    turnsAfterFirst: 0,
    revealTokens: 0,
    loadRequests: 0,
    loadTokens: 0,
    searches: 0,
    at1: 0,
    at3: 0,
    at5: 0,
  };
  const calledCold = new Set<string>();
  let previousTurnList: string | undefined;

  const toolBlocks = (served: ServedTools): ToolBlocks => {
    let memos = blockMemos.get(unit);
    if (memos === undefined) blockMemos.set(unit, (memos = { tool: new WeakMap(), list: new WeakMap() }));
    const memoKey = options.granularity === 'list' ? memos.list : memos.tool;
    const known = memoKey.get(served);
    if (known !== undefined) return known;
    const plain = served.texts ?? [];
    const texts = [...served.tools.map(textOf), ...plain];
    const tokens = texts.map((t) => memo.tokens(t));
    const total = tokens.reduce((a, b) => a + b, 0);
    // Bytes stay those of the wire: the served tools' compact JSON (and any plain-text block).
    const json = served.tools.map(jsonOf);
    const bytes = json.reduce((a, t) => a + Buffer.byteLength(t), 0) + Math.max(0, json.length - 1) + 2 + plain.reduce((a, t) => a + Buffer.byteLength(t), 0);
    // Policies hand out one ServedTools object per distinct list, so the object stands for its bytes.
    const key = `#${nextListId++}`;
    const blocks = options.granularity === 'list' ? [{ key: 'L' + key, tokens: total }] : texts.map((t, i) => ({ key: 'T' + t, tokens: tokens[i]! }));
    const hotTools = served.tools.filter((t) => served.hot.has(t.name)).length;
    const result = { blocks, bytes, tokens: total, key, hotTools };
    memoKey.set(served, result);
    return result;
  };
  const request = (base: boolean, wastedOutput: number): string => {
    const served = run.served();
    const tb = toolBlocks(served);
    requests.push({ tools: tb.blocks, conversation: conversation.slice(), wastedOutput });
    if (base) {
      stats.baseRequests++;
      stats.toolBytes += tb.bytes;
      stats.toolTokens += tb.tokens;
      stats.hotTools += tb.hotTools;
    } else stats.extraRequests++;
    return tb.key;
  };

  for (const [ti, turn] of session.turns.entries()) {
    run.beforeTurn(ti, turn.text);
    conversation.push({ key: `u${ti}`, tokens: memo.tokens(turn.text) });
    let firstOfTurn = true;
    const noteTurnList = (key: string) => {
      if (!firstOfTurn) return;
      firstOfTurn = false;
      if (previousTurnList !== undefined) {
        stats.turnsAfterFirst++;
        if (key !== previousTurnList) stats.turnsChanged++;
      }
      previousTurnList = key;
    };
    for (const [ci, call] of turn.calls.entries()) {
      stats.calls++;
      for (const [ri, trip] of (run.roundTrips?.(call, turn.text) ?? []).entries()) {
        const out = memo.tokens(trip.output);
        const result = typeof trip.result === 'string' ? memo.tokens(trip.result) : trip.result.tools.reduce((n, t) => n + memo.tokens(textOf(t)), 0);
        if (trip.rank !== undefined) {
          stats.searches++;
          if (trip.rank <= 1) stats.at1++;
          if (trip.rank <= 3) stats.at3++;
          if (trip.rank <= 5) stats.at5++;
        }
        noteTurnList(request(false, out));
        stats.loadRequests++;
        stats.loadTokens += out + result;
        conversation.push({ key: `s${ti}.${ci}.${ri}`, tokens: out }, { key: `l${ti}.${ci}.${ri}`, tokens: result });
      }
      const callTokens = memo.tokens(run.callText?.(call) ?? JSON.stringify({ name: call.name, arguments: call.arguments }));
      const hot = run.served().hot.has(call.name);
      if (hot) {
        stats.hotCalls++;
        noteTurnList(request(true, 0));
      } else {
        stats.coldCalls++;
        const repeat = calledCold.has(call.name);
        if (repeat) stats.repeatColdCalls++;
        calledCold.add(call.name);
        const fails = options.bound === 'max' || (options.bound === 'first' && !repeat) || (options.bound === 'hidden' && run.coldHides(call.name));
        if (fails) {
          noteTurnList(request(true, callTokens));
          const answer = memo.tokens(run.invalidAnswer(call.name));
          stats.revealTokens += answer;
          conversation.push({ key: `x${ti}.${ci}`, tokens: callTokens }, { key: `e${ti}.${ci}`, tokens: answer });
          run.coldCalled(call.name);
          request(false, 0);
        } else {
          noteTurnList(request(true, 0));
          run.coldCalled(call.name);
        }
      }
      conversation.push({ key: `c${ti}.${ci}`, tokens: callTokens }, { key: `r${ti}.${ci}`, tokens: options.conversation.resultTokens });
      run.executed(call);
    }
    noteTurnList(request(true, 0));
    conversation.push({ key: `a${ti}`, tokens: options.conversation.answerTokens });
  }
  return { requests, stats };
}

/** The same requests without tools and without anything a policy added: what the conversation alone costs. */
export function conversationOnly(session: Session, options: ReplayOptions): ModelRequest[] {
  const none: Policy = {
    name: 'none',
    start: () => ({ beforeTurn() {}, served: () => ({ tools: [], hot: ALL }), invalidAnswer: () => '', coldHides: () => false, coldCalled() {}, executed() {} }),
  };
  return replaySession(session, none, { ...options, bound: 'min' }).requests;
}

/** A set that holds every name. */
const ALL: ReadonlySet<string> = { has: () => true } as unknown as ReadonlySet<string>;
export { ALL as ALL_NAMES };

/** What the tool definitions cost in a session: the policy's price minus the conversation's own. */
export interface ToolCost {
  readonly cached: number;
  readonly uncached: number;
}

export function toolCost(requests: readonly ModelRequest[], base: SessionPrice, model?: PriceModel): ToolCost {
  const p = priceRequests(requests, model);
  return { cached: p.cached - base.cached, uncached: p.uncached - base.uncached };
}
