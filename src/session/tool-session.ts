// Why one file: one class, the session's state; the hot-set choice, served tools and argument checks it
// delegates to already live next door.
/**
 * One session's served tool list and what to do with each `tools/call`: the state a proxy or the SDK
 * hook keeps between requests. No I/O: the caller sends what the session decides.
 */
import { ToolslimError } from '../core/errors.js';
import { locateTools } from '../engine/input.js';
import { utf8Length } from '../core/measure.js';
import type { ListToolsResult, McpTool } from '../core/tool.js';
import { hasOwn, isObject } from '../json/guards.js';
import { checkOptions, chooseHotSet, describeValue, isOptionsObject, type ChooseHotSetOptions } from './hot-set.js';
import { buildServedTools, checkColdForm, checkPreamble } from './served-tools.js';
import { ArgumentValidator, type ArgumentCheck, type ArgumentIssue } from './validate-arguments.js';
import { DEFAULT_HOT_SET } from './defaults.js';
import { REVEAL_MODES, type ColdFormOptions, type PreambleMode, type RevealMode } from './types.js';
import { stringifyForCaller, stringifyJson } from '../json/stringify.js';
import { searchAnswer, searchToolNames, searchTools, ToolSearchIndex, unwrapCall, type CallToolTextResult, type SearchToolNames } from './tool-search.js';

export { REVEAL_MODES, type RevealMode } from './types.js';

/** Hot-set options of a {@link ToolSession}; each defaults to {@link DEFAULT_HOT_SET}'s. */
export interface HotSetOptions extends ChooseHotSetOptions {
  /** Most tools served in full (a non-negative integer; default 5). */
  readonly k?: number;
  /** What a call of a cold tool does (default `result`). */
  readonly reveal?: RevealMode;
  /**
   * How cold tools are served: compress-cold-tools options without `keep` (default
   * `DEFAULT_HOT_SET.cold`: shared preamble dropped, parameter signature). Given, it replaces the default
   * whole (`{}` is compress-cold-tools' own defaults).
   */
  readonly cold?: ColdFormOptions;
  /**
   * Where the server's shared preamble is served (see {@link PreambleMode}): default
   * `DEFAULT_HOT_SET.preamble` (`once`) when the cold form drops the preamble, else `each`.
   */
  readonly preamble?: PreambleMode;
  /**
   * Serve the hot tools beside a search tool and a call tool (tool-search.ts) instead of cold forms of the
   * others: cold tools are out of the list, found by `toolslim_search_tools` (BM25), called by
   * `toolslim_call_tool` or by name, and checked against their real schema (default false). `'names'`:
   * the same, and the search tool's description lists the cold tools' names (a model loads one by name).
   */
  readonly search?: boolean | 'names';
  /**
   * With `search`: the two tools are `<searchPrefix>search_tools` and `<searchPrefix>call_tool` (default
   * `toolslim_`; tool-name characters, at most 100). The proxy passes its server's name
   * (`serverToolPrefix`), so that several proxies' tools keep distinct names in one client.
   */
  readonly searchPrefix?: string;
}

/** Anything told of the calls that reach the server: a `UsageStore`, a `ToolUsageGraph`. */
export interface UsageRecorder {
  /** One call of `name` reached the server. */
  record(name: string): unknown;
  /** A session starts (called once, after the hot set is chosen). */
  beginSession?(): unknown;
}

/** Options of {@link ToolSession}. */
export interface ToolSessionOptions {
  /** The full list to serve, as the pipeline produced it: a `ListToolsResult` or a tools array. */
  readonly list: ListToolsResult | readonly McpTool[];
  /**
   * The server's tools as it sent them (a `ListToolsResult` or an array), matched by name; used for the
   * "original" definition sizes of {@link ToolSession.definitionBytes}. Default: `list`'s tools.
   */
  readonly original?: ListToolsResult | readonly McpTool[];
  /** Serve `k` tools in full and the rest cold. Without it every tool is served as `list` has it. */
  readonly hotSet?: HotSetOptions;
  /** True when the server's `initialize` result declared `capabilities.tools.listChanged: true`. */
  readonly listChanged?: boolean;
  /** Told the name of every call forwarded to the server (not of calls the session answers itself). */
  readonly usage?: UsageRecorder;
  /** A validator to share between sessions (its compiled schemas are kept); default a new one. */
  readonly validator?: ArgumentValidator;
  /**
   * Served name → the server's name, for tools the pipeline renamed (`CallMap.renames`): `original` is
   * matched by the server's name. Default: none renamed.
   */
  readonly serverNames?: ReadonlyMap<string, string>;
}

