/**
 * The "against what users have now" section of bench/sessions.md (issue 30): per scenario, toolslim's
 * policies beside the peers, the targets checked from the numbers, and where a client-side mechanism is
 * still cheaper.
 */
import { formatInt, markdownTable } from '../stats.js';
import type { PolicySummary } from './evaluate.js';
import { NAMES_MIN_BYTES as NAMES_MIN_BYTES_DEFAULT } from '../../../src/session/tool-search.js';
import { PROXY_DEFAULT, PROXY_SEARCH, SEARCH_RESULTS, UNDER_CLAUDE_CODE } from './peers.js';

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
    PROXY_DEFAULT,
    "What `toolslim proxy` serves with neither `--hot-set`, `--search` nor `--full` (one proxy per server): for each server, what `chooseServing` (src/session/tool-search.ts, the function the proxy calls, with its thresholds `SEARCH_MIN_TOOLS` and `NAMES_MIN_BYTES`) picks for that server's list after the `safe` preset: from 100 tools `hot-5/rate-0.35/search`; below that, from 3,000 bytes of compact JSON, `hot-5/rate-0.35/names`; a smaller list every tool (as `optimized`). A proxy sees only its own server, so the choice is per server, not by the session's total. `proxy/names-from-<bytes>` and `proxy/names-never` are the same choice at other names thresholds (the sweep below).",
    'As the policies it is made of.',
  ],
  [
    PROXY_SEARCH,
    "What `toolslim proxy --search` serves (one proxy per server): for each server, `hot-5/rate-0.35/names` below 100 tools and `hot-5/rate-0.35/search` from 100 on (`searchMode`).",
    'As the two below.',
  ],
  [
    UNDER_CLAUDE_CODE,
    "`toolslim proxy --profile claude-code` under Claude Code: `chooseServing` for a deferring profile serves every tool in full through the profile's plan (`presetForProfile('safe', 'claude-code')`; no hot set, no search tool of its own, no text moved into instructions); Claude Code then defers it exactly as `defer-names` defers the servers' own lists (names up front, a `select:` load per first use), the load returning the optimized definition.",
    'As `defer-names`.',
  ],
  [
    'hot-5/rate-0.35/search',
    "toolslim, proxy side, what `toolslim proxy --search` serves from 100 tools, and its default there (one proxy per server; its search returns only matches that score above 0): each server's recommended hot set in full (the preamble once) and, beside it, `<server>_search_tools` + `<server>_call_tool` (named after the server, as the proxy names them); the server's other tools are out of the list. A cold tool's first call is preceded by a search of that server's cold tools (BM25, the user's text, 5 results as JSON); calls of found tools go through `_call_tool`, which the proxy checks against the real schema as it checks cold calls.",
    'That the model picks the right server\'s search tool (as meta-tools assume the right server).',
  ],
  ['hot-5/rate-0.35/names', 'As `hot-5/rate-0.35/search`, the search tool\'s description listing the cold tools\' names and a load by name returning that one definition (no miss): what `toolslim proxy --search` serves below 100 tools (the proxy\'s search answers a listed name with that tool alone).', 'The model\'s choice among the names (taken as right, as for `defer-names` and `meta-tools`).'],
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
export function peersSection(runs: readonly ComparedRun[], names: readonly string[], hotSetDefault: string, units: readonly string[]): string[] {
  const recommended = PROXY_DEFAULT;
  const out: string[] = [];
  const other = units.filter((u) => u !== 'json');
  out.push('## Against what users have now: deferral, tool search, meta-tools', '');
  out.push('The same replay, price model and retry bounds, with the mechanisms users have without toolslim as policies (issue 30).');
  out.push('Every one of them loads a tool\'s definition before its first call, so none of their calls fails validation: both bounds');
  out.push('are the same for them, and their extra requests are their round trips (searches and loads: one request each, whose');
  out.push('call and result stay in the conversation). Peers start from the servers\' lists as they are (no preset). "picked" marks');
  out.push(`what \`toolslim proxy\` serves by default there (\`${recommended}\`, \`recommended: true\` in sessions.json); \`${hotSetDefault}\` is what it serves with \`--hot-set\`.`, '');
  out.push('| policy | what it models | what it leaves out |', '|:--|:--|:--|');
  for (const [n, what, left] of PEER_MODEL) out.push(`| \`${n}\` | ${what} | ${left} |`);
  out.push('');
  out.push('Recall is measured, not assumed: for every search a mechanism runs (the user\'s text of the turn as the query, at a');
  out.push('tool\'s first use), the share that ranks the reference call\'s tool first, in the top 3, in the top 5. Beside it,');
  out.push('toolslim\'s own "hidden constraint" measure: the second figure of each pair (only calls whose cold form hides a constraint');
  out.push('retried).', '');
  out.push('Scenarios: `bfcl` as is; `servers-<n>`: n servers of bench/corpus connected to every session and never called;');
  out.push('`held-out-<n>`: the same with servers of bench/validation, never used to tune anything here (the names threshold');
  out.push('included); `long-results`: BFCL with results of 4,000 tokens.', '');

  out.push(...whatItSays(runs, recommended, hotSetDefault), '');
  for (const r of runs) {
    const fullUnits = Object.entries(r.fullTokensByUnit).map(([u, n]) => `${formatInt(n)} ${u}`).join(', ');
    out.push(`### ${r.scenario}: ${r.label}`, '');
    out.push(`${formatInt(r.toolsPerSession)} tools per session; the full list is ${fullUnits} tokens per request.`, '');
    const head = ['policy', 'family', 'side', 'tokens / request', 'cost vs full, cached (all / hidden retried)', 'extra requests (all / hidden)', 'recall @1 / @3 / @5', ...other.map((u) => `${u}: tokens / request: cost (all / hidden)`)];
    const rows = names.map((n) => r.summaries.find((s) => s.name === n)).filter((s): s is PolicySummary => s !== undefined).map((s) => row(s, other));
    out.push(markdownTable(head, rows), '');
    out.push(...verdicts(r, recommended, hotSetDefault), '');
  }
  return out;
}

