/**
 * `proxy --overlay overlay.json`: serve a reviewed overlay (written by `toolslim optimize --overlay`)
 * instead of optimizing live. When the server's `initialize` result arrives, and after every
 * `notifications/tools/list_changed`, the live list is fetched and compared with the overlay's pin
 * (session library: `findDrift`). On any difference `--on-drift refuse` (the default) stops the proxy
 * (status 1, a message naming each changed tool and the command that rebuilds the overlay);
 * `reoptimize` serves the live list through the overlay's steps; `passthrough` serves the server's list
 * as it came. Both say so on stderr.
 */
import { resolveSteps, transformTools } from '../../api.js';
import { jsonEqual } from '../../json/equal.js';
import { CallMap } from '../../session/call-map.js';
import { unreadableLine } from '../../session/serve.js';
import type { McpTool } from '../../core/tool.js';
import type { Step } from '../../core/transform.js';
import { oneLine } from '../../core/safe-text.js';
import { COMPACT_STYLE, restyleJson, scanToolsSource } from '../../json/source.js';
import { stringifyJson } from '../../json/stringify.js';
import { findDrift } from '../../session/overlay-drift.js';
import type { Overlay } from '../../session/overlay.js';
import { memberSpans } from './json-text.js';
import { Refusal, type RawList } from './hooks.js';
import { prepare, type OptimizingHooks, type PreparedList } from './served.js';
import { shellWord } from './upstream.js';

/** What the proxy does when the live list differs from the overlay's pin. */
export type OnDrift = 'refuse' | 'reoptimize' | 'passthrough';

/** Options of {@link overlayHooks}. */
export interface OverlayHooksOptions {
  readonly overlay: Overlay;
  /** The overlay file's text (its tools are served as written there, compacted). */
  readonly text: string;
  /** Its path, for messages. */
  readonly file: string;
  readonly onDrift: OnDrift;
  /** `--drop-unreadable`, for `reoptimize`. */
  readonly dropUnreadable?: boolean;
  readonly verbose?: boolean;
  readonly log: (line: string) => void;
  /** How this proxy reaches its server, as shell words (`-- node server.js`, `--url …`), redacted. */
  readonly liveSource?: string;
  /** The command that rebuilds this overlay from this proxy's server, redacted (never the file's own `rebuild`). */
  readonly rebuild?: string;
}