/** The MCP `CallToolResult` the session answers an invalid cold call with. */
export interface CallToolErrorResult {
  readonly content: readonly { readonly type: 'text'; readonly text: string }[];
  readonly isError: true;
}

/** What every {@link CallDecision} says. */
export interface CallDecisionBase {
  /** The called tool's name (`""` when the request named none). */
  readonly tool: string;
  /** The tool was cold when it was called. */
  readonly cold: boolean;
  /** This call made the tool hot: the served list ({@link ToolSession.text}) changed. */
  readonly revealed: boolean;
  /** Send `notifications/tools/list_changed` to the client now (revealed, and the server declared the capability). */
  readonly notify: boolean;
}

/** Forward the request to the server unchanged; its result goes back untouched. */
export interface ForwardDecision extends CallDecisionBase {
  readonly action: 'forward';
  /** The argument check of a cold call (`valid` or `unchecked`); absent for hot and unknown tools. */
  readonly check?: ArgumentCheck;
  /** A `toolslim_call_tool` call: forward this call of the found tool instead of the request as it came. */
  readonly call?: { readonly name: string; readonly arguments: unknown };
}

/** Do not forward: answer the request with `result`. */
export interface AnswerDecision extends CallDecisionBase {
  readonly action: 'answer';
  /** An error (invalid arguments), or with `search`, a search tool's answer (not an error). */
  readonly result: CallToolErrorResult | CallToolTextResult;
  /** What was wrong with the arguments. */
  readonly issues: readonly ArgumentIssue[];
}

/** What to do with one `tools/call`. */
export type CallDecision = ForwardDecision | AnswerDecision;

/** A tool's definition size in bytes (UTF-8 of compact JSON): as served now, and as the server sent it. */
export interface DefinitionBytes {
  readonly served: number;
  readonly original: number;
}

/**
 * One session's served list and its `tools/call` decisions.
 *
 * The hot set is chosen once, when the session is created ({@link chooseHotSet}); from then on the
 * served list — {@link ToolSession.text}, the exact JSON text to send for every `tools/list` — keeps
 * the same bytes, whatever calls pass through, until a reveal (`list-changed` mode) or an
 * {@link ToolSession.update} changes it. Tools never move and none is removed.
 *
 * ```ts
 * const session = new ToolSession({ list, hotSet: { k: 5, graph }, usage: store });
 * send(session.text);                                   // every tools/list
 * const d = session.onCall(name, args);                 // every tools/call
 * if (d.action === 'answer') reply(d.result); else forward();
 * if (d.notify) notifyListChanged();
 * ```
 */
export class ToolSession {
  /** What a cold call does. */
  readonly reveal: RevealMode;
  /** Whether the server declared `tools.listChanged` (so a reveal may be announced). */
  readonly listChanged: boolean;
  readonly #cold: ColdFormOptions;
  readonly #preamble: PreambleMode;
  readonly #compress: boolean;
  readonly #search: boolean;
  readonly #names: SearchToolNames;
  readonly #listNames: boolean;
  #index: { readonly version: number; readonly index: ToolSearchIndex; readonly size: number } | undefined;
  readonly #validator: ArgumentValidator;
  readonly #usage: UsageRecorder | undefined;
  readonly #hot = new Set<string>();
  #located!: ReturnType<typeof locateTools>;
  #full!: readonly McpTool[];
  #byName!: Map<string, number>;
  /** Names the list holds more than once, with how many times (see {@link ToolSession.onCall}). */
  #listedTwice!: Map<string, number>;
  #original!: Map<string, McpTool>;
  #served!: McpTool[];
  #text!: string;
  #version = 0;
  #sizes = new Map<string, DefinitionBytes>();
  #serverNames: ReadonlyMap<string, string>;

