/**
 * `npm run bench:rendered` (and the last step of `npm run bench`): what each reader pays (issue 27, item 3).
 *
 * A client forwards each tool's name, description and input schema, and the model reads them as its chat
 * template or prompt format renders them (src/render/, docs/render.md). For every reader — `typescript`
 * (OpenAI-family, the harmony rules), `json-spaced` (Qwen, Mistral, Hermes templates), `json-indent4` (Llama
 * 3.1–3.3) and `json` (compact: the MCP wire form, the stand-in for Claude and unknown clients) — this counts
 * o200k_base tokens of the whole tools section (`renderTools`), per server, for the original list, the default
 * call (`safe`), `max`, and `max` with the server instructions it writes, and the profile-tuned presets of the
 * profiles that read it; then each transform alone. o200k_base is the typescript reader's own tokenizer (the
 * tools block holds no special tokens); for the JSON readers it is a labelled stand-in (Qwen's and Llama's
 * tokenizers are not dependencies of toolslim).
 *
 * Both sets: bench/corpus (tuned on) and bench/validation (never tuned on, issue 31).
 * Writes the section between `<!-- rendered:start -->` and `<!-- rendered:end -->` of bench/results.md (added
 * at the end when absent) and bench/rendered.json. `--no-write` prints only.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { builtinTransforms, measureRendered, presetForProfile, transformTools, type McpTool, type TransformStepInput } from '../src/index.js';
import { RENDERER_NAMES, type ForwardedTool, type RendererName } from '../src/render/index.js';
import { o200k } from '../src/tokens.js';
import { loadCaptures } from './lib/captures.js';
import { replaceMarkedBlock } from './lib/stats.js';

const BENCH = import.meta.dirname;
const WRITE = !process.argv.includes('--no-write') && !process.argv.includes('--quick');

interface Server {
  readonly file: string;
  readonly tools: McpTool[];
}


const forward = (t: McpTool): ForwardedTool => ({ name: String(t.name ?? ''), ...(typeof t.description === 'string' ? { description: t.description } : {}), ...(t.inputSchema !== undefined ? { inputSchema: t.inputSchema } : {}) });

/** Tokens of one list in one reader; instructions (a plain text in the system prompt) counted beside it. */
function measure(tools: readonly McpTool[], renderer: RendererName, instructions?: string): { tokens: number; any: number } {
  const m = measureRendered(tools.map(forward), renderer, o200k);
  return { tokens: m.tokens + (instructions ? o200k.count(instructions) : 0), any: m.any };
}

interface Pipeline {
  readonly name: string;
  readonly steps: TransformStepInput[];
  /** Count the instructions the pipeline writes. */
  readonly withInstructions?: boolean;
  /** Only for these readers (profile-tuned presets: the profile's own reader). */
  readonly readers?: readonly RendererName[];
}

const PIPELINES: readonly Pipeline[] = [
  { name: 'default (safe)', steps: ['safe'] },
  { name: 'max', steps: ['max'] },
  { name: 'max + its instructions', steps: ['max'], withInstructions: true },
  { name: "presetForProfile('safe','openai')", steps: presetForProfile('safe', 'openai', { tokenizer: o200k }), readers: ['typescript'] },
  { name: "presetForProfile('max','openai')", steps: presetForProfile('max', 'openai', { tokenizer: o200k }), withInstructions: true, readers: ['typescript'] },
  { name: "presetForProfile('max','qwen')", steps: presetForProfile('max', 'qwen'), withInstructions: true, readers: ['json-spaced'] },
  { name: "presetForProfile('max','llama')", steps: presetForProfile('max', 'llama'), withInstructions: true, readers: ['json-indent4'] },
];

/** Transforms measured alone (every step of the built-in presets). */
const ALONE = ['reconcile-dialect', 'hoist-nested-defs', 'prune-unreachable-defs', 'normalize-schema', 'strip-noise', 'strip-vendor-extensions', 'dedupe-repeated-subtrees', 'promote-common-params'].filter((n) => builtinTransforms.some((t) => t.name === n));

interface Row {
  readonly pipeline: string;
  readonly renderer: RendererName;
  readonly before: number;
  readonly after: number;
  /** Median over servers of the share saved. */
  readonly median: number;
  readonly anyBefore: number;
  readonly anyAfter: number;
  /** Servers whose `any` count rose. */
  readonly anyRose: number;
}

function median(xs: number[]): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

function measureSet(servers: readonly Server[]): { rows: Row[]; alone: Row[] } {
  const base = new Map<RendererName, { tokens: number; any: number }[]>();
  for (const r of RENDERER_NAMES) base.set(r, servers.map((s) => measure(s.tools, r)));
  const runPipeline = (name: string, steps: TransformStepInput[], withInstructions: boolean, readers: readonly RendererName[]): Row[] => {
    const outs = servers.map((s) => transformTools(s.tools, { transforms: steps, verify: false }));
    return readers.map((renderer) => {
      const b = base.get(renderer)!;
      const a = outs.map((o) => measure(o.tools as McpTool[], renderer, withInstructions ? o.instructions : undefined));
      return {
        pipeline: name,
        renderer,
        before: b.reduce((n, x) => n + x.tokens, 0),
        after: a.reduce((n, x) => n + x.tokens, 0),
        median: median(b.map((x, i) => (x.tokens === 0 ? 0 : (x.tokens - a[i]!.tokens) / x.tokens))),
        anyBefore: b.reduce((n, x) => n + x.any, 0),
        anyAfter: a.reduce((n, x) => n + x.any, 0),
        anyRose: a.filter((x, i) => x.any > b[i]!.any).length,
      };
    });
  };
  const rows = PIPELINES.flatMap((p) => runPipeline(p.name, p.steps, p.withInstructions === true, p.readers ?? RENDERER_NAMES));
  const alone = ALONE.flatMap((t) => runPipeline(t, [t], t === 'promote-common-params', RENDERER_NAMES));
  return { rows, alone };
}

