/**
 * What users have without toolslim, as policies of the same replay and price model (issue 30): client-side
 * deferral and tool search, proxy-side meta-tools and search, each modelled from its published mechanism.
 * And toolslim's own proxy-side answer for large lists: the hot set served in full beside a search tool.
 *
 * Every mechanism here loads a tool's definition before its first call, so no call fails validation: the
 * retry bounds change nothing for them, and their extra requests are the round trips (searches, loads). What
 * each models and leaves out is in bench/sessions.md ("Peers"); the stand-in definitions below (search tools,
 * meta-tools) are written here from the published descriptions, not copied.
 */
import type { McpTool } from '../../../src/index.js';
import { Bm25, regexRank, terms } from '../../../src/session/bm25.js';
import { chooseServing, searchMode, searchText, searchToolNames, searchTools, serverToolPrefix, type SearchToolNames } from '../../../src/session/tool-search.js';
import { presetForProfile, transformTools } from '../../../src/index.js';
import type { Session, SessionCall } from './data.js';
import { PolicyContext, type BenchPolicy, type PolicySpec } from './policies.js';
import { ALL_NAMES, type PolicyRun, type RoundTrip, type ServedTools } from './replay.js';

/** Tools a search returns (Anthropic: 3–5 references; FastMCP: a small page of definitions): 5 here. */
export const SEARCH_RESULTS = 5;

export const PEERS = ['defer-search', 'defer-search-regex', 'defer-names', 'defer-description', 'meta-tools', 'search-proxy'] as const;
export type PeerName = (typeof PEERS)[number];

/** toolslim's own search-based policies (proxy side): the recommended hot set in full, cold tools behind a search tool. */
export const HOT_SEARCH = ['hot-5/rate-0.35/search', 'hot-5/rate-0.35/names'] as const;
export type HotSearchName = (typeof HOT_SEARCH)[number];

/**
 * What `toolslim proxy` serves with neither --hot-set nor --search: per server (one proxy each), what
 * `chooseServing` (src/session/tool-search.ts, the function the proxy calls) picks for that server's list —
 * `search` or `full`. The `recommended` policy of every scenario.
 */
export const PROXY_DEFAULT = 'proxy/default';
/** What `toolslim proxy --search` serves: per server, the names listed or not as `searchMode` says. */
export const PROXY_SEARCH = 'proxy/--search';
/**
 * toolslim proxy --profile claude-code under Claude Code: what `chooseServing` picks for that deferring
 * client (every tool in full, through the profile's plan), and the client's own deferral on top (names up
 * front, a `select:` load per tool's first use) — to compare with `defer-names`, Claude Code alone.
 */
export const UNDER_CLAUDE_CODE = 'proxy/claude-code';
export const PROXY_POLICIES = [PROXY_DEFAULT, PROXY_SEARCH, UNDER_CLAUDE_CODE] as const;
export type ProxyPolicyName = (typeof PROXY_POLICIES)[number];

const str = (description: string) => ({ type: 'string', description });

// ------------------------------------------------------------------------------------------------
// Stand-in definitions of the synthetic tools each mechanism puts in the prompt.

export const ANTHROPIC_BM25: McpTool = {
  name: 'tool_search_tool_bm25',
  description: 'Search the deferred tools with keywords in natural language. Returns references to the best-matching tools; their definitions are then loaded and they can be called.',
  inputSchema: { type: 'object', properties: { query: str('Keywords matched against tool names, descriptions and parameters.') }, required: ['query'] },
};
export const ANTHROPIC_REGEX: McpTool = {
  name: 'tool_search_tool_regex',
  description: 'Search the deferred tools with a regular expression. Returns references to the matching tools; their definitions are then loaded and they can be called.',
  inputSchema: { type: 'object', properties: { pattern: str('A regular expression (Python re syntax) matched against tool names, descriptions and parameters.') }, required: ['pattern'] },
};
export const CLAUDE_CODE_SEARCH: McpTool = {
  name: 'ToolSearch',
  description: 'Load deferred tools before calling them. The deferred tools are listed by name below; a deferred tool cannot be called until it is loaded. Use "select:<name>[,<name>…]" to load tools by name, or keywords to search them.',
  inputSchema: { type: 'object', properties: { query: str('"select:<tool_name>" or search keywords.'), max_results: { type: 'number', description: 'Most results to return.' } }, required: ['query'] },
};
export const OPENAI_TOOL_SEARCH: McpTool = {
  name: 'tool_search',
  description: 'Load the parameters of deferred functions. A deferred function is listed with its name and description only; load it before calling it.',
  inputSchema: { type: 'object', properties: { query: str('Names of the functions to load, or words to search for.') }, required: ['query'] },
};
export const FASTMCP_SEARCH: McpTool = {
  name: 'search_tools',
  description: 'Search the available tools with a natural-language query. Returns the matching tools with their full input schemas.',
  inputSchema: { type: 'object', properties: { query: str('What you want to do.') }, required: ['query'] },
};
export const FASTMCP_CALL: McpTool = {
  name: 'call_tool',
  description: 'Call a tool found with search_tools, by name, with its arguments.',
  inputSchema: { type: 'object', properties: { name: str('The tool name.'), arguments: { type: 'object', description: 'The arguments, as the tool\'s input schema says.' } }, required: ['name'] },
};

