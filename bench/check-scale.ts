/**
 * `check` and `report` on a large list, as a user runs them: the built CLI in a child process on a
 * 31,560-tool list (bench/corpus tools repeated under new names, about 52 MB of compact JSON — the size
 * that once crashed `check`). For each run: wall time, CPU time of the child, its peak resident memory,
 * and the floor (`JSON.parse` + `JSON.stringify` of the same text, in a child of its own) for scale.
 *
 * Rows: check (the default: every rule, description collisions included), check with
 * `--rule description-collision=off` (so the collision cost shows as the difference), report (o200k and
 * cl100k tokens), report `--no-tokens`.
 *
 * Usage: `tsx bench/check-scale.ts [--no-write] [--quick]` (also run by `npm run bench`). `--quick` uses
 * 4,000 tools and writes nothing. Env `CHECK_SCALE_TOOLS` sets the count. Writes bench/check-scale.md and
 * bench/check-scale.json.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { orderPool, syntheticToolList, type PoolEntry } from './lib/synthetic.js';

const ROOT = join(import.meta.dirname, '..');
const BENCH = join(ROOT, 'bench');
const QUICK = process.argv.includes('--quick');
const WRITE = !QUICK && !process.argv.includes('--no-write');
const COUNT = Number(process.env.CHECK_SCALE_TOOLS ?? (QUICK ? 4_000 : 31_560));
const BIN = join(ROOT, 'dist', 'cli', 'bin.js');

interface Row {
  readonly label: string;
  readonly args: readonly string[];
  readonly exitCode: number | null;
  readonly wallS: number;
  readonly cpuS: number;
  readonly peakMB: number;
  /** The line of its output that sums it up (check: the last, the counts; report: the first, the totals), for the record. */
  readonly summary: string;
}

interface Results {
  readonly date: string;
  readonly node: string;
  readonly machine: string;
  readonly commit: string;
  readonly tools: number;
  readonly inputMB: number;
  readonly floor: { readonly wallS: number; readonly cpuS: number; readonly peakMB: number };
  readonly rows: readonly Row[];
}

function log(line: string): void {
  process.stderr.write(`[check-scale] ${line}\n`);
}

function buildList(count: number): string {
  const entries: PoolEntry[] = [];
  const dir = join(BENCH, 'corpus');
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
    const data = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { toolsList: { tools: Record<string, unknown>[] } };
    data.toolsList.tools.forEach((tool, i) => entries.push({ key: `${file}#${i}`, tool }));
  }
  return JSON.stringify(syntheticToolList(orderPool(entries), count));
}

/**
 * Runs `node <args>` with a probe loaded first that writes the child's own resource usage (CPU, peak
 * RSS) to a file when it exits; stdout is discarded (the summary line is kept).
 */
function measured(args: readonly string[], probeDir: string): { exitCode: number | null; wallS: number; cpuS: number; peakMB: number; firstLine: string; lastLine: string } {
  const usageFile = join(probeDir, `usage-${Math.random().toString(36).slice(2)}.json`);
  const probe = join(probeDir, 'probe.mjs');
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['--import', pathToFileURL(probe).href, ...args], {
    cwd: probeDir,
    env: { ...process.env, NO_COLOR: '1', TOOLSLIM_PROBE_FILE: usageFile },
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 1 << 30,
  });
  const wallS = (performance.now() - t0) / 1000;
  if (r.error) throw r.error;
  const usage = JSON.parse(readFileSync(usageFile, 'utf8')) as { userUs: number; systemUs: number; maxRssKB: number };
  const out = r.stdout.toString('utf8').trimEnd();
  const clip = (line: string) => (line.length > 200 ? line.slice(0, 200) + '…' : line);
  const firstEnd = out.indexOf('\n');
  return { exitCode: r.status, wallS, cpuS: (usage.userUs + usage.systemUs) / 1e6, peakMB: usage.maxRssKB / 1024, firstLine: clip(firstEnd === -1 ? out : out.slice(0, firstEnd)), lastLine: clip(out.slice(out.lastIndexOf('\n') + 1)) };
}

function ensureBuilt(): void {
  if (existsSync(BIN) && statSync(BIN).mtimeMs >= newestMtime(join(ROOT, 'src'))) return;
  log('building dist with tsup (dist is missing or older than src)…');
  const r = spawnSync('npx', ['tsup', '--silent'], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) throw new Error('tsup build failed');
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

function commit(): string {
  const r = spawnSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: ROOT });
  return r.status === 0 ? r.stdout.toString().trim() : 'unknown';
}