const pct = (before: number, after: number) => (before === 0 ? '0.0%' : `${(((before - after) / before) * 100).toFixed(1)}%`);
const n = (x: number) => x.toLocaleString('en-US');

function table(rows: readonly Row[], first: string): string {
  const out = [`| ${first} | reader | before | after | saved | median per server | \`any\` before → after | servers whose \`any\` rose |`, '|:--|:--|--:|--:|--:|--:|--:|--:|'];
  for (const r of rows) out.push(`| ${r.pipeline} | \`${r.renderer}\` | ${n(r.before)} | ${n(r.after)} | ${pct(r.before, r.after)} | ${(r.median * 100).toFixed(1)}% | ${r.renderer === 'typescript' ? `${r.anyBefore} → ${r.anyAfter}` : '–'} | ${r.renderer === 'typescript' ? r.anyRose : '–'} |`);
  return out.join('\n');
}

function perTransform(alone: readonly Row[]): string {
  const out = [`| transform alone | ${RENDERER_NAMES.map((r) => `\`${r}\``).join(' | ')} |`, `|:--|${RENDERER_NAMES.map(() => '--:').join('|')}|`];
  for (const t of ALONE) {
    const cells = RENDERER_NAMES.map((r) => {
      const row = alone.find((x) => x.pipeline === t && x.renderer === r)!;
      return `${n(row.before - row.after)} (${pct(row.before, row.after)})`;
    });
    out.push(`| ${t} | ${cells.join(' | ')} |`);
  }
  return out.join('\n');
}

const sets = [
  { name: 'bundled corpus', dir: join(BENCH, 'corpus') },
  { name: 'validation set (never tuned on)', dir: join(BENCH, 'validation') },
].map((s) => ({ ...s, servers: loadCaptures(s.dir) }));

const started = performance.now();
const measured = sets.filter((s) => s.servers.length > 0).map((s) => ({ ...s, ...measureSet(s.servers) }));

const parts: string[] = [
  '## What each reader pays (issue 27)',
  '',
  'Tokens of the tools section as each model family reads it ([docs/render.md](../docs/render.md)): `typescript` is the ' +
    'OpenAI-family namespace (harmony rules), `json-spaced` Qwen/Mistral/Hermes templates (`tojson`), `json-indent4` Llama 3.1–3.3 ' +
    '(`tojson(indent=4)`), `json` the compact MCP wire form (the stand-in for Claude and unknown clients). Counted with o200k_base: ' +
    'exact for `typescript` (its own tokenizer); a labelled stand-in for the JSON readers. Only what a client forwards (name, ' +
    'description, input schema) is rendered; `+ its instructions` adds the server instructions `max` writes (every request pays them). ' +
    '"median per server" is the median of each server\'s share saved. `any`: parameter types the `typescript` reader cannot see. ' +
    'Before = the server\'s own list. `verify: false` (the gate changes no output on these sets).',
];
for (const s of measured) {
  parts.push('', `### ${s.name}: ${s.servers.length} servers, ${n(s.servers.reduce((a, x) => a + x.tools.length, 0))} tools`, '', table(s.rows, 'pipeline'), '', `Each transform alone (${s.name}), tokens saved per reader:`, '', perTransform(s.alone));
}
parts.push('', `(${((performance.now() - started) / 1000).toFixed(0)} s; \`npm run bench:rendered\`)`);
const section = parts.join('\n');
process.stdout.write(section + '\n');

if (WRITE) {
  writeFileSync(join(BENCH, 'rendered.json'), JSON.stringify(measured.map((s) => ({ set: s.name, servers: s.servers.length, rows: s.rows, alone: s.alone })), null, 2) + '\n');
  const path = join(BENCH, 'results.md');
  const md = existsSync(path) ? readFileSync(path, 'utf8') : '';
  const block = `<!-- rendered:start -->\n${section}\n<!-- rendered:end -->`;
  const replaced = replaceMarkedBlock(md, 'rendered', section);
  writeFileSync(path, replaced ?? md.replace(/\n*$/, '\n\n') + block + '\n');
  // README: the headline per reader, each figure with its unit.
  const readmePath = join(BENCH, '..', 'README.md');
  const readme = readFileSync(readmePath, 'utf8');
  const updated = replaceMarkedBlock(readme, 'readers', readmeBlock());
  if (updated !== undefined) writeFileSync(readmePath, updated);
}

function readmeBlock(): string {
  const lines = [
    '| tokens saved, whole tools section (o200k_base) | reader | default (`safe`) | median per server | `max` + its instructions | `any` types, default (`typescript`) |',
    '|:--|:--|--:|--:|--:|--:|',
  ];
  for (const set of measured) {
    for (const r of RENDERER_NAMES) {
      const d = set.rows.find((x) => x.pipeline === 'default (safe)' && x.renderer === r)!;
      const m = set.rows.find((x) => x.pipeline === 'max + its instructions' && x.renderer === r)!;
      lines.push(`| ${set.name} | \`${r}\`${r === 'typescript' ? '' : ' (o200k: a stand-in)'} | ${pct(d.before, d.after)} | ${(d.median * 100).toFixed(1)}% | ${pct(m.before, m.after)} | ${r === 'typescript' ? `${d.anyBefore} → ${d.anyAfter}` : '–'} |`);
    }
  }
  return lines.join('\n');
}