/** mcp-compressor's two meta-tools of one server: the schema tool's description lists the server's tool names. */
export function compressorTools(server: string, names: readonly string[]): McpTool[] {
  return [
    {
      name: `${server}_get_tool_schema`,
      description: `Get the input schema of a tool of the ${server} server before invoking it. Available tools: ${names.join(', ')}.`,
      inputSchema: { type: 'object', properties: { tool_name: str('The tool name.') }, required: ['tool_name'] },
    },
    {
      name: `${server}_invoke_tool`,
      description: `Invoke a tool of the ${server} server with its input; read its schema with ${server}_get_tool_schema first.`,
      inputSchema: { type: 'object', properties: { tool_name: str('The tool name.'), tool_input: { type: 'object', description: 'The input, as the tool\'s schema says.' } }, required: ['tool_name'] },
    },
  ];
}

/**
 * toolslim's search tool and call tool of one server (proxy side), served beside its hot tools: the proxy's
 * own definitions (`searchTools`, src/session/tool-search.ts; with `names`, the description lists them),
 * named as the proxy names them after its server (`serverToolPrefix` of the server's name: here the group's,
 * without the `corpus:` of a distractor server).
 */
export function toolslimSearchTools(server: string, names: readonly string[] | undefined): McpTool[] {
  return searchTools(names, searchNamesOf(server));
}

/** The proxy's names of one server's search and call tools. */
export function searchNamesOf(server: string): SearchToolNames {
  return searchToolNames(serverToolPrefix(server.replace(/^corpus:/, '')));
}

/**
 * The part of a run every mechanism here shares: it loads a tool's definition before the tool's first call, so
 * no call of it fails validation (nothing hidden, nothing to answer) and nothing changes between turns.
 */
const LOADS_BEFORE_CALLING = {
  beforeTurn() {},
  invalidAnswer: () => '',
  coldHides: () => false,
  coldCalled() {},
  executed() {},
} as const;

/** The text a deferring client lists its deferred tools by (Claude Code: names only). */
export function namesBlock(names: readonly string[]): string {
  return `Deferred tools (load with ToolSearch before calling):\n${names.join('\n')}`;
}

/** A deferred function as OpenAI's tool_search keeps it in the prompt: name and description, no parameters. */
export function nameAndDescription(tool: McpTool): McpTool {
  return tool.description === undefined ? { name: tool.name, inputSchema: { type: 'object' } } : { name: tool.name, description: tool.description, inputSchema: { type: 'object' } };
}

// ------------------------------------------------------------------------------------------------
// Search

/** What a search ranks a tool by: its name (as words) and description (the proxy's search tool's, one implementation). */
export { searchText };

type Ranker = (query: string) => number[];

const RANKERS = new WeakMap<readonly McpTool[], { bm25?: Ranker; regex?: Ranker }>();

/** A BM25 or regex ranking over `tools` (memoized per tools array). */
export function ranker(tools: readonly McpTool[], kind: 'bm25' | 'regex'): Ranker {
  let r = RANKERS.get(tools);
  if (r === undefined) RANKERS.set(tools, (r = {}));
  if (r[kind] === undefined) {
    const docs = tools.map(searchText);
    if (kind === 'bm25') {
      const index = new Bm25(docs);
      r.bm25 = (q) => index.rank(q);
    } else r.regex = (q) => regexRank(docs, q);
  }
  return r[kind]!;
}

/**
 * The search round trips before the first use of `target`: a search with the user's text; when the result
 * misses the target (a model would see no tool for its call), a second search with the words of the target's
 * name (the optimistic stand-in for a refined query), whose result holds the target (put last if it ranked
 * lower). Returns the trips' results (indexes into `tools`) and the target's rank in the first.
 */
