/** Renders bench results: the terminal summary, bench/results.md, the README block, a history line. */
import { COMPOSITION_PARTS, type Composition } from './composition.js';
import { formatArrow, formatInt, formatMB, formatMs, formatPercent, formatRatio, markdownTable, perSecond, megabytesPerSecond, percentSaved, textTable, type Align } from './stats.js';
import type { BenchResults, RunInfo, RunSummary, ScalingPoint, ServerResult, SpeedRow, Target } from './types.js';

type Table = { header: string[]; rows: string[][]; align?: Align[] };

/** The corpus table for the default pipeline: one row per server, then the totals. */
export function corpusTable(r: BenchResults): Table {
  const header = ['server', 'tools', 'bytes before → after', 'tokens before → after (o200k, compact JSON)', 'saved (bytes)', 'saved (tokens)', 'time', '× floor'];
  const rows = r.servers.map((s) => {
    const d = s.runs['default'];
    if (!d?.after) return [s.label, formatInt(s.tools), `${formatInt(s.before.bytes)} → failed`, `${formatInt(s.before.tokens)} → failed`, '–', '–', formatMs(s.timeMs), '–'];
    const ab = d.after.bytes + (d.instructions?.bytes ?? 0);
    const at = d.after.tokens + (d.instructions?.tokens ?? 0);
    return [s.label, formatInt(s.tools), formatArrow(s.before.bytes, ab), formatArrow(s.before.tokens, at), formatPercent(d.pctBytes ?? NaN), formatPercent(d.pctTokens ?? NaN), formatMs(s.timeMs), formatRatio(s.floorMs > 0 ? s.timeMs / s.floorMs : NaN, 1)];
  });
  const t = r.summaries['default'];
  const time = r.servers.reduce((a, s) => a + s.timeMs, 0);
  const floor = r.servers.reduce((a, s) => a + s.floorMs, 0);
  if (t) {
    rows.push([`**total** (${t.servers} servers)`, formatInt(r.corpus.tools), formatArrow(t.before.bytes, t.after.bytes), formatArrow(t.before.tokens, t.after.tokens), formatPercent(t.pctBytes), formatPercent(t.pctTokens), formatMs(time), formatRatio(floor > 0 ? time / floor : NaN, 1)]);
  }
  return { header, rows };
}

