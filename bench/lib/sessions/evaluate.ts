/**
 * Evaluating policies over a data set: every session replayed under every policy and bound, priced, summed.
 */
import type { Session } from './data.js';
import type { BenchPolicy, PolicySpec } from './policies.js';
import { PRICE_MODEL, priceRequests, type ModelRequest, type PriceModel, type SessionPrice } from './price.js';
import type { ReaderUnit } from './unit.js';
import { conversationOnly, replaySession, type Bound, type ConversationModel, type CountTokens, type ReplayStats } from './replay.js';

export const BOUNDS: readonly Bound[] = ['max', 'first', 'hidden', 'min'];

/** Kinds of policy that serve no cold tool, so no call can fail validation and every bound is the same replay. */
const BOUND_FREE: ReadonlySet<PolicySpec['kind']> = new Set(['full', 'optimized', 'peer', 'search', 'composed']);

export interface EvaluateOptions {
  readonly conversation: ConversationModel;
  readonly count: CountTokens;
  readonly model?: PriceModel;
  readonly granularity?: 'tool' | 'list';
  /** The reader's unit for tool definitions (default: compact JSON counted by `count`). */
  readonly unit?: ReaderUnit;
}

/** Sums over every session of one policy under one bound. */
export interface BoundTotals {
  /** Tool-definition cost (policy price minus the conversation's own), with the cache and without. */
  cached: number;
  uncached: number;
  stats: ReplayStats;
}

export interface PolicyTotals {
  readonly spec: PolicySpec;
  readonly bounds: Record<Bound, BoundTotals>;
  /** Per session, `max` bound: cached cost over the full list's cached cost. */
  readonly perSession: number[];
}

export interface Evaluation {
  readonly sessions: number;
  readonly full: PolicyTotals;
  readonly policies: PolicyTotals[];
  /** The conversation's own price (no tools), summed. */
  readonly conversation: { cached: number; uncached: number };
}

function emptyStats(): ReplayStats {
  return { calls: 0, hotCalls: 0, coldCalls: 0, repeatColdCalls: 0, baseRequests: 0, extraRequests: 0, toolBytes: 0, toolTokens: 0, hotTools: 0, turnsChanged: 0, turnsAfterFirst: 0, revealTokens: 0, loadRequests: 0, loadTokens: 0, searches: 0, at1: 0, at3: 0, at5: 0 };
}

function addStats(into: ReplayStats, s: ReplayStats): void {
  for (const key of Object.keys(into) as (keyof ReplayStats)[]) into[key] += s[key];
}

/** Replays every session under `full` (the reference) and each of `policies`. */
export function evaluate(sessions: readonly Session[], full: BenchPolicy, policies: readonly BenchPolicy[], options: EvaluateOptions): Evaluation {
  const model = options.model ?? PRICE_MODEL;
  const all = [full, ...policies.filter((p) => p !== full)];
  const totals = all.map((p) => ({
    spec: p.spec,
    bounds: Object.fromEntries(BOUNDS.map((b) => [b, { cached: 0, uncached: 0, stats: emptyStats() }])) as Record<Bound, BoundTotals>,
    perSession: [] as number[],
  }));
  const conversation = { cached: 0, uncached: 0 };
  for (const session of sessions) {
    const base = priceRequests(conversationOnly(session, { bound: 'min', conversation: options.conversation, count: options.count }), model);
    conversation.cached += base.cached;
    conversation.uncached += base.uncached;
    let fullCached = NaN;
    for (const [i, policy] of all.entries()) {
      // A policy that serves no cold tool (the full list, a peer that loads before each first call) replays the
      // same under every bound: replay it once.
      const boundFree = BOUND_FREE.has(policy.spec.kind);
      let once: { requests: ModelRequest[]; stats: ReplayStats; price: SessionPrice } | undefined;
      for (const bound of BOUNDS) {
        if (once === undefined || !boundFree) {
          const r = replaySession(session, policy, { bound, conversation: options.conversation, count: options.count, granularity: options.granularity ?? 'tool', unit: options.unit });
          once = { ...r, price: priceRequests(r.requests, model) };
        }
        const { stats } = once;
        const p = once.price;
        const t = totals[i]!.bounds[bound];
        const cached = p.cached - base.cached;
        t.cached += cached;
        t.uncached += p.uncached - base.uncached;
        addStats(t.stats, stats);
        if (bound === 'max') {
          if (i === 0) fullCached = cached;
          totals[i]!.perSession.push(cached / fullCached);
        }
      }
    }
  }
  return { sessions: sessions.length, full: totals[0]!, policies: totals.slice(1), conversation };
}