export function searchFor(tools: readonly McpTool[], rank: Ranker, target: string, query: string): { rank: number; results: number[][] } {
  const order = rank(query);
  const at = order.findIndex((i) => tools[i]!.name === target);
  const first = order.slice(0, SEARCH_RESULTS);
  if (at >= 0 && at < SEARCH_RESULTS) return { rank: at + 1, results: [first] };
  const again = rank(terms(target).join(' ')).slice(0, SEARCH_RESULTS);
  const t = tools.findIndex((x) => x.name === target);
  if (!again.includes(t)) again[again.length - 1] = t;
  return { rank: at < 0 ? Infinity : at + 1, results: [first, again] };
}

// ------------------------------------------------------------------------------------------------
// Policies

const SPEC: Record<PeerName, Omit<PolicySpec, 'name'>> = {
  'defer-search': { kind: 'peer', family: 'peer', side: 'client', description: 'Anthropic tool search, BM25 variant (`defer_loading`): deferred tools absent, a search tool in the prefix; before the first use of a tool not yet loaded, a search with the user\'s text; the 5 matched definitions are appended after the conversation' },
  'defer-search-regex': { kind: 'peer', family: 'peer', side: 'client', description: 'Anthropic tool search, regex variant: as `defer-search`, the query a regex of the user\'s content words' },
  'defer-names': { kind: 'peer', family: 'peer', side: 'client', description: 'Claude Code MCP tool search: tool names (and server instructions) up front, a ToolSearch tool; a `select:<name>` load before each tool\'s first use appends its definition' },
  'defer-description': { kind: 'peer', family: 'peer', side: 'client', description: 'OpenAI `tool_search`: every tool\'s name and description up front, parameters loaded by a round trip before its first use, appended at the end of the context' },
  'meta-tools': { kind: 'peer', family: 'peer', side: 'proxy', description: 'mcp-compressor: per server `get_tool_schema` (its description lists the tool names) and `invoke_tool`; a schema call before each tool\'s first use, every call through invoke_tool' },
  'search-proxy': { kind: 'peer', family: 'peer', side: 'proxy', description: 'FastMCP BM25 search transform: `search_tools` + `call_tool`, no names up front; a search with the user\'s text before the first use of a tool not yet found returns 5 definitions (JSON); every call through call_tool' },
};

interface Owned {
  readonly group: string;
  readonly tool: McpTool;
}

function owned(ctx: PolicyContext, session: Session, source: 'raw' | 'safe'): Map<string, Owned> {
  const m = new Map<string, Owned>();
  for (const g of session.groups) for (const t of source === 'raw' ? ctx.raw(g) : ctx.safe(g)) m.set(t.name, { group: g, tool: t });
  return m;
}

/** The session's whole list (raw), one array per distinct group list (so rankers and served lists memoize). */
function sessionList(ctx: PolicyContext, session: Session): readonly McpTool[] {
  return ctx.served(`P\u0000${session.groups.join('\u0000')}`, () => ({ tools: session.groups.flatMap((g) => ctx.raw(g)), hot: ALL_NAMES })).tools;
}

const callJson = (name: string, args: unknown) => JSON.stringify({ name, arguments: args });

