/**
 * The proxy's session wiring: the prepared list served through a {@link ToolSession} (a hot set chosen
 * once, cold tools compressed, the served text the same bytes from one tools/list to the next), its
 * decisions on each `tools/call`, and what the calls that pass through are told to (the usage file, the
 * stats file). The library decides; this module only connects it to the router's hooks.
 */
import { oneLine } from '../../core/safe-text.js';
import { isObject } from '../../json/guards.js';
import { renameInAnswer } from '../../session/call-map.js';
import { formatStatsLine, ToolSession, type CallStats, type HotSetOptions, type UsageRecorder } from '../../session/index.js';
import { missingCacheHints } from '../../session/cache-hints.js';
import { chooseServing, defersSchemas, SEARCH_MIN_TOOLS, searchMode, searchToolNames, serverToolPrefix } from '../../session/tool-search.js';
import { memberSpans, setMember, withoutMembers } from './json-text.js';
import { Refusal, type CallDecision, type CallInfo, type ListHooks, type ServedList } from './hooks.js';
import type { ProxyResponses } from './responses.js';
import type { OptimizingHooks, PreparedList } from './served.js';
import { DEFAULT_LIMITS, overCap } from './limits.js';

/** Options of {@link sessionHooks}. */
export interface SessionHooksOptions {
  /** Serve a hot set (`--hot-set`, `--reveal`); without it every tool is served as prepared. */
  readonly hotSet?: HotSetOptions;
  /**
   * Neither `--hot-set`, `--search` nor `--full`: pick by the first list's size and the profile
   * (`chooseServing`) — these hot-set options with a keyword search from `SEARCH_MIN_TOOLS` tools on, with
   * the names from `NAMES_MIN_BYTES` bytes below that, else (and for a client that defers schemas itself,
   * at any size) the whole list — and say so on stderr (the whole-list choice only with `verbose` or a
   * profile). The choice holds for the whole run.
   */
  readonly auto?: { readonly hotSet: HotSetOptions; readonly verbose?: boolean };
  /**
   * `--search-prefix`: the search mode's tools are `<prefix>search_tools` and `<prefix>call_tool`; without
   * it the prefix comes from the server's name (`serverToolPrefix` of its `serverInfo.name`).
   */
  readonly searchPrefix?: string;
  /** `--profile`: a client that defers schemas itself (claude-code) is served every tool in full by default. */
  readonly profile?: string;
  /** Told each call that reaches the server (`--usage`); `flush` is called now and then and at the end. */
  readonly usage?: UsageRecorder & { flush?(): void; tryFlush?(): boolean; readonly pending?: number; readonly file?: string };
  /** Told one stats line per `tools/call` (`--stats`). */
  readonly stats?: (line: string) => void;
  /** Response policies (`--project`, `--response-budget`, the overlay's `responses`). */
  readonly responses?: ProxyResponses;
  /** The result cap (`--max-result-bytes`; default DEFAULT_LIMITS.result): a longer tools/call answer becomes an error naming it. */
  readonly maxResultBytes?: number;
  readonly log: (line: string) => void;
}

