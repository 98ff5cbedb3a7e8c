import type { Report } from './report.js';

/** Output formats of {@link formatReport}. */
export type ReportFormat = 'text' | 'markdown' | 'json';

/**
 * Renders a report: `text` for a terminal, `markdown` for a PR comment or file, `json` for machines
 * (the report itself, pretty-printed).
 */
export function formatReport(report: Report, format: ReportFormat = 'text'): string {
  if (format === 'json') return JSON.stringify(report, null, 2) + '\n';
  const md = format === 'markdown';
  const { stats } = report;
  const tok = stats.tokenizer !== undefined;
  const lines: string[] = [];
  const saved = stats.before.bytes - stats.after.bytes;
  const pct = stats.before.bytes === 0 ? 0 : (100 * saved) / stats.before.bytes;
  const summary = `${stats.tools.length} tool${stats.tools.length === 1 ? '' : 's'}: ${num(stats.before.bytes)} → ${num(stats.after.bytes)} bytes (${pct >= 0 ? '−' : '+'}${Math.abs(pct).toFixed(1)}%)` +
    (tok ? `, ${num(stats.before.tokens ?? 0)} → ${num(stats.after.tokens ?? 0)} tokens (${stats.tokenizer})` : '');
  lines.push(md ? `**toolslim**: ${summary}` : summary, '');

  const header = ['transform', 'changes', 'tools', 'bytes saved', ...(tok ? ['tokens saved'] : []), 'ms'];
  const rows = stats.transforms.map((t) => [t.name, num(t.changes), num(t.toolsChanged), num(t.bytesSaved), ...(tok ? [num(t.tokensSaved ?? 0)] : []), t.timeMs.toFixed(1)]);
  lines.push(...table(header, rows, md), '');

  const largest = [...stats.tools].sort((a, b) => b.before.bytes - a.before.bytes || a.index - b.index).slice(0, 20);
  if (largest.length > 0) {
    const h = ['tool', 'bytes before', 'bytes after', ...(tok ? ['tokens before', 'tokens after'] : [])];
    const r = largest.map((t) => [t.name || `#${t.index}`, num(t.before.bytes), num(t.after.bytes), ...(tok ? [num(t.before.tokens ?? 0), num(t.after.tokens ?? 0)] : [])]);
    lines.push(md ? '**Largest tools**' : 'Largest tools', '', ...table(h, r, md), '');
  }
  if (report.skipped.length > 0) {
    lines.push(md ? '**Skipped**' : 'Skipped', '');
    for (const s of report.skipped) lines.push(`${md ? '- ' : '  '}${s.tool || `#${s.toolIndex}`} (${s.transform}): ${s.reason}`);
    lines.push('');
  }
  if (report.diagnostics.length > 0) {
    lines.push(md ? '**Findings**' : 'Findings', '');
    for (const d of report.diagnostics) lines.push(`${md ? '- ' : '  '}${d.severity} ${d.transform}/${d.code} ${d.path}: ${d.message}`);
    lines.push('');
  }
  return lines.join('\n');
}

function table(header: readonly string[], rows: readonly (readonly string[])[], md: boolean): string[] {
  if (md) {
    return [`| ${header.join(' | ')} |`, `|${header.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`, ...rows.map((r) => `| ${r.map(escapeCell).join(' | ')} |`)];
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const fmt = (r: readonly string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd();
  return [fmt(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(fmt)];
}

function escapeCell(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

function num(n: number): string {
  return n.toLocaleString('en-US');
}
