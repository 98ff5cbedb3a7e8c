/**
 * Issue 27, item 6 targets, measured (not asserted): for each pipeline, the parameter types the
 * `typescript` reader sees as `any` and its o200k_base tokens over bench/corpus, and the servers whose
 * `any` count rises. Run: `npx tsx bench/readers.ts` (writes nothing; prints a markdown table).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { measureRendered, planForProfile, presetForProfile, transformTools, type TransformStepInput } from '../src/index.js';
import { o200k } from '../src/tokens.js';

const dir = join(import.meta.dirname, 'corpus');
const corpus = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((file) => ({ file, tools: JSON.parse(readFileSync(join(dir, file), 'utf8')).toolsList.tools as Record<string, unknown>[] }));

const only = process.argv.slice(2);
const PIPELINES: [string, TransformStepInput[]][] = [
  ['default (safe)', ['safe']],
  ['max', ['max']],
  ["presetForProfile('safe','openai')", presetForProfile('safe', 'openai', { tokenizer: o200k })],
  ["presetForProfile('max','openai')", presetForProfile('max', 'openai', { tokenizer: o200k })],
];
const forward = (t: Record<string, unknown>) => ({ name: String(t.name ?? ''), ...(typeof t.description === 'string' ? { description: t.description } : {}), ...(t.inputSchema !== undefined ? { inputSchema: t.inputSchema } : {}) });
const ts = (tools: readonly Record<string, unknown>[]) => measureRendered(tools.map(forward), 'typescript', o200k);

const base = corpus.map((c) => ({ file: c.file, m: ts(c.tools) }));
const anyBefore = base.reduce((a, b) => a + b.m.any, 0);
const tokBefore = base.reduce((a, b) => a + b.m.tokens, 0);
console.log(`original: any ${anyBefore}, typescript tokens ${tokBefore}`);
console.log('| pipeline | any | typescript tokens | servers whose any rose |');
console.log('|---|---:|---:|---|');
for (const [name, steps] of PIPELINES) {
  if (only.length > 0 && !only.some((o) => name.includes(o))) continue;
  let any = 0;
  let tokens = 0;
  const rose: string[] = [];
  for (let i = 0; i < corpus.length; i++) {
    const r = transformTools(corpus[i]!.tools, { transforms: steps, verify: false });
    const m = ts(r.tools as Record<string, unknown>[]);
    any += m.any;
    tokens += m.tokens;
    if (m.any > base[i]!.m.any) rose.push(`${corpus[i]!.file} ${base[i]!.m.any}→${m.any}`);
  }
  console.log(`| ${name} | ${anyBefore} → ${any} | ${tokBefore} → ${tokens} (${(((tokens - tokBefore) / tokBefore) * 100).toFixed(1)}%) | ${rose.length === 0 ? 'none' : rose.join('; ')} |`);
}
console.log('\nskipped by planForProfile:', JSON.stringify(planForProfile('max', 'openai').skipped.map((s) => s.transform)), JSON.stringify(planForProfile('max', 'claude-code').skipped.map((s) => s.transform)));