/** The default at other names thresholds (`proxy/names-from-<bytes>`, `proxy/names-never`), per scenario. */
function sweepTable(runs: readonly ComparedRun[]): string[] {
  const names = [...new Set(runs.flatMap((r) => r.summaries.map((s) => s.name)).filter((n) => n.startsWith('proxy/names-')))];
  if (names.length === 0) return [];
  const bytesOf = (n: string) => (n === 'proxy/names-never' ? Infinity : Number(n.slice('proxy/names-from-'.length)));
  const rows: [number, string][] = [...names.map((n): [number, string] => [bytesOf(n), n]), [NAMES_MIN_BYTES_DEFAULT, PROXY_DEFAULT] as [number, string]].sort((a, b) => a[0] - b[0]);
  const cell = (r: ComparedRun, n: string) => {
    const s = r.summaries.find((x) => x.name === n);
    const best = bestProxyPeer(r);
    return s === undefined ? '–' : `${x3(s.costVsFullCached)}, +${pc(s.extraRequestsMax)}${best !== undefined && meetsAgainst(s, best) ? '' : ' ✗'}`;
  };
  const body = rows.map(([b, n]) => [n === PROXY_DEFAULT ? `**${formatInt(b)} (the default)**` : Number.isFinite(b) ? formatInt(b) : 'never (below 100 tools every tool)', ...runs.map((r) => cell(r, n))]);
  const meetsAll = rows.filter(([, n]) => runs.every((r) => {
    const s = r.summaries.find((x) => x.name === n);
    const best = bestProxyPeer(r);
    return s !== undefined && best !== undefined && meetsAgainst(s, best) && (r.toolsPerSession < LARGE || s.costVsFullCached <= LARGE_TARGET);
  })).map(([b]) => (Number.isFinite(b) ? formatInt(b) : 'never'));
  return [
    `- **The names threshold** (\`NAMES_MIN_BYTES\`): the default at other thresholds, every cold call retried (✗: target 1 not met there, against the cheapest proxy-side peer). Thresholds that meet both targets in every scenario: ${meetsAll.length === 0 ? 'none' : `${meetsAll.join(', ')} bytes`}.`,
    '',
    markdownTable(['names from (bytes)', ...runs.map((r) => r.scenario)], body),
    '',
  ];
}

/** Whether `a` is at least as cheap as `b` and needs fewer extra requests (target 1 of issue 30, all retried). */
export function meetsAgainst(a: PolicySummary, b: PolicySummary): boolean {
  return a.costVsFullCached <= b.costVsFullCached && a.extraRequestsMax < b.extraRequestsMax;
}