/** Headline lines under the corpus table: totals, spread across servers, throughput. */
export function headline(r: BenchResults): string[] {
  const t = r.summaries['default'];
  if (!t) return [];
  const time = r.servers.reduce((a, s) => a + s.timeMs, 0);
  const def = r.runs.find((x) => x.key === 'default');
  return [
    `Default pipeline${def ? ` (${def.steps.map((s) => `\`${s}\``).join(' → ')}${def.sameAs?.length ? `; the steps of preset ${def.sameAs.map((n) => `\`${n}\``).join(' and ')}` : ''})` : ''} over ${t.servers} servers, ${formatInt(r.corpus.tools)} tools: ` +
      `${formatInt(t.before.bytes)} → ${formatInt(t.after.bytes)} bytes (−${formatPercent(t.pctBytes)}), ${formatInt(t.before.tokens)} → ${formatInt(t.after.tokens)} o200k_base tokens (−${formatPercent(t.pctTokens)}).`,
    `Per server, tokens saved: median ${formatPercent(t.spreadTokens.median)}, min ${formatPercent(t.spreadTokens.min)}, max ${formatPercent(t.spreadTokens.max)} ` +
      `(bytes: median ${formatPercent(t.spreadBytes.median)}, min ${formatPercent(t.spreadBytes.min)}, max ${formatPercent(t.spreadBytes.max)}). Anchor: ${r.anchors.publishedOptimizer.text}.`,
    `Throughput (default options, sum of per-server medians ${formatMs(time)}): ${megabytesPerSecond(r.corpus.before.bytes, time).toFixed(1)} MB/s, ${formatInt(perSecond(r.corpus.tools, time))} tools/s.`,
  ];
}

/** Median/min/max percent saved across servers for every run, beside the published anchor. */
export function reductionTable(r: BenchResults): Table {
  const header = ['pipeline', 'safety / steps', 'servers', 'tokens saved: median', 'min', 'max', 'bytes saved: median', 'min', 'max', 'total tokens saved'];
  const a = r.anchors.publishedOptimizer;
  const rows: string[][] = [[`anchor: a published optimizer`, '–', String(a.servers), formatPercent(a.median, 0), formatPercent(a.min, 0), formatPercent(a.max, 0), '–', '–', '–', '–']];
  for (const info of r.runs) {
    const s = r.summaries[info.key];
    if (!s) continue;
    rows.push([runName(info), info.kind === 'transform' ? (info.safety ?? '') : info.steps.join(' → '), String(s.servers), formatPercent(s.spreadTokens.median), formatPercent(s.spreadTokens.min), formatPercent(s.spreadTokens.max), formatPercent(s.spreadBytes.median), formatPercent(s.spreadBytes.min), formatPercent(s.spreadBytes.max), formatPercent(s.pctTokens)]);
  }
  return { header, rows, align: ['l', 'l'] };
}

/** The corpus's bytes by part, before and after the default pipeline. */
export function compositionTable(c: NonNullable<BenchResults['composition']>): Table {
  const total = (x: Composition) => COMPOSITION_PARTS.reduce((a, p) => a + x[p], 0);
  const tb = total(c.before);
  const ta = total(c.after);
  const header = ['part', 'bytes before', 'share', 'bytes after (default pipeline)', 'share', 'saved'];
  const rows = [...COMPOSITION_PARTS.map((p) => [p, c.before[p], c.after[p]] as const), ['**total**', tb, ta] as const].map(([p, b, a]) => [
    p,
    formatInt(b),
    formatPercent((100 * b) / tb),
    formatInt(a),
    formatPercent((100 * a) / ta),
    formatPercent(percentSaved(b, a)),
  ]);
  return { header, rows, align: ['l', 'r', 'r', 'r', 'r', 'r'] };
}

/** Our Notion 2.5.2 figures beside the upstream PR's. */
export function notionTable(r: BenchResults): Table {
  const n = r.anchors.notion;
  const header = ['Notion MCP server', 'bytes before → after', 'saved (bytes)', 'tokens before → after', 'saved (tokens)'];
  const rows: string[][] = [[`anchor: upstream PR, per-tool pruning`, formatArrow(n.before, n.after), formatPercent(percentSaved(n.before, n.after)), '–', '–']];
  const s = r.servers.find((x) => x.file === n.file);
  if (s) {
    for (const info of r.runs) {
      const run = s.runs[info.key];
      if (!run?.after) continue;
      const ab = run.after.bytes + (run.instructions?.bytes ?? 0);
      const at = run.after.tokens + (run.instructions?.tokens ?? 0);
      rows.push([`${s.label}: ${runName(info)}`, formatArrow(s.before.bytes, ab), formatPercent(run.pctBytes ?? NaN), formatArrow(s.before.tokens, at), formatPercent(run.pctTokens ?? NaN)]);
    }
  }
  return { header, rows };
}

/** Bytes and tokens saved per server by each transform alone (or percent per preset). */
export function perRunTable(r: BenchResults, kind: 'transform' | 'preset'): Table {
  const infos = r.runs.filter((x) => x.kind === kind);
  const header = ['server', ...infos.map((i) => (kind === 'transform' ? `${withOptions(i)} (bytes / tokens)` : `${i.name} (% bytes / % tokens)`))];
  const cell = (s: ServerResult, info: RunInfo) => {
    const run = s.runs[info.key];
    if (!run) return '–';
    if (run.failed !== undefined) return 'failed';
    return kind === 'transform' ? `${formatInt(run.bytesSaved ?? NaN)} / ${formatInt(run.tokensSaved ?? NaN)}` : `${formatPercent(run.pctBytes ?? NaN)} / ${formatPercent(run.pctTokens ?? NaN)}`;
  };
  const rows = r.servers.map((s) => [s.label, ...infos.map((i) => cell(s, i))]);
  rows.push([
    '**total**',
    ...infos.map((i) => {
      const t = r.summaries[i.key];
      if (!t) return '–';
      return kind === 'transform' ? `${formatInt(t.before.bytes - t.after.bytes)} / ${formatInt(t.before.tokens - t.after.tokens)}` : `${formatPercent(t.pctBytes)} / ${formatPercent(t.pctTokens)}`;
    }),
  ]);
  return { header, rows };
}

/** Skips and diagnostics per run, grouped by `transform/code`. */
export function findingsTable(r: BenchResults): Table {
  const header = ['pipeline', 'skipped (by transform)', 'diagnostics (by transform/code)', 'errors', 'gate failures', 'servers where the run threw'];
  const rows = r.runs.map((info) => {
    const s = r.summaries[info.key]!;
    return [runName(info), counts(s.skipped), counts(s.diagnostics), formatInt(s.errors), formatInt(s.gateFailures), formatInt(s.failedServers)];
  });
  return { header, rows, align: ['l', 'l', 'l'] };
}

/** Every (server, pipeline) pair with a skip, a diagnostic or a failure. */
export function findingsPerServer(r: BenchResults): Table {
  const header = ['server', 'pipeline', 'skipped', 'diagnostics'];
  const rows: string[][] = [];
  for (const s of r.servers) {
    for (const info of r.runs) {
      const run = s.runs[info.key];
      if (!run) continue;
      if (run.failed !== undefined) rows.push([s.label, runName(info), 'the run threw', run.failed]);
      else if (Object.keys(run.skipped ?? {}).length + Object.keys(run.diagnostics ?? {}).length > 0) rows.push([s.label, runName(info), counts(run.skipped ?? {}), counts(run.diagnostics ?? {})]);
    }
  }
  return { header, rows, align: ['l', 'l', 'l', 'l'] };
}

export function speedTable(r: BenchResults): Table {
  const v = r.validationSpeed;
  const other = new Map((v?.rows ?? []).map((x) => [x.key, x] as const));
  const header = ['what (whole set per pass, parse included)', 'median', '× floor', '× floor (median ÷ median floor)', 'MB/s', 'tools/s', 'passes', ...(v ? ['validation: median', 'validation: × floor', 'validation: median ÷ median floor', 'validation: passes'] : [])];
  // The older estimator beside the one of record (see pairedRatio in bench/lib/stats.ts); absent in results from before it.
  const medians = (x: SpeedRow) => (x.ratioOfMedians === undefined ? '–' : formatRatio(x.ratioOfMedians));
  const rows = r.speed.rows.map((x) => {
    const y = other.get(x.key);
    return [x.label, formatMs(x.medianMs), formatRatio(x.ratio), medians(x), x.mbPerS.toFixed(1), formatInt(x.toolsPerS), String(x.samplesMs.length), ...(v ? (y ? [formatMs(y.medianMs), formatRatio(y.ratio), medians(y), String(y.samplesMs.length)] : ['–', '–', '–', '–']) : [])];
  });
  return { header, rows };
}

/**
 * The user-facing rows side by side: with a forced full GC before each pass (the targets) and without, on the
 * corpus and, when there is one, on the validation set.
 */
export function userSpeedTable(r: BenchResults): Table {
  const v = r.validationSpeed;
  const header = ['what a user gets (parse included)', '× floor, GC forced before each pass', '× floor, no forced GC', 'passes', ...(v ? ['validation: × floor, GC forced', 'validation: × floor, no forced GC'] : [])];
  const noGc = new Map((r.speed.rowsNoGc ?? []).map((x) => [x.key, x] as const));
  const vGc = new Map((v?.rows ?? []).map((x) => [x.key, x] as const));
  const vNoGc = new Map((v?.rowsNoGc ?? []).map((x) => [x.key, x] as const));
  const ratio = (m: Map<string, SpeedRow>, key: string) => (m.has(key) ? formatRatio(m.get(key)!.ratio) : '–');
  const rows = r.speed.rows
    .filter((x) => x.group === 'user' || x.group === 'floor')
    .map((x) => [x.label, formatRatio(x.ratio), ratio(noGc, x.key), `${x.samplesMs.length} / ${noGc.get(x.key)?.samplesMs.length ?? '–'}`, ...(v ? [ratio(vGc, x.key), ratio(vNoGc, x.key)] : [])]);
  const vCosts = new Map((v?.verifyCosts ?? []).map((c) => [c.level, c] as const));
  for (const c of r.speed.verifyCosts ?? []) {
    const w = vCosts.get(c.level);
    rows.push([`cost of the gate at \`${c.level}\` (the default steps at that level minus \`verify: false\`)`, formatRatio(c.ratio), formatRatio(c.ratioNoGc), '', ...(v ? (w ? [formatRatio(w.ratio), formatRatio(w.ratioNoGc)] : ['–', '–']) : [])]);
  }
  return { header, rows };
}

