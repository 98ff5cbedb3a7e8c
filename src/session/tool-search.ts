/**
 * The hot set beside a search tool (`toolslim proxy --search`): the session serves its hot tools in full
 * and, instead of a cold form for every other tool, two tools of its own — {@link SEARCH_TOOL} (a query →
 * the best-matching other tools' full definitions, ranked by the same BM25 the session bench prices) and
 * {@link CALL_TOOL} (a call of a tool found that way, checked against its real input schema before it is
 * forwarded, as a cold call is). The served list holds no cold tool, so it does not grow with the server's
 * list, and it keeps its bytes all session: a search is a call, its result goes into the conversation.
 *
 * And the choice between that and the whole list by list size ({@link chooseServing}), with the numbers
 * it rests on (bench/sessions.md). Transport-free: the proxy wires it (src/cli/proxy/session.ts).
 */
import type { McpTool } from '../core/tool.js';
import { utf8Length } from '../core/measure.js';
import { ToolslimError } from '../core/errors.js';
import { isObject } from '../json/guards.js';
import { stringifyForCaller, stringifyJson } from '../json/stringify.js';
import { getProfile } from '../profiles/profiles.js';
import type { ClientProfile } from '../profiles/define.js';
import { Bm25, terms } from './bm25.js';
import { describeValue } from './hot-set.js';

/** The search tool's name. */
export const SEARCH_TOOL = 'toolslim_search_tools';
/** The call tool's name. */
export const CALL_TOOL = 'toolslim_call_tool';
/** Definitions a search returns unless the call asks for another number (the bench's 5). */
export const SEARCH_RESULTS = 5;
/** Most definitions one search returns. */
export const SEARCH_RESULTS_MAX = 20;

/**
 * The list size from which the proxy serves the hot set beside a keyword search tool unless told
 * otherwise, and below which the search tool lists the other tools' names. The session bench
 * (bench/sessions.md, "Against what users have now") prices, one proxy per server: on BFCL's servers
 * (2–22 tools) the search tool listing names at 0.41× of full-cached against 0.67× for a keyword search
 * alone (whose recall is 78% in the top 5); on servers of 117–235 tools the names would cost hundreds of
 * tokens on every request.
 */
export const SEARCH_MIN_TOOLS = 100;

/**
 * The list size in bytes (UTF-8 of the served list's compact JSON, about 750 o200k tokens) from which the
 * proxy serves a list of fewer than {@link SEARCH_MIN_TOOLS} tools as the hot set beside a search tool that
 * names the other tools, unless told otherwise; below it, every tool. A smaller list is not worth a load
 * round trip: the two tools served in its place and the names already cost ~1 kB. The session bench
 * prices the rule (bench/sessions.md): BFCL's 12 servers (1.8–11 kB) at 0.41× of full-cached with 27%
 * more model requests, where the cheapest proxy-side peer (two meta-tools per server) costs 0.46× with
 * 60% more; its sweep finds every threshold from 0 to 4 kB meeting issue 30's targets in every scenario.
 */
export const NAMES_MIN_BYTES = 3000;

/** The names of the search mode's two tools (see {@link searchToolNames}). */
export interface SearchToolNames {
  readonly search: string;
  readonly call: string;
}

/** `toolslim_search_tools` and `toolslim_call_tool`: the names without a server's prefix. */
export const DEFAULT_SEARCH_NAMES: SearchToolNames = Object.freeze({ search: SEARCH_TOOL, call: CALL_TOOL });

/** What a search prefix may hold: tool-name characters (SEP-986), at most 100 of them. */
export const SEARCH_PREFIX_PATTERN = /^[A-Za-z0-9_.-]{0,100}$/;

/**
 * The two tools' names with `prefix`: `<prefix>search_tools` and `<prefix>call_tool` (default prefix
 * `toolslim_`). Several proxies in front of several servers each serve these two tools; a client that
 * merges its servers' lists without a namespace (some do, and refuse duplicate names) needs them to differ,
 * so the proxy prefixes them with its server's name ({@link serverToolPrefix}).
 */
