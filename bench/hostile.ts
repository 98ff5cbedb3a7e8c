/**
 * Hostile descriptions at 1 MB (issue 12): real prose and every family of bench/lib/hostile-text.ts as one
 * description of about 1 MB, through the default call as the user gets it (`transformTools(JSON.parse(text))`,
 * timed with the parse), beside the floor (`JSON.parse` + `JSON.stringify` of the same text) and
 * strip-noise alone; each family is timed again at 2 MB, and the ratio 2 MB / 1 MB is linear at about 2.
 *
 * Target: every row's default call well under a second (TARGET_MS).
 *
 * `npm run bench` runs this from bench/run.ts and appends the section to bench/results.md (and the data
 * to results.json as `hostile`); `npx tsx bench/hostile.ts` runs it alone and replaces the section in
 * results.md between `<!-- hostile:start -->` and `<!-- hostile:end -->`. Flag: `--quick` (one timed run,
 * no 2 MB runs; writes nothing).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { built } from './lib/built.js';
import { HOSTILE_FAMILIES } from './lib/hostile-text.js';
import { replaceMarkedBlock } from './lib/stats.js';
import { CLOCK, gc, sample } from './lib/timing.js';

const BENCH = import.meta.dirname;
// Timed on the built package, as users get it (bench/lib/built.ts).
const { stripNoise, transformTools } = built;
const MB = 1 << 20;
export const HOSTILE_TARGET_MS = 500;

export interface HostileRow {
  readonly name: string;
  readonly targets: string;
  /** UTF-8 bytes of the compact JSON of the tools array. */
  readonly bytes: number;
  /** Characters of the hostile description. */
  readonly chars: number;
  readonly floorMs: number;
  /** The default call, `JSON.parse` included: best of the timed runs. */
  readonly defaultMs: number;
  readonly stripNoiseMs: number;
  /** Default call at 2 MB over the same at 1 MB (absent with `--quick`). */
  readonly doubling?: number;
  readonly withinTarget: boolean;
}

export interface HostileResults {
  readonly clock: 'cpu' | 'wall';
  readonly targetMs: number;
  readonly rows: readonly HostileRow[];
}

interface Case {
  readonly name: string;
  readonly targets: string;
  readonly build: (chars: number) => unknown[];
}

/** Real descriptions from bench/corpus, joined by blank lines and repeated to `chars` characters. */
function corpusProse(chars: number): string {
  const parts: string[] = [];
  const dir = join(BENCH, 'corpus');
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
    const tools = (JSON.parse(readFileSync(join(dir, file), 'utf8')) as { toolsList: { tools: { description?: unknown }[] } }).toolsList.tools;
    for (const t of tools) if (typeof t.description === 'string') parts.push(t.description);
  }
  const all = parts.join('\n\n');
  return all.repeat(Math.ceil(chars / all.length)).slice(0, chars);
}

const CASES: readonly Case[] = [
  { name: 'corpus-prose', targets: 'real descriptions (bench/corpus) on the tool', build: (chars) => [{ name: 't', description: corpusProse(chars), inputSchema: { type: 'object' } }] },
  {
    name: 'corpus-prose-property',
    targets: 'the same on a required property with a `default`',
    build: (chars) => [{ name: 't', inputSchema: { type: 'object', properties: { p: { type: 'integer', default: 10, description: corpusProse(chars) } }, required: ['p'] } }],
  },
  ...HOSTILE_FAMILIES.map((f): Case => ({ name: f.name, targets: f.targets, build: (chars) => f.build(Math.ceil(chars / f.unit)) })),
];

function best(samples: readonly number[]): number {
  return Math.min(...samples);
}

function measureCase(c: Case, chars: number, runs: number): { bytes: number; chars: number; floorMs: number; defaultMs: number; stripNoiseMs: number } {
  const tools = c.build(chars);
  const text = JSON.stringify(tools);
  const parsed = JSON.parse(text) as unknown[];
  const tool = parsed[0] as { description?: string; inputSchema?: { properties?: { p?: { description?: string } } } };
  const description = tool.description ?? tool.inputSchema?.properties?.p?.description ?? '';
  gc();
  const floorMs = best(sample(() => JSON.stringify(JSON.parse(text)), { warmup: 1, maxRuns: runs, minRuns: runs }));
  gc();
  const defaultMs = best(sample(() => transformTools(JSON.parse(text)), { warmup: 1, maxRuns: runs, minRuns: runs }));
  gc();
  const stripNoiseMs = best(sample(() => stripNoise(parsed), { warmup: 0, maxRuns: runs, minRuns: runs }));
  return { bytes: Buffer.byteLength(text, 'utf8'), chars: description.length, floorMs, defaultMs, stripNoiseMs };
}