export function overlayHooks(options: OverlayHooksOptions): OptimizingHooks {
  const { overlay, file, onDrift, log } = options;
  const steps: Step[] = resolveSteps(overlay.steps.map((s) => [s.transform, s.options] as const));
  const toolTexts = overlayToolTexts(options.text, overlay);
  const rebuild = options.rebuild ?? `toolslim optimize --overlay ${shellWord(file)} --preset … ${options.liveSource ?? '-- <server command>'}`;
  /** What the client's initialize result got ('' when answered without any); undefined before. */
  let delivered: string | undefined;
  let said = '';

  const say = (line: string) => {
    if (line !== said) log(line);
    said = line;
  };

  let calls: { map: CallMap | undefined } | undefined;
  const fromOverlay = (raw: RawList): PreparedList => {
    const served = { ...raw.merged, tools: overlay.tools as McpTool[] };
    const render = (tools: readonly McpTool[]) => withTools(raw, tools.map((t, i) => (t === overlay.tools[i] ? toolTexts[i]! : stringifyJson(t))));
    calls ??= { map: overlayCalls(raw, steps, overlay, file, log) };
    return { resultText: render(overlay.tools), served, raw, render, ...(calls.map ? { calls: calls.map } : {}) };
  };

  return {
    prefetch: true,
    prefetchWhy: `to compare the server's tools with ${file} before the client sees them`,
    initialized(result) {
      delivered = '';
      const live = (result.serverInfo ?? {}) as { name?: unknown; version?: unknown };
      const made = overlay.server;
      if (made?.name !== undefined && typeof live.name === 'string' && live.name !== made.name) {
        // The overlay's own rebuild command points at the server it was made from; name this one.
        throw new Refusal(`${file} was made for the server \`${oneLine(String(made.name))}\`${made.version ? ` ${oneLine(String(made.version))}` : ''}, and this server is \`${oneLine(String(live.name))}\`${typeof live.version === 'string' ? ` ${oneLine(live.version)}` : ''}: it is another server's overlay; build one for this server: ${rebuild}`);
      }
    },
    serve(raw, when) {
      const drift = findDrift(overlay, raw.merged.tools as unknown[], { file, rebuild });
      if (!drift.drifted) {
        if (when === 'initialize') delivered = overlay.instructions ?? '';
        say('');
        const list = fromOverlay(raw);
        if (when !== 'initialize' && delivered !== undefined && overlay.instructions !== undefined && overlay.instructions !== delivered) {
          // The session started drifted (reoptimized or passed through): the overlay's text cannot reach the client now.
          say(`${file}: its instructions could not reach the client (its initialize result was answered already); serving the live list through its steps without the ones that write instructions`);
          return prepare(raw, steps, { dropUnreadable: options.dropUnreadable, delivered, log, verbose: options.verbose });
        }
        return list;
      }
      const message = drift.message.replace(/^toolslim: /, '');
      if (onDrift === 'refuse') throw new Refusal(`${message}\n(--on-drift refuse, the default; --on-drift reoptimize or passthrough serve the live list anyway)`);
      if (onDrift === 'passthrough') {
        say(`${message}\n--on-drift passthrough: serving the server's list as it came`);
        if (when === 'initialize') delivered = '';
        return prepare(raw, [], { log });
      }
      say(`${message}\n--on-drift reoptimize: serving the live list through the overlay's steps`);
      const list = prepare(raw, steps, { dropUnreadable: options.dropUnreadable, delivered: when === 'initialize' ? undefined : delivered, log, verbose: options.verbose });
      if (when === 'initialize') delivered = list.instructions ?? '';
      if (list.omittedSteps.length > 0) log(`${list.omittedSteps.join(', ')}: this list needs server instructions that differ from those the client got with initialize, which cannot be sent again; serving it without them (restart the client to get them)`);
      for (const d of list.dropped) log(`left out ${oneLine(unreadableLine(d, true))}`);
      return list;
    },
    instructions: () => (delivered === '' ? undefined : delivered),
    // Every list_changed: fetch now and compare with the pin.
    changed: () => true,
  };
}

/**
 * How calls of the overlay's tools reach the server (tools it renamed, nulls close-objects made): the file
 * holds the tools, not the report, so the overlay's steps are run again on the live list (which matches the
 * pin) and their report read — used only when every mapped tool comes out as the overlay has it.
 */
function overlayCalls(raw: RawList, steps: readonly Step[], overlay: Overlay, file: string, log: (line: string) => void): CallMap | undefined {
  try {
    const result = transformTools(raw.merged.tools as McpTool[], { transforms: steps, measure: false });
    const map = CallMap.fromResult(result);
    if (map.empty) return undefined;
    const byName = new Map(overlay.tools.map((t) => [t.name, t] as const));
    const same = result.tools.every((t) => !map.has(t.name) || jsonEqual(byName.get(t.name), t));
    if (same) return map;
    log(`${file}: its steps no longer give the tools it holds, so calls of its renamed tools cannot be mapped back; they go to the server as the client sends them (rebuild the overlay)`);
  } catch (e) {
    log(`${file}: could not rebuild how calls reach the server (${(e as Error)?.message ?? String(e)}); they go as the client sends them`);
  }
  return undefined;
}

/** Each overlay tool's text as written in the file, on one line (number lexemes kept). */
function overlayToolTexts(text: string, overlay: Overlay): string[] {
  try {
    const source = scanToolsSource(text, '/tools');
    if (source.tools.length === overlay.tools.length) return source.tools.map((s) => restyleJson(text.slice(s.start, s.end), COMPACT_STYLE));
  } catch {
    // fall through: serialized afresh
  }
  return overlay.tools.map((t) => stringifyJson(t));
}

/** The live result (first page's text, or the merged pages) with its tools array replaced by these texts. */
function withTools(raw: RawList, toolTexts: readonly string[]): string {
  const base = raw.pages.length === 1 ? raw.pages[0]!.text : stringifyJson(raw.merged);
  const span = memberSpans(base).get('tools')!;
  return `${base.slice(0, span.start)}[${toolTexts.join(',')}]${base.slice(span.end)}`;
}