export function peerPolicy(ctx: PolicyContext, name: PeerName): BenchPolicy {
  const spec: PolicySpec = { name, ...SPEC[name] };
  return {
    name,
    spec,
    start(session): PolicyRun {
      const all = sessionList(ctx, session);
      const byName = owned(ctx, session, 'raw');
      const loaded = new Set<string>();
      const key = `${name}\u0000${session.groups.join('\u0000')}`;
      let served: ServedTools;
      switch (name) {
        case 'defer-search':
          served = ctx.served(key, () => ({ tools: [ANTHROPIC_BM25], hot: ALL_NAMES }));
          break;
        case 'defer-search-regex':
          served = ctx.served(key, () => ({ tools: [ANTHROPIC_REGEX], hot: ALL_NAMES }));
          break;
        case 'defer-names':
          served = ctx.served(key, () => ({ tools: [CLAUDE_CODE_SEARCH], hot: ALL_NAMES, texts: [namesBlock(all.map((t) => t.name))] }));
          break;
        case 'defer-description':
          served = ctx.served(key, () => ({ tools: [OPENAI_TOOL_SEARCH, ...all.map(nameAndDescription)], hot: ALL_NAMES }));
          break;
        case 'meta-tools':
          served = ctx.served(key, () => ({ tools: session.groups.flatMap((g) => compressorTools(g, ctx.raw(g).map((t) => t.name))), hot: ALL_NAMES }));
          break;
        case 'search-proxy':
          served = ctx.served(key, () => ({ tools: [FASTMCP_SEARCH, FASTMCP_CALL], hot: ALL_NAMES }));
          break;
      }
      const search = (call: SessionCall, text: string, kind: 'bm25' | 'regex', tool: McpTool, asJson: boolean): RoundTrip[] => {
        const r = searchFor(all, ranker(all, kind), call.name, text);
        return r.results.map((hits, i) => {
          const tools = hits.map((h) => all[h]!);
          for (const t of tools) loaded.add(t.name);
          const query = i === 0 ? (kind === 'regex' ? regexOf(text) : text) : terms(call.name).join(' ');
          return { output: callJson(tool.name, kind === 'regex' ? { pattern: query } : { query }), result: asJson ? JSON.stringify(tools) : { tools }, ...(i === 0 ? { rank: r.rank } : {}) };
        });
      };
      return {
        ...LOADS_BEFORE_CALLING,
        served: () => served,
        roundTrips(call, text) {
          if (loaded.has(call.name)) return [];
          const tool = byName.get(call.name)!;
          switch (name) {
            case 'defer-search':
              return search(call, text, 'bm25', ANTHROPIC_BM25, false);
            case 'defer-search-regex':
              return search(call, text, 'regex', ANTHROPIC_REGEX, false);
            case 'search-proxy':
              return search(call, text, 'bm25', FASTMCP_SEARCH, true);
            case 'defer-names':
              loaded.add(call.name);
              return [{ output: callJson(CLAUDE_CODE_SEARCH.name, { query: `select:${call.name}` }), result: { tools: [tool.tool] } }];
            case 'defer-description':
              loaded.add(call.name);
              return [{ output: callJson(OPENAI_TOOL_SEARCH.name, { query: call.name }), result: { tools: [tool.tool] } }];
            case 'meta-tools':
              loaded.add(call.name);
              return [{ output: callJson(`${tool.group}_get_tool_schema`, { tool_name: call.name }), result: JSON.stringify({ name: call.name, description: tool.tool.description, inputSchema: tool.tool.inputSchema }) }];
          }
        },
        callText(call) {
          if (name === 'meta-tools') return callJson(`${byName.get(call.name)!.group}_invoke_tool`, { tool_name: call.name, tool_input: call.arguments });
          if (name === 'search-proxy') return callJson(FASTMCP_CALL.name, { name: call.name, arguments: call.arguments });
          return callJson(call.name, call.arguments);
        },
      };
    },
  };
}

/** The regex a model would write for the user's text, in the stand-in of regexRank: its content words as an alternation. */
export function regexOf(text: string): string {
  return [...new Set(terms(text).filter((w) => w.length >= 3))].join('|');
}

/** toolslim's hot set beside a search tool, every server alike (`search` or `names`; see {@link perServerPolicy}). */
export function hotSearchPolicy(ctx: PolicyContext, name: HotSearchName): BenchPolicy {
  const byNames = name.endsWith('/names');
  const spec: PolicySpec = {
    name,
    kind: 'search',
    family: 'toolslim',
    side: 'proxy',
    k: 5,
    chooser: 'rate-0.35',
    description: `5 hot per server (the recommended chooser) in full, the preamble once; the other tools behind a per-server search tool${byNames ? ' whose description lists their names (load by name)' : ' (BM25 over name and description, the user\'s text as the query, 5 results)'} and a call tool; served by \`toolslim proxy --search\` (${byNames ? 'below 100 tools' : 'from 100 tools, and by default from 100 tools'})`,
  };
  return perServerPolicy(ctx, spec, () => (byNames ? 'names' : 'search'));
}

/**
 * What `toolslim proxy` picks by default, server by server ({@link PROXY_DEFAULT}): `chooseServing` of the
 * server's list as the proxy sees it (after the `safe` preset, which keeps every tool). With
 * `namesMinBytes`, the same choice at another names threshold (the bench's sweep of `NAMES_MIN_BYTES`:
 * {@link namesSweepName}).
 */
