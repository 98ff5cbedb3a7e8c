import { formatCount, renderTable } from '../core/format.js';
import type { Skip, TransformStats } from '../core/report.js';
import type { Finding } from '../lint/index.js';
import { SEVERITIES } from '../lint/index.js';

/** ANSI styling, or none (when the output is not a terminal, or NO_COLOR is set). */
export interface Style {
  bold(s: string): string;
  dim(s: string): string;
  red(s: string): string;
  yellow(s: string): string;
  green(s: string): string;
}

const wrap = (open: number, close: number) => (s: string) => `\u001b[${open}m${s}\u001b[${close}m`;

/** Colours when `on`, plain text otherwise. */
export function makeStyle(on: boolean): Style {
  if (!on) {
    const id = (s: string) => s;
    return { bold: id, dim: id, red: id, yellow: id, green: id };
  }
  return { bold: wrap(1, 22), dim: wrap(2, 22), red: wrap(31, 39), yellow: wrap(33, 39), green: wrap(32, 39) };
}

/** Sizes of one tool as `report` shows them. */
export interface ToolRow {
  readonly index: number;
  readonly name: string;
  readonly bytes: number;
  readonly o200k: number;
  readonly cl100k: number;
  readonly bytesAfter: number;
  readonly o200kAfter: number;
}

/** Everything `report` shows. */
export interface ReportData {
  readonly source: string;
  /** What ran: the preset name, or the list of steps. */
  readonly steps: string;
  readonly total: { readonly bytes: number; readonly o200k: number; readonly cl100k: number; readonly bytesAfter: number; readonly o200kAfter: number; readonly cl100kAfter: number };
  /** Largest first. */
  readonly tools: readonly ToolRow[];
  readonly transforms: readonly TransformStats[];
  readonly skipped: readonly Skip[];
  readonly findings: readonly Finding[];
}

