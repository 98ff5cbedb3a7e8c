/**
 * The "against what users have now" section of bench/sessions.md (issue 30): per scenario, toolslim's
 * policies beside the peers, the targets checked from the numbers, and where a client-side mechanism is
 * still cheaper.
 */
import { formatInt, markdownTable } from '../stats.js';
import type { PolicySummary } from './evaluate.js';
import { SEARCH_RESULTS } from './peers.js';

/** Distractor servers added per scenario (`servers-<n>`). */
export const COMPARE_SCENARIOS = [5, 10, 20] as const;

export interface ComparedRun {
  readonly label: string;
  readonly scenario: string;
  readonly toolsPerSession: number;
  readonly fullTokensByUnit: Readonly<Record<string, number>>;
  readonly summaries: readonly PolicySummary[];
}

const x2 = (r: number) => (Number.isFinite(r) ? `${r.toFixed(2)}×` : '–');
const x3 = (r: number) => (Number.isFinite(r) ? `${r.toFixed(3)}×` : '–');
const pc = (r: number) => (Number.isFinite(r) ? `${(100 * r).toFixed(1)}%` : '–');
const pc0 = (r: number | null) => (r === null ? '–' : `${(100 * r).toFixed(0)}%`);

/** Large lists: the target "≤ 0.1× of full-cached" applies from this many tools on. */
export const LARGE = 300;
export const LARGE_TARGET = 0.1;

export const PEER_MODEL: readonly [string, string, string][] = [
  [
    'defer-search',
    "Anthropic tool search, BM25 variant (`defer_loading: true` on every tool): the deferred tools are absent from the prompt; a search tool sits in the prefix. Before the first call of a tool not yet loaded, the model searches with the user's text as the query; the search returns 5 tools and their definitions are appended to the conversation (after it, so the cached prefix survives), rendered as the client renders its list. A miss (the tool not in the 5) costs a second search with the words of the tool's name, taken to find it.",
    "The model's own query (it writes keywords, not the user's text; our query is the user's text, so recall is measured, not assumed, but for that query); the server tool's real prompt text (a stand-in definition of ~60 tokens); a wrong call after a miss (counted as a second search instead); loading 3 rather than 5.",
  ],
  ['defer-search-regex', "Anthropic's regex variant: as `defer-search`, the pattern an alternation of the user's content words (≥ 3 letters, stop words out), tools ranked by how many words match.", 'A model writes better patterns than the alternation of its words.'],
  [
    'defer-names',
    "Claude Code's MCP tool search: every tool's name up front (one text block after the tools) and a ToolSearch tool; before a tool's first call, a `select:<name>` load appends its definition.",
    "Server instructions (always paid alike by every policy here: BFCL's servers have none); the model's choice among names (taken as right); loading several tools in one select.",
  ],
  [
    'defer-description',
    "OpenAI `tool_search`: every tool's name and description up front (a function with an open parameter object), the tool_search tool; a round trip before a tool's first call loads its parameters (the full definition) at the end of the context.",
    'How the hosted tool renders; batching several loads in one round trip.',
  ],
  [
    'meta-tools',
    "atlassian's mcp-compressor, one per server: `<server>_get_tool_schema` (its description lists the server's tool names) and `<server>_invoke_tool`. Before a tool's first call, a schema call returns its name, description and schema as JSON text; every call goes through invoke_tool (the wrapper's tokens counted).",
    'Its compression levels that keep short descriptions (we list names only: its most compact level); picking the wrong server or name.',
  ],
  [
    'search-proxy',
    `FastMCP's BM25 search transform in front of all the session's servers: \`search_tools\` + \`call_tool\`, no names up front. Before the first call of a tool not yet found, a search with the user's text returns ${SEARCH_RESULTS} definitions as JSON (list_tools form); a miss costs a second search; every call goes through call_tool.`,
    "Its default result count (5 taken); per-server deployments (one search over everything here, the kindest); the model's own query.",
  ],
  [
    'hot-5/rate-0.35/search',
    "toolslim, proxy side, served by `toolslim proxy --search` (one proxy per server; its search returns only matches that score above 0): each server's recommended hot set in full (the preamble once) and, beside it, `<server>__search` + `<server>__call`; the server's other tools are out of the list. A cold tool's first call is preceded by a search of that server's cold tools (BM25, the user's text, 5 results as JSON); calls of found tools go through `__call`, which the proxy checks against the real schema as it checks cold calls.",
    'That the model picks the right server\'s search tool (as meta-tools assume the right server).',
  ],
  ['hot-5/rate-0.35/names', 'As `hot-5/rate-0.35/search`, the search tool\'s description listing the cold tools\' names and a load by name returning that one definition (no miss).', 'As above.'],
];

