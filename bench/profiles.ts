/**
 * Per client profile, over bench/corpus: how many tools the client would reject before and after
 * `adapt-to-client`, and what the adaptation costs in bytes. Writes bench/profiles.md.
 * Run: npm run bench:profiles
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { adaptToClient, builtinProfiles, checkToolsForProfile, presetForProfile, toolRenamesOf, transformTools, type ProfileFinding } from '../src/index.js';

const dir = join(import.meta.dirname, 'corpus');
const files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
const corpus = files.map((file) => ({ file, tools: JSON.parse(readFileSync(join(dir, file), 'utf8')).toolsList.tools as unknown[] }));
const totalTools = corpus.reduce((n, c) => n + c.tools.length, 0);

interface Row {
  profile: string;
  before: number;
  after: number;
  overCap: number;
  changed: number;
  capped: number;
  recursive: number;
  bytesBefore: number;
  bytesAfter: number;
  changedBefore: number;
  changedAfter: number;
  left: Map<string, number>;
  cappedTools: string[];
  /** After the `safe` preset: bytes of the list before adapt-to-client, and what adapt-to-client added. */
  presetBytes: number;
  adaptCost: number;
  /** After the tuned safe preset (`presetForProfile('safe', profile)`): tools still rejected, and tools its lossy steps changed. */
  tunedAfter: number;
  tunedLeft: Map<string, number>;
  lossyTools: number;
  lossyChanges: number;
  /** Renames by rename-tools (`file: old → new`), and tools still rejected after the tuned preset (`file` → names). */
  renames: string[];
  tunedRejected: Map<string, string[]>;
  ms: number;
}

/** Change codes of adapt-to-client's lossy steps (relax-assertions, describe-formats, close-objects, rename-tools). */
const LOSSY_CODES = new Set(['renamed-tool', 'moved-format', 'dropped-format', 'described-format', 'described-const', 'dropped-assertion', 'exclusive-to-inclusive-lossy', 'oneof-to-anyof', 'closed-object', 'made-nullable', 'listed-required']);

const rows: Row[] = [];
for (const p of builtinProfiles) {
  const row: Row = { profile: p.name, before: 0, after: 0, overCap: 0, changed: 0, capped: 0, recursive: 0, bytesBefore: 0, bytesAfter: 0, changedBefore: 0, changedAfter: 0, left: new Map(), cappedTools: [], presetBytes: 0, adaptCost: 0, tunedAfter: 0, tunedLeft: new Map(), lossyTools: 0, lossyChanges: 0, renames: [], tunedRejected: new Map(), ms: 0 };
  const t0 = performance.now();
  for (const { file, tools } of corpus) {
    const before = checkToolsForProfile(tools, p);
    const result = adaptToClient(tools, { profile: p.name });
    const after = checkToolsForProfile(result.tools, p);
    row.before += rejectedTools(before);
    row.after += rejectedTools(after);
    if (after.some((f) => f.code === 'tool-count')) row.overCap++;
    row.bytesBefore += result.report.stats.before.bytes;
    row.bytesAfter += result.report.stats.after.bytes;
    for (const t of result.report.stats.tools) {
      if (t.before.bytes === t.after.bytes && result.tools[t.index] === tools[t.index]) continue;
      row.changed++;
      row.changedBefore += t.before.bytes;
      row.changedAfter += t.after.bytes;
    }
    for (const d of result.report.diagnostics) if (isGrowthCap(d.code)) row.cappedTools.push(`${file} \`${d.tool}\`: ${d.message}`);
    row.capped += new Set(result.report.diagnostics.filter((d) => isGrowthCap(d.code)).map((d) => d.toolIndex)).size;
    row.recursive += new Set(result.report.diagnostics.filter((d) => d.code === 'recursive-ref').map((d) => d.toolIndex)).size;
    for (const f of after) if (f.severity === 'error') row.left.set(f.code, (row.left.get(f.code) ?? 0) + 1);
    const piped = transformTools(tools, { transforms: presetForProfile('safe', p.name) });
    const adaptStat = piped.report.stats.transforms.find((t) => t.name === 'adapt-to-client')!;
    row.adaptCost += -adaptStat.bytesSaved;
    row.presetBytes += piped.report.stats.after.bytes + adaptStat.bytesSaved;
    const tuned = checkToolsForProfile(piped.tools, p);
    row.tunedAfter += rejectedTools(tuned);
    for (const f of tuned) if (f.severity === 'error') row.tunedLeft.set(f.code, (row.tunedLeft.get(f.code) ?? 0) + 1);
    for (const x of toolRenamesOf(piped.report)) row.renames.push(`${file}: \`${x.from}\` → \`${x.to}\``);
    const still = [...new Set(tuned.filter((f) => f.severity === 'error' && f.toolIndex >= 0).map((f) => f.tool))];
    if (still.length > 0) row.tunedRejected.set(file, still);
    const lossy = piped.report.changes.filter((c) => c.transform === 'adapt-to-client' && LOSSY_CODES.has(c.code));
    row.lossyChanges += lossy.length;
    row.lossyTools += new Set(lossy.map((c) => c.toolIndex)).size;
  }
  row.ms = Math.round(performance.now() - t0);
  rows.push(row);
}

