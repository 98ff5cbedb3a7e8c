/**
 * The proxy's session wiring: the optimized list served through a {@link ToolSession} (a hot set chosen
 * once, cold tools compressed, the served text the same bytes from one tools/list to the next), its
 * decisions on each `tools/call`, and what the calls that pass through are told to (usage, stats).
 * The library decides; this module only connects it to the router's hooks.
 */
import { ToolSession, type HotSetOptions, type UsageRecorder } from '../../session/index.js';
import { memberSpans } from './json-text.js';
import type { CallDecision, CallInfo, ListHooks, ServedList } from './router.js';
import { changedTools, renderListResult } from '../output.js';
import type { OptimizedList, OptimizingHooks } from './served.js';

/** Options of {@link sessionHooks}. */
export interface SessionHooksOptions {
  /** Serve a hot set (`--hot-set`, `--reveal`); without it every tool is served as optimized. */
  readonly hotSet?: HotSetOptions;
  /** Told each call that reaches the server (`--usage`). */
  readonly usage?: UsageRecorder;
  /** Told each `tools/call` answered by the server (`--stats`). */
  readonly onCall?: (call: CallRecord) => void;
  readonly log: (line: string) => void;
}

/** One `tools/call` that went through, for the stats line. */
export interface CallRecord {
  readonly tool: string;
  readonly requestBytes: number;
  readonly resultBytes: number;
  /** The tool's definition, as served and as the server sent it (bytes of compact JSON), when it is listed. */
  readonly definition: { readonly served: number; readonly original: number } | undefined;
  readonly ms: number;
  /** The result had `isError: true`. */
  readonly isError: boolean;
}

/** `inner`'s hooks (the optimized list), served through one ToolSession per proxy run. */
export function sessionHooks(inner: OptimizingHooks, options: SessionHooksOptions): ListHooks & { readonly session: ToolSession | undefined } {
  let listChanged = false;
  let session: ToolSession | undefined;
  let current: OptimizedList | undefined;
  let cache: { version: number; list: OptimizedList; text: string } | undefined;
  // The router keeps this object and reads `resultText` for each answer: a reveal shows at once.
  const served: ServedList = {
    get resultText() {
      const s = session!;
      const list = current!;
      if (cache?.version !== s.version || cache.list !== list) cache = { version: s.version, list, text: sessionText(s, list) };
      return cache.text;
    },
  };
  const wanted = options.hotSet !== undefined || options.usage !== undefined || options.onCall !== undefined;

  return {
    prefetch: inner.prefetch,
    prefetchWhy: inner.prefetchWhy,
    get session() {
      return session;
    },
    initialized(result) {
      inner.initialized?.(result);
      const caps = result.capabilities;
      const tools = typeof caps === 'object' && caps !== null ? (caps as { tools?: unknown }).tools : undefined;
      listChanged = typeof tools === 'object' && tools !== null && (tools as { listChanged?: unknown }).listChanged === true;
    },
    serve(raw, when) {
      const out = inner.serve(raw, when);
      if (!wanted) return out;
      current = out;
      const list = (out.result?.output ?? raw.merged) as never;
      if (session === undefined) session = new ToolSession({ list, original: raw.merged as never, listChanged, ...(options.hotSet ? { hotSet: options.hotSet } : {}), ...(options.usage ? { usage: options.usage } : {}) });
      else session.update(list, raw.merged as never);
      return served;
    },
    instructions: () => inner.instructions?.(),
    changed: () => inner.changed?.() ?? false,
    call(params): CallDecision {
      if (session === undefined || typeof params !== 'object' || params === null) return { forward: true };
      const p = params as { name?: unknown; arguments?: unknown };
      const d = session.onCall(p.name, p.arguments);
      if (d.revealed) options.log(`revealed \`${d.tool}\`: its full definition is served from now on${d.notify ? ' (notifications/tools/list_changed sent)' : ' (the server declared no tools.listChanged: the client sees it on its next tools/list)'}`);
      if (d.action === 'answer') return { forward: false, resultText: JSON.stringify(d.result) };
      return { forward: true, listChanged: d.notify };
    },
    called(info: CallInfo, responseText: string, parsed: Record<string, unknown>) {
      if (!options.onCall) return;
      const params = info.params as { name?: unknown } | undefined;
      const tool = typeof params?.name === 'string' ? params.name : '';
      const result = parsed.result as { isError?: unknown } | undefined;
      options.onCall({
        tool,
        requestBytes: info.requestBytes,
        resultBytes: resultBytes(responseText),
        definition: session?.definitionBytes(tool),
        ms: Math.round((performance.now() - info.started) * 10) / 10,
        isError: result?.isError === true,
      });
    },
  };
}

/**
 * The session's served text with every tool that is served exactly as the server sent it (hot, and no step
 * changed it) as its received bytes; the session's own text when the pages could not be followed.
 * Deterministic in the session's state, so the same from one tools/list to the next.
 */
function sessionText(session: ToolSession, list: OptimizedList): string {
  const { sources, result } = list;
  const tools = session.tools;
  if (!sources || !result || tools.length !== result.tools.length) return session.text;
  const rewritten = changedTools(result);
  const changes: { toolIndex: number }[] = [];
  for (let i = 0; i < tools.length; i++) if (rewritten.has(i) || tools[i] !== result.tools[i]) changes.push({ toolIndex: i });
  return renderListResult(sources, { ...result, tools: tools as never, report: { ...result.report, changes: changes as never } });
}

/** Bytes (UTF-8) of the `result` member as it came, without the JSON-RPC envelope. */
function resultBytes(responseText: string): number {
  const span = memberSpans(responseText).get('result');
  return span === undefined ? 0 : Buffer.byteLength(responseText.slice(span.start, span.end), 'utf8');
}