/** `inner`'s hooks (the prepared list), served through one ToolSession per proxy run. */
export function sessionHooks(inner: OptimizingHooks, options: SessionHooksOptions): ListHooks & { readonly session: ToolSession | undefined } {
  let listChanged = false;
  let session: ToolSession | undefined;
  let current: PreparedList | undefined;
  /** The list served last (with or without a session): how its calls reach the server. */
  let latest: PreparedList | undefined;
  let cache: { version: number; list: PreparedList; text: string } | undefined;
  let flushTimer: NodeJS.Timeout | undefined;
  // The router keeps this object and reads `resultText` for each answer: a reveal shows at once.
  const served: ServedList = {
    get resultText() {
      const s = session!;
      const list = current!;
      if (cache?.version !== s.version || cache.list !== list) cache = { version: s.version, list, text: withHints(list.render(responses?.serve(s.tools, serverName) ?? s.tools), list.served) };
      return cache.text;
    },
  };
  const responses = options.responses?.pager ? options.responses : undefined;
  const serverName = (name: string) => latest?.calls?.serverName(name) ?? name;
  let hotSet = options.hotSet;
  let chosen = false;
  /** The protocol version the server's initialize result named (the negotiated one). */
  let protocolVersion: unknown;
  /** The search mode's tool prefix: `--search-prefix`, else from the server's name in its initialize result. */
  let searchPrefix = options.searchPrefix;
  /** SEP-2549: the cache hints the served result lacks, added when the session's version has them. */
  const withHints = (text: string, result: unknown): string => {
    let out = text;
    for (const [key, value] of Object.entries(missingCacheHints(protocolVersion, result))) out = setMember(out, key, JSON.stringify(value));
    return out;
  };
  let wanted = options.hotSet !== undefined || options.usage !== undefined || options.stats !== undefined || responses !== undefined;
  /** Busy flushes in a row (another live process held the lock): the next try waits longer, up to 30 s. */
  let busy = 0;
  /**
   * Writes the usage file. While the session runs it never waits for a lock (a held one is tried again
   * later); `last` (the session's end) waits for it, as long as the store's lock timeout allows: another
   * proxy holds it for milliseconds, and two proxies ending together must not lose each other's calls.
   * What still cannot be written then is said on stderr.
   */
  const flush = (last = false) => {
    clearTimeout(flushTimer);
    flushTimer = undefined;
    const usage = options.usage;
    try {
      if (usage?.tryFlush === undefined || (last && usage.flush !== undefined)) usage?.flush?.();
      else if (usage.tryFlush()) busy = 0;
      else {
        flushTimer = setTimeout(flush, Math.min(1000 * 2 ** ++busy, 30_000));
        flushTimer.unref?.();
      }
    } catch (e) {
      const left = usage?.pending;
      options.log(last ? `${(e as Error).message}${left === undefined ? '' : `; ${left} recorded calls were not written`}` : `${(e as Error).message} (the calls stay recorded in memory and are written on the next try)`);
    }
  };
  const recordStats = (stats: CallStats) => {
    if (!options.stats) return;
    try {
      options.stats(formatStatsLine(stats));
    } catch (e) {
      options.log(`--stats: ${(e as Error).message}`);
    }
  };
  /** The call as the server gets it: a toolslim_call_tool call's inner call. */
  const clientCall = (params: unknown): unknown => {
    const inner = isObject(params) ? session?.unwrapCall(params.name, params.arguments) : undefined;
    return inner === undefined || 'isError' in inner ? params : { name: inner.name, arguments: inner.arguments };
  };
  const definition = (tool: string) => session?.definitionBytes(tool) ?? { served: 0, original: 0 };

  return {
    prefetch: inner.prefetch,
    prefetchWhy: inner.prefetchWhy,
    get session() {
      return session;
    },
    initialized(result) {
      inner.initialized?.(result);
      protocolVersion = result.protocolVersion;
      if (options.searchPrefix === undefined) searchPrefix = serverToolPrefix(isObject(result.serverInfo) ? result.serverInfo.name : undefined);
      const caps = result.capabilities;
      const tools = typeof caps === 'object' && caps !== null ? (caps as { tools?: unknown }).tools : undefined;
      listChanged = typeof tools === 'object' && tools !== null && (tools as { listChanged?: unknown }).listChanged === true;
    },
    serve(raw, when) {
      const out = inner.serve(raw, when);
      latest = out;
      responses?.learn(raw.merged.tools);
      if (!chosen) {
        chosen = true;
        const tools = (out.served as { tools?: unknown }).tools;
        const listed = Array.isArray(tools) ? tools : [];
        // A server tool named like one of the search mode's own: that mode cannot serve this list.
        const names = searchToolNames(searchPrefix ?? 'toolslim_');
        const clash = [names.search, names.call].find((own) => listed.some((t) => isObject(t) && t.name === own));
        if (options.auto) {
          const choice = chooseServing(listed, { names, ...(options.profile === undefined ? {} : { client: options.profile }) });
          const searching = choice.mode !== 'full';
          if (searching && clash !== undefined) options.log(`${listed.length} tools, but the server has a tool named \`${clash}\`, which the search mode serves itself: serving every tool (--search-prefix gives the search tools other names)`);
          else if (searching || options.auto.verbose || options.profile !== undefined) options.log(choice.why);
          if (searching && clash === undefined) (hotSet = { ...options.auto.hotSet, search: choice.mode === 'names' ? 'names' : true, searchPrefix: searchPrefix ?? 'toolslim_' }), (wanted = true);
        } else {
          if (hotSet?.search) {
            if (clash !== undefined) throw new Refusal(`--search: the server has a tool named \`${clash}\`, which the search mode serves itself; use --hot-set, or --search-prefix for other names`);
            hotSet = { ...hotSet, search: searchMode(listed.length), searchPrefix: searchPrefix ?? 'toolslim_' };
            options.log(`--search: serving the hot set beside ${names.search}${hotSet.search === 'names' ? `, whose description lists the other tools' names (${listed.length} tools, < ${SEARCH_MIN_TOOLS})` : ''}; the other tools are found by search and their calls checked against their real schema`);
          }
          // Told explicitly: served as told, but a client that defers schemas pays more for it.
          if (hotSet !== undefined && options.profile !== undefined && defersSchemas(options.profile)) options.log(`--profile ${options.profile} defers schemas itself: ${hotSet.search ? '--search adds a search round trip to its own load' : '--hot-set serves stubs it would load in full anyway'}; without ${hotSet.search ? '--search' : '--hot-set'} the proxy serves every tool in full, what that client pays least for`);
        }
      }
      if (!wanted) {
        const text = withHints(out.resultText, out.served);
        return text === out.resultText ? out : { ...out, resultText: text };
      }
      current = out;
      if (session === undefined) {
        session = new ToolSession({ list: out.served as never, original: raw.merged as never, listChanged, serverNames: new Map(out.calls?.renames ?? []), ...(hotSet ? { hotSet } : {}), ...(options.usage ? { usage: options.usage } : {}) });
      } else session.update(out.served as never, raw.merged as never, new Map(out.calls?.renames ?? []));
      return served;
    },
    instructions: () => inner.instructions?.(),
    changed: () => inner.changed?.() ?? false,
    call(params, requestBytes, paramsText): CallDecision {
      if (typeof params !== 'object' || params === null) return { forward: true };
      // --search: a call through toolslim_call_tool is the found tool's call from here on (checked, mapped, paged).
      const inner = session?.unwrapCall((params as { name?: unknown }).name, (params as { arguments?: unknown }).arguments);
      if (inner !== undefined && 'isError' in inner) return { forward: false, resultText: JSON.stringify(inner) };
      const unwrapped = inner !== undefined;
      if (inner !== undefined) {
        params = { name: inner.name, arguments: inner.arguments };
        paramsText = paramsText === undefined ? JSON.stringify(params) : innerCallText(paramsText, inner.name);
      }
      const p0 = params as { name?: unknown; arguments?: unknown };
      // A paged tool: a later page is answered from the stored result; the paging argument never reaches the server.
      const paging = responses && typeof p0.name === 'string' ? responses.call(serverName(p0.name), p0.arguments) : undefined;
      if (paging && 'answer' in paging) {
        const bytes = definition(p0.name as string);
        recordStats({ tool: p0.name as string, requestBytes, resultBytes: paging.stats.resultBytes!, servedBytes: bytes.served, originalBytes: bytes.original, ms: 0, answered: true, ...(paging.stats.error ? { error: true } : {}), ...(paging.stats.page !== undefined ? { page: paging.stats.page, pages: paging.stats.pages } : {}) });
        return { forward: false, resultText: paging.answer };
      }
      const strip = paging?.strip;
      const p = strip === undefined ? p0 : { ...p0, arguments: paging!.args };
      // Renamed tools and openai-strict's nulls: the server gets its own name, and "absent" for those nulls.
      const mapped = latest?.calls?.toServer(p.name, p.arguments);
      const forwarded = (listChanged?: boolean): CallDecision => {
        const base = listChanged === undefined ? { forward: true as const } : { forward: true as const, listChanged };
        if ((mapped === undefined && strip === undefined && !unwrapped) || paramsText === undefined) return base;
        let text = mapped === undefined ? paramsText : setMember(paramsText, 'name', JSON.stringify(mapped.name));
        const removed = [...(mapped?.removed ?? []), ...(strip === undefined ? [] : [[strip]])];
        const span = memberSpans(text).get('arguments');
        if (span !== undefined && removed.length > 0) text = text.slice(0, span.start) + withoutMembers(text, span, removed) + text.slice(span.end);
        return { ...base, paramsText: text };
      };
      // A call before the first tools/list: the session (its cold checks, its usage counts) needs the list.
      if (session === undefined) return wanted ? { forward: false, wait: true } : forwarded();
      const bytes = definition(typeof p.name === 'string' ? p.name : '');
      const d = session.onCall(p.name, p.arguments, mapped === undefined ? p.arguments : mapped.arguments);
      if (d.revealed) options.log(`revealed \`${oneLine(d.tool)}\`: its full definition is served from now on${d.notify ? ' (notifications/tools/list_changed sent)' : ' (the server declared no tools.listChanged: the client sees it on its next tools/list)'}`);
      if (d.action === 'answer') {
        const resultText = JSON.stringify(d.result);
        recordStats({ tool: d.tool, requestBytes, resultBytes: Buffer.byteLength(resultText), servedBytes: bytes.served, originalBytes: bytes.original, ms: 0, answered: true, ...(d.result.isError === true ? { error: true } : {}) });
        return { forward: false, resultText, ...(d.notify ? { listChanged: true } : {}) };
      }
      if (options.usage && flushTimer === undefined) {
        flushTimer = setTimeout(flush, 1000);
        flushTimer.unref?.();
      }
      return forwarded(d.notify);
    },
    answer(params0, responseText, parsed) {
      const params = clientCall(params0);
      const maxResult = options.maxResultBytes ?? DEFAULT_LIMITS.result;
      if (responseText.length > maxResult / 3 && Buffer.byteLength(responseText, 'utf8') > maxResult) {
        const name = isObject(params) && typeof params.name === 'string' ? `\`${oneLine(params.name)}\`` : 'a tool';
        const message = `${overCap(`the answer of ${name}`, 'result', maxResult, Buffer.byteLength(responseText, 'utf8'))}; the client gets this error instead`;
        options.log(message);
        const id = memberSpans(responseText).get('id');
        return `{"jsonrpc":"2.0","id":${id === undefined ? 'null' : responseText.slice(id.start, id.end)},"error":${JSON.stringify({ code: -32000, message: `toolslim proxy: ${message}` })}}`;
      }
      const client = isObject(params) && typeof params.name === 'string' ? params.name : undefined;
      // A covered result: its projection or page (never an error result, so no renaming below is needed).
      const policy = client === undefined ? undefined : responses?.answer(serverName(client), (params as { arguments?: unknown }).arguments, responseText, parsed, options.stats !== undefined);
      if (policy !== undefined) return policy;
      // A renamed tool's errors name it as the client knows it.
      const server = client === undefined ? undefined : latest?.calls?.serverName(client);
      if (client === undefined || server === undefined || server === client) return undefined;
      const swapped = renameInAnswer(parsed, server, client);
      if (swapped === undefined) return undefined;
      return 'error' in swapped ? setMember(responseText, 'error', JSON.stringify(swapped.error)) : setMember(responseText, 'result', JSON.stringify(swapped.result));
    },
    called(info: CallInfo, responseText: string, parsed: Record<string, unknown>) {
      if (!options.stats) return;
      const params = clientCall(info.params) as { name?: unknown } | undefined;
      const tool = typeof params?.name === 'string' ? params.name : '';
      const bytes = definition(tool);
      const result = parsed.result as { isError?: unknown } | undefined;
      const error = Object.prototype.hasOwnProperty.call(parsed, 'error') || result?.isError === true;
      const { resultBytes, error: pageError, ...policy } = responses?.statsOf(parsed) ?? {};
      const upstream = memberBytes(responseText);
      const extra = resultBytes === undefined ? policy : { ...policy, upstreamBytes: upstream };
      recordStats({ tool, requestBytes: info.requestBytes, resultBytes: resultBytes ?? upstream, servedBytes: bytes.served, originalBytes: bytes.original, ms: Math.round((performance.now() - info.started) * 10) / 10, ...(error || pageError ? { error: true } : {}), ...extra });
    },
    close() {
      inner.close?.();
      flush(true);
    },
  };
}

/** Bytes (UTF-8) of the `result` (or `error`) member as it came, without the JSON-RPC envelope. */
function memberBytes(responseText: string): number {
  const spans = memberSpans(responseText);
  const span = spans.get('result') ?? spans.get('error');
  return span === undefined ? 0 : Buffer.byteLength(responseText.slice(span.start, span.end), 'utf8');
}

/**
 * The `params` text of a found tool's call, from a `toolslim_call_tool` call's: its name, its `arguments`
 * text as the client wrote it (numbers and key order kept), and the wrapper's `_meta` (progress tokens).
 */
function innerCallText(paramsText: string, name: string): string {
  const outer = memberSpans(paramsText);
  const argsSpan = outer.get('arguments');
  const args = argsSpan === undefined ? undefined : memberSpans(paramsText, argsSpan).get('arguments');
  const meta = outer.get('_meta');
  let text = `{"name":${JSON.stringify(name)}`;
  if (args !== undefined) text += `,"arguments":${paramsText.slice(args.start, args.end)}`;
  if (meta !== undefined) text += `,"_meta":${paramsText.slice(meta.start, meta.end)}`;
  return text + '}';
}