/** Each target on each set, as result lines. */
function targetLines(r: BenchResults): { met: boolean; text: string }[] {
  const sets = [{ name: `bench/corpus (${formatInt(r.speed.corpusTools)} tools)`, s: r.speed }, ...(r.validationSpeed ? [{ name: `bench/validation (${r.validationSpeed.servers} servers, ${formatInt(r.validationSpeed.corpusTools)} tools)`, s: r.validationSpeed }] : [])];
  return sets.flatMap(({ name, s }) => s.targets.map((x) => ({ met: x.met, text: `${name}: ${targetLine(x)}` })));
}

function targetLine(x: BenchResults['speed']['targets'][number]): string {
  return `${x.what}: ${formatRatio(x.value)}${x.valueNoGc !== undefined ? ` (without the forced GC: ${formatRatio(x.valueNoGc)})` : ''}`;
}

export function scalingTable(points: readonly ScalingPoint[], per: 'tool' | 'MB' = 'tool'): Table {
  const variants = points.find((p) => p.rows.length > 0)?.rows.map((x) => ({ key: x.key, label: x.label })) ?? [];
  const header = ['size', 'tools', 'input', ...variants.map((v) => `${v.label}`), per === 'tool' ? 'µs/tool (default)' : 'ms/MB (default)', 'heap: input', 'heap: result'];
  const rows = points.map((p) => {
    if (p.rows.length === 0) return [p.size, formatInt(p.tools), 'skipped', ...variants.map(() => '–'), '–', '–', '–'];
    const def = p.rows.find((x) => x.key === 'default');
    const rate = def ? (per === 'tool' ? def.usPerTool : def.medianMs / (p.bytes / 1e6)) : NaN;
    return [
      p.size + (p.defs !== undefined ? ` (${formatInt(p.defs)} defs, ${formatInt(p.defsRemoved ?? 0)} pruned)` : ''),
      formatInt(p.tools),
      formatMB(p.bytes),
      ...variants.map((v) => {
        const x = p.rows.find((y) => y.key === v.key);
        return x ? (v.key === 'floor' ? formatMs(x.medianMs) : `${formatMs(x.medianMs)} (${formatRatio(x.ratio, 1)})`) : '–';
      }),
      Number.isFinite(rate) ? rate.toFixed(2) : '–',
      formatMB(p.inputHeapBytes),
      formatMB(p.resultHeapBytes),
    ];
  });
  return { header, rows };
}

