/**
 * What the terminal shows: the report table, finding lines, the verdict.
 *
 * Colours are five SGR codes written here (issue 29 item 14), not node:util `styleText` nor picocolors.
 * `styleText` exists from Node 20.12, while `engines` says >=20 and the library documents Node 20.0 paths
 * (docs/verify.md): raising the floor of the whole package for ten lines of the CLI is not worth it. And
 * measured on Node 20.20: `styleText('red', 'x')` returns plain `x` when NO_COLOR=1 is in process.env or
 * process.stdout is a pipe — it decides from the real process, whereas main.ts's `useColour` decides from
 * the env and streams it was given (the tests inject both); only `{ validateStream: false }` turns that off,
 * an option earlier 20.x releases do not have. picocolors' `createColors(on)` would fit, but it is a
 * runtime dependency for ten lines that write the same codes.
 */
import { oneLine } from '../core/safe-text.js';
import { formatCount, markdownMessage, markdownText, renderTable } from '../core/format.js';
import type { Skip, TransformStats } from '../core/report.js';
import type { Finding } from '../lint/index.js';
import { SEVERITIES } from '../lint/index.js';
import type { Reader, RenderedFigures } from './reader-types.js';

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

/** Sizes of one tool as `report` shows them (token counts absent with `--no-tokens`). */
export interface ToolRow {
  readonly index: number;
  readonly name: string;
  readonly bytes: number;
  readonly o200k?: number;
  readonly cl100k?: number;
  readonly bytesAfter: number;
  readonly o200kAfter?: number;
  /** With `--render`/`--profile`: per renderer, rendered tokens and `any` types before and after. */
  readonly rendered?: Readonly<Record<string, RenderedFigures>>;
}

/** Everything `report` shows. */
export interface ReportData {
  readonly source: string;
  /** What ran: the preset name, or the list of steps. */
  readonly steps: string;
  /** Token counts absent with `--no-tokens`. */
  readonly total: { readonly bytes: number; readonly o200k?: number; readonly cl100k?: number; readonly bytesAfter: number; readonly o200kAfter?: number; readonly cl100kAfter?: number; readonly rendered?: Readonly<Record<string, RenderedFigures>> };
  /** Largest first. */
  readonly tools: readonly ToolRow[];
  /** Each step's figures, without its time (a report of one input is the same bytes every run). */
  readonly transforms: readonly Omit<TransformStats, 'timeMs'>[];
  readonly skipped: readonly Skip[];
  readonly findings: readonly Finding[];
  /** With `--render`/`--profile`: the readers counted in (renderer, tokenizer, stand-in). */
  readonly readers?: readonly Reader[];
  /** For a reader that defers schemas: tokens of what every request pays, before and after. */
  readonly alwaysPaid?: Readonly<Record<string, { readonly tokens: number; readonly tokensAfter: number }>>;
  /** Tools whose token counts are estimates (a run of characters too long to count exactly; see `toolslim/tokens`). */
  readonly estimatedTokens?: number;
}

