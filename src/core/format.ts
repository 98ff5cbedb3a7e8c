import { oneLine } from './safe-text.js';
import { ToolslimError } from './errors.js';
import type { Report } from './report.js';

/** Output formats of {@link formatReport}. */
export type ReportFormat = 'text' | 'markdown' | 'json';

/**
 * Renders a report: `text` for a terminal, `markdown` for a PR comment or file, `json` for machines
 * (the report itself, pretty-printed).
 */
export function formatReport(report: Report, format: ReportFormat = 'text'): string {
  if (format !== 'text' && format !== 'markdown' && format !== 'json') throw new ToolslimError('invalid-option', `formatReport: format must be 'text', 'markdown' or 'json', got ${JSON.stringify(format)}`);
  if (report === null || typeof report !== 'object' || typeof (report as Partial<Report>).stats !== 'object') throw new ToolslimError('invalid-option', 'formatReport: expected the `report` of a run (transformTools(…).report)');
  if (format === 'json') return JSON.stringify(report, null, 2) + '\n';
  const md = format === 'markdown';
  const { stats } = report;
  const tok = stats.tokenizer !== undefined;
  const lines: string[] = [];
  const saved = stats.before.bytes - stats.after.bytes;
  const pct = stats.before.bytes === 0 ? 0 : (100 * saved) / stats.before.bytes;
  const summary = `${stats.tools.length} tool${stats.tools.length === 1 ? '' : 's'}: ${formatCount(stats.before.bytes)} → ${formatCount(stats.after.bytes)} bytes (${pct >= 0 ? '−' : '+'}${Math.abs(pct).toFixed(1)}%)` +
    (tok ? `, ${formatCount(stats.before.tokens ?? 0)} → ${formatCount(stats.after.tokens ?? 0)} tokens (${stats.tokenizer})` : '');
  lines.push(md ? `**toolslim**: ${summary}` : summary, '');

  const header = ['transform', 'changes', 'tools', 'bytes saved', ...(tok ? ['tokens saved'] : []), 'ms'];
  const rows = stats.transforms.map((t) => [t.name, formatCount(t.changes), formatCount(t.toolsChanged), formatCount(t.bytesSaved), ...(tok ? [formatCount(t.tokensSaved ?? 0)] : []), t.timeMs.toFixed(1)]);
  lines.push(...renderTable(header, rows, { markdown: md }), '');

  const largest = [...stats.tools].sort((a, b) => b.before.bytes - a.before.bytes || a.index - b.index).slice(0, 20);
  if (largest.length > 0) {
    const h = ['tool', 'bytes before', 'bytes after', ...(tok ? ['tokens before', 'tokens after'] : [])];
    const r = largest.map((t) => [t.name || `#${t.index}`, formatCount(t.before.bytes), formatCount(t.after.bytes), ...(tok ? [formatCount(t.before.tokens ?? 0), formatCount(t.after.tokens ?? 0)] : [])]);
    lines.push(md ? '**Largest tools**' : 'Largest tools', '', ...renderTable(h, r, { markdown: md }), '');
  }
  if (report.skipped.length > 0) {
    lines.push(md ? '**Skipped**' : 'Skipped', '');
    for (const s of report.skipped) lines.push(md ? `- ${markdownText(oneLine(s.tool)) || `#${s.toolIndex}`} (${s.transform}): ${markdownMessage(oneLine(s.reason))}` : `  ${oneLine(s.tool) || `#${s.toolIndex}`} (${s.transform}): ${oneLine(s.reason)}`);
    lines.push('');
  }
  if (report.diagnostics.length > 0) {
    lines.push(md ? '**Findings**' : 'Findings', '');
    for (const d of report.diagnostics) lines.push(md ? `- ${d.severity} ${d.transform}/${d.code} ${markdownText(oneLine(d.path))}: ${markdownMessage(oneLine(d.message))}` : `  ${d.severity} ${d.transform}/${d.code} ${oneLine(d.path)}: ${oneLine(d.message)}`);
    lines.push('');
  }
  return lines.join('\n');
}

/** Options of {@link renderTable}. */
export interface TableOptions {
  /** A markdown table (first column left-aligned, the others right-aligned) instead of a text one. */
  readonly markdown?: boolean;
  /** Text tables only: put before every line. */
  readonly indent?: string;
}

/**
 * THE table renderer (reports, the CLI): a text table with padded columns (first left-aligned, the rest
 * right-aligned) and a dashed rule under the header, or a markdown table whose cells escape `|`, newlines and
 * what HTML reads ({@link markdownText}).
 * @internal
 */
export function renderTable(header: readonly string[], rows: readonly (readonly string[])[], options: TableOptions = {}): string[] {
  // A cell may hold a server's text (a tool name): one line, control characters escaped (safe-text.ts).
  if (options.markdown) {
    return [`| ${header.join(' | ')} |`, `|${header.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`, ...rows.map((r) => `| ${r.map((c) => oneLine(escapeCell(c))).join(' | ')} |`)];
  }
  rows = rows.map((r) => r.map(oneLine));
  const indent = options.indent ?? '';
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const fmt = (r: readonly string[]) => indent + r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd();
  return [fmt(header), indent + widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(fmt)];
}

function escapeCell(s: string): string {
  return markdownText(s).replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

/**
 * A server's text (a tool name) for markdown outside a code span: `&`, `<` and `>` as entities, so that it
 * reads as written and no name can open HTML (`<!--` in one tool's name and `-->` in a later one's hid every
 * row between them on GitHub). Text inside a code span needs none of this (entities show there as typed).
 * @internal
 */
export function markdownText(s: string): string {
  return /[&<>]/.test(s) ? s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;') : s;
}

/**
 * A message (toolslim's words, a server's names in code spans and in quotes) for markdown: {@link markdownText}
 * outside its code spans, which keep what they hold (`#/$defs/<name>`). A span is taken only where markdown
 * surely reads one (one backtick each side, none inside, no backslash or backtick before the first, no
 * backtick after the last); anywhere else the text is escaped, which at worst shows an entity as typed.
 * @internal
 */
export function markdownMessage(s: string): string {
  if (!/[&<>]/.test(s)) return s;
  let out = '';
  let last = 0;
  for (const m of s.matchAll(CODE_SPAN)) {
    out += markdownText(s.slice(last, m.index)) + m[0];
    last = m.index + m[0].length;
  }
  return out + markdownText(s.slice(last));
}

const CODE_SPAN = /(?<![`\\])`[^`]*`(?!`)/g;

/**
 * A server's name (a tool, a parameter, a definition, a `$ref`) in a message: in a code span, or as a JSON
 * string when it holds a backtick, which would close the span early (`` a`b `` read as three backticks in a row).
 * @internal
 */
export function code(name: string): string {
  return name.indexOf('`') === -1 ? `\`${name}\`` : JSON.stringify(name);
}

/** A count as reports write it (`12,345`). @internal */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}