export function proxyDefaultPolicy(ctx: PolicyContext, namesMinBytes?: number): BenchPolicy {
  const spec: PolicySpec = {
    name: namesMinBytes === undefined ? PROXY_DEFAULT : namesSweepName(namesMinBytes),
    kind: 'search',
    family: 'toolslim',
    side: 'proxy',
    k: 5,
    chooser: 'rate-0.35',
    description:
      namesMinBytes === undefined
        ? 'what `toolslim proxy` serves with neither --hot-set, --search nor --full: per server, `chooseServing` of its list — from 100 tools the hot set beside a keyword search tool (`hot-5/rate-0.35/search`); below that, from 3,000 bytes of compact JSON, the hot set beside a search tool that names the other tools (`hot-5/rate-0.35/names`); a smaller list in full through the `safe` preset (`optimized`)'
        : `as \`${PROXY_DEFAULT}\` with the names threshold at ${Number.isFinite(namesMinBytes) ? `${namesMinBytes} bytes` : 'infinity (below 100 tools every tool in full: the default before this threshold)'}`,
  };
  return perServerPolicy(ctx, spec, (g) => chooseServing(ctx.safe(g), namesMinBytes === undefined ? {} : { namesMinBytes }).mode);
}

/** The names thresholds the bench sweeps around `NAMES_MIN_BYTES` (Infinity: never the names, every small list in full). */
export const NAMES_SWEEP: readonly number[] = [0, 1000, 2000, 4000, 6000, 10000, Infinity];

/** The policy name of {@link proxyDefaultPolicy} at another names threshold. */
export function namesSweepName(bytes: number): string {
  return Number.isFinite(bytes) ? `proxy/names-from-${bytes}` : 'proxy/names-never';
}

/** What `toolslim proxy --search` serves, server by server ({@link PROXY_SEARCH}): names listed below 100 tools. */
export function proxySearchPolicy(ctx: PolicyContext): BenchPolicy {
  const spec: PolicySpec = {
    name: PROXY_SEARCH,
    kind: 'search',
    family: 'toolslim',
    side: 'proxy',
    k: 5,
    chooser: 'rate-0.35',
    description: 'what `toolslim proxy --search` serves: per server, the hot set beside a search tool that lists the other tools\' names below 100 tools (`hot-5/rate-0.35/names`), without them from 100 on (`hot-5/rate-0.35/search`; `searchMode`)',
  };
  return perServerPolicy(ctx, spec, (g) => (searchMode(ctx.safe(g).length) === 'names' ? 'names' : 'search'));
}

/** A group's tools through presetForProfile('safe', 'claude-code') (what the proxy serves under that profile). */
const CLAUDE_CODE_LISTS = new WeakMap<readonly McpTool[], readonly McpTool[]>();
function claudeCodeList(ctx: PolicyContext, group: string): readonly McpTool[] {
  const raw = ctx.raw(group);
  let tools = CLAUDE_CODE_LISTS.get(raw);
  if (tools === undefined) CLAUDE_CODE_LISTS.set(raw, (tools = transformTools(raw, { transforms: presetForProfile('safe', 'claude-code') }).tools as McpTool[]));
  return tools;
}

/**
 * {@link UNDER_CLAUDE_CODE}: the proxy serves what `chooseServing` picks for claude-code (`full`: every tool,
 * through the profile's plan); Claude Code defers it as `defer-names` defers the servers' own lists: every
 * served name up front with its ToolSearch tool, a `select:<name>` load before a tool's first call, whose
 * result is the served (optimized) definition.
 */
export function underClaudeCodePolicy(ctx: PolicyContext): BenchPolicy {
  const spec: PolicySpec = {
    name: UNDER_CLAUDE_CODE,
    kind: 'composed',
    family: 'toolslim',
    side: 'client',
    description: '`toolslim proxy --profile claude-code` under Claude Code\'s MCP tool search: the proxy serves every tool in full through the profile\'s plan (`chooseServing` for a deferring client), Claude Code lists the names and loads each definition (the optimized one) with a `select:` round trip before its first use — `defer-names` on the proxy\'s output',
  };
  return {
    name: spec.name,
    spec,
    start(session): PolicyRun {
      const lists = session.groups.map((g) => {
        if (chooseServing(ctx.safe(g), { client: 'claude-code' }).mode !== 'full') throw new Error(`${UNDER_CLAUDE_CODE}: chooseServing no longer serves claude-code every tool; model what it serves`);
        return claudeCodeList(ctx, g);
      });
      const all = ctx.served(`CC\u0000${session.groups.join('\u0000')}`, () => ({ tools: lists.flat(), hot: ALL_NAMES })).tools;
      const byName = new Map(all.map((t) => [t.name, t]));
      const served = ctx.served(`CCN\u0000${session.groups.join('\u0000')}`, () => ({ tools: [CLAUDE_CODE_SEARCH], hot: ALL_NAMES, texts: [namesBlock(all.map((t) => t.name))] }));
      const loaded = new Set<string>();
      return {
        ...LOADS_BEFORE_CALLING,
        served: () => served,
        roundTrips(call) {
          if (loaded.has(call.name)) return [];
          loaded.add(call.name);
          return [{ output: callJson(CLAUDE_CODE_SEARCH.name, { query: `select:${call.name}` }), result: { tools: [byName.get(call.name)!] } }];
        },
        callText: (call) => callJson(call.name, call.arguments),
      };
    },
  };
}