export function searchToolNames(prefix = 'toolslim_', where = 'search prefix'): SearchToolNames {
  if (typeof prefix !== 'string' || !SEARCH_PREFIX_PATTERN.test(prefix)) throw new ToolslimError('invalid-option', `${where}: must be at most 100 of A-Z a-z 0-9 _ . - (tool-name characters), got ${describeValue(prefix)}`);
  return prefix === 'toolslim_' ? DEFAULT_SEARCH_NAMES : { search: `${prefix}search_tools`, call: `${prefix}call_tool` };
}

/**
 * A search prefix from a server's name (its `initialize` result's `serverInfo.name`): lower case, each run
 * of characters other than a–z and 0–9 one `_`, none at either end, at most 40 characters, then `_` —
 * `"@acme/Git Hub-MCP"` → `acme_git_hub_mcp_`; one `_` before a slug that starts with a digit, as clients
 * that refuse a leading digit (Gemini, Kimi) need (`"9lives"` → `_9lives_`: the proxy's own two tools are
 * never renamed, so a name a profile refuses would refuse the whole list). `toolslim_` when nothing is
 * left (no name, or no letter or digit in it).
 */
export function serverToolPrefix(serverName: unknown): string {
  if (typeof serverName !== 'string') return 'toolslim_';
  const slug = serverName.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 40).replace(/_+$/, '');
  if (slug === '') return 'toolslim_';
  return /^[0-9]/.test(slug) ? `_${slug}_` : `${slug}_`;
}

/**
 * The two tools served beside the hot set, as the client sees them: fixed bytes for a given list. With
 * `listed` (search mode `names`: the cold tools' names, in list order), the search tool's description
 * names them, so the model can load one by name instead of guessing keywords. `names`: their own names
 * ({@link searchToolNames}).
 */
export function searchTools(listed?: readonly string[], names: SearchToolNames = DEFAULT_SEARCH_NAMES): McpTool[] {
  const others = listed === undefined || listed.length === 0 ? '' : ` Its other tools: ${listed.join(', ')}.`;
  // Short on purpose: one pair per server is paid on every request (bench/sessions.md prices it).
  return [
    {
      name: names.search,
      description: `Find more of this server's tools by keywords${others === '' ? '' : ' or name'}; returns their full definitions as JSON. Call them with ${names.call}.${others}`,
      inputSchema: {
        type: 'object',
        properties: {
          query: { type: 'string', description: 'Keywords or a tool name' },
          limit: { type: 'integer', minimum: 1, maximum: SEARCH_RESULTS_MAX },
        },
        required: ['query'],
      },
    },
    {
      name: names.call,
      description: `Call a tool found with ${names.search}.`,
      inputSchema: {
        type: 'object',
        properties: { name: { type: 'string' }, arguments: { type: 'object' } },
        required: ['name'],
      },
    },
  ] as McpTool[];
}

/** The two tools served beside the hot set when they name no tool (search mode `true`). */
export const SEARCH_TOOLS: readonly McpTool[] = Object.freeze(searchTools());

/** What a search ranks a tool by: its name, the words of its name, and its description. */
export function searchText(tool: McpTool): string {
  return `${tool.name} ${terms(tool.name).join(' ')} ${typeof tool.description === 'string' ? tool.description : ''}`;
}

/** A BM25 index over some tools (the session's cold tools). */
export class ToolSearchIndex {
  readonly #tools: readonly McpTool[];
  readonly #bm25: Bm25;
  /** Each name's words (`list mail messages` for `list-mail-messages` or `listMailMessages`) → the tools so named, in list order. */
  readonly #byWords = new Map<string, number[]>();

  constructor(tools: readonly McpTool[]) {
    this.#tools = tools;
    this.#bm25 = new Bm25(tools.map(searchText));
    tools.forEach((t, i) => {
      const words = terms(t.name).join(' ');
      if (words === '') return;
      const at = this.#byWords.get(words);
      if (at === undefined) this.#byWords.set(words, [i]);
      else at.push(i);
    });
  }

