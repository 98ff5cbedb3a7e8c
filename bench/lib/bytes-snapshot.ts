/**
 * `npx tsx bench/lib/bytes-snapshot.ts [--write FILE] [--compare FILE]`: the byte snapshot that proves a
 * refactor changed no behaviour.
 *
 * For every capture in bench/corpus it runs the default call (and with `verify: 'verdicts'`), every built-in transform alone, every
 * built-in preset, and `presetForProfile('safe', p)` for every built-in profile, and records per run:
 * - `tools`: sha256 of the output's compact JSON (plus the `instructions` text, when there is one);
 * - `report`: sha256 of the report's changes, diagnostics, skipped and stats, with every timing removed
 *   and the gate's work counters (`compiled`, `instances`) left out (they count work, not results; they
 *   are printed beside the hash instead, so a change there is visible but not a byte difference);
 * - or `threw`: the error message, when the call throws.
 *
 * Only the public API (`src/index.ts`) is used, so the script runs unchanged across moves of the modules
 * behind it. `--write` stores the snapshot; `--compare` prints every run whose hashes differ from a stored
 * one and exits 1 when any does.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { builtinPresets, builtinProfiles, builtinTransforms, presetForProfile, transformTools, type TransformStepInput } from '../../src/index.js';

const CORPUS = join(import.meta.dirname, '..', 'corpus');

interface Entry {
  readonly tools?: string;
  readonly report?: string;
  readonly work?: string;
  readonly threw?: string;
}

type Snapshot = Record<string, Record<string, Entry>>;

function sha(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/** The report without what varies between runs of the same code (timings) or counts work (the gate's). */
function stable(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value, (key, v) => {
      if (key === 'timeMs' || key === 'compiled' || key === 'instances') return undefined;
      return v;
    }),
  );
}

function runs(): [string, TransformStepInput[] | undefined, object][] {
  const none = {};
  return [
    ['default', undefined, none],
    ['default:verify=verdicts', undefined, { verify: 'verdicts' }],
    ...builtinTransforms.map((t): [string, TransformStepInput[], object] => [`transform:${t.name}`, [t], none]),
    ...builtinPresets.map((p): [string, TransformStepInput[], object] => [`preset:${p.name}`, [p], none]),
    ...builtinProfiles.map((p): [string, TransformStepInput[], object] => [`profile:safe+${p.name}`, presetForProfile('safe', p.name), none]),
  ];
}

export function takeSnapshot(): Snapshot {
  const out: Snapshot = {};
  const files = readdirSync(CORPUS)
    .filter((f) => f.endsWith('.json'))
    .sort();
  for (const file of files) {
    const data = JSON.parse(readFileSync(join(CORPUS, file), 'utf8')) as { toolsList: { tools: unknown[] } };
    const row: Record<string, Entry> = {};
    for (const [key, transforms, run] of runs()) {
      try {
        const result = transformTools(data.toolsList.tools, transforms ? { ...run, transforms } : run);
        const tools = JSON.stringify(result.tools) + (result.instructions === undefined ? '' : '\n' + result.instructions);
        const { verify } = result.report.stats;
        row[key] = {
          tools: sha(tools),
          report: sha(JSON.stringify(stable(result.report))),
          ...(verify ? { work: `compiled=${verify.compiled} instances=${verify.instances}` } : {}),
        };
      } catch (e) {
        row[key] = { threw: (e as Error)?.message ?? String(e) };
      }
    }
    out[file] = row;
  }
  return out;
}

function compare(before: Snapshot, after: Snapshot): string[] {
  const diffs: string[] = [];
  for (const file of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const a = before[file] ?? {};
    const b = after[file] ?? {};
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const x = a[key];
      const y = b[key];
      if (x?.tools !== y?.tools || x?.report !== y?.report || x?.threw !== y?.threw) diffs.push(`${file} ${key}: ${JSON.stringify(x)} → ${JSON.stringify(y)}`);
    }
  }
  return diffs;
}

function workDiffs(before: Snapshot, after: Snapshot): number {
  let n = 0;
  for (const file of Object.keys(after)) for (const key of Object.keys(after[file]!)) if (before[file]?.[key]?.work !== after[file]![key]!.work) n++;
  return n;
}

const args = process.argv.slice(2);
const writeAt = args.indexOf('--write');
const compareAt = args.indexOf('--compare');
if (writeAt >= 0 || compareAt >= 0) {
  const snapshot = takeSnapshot();
  const count = Object.values(snapshot).reduce((n, r) => n + Object.keys(r).length, 0);
  if (writeAt >= 0) {
    writeFileSync(args[writeAt + 1]!, JSON.stringify(snapshot, null, 1) + '\n');
    process.stdout.write(`wrote ${count} runs over ${Object.keys(snapshot).length} servers to ${args[writeAt + 1]}\n`);
  }
  if (compareAt >= 0) {
    const stored = JSON.parse(readFileSync(args[compareAt + 1]!, 'utf8')) as Snapshot;
    const diffs = compare(stored, snapshot);
    for (const d of diffs) process.stdout.write(d + '\n');
    process.stdout.write(`${count} runs compared: ${diffs.length} differ in bytes or report; ${workDiffs(stored, snapshot)} differ only in the gate's work counters\n`);
    if (diffs.length > 0) process.exitCode = 1;
  }
}