/** The cheapest proxy-side peer of a run (json unit, all retried). */
export function bestProxyPeer(r: ComparedRun): PolicySummary | undefined {
  return r.summaries.filter((s) => s.family === 'peer' && s.side === 'proxy').sort((a, b) => a.costVsFullCached - b.costVsFullCached)[0];
}

/** The issue 30 targets, checked on one run. */
export function verdicts(r: ComparedRun, recommended: string, hotSetDefault: string): string[] {
  const rec = r.summaries.find((s) => s.name === recommended)!;
  const out: string[] = [];
  const proxyPeers = r.summaries.filter((s) => s.family === 'peer' && s.side === 'proxy');
  const beatsOnBoth = proxyPeers.filter((p) => p.costVsFullCached < rec.costVsFullCached && p.extraRequestsMax < rec.extraRequestsMax);
  const best = bestProxyPeer(r);
  if (best !== undefined) {
    out.push(
      `- Target 1, \`${recommended}\` (picked; all retried: ${x3(rec.costVsFullCached)}, ${pc(rec.extraRequestsMax)} extra) against the cheapest proxy-side peer, \`${best.name}\` (${x3(best.costVsFullCached)}, ${pc(best.extraRequestsMax)}): ` +
        `${meetsAgainst(rec, best) ? '**met**' : '**not met**'} (${rec.costVsFullCached <= best.costVsFullCached ? 'as cheap or cheaper' : 'dearer'}, ${rec.extraRequestsMax < best.extraRequestsMax ? 'fewer' : 'not fewer'} extra requests); ` +
        (beatsOnBoth.length === 0 ? 'no proxy-side peer beats it on both.' : `**beaten on both** by ${beatsOnBoth.map((p) => `\`${p.name}\``).join(', ')}.`),
    );
  }
  if (r.toolsPerSession >= LARGE) {
    out.push(`- Target 2, ≤ ${LARGE_TARGET}× of full-cached at ${formatInt(r.toolsPerSession)} tools: \`${recommended}\` ${rec.costVsFullCached <= LARGE_TARGET ? '**met**' : '**not met**'} (${x3(rec.costVsFullCached)}).`);
  }
  for (const u of Object.keys(rec.units ?? {}).filter((u) => u !== 'json')) {
    const cost = (s: PolicySummary) => s.units?.[u]?.costVsFullCached ?? NaN;
    const both = proxyPeers.filter((p) => cost(p) < cost(rec) && p.extraRequestsMax < rec.extraRequestsMax);
    out.push(`- In the \`${u}\` unit: \`${recommended}\` ${x3(cost(rec))}; ${both.length === 0 ? 'no proxy-side peer beats it on both' : `beaten on both by ${both.map((p) => `\`${p.name}\` (${x3(cost(p))})`).join(', ')}`}${proxyPeers.length > 0 ? ` (${proxyPeers.map((p) => `\`${p.name}\` ${x3(cost(p))}`).join(', ')})` : ''}.`);
  }
  const ours = r.summaries.filter((s) => (s.kind === 'search' || s.name === hotSetDefault) && s.name !== recommended);
  for (const o of ours) {
    const both = proxyPeers.filter((p) => p.costVsFullCached < o.costVsFullCached && p.extraRequestsMax < o.extraRequestsMax);
    const how = o.name === hotSetDefault ? 'served by --hot-set' : o.name === PROXY_SEARCH ? 'served by --search' : o.name.endsWith('/search') ? '--search from 100 tools' : '--search below 100 tools';
    out.push(`- \`${o.name}\` (${how}): ${x3(o.costVsFullCached)}, ${pc(o.extraRequestsMax)} extra; ${both.length === 0 ? 'no proxy-side peer beats it on both' : `beaten on both by ${both.map((p) => `\`${p.name}\``).join(', ')}`}${o.costVsFullCached < rec.costVsFullCached && o.extraRequestsMax <= rec.extraRequestsMax ? `; it beats \`${recommended}\` on both` : ''}.`);
  }
  const under = r.summaries.find((s) => s.name === UNDER_CLAUDE_CODE);
  const alone = r.summaries.find((s) => s.name === 'defer-names');
  if (under !== undefined && alone !== undefined) {
    const unitsOf = Object.keys(under.units ?? { json: 0 });
    const cmp = unitsOf.map((u) => {
      const a = u === 'json' ? under.costVsFullCached : under.units?.[u]?.costVsFullCached ?? NaN;
      const b = u === 'json' ? alone.costVsFullCached : alone.units?.[u]?.costVsFullCached ?? NaN;
      return `${u} ${x3(a)} against ${x3(b)}${a <= b ? '' : ' (**dearer**)'}`;
    });
    out.push(`- Under Claude Code (item 5): \`${UNDER_CLAUDE_CODE}\` against \`defer-names\` (Claude Code alone): ${cmp.join(', ')}; extra requests ${pc(under.extraRequestsMax)} against ${pc(alone.extraRequestsMax)}.`);
  }
  const toolslimBest = [rec, ...ours].sort((a, b) => a.costVsFullCached - b.costVsFullCached)[0]!;
  const client = r.summaries.filter((s) => s.family === 'peer' && s.side === 'client' && s.kind === 'peer' && s.costVsFullCached < rec.costVsFullCached);
  out.push(
    client.length === 0
      ? `- No client-side mechanism is cheaper than \`${recommended}\` here (${x3(rec.costVsFullCached)}).`
      : `- Client-side mechanisms cheaper than \`${recommended}\` here (${x3(rec.costVsFullCached)}): ${client.map((c) => `\`${c.name}\` ${x3(c.costVsFullCached)} (${(100 * (1 - c.costVsFullCached / rec.costVsFullCached)).toFixed(0)}% less, ${pc(c.extraRequestsMax)} extra requests against ${pc(rec.extraRequestsMax)})`).join(', ')}${toolslimBest !== rec ? `; toolslim's cheapest here is \`${toolslimBest.name}\` (${x3(toolslimBest.costVsFullCached)})` : ''}.`,
  );
  return out;
}

/** The conclusions, computed from the runs. */
function whatItSays(runs: readonly ComparedRun[], recommended: string, hotSetDefault: string): string[] {
  const get = (r: ComparedRun | undefined, n: string) => r?.summaries.find((s) => s.name === n);
  const c = (s: PolicySummary | undefined) => (s === undefined ? '–' : x3(s.costVsFullCached));
  const e = (s: PolicySummary | undefined) => (s === undefined ? '–' : pc(s.extraRequestsMax));
  const bfcl = runs.find((r) => r.scenario === 'bfcl');
  const large = runs.filter((r) => r.toolsPerSession >= LARGE);
  const long = runs.find((r) => r.scenario === 'long-results');
  const out = ['### What it says', ''];
  const t1 = runs.map((r) => {
    const rec = get(r, recommended)!;
    const best = bestProxyPeer(r)!;
    return `${r.scenario} ${meetsAgainst(rec, best) ? '**met**' : '**not met**'} (${c(rec)}, +${e(rec)} against \`${best.name}\` ${c(best)}, +${e(best)})`;
  });
  out.push(`- **Target 1** (what \`toolslim proxy\` picks, \`${recommended}\`, at least as cheap as the cheapest proxy-side peer and with fewer extra requests, every cold call retried): ${t1.join('; ')}.`);
  out.push(`- **Target 2** (≤ ${LARGE_TARGET}× of full-cached from ${LARGE} tools): ${large.map((r) => `${r.scenario} ${(get(r, recommended)?.costVsFullCached ?? Infinity) <= LARGE_TARGET ? '**met**' : '**not met**'} (${c(get(r, recommended))})`).join('; ')}. The hot set beside cold stubs of every tool (\`${hotSetDefault}\`, \`--hot-set\`) does not scale: ${large.map((r) => c(get(r, hotSetDefault))).join(' and ')}.`);
  const hs = (r: ComparedRun | undefined) => get(r, 'hot-5/rate-0.35/search');
  const ps = (r: ComparedRun | undefined) => get(r, PROXY_SEARCH);
  out.push(`- **How the default chooses.** A proxy sees one server, so \`chooseServing\` decides for that server's list: a keyword search from 100 tools; below that, the hot set beside a search tool that names the other tools once the list is 3,000 bytes of compact JSON or more (about 750 tokens: big enough to pay for a load round trip); a smaller list in full. Deciding by the list's bytes, not the session's tool count (which no proxy sees), is what reaches the targets on a session of many small servers: each server big enough to pay is served small, whichever other servers are connected. The price is a load round trip for every first use of a tool outside the hot set: ${runs.map((r) => `${r.scenario} +${e(get(r, recommended))}`).join(', ')} model requests, against +${e(bestProxyPeer(bfcl!))} and more for the proxy-side peers. \`--full\` serves every tool in full at any size (no round trip; \`optimized\`: ${runs.map((r) => `${r.scenario} ${c(get(r, 'optimized'))}`).join(', ')}), for a user who weighs latency above tokens.`);
  out.push(...sweepTable(runs));
  out.push(`- **Names or keywords below 100 tools**: on BFCL's servers, a search tool that lists the cold tools' names costs ${c(get(bfcl, 'hot-5/rate-0.35/names'))} (+${e(get(bfcl, 'hot-5/rate-0.35/names'))}) against ${c(hs(bfcl))} (+${e(hs(bfcl))}) for a keyword search, whose recall within one server's cold tools is ${pc0(hs(bfcl)?.recallAt5 ?? null)} in the top 5 (a miss is a second search), and against ${c(get(bfcl, hotSetDefault))} (+${e(get(bfcl, hotSetDefault))}) for stubs of every tool (\`--hot-set\`). From 100 tools the names alone cost hundreds of tokens on every request; the corpus servers of 117–235 tools are never called here, so the bench cannot price a keyword miss on a large server that is used.`);
  const client = runs.map((r) => {
    const rec = get(r, recommended)!;
    const best = r.summaries.filter((s) => s.family === 'peer' && s.side === 'client' && s.kind === 'peer').sort((a, b) => a.costVsFullCached - b.costVsFullCached)[0]!;
    return `${r.scenario}: \`${best.name}\` ${x3(best.costVsFullCached)} against ${c(rec)}${best.costVsFullCached < rec.costVsFullCached ? ` (**${(100 * (1 - best.costVsFullCached / rec.costVsFullCached)).toFixed(0)}% cheaper**, ${pc(best.extraRequestsMax)} extra requests against ${pc(rec.extraRequestsMax)})` : ' (not cheaper)'}`;
  });
  out.push(`- **Where a client-side mechanism is still cheaper** than what the proxy picks: ${client.join('; ')}. Claude Code's names-only deferral pays a few tokens per tool and one load per tool used; in the bench its model is optimistic (it never picks a wrong name).`);
  const comp = runs.map((r) => `${r.scenario} ${c(get(r, UNDER_CLAUDE_CODE))} against ${c(get(r, 'defer-names'))}`);
  out.push(`- **Under a deferring client** (item 5): \`toolslim proxy --profile claude-code\` serves every tool in full, optimized for that client, and Claude Code defers it: ${comp.join('; ')} (\`${UNDER_CLAUDE_CODE}\` against Claude Code alone), the same extra requests.`);
  out.push(`- **Search recall**: BM25 over name and description with the user's text finds the called tool first ${pc0(get(bfcl, 'defer-search')?.recallAt1 ?? null)} and in the top 5 ${pc0(get(bfcl, 'defer-search')?.recallAt5 ?? null)} of the time on BFCL's ${formatInt(bfcl?.toolsPerSession ?? NaN)} tools, ${pc0(get(large[large.length - 1], 'defer-search')?.recallAt5 ?? null)} in the top 5 at ${formatInt(large[large.length - 1]?.toolsPerSession ?? NaN)} tools; the regex stand-in does worse (${pc0(get(bfcl, 'defer-search-regex')?.recallAt5 ?? null)}). A miss is a second search whose definitions stay in the conversation.`);
  if (long !== undefined) {
    const dearer = ['meta-tools', 'defer-names', 'search-proxy', recommended].map((n) => get(long, n)).filter((p): p is PolicySummary => p !== undefined && p.costVsFullCached > 1);
    out.push(`- **Long results** (4,000 tokens each): each round trip re-reads the conversation, so round trips weigh more: what the proxy picks ${c(get(long, recommended))} (+${e(get(long, recommended))}), \`--full\` ${c(get(long, 'optimized'))}; ${dearer.length === 0 ? 'no mechanism here costs more than the full list' : `dearer than the full list: ${dearer.map((p) => `${p.name === recommended ? 'what the proxy picks' : p.name} ${c(p)}`).join(', ')}`}. The hot set with every cold call retried is at ${c(get(long, hotSetDefault))}, at ${x3(get(long, hotSetDefault)?.costVsFullCachedHidden ?? NaN)} when only hidden-constraint calls are retried.`);
  }
  return out;
}