/**
 * The two sizes issue 8 names: a tools/list of at least 50 MB, and 100,000 tools. For each, the first
 * point of the series that reaches it: the default pipeline's time (ratio to the floor) and the heap its
 * result holds beside the input's; ❌ when no point reached it (skipped for the budget, or quick mode).
 */
export function sizeTargets(points: readonly ScalingPoint[]): string[] {
  const line = (what: string, p: ScalingPoint | undefined) => {
    const row = p?.rows.find((x) => x.key === 'default');
    if (!p || !row) {
      const skipped = points.find((x) => x.skipped && (what.startsWith('100') ? x.tools >= 100_000 : x.tools >= 30_000));
      return `❌ ${what}: not measured${skipped ? ` (${skipped.size} skipped: ${skipped.skipped})` : ' in this run'}`;
    }
    return `✅ ${what}: ${p.size}, ${formatMB(p.bytes)}: ${row.label} ${formatMs(row.medianMs)} (${formatRatio(row.ratio)} floor); heap held by the input ${formatMB(p.inputHeapBytes)}, by the result on top of it ${formatMB(p.resultHeapBytes)}`;
  };
  const done = points.filter((p) => !p.skipped && p.rows.length > 0);
  return [line('a tools/list of 50 MB or more', done.find((p) => p.bytes >= 50e6)), line('100,000 tools', done.find((p) => p.tools >= 100_000))];
}

