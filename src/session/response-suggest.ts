/**
 * Response policies proposed from measurement: for each tool whose median result is at least `ratio` times
 * its definition (as the server sent it), the record fields the stats lines saw and a budget that keeps
 * `keep` of its results on one page, as an overlay `responses` snippet to review. Pure.
 */
import type { CallStats } from './stats.js';
import type { ResponsePolicy } from './response-policy.js';

/** Options of {@link suggestPolicies}. */
export interface SuggestPoliciesOptions {
  /** Median result over definition bytes from which a tool gets a proposal (default 10). */
  readonly ratio?: number;
  /** Share of results the proposed budget keeps on one page (default 0.95). */
  readonly keep?: number;
}

/** One tool's proposal, or why it gets none although its results are large. */
export interface PolicySuggestion {
  readonly tool: string;
  /** Calls whose result the server sent (not answered by toolslim, not errors). */
  readonly calls: number;
  readonly medianResultBytes: number;
  readonly definitionBytes: number;
  /** `medianResultBytes / definitionBytes`. */
  readonly ratio: number;
  /** The proposal (`project`: every field seen, to trim; `budget`: see {@link SuggestPoliciesOptions.keep}). */
  readonly policy?: ResponsePolicy;
  /** Why there is no proposal: its results held no records toolslim can find. */
  readonly why?: string;
}

/** Proposals for the tools whose median result is ≥ `ratio` × their definition, largest ratio first. */
export function suggestPolicies(lines: readonly CallStats[], options: SuggestPoliciesOptions = {}): PolicySuggestion[] {
  const ratio = options.ratio ?? 10;
  const keep = options.keep ?? 0.95;
  const byTool = new Map<string, CallStats[]>();
  for (const l of lines) {
    if (l.answered === true || l.error === true) continue;
    const list = byTool.get(l.tool);
    if (list) list.push(l);
    else byTool.set(l.tool, [l]);
  }
  const out: PolicySuggestion[] = [];
  for (const [tool, calls] of byTool) {
    const sizes = calls.map((c) => c.upstreamBytes ?? c.resultBytes).sort((a, b) => a - b);
    const m = sizes.length >> 1;
    const median = sizes.length % 2 === 1 ? sizes[m]! : (sizes[m - 1]! + sizes[m]!) / 2;
    const definition = calls[calls.length - 1]!.originalBytes;
    if (definition <= 0 || median < ratio * definition) continue;
    const base = { tool, calls: calls.length, medianResultBytes: median, definitionBytes: definition, ratio: median / definition };
    const withRecords = calls.filter((c) => c.recordsBytes !== undefined);
    if (withRecords.length === 0) {
      const uncovered = calls.find((c) => c.uncovered !== undefined)?.uncovered;
      out.push({ ...base, why: `no result held records toolslim can find${uncovered ? ` (${uncovered})` : ''}` });
      continue;
    }
    const fields: string[] = [];
    for (const c of withRecords) for (const f of c.fields ?? []) if (!fields.includes(f)) fields.push(f);
    const records = withRecords.map((c) => c.recordsBytes!).sort((a, b) => a - b);
    // Nearest rank: the smallest size at or above `keep` of the results.
    const p = records[Math.max(0, Math.ceil(keep * records.length) - 1)]!;
    const budget = Math.max(1000, Math.ceil(p / 1000) * 1000);
    out.push({ ...base, policy: { ...(fields.length > 0 ? { project: fields } : {}), budget } });
  }
  return out.sort((a, b) => b.ratio - a.ratio || (a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : 0));
}

/** The overlay snippet (`"responses": { … }`) of the proposals that have a policy; `""` when none. */
export function suggestionSnippet(suggestions: readonly PolicySuggestion[]): string {
  const entries = suggestions.filter((s) => s.policy !== undefined);
  if (entries.length === 0) return '';
  const lines = entries.map((s, i) => `    ${JSON.stringify(s.tool)}: ${JSON.stringify(s.policy).replace(/,"/g, ', "').replace(/":/g, '": ')}${i < entries.length - 1 ? ',' : ''}`);
  return `  "responses": {\n${lines.join('\n')}\n  }`;
}