  /**
   * The tools that match `query` (a positive score), best first (ties in list order), at most `limit`. A
   * tool's exact name loads that tool alone (what a model does with a listed name); a query whose words
   * are a tool's name's words, in order (`list mail messages`, `List Mail Messages`), puts that tool first
   * and the ranking after it: BM25 alone ranked `list-mail-messages` outside the first five for that query
   * on a server of 400 tools whose descriptions say "mail" and "messages" more often.
   */
  search(query: string, limit = SEARCH_RESULTS): McpTool[] {
    const named = this.#tools.find((t) => t.name === query.trim());
    if (named !== undefined) return [named];
    const first = this.#byWords.get(terms(query).join(' ')) ?? [];
    if (first.length === 0) return this.#bm25.top(query, limit).map((i) => this.#tools[i]!);
    const out = first.slice(0, limit);
    for (const i of this.#bm25.top(query, limit + out.length)) {
      if (out.length >= limit) break;
      if (!first.includes(i)) out.push(i);
    }
    return out.map((i) => this.#tools[i]!);
  }
}

/** A text `CallToolResult` (the search's answer, or an error). */
export interface CallToolTextResult {
  readonly content: readonly { readonly type: 'text'; readonly text: string }[];
  readonly isError?: boolean;
}

function errorResult(text: string): CallToolTextResult & { isError: true } {
  return { content: [{ type: 'text', text }], isError: true };
}

/**
 * The answer to a {@link SEARCH_TOOL} call: the matched tools' definitions as a JSON array (compact, each
 * exactly as it would be served hot), or an `isError` result naming what is wrong with the arguments.
 */
export function searchAnswer(index: ToolSearchIndex, args: unknown, searchable: number, names: SearchToolNames = DEFAULT_SEARCH_NAMES): CallToolTextResult {
  const SEARCH_TOOL = names.search;
  if (!isObject(args) || typeof args.query !== 'string') return errorResult(`${SEARCH_TOOL}: \`query\` must be a string of keywords.`);
  const limit = args.limit === undefined ? SEARCH_RESULTS : args.limit;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > SEARCH_RESULTS_MAX) return errorResult(`${SEARCH_TOOL}: \`limit\` must be a whole number from 1 to ${SEARCH_RESULTS_MAX}.`);
  const found = index.search(args.query, limit);
  if (found.length === 0) return { content: [{ type: 'text', text: `No tool matched ${JSON.stringify(args.query)} (${searchable} searchable); try other words, or a tool name.` }] };
  return { content: [{ type: 'text', text: stringifyJson(found) }] };
}

/** A {@link CALL_TOOL} call's inner call, or the error result to answer it with. */
export function unwrapCall(args: unknown, known: (name: string) => boolean, names: SearchToolNames = DEFAULT_SEARCH_NAMES): { readonly name: string; readonly arguments: unknown } | (CallToolTextResult & { isError: true }) {
  const { search: SEARCH_TOOL, call: CALL_TOOL } = names;
  if (!isObject(args) || typeof args.name !== 'string') return errorResult(`${CALL_TOOL}: \`name\` must be the name of a tool found with ${SEARCH_TOOL}.`);
  if (!known(args.name)) return errorResult(`${CALL_TOOL}: this server has no tool \`${args.name}\`; find one with ${SEARCH_TOOL}.`);
  if (args.arguments !== undefined && !isObject(args.arguments)) return errorResult(`${CALL_TOOL}: \`arguments\` must be an object.`);
  return { name: args.name, arguments: args.arguments };
}

/** What {@link chooseServing} picked, and why (one line, for stderr). */
export interface ServingChoice {
  /**
   * `search`: the hot set beside a keyword search tool; `names`: the hot set beside a search tool whose
   * description names the other tools (a name loads that tool); `full`: the whole list as optimized.
   */
  readonly mode: 'search' | 'names' | 'full';
  readonly why: string;
}

/**
 * How `--search` serves a list of `toolCount` tools: below {@link SEARCH_MIN_TOOLS} the search tool's
 * description lists the other tools' names (`'names'`: a model loads one by name, no keyword search to
 * miss), from there on it does not (`true`: the list would grow with the server's). The session bench
 * (bench/sessions.md) prices the names at 0.41× of the full list cached on BFCL's servers against 0.67×
 * for a keyword search alone.
 */
