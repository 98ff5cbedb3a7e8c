/**
 * `--render` and the reader of `--profile` for `report` and `check` (issue 27): which readers to count
 * in, the rendered tokens and `any` types before and after per tool and in total, the lint options that
 * count budgets in a profile's unit and add `renders-as-any` for a `typescript` reader.
 */
import type { Tokenizer } from '../core/measure.js';
import { measureRendered } from '../core/rendered.js';
import { formatCount, renderTable } from '../core/format.js';
import type { LintOptions } from '../lint/index.js';
import { forwardedTool, alwaysPaidText, renderedBudget, type ReaderUnit } from '../lint/rules/rendered-budget.js';
import { rendersAsAny, rendersAsAnyFor } from '../lint/rules/renders-as-any.js';
import { getProfile } from '../profiles/profiles.js';
import { getRenderer, RENDERER_NAMES, RenderError, type Renderer } from '../render/index.js';
import type { FlagSpec, ParsedArgs } from './args.js';
import { CliError } from './errors.js';
import type { Style } from './format.js';
import type { Reader, RenderedFigures } from './reader-types.js';

export type { Reader, RenderedFigures } from './reader-types.js';

export const RENDER_FLAG: FlagSpec = { name: 'render', type: 'string' };

export const RENDER_HELP = `  --render <list>           also count what each reader sees: comma-separated renderers of
                            ${RENDERER_NAMES.join(', ')} (tokens in o200k_base; with --profile,
                            the profile's renderer and tokenizer are added: openai reads typescript)`;

/** What `report` adds with readers: the totals, per tool (by index), and the readers counted. */
export interface RenderedReport {
  readonly readers: readonly Reader[];
  readonly total: Readonly<Record<string, RenderedFigures>>;
  readonly perTool: readonly Readonly<Record<string, RenderedFigures>>[];
  /** For a reader that defers schemas: tokens of what every request pays, before and after. */
  readonly alwaysPaid?: Readonly<Record<string, { readonly tokens: number; readonly tokensAfter: number }>>;
}

/** The readers of `--render` and `--profile` (the profile's first); none when neither is given. */
export function readersOf(args: ParsedArgs, profile: string | undefined): Reader[] {
  const out: Reader[] = [];
  if (profile !== undefined) {
    const p = getProfile(profile);
    out.push({ renderer: p.reader.renderer, tokenizer: p.reader.tokenizer, profile: p.name, forwards: p.reader.forwards, alwaysPaid: p.reader.alwaysPaid, ...(p.reader.standIn ? { standIn: p.reader.standIn } : {}) });
  }
  const list = typeof args.flags.render === 'string' ? args.flags.render : undefined;
  if (list !== undefined) {
    for (const name of list.split(',').map((s) => s.trim())) {
      const renderer = rendererNamed(name).name;
      if (out.some((r) => r.renderer === renderer)) continue;
      out.push({ renderer, tokenizer: 'o200k_base', forwards: ['name', 'description', 'inputSchema'], alwaysPaid: 'everything' });
    }
  }
  return out;
}

/** The renderer of that name, or a usage error listing the valid ones. */
export function rendererNamed(name: string): Renderer {
  try {
    return getRenderer(name);
  } catch (e) {
    if (e instanceof RenderError) throw new CliError(`--render ${name}: ${e.message}`, { usage: true });
    throw e;
  }
}

/** Counts each reader's tokens and `any` types of `before` and `after` (the same tools, in order). */
export function measureReaders(before: readonly unknown[], after: readonly unknown[], readers: readonly Reader[], tokenizerNamed: (name: string) => Tokenizer): RenderedReport {
  const total: Record<string, RenderedFigures> = {};
  const perTool: Record<string, RenderedFigures>[] = before.map(() => ({}));
  const alwaysPaid: Record<string, { tokens: number; tokensAfter: number }> = {};
  for (const r of readers) {
    const tokenizer = tokenizerNamed(r.tokenizer);
    const renderer = getRenderer(r.renderer);
    const b = before.map((t) => forwardedTool(t, r.forwards));
    const a = after.map((t) => forwardedTool(t, r.forwards));
    const mb = measureRendered(b, renderer, tokenizer);
    const ma = measureRendered(a, renderer, tokenizer);
    total[r.renderer] = { tokens: mb.tokens, tokensAfter: ma.tokens, any: mb.any, anyAfter: ma.any };
    for (let i = 0; i < before.length; i++) {
      perTool[i]![r.renderer] = { tokens: mb.perTool[i]!, tokensAfter: ma.perTool[i] ?? 0, any: mb.perToolAny[i]!, anyAfter: ma.perToolAny[i] ?? 0 };
    }
    if (r.alwaysPaid !== 'everything') alwaysPaid[r.renderer] = { tokens: tokenizer.count(alwaysPaidText(b, { renderer, alwaysPaid: r.alwaysPaid })), tokensAfter: tokenizer.count(alwaysPaidText(a, { renderer, alwaysPaid: r.alwaysPaid })) };
  }
  return { readers, total, perTool, ...(Object.keys(alwaysPaid).length > 0 ? { alwaysPaid } : {}) };
}