/** The numbers sessions.json reports for one policy. */
export interface PolicySummary {
  readonly name: string;
  readonly description: string;
  /** `toolslim` (this library's policies) or `peer` (a mechanism users have without it, and the full list). */
  readonly family: PolicySpec['family'];
  /** Where the mechanism runs: in the client (`client`) or in a proxy/server in front of the tools (`proxy`). */
  readonly side: PolicySpec['side'];
  /** The bench's own grouping: `full`, `optimized`, `rerank`, `stable` (hot sets), `search` (toolslim's hot set + search), `peer`. */
  readonly kind: PolicySpec['kind'];
  /** The data set (`bfcl`, `servers-5`, …; set by the bench). */
  scenario: string;
  readonly k: number | null;
  readonly chooser: string | null;
  readonly coldForm: string | null;
  readonly reveal: string | null;
  /** Tool-definition cost with the cache, over the full list's with the cache: every cold call retried once (pessimistic). */
  readonly costVsFullCached: number;
  /** The same, when only the first call of each cold tool in a session is retried. */
  readonly costVsFullCachedFirst: number;
  /** The same, when a cold call is retried only if its cold form hides a constraint of the real schema. */
  readonly costVsFullCachedHidden: number;
  /** The same, no call retried (optimistic). */
  readonly costVsFullCachedMin: number;
  /** Tool-definition cost with the cache (pessimistic), over the full list's without a cache. */
  readonly costVsFullUncached: number;
  readonly costVsFullUncachedHidden: number;
  readonly costVsFullUncachedMin: number;
  /** Cache off for both: the policy's cost without a cache over the full list's without a cache (pessimistic / optimistic). */
  readonly costNoCacheVsFullNoCache: number;
  readonly costNoCacheVsFullNoCacheHidden: number;
  readonly costNoCacheVsFullNoCacheMin: number;
  /** Extra model requests over the base requests (calls + one answer per turn): every cold call retried / first per tool / none. */
  readonly extraRequestsMax: number;
  readonly extraRequestsFirst: number;
  readonly extraRequestsHidden: number;
  readonly extraRequestsMin: number;
  /** Calls whose tool was served in full at that request. */
  readonly hitRate: number;
  readonly calls: number;
  readonly hotCalls: number;
  readonly coldCalls: number;
  readonly repeatColdCalls: number;
  /** Per base request: UTF-8 bytes of the served list's compact JSON, o200k tokens (each tool's compact JSON, summed), tools in full. */
  readonly bytesPerRequest: number;
  readonly tokensPerRequest: number;
  readonly hotToolsPerRequest: number;
  /** Share of turns (after each session's first) whose list differs from the previous turn's. */
  readonly turnsWithChangedList: number;
  /** Tokens the proxy's answers to invalid cold calls carry, per session (pessimistic bound). */
  readonly revealTokensPerSession: number;
  /** Per session, pessimistic: median and worst cost over the full list's, and the share of sessions above 1. */
  readonly sessionMedian: number;
  readonly sessionWorst: number;
  readonly sessionsAboveFull: number;
  /** Round trips before calls (searches, schema loads) per base request, and the tokens they add per session. */
  readonly loadRequests: number;
  readonly loadTokensPerSession: number;
  /** For a search-based mechanism: share of its searches (the user's text as the query, at a tool's first use) that rank the call's tool in the top 1 / 3 / 5; null where nothing is searched. */
  readonly recallAt1: number | null;
  readonly recallAt3: number | null;
  readonly recallAt5: number | null;
  recommended: boolean;
  /** The main figures again in every reader unit the run priced (`json`: compact JSON, as above; `typescript`, …). */
  units?: Record<string, UnitFigures>;
}

