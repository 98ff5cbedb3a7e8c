/**
 * The fuzz harness at bench size (issue 12): the suite's seeded harness (test/helpers/fuzz-harness.ts,
 * run by test/fuzz-1.test.ts and test/fuzz-2.test.ts) with every preset and profile pipeline on every
 * generated tool list (`FUZZ_ALL=1`; the suite itself rotates the pipelines to stay within its time), the
 * profile-tuned presets with their lossy steps on (`safe+<profile>+lossy`, as the proxy and `optimize
 * --profile` run them: every check but verdicts) among them, and the counts summed over both shards:
 * schemas, pipeline runs, outputs ajv compiled, verdicts compared, reports replayed byte for byte, and
 * failures by kind (a run that is not idempotent is a failure), with a row per pipeline.
 *
 * `npx tsx bench/fuzz.ts [--runs N] [--seed S]` (default 7,000 lists, seed 20261212: the suite's corpus)
 * replaces the section between `<!-- fuzz:start -->` and `<!-- fuzz:end -->` in bench/results.md (appending
 * it the first time) and prints it. The harness's own expectations decide pass or fail; this only counts.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { formatInt, replaceMarkedBlock } from './lib/stats.js';

const BENCH = import.meta.dirname;
const ROOT = join(BENCH, '..');

interface ShardReport {
  readonly seed: number;
  readonly shard: number;
  readonly runs: number;
  readonly schemas: number;
  readonly compiledOutputs: number;
  readonly verdictsChecked: number;
  readonly skipped: number;
  readonly ajvStackLimit: number;
  readonly notIdempotent: number;
  readonly idempotentByPrefix: number;
  readonly replaysChecked: number;
  readonly failures: number;
  readonly byKind: Record<string, number>;
  readonly byPipeline: Record<string, PipelineCounts>;
  readonly ms: Record<string, number>;
}

interface PipelineCounts {
  readonly runs: number;
  readonly notIdempotent: number;
  readonly failures: number;
  readonly replays: number;
}

const { values } = parseArgs({ options: { runs: { type: 'string', default: '7000' }, seed: { type: 'string', default: '20261212' } } });
const runs = Number(values.runs);
const seed = Number(values.seed);
if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(seed)) {
  console.error('bench/fuzz.ts: --runs takes a positive integer and --seed an integer');
  process.exit(2);
}

const started = Date.now();
const child = spawnSync('npx', ['vitest', 'run', 'test/fuzz-1.test.ts', 'test/fuzz-2.test.ts'], {
  cwd: ROOT,
  encoding: 'utf8',
  maxBuffer: 64 << 20,
  env: { ...process.env, FUZZ_ALL: '1', FUZZ_REPORT: '1', FUZZ_RUNS: String(runs), FUZZ_SEED: String(seed) },
});
const wallS = (Date.now() - started) / 1000;
const reports: ShardReport[] = [];
for (const m of (child.stdout ?? '').matchAll(/\{"seed":.*\}/g)) reports.push(JSON.parse(m[0]) as ShardReport);
if (reports.length !== 2) {
  console.error(`bench/fuzz.ts: expected the counts of 2 shards from vitest, got ${reports.length} (exit ${child.status})\n${child.stderr ?? ''}${(child.stdout ?? '').slice(-4000)}`);
  process.exit(1);
}

const sum = (k: 'runs' | 'schemas' | 'compiledOutputs' | 'verdictsChecked' | 'skipped' | 'ajvStackLimit' | 'notIdempotent' | 'idempotentByPrefix' | 'replaysChecked' | 'failures') => reports.reduce((n, r) => n + r[k], 0);
const merge = (k: 'byKind') => {
  const out = new Map<string, number>();
  for (const r of reports) for (const [key, n] of Object.entries(r[k])) out.set(key, (out.get(key) ?? 0) + n);
  return [...out].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
};
const byKind = merge('byKind');
const pipelines = new Map<string, { runs: number; notIdempotent: number; failures: number; replays: number }>();
for (const r of reports) {
  for (const [name, c] of Object.entries(r.byPipeline)) {
    const row = pipelines.get(name) ?? { runs: 0, notIdempotent: 0, failures: 0, replays: 0 };
    row.runs += c.runs;
    row.notIdempotent += c.notIdempotent;
    row.failures += c.failures;
    row.replays += c.replays;
    pipelines.set(name, row);
  }
}
const lossyRows = [...pipelines].filter(([name]) => name.endsWith('+lossy'));
const sumRows = (rows: typeof lossyRows, k: 'runs' | 'notIdempotent' | 'failures' | 'replays') => rows.reduce((n, [, c]) => n + c[k], 0);

const lines = [
  '## Fuzz (issue 12)',
  '',
  `Every preset and profile pipeline (lossless, safe, max, and safe for each of the 7 profiles, with the lossy steps off and, as users get the profile-tuned preset, on) on every generated tool list, \`verify: false\` ([bench/fuzz.ts](fuzz.ts) runs the suite's harness, [test/helpers/fuzz-harness.ts](../test/helpers/fuzz-harness.ts), with \`FUZZ_ALL=1\`; the suite rotates the pipelines over the same corpus). Oracle: the test's own ajv reading each schema in its dialect, not the gate. The lossy pipelines (\`+lossy\`) get every check but verdicts, which their lossy steps change on purpose.`,
  '',
  `- ${formatInt(runs)} tool lists (seed ${seed}): ${formatInt(sum('schemas'))} schemas, ${formatInt(sum('runs'))} pipeline runs, ${formatInt(sum('compiledOutputs'))} outputs compiled by ajv, ${formatInt(sum('verdictsChecked'))} verdicts compared (every 8th list).`,
  `- ${child.status === 0 ? 'PASS' : 'FAIL'}: ${formatInt(sum('failures'))} failures${byKind.length > 0 ? ` (${byKind.map(([k, n]) => `${k}: ${n}`).join('; ')})` : ''}; ${formatInt(sum('notIdempotent'))} runs not idempotent (each one a failure: no known exceptions; ${formatInt(sum('idempotentByPrefix'))} runs whose extra steps left \`safe\`'s idempotent output as it was are idempotent by that, without a second run); the reports of all ${formatInt(sum('replaysChecked'))} runs the pipelines are computed with (lossless, then safe's and max's own steps, then each profile's adapt-to-client: together every pipeline's steps) replayed byte for byte (\`applyPatch(input, changes)\` is the output and \`invertPatch\` gives back the input, as \`JSON.stringify\` text).`,
  `- Counted apart: ${formatInt(sum('ajvStackLimit'))} outputs on which ajv overflows its stack (a \`$ref\` cycle that consumes nothing); ${formatInt(sum('skipped'))} reported skips.`,
  `- Lossy steps on (the ${lossyRows.length} profile-tuned presets as users get them): ${formatInt(sumRows(lossyRows, 'runs'))} runs, ${formatInt(sumRows(lossyRows, 'failures'))} failures, ${formatInt(sumRows(lossyRows, 'notIdempotent'))} not idempotent, ${formatInt(sumRows(lossyRows, 'replays'))} reports replayed (adapt-to-client with its lossy steps on \`safe\`'s output; byte-exact unless counted as a \`replay\` failure).`,
  `- Wall time ${wallS.toFixed(0)} s for both shards in parallel (machine load varies; not a target).`,
  '',
  '| pipeline | runs | not idempotent | failures | reports replayed |',
  '|---|---:|---:|---:|---:|',
  ...[...pipelines].map(([name, c]) => `| ${name} | ${formatInt(c.runs)} | ${formatInt(c.notIdempotent)} | ${formatInt(c.failures)} | ${formatInt(c.replays)} |`),
  '',
  'Reports replayed: the runs the pipelines are computed with (lossless, then safe\'s and max\'s own steps, then each profile\'s adapt-to-client on safe\'s output), counted under the pipeline they end; the first 20 lists also run every pipeline whole and compare.',
];
const section = lines.join('\n');
const file = join(BENCH, 'results.md');
const text = readFileSync(file, 'utf8');
const replaced = replaceMarkedBlock(text, 'fuzz', section);
writeFileSync(file, replaced ?? `${text.replace(/\n*$/, '\n')}\n<!-- fuzz:start -->\n${section}\n<!-- fuzz:end -->\n`);
console.log(section);
process.exit(child.status === 0 ? 0 : 1);