export function searchMode(toolCount: number, threshold = SEARCH_MIN_TOOLS): true | 'names' {
  return toolCount < threshold ? 'names' : true;
}

/** Whether `client` defers tool schemas itself (its reader does not pay every tool up front, as claude-code). */
export function defersSchemas(client: string | ClientProfile): boolean {
  return getProfile(client).reader.alwaysPaid !== 'everything';
}

/** Options of {@link chooseServing}. */
export interface ChooseServingOptions {
  /** From this many tools a keyword search (default {@link SEARCH_MIN_TOOLS}). */
  readonly searchMinTools?: number;
  /** From this many bytes of the list's compact JSON, below `searchMinTools` tools, the names (default {@link NAMES_MIN_BYTES}). */
  readonly namesMinBytes?: number;
  /** The client's profile (name or object): one that defers schemas itself is served every tool. */
  readonly client?: string | ClientProfile;
  /** The search mode's tool names, as `why` should say them (default {@link DEFAULT_SEARCH_NAMES}). */
  readonly names?: SearchToolNames;
}

/**
 * The default serving of one server's list (one proxy per server; `tools` as the proxy would serve them
 * in full, after its preset): from {@link SEARCH_MIN_TOOLS} tools the hot set beside a keyword search
 * tool; below that, from {@link NAMES_MIN_BYTES} bytes of compact JSON, the hot set beside a search tool
 * that names the other tools; else the whole list. For a client that defers schemas itself (`client` a
 * profile whose reader does not pay every tool up front, as claude-code), the whole list at any size:
 * that client already lists names and loads schemas on demand, so a search tool of the proxy's own would
 * only add a round trip; what it pays least for is the optimized full definitions it loads.
 */
export function chooseServing(tools: readonly unknown[], options: ChooseServingOptions = {}): ServingChoice {
  const count = tools.length;
  const minTools = options.searchMinTools ?? SEARCH_MIN_TOOLS;
  const minBytes = options.namesMinBytes ?? NAMES_MIN_BYTES;
  const { search: SEARCH_TOOL, call: CALL_TOOL } = options.names ?? DEFAULT_SEARCH_NAMES;
  const profile = options.client === undefined ? undefined : getProfile(options.client);
  if (profile !== undefined && defersSchemas(profile)) {
    return { mode: 'full', why: `${count} tools, --profile ${profile.name}: that client defers schemas itself (it pays ${profile.reader.alwaysPaid === 'nothing' ? 'no tool' : `the ${profile.reader.alwaysPaid}`} up front and loads a schema when its model asks), so every tool is served in full, optimized for it, with no hot set and no search tool of the proxy's own (they would only add round trips; the session bench prices toolslim under claude-code at or below claude-code alone)` };
  }
  if (profile !== undefined && profile.strict?.closedObjects === true) {
    return { mode: 'full', why: `${count} tools, --profile ${profile.name}: that client accepts only closed objects (every property listed and required, \`additionalProperties: false\`), which a search tool's call tool (its \`arguments\` are any tool's arguments) and a cold stub cannot be, so every tool is served in full, converted for it` };
  }
  if (count >= minTools) {
    return { mode: 'search', why: `${count} tools (≥ ${minTools}): serving the hot set beside ${SEARCH_TOOL} and ${CALL_TOOL}, the other tools found by keyword search (stubs of every tool grow with the list, a search tool does not: bench/sessions.md; --hot-set to serve stubs, --full to serve every tool)` };
  }
  const bytes = utf8Length(stringifyForCaller(tools, 'chooseServing', 'the tools list'));
  if (bytes >= minBytes) {
    return { mode: 'names', why: `${count} tools, ${bytes} bytes (≥ ${minBytes}): serving the hot set beside ${SEARCH_TOOL}, whose description names the other tools (a name loads that tool), and ${CALL_TOOL}; each first call of another tool costs a load round trip, and the list stays small all session (bench/sessions.md; --full to serve every tool, --hot-set to serve stubs)` };
  }
  return { mode: 'full', why: `${count} tools, ${bytes} bytes (< ${minBytes}): serving every tool (a search tool and its round trips would not pay on a list this small; --search serves the hot set beside a search tool, --hot-set beside cold stubs)` };
}
