/**
 * Pure helpers of the benchmark: statistics, ratios, formatting and table rendering. No clock, no I/O,
 * so test/bench.test.ts can check them against hand-computed values.
 */

/** The median of a list of numbers (mean of the two middle values for an even count); NaN when empty. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Median, minimum and maximum of a list; NaN for each when empty. */
export function summarize(values: readonly number[]): { median: number; min: number; max: number } {
  if (values.length === 0) return { median: NaN, min: NaN, max: NaN };
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return { median: median(values), min, max };
}

/** Percent of `before` that was removed: 100 × (before − after) / before; 0 when `before` is 0. */
export function percentSaved(before: number, after: number): number {
  return before === 0 ? 0 : (100 * (before - after)) / before;
}

/**
 * Speed as a multiple of the floor (`JSON.parse` + `JSON.stringify` of the same text in the same run):
 * median of the measured samples divided by the median of the floor samples.
 */
export function floorRatio(samples: readonly number[], floorSamples: readonly number[]): number {
  const f = median(floorSamples);
  const s = median(samples);
  return f > 0 ? s / f : NaN;
}

/**
 * The median over passes of each pass's time divided by the floor pass timed right before it
 * (`floorsBefore[i]` for `samples[i]`): each ratio is taken in the conditions of its own pass. This machine's
 * clock moves between speeds during a run (bench/validation, one run: floor passes at ~11 or ~17.5 ms, `safe`
 * at ~55 or ~89 ms), and dividing the median of a row's few passes by the median of all the floor passes
 * ({@link floorRatio}) mixed the two (82.5 / 11.5 = 7.2×, where every pass's own ratio was ~5×).
 */
export function pairedRatio(samples: readonly number[], floorsBefore: readonly number[]): number {
  const ratios: number[] = [];
  for (let i = 0; i < samples.length && i < floorsBefore.length; i++) if (floorsBefore[i]! > 0) ratios.push(samples[i]! / floorsBefore[i]!);
  return ratios.length > 0 ? median(ratios) : NaN;
}

/** Megabytes (10^6 bytes) per second. */
export function megabytesPerSecond(bytes: number, ms: number): number {
  return ms > 0 ? bytes / 1e6 / (ms / 1000) : NaN;
}

/** Items per second. */
export function perSecond(count: number, ms: number): number {
  return ms > 0 ? count / (ms / 1000) : NaN;
}

/** Least-squares line y = slope·x + intercept, and r² (1 = a perfect line). */
export function linearFit(xs: readonly number[], ys: readonly number[]): { slope: number; intercept: number; r2: number } {
  const n = xs.length;
  if (n !== ys.length || n < 2) return { slope: NaN, intercept: NaN, r2: NaN };
  let sx = 0;
  let sy = 0;
  for (let i = 0; i < n; i++) {
    sx += xs[i]!;
    sy += ys[i]!;
  }
  const mx = sx / n;
  const my = sy / n;
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = xs[i]! - mx;
    const dy = ys[i]! - my;
    sxx += dx * dx;
    sxy += dx * dy;
    syy += dy * dy;
  }
  if (sxx === 0) return { slope: NaN, intercept: NaN, r2: NaN };
  const slope = sxy / sxx;
  const intercept = my - slope * mx;
  const r2 = syy === 0 ? 1 : (sxy * sxy) / (sxx * syy);
  return { slope, intercept, r2 };
}

/** Counts of each key, keys sorted A–Z so the output is deterministic. */
export function countBy<T>(items: readonly T[], key: (item: T) => string): Record<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) {
    const k = key(item);
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  const out: Record<string, number> = {};
  for (const k of [...counts.keys()].sort()) out[k] = counts.get(k)!;
  return out;
}

/** Adds the counts of `b` into a copy of `a` (keys sorted A–Z). */
export function mergeCounts(a: Readonly<Record<string, number>>, b: Readonly<Record<string, number>>): Record<string, number> {
  const m = new Map<string, number>(Object.entries(a));
  for (const [k, v] of Object.entries(b)) m.set(k, (m.get(k) ?? 0) + v);
  const out: Record<string, number> = {};
  for (const k of [...m.keys()].sort()) out[k] = m.get(k)!;
  return out;
}