function render(res: Results): string {
  const lines = [
    `# check and report on ${res.tools.toLocaleString('en-US')} tools`,
    '',
    `_Generated by \`npm run bench\` (bench/check-scale.ts) on ${res.date} (Node ${res.node}, ${res.machine}, commit \`${res.commit}\`)._`,
    '',
    `Input: ${res.tools.toLocaleString('en-US')} tools (the bench/corpus tools repeated under new names, as in the scaling series of bench/results.md), ${res.inputMB.toFixed(1)} MB of compact JSON, read from a file by the built CLI in a child process. CPU is the child's user + system time; peak is its maximum resident set. The floor is \`JSON.parse\` + \`JSON.stringify\` of the same text in a child of its own.`,
    '',
    '| run | exit | wall | CPU | × floor (CPU) | peak memory | × input |',
    '|:--|--:|--:|--:|--:|--:|--:|',
    `| floor: parse + stringify | 0 | ${res.floor.wallS.toFixed(1)} s | ${res.floor.cpuS.toFixed(1)} s | 1.0× | ${res.floor.peakMB.toFixed(0)} MB | ${(res.floor.peakMB / res.inputMB).toFixed(1)}× |`,
    ...res.rows.map((r) => `| \`toolslim ${r.args.join(' ')}\` | ${r.exitCode ?? '–'} | ${r.wallS.toFixed(1)} s | ${r.cpuS.toFixed(1)} s | ${(r.cpuS / res.floor.cpuS).toFixed(1)}× | ${r.peakMB.toFixed(0)} MB | ${(r.peakMB / res.inputMB).toFixed(1)}× |`),
    '',
    'What each printed (check: its last line, the counts; report: its first, the totals):',
    '',
    ...res.rows.map((r) => `- \`${r.label}\`: ${r.summary.replace(/\|/g, '\\|')}`),
    '',
  ];
  return lines.join('\n');
}

function main(): void {
  ensureBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'toolslim-check-scale-'));
  try {
    writeFileSync(
      join(dir, 'probe.mjs'),
      `import { writeFileSync } from 'node:fs';\nprocess.on('exit', () => { const u = process.resourceUsage(); writeFileSync(process.env.TOOLSLIM_PROBE_FILE, JSON.stringify({ userUs: u.userCPUTime, systemUs: u.systemCPUTime, maxRssKB: u.maxRSS })); });\n`,
    );
    log(`building a list of ${COUNT.toLocaleString('en-US')} tools…`);
    const text = buildList(COUNT);
    const file = join(dir, 'tools.json');
    writeFileSync(file, text);
    const inputMB = Buffer.byteLength(text) / 1e6;
    log(`${inputMB.toFixed(1)} MB written`);
    writeFileSync(join(dir, 'floor.mjs'), `import { readFileSync } from 'node:fs';\nconst t = readFileSync(process.argv[2], 'utf8');\nprocess.stdout.write(String(JSON.stringify(JSON.parse(t)).length) + '\\n');\n`);
    const f = measured([join(dir, 'floor.mjs'), file], dir);
    const floor = { wallS: f.wallS, cpuS: f.cpuS, peakMB: f.peakMB };
    log(`floor: ${floor.cpuS.toFixed(1)} s CPU`);
    const plans: { label: string; args: string[]; summary: 'first' | 'last' }[] = [
      { label: 'check', args: ['check', 'tools.json'], summary: 'last' },
      { label: 'check, collisions off', args: ['check', 'tools.json', '--rule', 'description-collision=off'], summary: 'last' },
      { label: 'report', args: ['report', 'tools.json'], summary: 'first' },
      { label: 'report --no-tokens', args: ['report', 'tools.json', '--no-tokens'], summary: 'first' },
    ];
    const rows: Row[] = [];
    for (const plan of plans) {
      const m = measured([BIN, ...plan.args], dir);
      rows.push({ label: plan.label, args: plan.args, exitCode: m.exitCode, wallS: m.wallS, cpuS: m.cpuS, peakMB: m.peakMB, summary: plan.summary === 'first' ? m.firstLine : m.lastLine });
      log(`${plan.label}: exit ${m.exitCode}, ${m.wallS.toFixed(1)} s wall, ${m.cpuS.toFixed(1)} s CPU, ${m.peakMB.toFixed(0)} MB peak`);
    }
    const results: Results = {
      date: new Date().toISOString().slice(0, 10),
      node: process.version,
      machine: `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GB`,
      commit: commit(),
      tools: COUNT,
      inputMB,
      floor,
      rows,
    };
    const md = render(results);
    process.stdout.write(md);
    if (!WRITE) {
      log('not writing results (--quick or --no-write)');
      return;
    }
    writeFileSync(join(BENCH, 'check-scale.json'), JSON.stringify(results, null, 2) + '\n');
    writeFileSync(join(BENCH, 'check-scale.md'), md);
    log('wrote bench/check-scale.md, bench/check-scale.json');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main();