/** A policy's main figures in one reader unit. */
export interface UnitFigures {
  readonly tokensPerRequest: number;
  readonly costVsFullCached: number;
  readonly costVsFullCachedHidden: number;
  readonly costVsFullCachedMin: number;
  readonly extraRequestsMax: number;
  readonly extraRequestsHidden: number;
}

export function unitFigures(s: PolicySummary): UnitFigures {
  return { tokensPerRequest: s.tokensPerRequest, costVsFullCached: s.costVsFullCached, costVsFullCachedHidden: s.costVsFullCachedHidden, costVsFullCachedMin: s.costVsFullCachedMin, extraRequestsMax: s.extraRequestsMax, extraRequestsHidden: s.extraRequestsHidden };
}

export function summarize(evaluation: Evaluation, totals: PolicyTotals): PolicySummary {
  const full = evaluation.full.bounds.max;
  const { max, first, hidden, min } = totals.bounds;
  const s = min.stats;
  const sorted = [...totals.perSession].sort((a, b) => a - b);
  const spec = totals.spec;
  return {
    name: spec.name,
    description: spec.description,
    family: spec.family,
    side: spec.side,
    kind: spec.kind,
    scenario: '',
    k: spec.k ?? null,
    chooser: spec.kind === 'stable' && (spec.k ?? 0) > 0 ? spec.chooser ?? null : null,
    coldForm: spec.coldForm ?? null,
    reveal: spec.reveal ?? null,
    costVsFullCached: max.cached / full.cached,
    costVsFullCachedFirst: first.cached / full.cached,
    costVsFullCachedHidden: hidden.cached / full.cached,
    costVsFullCachedMin: min.cached / full.cached,
    costVsFullUncached: max.cached / full.uncached,
    costVsFullUncachedHidden: hidden.cached / full.uncached,
    costVsFullUncachedMin: min.cached / full.uncached,
    costNoCacheVsFullNoCache: max.uncached / full.uncached,
    costNoCacheVsFullNoCacheHidden: hidden.uncached / full.uncached,
    costNoCacheVsFullNoCacheMin: min.uncached / full.uncached,
    extraRequestsMax: max.stats.extraRequests / max.stats.baseRequests,
    extraRequestsFirst: first.stats.extraRequests / first.stats.baseRequests,
    extraRequestsHidden: hidden.stats.extraRequests / hidden.stats.baseRequests,
    extraRequestsMin: min.stats.extraRequests / min.stats.baseRequests,
    hitRate: s.calls === 0 ? 1 : s.hotCalls / s.calls,
    calls: s.calls,
    hotCalls: s.hotCalls,
    coldCalls: s.coldCalls,
    repeatColdCalls: s.repeatColdCalls,
    bytesPerRequest: s.toolBytes / s.baseRequests,
    tokensPerRequest: s.toolTokens / s.baseRequests,
    hotToolsPerRequest: s.hotTools / s.baseRequests,
    turnsWithChangedList: s.turnsAfterFirst === 0 ? 0 : s.turnsChanged / s.turnsAfterFirst,
    revealTokensPerSession: max.stats.revealTokens / evaluation.sessions,
    sessionMedian: sorted.length === 0 ? NaN : sorted.length % 2 ? sorted[sorted.length >> 1]! : (sorted[(sorted.length >> 1) - 1]! + sorted[sorted.length >> 1]!) / 2,
    sessionWorst: sorted.length === 0 ? NaN : sorted[sorted.length - 1]!,
    sessionsAboveFull: sorted.filter((r) => r > 1).length / Math.max(1, sorted.length),
    loadRequests: min.stats.loadRequests / min.stats.baseRequests,
    loadTokensPerSession: min.stats.loadTokens / evaluation.sessions,
    recallAt1: min.stats.searches === 0 ? null : min.stats.at1 / min.stats.searches,
    recallAt3: min.stats.searches === 0 ? null : min.stats.at3 / min.stats.searches,
    recallAt5: min.stats.searches === 0 ? null : min.stats.at5 / min.stats.searches,
    recommended: false,
  };
}
