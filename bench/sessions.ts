/**
 * What tool definitions cost over real multi-turn sessions, per tool-list policy, under a prompt-cache price
 * model (`npm run bench:sessions -- [folder] [--out PREFIX] [--no-write]`).
 *
 * Reads a session folder (default bench/sessions/: BFCL v4 multi-turn, see its README; any folder of the same
 * format), replays every session's turns and reference calls as model requests under each policy, prices
 * them, and writes bench/sessions.json and bench/sessions.md (for another folder: only with --out; the report
 * is printed either way). Deterministic: no clock, no randomness; the same folder gives the same files.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { McpTool } from '../src/index.js';
import { o200k } from '../src/tokens.js';
import { readSessionFolder, type SessionData } from './lib/sessions/data.js';
import { BOUNDS, evaluate, summarize, type PolicySummary } from './lib/sessions/evaluate.js';
import { policyByName } from './lib/sessions/names.js';
import { PolicyContext, type BenchPolicy } from './lib/sessions/policies.js';
import { PRICE_MODEL, type PriceModel } from './lib/sessions/price.js';
import { CONVERSATION_MODEL, type ConversationModel } from './lib/sessions/replay.js';
import { chainSessions, firstTurns, widenLists } from './lib/sessions/scenarios.js';
import { chooserLabel, COLD_FORM_LABEL, COLD_FORMS, type Chooser } from './lib/sessions/served.js';
import { formatInt, markdownTable } from './lib/stats.js';

/** The policy the docs recommend as the default of `toolslim proxy --hot-set` (see the md for why). */
const RECOMMENDED = 'hot-5/rate-0.35/signature/result';

/** Targets (not timed tests): the recommended default at most this cost over "full list, cached", every cold call retried. */
const TARGET_DEFAULT = 0.6;
/** …and what it takes to reach this cost with at most `TARGET_EXTRA` extra requests. */
const TARGET_STRETCH = 0.5;
const TARGET_EXTRA = 0.1;

const BENCH = import.meta.dirname;
const DEFAULT_FOLDER = join(BENCH, 'sessions');

const KS = [0, 3, 5, 8];
const CHOOSERS: Chooser[] = ['usage', 'rate-0.35', 'graph', 'prior', 'first'];

/** Every policy of the main table. */
function mainPolicies(): string[] {
  const names = ['optimized', 'rerank-5'];
  for (const k of KS) {
    for (const chooser of k === 0 ? ['usage'] : CHOOSERS) for (const form of COLD_FORMS) names.push(k === 0 ? `hot-0/${form}/result` : `hot-${k}/${chooser}/${form}/result`);
  }
  for (const k of KS) for (const form of ['no-preamble', 'signature']) names.push(k === 0 ? `hot-0/${form}/list-changed` : `hot-${k}/usage/${form}/list-changed`);
  return names;
}

/** The policies every scenario and sensitivity row shows. */
const SCENARIO_POLICIES = [
  'optimized',
  'rerank-5',
  'hot-5/usage/sentence/result',
  'hot-5/usage/no-preamble/result',
  'hot-5/rate-0.35/no-preamble/result',
  'hot-3/usage/signature/result',
  'hot-5/rate-0.35/signature/result',
  'hot-5/usage/names-types/result',
  'hot-0/signature/result',
  'hot-5/usage/signature/list-changed',
];

interface Run {
  readonly label: string;
  readonly note: string;
  readonly summaries: PolicySummary[];
  readonly sessions: number;
  readonly requestsPerSession: number;
  readonly fullTokensPerRequest: number;
  readonly callsPerSession: number;
}