/** Why sizes of a series were skipped, one line each. */
export function skippedSizes(points: readonly ScalingPoint[]): string[] {
  return points.filter((p) => p.skipped).map((p) => `${p.size} skipped: ${p.skipped}.`);
}

export function fitTable(r: BenchResults): Table {
  const header = ['tool-list series: least-squares fit', 'µs per tool', 'fixed cost', 'r²'];
  const rows = r.scaling.fits.map((f) => [f.label, f.usPerTool.toFixed(2), formatMs(f.interceptMs), f.r2.toFixed(4)]);
  return { header, rows };
}

export function importTable(r: BenchResults): Table {
  const header = ['import in a fresh process', 'median time', 'heap retained', 'runs'];
  const rows = r.importCost.rows.map((x) => [x.what, formatMs(x.medianMs), formatMB(x.medianHeapBytes), String(x.runs)]);
  return { header, rows };
}

/** The terminal summary. */
export function renderConsole(r: BenchResults): string {
  const t = (x: Table) => textTable(x.header.map(stripMd), x.rows.map((row) => row.map(stripMd)), x.align);
  const out: string[] = [];
  out.push(`toolslim bench · ${r.environment.date} · node ${r.environment.node} · ${r.environment.cpu} ×${r.environment.cores} · ${r.environment.commit}${r.environment.dirty ? ' (dirty)' : ''}${r.environment.quick ? ' · QUICK' : ''}`, '');
  out.push(t(corpusTable(r)), '', ...headline(r).map(stripTicks), '');
  out.push(t(reductionTable(r)), '');
  out.push(t(notionTable(r)), '', `Anchor: ${r.anchors.notion.text}.`, '');
  out.push(t(findingsTable(r)), '');
  out.push(`Speed: ratios to the floor (JSON.parse + JSON.stringify of the same text, timed right before every timed pass; each pass divided by the floor pass before it, then the median of those ratios), every timed region parsing the text first, ${r.speed.iterations} interleaved passes, medians, ${clockText(r)}; gate ${r.speed.gateDetected ? 'detected' : 'not detected (no verify option yet)'}.`, t(userSpeedTable(r)), '', t(speedTable(r)), '');
  for (const x of targetLines(r)) out.push(`${x.met ? 'PASS' : 'FAIL'} ${stripTicks(x.text)}`);
  out.push('', 'Scaling: synthetic tool lists (corpus tools repeated and renamed)', t(scalingTable(r.scaling.toolLists)), ...skippedSizes(r.scaling.toolLists), '', t(fitTable(r)), '');
  out.push('Scaling: one tool with a huge input schema', t(scalingTable(r.scaling.schemas, 'MB')), '');
  out.push(...importLines(r).map(stripTicks), '');
  if (r.warnings.length > 0) out.push('Warnings:', ...r.warnings.map((w) => `  ${w}`), '');
  out.push(`Done in ${r.durationS} s.`, '');
  return out.join('\n');
}