/** `1234567` → `1,234,567`. */
export function formatInt(n: number): string {
  if (!Number.isFinite(n)) return '–';
  const sign = n < 0 ? '-' : '';
  const digits = String(Math.round(Math.abs(n)));
  return sign + digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** A percentage with one decimal: `12.34` → `12.3%`; `–` when not a finite number. */
export function formatPercent(p: number, digits = 1): string {
  return Number.isFinite(p) ? `${p.toFixed(digits)}%` : '–';
}

/** A ratio like `2.35×`. */
export function formatRatio(r: number, digits = 2): string {
  return Number.isFinite(r) ? `${r.toFixed(digits)}×` : '–';
}

/** Milliseconds with a precision that suits the size: `0.042 ms`, `3.14 ms`, `1,234 ms`. */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return '–';
  if (ms < 1) return `${ms.toFixed(3)} ms`;
  if (ms < 100) return `${ms.toFixed(2)} ms`;
  return `${formatInt(ms)} ms`;
}

/** Bytes as MB with two decimals (10^6 bytes). */
export function formatMB(bytes: number): string {
  return Number.isFinite(bytes) ? `${(bytes / 1e6).toFixed(2)} MB` : '–';
}

/** `before → after`, both with thousands separators. */
export function formatArrow(before: number, after: number): string {
  return `${formatInt(before)} → ${formatInt(after)}`;
}

/** Column alignment: `l`eft or `r`ight. */
export type Align = 'l' | 'r';

/** A Markdown table; `|` inside cells is escaped. */
export function markdownTable(header: readonly string[], rows: readonly (readonly string[])[], align: readonly Align[] = []): string {
  const a = (i: number): Align => align[i] ?? (i === 0 ? 'l' : 'r');
  const esc = (s: string) => s.replace(/\|/g, '\\|');
  const lines = [`| ${header.map(esc).join(' | ')} |`, `|${header.map((_, i) => (a(i) === 'l' ? ':--' : '--:')).join('|')}|`];
  for (const r of rows) lines.push(`| ${r.map(esc).join(' | ')} |`);
  return lines.join('\n');
}

/** A plain-text table for a terminal, columns padded to their widest cell. */
export function textTable(header: readonly string[], rows: readonly (readonly string[])[], align: readonly Align[] = []): string {
  const a = (i: number): Align => align[i] ?? (i === 0 ? 'l' : 'r');
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const fmt = (r: readonly string[]) => widths.map((w, i) => (a(i) === 'l' ? (r[i] ?? '').padEnd(w) : (r[i] ?? '').padStart(w))).join('  ').trimEnd();
  return [fmt(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(fmt)].join('\n');
}

/**
 * Replaces what lies between `<!-- NAME:start -->` and `<!-- NAME:end -->` in `text` (markers kept).
 * Returns undefined when the markers are missing or out of order.
 */
export function replaceMarkedBlock(text: string, name: string, content: string): string | undefined {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const i = text.indexOf(start);
  const j = text.indexOf(end, i < 0 ? 0 : i + start.length);
  if (i < 0 || j < 0) return undefined;
  return text.slice(0, i + start.length) + '\n' + content.replace(/\n*$/, '\n') + text.slice(j);
}

/**
 * A label for a corpus file: `package@version`, plus the variant the file name carries after `--`
 * (`azure__mcp--mode-all.json` → `@azure/mcp@2.0.5 [mode-all]`), so two captures of one package differ.
 */
export function serverLabel(file: string, pkg: string, version: string): string {
  const base = file.replace(/\.json$/, '');
  const cut = base.indexOf('--');
  const variant = cut >= 0 ? base.slice(cut + 2) : '';
  return `${pkg}@${version}${variant ? ` [${variant}]` : ''}`;
}

/** FNV-1a 32-bit hash of a string: a deterministic order for synthetic inputs. */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