function run(label: string, note: string, data: SessionData, recorded: SessionData, names: readonly string[], conversation: ConversationModel, model: PriceModel, granularity: 'tool' | 'list' = 'tool'): Run {
  const t0 = performance.now();
  try {
    return runOnce(label, note, data, recorded, names, conversation, model, granularity);
  } finally {
    if (process.env.BENCH_VERBOSE) process.stderr.write(`  ${label}: ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
  }
}

function runOnce(label: string, note: string, data: SessionData, recorded: SessionData, names: readonly string[], conversation: ConversationModel, model: PriceModel, granularity: 'tool' | 'list'): Run {
  const ctx = new PolicyContext(data, recorded);
  const full = policyByName(ctx, 'full');
  const unique = [...new Set([...names, RECOMMENDED])].filter((n) => n !== 'full');
  const policies: BenchPolicy[] = unique.map((n) => policyByName(ctx, n));
  const ev = evaluate(data.sessions, full, policies, { conversation, count: o200k.count, model, granularity });
  const summaries = [summarize(ev, ev.full), ...ev.policies.map((p) => summarize(ev, p))];
  for (const s of summaries) s.recommended = s.name === RECOMMENDED;
  const f = ev.full.bounds.min.stats;
  return { label, note, summaries, sessions: ev.sessions, requestsPerSession: f.baseRequests / ev.sessions, fullTokensPerRequest: f.toolTokens / f.baseRequests, callsPerSession: f.calls / ev.sessions };
}

/** Corpus servers (bench/corpus) as extra groups for the larger-list scenario, in file-name order. */
function corpusServers(): Map<string, McpTool[]> {
  const dir = join(BENCH, 'corpus');
  const out = new Map<string, McpTool[]>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
    const tools = (JSON.parse(readFileSync(join(dir, file), 'utf8')) as { toolsList: { tools: McpTool[] } }).toolsList.tools;
    out.set(`corpus:${file.replace(/\.json$/, '')}`, tools);
  }
  return out;
}

// ------------------------------------------------------------------------------------------------
// Formatting

const x2 = (r: number) => (Number.isFinite(r) ? `${r.toFixed(2)}×` : '–');
const pc = (r: number) => (Number.isFinite(r) ? `${(100 * r).toFixed(1)}%` : '–');
const byName = (r: Run, name: string) => r.summaries.find((s) => s.name === name)!;

function policyLabel(s: PolicySummary): string {
  return s.recommended ? `**${s.name}** (recommended)` : s.name;
}

function mainTable(r: Run, names: readonly string[]): string {
  const rows = names.map((n) => byName(r, n)).map((s) => [
    policyLabel(s),
    pc(s.hitRate),
    formatInt(s.coldCalls),
    `${pc(s.extraRequestsMax)} / ${pc(s.extraRequestsExact)} / ${pc(s.extraRequestsMin)}`,
    formatInt(s.bytesPerRequest),
    formatInt(s.tokensPerRequest),
    s.hotToolsPerRequest.toFixed(1),
    pc(s.turnsWithChangedList),
    `${x2(s.costVsFullCached)} / ${x2(s.costVsFullCachedExact)} / ${x2(s.costVsFullCachedMin)}`,
    `${x2(s.costVsFullUncached)} / ${x2(s.costVsFullUncachedMin)}`,
    `${x2(s.costNoCacheVsFullNoCache)} / ${x2(s.costNoCacheVsFullNoCacheMin)}`,
  ]);
  return markdownTable(
    ['policy', 'calls hot', 'cold calls', 'extra requests (all / hidden / none retried)', 'bytes / request', 'tokens / request', 'tools in full', 'turns with a changed list', 'cost vs full, cached (all / hidden / none)', 'vs full, no cache (all / none)', 'cache off: vs full, no cache (all / none)'],
    rows,
  );
}

function compactTable(runs: readonly Run[], names: readonly string[], pick: (s: PolicySummary) => string, head = 'policy'): string {
  const rows = names.map((n) => [policyLabel(byName(runs[0]!, n)), ...runs.map((r) => pick(byName(r, n)))]);
  return markdownTable([head, ...runs.map((r) => r.label)], rows);
}

function render(folder: string, data: SessionData, base: Run, sens: Run[], scen: Run[], names: readonly string[]): string {
  const rec = byName(base, RECOMMENDED);
  const out: string[] = [];
  const totalCalls = data.sessions.reduce((n, s) => n + s.turns.reduce((m, t) => m + t.calls.length, 0), 0);
  const turns = data.sessions.reduce((n, s) => n + s.turns.length, 0);
  const tools = data.sessions.reduce((n, s) => n + s.groups.reduce((m, g) => m + data.groups.get(g)!.length, 0), 0) / data.sessions.length;
  out.push('# Sessions: what tool definitions cost across a conversation, per tool-list policy', '');
  out.push('Generated by `npm run bench:sessions` ([bench/sessions.ts](sessions.ts), core in [bench/lib/sessions/](lib/sessions/)); the');
  out.push('numbers are also in [sessions.json](sessions.json). Deterministic: no timing, no randomness; the same folder gives the');
  out.push(`same files. Data: \`${folder}\` — ${data.sessions.length} sessions, ${turns} turns, ${formatInt(totalCalls)} reference calls, ${tools.toFixed(1)} tools per session`);
  out.push(`(${base.requestsPerSession.toFixed(1)} model requests per session; the full list is ${formatInt(base.fullTokensPerRequest)} o200k tokens per request). See [sessions/README.md](sessions/README.md).`, '');

  out.push('## Result', '');
  const passDefault = rec.costVsFullCached <= TARGET_DEFAULT;
  out.push(`**Recommended default for \`toolslim proxy --hot-set\`: \`${RECOMMENDED}\`** — ${rec.description}.`, '');
  out.push(`- Tool-definition cost vs the full list with the cache: **${x2(rec.costVsFullCached)}** if every cold call fails once (pessimistic),`);
  out.push(`  **${x2(rec.costVsFullCachedExact)}** if only calls whose cold form hides a constraint fail, **${x2(rec.costVsFullCachedMin)}** if none fails;`);
  out.push(`  vs the full list without a cache: ${x2(rec.costVsFullUncached)} (pessimistic). Extra model requests: ${pc(rec.extraRequestsMax)} / ${pc(rec.extraRequestsExact)} / ${pc(rec.extraRequestsMin)}.`);
  out.push(`  ${pc(rec.hitRate)} of calls hit a hot tool; ${rec.hotToolsPerRequest.toFixed(1)} tools in full per request; ${formatInt(rec.tokensPerRequest)} tokens per request (full: ${formatInt(base.fullTokensPerRequest)}).`);
  out.push(`- Target 1 (recommended default ≤ ${TARGET_DEFAULT}× with the pessimistic retry bound): **${passDefault ? 'met' : 'not met'}** (${x2(rec.costVsFullCached)}).`);
  const stretch = base.summaries.filter((s) => s.family === 'stable');
  const under = (cost: (s: PolicySummary) => number, extra: (s: PolicySummary) => number) =>
    stretch.filter((s) => cost(s) <= TARGET_STRETCH && extra(s) <= TARGET_EXTRA).sort((a, b) => cost(a) - cost(b));
  const pess = under((s) => s.costVsFullCached, (s) => s.extraRequestsMax);
  const exact = under((s) => s.costVsFullCachedExact, (s) => s.extraRequestsExact);
  out.push(`- Target 2 (≤ ${TARGET_STRETCH}× with ≤ ${pc(TARGET_EXTRA)} extra requests): with every cold call retried, ${pess.length === 0 ? '**no policy reaches it**' : `reached by ${pess.map((s) => `\`${s.name}\``).join(', ')}`};`);
  out.push(`  when only calls whose cold form hides a constraint are retried, ${exact.length === 0 ? 'no policy' : `${exact.length} policies, the cheapest \`${exact[0]!.name}\` (${x2(exact[0]!.costVsFullCachedExact)}, ${pc(exact[0]!.extraRequestsExact)} extra), the recommended one ${rec.costVsFullCachedExact <= TARGET_STRETCH && rec.extraRequestsExact <= TARGET_EXTRA ? 'included' : 'not included'}`}. See "What it takes" below.`);
  const rr = byName(base, 'rerank-5');
  out.push(`- Today's documented use (re-rank a hot set of 5 every turn) costs **${x2(rr.costVsFullCached)}** the full list (${x2(rr.costVsFullCachedMin)} if no cold call failed): the list changes on ${pc(rr.turnsWithChangedList)} of turns and each change re-writes the rest of the list and the whole conversation; ${pc(rr.hitRate)} of calls hit a hot tool.`);
  out.push('');

  out.push('## The model', '');
  out.push('### Requests', '');
  out.push('Each turn appends the user message; then one request per reference call (the model\'s output is the call; the call');
  out.push('and its result are appended), then one request for the final answer (appended too). Tools sit at the front of');
  out.push('every prompt, in list order, then the conversation. A call of a cold tool (one served in compressed form):');
  out.push('');
  out.push('- **all retried** (pessimistic bound, `…Max` in the JSON): it fails validation once. The failed call and the proxy\'s answer');
  out.push('  are appended and one extra request produces the real call. With reveal in the result the answer is an `isError` result');
  out.push('  naming the problem and carrying the tool\'s full input schema (compact JSON; its tokens are counted); with list-changed');
  out.push('  the answer is one line, the tool becomes hot, and the extra request already carries the new list.');
  out.push('- **hidden retried** (`…Exact`): a cold call fails only when the served cold schema hides a constraint of the real one');
  out.push('  (compared with annotations removed: an open schema hides every parameter; names and types hide enums, formats,');
  out.push('  array items, nested properties, bounds). The model is taken to follow whatever schema it is shown, as it does for hot');
  out.push('  tools. Validation cannot catch a schema-valid but wrong value (a unit, an enum a description only mentions): those are');
  out.push('  not retries but wrong calls, and they are not counted here.');
  out.push('- **none retried** (optimistic, `…Min`): no call fails; no extra request (list-changed still reveals the tool).');
  out.push('- The failed call is taken to be as long as the real one.', '');
  out.push('### Prices', '');
  out.push(`In units of one uncached input token: a token read from the cache costs **${PRICE_MODEL.read}**, a token written to it **${PRICE_MODEL.write}** (its`);
  out.push('first appearance); without a cache every token costs 1. The cache holds every prefix of every earlier prompt of the same');
  out.push('session, at the granularity of one tool definition or one message: a changed tool re-writes itself, every tool after it');
  out.push('and the whole conversation (providers cache prompt prefixes by exact bytes). Each session starts with an empty cache and');
  out.push('all its requests fall within the cache lifetime. Output tokens are not priced in the main tables (every policy writes');
  out.push('the same outputs, except failed calls, which the extra-request columns count); the sensitivity table prices them.', '');
  out.push('**Tool-definition cost** of a session = the price of its requests under the policy − the price of the same conversation');
  out.push('with no tools and no retries. So it includes the tool blocks, the conversation a changed list re-writes, the schemas');
  out.push('carried by reveal answers, and the re-reads of extra requests. Ratios are of sums over all sessions. "vs full, cached"');
  out.push('divides by the full list\'s cost with the cache; "vs full, no cache" by its cost without one (every request pays the');
  out.push('list at 1×); "cache off" prices both without a cache.', '');
  out.push('### Conversation growth', '');
  out.push(`The data has user messages and reference calls with arguments, but no results and no answers. Each user message and`);
  out.push(`call counts its o200k tokens (the call as \`{"name","arguments"}\` JSON); each **result is taken as ${CONVERSATION_MODEL.resultTokens} tokens** and each`);
  out.push(`**final answer as ${CONVERSATION_MODEL.answerTokens} tokens**. Why ${CONVERSATION_MODEL.resultTokens}: BFCL's backends (gorilla \`bfcl_eval/eval_checker/multi_turn_eval/func_source_code/*.py\`)`);
  out.push('return small dicts — `{"current_working_directory": "temp"}`, `{"matching_lines": [...]}`, a short file\'s content,');
  out.push('a ticket or a vehicle status — 10 to 100 tokens. Real MCP servers often return far more; the sensitivity table shows');
  out.push('0, 200, 1,000 and 4,000 tokens. Longer results make the conversation dominate: a list that changes re-writes more,');
  out.push('an extra request re-reads more.', '');
  out.push('### Where the hot set comes from', '');
  out.push('Each server of a session sits behind its own proxy (as `toolslim proxy` is deployed), so k hot tools means k *per');
  out.push('server* and a shared preamble is one server\'s. The hot set is chosen once, at session start, from a usage file');
  out.push('built **without this session** (for a chained session: without any of its parts):', '');
  for (const c of CHOOSERS) out.push(`- \`${c}\`: ${chooserLabel(c)}.`);
  out.push('');
  out.push('`usage` and `rate-0.35` count calls per tool in the other sessions that list the server (the proxy keeps the file');
  out.push('across sessions; one proxy start is one session). `graph` is what `ToolUsageGraph` offers today with no text at');
  out.push('session start (the proxy sees no user text): recency and transitions of the last recorded calls, which says what the');
  out.push('*previous* session did last, not what sessions usually need. `first` is the choice without any usage file.', '');
  out.push('Today\'s per-turn policy (`rerank-5`) is the library as docs/usage-graph.md shows it: the client ranks its whole list');
  out.push('before every turn with a fresh `ToolUsageGraph` fed the session\'s calls and the user\'s text, and compresses the rest');
  out.push('with compress-cold-tools; its cold calls are answered as with reveal in the result (the kindest reveal for it).', '');
  out.push('### Cold forms', '');
  for (const f of COLD_FORMS) out.push(`- \`${f}\`: ${COLD_FORM_LABEL[f]}.`);
  out.push('');
  out.push('Every policy except `full` starts from the `safe` preset\'s output (what the proxy serves before a hot set). The shared');
  out.push('preamble is the longest prefix all of a server\'s descriptions share, cut back to the end of a word (at least 16');
  out.push('characters); BFCL\'s servers all have one ("This tool belongs to the Gorilla file system. It is a simple file system');
  out.push('that … Tool description: "), so today\'s first-sentence form says only which server a tool belongs to.', '');

  out.push('## All policies', '');
  out.push('Three numbers "a / b / c" are the three retry bounds: all cold calls retried / only hidden-constraint ones / none.', '');
  out.push(mainTable(base, ['full', ...names]), '');
  out.push('Per session (pessimistic): the recommended policy\'s cost ratio has median ' + `${x2(rec.sessionMedian)}, worst ${x2(rec.sessionWorst)}; ${pc(rec.sessionsAboveFull)} of sessions cost more than the full list.`, '');

  out.push('## Sensitivity', '');
  out.push('Cost vs the full list with the cache, pessimistic bound (every cold call retried) / hidden-constraint bound, under other');
  out.push('assumptions. "output 5×": the failed call\'s tokens priced as output at 5× an input token. "list granularity": the');
  out.push('provider caches the tool list as one block, so any change re-writes all of it. "read 0.5×, no write premium": an automatic');
  out.push('prefix cache that bills writes at 1× and reads at 0.5×.', '');
  out.push(compactTable(sens, SCENARIO_POLICIES, (s) => `${x2(s.costVsFullCached)} / ${x2(s.costVsFullCachedExact)}`, 'policy (pessimistic / hidden)'), '');

  out.push('## When a hot set pays, and when it does not', '');
  out.push('The same policies on derived data sets. Larger lists: every session\'s list widened with servers it never calls (first');
  out.push('BFCL\'s other groups, then bench/corpus servers in file order, skipping any that would repeat a tool name); their usage');
  out.push('files are empty, so `usage` and `rate` choosers make none of their tools hot, and `first`/`graph` would. Longer sessions:');
  out.push('sessions with the same servers chained in file order. Short sessions: only each session\'s first turn.', '');
  out.push(markdownTable(['data set', 'sessions', 'requests / session', 'full list tokens / request', 'calls / session'], scen.map((r) => [r.label, formatInt(r.sessions), r.requestsPerSession.toFixed(1), formatInt(r.fullTokensPerRequest), r.callsPerSession.toFixed(1)])), '');
  out.push('Cost vs the full list, cached — pessimistic / hidden-constraint bound:', '');
  out.push(compactTable(scen, SCENARIO_POLICIES, (s) => `${x2(s.costVsFullCached)} / ${x2(s.costVsFullCachedExact)}`), '');
  out.push('Cache off (both priced without a cache) — pessimistic / hidden-constraint bound:', '');
  out.push(compactTable(scen, SCENARIO_POLICIES, (s) => `${x2(s.costNoCacheVsFullNoCache)} / ${x2(s.costNoCacheVsFullNoCacheExact)}`), '');
  out.push('Extra requests — pessimistic / hidden-constraint bound:', '');
  out.push(compactTable(scen, SCENARIO_POLICIES, (s) => `${pc(s.extraRequestsMax)} / ${pc(s.extraRequestsExact)}`), '');
  return out.join('\n');
}

// ------------------------------------------------------------------------------------------------

function main(): void {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { out: { type: 'string' }, 'no-write': { type: 'boolean' } } });
  if (positionals.length > 1) throw new Error('usage: npm run bench:sessions -- [folder] [--out PREFIX] [--no-write]');
  const folder = resolve(positionals[0] ?? DEFAULT_FOLDER);
  const isDefault = folder === resolve(DEFAULT_FOLDER);
  const prefix = values.out ?? (isDefault ? join(BENCH, 'sessions') : undefined);
  const t0 = performance.now();
  const data = readSessionFolder(folder);
  const names = mainPolicies();
  const base = run('BFCL as is', '', data, data, names, CONVERSATION_MODEL, PRICE_MODEL);

  const sens: Run[] = [base];
  for (const r of [0, 200, 1000, 4000]) sens.push(run(`results ${formatInt(r)} tokens`, '', data, data, SCENARIO_POLICIES, { ...CONVERSATION_MODEL, resultTokens: r }, PRICE_MODEL));
  sens.push(run('output 5×', '', data, data, SCENARIO_POLICIES, CONVERSATION_MODEL, { ...PRICE_MODEL, output: 5 }));
  sens.push(run('list granularity', '', data, data, SCENARIO_POLICIES, CONVERSATION_MODEL, PRICE_MODEL, 'list'));
  sens.push(run('read 0.5×, no write premium', '', data, data, SCENARIO_POLICIES, CONVERSATION_MODEL, { ...PRICE_MODEL, write: 1, read: 0.5 }));
  (sens[0] as { label: string }).label = `results ${CONVERSATION_MODEL.resultTokens} (main)`;

  const corpus = corpusServers();
  const scen: Run[] = [base];
  scen.push(run('first turn only', '', firstTurns(data, 1), data, SCENARIO_POLICIES, CONVERSATION_MODEL, PRICE_MODEL));
  for (const n of [3, 10]) {
    const chained = chainSessions(data, n);
    if (chained.sessions.length > 0) scen.push(run(`${n} sessions chained`, '', chained, data, SCENARIO_POLICIES, CONVERSATION_MODEL, PRICE_MODEL));
  }
  for (const target of [100, 300, 1000]) scen.push(run(`lists ≥ ${target} tools`, '', widenLists(data, corpus, target), data, SCENARIO_POLICIES, CONVERSATION_MODEL, PRICE_MODEL));
  (scen[0] as { label: string }).label = 'as is';

  const md = render(isDefault ? 'bench/sessions' : folder, data, base, sens, scen, names);
  const json = {
    generatedBy: 'npm run bench:sessions (bench/sessions.ts)',
    folder: isDefault ? 'bench/sessions' : folder,
    sessions: data.sessions.length,
    requestsPerSession: base.requestsPerSession,
    fullTokensPerRequest: base.fullTokensPerRequest,
    priceModel: { ...PRICE_MODEL, outputInSensitivity: 5, granularity: 'tool', cachePerSession: true },
    conversationModel: CONVERSATION_MODEL,
    bounds: { Max: 'every cold call fails validation once', Exact: 'only cold calls whose cold form hides a constraint of the real schema fail', Min: 'no cold call fails', First: 'only the first call of each cold tool in a session fails' },
    targets: { recommendedDefaultMax: TARGET_DEFAULT, stretch: TARGET_STRETCH, stretchExtraRequests: TARGET_EXTRA, recommendedMeetsDefault: byName(base, RECOMMENDED).costVsFullCached <= TARGET_DEFAULT },
    recommended: RECOMMENDED,
    policies: base.summaries,
    sensitivity: sens.slice(1).map((r) => ({ label: r.label, policies: r.summaries })),
    scenarios: scen.slice(1).map((r) => ({ label: r.label, sessions: r.sessions, requestsPerSession: r.requestsPerSession, fullTokensPerRequest: r.fullTokensPerRequest, policies: r.summaries })),
  };
  void BOUNDS;
  if (prefix !== undefined && !values['no-write']) {
    writeFileSync(`${prefix}.md`, md + '\n');
    writeFileSync(`${prefix}.json`, JSON.stringify(json, (_k, v) => (typeof v === 'number' && !Number.isInteger(v) ? Number(v.toFixed(4)) : v), 2) + '\n');
  }
  process.stdout.write(md + '\n');
  process.stderr.write(`bench:sessions: ${data.sessions.length} sessions, ${names.length + 1} policies, ${sens.length + scen.length - 2} more runs in ${((performance.now() - t0) / 1000).toFixed(1)} s${prefix !== undefined && !values['no-write'] ? `; wrote ${prefix}.md and ${prefix}.json` : ''}\n`);
}

main();
