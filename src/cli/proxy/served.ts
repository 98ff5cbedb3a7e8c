/**
 * What the proxy serves for `tools/list`: the server's list through the pipeline, and the text the
 * pipeline moved into the server's `instructions` appended to the `initialize` result. A list that would
 * need instructions the client can no longer get (its `initialize` was answered already) is served
 * without the steps that write them, and stderr says so: descriptions are never dropped silently.
 */
import { stringifyJson } from '../../json/stringify.js';
import { resolveSteps, transformTools } from '../../api.js';
import type { TransformStepInput } from '../../core/preset.js';
import type { TransformResult } from '../../core/run-types.js';
import type { Step } from '../../core/transform.js';
import type { ListHooks, RawList, ServedList } from './router.js';

/** Options of {@link optimizingHooks}. */
export interface OptimizeHooksOptions {
  readonly steps: readonly TransformStepInput[];
  /** A line on stderr each time the list is optimized. */
  readonly verbose?: boolean;
  readonly log: (line: string) => void;
}

/** The result of one run on the server's list, for the wiring around it (sessions, overlays, stats). */
export interface OptimizedList extends ServedList {
  readonly result: TransformResult | undefined;
  readonly raw: RawList;
}

/** Hooks that serve the pipeline's output and deliver its instructions through `initialize`. */
export function optimizingHooks(options: OptimizeHooksOptions): ListHooks & { readonly last: OptimizedList | undefined } {
  const steps = resolveSteps(options.steps);
  const writers = steps.filter(([t]) => writesInstructions(t));
  const withoutWriters = steps.filter(([t]) => !writesInstructions(t));
  let delivered: string | undefined;
  let initializeAnswered = false;
  let last: OptimizedList | undefined;

  const run = (raw: RawList, chosen: readonly Step[]): OptimizedList => {
    try {
      const started = performance.now();
      const result = transformTools(raw.merged, { transforms: chosen });
      if (options.verbose) {
        const { before, after } = result.report.stats;
        const ms = Math.round(performance.now() - started);
        options.log(`optimized ${result.tools.length} tools in ${ms} ms: ${before.bytes} → ${after.bytes} bytes, ${result.report.changes.length} changes, ${result.report.skipped.length} skipped`);
      }
      return { resultText: stringifyJson(result.output), result, raw };
    } catch (e) {
      options.log(`serving the original tools/list: ${(e as Error)?.message ?? String(e)}`);
      return { resultText: raw.pages.length === 1 ? raw.pages[0]!.text : stringifyJson(raw.merged), result: undefined, raw };
    }
  };

  return {
    prefetch: writers.length > 0,
    get last() {
      return last;
    },
    serve(raw, when) {
      let out = run(raw, steps);
      const wanted = out.result?.instructions;
      if (when === 'initialize') {
        delivered = wanted;
        initializeAnswered = true;
      } else if (wanted !== undefined && wanted !== delivered) {
        const names = writers.map(([t]) => t.name).join(', ');
        options.log(
          initializeAnswered
            ? `${names}: this list needs server instructions that differ from those the client got with initialize, which cannot be sent again; serving it without ${names} (restart the client to get them)`
            : `${names}: the server did not declare tools in initialize, so its instructions could not carry the promoted descriptions; serving the list without ${names}`,
        );
        out = run(raw, withoutWriters);
      }
      last = out;
      return out;
    },
    instructions: () => delivered,
  };
}

/** Steps that write text for the server's `instructions` (promote-common-params, and any later one that declares it). */
export function writesInstructions(t: Step[0]): boolean {
  return t.name === 'promote-common-params' || (t as { writesInstructions?: boolean }).writesInstructions === true || typeof t.finish === 'function';
}
