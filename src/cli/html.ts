/**
 * `report --format html`: one self-contained page — no script, no font, no stylesheet or image from
 * anywhere (a Content-Security-Policy of `default-src 'none'` says so to the browser too) — with bar charts
 * drawn as inline SVG by the few lines below: per tool, its size stacked by part (description, parameters,
 * definitions, output schema, the rest) and its size after the preset; what each transform saves; and, with
 * readers (`--render`, `--profile`), each tool as each reader counts it, before and after.
 *
 * Why no chart library: the charts are horizontal bars, which take a rectangle per figure; the libraries
 * that draw them (d3, Chart.js, Vega) run in the browser as scripts (hundreds of KB inlined into every
 * report, and a script the page would have to allow) or, to draw on the server, want a DOM. Every string
 * from the input (tool names, transform names, file names, finding messages) goes through {@link esc}.
 * The same data gives the same bytes: no clock, no random ids, numbers formatted one way.
 */
import { formatCount } from '../core/format.js';
import type { Finding } from '../lint/index.js';
import type { ReportData } from './format.js';
import { PART_NAMES, type PartFigures, type PartName } from './html-parts.js';

/** One input of the page: what `report` measured, and each tool's parts (by tool index). */
export interface HtmlSection {
  readonly data: ReportData;
  readonly parts: readonly PartFigures[];
  /** Per renderer of `data.readers`, each tool's parts in that reader's tokens (undefined: not split). */
  readonly readerParts?: Readonly<Record<string, readonly (PartFigures | undefined)[]>>;
}

const PART_LABELS: Readonly<Record<PartName, string>> = {
  description: 'description',
  parameters: 'parameters',
  definitions: 'definitions',
  outputSchema: 'output schema',
  other: 'name, annotations and the rest',
};

const WIDTH = 920;
const LABEL_W = 250;
const BAR_W = 500;
const BAR_X = LABEL_W + 10;
const ROW = 22;
const LABEL_CHARS = 34;