function importLines(r: BenchResults): string[] {
  const c = r.importCost;
  if (c.error) return [`Import cost: not measured (${c.error}).`];
  const ok = c.timeRatio <= 1.2;
  return [
    textTableOrNothing(importTable(r)),
    `${ok ? 'PASS' : 'FAIL'} importing \`toolslim\` costs ≤ 1.2× importing \`ajv\` alone: ${formatRatio(c.timeRatio)} time, ${formatRatio(c.heapRatio)} heap.`,
    `\`dist/index.js\` imports these packages (following its chunks): ${c.packagesImported.length ? c.packagesImported.map((p) => `\`${p}\``).join(', ') : 'none'}; tokenizer loaded by importing \`toolslim\`: ${c.tokenizerImported ? 'YES (it should not be)' : 'no'}.`,
  ];
}

function textTableOrNothing(x: Table): string {
  return x.rows.length ? textTable(x.header, x.rows, x.align) : '';
}

/** bench/results.md */
export function renderMarkdown(r: BenchResults): string {
  const m = (x: Table) => markdownTable(x.header, x.rows, x.align);
  const e = r.environment;
  const out: string[] = [];
  out.push('# toolslim benchmark results', '');
  out.push(`Generated by \`npm run bench\` (bench/run.ts) on ${e.date}: Node ${e.node} (V8 ${e.v8}), ${e.platform}/${e.arch}, ${e.cpu} × ${e.cores} cores, ${e.memoryGB} GiB; commit \`${e.commit}\`${e.dirty ? ' with uncommitted changes' : ''}. Run time ${r.durationS} s. Machine-readable: [results.json](results.json); one line per run in [history.jsonl](history.jsonl).`, '');
  out.push(`Corpus: ${r.corpus.servers} real \`tools/list\` captures in [corpus/](corpus/) (see [SOURCES.md](SOURCES.md)). Bytes are UTF-8 bytes of the compact JSON of the tools array; tokens are o200k_base (\`toolslim/tokens\`) of the same text. Percentages count any \`instructions\` text a transform produces as added size.`, '');

  out.push('## Corpus: default pipeline', '', m(corpusTable(r)), '', ...headline(r), '');
  out.push(`Times are ${clockText(r)}. \`time\` is the median of several runs of \`transformTools(tools)\` with default options on that server; \`× floor\` divides it by the median time of \`JSON.stringify(JSON.parse(text))\` of the same tools in the same run.`, '');

  out.push('## Reduction across servers, per pipeline', '', `Percent saved per server (tokens and bytes), median/min/max across servers, beside the anchor: ${r.anchors.publishedOptimizer.text}.`, '', m(reductionTable(r)), '');

  if (r.composition) {
    out.push('## Where the bytes are', '', 'UTF-8 bytes of the whole corpus, split into parts that add up to the total: tool descriptions, `description`s at schema positions, names (tools and properties), data values (`enum`, `const`, `default`, `examples`) and everything else (keywords, structure, other tool fields). After the default pipeline, what is left is mostly prose: the default pipeline removes only noise from it (URLs, example blocks, whitespace, restatements), so meaning-keeping rewrites have little else to take.', '', m(compositionTable(r.composition)), '');
  }
  out.push('## Notion', '', `Anchor: ${r.anchors.notion.text}. Our capture of the same server (version 2.5.2) is ${formatInt(r.servers.find((s) => s.file === r.anchors.notion.file)?.before.bytes ?? NaN)} bytes before.`, '', m(notionTable(r)), '');

  out.push('## Each transform alone, per server', '', 'Bytes / tokens saved (negative: the transform grew the list).', '', m(perRunTable(r, 'transform')), '');
  out.push('## Each preset, per server', '', '% bytes / % tokens saved.', '', m(perRunTable(r, 'preset')), '');

  out.push('## Skips and diagnostics', '', 'From `report.skipped` (grouped by transform; `verify` is the equivalence gate, `input` the input check) and `report.diagnostics` (grouped by `transform/code`).', '', m(findingsTable(r)), '');
  const per = findingsPerServer(r);
  out.push(`Per server: ${per.rows.length} (server, pipeline) pairs with a skip, a diagnostic or a failure${per.rows.length ? ':' : '.'}`, '');
  if (per.rows.length) out.push(m(per), '');

  out.push('## Speed', '');
  out.push(`Times are ${clockText(r)}. Every row runs over the whole corpus (${formatInt(r.speed.corpusTools)} tools, ${formatMB(r.speed.corpusBytes)}) once per pass, and every timed region parses each server's text first, as a user must: \`transformTools(JSON.parse(text), options)\`. What is timed is the built package (\`dist/\`, what users install), not the TypeScript sources. Passes are interleaved with the floor (\`JSON.stringify(JSON.parse(text))\` of every server's tools, timed right before every timed pass; a row's ratio is the median over its passes of each pass divided by the floor pass timed right before it, so that each ratio is taken in its own pass's conditions: this machine's clock moves between speeds during a run, and the median of a row's few passes over the median of all the floor passes, the ratio of record until issue 31's paired ratio and still shown beside it, mixed them) after one warm-up pass, ${r.speed.iterations} iterations, medians. The rows a user gets (the default call, \`safe\` and prune with the gate off, each gate level) get at least 7 passes, and are measured twice: with a forced full GC before each pass, waited for until the collector's helper threads are idle (no pass pays for garbage another left, nor for the sweeping of that collection, which the CPU clock would count; **the targets use these**) and without (the collector runs when it wants, as in an application). Cheaper configurations below them get at least 3 passes within a budget. Ratios are what to compare across machines; absolute times mean little. Equivalence gate: ${r.speed.gateDetected ? 'detected; its levels are rows of their own' : 'not detected (`transformTools` has no `verify` option yet)'}.`, '');
  out.push(m(userSpeedTable(r)), '');
  out.push('Every configuration (GC forced before each pass):', '', m(speedTable(r)), '');
  out.push('Targets (issue 14; judged on the passes with a forced GC):', '');
  for (const x of targetLines(r)) out.push(`- ${x.met ? '✅' : '❌'} ${x.text}`);
  if (!r.importCost.error) out.push(`- ${r.importCost.timeRatio <= 1.2 ? '✅' : '❌'} importing \`toolslim\` ≤ 1.2× importing \`ajv\` alone: ${formatRatio(r.importCost.timeRatio)} (heap ${formatRatio(r.importCost.heapRatio)})`);
  out.push('');

  out.push('## Scaling', '');
  out.push('Synthetic tool lists: corpus tools in a fixed pseudo-random order (FNV-1a of `file#index`), repeated and renamed `<name>_<k>`, serialized and parsed again so nothing is shared. Each cell: median time (ratio to the floor of the same text). Heap: what the parsed input holds, and what the default pipeline\'s result holds on top of it (copy-on-write shares unchanged subtrees), each after a full GC.', '');
  out.push(m(scalingTable(r.scaling.toolLists)), '', ...skippedSizes(r.scaling.toolLists).flatMap((l) => [l, '']), m(fitTable(r)), '');
  out.push('Size targets (issue 8): each completes within the benchmark\'s time budget, with memory in proportion to the input.', '', ...sizeTargets(r.scaling.toolLists).map((l) => `- ${l}`), '');
  out.push('One tool with a huge input schema: self-contained corpus input schemas as `$defs` `d0, d1, …`; properties refer to the even ones and every fourth refers to the next, so a quarter of the definitions are unreachable.', '');
  out.push(m(scalingTable(r.scaling.schemas, 'MB')), '');

  out.push('## Import cost', '', 'Each import runs in a fresh `node` process (`await import(…)` timed inside it, heap after a full GC minus before), interleaved, medians. The build is `dist/` from `tsup` (rebuilt by the bench when older than `src/`).', '');
  if (r.importCost.error) out.push(`Not measured: ${r.importCost.error}`, '');
  else out.push(m(importTable(r)), '', ...importLines(r).slice(1).map((l) => `- ${l}`), '');

  if (r.warnings.length) out.push('## Warnings', '', ...r.warnings.map((w) => `- ${w}`), '');
  return out.join('\n');
}