const pct = (a: number, b: number) => (b === 0 ? '–' : `${a >= b ? '+' : ''}${(((a - b) / b) * 100).toFixed(1)}%`);
const lines: string[] = [];
lines.push('# Client profiles over the corpus');
lines.push('');
lines.push(`${corpus.length} captures, ${totalTools} tools (bench/corpus). Generated by \`npm run bench:profiles\` (bench/profiles.ts).`);
lines.push('A tool counts as rejected when the profile checker finds at least one error in it (its name or its schema);');
lines.push('a list longer than the client\'s cap fails as a whole, counted separately. Bytes are UTF-8 of compact JSON.');
lines.push('`adapt-to-client` runs alone here (no preset before it), with the default growth cap of 2×.');
lines.push('');
lines.push('| profile | tools rejected before | after | lists over the tool cap | tools changed | bytes of changed tools before → after | whole corpus bytes | growth-capped | recursive (kept refs) | time |');
lines.push('|---|---:|---:|---:|---:|---|---|---:|---:|---:|');
for (const r of rows) {
  lines.push(
    `| \`${r.profile}\` | ${r.before} | ${r.after} | ${r.overCap} | ${r.changed} | ${r.changedBefore.toLocaleString('en')} → ${r.changedAfter.toLocaleString('en')} (${pct(r.changedAfter, r.changedBefore)}) | ${r.bytesBefore.toLocaleString('en')} → ${r.bytesAfter.toLocaleString('en')} (${pct(r.bytesAfter, r.bytesBefore)}) | ${r.capped} | ${r.recursive} | ${r.ms} ms |`,
  );
}
lines.push('');
lines.push('## Byte cost of adaptation after the `safe` preset');
lines.push('');
lines.push('`transformTools(tools, { transforms: presetForProfile(\'safe\', profile) })`: the preset runs first (so definitions nothing');
lines.push('uses are already gone), then `adapt-to-client`; this is what adaptation alone adds to the whole list.');
lines.push('');
lines.push('| profile | list bytes after the preset | added by adapt-to-client |');
lines.push('|---|---:|---:|');
for (const r of rows) lines.push(`| \`${r.profile}\` | ${r.presetBytes.toLocaleString('en')} | ${r.adaptCost >= 0 ? '+' : ''}${r.adaptCost.toLocaleString('en')} (${pct(r.presetBytes + r.adaptCost, r.presetBytes)}) |`);
lines.push('');
lines.push('## The safe preset tuned for each profile');
lines.push('');
lines.push('`presetForProfile(\'safe\', profile)` (what `toolslim optimize --profile` runs): the preset, then `adapt-to-client` with');
lines.push('a growth allowance of 2,048 bytes and the lossy steps the profile asks for (`gemini`: relax-assertions and');
lines.push('describe-formats; `openai-strict`: those and close-objects; every profile whose name rule is an error: rename-tools).');
lines.push('Tools still rejected, and what is left, by code:');
lines.push('');
lines.push('| profile | tools rejected before | after the tuned preset | tools changed by lossy steps (changes) | left (error findings by code) |');
lines.push('|---|---:|---:|---:|---|');
for (const r of rows) {
  const left = [...r.tunedLeft.entries()].sort((a, b) => b[1] - a[1]).map(([k, n]) => `\`${k}\` ${n}`);
  lines.push(`| \`${r.profile}\` | ${r.before} | ${r.tunedAfter} | ${r.lossyTools} (${r.lossyChanges}) | ${left.length === 0 ? 'nothing' : left.join(', ')} |`);
}
lines.push('');
lines.push('What is left is what no rewrite may fix: lists over a 128-tool cap (toolslim never drops a tool), and for');
lines.push('`openai-strict` open maps and free-form objects, which strict mode cannot express (each named by an `open-map` /');
lines.push('`free-form-object` diagnostic, and below). A name the client refuses is renamed (rename-tools, lossy: calls name');
lines.push('the new name, so the output is usable only through `toolslim proxy` or a caller that maps it back with');
lines.push('`toolRenamesOf(report)`; `--keep-names` / `renameTools: false` keeps names). test/corpus-profiles-tuned.test.ts');
lines.push('names every one.');
lines.push('');
lines.push('Renamed by the tuned preset:');
lines.push('');
for (const r of rows) if (r.renames.length > 0) lines.push(`- \`${r.profile}\`: ${r.renames.join('; ')}`);
lines.push('');
for (const r of rows) {
  if (r.tunedRejected.size === 0) continue;
  lines.push(`Still rejected by \`${r.profile}\` after the tuned preset (${r.tunedAfter} tools, by capture):`);
  lines.push('');
  for (const [file, names] of r.tunedRejected) lines.push(`- ${file} (${names.length}): ${names.map((n) => `\`${n}\``).join(', ')}`);
  lines.push('');
}
lines.push('## What is still rejected after adaptation alone (error findings by code)');
lines.push('');
lines.push('These change which arguments are valid (or are a tool\'s identity), so they are reported, never rewritten.');
lines.push('');
for (const r of rows) {
  const left = [...r.left.entries()].sort((a, b) => b[1] - a[1]).map(([k, n]) => `\`${k}\` ${n}`);
  lines.push(`- \`${r.profile}\`: ${left.length === 0 ? 'nothing' : left.join(', ')}`);
}
lines.push('');
lines.push('## Notes');
lines.push('');
lines.push('- For clients that cannot resolve references (`ref-free`, `gemini`) the changed tools shrink: once every reference is inlined, the');
lines.push('  definitions (often a whole components inventory attached to every tool) are dead and removed. Run a preset first');
lines.push('  (`presetForProfile`) and `prune-unreachable-defs` takes that share; the remaining cost is the inlined copies.');
lines.push('- `kimi` and `openai-strict` grow where a target is copied into `$defs` so references can name it (`#/properties/…` references).');
lines.push('- Tools left as they were because adapting them would pass the growth cap:');
for (const r of rows) for (const t of r.cappedTools) lines.push(`  - \`${r.profile}\`: ${t}`);
lines.push('');
writeFileSync(join(import.meta.dirname, 'profiles.md'), lines.join('\n'));
console.log(lines.join('\n'));

function rejectedTools(findings: readonly ProfileFinding[]): number {
  return new Set(findings.filter((f) => f.severity === 'error' && f.toolIndex >= 0).map((f) => f.toolIndex)).size;
}

/** adapt-to-client's growth-cap findings: the first pass's (`growth-capped`) and a later round's (`growth-capped-again`). */
function isGrowthCap(code: string): boolean {
  return code === 'growth-capped' || code === 'growth-capped-again';
}