  /** @throws ToolslimError (`invalid-option` / `invalid-input`) naming the option or input that is unusable */
  constructor(options: ToolSessionOptions) {
    if (!isOptionsObject(options)) throw new ToolslimError('invalid-option', `ToolSession: options must be an object, got ${describeValue(options)}`);
    const known = ['list', 'original', 'hotSet', 'listChanged', 'usage', 'validator', 'serverNames'];
    for (const key of Object.keys(options)) if (!known.includes(key)) throw new ToolslimError('invalid-option', `ToolSession: unknown option \`${key}\` (known: ${known.join(', ')})`);
    const { hotSet } = options;
    if (options.listChanged !== undefined && typeof options.listChanged !== 'boolean') throw new ToolslimError('invalid-option', `ToolSession: \`listChanged\` must be true or false, got ${describeValue(options.listChanged)}`);
    if (options.usage !== undefined && typeof (options.usage as Partial<UsageRecorder> | null)?.record !== 'function') throw new ToolslimError('invalid-option', `ToolSession: \`usage\` must have a \`record(name)\` method, got ${describeValue(options.usage)}`);
    if (options.validator !== undefined && !(options.validator instanceof ArgumentValidator)) throw new ToolslimError('invalid-option', `ToolSession: \`validator\` must be an ArgumentValidator, got ${describeValue(options.validator)}`);
    if (hotSet !== undefined) checkHotSetOptions(hotSet, 'ToolSession');
    this.reveal = hotSet?.reveal ?? DEFAULT_HOT_SET.reveal;
    this.listChanged = options.listChanged ?? false;
    this.#cold = hotSet?.cold ?? DEFAULT_HOT_SET.cold;
    this.#preamble = hotSet?.preamble ?? (this.#cold.dropSharedPreamble === true ? DEFAULT_HOT_SET.preamble : 'each');
    this.#compress = hotSet !== undefined;
    this.#search = hotSet?.search === true || hotSet?.search === 'names';
    this.#listNames = hotSet?.search === 'names';
    this.#names = searchToolNames(hotSet?.searchPrefix);
    this.#validator = options.validator ?? new ArgumentValidator();
    this.#usage = options.usage;
    if (options.serverNames !== undefined && !(options.serverNames instanceof Map)) throw new ToolslimError('invalid-option', `ToolSession: \`serverNames\` must be a Map of served name → server name, got ${describeValue(options.serverNames)}`);
    this.#serverNames = options.serverNames ?? new Map();
    this.#load(options.list, options.original);
    if (hotSet !== undefined) {
      const chosen = chooseHotSet(this.#full, hotSet.k ?? DEFAULT_HOT_SET.k, { graph: hotSet.graph, policy: hotSet.policy, minCallsPerSession: hotSet.minCallsPerSession });
      for (const name of chosen) this.#hot.add(name);
    }
    this.#rebuild();
    this.#usage?.beginSession?.();
  }

  /** The exact JSON text of the served `tools/list` result: send these bytes for every `tools/list`. */
  get text(): string {
    return this.#text;
  }

  /** The served `tools/list` result (`list`'s envelope with the served tools). */
  get result(): ListToolsResult {
    const located = this.#located;
    const wrapped = located.envelope === 'array' ? { tools: this.#served } : located.wrap(this.#served);
    return wrapped as ListToolsResult;
  }

  /** The served tools, in list order. */
  get tools(): readonly McpTool[] {
    return this.#served;
  }

  /** The tools served in full, in list order (all of them without a hot set). */
  get hot(): string[] {
    if (!this.#compress) return [...this.#byName.keys()];
    return [...this.#byName.keys()].filter((name) => this.#hot.has(name));
  }

  /** Counts changes of the served list: 0 at the start, +1 at each reveal or update that changed {@link ToolSession.text}. */
  get version(): number {
    return this.#version;
  }

  /** True when `name` is served in full. */
  isHot(name: string): boolean {
    return this.#byName.has(name) && (!this.#compress || this.#hot.has(name));
  }

  /**
   * Decides one `tools/call`: calls of hot tools, of tools not in the list, and every call without a
   * hot set are forwarded untouched. A cold tool's arguments are checked against the server's real
   * `inputSchema` (its tool in `original`, found by its server name through `serverNames`; the served full
   * form only when the server's is not known), so a conversion that widened or narrowed the schema (a
   * client profile) changes no verdict: valid → forwarded; invalid → answered with an error naming each
   * problem and carrying the served full schema. A call by the server's own name of a renamed tool (a name
   * the client was not served) is the same tool, checked the same way. In `list-changed` mode the tool
   * also becomes hot. Every forwarded call of a listed tool is recorded in `usage`.
   *
   * @param name - `params.name` of the request
   * @param args - `params.arguments` of the request (`undefined` when absent)
   * @param serverArgs - the arguments as the server will get them, when the caller maps them (openai-strict's
   *   `null`s for "absent" dropped: `CallMap.toServer`); default `args`
   */
  onCall(name: unknown, args: unknown, serverArgs: unknown = args): CallDecision {
    let tool = typeof name === 'string' ? name : '';
    let index = typeof name === 'string' ? this.#byName.get(name) : undefined;
    if (this.#search && index === undefined && tool === this.#names.search) {
      const result = searchAnswer(this.#searchIndex().index, args, this.#searchIndex().size, this.#names);
      return { action: 'answer', tool, cold: false, revealed: false, notify: false, issues: [], result };
    }
    if (this.#search && index === undefined && tool === this.#names.call) {
      const call = this.unwrapCall(tool, args)!;
      if ('isError' in call) return { action: 'answer', tool, cold: false, revealed: false, notify: false, issues: [], result: call as CallToolErrorResult };
      const d = this.onCall(call.name, call.arguments);
      return d.action === 'answer' ? d : { ...d, call };
    }
    if (index === undefined && tool !== '') {
      // The server's name of a renamed tool: the same tool, whose schema the server will apply.
      const served = this.#servedName(tool);
      if (served !== undefined) {
        index = this.#byName.get(served);
        tool = served;
      }
    }
    if (index === undefined || this.isHot(tool)) {
      if (index !== undefined) this.#usage?.record(tool);
      return { action: 'forward', tool, cold: false, revealed: false, notify: false };
    }
    const full = this.#full[index]!;
    const real = this.#original.get(this.#serverNames.get(tool) ?? tool) ?? full;
    // A name the server lists more than once: which of those tools a call runs is the server's choice, so no
    // one schema decides (checked against the first, a call right for another was refused).
    const times = this.#listedTwice.get(tool);
    const check: ArgumentCheck = times === undefined ? this.#validator.check(real, serverArgs) : { status: 'unchecked', reason: `the server lists ${times} tools named \`${tool}\`; which one a call runs is the server's choice` };
    const revealed = this.reveal === 'list-changed' && this.#makeHot(tool);
    const notify = revealed && this.listChanged;
    if (check.status !== 'invalid') {
      this.#usage?.record(tool);
      return { action: 'forward', tool, cold: true, revealed, notify, check };
    }
    return { action: 'answer', tool, cold: true, revealed, notify, issues: check.issues, result: invalidArgumentsResult(tool, full, check.issues, check.omitted, revealed) };
  }

  /**
   * With `search`, a `toolslim_call_tool` call's inner call (the found tool's name and arguments), or the
   * error result to answer it with (no such tool, arguments not an object); undefined for any other call.
   * A proxy forwards the inner call (after {@link ToolSession.onCall} of it), never the wrapper.
   */
  unwrapCall(name: unknown, args: unknown): { readonly name: string; readonly arguments: unknown } | CallToolErrorResult | undefined {
    if (!this.#search || name !== this.#names.call || this.#byName.has(this.#names.call)) return undefined;
    const call = unwrapCall(args, (n) => this.#byName.has(n) || this.#servedName(n) !== undefined, this.#names) as { name: string; arguments: unknown } | CallToolErrorResult;
    // The server's name of a renamed tool (as a direct call may use it): the inner call is the served tool's.
    return 'isError' in call || this.#byName.has(call.name) ? call : { name: this.#servedName(call.name)!, arguments: call.arguments };
  }

  /** The served name of the tool the server names `server` (a tool a profile renamed), if the list has it. */
  #servedName(server: string): string | undefined {
    for (const [served, name] of this.#serverNames) if (name === server && this.#byName.has(served)) return served;
    return undefined;
  }

  /**
   * Makes `name` hot from now on (whatever the reveal mode). Returns true when the served list changed;
   * tell the client (`notifications/tools/list_changed`) if {@link ToolSession.listChanged}.
   */
  revealTool(name: string): boolean {
    if (typeof name !== 'string') throw new ToolslimError('invalid-option', `ToolSession.revealTool: expected a tool name, got ${describeValue(name)}`);
    return this.#makeHot(name);
  }

  /**
   * The server's list changed (after its `notifications/tools/list_changed`): serve `list` from now on,
   * with the same hot names (those still listed; the hot set is not ranked again, so the bytes of tools
   * that did not change stay the same). Returns true when the served text changed. `serverNames`, when
   * given, replaces the served name → server name map (see {@link ToolSessionOptions.serverNames}).
   */
  update(list: ListToolsResult | readonly McpTool[], original?: ListToolsResult | readonly McpTool[], serverNames?: ReadonlyMap<string, string>): boolean {
    const before = this.#text;
    if (serverNames !== undefined) this.#serverNames = serverNames;
    this.#load(list, original);
    this.#rebuild();
    if (this.#text === before) return false;
    this.#version++;
    return true;
  }

  /** `name`'s definition size as served now and as the server sent it; undefined for a tool not listed. */
  definitionBytes(name: string): DefinitionBytes | undefined {
    const index = this.#byName.get(name);
    if (index === undefined) return undefined;
    let size = this.#sizes.get(name);
    if (!size) {
      const original = this.#original.get(this.#serverNames.get(name) ?? name) ?? this.#full[index]!;
      const served = this.#search ? (this.isHot(name) ? this.#served.find((t) => t.name === name) : undefined) : this.#served[index];
      size = { served: served === undefined ? 0 : utf8Length(stringifyJson(served)), original: utf8Length(stringifyJson(original)) };
      this.#sizes.set(name, size);
    }
    return size;
  }

  #makeHot(name: string): boolean {
    if (!this.#compress || this.#hot.has(name) || !this.#byName.has(name)) return false;
    this.#hot.add(name);
    const before = this.#text;
    this.#rebuild();
    if (this.#text === before) return false;
    this.#version++;
    return true;
  }

  #load(list: ListToolsResult | readonly McpTool[], original: ListToolsResult | readonly McpTool[] | undefined): void {
    let located: ReturnType<typeof locateTools>;
    try {
      located = locateTools(list);
    } catch (e) {
      throw new ToolslimError('invalid-input', `ToolSession: \`list\`: ${(e as Error).message}`, { cause: e });
    }
    if (located.envelope !== 'array' && located.envelope !== 'list-result') throw new ToolslimError('invalid-input', 'ToolSession: `list` must be a tools array or a ListToolsResult');
    const byName = new Map<string, number>();
    const twice = new Map<string, number>();
    for (const [i, t] of located.tools.entries()) {
      if (!isObject(t) || typeof t.name !== 'string') continue;
      if (!byName.has(t.name)) byName.set(t.name, i);
      else twice.set(t.name, (twice.get(t.name) ?? 1) + 1);
    }
    const originals = new Map<string, McpTool>();
    if (original !== undefined) {
      let tools: readonly unknown[];
      try {
        tools = locateTools(original).tools;
      } catch (e) {
        throw new ToolslimError('invalid-input', `ToolSession: \`original\`: ${(e as Error).message}`, { cause: e });
      }
      for (const t of tools) if (isObject(t) && typeof t.name === 'string' && !originals.has(t.name)) originals.set(t.name, t as McpTool);
    }
    this.#located = located;
    this.#full = located.tools as readonly McpTool[];
    // With `search`, a tool that runs only as a task is hot from the list on: the call tool cannot carry a task
    // (`params.task` is the outer call's), so through it the server would refuse every call of it; listed in
    // full, the client sees its `execution` and calls it so.
    if (this.#search) for (const [name, i] of byName) if (runsOnlyAsTask(located.tools[i])) this.#hot.add(name);
    this.#byName = byName;
    this.#listedTwice = twice;
    this.#original = originals;
  }

  #searchIndex(): { index: ToolSearchIndex; size: number } {
    if (this.#index?.version !== this.#version) {
      const cold = this.#full.filter((t) => isObject(t) && typeof t.name === 'string' && !this.isHot(t.name));
      this.#index = { version: this.#version, index: new ToolSearchIndex(cold), size: cold.length };
    }
    return this.#index;
  }

  #rebuild(): void {
    if (this.#search) {
      for (const own of [this.#names.search, this.#names.call]) if (this.#byName.has(own)) throw new ToolslimError('invalid-input', `ToolSession: the server has a tool named \`${own}\`, which the search mode serves itself; serve a hot set without \`search\`, or give another \`searchPrefix\``);
      const named = (t: McpTool) => isObject(t) && typeof t.name === 'string';
      const cold = this.#listNames ? this.#full.filter((t) => named(t) && !this.#hot.has(t.name)).map((t) => t.name) : undefined;
      // The hot tools as a hot set serves them (the shared preamble said once, where the list puts it).
      const hot = buildServedTools(this.#full, this.#hot, this.#cold, this.#preamble).filter((t) => named(t) && this.#hot.has(t.name));
      this.#served = [...hot, ...searchTools(cold, this.#names)];
    } else this.#served = this.#compress ? buildServedTools(this.#full, this.#hot, this.#cold, this.#preamble) : this.#full.slice();
    this.#index = undefined;
    // Iterative for tools too deep for JSON.stringify (the pipeline passes them through unchanged).
    this.#text = stringifyForCaller(this.result, 'ToolSession', 'the served list');
    this.#sizes = new Map();
  }
}

/** Throws a clear error for unusable hot-set options (shared by the session, the proxy and the hook). */
export function checkHotSetOptions(hotSet: HotSetOptions, where: string): void {
  if (!isOptionsObject(hotSet)) throw new ToolslimError('invalid-option', `${where}: \`hotSet\` must be an object like { k: 5 }, got ${describeValue(hotSet)}`);
  const known = ['k', 'graph', 'policy', 'minCallsPerSession', 'reveal', 'cold', 'preamble', 'search', 'searchPrefix'];
  for (const key of Object.keys(hotSet)) if (!known.includes(key)) throw new ToolslimError('invalid-option', `${where}: unknown hot-set option \`${key}\` (known: ${known.join(', ')})`);
  if (hotSet.k !== undefined && (!Number.isSafeInteger(hotSet.k) || hotSet.k < 0)) throw new ToolslimError('invalid-option', `${where}: \`hotSet.k\` must be a non-negative integer, got ${describeValue(hotSet.k)}`);
  checkOptions({ graph: hotSet.graph, policy: hotSet.policy, minCallsPerSession: hotSet.minCallsPerSession }, `${where}: hotSet`);
  if (hotSet.reveal !== undefined && !REVEAL_MODES.includes(hotSet.reveal)) throw new ToolslimError('invalid-option', `${where}: \`hotSet.reveal\` must be one of ${REVEAL_MODES.map((m) => `'${m}'`).join(', ')}, got ${describeValue(hotSet.reveal)}`);
  if (hotSet.cold !== undefined) checkColdForm(hotSet.cold, `${where}: hotSet`);
  if (hotSet.search !== undefined && typeof hotSet.search !== 'boolean' && hotSet.search !== 'names') throw new ToolslimError('invalid-option', `${where}: \`hotSet.search\` must be true, false or 'names', got ${describeValue(hotSet.search)}`);
  if (hotSet.searchPrefix !== undefined) searchToolNames(hotSet.searchPrefix, `${where}: \`hotSet.searchPrefix\``);
  if (hotSet.preamble !== undefined) checkPreamble(hotSet.preamble, hotSet.cold ?? DEFAULT_HOT_SET.cold, `${where}: hotSet`);
}

/**
 * The answer to a cold call whose arguments do not match: `isError: true` and one text naming each
 * problem (its pointer in the arguments, when not the arguments object itself, and ajv's message) and
 * carrying the tool's full input schema — the schema of the list as served hot (the pipeline's output),
 * compact JSON — so the model can call again correctly in the same turn. Deterministic text, in as few
 * words as say that: the model reads it as the call's result, after the call that named the tool, and it
 * stays in the conversation (re-read on every later request) for the rest of the session.
 */
export function invalidArgumentsResult(tool: string, full: Pick<McpTool, 'inputSchema'>, issues: readonly ArgumentIssue[], omitted = 0, revealed = false): CallToolErrorResult {
  const lines = [`toolslim did not call \`${tool}\`: invalid arguments.`];
  for (const issue of issues) lines.push(`- ${issue.path === '' ? '' : '`' + issue.path + '`: '}${issue.message}`);
  if (omitted > 0) lines.push(`- … and ${omitted} more`);
  lines.push(`Input schema: ${stringifyForCaller(full.inputSchema ?? null, 'invalidArgumentsResult', 'the input schema')}`);
  lines.push(revealed ? 'Its full definition is now in the tool list. Call it again with matching arguments.' : 'Call it again with matching arguments.');
  return { content: [{ type: 'text', text: lines.join('\n') }], isError: true };
}

/** Whether a tool says it runs only as a task (MCP's `execution.taskSupport: "required"`). */
function runsOnlyAsTask(tool: unknown): boolean {
  if (!isObject(tool) || !hasOwn(tool, 'execution')) return false;
  const execution = tool.execution;
  return isObject(execution) && hasOwn(execution, 'taskSupport') && execution.taskSupport === 'required';
}