/** The block between `<!-- bench:start -->` and `<!-- bench:end -->` in README.md. */
export function renderReadmeBlock(r: BenchResults): string {
  const m = (x: Table) => markdownTable(x.header, x.rows, x.align);
  const ratios = (list: readonly Target[]) => list.map((x) => `${stripMd(x.what).replace(/ ≤.*$/, '')} ${formatRatio(x.value)} (target ≤ ${x.limit}×${x.met ? '' : ', not met'})`).join('; ');
  const v = r.validationSpeed;
  const speed = `on bench/corpus, ${ratios(r.speed.targets)}${v ? `; on bench/validation (servers never tuned on), ${ratios(v.targets)}` : ''}; the built package, a full GC settled before each pass`;
  const notion = r.servers.find((s) => s.file === r.anchors.notion.file);
  const nd = notion?.runs['default'];
  return [
    `_Generated by \`npm run bench\` on ${r.environment.date.slice(0, 10)} (Node ${r.environment.node}, commit \`${r.environment.commit}\`); details in [bench/results.md](bench/results.md)._`,
    '',
    m(corpusTable(r)),
    '',
    ...headline(r).map((l) => `- ${l}`),
    ...(notion && nd?.after ? [`- Notion ${notion.version}: ${formatArrow(notion.before.bytes, nd.after.bytes)} bytes with the default pipeline; anchor: ${r.anchors.notion.text}.`] : []),
    ...(speed ? [`- Speed as multiples of \`JSON.parse\` + \`JSON.stringify\` of the same input: ${speed}.`] : []),
    '',
  ].join('\n');
}

