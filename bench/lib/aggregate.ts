/** Pure aggregation of per-server results into per-run summaries. */
import { mergeCounts, percentSaved, summarize } from './stats.js';
import type { RunSummary, ServerResult } from './types.js';

/**
 * Totals and the spread of percent saved across the servers a run succeeded on. Percentages count any
 * `instructions` text the run produced as added size.
 */
export function summarizeRun(servers: readonly ServerResult[], key: string): RunSummary {
  let beforeBytes = 0;
  let beforeTokens = 0;
  let afterBytes = 0;
  let afterTokens = 0;
  const pctB: number[] = [];
  const pctT: number[] = [];
  let skipped: Record<string, number> = {};
  let diagnostics: Record<string, number> = {};
  let errors = 0;
  let failedServers = 0;
  let count = 0;
  for (const s of servers) {
    const r = s.runs[key];
    if (!r) continue;
    if (r.failed !== undefined || !r.after) {
      failedServers++;
      continue;
    }
    count++;
    beforeBytes += s.before.bytes;
    beforeTokens += s.before.tokens;
    afterBytes += r.after.bytes + (r.instructions?.bytes ?? 0);
    afterTokens += r.after.tokens + (r.instructions?.tokens ?? 0);
    pctB.push(r.pctBytes ?? 0);
    pctT.push(r.pctTokens ?? 0);
    skipped = mergeCounts(skipped, r.skipped ?? {});
    diagnostics = mergeCounts(diagnostics, r.diagnostics ?? {});
    errors += r.errors ?? 0;
  }
  return {
    key,
    servers: count,
    before: { bytes: beforeBytes, tokens: beforeTokens },
    after: { bytes: afterBytes, tokens: afterTokens },
    pctBytes: percentSaved(beforeBytes, afterBytes),
    pctTokens: percentSaved(beforeTokens, afterTokens),
    spreadBytes: summarize(pctB),
    spreadTokens: summarize(pctT),
    skipped,
    diagnostics,
    errors,
    failedServers,
    gateFailures: skipped['verify'] ?? 0,
  };
}