/** Renders `report` output as a terminal table or markdown; `top` limits the tools listed (0 = all). */
export function renderReport(data: ReportData, format: 'text' | 'markdown', style: Style, top: number): string {
  const md = format === 'markdown';
  const { total } = data;
  const lines: string[] = [];
  const saved = total.bytes - total.bytesAfter;
  const head = `${data.source}: ${data.tools.length} tools, ${formatCount(total.bytes)} bytes, ${formatCount(total.o200k)} tokens (o200k_base), ${formatCount(total.cl100k)} tokens (cl100k_base)`;
  lines.push(md ? `## toolslim report\n\n${head}` : style.bold(head));
  lines.push(
    `${data.steps} would save ${formatCount(saved)} bytes (${pct(saved, total.bytes)}), ${formatCount(total.o200k - total.o200kAfter)} tokens o200k_base (${pct(total.o200k - total.o200kAfter, total.o200k)}), ${formatCount(total.cl100k - total.cl100kAfter)} tokens cl100k_base (${pct(total.cl100k - total.cl100kAfter, total.cl100k)})`,
    '',
  );
  const shown = top > 0 ? data.tools.slice(0, top) : data.tools;
  if (shown.length > 0) {
    const header = ['tool', 'bytes', 'o200k', 'cl100k', 'bytes after', 'saved'];
    const rows = shown.map((t) => [t.name || `#${t.index}`, formatCount(t.bytes), formatCount(t.o200k), formatCount(t.cl100k), formatCount(t.bytesAfter), pct(t.bytes - t.bytesAfter, t.bytes)]);
    lines.push(md ? '### Tools, largest first' : style.bold('Tools, largest first'), '', ...renderTable(header, rows, { markdown: md, indent: '  ' }));
    if (shown.length < data.tools.length) lines.push(`${md ? '\n' : ''}… and ${data.tools.length - shown.length} more (--top 0 lists all)`);
    lines.push('');
  }
  if (data.transforms.length > 0) {
    const header = ['transform', 'changes', 'tools', 'bytes saved', 'o200k saved'];
    const rows = data.transforms.map((t) => [t.name, formatCount(t.changes), formatCount(t.toolsChanged), formatCount(t.bytesSaved), formatCount(t.tokensSaved ?? 0)]);
    lines.push(md ? `### What each transform saves (${data.steps})` : style.bold(`What each transform saves (${data.steps})`), '', ...renderTable(header, rows, { markdown: md, indent: '  ' }), '');
  }
  if (data.skipped.length > 0) {
    lines.push(md ? '### Skipped' : style.bold('Skipped'), '');
    for (const s of data.skipped) lines.push(`${md ? '- ' : '  '}${s.tool || `#${s.toolIndex}`} (${s.transform}): ${s.reason}`);
    lines.push('');
  }
  lines.push(md ? `### Findings (${countLine(data.findings)})` : style.bold(`Findings (${countLine(data.findings)})`), '');
  if (data.findings.length === 0) lines.push(md ? 'None.' : '  none', '');
  else lines.push(...groupFindings(data.findings, md, style), '');
  return lines.join('\n');
}

/** Findings grouped by code, most severe first: each code with its count and up to 5 examples. */
function groupFindings(findings: readonly Finding[], md: boolean, style: Style): string[] {
  const groups = new Map<string, Finding[]>();
  for (const f of findings) {
    const key = `${f.severity}\u0000${f.code}`;
    const list = groups.get(key);
    if (list) list.push(f);
    else groups.set(key, [f]);
  }
  const keys = [...groups.keys()].sort((a, b) => SEVERITIES.indexOf(a.split('\u0000')[0] as never) - SEVERITIES.indexOf(b.split('\u0000')[0] as never));
  const out: string[] = [];
  for (const key of keys) {
    const list = groups.get(key)!;
    const [severity, code] = key.split('\u0000') as [Finding['severity'], string];
    out.push(md ? `- **${severity}** \`${code}\` × ${list.length}` : `  ${paint(severity, style)} ${style.bold(code)} × ${list.length}`);
    for (const f of list.slice(0, 5)) out.push(md ? `  - ${where(f)}: ${f.message}` : `      ${style.dim(where(f))} ${f.message}`);
    if (list.length > 5) out.push(md ? `  - … ${list.length - 5} more` : `      … ${list.length - 5} more`);
  }
  return out;
}

/** `check` output: one finding per line, then a summary. */
export function renderFindings(findings: readonly Finding[], style: Style, failing: number, failOn: string): string {
  const lines: string[] = [];
  for (const f of findings) lines.push(`${paint(f.severity, style)} ${style.bold(f.code)} ${style.dim(where(f))} ${f.message}`);
  if (findings.length > 0) lines.push('');
  const verdict = failing > 0 ? style.red(`failed: ${failing} at or above ${failOn}`) : style.green(`passed (failing on ${failOn})`);
  lines.push(`${countLine(findings)}: ${verdict}`);
  return lines.join('\n') + '\n';
}

/** "1 error, 2 warnings, 0 info" */
export function countLine(findings: readonly Finding[]): string {
  const n = (s: string) => findings.filter((f) => f.severity === s).length;
  const e = n('error');
  const w = n('warning');
  return `${e} error${e === 1 ? '' : 's'}, ${w} warning${w === 1 ? '' : 's'}, ${n('info')} info`;
}

function where(f: Finding): string {
  const tool = f.tool !== '' ? f.tool : f.toolIndex < 0 ? '(list)' : `#${f.toolIndex}`;
  return `${tool} ${f.path || '/'}`;
}

function paint(severity: string, style: Style): string {
  const label = severity.padEnd(7);
  return severity === 'error' ? style.red(label) : severity === 'warning' ? style.yellow(label) : style.dim(label);
}

function pct(part: number, whole: number): string {
  return whole === 0 ? '0.0%' : `${((100 * part) / whole).toFixed(1)}%`;
}
