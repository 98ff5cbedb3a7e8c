/**
 * What the proxy serves for `tools/list`: the server's list through the session library's
 * `serveToolsList` (the pipeline, unreadable tools left out with `--drop-unreadable`, the instructions
 * it writes), rendered so that every tool no step changed keeps the bytes it came with. The text the
 * pipeline moved into the server's `instructions` is appended to the `initialize` result; a later list
 * that would need other instructions (the client's `initialize` was answered already) is served without
 * the steps that write them, and stderr says so: descriptions are never dropped silently.
 */
import { resolveSteps } from '../../api.js';
import type { TransformStepInput } from '../../core/preset.js';
import type { TransformResult } from '../../core/run-types.js';
import type { McpTool } from '../../core/tool.js';
import type { Step } from '../../core/transform.js';
import { oneLine } from '../../core/safe-text.js';
import type { ToolsSource } from '../../json/source.js';
import { stringifyJson } from '../../json/stringify.js';
import { CallMap } from '../../session/call-map.js';
import { serveToolsList, stepsWritingInstructions, unreadableLine, type UnreadableTool } from '../../session/serve.js';
import { changedTools, keepUnchangedOf, readPageSource, renderListResult } from '../output.js';
import type { ListHooks, RawList, ServedList } from './hooks.js';

/** Options of {@link optimizingHooks}. */
export interface OptimizeHooksOptions {
  readonly steps: readonly TransformStepInput[];
  /** Leave out tools a strict 2020-12 reader cannot read (`--drop-unreadable`). */
  readonly dropUnreadable?: boolean;
  /** A line on stderr each time the list is optimized. */
  readonly verbose?: boolean;
  readonly log: (line: string) => void;
}

/** One list as served, for the wiring around it (sessions, stats). */
export interface PreparedList extends ServedList {
  /** The result served (parsed): the server's envelope holding the served tools. */
  readonly served: Record<string, unknown>;
  /** The server's list as it came. */
  readonly raw: RawList;
  /**
   * The result text for the same envelope holding `tools` instead of the served tools (one per served
   * tool, in order): each tool that is the very object served here keeps the bytes it is served with.
   */
  render(tools: readonly McpTool[]): string;
}

/** The hooks {@link optimizingHooks} makes: `serve` returns the prepared list. */
export type OptimizingHooks = Omit<ListHooks, 'serve'> & {
  serve(raw: RawList, when: 'initialize' | 'request' | 'changed'): PreparedList;
};

/** Hooks that serve the pipeline's output and deliver its instructions through `initialize`. */
export function optimizingHooks(options: OptimizeHooksOptions): OptimizingHooks {
  const steps = resolveSteps(options.steps);
  const writers = stepsWritingInstructions(steps);
  /** What the client's initialize result got ('' when it was answered without any); undefined before. */
  let delivered: string | undefined;
  let reported = '';

  return {
    prefetch: writers.length > 0,
    prefetchWhy: `to put what ${writers.join(', ')} moved out of them into its instructions`,
    initialized() {
      delivered = '';
    },
    serve(raw, when) {
      const list = prepare(raw, steps, { dropUnreadable: options.dropUnreadable, delivered: when === 'initialize' ? undefined : delivered, log: options.log, verbose: options.verbose });
      if (when === 'initialize') delivered = list.instructions ?? '';
      if (list.omittedSteps.length > 0) {
        const names = list.omittedSteps.join(', ');
        options.log(`${names}: this list needs server instructions that differ from those the client got with initialize, which cannot be sent again; serving it without ${names} (restart the client to get them)`);
      }
      // Each dropped tool is named once per list that drops it.
      const dropped = list.dropped.map((d) => `${d.name}/${d.slot}`).join(',');
      if (dropped !== reported) {
        for (const d of list.dropped) options.log(`left out ${oneLine(unreadableLine(d, true))}`);
        reported = dropped;
      }
      return list;
    },
    instructions: () => (delivered === '' ? undefined : delivered),
  };
}

/** {@link prepare}'s result: the prepared list and what serving it decided. */
export interface Prepared extends PreparedList {
  readonly instructions?: string;
  readonly omittedSteps: readonly string[];
  readonly dropped: readonly UnreadableTool[];
  readonly transformResult: TransformResult | undefined;
}

/**
 * Runs `steps` on the server's list (serveToolsList) and prepares its text. Each page's text is followed,
 * so tools no step changed are served as the bytes they came as, and tools whose numbers JavaScript cannot
 * hold (unsafe integers, -0) are left unchanged. When the pipeline throws, the server's list is served as
 * it came, and stderr says why.
 */
export function prepare(raw: RawList, steps: readonly Step[], o: { dropUnreadable?: boolean; delivered?: string; log: (line: string) => void; verbose?: boolean }): Prepared {
  const scanned = raw.pages.map((p) => readPageSource(p.text, '/tools'));
  const sources = scanned.every((x) => x !== undefined) ? (scanned as ToolsSource[]) : undefined;
  try {
    const started = performance.now();
    const keepUnchanged = sources ? keepUnchangedOf(sources) : undefined;
    const s = serveToolsList(raw.merged, {
      transforms: steps,
      ...(keepUnchanged ? { keepUnchanged } : {}),
      dropUnreadable: o.dropUnreadable === true,
      ...(o.delivered !== undefined ? { delivered: o.delivered } : {}),
      onUndeliverable: 'omit-steps',
    });
    const result = s.transformResult;
    if (o.verbose) {
      const { before, after } = result.report.stats;
      o.log(`optimized ${count(result.tools.length, 'tool')} in ${Math.round(performance.now() - started)} ms: ${before.bytes} → ${after.bytes} bytes, ${count(result.report.changes.length, 'change')}, ${result.report.skipped.length} skipped${s.dropped.length ? `, ${s.dropped.length} left out` : ''}`);
    }
    const dropped = new Set(s.dropped.map((d) => d.index));
    const kept = result.tools.map((_, i) => i).filter((i) => !dropped.has(i));
    const rewritten = changedTools(result);
    const render = (tools: readonly McpTool[]): string => {
      if (!sources || tools.length !== kept.length) return stringifyJson({ ...(s.result as object), tools });
      const all = result.tools.slice();
      const changes: { toolIndex: number }[] = [];
      kept.forEach((at, i) => {
        all[at] = tools[i]!;
        if (rewritten.has(at) || tools[i] !== result.tools[at]) changes.push({ toolIndex: at });
      });
      return renderListResult(sources, { ...result, tools: all, report: { ...result.report, changes: changes as never } }, { omit: dropped });
    };
    const served = s.result as Record<string, unknown>;
    const calls = CallMap.fromResult(result);
    return {
      resultText: render(s.tools),
      ...(calls.empty ? {} : { calls }),
      served,
      raw,
      render,
      ...(s.instructions !== undefined ? { instructions: s.instructions } : {}),
      omittedSteps: s.omittedSteps,
      dropped: s.dropped,
      transformResult: result,
    };
  } catch (e) {
    o.log(`serving the original tools/list: ${(e as Error)?.message ?? String(e)}`);
    const text = raw.pages.length === 1 ? raw.pages[0]!.text : stringifyJson(raw.merged);
    const tools = raw.merged.tools as McpTool[];
    return {
      resultText: text,
      served: raw.merged,
      raw,
      render: (t) => (t.every((x, i) => x === tools[i]) ? text : stringifyJson({ ...raw.merged, tools: t })),
      omittedSteps: [],
      dropped: [],
      transformResult: undefined,
    };
  }
}

/** `1 tool`, `2 tools` (digits as they are, so a log line stays easy to match). */
function count(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