/** How a reader's unit reads in a message. */
export function unitLabel(r: Reader): string {
  const who = r.profile !== undefined ? `as \`${r.profile}\` reads it` : `as the \`${r.renderer}\` reader sees it`;
  return `${who} (${r.renderer} rendering, ${r.tokenizer}${r.standIn !== undefined ? ', a stand-in' : ''})`;
}

/**
 * The lint options of a run with readers: with a token budget, the budget counted in the first reader's
 * unit (instead of compact JSON); with a `typescript` reader, the `renders-as-any` findings.
 */
export function readerLintOptions(lint: LintOptions, readers: readonly Reader[], tokenizerNamed: (name: string) => Tokenizer): LintOptions {
  if (readers.length === 0) return lint;
  const checks = [...(lint.checks ?? [])];
  let out: LintOptions = lint;
  const first = readers[0]!;
  if (lint.maxTokens !== undefined || lint.maxToolTokens !== undefined) {
    const unit: ReaderUnit = { renderer: getRenderer(first.renderer), tokenizer: tokenizerNamed(first.tokenizer), forwards: first.forwards, alwaysPaid: first.alwaysPaid, label: unitLabel(first) };
    checks.push(renderedBudget(unit, { ...(lint.maxTokens !== undefined ? { maxTokens: lint.maxTokens } : {}), ...(lint.maxToolTokens !== undefined ? { maxToolTokens: lint.maxToolTokens } : {}) }));
    const { maxTokens: _t, maxToolTokens: _tt, tokenizer: _k, ...rest } = lint;
    out = rest;
  }
  // A profile whose client refuses `oneOf` (openai-strict) gets fixes it can take (see rendersAsAnyFor).
  const typescript = readers.filter((r) => r.renderer === 'typescript');
  if (typescript.length > 0) checks.push(typescript.some((r) => r.profile !== undefined && getProfile(r.profile).rejected.includes('oneOf')) ? rendersAsAnyFor({ oneOfRejected: true }) : rendersAsAny);
  return { ...out, checks };
}

/** The readers section of `report` (text or markdown). */
export function renderReaders(report: RenderedReport, names: readonly string[], format: 'text' | 'markdown', style: Style, top: number): string {
  const md = format === 'markdown';
  const lines: string[] = [];
  const title = 'What each reader sees (tokens of the rendered tools, and types shown as `any`)';
  lines.push(md ? `### ${title}` : style.bold(title), '');
  const rows = report.readers.map((r) => {
    const t = report.total[r.renderer]!;
    return [r.profile !== undefined ? `${r.renderer} (${r.profile})` : r.renderer, r.tokenizer, formatCount(t.tokens), formatCount(t.tokensAfter), pct(t.tokens - t.tokensAfter, t.tokens), `${formatCount(t.any)} → ${formatCount(t.anyAfter)}`];
  });
  lines.push(...renderTable(['reader', 'tokenizer', 'tokens', 'after', 'saved', 'any'], rows, { markdown: md, indent: '  ' }), '');
  for (const r of report.readers) {
    if (r.standIn !== undefined) lines.push(`${md ? '- ' : '  '}${r.renderer}${r.profile ? ` (${r.profile})` : ''} is a stand-in: ${r.standIn}`);
    const paid = report.alwaysPaid?.[r.renderer];
    if (paid !== undefined) lines.push(`${md ? '- ' : '  '}${r.profile ?? r.renderer} defers schemas: every request pays the ${r.alwaysPaid === 'names' ? 'tool names' : r.alwaysPaid} (${formatCount(paid.tokens)} → ${formatCount(paid.tokensAfter)} tokens) plus the server's instructions; a schema is paid when loaded`);
  }
  if (report.readers.some((r) => r.standIn !== undefined || report.alwaysPaid?.[r.renderer] !== undefined)) lines.push('');
  for (const r of report.readers) {
    const order = report.perTool.map((f, i) => [i, f[r.renderer]!] as const).sort((a, b) => b[1].tokens - a[1].tokens || a[0] - b[0]);
    const shown = top > 0 ? order.slice(0, top) : order;
    if (shown.length === 0) continue;
    const head = `Tools as ${r.renderer} renders them, largest first`;
    const toolRows = shown.map(([i, f]) => [names[i] || `#${i}`, formatCount(f.tokens), formatCount(f.tokensAfter), pct(f.tokens - f.tokensAfter, f.tokens), `${f.any} → ${f.anyAfter}`]);
    lines.push(md ? `#### ${head}` : style.bold(head), '', ...renderTable(['tool', 'tokens', 'after', 'saved', 'any'], toolRows, { markdown: md, indent: '  ' }));
    if (shown.length < order.length) lines.push(`${md ? '\n' : ''}… and ${formatCount(order.length - shown.length)} more (--top 0 lists all)`);
    lines.push('');
  }
  return lines.join('\n');
}

function pct(part: number, whole: number): string {
  return whole === 0 ? '0.0%' : `${((part / whole) * 100).toFixed(1)}%`;
}