/**
 * One proxy per server, each serving its server as `modeOf` says: `full` (the `safe` list as it is), or the
 * hot set (chosen as the recommended policy chooses it) in full, the shared preamble once, the other tools
 * out of the list behind a `<server>_search_tools` tool and a `<server>_call_tool` tool. `search`: the search tool
 * ranks the server's cold tools by BM25 over the user's text, 5 results, a miss costs a second search.
 * `names`: the search tool's description lists the cold tools' names, and a load by name returns that one
 * definition (no miss; the proxy's search answers an exact name with that tool alone). Results are the
 * tools' `safe` definitions as JSON (a tool result). Calls of found tools go through `<server>_call_tool`,
 * checked against the real schema.
 */
export function perServerPolicy(ctx: PolicyContext, spec: PolicySpec, modeOf: (group: string) => 'names' | 'search' | 'full'): BenchPolicy {
  return {
    name: spec.name,
    spec,
    start(session): PolicyRun {
      const exclude = PolicyContext.exclusion(session);
      const byName = owned(ctx, session, 'safe');
      const hotNames = new Set<string>();
      const coldOf = new Map<string, readonly McpTool[]>();
      const modes = new Map<string, 'names' | 'search' | 'full'>();
      const parts: McpTool[] = [];
      const keyParts: string[] = [];
      for (const g of session.groups) {
        const mode = modeOf(g);
        modes.set(g, mode);
        if (mode === 'full') {
          for (const t of ctx.safe(g)) hotNames.add(t.name);
          parts.push(...ctx.safe(g));
          keyParts.push(`${g}\u0001*`);
          continue;
        }
        const hot = ctx.history.choose('rate-0.35', g, ctx.safe(g), 5, exclude);
        for (const n of hot) hotNames.add(n);
        const hotList = ctx.hotList(g, 'signature-once').filter((t) => hot.has(t.name));
        const cold = ctx.served(`HSC\u0000${g}\u0000${[...hot].sort().join('\u0000')}`, () => ({ tools: ctx.safe(g).filter((t) => !hot.has(t.name)), hot: ALL_NAMES })).tools;
        coldOf.set(g, cold);
        keyParts.push(`${g}\u0001${mode}\u0001${[...hot].sort().join('\u0001')}`);
        parts.push(...hotList);
        if (cold.length > 0) parts.push(...toolslimSearchTools(g, mode === 'names' ? cold.map((t) => t.name) : undefined));
      }
      const served = ctx.served(`HS\u0000${keyParts.join('\u0000')}`, () => ({ tools: parts, hot: ALL_NAMES }));
      const loaded = new Set<string>();
      return {
        ...LOADS_BEFORE_CALLING,
        served: () => served,
        roundTrips(call, text) {
          if (hotNames.has(call.name) || loaded.has(call.name)) return [];
          const { group, tool } = byName.get(call.name)!;
          const searchTool = searchNamesOf(group).search;
          if (modes.get(group) === 'names') {
            loaded.add(call.name);
            return [{ output: callJson(searchTool, { query: call.name }), result: JSON.stringify([tool]) }];
          }
          const cold = coldOf.get(group)!;
          const r = searchFor(cold, ranker(cold, 'bm25'), call.name, text);
          return r.results.map((hits, i) => {
            const tools = hits.map((h) => cold[h]!);
            for (const t of tools) loaded.add(t.name);
            return { output: callJson(searchTool, { query: i === 0 ? text : terms(call.name).join(' ') }), result: JSON.stringify(tools), ...(i === 0 ? { rank: r.rank } : {}) };
          });
        },
        callText(call) {
          if (hotNames.has(call.name)) return callJson(call.name, call.arguments);
          return callJson(searchNamesOf(byName.get(call.name)!.group).call, { name: call.name, arguments: call.arguments });
        },
      };
    },
  };
}