function row(s: PolicySummary, units: readonly string[]): string[] {
  const cells = [
    s.recommended ? `**${s.name}** (picked)` : `\`${s.name}\``,
    s.family,
    s.side,
    formatInt(s.tokensPerRequest),
    `${x3(s.costVsFullCached)} / ${x3(s.costVsFullCachedHidden)}`,
    `${pc(s.extraRequestsMax)} / ${pc(s.extraRequestsHidden)}`,
    s.recallAt1 === null ? '–' : `${pc0(s.recallAt1)} / ${pc0(s.recallAt3)} / ${pc0(s.recallAt5)}`,
  ];
  for (const u of units) {
    const f = s.units?.[u];
    cells.push(f === undefined ? '–' : `${formatInt(f.tokensPerRequest)}: ${x3(f.costVsFullCached)} / ${x3(f.costVsFullCachedHidden)}`);
  }
  return cells;
}

/** The section, from the compared runs (bfcl, servers-n, long results) and the policy names it compares. */
export function peersSection(runs: readonly ComparedRun[], names: readonly string[], recommended: string, units: readonly string[]): string[] {
  const out: string[] = [];
  const other = units.filter((u) => u !== 'json');
  out.push('## Against what users have now: deferral, tool search, meta-tools', '');
  out.push('The same replay, price model and retry bounds, with the mechanisms users have without toolslim as policies (issue 30).');
  out.push('Every one of them loads a tool\'s definition before its first call, so none of their calls fails validation: both bounds');
  out.push('are the same for them, and their extra requests are their round trips (searches and loads: one request each, whose');
  out.push('call and result stay in the conversation). Peers start from the servers\' lists as they are (no preset). "picked" marks');
  out.push(`the policy \`toolslim proxy\` serves today (\`${recommended}\`, the same at every list size).`, '');
  out.push('| policy | what it models | what it leaves out |', '|:--|:--|:--|');
  for (const [n, what, left] of PEER_MODEL) out.push(`| \`${n}\` | ${what} | ${left} |`);
  out.push('');
  out.push('Recall is measured, not assumed: for every search a mechanism runs (the user\'s text of the turn as the query, at a');
  out.push('tool\'s first use), the share that ranks the reference call\'s tool first, in the top 3, in the top 5. Beside it,');
  out.push('toolslim\'s own "hidden constraint" measure: the second figure of each pair (only calls whose cold form hides a constraint');
  out.push('retried).', '');

  out.push(...whatItSays(runs, recommended), '');
  for (const r of runs) {
    const fullUnits = Object.entries(r.fullTokensByUnit).map(([u, n]) => `${formatInt(n)} ${u}`).join(', ');
    out.push(`### ${r.scenario}: ${r.label}`, '');
    out.push(`${formatInt(r.toolsPerSession)} tools per session; the full list is ${fullUnits} tokens per request.`, '');
    const head = ['policy', 'family', 'side', 'tokens / request', 'cost vs full, cached (all / hidden retried)', 'extra requests (all / hidden)', 'recall @1 / @3 / @5', ...other.map((u) => `${u}: tokens / request: cost (all / hidden)`)];
    const rows = names.map((n) => r.summaries.find((s) => s.name === n)).filter((s): s is PolicySummary => s !== undefined).map((s) => row(s, other));
    out.push(markdownTable(head, rows), '');
    out.push(...verdicts(r, recommended), '');
  }
  return out;
}