/** Renders `report` output as a terminal table or markdown; `top` limits the tools listed (0 = all). */
export function renderReport(data: ReportData, format: 'text' | 'markdown', style: Style, top: number): string {
  const md = format === 'markdown';
  const { total } = data;
  const tokens = total.o200k !== undefined;
  const lines: string[] = [];
  const saved = total.bytes - total.bytesAfter;
  const head = `${oneLine(data.source)}: ${plural(data.tools.length, 'tool')}, ${formatCount(total.bytes)} bytes` + (tokens ? `, ${formatCount(total.o200k!)} tokens (o200k_base), ${formatCount(total.cl100k!)} tokens (cl100k_base)` : ' (tokens not counted: --no-tokens)');
  lines.push(md ? `## toolslim report\n\n${head}` : style.bold(head));
  const savedTokens = tokens
    ? `, ${formatCount(total.o200k! - total.o200kAfter!)} tokens o200k_base (${pct(total.o200k! - total.o200kAfter!, total.o200k!)}), ${formatCount(total.cl100k! - total.cl100kAfter!)} tokens cl100k_base (${pct(total.cl100k! - total.cl100kAfter!, total.cl100k!)})`
    : '';
  lines.push(`${data.steps} would save ${formatCount(saved)} bytes (${pct(saved, total.bytes)})${savedTokens}`, '');
  if (data.estimatedTokens) lines.push(`Token counts are estimates for ${plural(data.estimatedTokens, 'tool')} holding a run of more than 256 characters without a break (counted in slices, so the count stays linear).`, '');
  const shown = top > 0 ? data.tools.slice(0, top) : data.tools;
  if (shown.length > 0) {
    const header = tokens ? ['tool', 'bytes', 'o200k', 'cl100k', 'bytes after', 'saved'] : ['tool', 'bytes', 'bytes after', 'saved'];
    const rows = shown.map((t) => [oneLine(t.name) || `#${t.index}`, formatCount(t.bytes), ...(tokens ? [formatCount(t.o200k!), formatCount(t.cl100k!)] : []), formatCount(t.bytesAfter), pct(t.bytes - t.bytesAfter, t.bytes)]);
    lines.push(md ? '### Tools, largest first' : style.bold('Tools, largest first'), '', ...renderTable(header, rows, { markdown: md, indent: '  ' }));
    if (shown.length < data.tools.length) lines.push(`${md ? '\n' : ''}… and ${formatCount(data.tools.length - shown.length)} more (--top 0 lists all)`);
    lines.push('');
  }
  if (data.transforms.length > 0) {
    const header = tokens ? ['transform', 'changes', 'tools', 'bytes saved', 'o200k saved'] : ['transform', 'changes', 'tools', 'bytes saved'];
    const rows = data.transforms.map((t) => [t.name, formatCount(t.changes), formatCount(t.toolsChanged), formatCount(t.bytesSaved), ...(tokens ? [formatCount(t.tokensSaved ?? 0)] : [])]);
    lines.push(md ? `### What each transform saves (${data.steps})` : style.bold(`What each transform saves (${data.steps})`), '', ...renderTable(header, rows, { markdown: md, indent: '  ' }), '');
  }
  if (data.skipped.length > 0) {
    lines.push(md ? '### Skipped' : style.bold('Skipped'), '');
    for (const s of data.skipped) lines.push(`${md ? '- ' : '  '}${(md ? markdownText(oneLine(s.tool)) : oneLine(s.tool)) || `#${s.toolIndex}`} (${s.transform}): ${md ? markdownMessage(oneLine(s.reason)) : oneLine(s.reason)}`);
    lines.push('');
  }
  lines.push(md ? `### Findings (${countLine(data.findings)})` : style.bold(`Findings (${countLine(data.findings)})`), '');
  if (data.findings.length === 0) lines.push(md ? 'None.' : '  none', '');
  else lines.push(...groupFindings(data.findings, md, style), '');
  return lines.join('\n');
}

/**
 * Findings grouped by code, most severe first: each code with its count, its whole-list findings (a summary,
 * or the note that a search stopped: never left among the rest), and up to 5 of its tools' findings.
 */
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
    const whole = list.filter((f) => f.toolIndex < 0);
    const perTool = list.filter((f) => f.toolIndex >= 0);
    for (const f of [...whole, ...perTool.slice(0, 5)]) out.push(md ? `  - ${markdownText(where(f))}: ${markdownMessage(oneLine(f.message))}` : `      ${style.dim(where(f))} ${oneLine(f.message)}`);
    if (perTool.length > 5) out.push(md ? `  - … ${perTool.length - 5} more` : `      … ${perTool.length - 5} more`);
  }
  return out;
}

/** Info findings of one code `check` lists per input before it sums up the rest in one line. */
export const INFO_SHOWN = 5;

/**
 * `check` output: one finding per line (`indent` before each), no trailing newline. Errors and warnings
 * are all listed; of each info code, its first {@link INFO_SHOWN} findings and its whole-list
 * finding, then one line counting the rest (`--format json` lists every one).
 */