/** Every case at 1 MB (and 2 MB unless `quick`). */
export function measureHostile(options: { quick?: boolean; log?: (line: string) => void } = {}): HostileResults {
  const runs = options.quick ? 1 : 3;
  const rows: HostileRow[] = [];
  for (const c of CASES) {
    const one = measureCase(c, MB, runs);
    const two = options.quick ? undefined : measureCase(c, 2 * MB, runs);
    const row: HostileRow = {
      name: c.name,
      targets: c.targets,
      bytes: one.bytes,
      chars: one.chars,
      floorMs: one.floorMs,
      defaultMs: one.defaultMs,
      stripNoiseMs: one.stripNoiseMs,
      ...(two ? { doubling: two.defaultMs / one.defaultMs } : {}),
      withinTarget: one.defaultMs < HOSTILE_TARGET_MS,
    };
    rows.push(row);
    options.log?.(`hostile ${c.name}: ${one.defaultMs.toFixed(1)} ms at 1 MB${two ? `, × ${(two.defaultMs / one.defaultMs).toFixed(2)} at 2 MB` : ''}`);
  }
  return { clock: CLOCK, targetMs: HOSTILE_TARGET_MS, rows };
}

const ms = (x: number) => (x >= 100 ? Math.round(x).toLocaleString('en-US') : x.toFixed(x >= 10 ? 1 : 2)) + ' ms';

/** The results.md section. */
export function renderHostileMarkdown(r: HostileResults): string {
  const worst = r.rows.reduce((a, b) => (b.defaultMs > a.defaultMs ? b : a));
  const ratios = r.rows.flatMap((x) => (x.doubling === undefined ? [] : [x.doubling]));
  const lines = [
    '## Hostile descriptions (issue 12)',
    '',
    `One description of about 1 MB per row ([bench/hostile.ts](hostile.ts); families in [lib/hostile-text.ts](lib/hostile-text.ts)): real prose from the corpus, and each hostile family that a backtracking pattern of strip-noise once rescanned from every position. Times are the best of the runs on the ${r.clock === 'cpu' ? 'CPU clock' : 'wall clock'}; the default call includes \`JSON.parse\`; the floor is \`JSON.parse\` + \`JSON.stringify\` of the same text; 2 MB / 1 MB is the default call's time at 2 MB over its time at 1 MB (linear: about 2).`,
    '',
    `- ${r.rows.every((x) => x.withinTarget) ? 'PASS' : 'FAIL'} every 1 MB description through the default call in under ${r.targetMs} ms: slowest \`${worst.name}\` ${ms(worst.defaultMs)}.`,
    ...(ratios.length > 0 ? [`- 2 MB / 1 MB: median ${median(ratios).toFixed(2)}, largest ${Math.max(...ratios).toFixed(2)}.`] : []),
    '',
    '| description | what it attacks | bytes | floor | default call | × floor | strip-noise alone | 2 MB / 1 MB |',
    '|:--|:--|--:|--:|--:|--:|--:|--:|',
    ...r.rows.map((x) => `| \`${x.name}\` | ${x.targets} | ${x.bytes.toLocaleString('en-US')} | ${ms(x.floorMs)} | ${ms(x.defaultMs)} | ${(x.defaultMs / x.floorMs).toFixed(1)}× | ${ms(x.stripNoiseMs)} | ${x.doubling === undefined ? '—' : x.doubling.toFixed(2)} |`),
    '',
  ];
  return lines.join('\n');
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** The section with its markers, for results.md. */
export function hostileBlock(r: HostileResults): string {
  return `<!-- hostile:start -->\n${renderHostileMarkdown(r)}<!-- hostile:end -->\n`;
}

function main(): void {
  const quick = process.argv.includes('--quick') || process.env.BENCH_QUICK === '1';
  const results = measureHostile({ quick, log: (line) => process.stderr.write(line + '\n') });
  process.stdout.write(renderHostileMarkdown(results));
  if (quick || process.argv.includes('--no-write')) return;
  const mdPath = join(BENCH, 'results.md');
  const md = readFileSync(mdPath, 'utf8');
  writeFileSync(mdPath, replaceMarkedBlock(md, 'hostile', renderHostileMarkdown(results)) ?? md.replace(/\n*$/, '\n\n') + hostileBlock(results));
  const jsonPath = join(BENCH, 'results.json');
  const json = JSON.parse(readFileSync(jsonPath, 'utf8')) as Record<string, unknown>;
  writeFileSync(jsonPath, JSON.stringify({ ...json, hostile: results }, null, 2) + '\n');
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) main();