/** The issue 30 targets, checked on one run. */
export function verdicts(r: ComparedRun, recommended: string): string[] {
  const rec = r.summaries.find((s) => s.name === recommended)!;
  const out: string[] = [];
  const proxyPeers = r.summaries.filter((s) => s.family === 'peer' && s.side === 'proxy');
  const beatsOnBoth = proxyPeers.filter((p) => p.costVsFullCached < rec.costVsFullCached && p.extraRequestsMax < rec.extraRequestsMax);
  const cheaper = proxyPeers.filter((p) => p.costVsFullCached < rec.costVsFullCached);
  out.push(
    `- Proxy-side peers against \`${recommended}\` (all retried: ${x3(rec.costVsFullCached)}, ${pc(rec.extraRequestsMax)} extra): ` +
      (beatsOnBoth.length === 0 ? `**no peer beats it on both**` : `**beaten on both** by ${beatsOnBoth.map((p) => `\`${p.name}\``).join(', ')}`) +
      (cheaper.length > 0 ? `; cheaper but with more requests: ${cheaper.filter((p) => !beatsOnBoth.includes(p)).map((p) => `\`${p.name}\` (${x3(p.costVsFullCached)}, ${pc(p.extraRequestsMax)})`).join(', ') || 'none'}.` : '; none is cheaper.'),
  );
  if (r.toolsPerSession >= LARGE) {
    out.push(`- ≤ ${LARGE_TARGET}× of full-cached at ${formatInt(r.toolsPerSession)} tools: \`${recommended}\` ${rec.costVsFullCached <= LARGE_TARGET ? '**met**' : '**not met**'} (${x3(rec.costVsFullCached)}).`);
  }
  for (const u of Object.keys(rec.units ?? {}).filter((u) => u !== 'json')) {
    const cost = (s: PolicySummary) => s.units?.[u]?.costVsFullCached ?? NaN;
    const both = proxyPeers.filter((p) => cost(p) < cost(rec) && p.extraRequestsMax < rec.extraRequestsMax);
    out.push(`- In the \`${u}\` unit: \`${recommended}\` ${x3(cost(rec))}; ${both.length === 0 ? 'no proxy-side peer beats it on both' : `beaten on both by ${both.map((p) => `\`${p.name}\` (${x3(cost(p))})`).join(', ')}`}${proxyPeers.length > 0 ? ` (${proxyPeers.map((p) => `\`${p.name}\` ${x3(cost(p))}`).join(', ')})` : ''}.`);
  }
  const ours = r.summaries.filter((s) => s.kind === 'search');
  for (const o of ours) {
    const both = proxyPeers.filter((p) => p.costVsFullCached < o.costVsFullCached && p.extraRequestsMax < o.extraRequestsMax);
    out.push(`- \`${o.name}\` (${o.name.endsWith('/search') ? 'served by --search' : 'not served'}): ${x3(o.costVsFullCached)}, ${pc(o.extraRequestsMax)} extra; ${both.length === 0 ? 'no proxy-side peer beats it on both' : `beaten on both by ${both.map((p) => `\`${p.name}\``).join(', ')}`}${o.costVsFullCached < rec.costVsFullCached && o.extraRequestsMax <= rec.extraRequestsMax ? `; it beats \`${recommended}\` on both` : ''}.`);
  }
  const best = [rec, ...ours].sort((a, b) => a.costVsFullCached - b.costVsFullCached)[0]!;
  const client = r.summaries.filter((s) => s.family === 'peer' && s.side === 'client' && s.kind === 'peer' && s.costVsFullCached < best.costVsFullCached);
  out.push(
    client.length === 0
      ? `- No client-side mechanism is cheaper than toolslim's cheapest here (\`${best.name}\`, ${x3(best.costVsFullCached)}).`
      : `- Client-side mechanisms cheaper than toolslim's cheapest here (\`${best.name}\`, ${x3(best.costVsFullCached)}): ${client.map((c) => `\`${c.name}\` ${x3(c.costVsFullCached)} (${(100 * (1 - c.costVsFullCached / best.costVsFullCached)).toFixed(0)}% less, ${pc(c.extraRequestsMax)} extra requests)`).join(', ')}.`,
  );
  return out;
}

/** The conclusions, computed from the runs. */
function whatItSays(runs: readonly ComparedRun[], recommended: string): string[] {
  const get = (r: ComparedRun | undefined, n: string) => r?.summaries.find((s) => s.name === n);
  const c = (s: PolicySummary | undefined) => (s === undefined ? '–' : x3(s.costVsFullCached));
  const e = (s: PolicySummary | undefined) => (s === undefined ? '–' : pc(s.extraRequestsMax));
  const bfcl = runs.find((r) => r.scenario === 'bfcl');
  const large = runs.filter((r) => r.toolsPerSession >= LARGE);
  const long = runs.find((r) => r.scenario === 'long-results');
  const out = ['### What it says', ''];
  const beaten = runs.filter((r) => {
    const rec = get(r, recommended)!;
    return r.summaries.some((p) => p.family === 'peer' && p.side === 'proxy' && p.costVsFullCached < rec.costVsFullCached && p.extraRequestsMax < rec.extraRequestsMax);
  });
  const cheaperPeers = runs.map((r) => {
    const rec = get(r, recommended)!;
    const list = r.summaries.filter((p) => p.family === 'peer' && p.side === 'proxy' && p.costVsFullCached < rec.costVsFullCached);
    return list.length === 0 ? `${r.scenario}: none` : `${r.scenario}: ${list.map((p) => `\`${p.name}\` ${x3(p.costVsFullCached)} (+${pc(p.extraRequestsMax)})`).join(', ')}`;
  });
  out.push(`- **${beaten.length === 0 ? 'No' : 'A'} proxy-side peer beats what \`toolslim proxy\` serves today on both cost and extra requests** in ${beaten.length === 0 ? 'any' : beaten.length} of ${runs.length} scenarios${beaten.length > 0 ? ` (${beaten.map((r) => r.scenario).join(', ')})` : ''}. Cheaper ones need more requests (every first use of a tool is a round trip; the hot set's extra requests are ${e(get(bfcl, recommended))} with every cold call retried, ${pc(get(bfcl, recommended)?.extraRequestsHidden ?? NaN)} with only hidden-constraint calls): ${cheaperPeers.join('; ')}.`);
  out.push(`- **Stubs for every tool do not scale**: at ${large.map((r) => formatInt(r.toolsPerSession)).join(' and ')} tools the hot set's cold list costs ${large.map((r) => c(get(r, recommended))).join(' and ')} of the full list: the ≤ ${LARGE_TARGET}× target is **not met** by today's policy.`);
  const hs = (r: ComparedRun | undefined) => get(r, 'hot-5/rate-0.35/search');
  const meets = large.length > 0 && large.every((r) => (hs(r)?.costVsFullCached ?? Infinity) <= LARGE_TARGET);
  const fewer = runs.every((r) => {
    const h = hs(r);
    return h !== undefined && h.extraRequestsMax < get(r, recommended)!.extraRequestsMax && r.summaries.every((p) => p.kind !== 'peer' || p.extraRequestsMax > h.extraRequestsMax);
  });
  out.push(`  **toolslim's hot set beside a per-server search tool** (\`hot-5/rate-0.35/search\`) ${meets ? 'meets it' : 'does not meet it either'} (${large.map((r) => c(hs(r))).join(', ')})${fewer ? `, with fewer extra requests than the hot set (${e(hs(bfcl))} against ${e(get(bfcl, recommended))}, all retried) and than every peer in every scenario` : ''}: its searches run within one server's cold tools, where BM25 finds the tool in the top 5 ${pc0(hs(bfcl)?.recallAt5 ?? null)} of the time, against ${pc0(get(bfcl, 'search-proxy')?.recallAt5 ?? null)} over a whole list. It is served by \`toolslim proxy --search\` (chosen by default from 100 tools; the \`names\` variant is not served). On BFCL as it is, \`hot-5/rate-0.35/names\` (names in the search tool's description) costs ${c(get(bfcl, 'hot-5/rate-0.35/names'))} with ${e(get(bfcl, 'hot-5/rate-0.35/names'))} extra requests, against the hot set's ${c(get(bfcl, recommended))} with every cold call retried and ${x3(get(bfcl, recommended)?.costVsFullCachedHidden ?? NaN)} when only hidden-constraint calls are.`);
  const client = runs.map((r) => {
    const ours = r.summaries.filter((s) => s.family === 'toolslim' && s.kind !== 'full').sort((a, b) => a.costVsFullCached - b.costVsFullCached)[0]!;
    const best = r.summaries.filter((s) => s.family === 'peer' && s.side === 'client' && s.kind === 'peer').sort((a, b) => a.costVsFullCached - b.costVsFullCached)[0]!;
    return `${r.scenario}: \`${best.name}\` ${x3(best.costVsFullCached)} against toolslim's cheapest \`${ours.name}\` ${x3(ours.costVsFullCached)}${best.costVsFullCached < ours.costVsFullCached ? ` (**${(100 * (1 - best.costVsFullCached / ours.costVsFullCached)).toFixed(0)}% cheaper**, ${pc(best.extraRequestsMax)} extra requests against ${pc(ours.extraRequestsMax)})` : ' (not cheaper)'}`;
  });
  out.push(`- **Where a client-side mechanism is still cheaper**: ${client.join('; ')}. Claude Code's names-only deferral pays a few tokens per tool and one load per tool used; in the bench its model is optimistic (it never picks a wrong name).`);
  out.push(`- **Search recall**: BM25 over name and description with the user's text finds the called tool first ${pc0(get(bfcl, 'defer-search')?.recallAt1 ?? null)} and in the top 5 ${pc0(get(bfcl, 'defer-search')?.recallAt5 ?? null)} of the time on BFCL's ${formatInt(bfcl?.toolsPerSession ?? NaN)} tools, ${pc0(get(large[large.length - 1], 'defer-search')?.recallAt5 ?? null)} in the top 5 at ${formatInt(large[large.length - 1]?.toolsPerSession ?? NaN)} tools; the regex stand-in does worse (${pc0(get(bfcl, 'defer-search-regex')?.recallAt5 ?? null)}). A miss is a second search whose definitions stay in the conversation.`);
  if (long !== undefined) out.push(`- **Long results** (4,000 tokens each): every mechanism with round trips costs more than the full list (meta-tools ${c(get(long, 'meta-tools'))}, Claude Code's ${c(get(long, 'defer-names'))}): each round trip re-reads the conversation. The hot set with every cold call retried is at ${c(get(long, recommended))}, at ${x3(get(long, recommended)?.costVsFullCachedHidden ?? NaN)} when only hidden-constraint calls are retried.`);
  return out;
}