/** The whole page for one or more inputs; `top` limits the tools charted per input (0 = all). */
export function renderHtml(sections: readonly HtmlSection[], top: number): string {
  const title = sections.length === 1 ? `toolslim report: ${sections[0]!.data.source}` : `toolslim report: ${sections.length} inputs`;
  const body = sections.map((s, i) => renderSection(s, top, i)).join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>toolslim report</h1>
${body}
</body>
</html>
`;
}

function renderSection(section: HtmlSection, top: number, n: number): string {
  const { data, parts } = section;
  const tokens = data.total.o200k !== undefined;
  const unit = tokens ? 'tokens (o200k_base, compact JSON)' : 'bytes (UTF-8 of compact JSON; tokens not counted: --no-tokens)';
  const short = tokens ? 'tokens' : 'bytes';
  const before = tokens ? data.total.o200k! : data.total.bytes;
  const after = tokens ? data.total.o200kAfter! : data.total.bytesAfter;
  const approx = data.estimatedTokens ? ` Approximate for ${formatCount(data.estimatedTokens)} tool${data.estimatedTokens === 1 ? '' : 's'} holding a run of more than 256 characters without a break (counted in slices).` : '';
  const out: string[] = [];
  out.push(`<section id="input-${n}">`, `<h2>${esc(data.source)}</h2>`);
  out.push(
    `<p class="summary">${formatCount(data.tools.length)} tool${data.tools.length === 1 ? '' : 's'}: ${formatCount(before)} ${short} → ${formatCount(after)} after ${esc(data.steps)} (${pct(before - after, before)} saved)` +
      (tokens ? `; ${formatCount(data.total.bytes)} → ${formatCount(data.total.bytesAfter)} bytes` : '') +
      `. Unit: ${unit}.${esc(approx)}</p>`,
  );

  const shown = top > 0 ? data.tools.slice(0, top) : data.tools;
  const toolRows: BarRow[] = shown.map((t) => {
    const p = parts[t.index]!;
    const total = tokens ? t.o200k! : t.bytes;
    const afterValue = tokens ? t.o200kAfter! : t.bytesAfter;
    const name = t.name || `#${t.index}`;
    return {
      label: name,
      cls: 'tool',
      segments: PART_NAMES.filter((k) => p[k] > 0).map((k) => ({ cls: `part part-${k}`, value: p[k], title: `${name}: ${PART_LABELS[k]} ${formatCount(p[k])} ${short}` })),
      after: { value: afterValue, title: `${name}: ${formatCount(afterValue)} ${short} after ${data.steps}` },
      text: `${formatCount(total)} → ${formatCount(afterValue)}`,
    };
  });
  out.push(`<h3>Tools by size, largest first (${short})</h3>`);
  out.push(legend([...PART_NAMES.map((k) => ({ cls: `part-${k}`, label: PART_LABELS[k] })), { cls: 'after', label: `after ${data.steps}` }]));
  out.push(barChart(toolRows, 'tools', `${short} per tool and part`));
  if (shown.length < data.tools.length) out.push(`<p class="note">… and ${formatCount(data.tools.length - shown.length)} more tools (--top 0 charts all).</p>`);

  if (data.transforms.length > 0) {
    const rows: BarRow[] = data.transforms.map((t) => {
      const saved = tokens ? (t.tokensSaved ?? 0) : t.bytesSaved;
      return {
        label: t.name,
        cls: 'transform',
        segments: [{ cls: saved < 0 ? 'saving grew' : 'saving', value: Math.abs(saved), title: `${t.name}: ${saved < 0 ? 'grew by' : 'saved'} ${formatCount(Math.abs(saved))} ${short} in ${formatCount(t.toolsChanged)} tools (${formatCount(t.changes)} changes)` }],
        text: `${saved < 0 ? '+' : saved > 0 ? '−' : ''}${formatCount(Math.abs(saved))} ${short} · ${formatCount(t.toolsChanged)} tool${t.toolsChanged === 1 ? '' : 's'}`,
      };
    });
    out.push(`<h3>What each transform saves (${esc(data.steps)}; ${short})</h3>`, barChart(rows, 'transforms', `${short} saved per transform`));
  }

  for (const r of data.readers ?? []) {
    const who = r.profile !== undefined ? `${r.profile} (${r.renderer} rendering, ${r.tokenizer})` : `the ${r.renderer} reader (${r.tokenizer})`;
    const figures = data.tools.map((t) => [t, t.rendered?.[r.renderer]] as const).filter((x) => x[1] !== undefined);
    figures.sort((a, b) => b[1]!.tokens - a[1]!.tokens || a[0].index - b[0].index);
    const split = section.readerParts?.[r.renderer];
    const rows: BarRow[] = (top > 0 ? figures.slice(0, top) : figures).map(([t, f]) => {
      const name = t.name || `#${t.index}`;
      const p = split?.[t.index];
      return {
        label: name,
        cls: 'reader-tool',
        segments: p
          ? PART_NAMES.filter((k) => p[k] > 0).map((k) => ({ cls: `part part-${k}`, value: p[k], title: `${name}: ${PART_LABELS[k]} ${formatCount(p[k])} tokens as ${who} reads it` }))
          : [{ cls: 'reader', value: f!.tokens, title: `${name}: ${formatCount(f!.tokens)} tokens as ${who} reads it` }],
        after: { value: f!.tokensAfter, title: `${name}: ${formatCount(f!.tokensAfter)} tokens after ${data.steps}` },
        text: `${formatCount(f!.tokens)} → ${formatCount(f!.tokensAfter)}`,
      };
    });
    const total = data.total.rendered?.[r.renderer];
    const paid = data.alwaysPaid?.[r.renderer];
    out.push(`<h3 class="reader-title">Tokens as ${esc(who)} reads the tools</h3>`);
    if (total) out.push(`<p class="summary">${formatCount(total.tokens)} → ${formatCount(total.tokensAfter)} tokens (${pct(total.tokens - total.tokensAfter, total.tokens)} saved); parameter types read as <code>any</code>: ${formatCount(total.any)} → ${formatCount(total.anyAfter)}.${esc(approx)}</p>`);
    if (r.standIn !== undefined) out.push(`<p class="note">A stand-in: ${esc(r.standIn)}.</p>`);
    if (paid) out.push(`<p class="note">Defers schemas: every request pays ${formatCount(paid.tokens)} → ${formatCount(paid.tokensAfter)} tokens; a schema is paid when loaded.</p>`);
    out.push(`<p class="note">Each part: the tokens this reader's text of the tool loses without it (measured by rendering the tool again); a part the reader does not see counts 0.</p>`);
    out.push(legend([...PART_NAMES.filter((k) => k !== 'outputSchema').map((k) => ({ cls: `part-${k}`, label: PART_LABELS[k] })), ...(rows.some((row) => row.segments.some((seg) => seg.cls === 'reader')) ? [{ cls: 'reader', label: 'tokens (not split: the tool does not render without a part)' }] : []), { cls: 'after', label: `after ${data.steps}` }]));
    out.push(barChart(rows, `reader-${r.renderer}`, `tokens per tool as ${who} reads it`));
  }

  out.push(renderFindings(data.findings, data.skipped.length));
  out.push('</section>');
  return out.join('\n');
}

interface Segment {
  readonly cls: string;
  readonly value: number;
  readonly title: string;
}

interface BarRow {
  readonly label: string;
  /** The class of the row's group (`<g class="tool">`): what a test counts. */
  readonly cls: string;
  readonly segments: readonly Segment[];
  /** A thin bar under the row: the size after the preset. */
  readonly after?: { readonly value: number; readonly title: string };
  readonly text: string;
}