export function renderFindingLines(findings: readonly Finding[], style: Style, indent = ''): string {
  const shown = new Map<string, number>();
  /** Per code: the findings left out and the tools they are in (a tool can have many of one code: one per parameter). */
  const hidden = new Map<string, { findings: number; tools: Set<number> }>();
  const lines: string[] = [];
  for (const f of findings) {
    if (f.severity === 'info' && f.toolIndex >= 0) {
      const n = shown.get(f.code) ?? 0;
      if (n >= INFO_SHOWN) {
        const h = hidden.get(f.code) ?? { findings: 0, tools: new Set<number>() };
        h.findings++;
        h.tools.add(f.toolIndex);
        hidden.set(f.code, h);
        continue;
      }
      shown.set(f.code, n + 1);
    }
    lines.push(`${indent}${paint(f.severity, style)} ${style.bold(oneLine(f.code))} ${style.dim(where(f))} ${oneLine(f.message)}`);
  }
  for (const [code, { findings: n, tools }] of hidden) {
    const rest = n === tools.size ? plural(n, 'more tool') : `${plural(n, 'more finding')} in ${plural(tools.size, 'tool')}`;
    lines.push(`${indent}${paint('info', style)} ${style.bold(code)} … and ${rest} (--format json lists every finding)`);
  }
  return lines.join('\n');
}

/** What `check`'s last line sums up. */
export interface Verdict {
  readonly counts: Readonly<Record<'error' | 'warning' | 'info', number>>;
  /** Findings at or above `failOn`. */
  readonly failing: number;
  readonly failOn: string;
  readonly maxWarnings: number | undefined;
  /** Inputs given (files, stdin or a live server). */
  readonly inputs: number;
  /** Inputs that could not be read. */
  readonly unreadable: number;
  /** Findings counted but not shown (`--quiet`). */
  readonly hidden: number;
}

/**
 * `check`'s summary line: "1 error, 2 warnings, 0 info: failed: 1 at or above error" — with the number of
 * inputs when there are several, what `--quiet` hid, and `--max-warnings` when it decides.
 */
export function renderVerdict(v: Verdict, style: Style): string {
  const reasons: string[] = [];
  if (v.failing > 0) reasons.push(`${v.failing.toLocaleString('en-US')} at or above ${v.failOn}`);
  if (v.maxWarnings !== undefined && v.counts.warning > v.maxWarnings) reasons.push(`${plural(v.counts.warning, 'warning')}, more than --max-warnings ${v.maxWarnings}`);
  if (v.unreadable > 0) reasons.push(`${plural(v.unreadable, 'input')} could not be read`);
  const limits = v.maxWarnings !== undefined ? `failing on ${v.failOn}, at most ${plural(v.maxWarnings, 'warning')}` : `failing on ${v.failOn}`;
  const verdict = reasons.length > 0 ? style.red(`failed: ${reasons.join('; ')}`) : style.green(`passed (${limits})`);
  const where = v.inputs > 1 ? ` in ${v.inputs} inputs` : '';
  const hidden = v.hidden > 0 ? ` (${v.hidden.toLocaleString('en-US')} not shown: --quiet)` : '';
  return `${countLine(v.counts)}${where}${hidden}: ${verdict}\n`;
}

/** "1 error, 2 warnings, 0 info" */
export function countLine(counts: Readonly<Record<'error' | 'warning' | 'info', number>> | readonly Finding[]): string {
  const c = Array.isArray(counts) ? tally(counts as readonly Finding[]) : (counts as Readonly<Record<'error' | 'warning' | 'info', number>>);
  return `${plural(c.error, 'error')}, ${plural(c.warning, 'warning')}, ${c.info.toLocaleString('en-US')} info`;
}

/** "1 tool", "2 tools", "0 tools". */
export function plural(n: number, word: string): string {
  return `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;
}

function tally(findings: readonly Finding[]): Record<'error' | 'warning' | 'info', number> {
  const c = { error: 0, warning: 0, info: 0 };
  for (const f of findings) c[f.severity]++;
  return c;
}

function where(f: Finding): string {
  const tool = f.tool !== '' ? f.tool : f.toolIndex < 0 ? '(list)' : `#${f.toolIndex}`;
  // A server's names, as every value below from a server: escaped for the terminal (safe-text.ts).
  return oneLine(`${tool} ${f.path || '/'}`);
}

function paint(severity: string, style: Style): string {
  const label = severity.padEnd(7);
  return severity === 'error' ? style.red(label) : severity === 'warning' ? style.yellow(label) : style.dim(label);
}

function pct(part: number, whole: number): string {
  return whole === 0 ? '0.0%' : `${((100 * part) / whole).toFixed(1)}%`;
}