/** One compact line for bench/history.jsonl. */
export function historyEntry(r: BenchResults): Record<string, unknown> {
  const pick = (s: RunSummary | undefined) => (s ? { pctBytes: round1(s.pctBytes), pctTokens: round1(s.pctTokens), medianPctTokens: round1(s.spreadTokens.median), bytesAfter: s.after.bytes, tokensAfter: s.after.tokens, gateFailures: s.gateFailures, errors: s.errors } : undefined);
  const presets: Record<string, unknown> = {};
  for (const p of r.presets) presets[p.name] = pick(r.summaries[`preset:${p.name}`]);
  const ratios: Record<string, number> = {};
  for (const x of r.speed.rows) if (x.key !== 'floor') ratios[x.key] = round2(x.ratio);
  const fits: Record<string, number> = {};
  for (const f of r.scaling.fits) fits[f.key] = round2(f.usPerTool);
  return {
    date: r.environment.date,
    commit: r.environment.commit,
    dirty: r.environment.dirty,
    node: r.environment.node,
    servers: r.corpus.servers,
    tools: r.corpus.tools,
    before: r.corpus.before,
    default: pick(r.summaries['default']),
    presets,
    floorMs: r.speed.floorMs,
    ratios,
    usPerTool: fits,
    importRatio: round2(r.importCost.timeRatio),
    durationS: r.durationS,
  };
}

function clockText(r: BenchResults): string {
  return r.environment.clock === 'wall' ? 'wall-clock time' : 'CPU time of the bench process, all threads (steadier than wall time on a shared machine; `BENCH_CLOCK=wall` for wall time)';
}

function runName(info: RunInfo): string {
  if (info.kind === 'transform') return info.options ? `\`${info.name}\` alone, ${JSON.stringify(info.options)}` : `\`${info.name}\` alone`;
  if (info.kind === 'preset') return `preset \`${info.name}\``;
  return info.sameAs?.length ? `${info.name} (= ${info.sameAs.map((n) => `\`${n}\``).join(' = ')})` : info.name;
}

/** A transform's name, with the options a preset gives it when the run uses them. */
function withOptions(info: RunInfo): string {
  return info.options ? `${info.name} ${JSON.stringify(info.options)}` : info.name;
}

function counts(c: Readonly<Record<string, number>>): string {
  const e = Object.entries(c);
  return e.length ? e.map(([k, v]) => `${k} ×${v}`).join(', ') : '0';
}

function stripTicks(s: string): string {
  return s.replace(/`/g, '');
}

function stripMd(s: string): string {
  return s.replace(/`/g, '').replace(/\*\*/g, '');
}

function round1(x: number): number {
  return Math.round(x * 10) / 10;
}

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}