/** Horizontal bars, one row per entry, segments stacked; all rows on one scale. */
function barChart(rows: readonly BarRow[], id: string, label: string): string {
  let max = 0;
  for (const r of rows) max = Math.max(max, r.segments.reduce((a, s) => a + s.value, 0), r.after?.value ?? 0);
  const scale = (v: number) => (max === 0 ? 0 : (v / max) * BAR_W);
  const height = rows.length * ROW + 4;
  const out: string[] = [`<svg class="chart" id="chart-${esc(id)}" role="img" aria-label="${esc(label)}" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" xmlns="http://www.w3.org/2000/svg">`];
  rows.forEach((r, i) => {
    const y = i * ROW + 2;
    out.push(`<g class="${r.cls}" transform="translate(0 ${y})">`, `<title>${esc(r.label)}</title>`);
    out.push(`<text class="label" x="${LABEL_W}" y="13" text-anchor="end">${esc(shorten(r.label))}</text>`);
    let x = BAR_X;
    const barH = r.after ? 13 : 16;
    for (const s of r.segments) {
      const w = scale(s.value);
      out.push(`<rect class="${s.cls}" x="${num(x)}" y="1" width="${num(w)}" height="${barH}"><title>${esc(s.title)}</title></rect>`);
      x += w;
    }
    let end = x;
    if (r.after) {
      const w = scale(r.after.value);
      out.push(`<rect class="after" x="${BAR_X}" y="${barH + 2}" width="${num(w)}" height="4"><title>${esc(r.after.title)}</title></rect>`);
      end = Math.max(end, BAR_X + w);
    }
    out.push(`<text class="value" x="${num(end + 6)}" y="13">${esc(r.text)}</text>`, '</g>');
  });
  out.push('</svg>');
  return out.join('\n');
}

function legend(items: readonly { readonly cls: string; readonly label: string }[]): string {
  return `<p class="legend">${items.map((i) => `<span><i class="key ${i.cls}"></i>${esc(i.label)}</span>`).join(' ')}</p>`;
}

function renderFindings(findings: readonly Finding[], skipped: number): string {
  const counts = new Map<string, { severity: string; code: string; n: number; first: Finding }>();
  for (const f of findings) {
    const key = `${f.severity} ${f.code}`;
    const c = counts.get(key);
    if (c) c.n++;
    else counts.set(key, { severity: f.severity, code: f.code, n: 1, first: f });
  }
  const order = ['error', 'warning', 'info'];
  const rows = [...counts.values()].sort((a, b) => order.indexOf(a.severity) - order.indexOf(b.severity) || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
  const out = [`<h3>Findings (${formatCount(findings.length)})${skipped > 0 ? ` · ${formatCount(skipped)} skipped by a transform` : ''}</h3>`];
  if (rows.length === 0) out.push('<p class="note">None.</p>');
  else {
    out.push('<table class="findings"><thead><tr><th>severity</th><th>code</th><th>count</th><th>first</th></tr></thead><tbody>');
    for (const r of rows) out.push(`<tr class="${esc(r.severity)}"><td>${esc(r.severity)}</td><td><code>${esc(r.code)}</code></td><td>${formatCount(r.n)}</td><td>${esc(r.first.message)}</td></tr>`);
    out.push('</tbody></table>');
  }
  return out.join('\n');
}

/**
 * Text for HTML and SVG, as content or inside a double- or single-quoted attribute: the five markup
 * characters as references, and the control characters HTML forbids as U+FFFD.
 */
export function esc(s: string): string {
  return s.replace(/[&<>"']|[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, (c) => ESCAPES[c] ?? '\ufffd');
}

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** At most {@link LABEL_CHARS} code points, with an ellipsis when cut. */
function shorten(s: string): string {
  const chars = Array.from(s);
  return chars.length <= LABEL_CHARS ? s : chars.slice(0, LABEL_CHARS - 1).join('') + '…';
}

/** A coordinate: at most two decimals, no trailing zeros. */
function num(v: number): string {
  return String(Math.round(v * 100) / 100);
}

function pct(part: number, whole: number): string {
  return whole === 0 ? '0.0%' : `${((100 * part) / whole).toFixed(1)}%`;
}

const STYLE = `
body{font:14px/1.4 system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px;color:#1b1f24;background:#fff;max-width:${WIDTH + 40}px}
h1{font-size:20px}h2{font-size:17px;border-top:1px solid #d0d7de;padding-top:12px;word-break:break-all}h3{font-size:15px;margin:20px 0 6px}
.summary,.note{margin:4px 0}.note{color:#57606a}
.chart{display:block;overflow:visible}.chart text{font-size:12px;fill:#1b1f24}.chart .value{fill:#57606a}
.legend span{margin-right:14px;white-space:nowrap}.key{display:inline-block;width:11px;height:11px;margin-right:4px;vertical-align:-1px}
.part-description{fill:#4e79a7;background:#4e79a7}.part-parameters{fill:#f28e2b;background:#f28e2b}.part-definitions{fill:#e15759;background:#e15759}
.part-outputSchema{fill:#76b7b2;background:#76b7b2}.part-other{fill:#bab0ac;background:#bab0ac}
.after{fill:#2da44e;background:#2da44e}.saving{fill:#2da44e}.saving.grew{fill:#cf222e}.reader{fill:#8250df;background:#8250df}
table.findings{border-collapse:collapse}table.findings td,table.findings th{border:1px solid #d0d7de;padding:3px 8px;text-align:left;vertical-align:top}
tr.error td:first-child{color:#cf222e}tr.warning td:first-child{color:#9a6700}
`;
