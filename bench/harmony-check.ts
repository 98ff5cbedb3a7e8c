/**
 * `npm run bench:harmony` (and a step of `npm run bench`): does toolslim's `typescript` renderer agree with an
 * independent implementation of the published harmony rules? (issue 27 target: within 2% on every corpus.)
 *
 * The reference is bench/harmony-ref/render.py (Python 3.11 standard library, written from openai/harmony
 * v0.0.8's encoding.rs and its fixture without reading src/render/typescript.ts). Before it is trusted, the bench
 * checks that it reproduces harmony's public fixture (bench/harmony-ref/test_render_functions_with_parameters.txt)
 * byte for byte. Then, for bench/corpus and bench/validation, for every server and for three inputs (the server's
 * own list, the default call `safe`, and `presetForProfile('safe','openai')`), it renders the forwarded tools
 * (name, description, input schema) with both, counts o200k_base tokens of the whole tools section
 * (`## functions … } // namespace functions`) and compares the texts tool by tool.
 *
 * Beside it: the gpt-oss chat template of Hugging Face (openai/gpt-oss-*'s chat_template.jinja, rendered with
 * @huggingface/jinja, a devDependency), which renders the same form with fewer comments. The template text is not
 * committed (third-party file): put it at bench/harmony-ref/gpt-oss-chat_template.jinja or name it with
 * TOOLSLIM_GPT_OSS_TEMPLATE; without it that column is skipped and says so. Its sha256 is recorded.
 *
 * Without python3 the bench says so and skips (labelled); it never crashes on that.
 * Writes the section between `<!-- harmony:start -->` and `<!-- harmony:end -->` of bench/results.md and
 * bench/harmony-check.json. `--no-write` (or `--quick`) prints only. `--dir PATH` adds a set: every capture in that folder.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { presetForProfile, transformTools, type McpTool, type TransformStepInput } from '../src/index.js';
import { typescriptRenderer, type ForwardedTool } from '../src/render/index.js';
import { o200k } from '../src/tokens.js';
import fc from 'fast-check';
import { fuzzToolsArb } from '../test/helpers/fuzz-arbitraries.js';
import { loadCaptures } from './lib/captures.js';
import { replaceMarkedBlock } from './lib/stats.js';

const BENCH = import.meta.dirname;
const REF = join(BENCH, 'harmony-ref');
const WRITE = !process.argv.includes('--no-write') && !process.argv.includes('--quick') && !process.argv.includes('--dir');
const TARGET = 0.02;

interface Server {
  readonly file: string;
  readonly tools: McpTool[];
  /** The capture file: the reference reads the server's own JSON text for the "before" input. */
  readonly path?: string;
}


/** What a client forwards, as the JSON it sends (both renderers read the same values). */
const forward = (tool: McpTool): ForwardedTool => {
  const t = JSON.parse(JSON.stringify(tool)) as McpTool;
  return forwardFields(t);
};
const forwardFields = (t: McpTool): ForwardedTool => ({ name: String(t.name ?? ''), ...(typeof t.description === 'string' ? { description: t.description } : {}), ...(t.inputSchema !== undefined ? { inputSchema: t.inputSchema } : {}) });

interface RefOutput {
  readonly section: string;
  readonly tools: string[];
  readonly errors: string[];
}

/** Runs the Python reference; undefined with a reason when python3 is missing or fails. */
function python(args: string[], input: string): { out?: string; why?: string } {
  const r = spawnSync('python3', [join(REF, 'render.py'), ...args], { input, encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.error) return { why: `python3 could not be run (${(r.error as NodeJS.ErrnoException).code ?? r.error.message})` };
  if (r.status !== 0) return { why: `render.py exited ${r.status}: ${r.stderr.slice(0, 500)}` };
  return { out: r.stdout };
}

/** The fixture's developer message body, and whether render.py reproduces it byte for byte. */
function fixtureCheck(): { ok: boolean; why?: string } {
  const fixture = readFileSync(join(REF, 'test_render_functions_with_parameters.txt'), 'utf8');
  const body = fixture.split('<|start|>developer<|message|>')[1]?.split('<|end|>')[0];
  if (body === undefined) return { ok: false, why: 'fixture has no developer message' };
  const r = python(['--fixture'], '');
  if (r.out === undefined) return { ok: false, why: r.why };
  return r.out === body ? { ok: true } : { ok: false, why: 'render.py --fixture differs from the fixture text' };
}

// ---- the Hugging Face chat template variant ----

const TEMPLATE_PATH = process.env.TOOLSLIM_GPT_OSS_TEMPLATE ?? join(REF, 'gpt-oss-chat_template.jinja');
/** sha256 of chat_template.jinja as llama.cpp vendors it (models/templates/openai-gpt-oss-120b.jinja, Git LFS oid). */
const KNOWN_TEMPLATE_SHA256 = 'a4c9919cbbd4acdd51ccffe22da049264b1b73e59055fa58811a99efbd7c8146';

interface TemplateRenderer {
  readonly sha256: string;
  render(tools: readonly ForwardedTool[]): string;
}

async function loadTemplate(): Promise<{ t?: TemplateRenderer; why?: string }> {
  if (!existsSync(TEMPLATE_PATH)) return { why: `no template at ${TEMPLATE_PATH} (set TOOLSLIM_GPT_OSS_TEMPLATE)` };
  const text = readFileSync(TEMPLATE_PATH, 'utf8');
  const sha256 = createHash('sha256').update(text).digest('hex');
  let Template: typeof import('@huggingface/jinja').Template;
  try {
    ({ Template } = await import('@huggingface/jinja'));
  } catch (e) {
    return { why: `@huggingface/jinja is not installed (${(e as Error).message})` };
  }
  const template = new Template(text);
  // Jinja2 (transformers) resolves `properties.items()` to the dict method; @huggingface/jinja to a property
  // named `items` when there is one. Such a key is renamed to a sentinel (in `properties` and `required`) and
  // named back in the text, so the template renders as transformers would.
  const SENTINEL = '\u0001items\u0001';
  const guard = (v: unknown, depth = 0): unknown => {
    if (depth > 200 || v === null || typeof v !== 'object') return v;
    if (Array.isArray(v)) return v.map((x) => guard(x, depth + 1));
    const o = v as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(o)) out[k] = guard(x, depth + 1);
    const props = out.properties;
    if (props && typeof props === 'object' && !Array.isArray(props) && Object.prototype.hasOwnProperty.call(props, 'items')) {
      out.properties = Object.fromEntries(Object.entries(props).map(([k, x]) => [k === 'items' ? SENTINEL : k, x]));
      if (Array.isArray(out.required)) out.required = out.required.map((r) => (r === 'items' ? SENTINEL : r));
    }
    return out;
  };
  const START = '<|start|>developer<|message|># Tools\n\n';
  return {
    t: {
      sha256,
      render(tools) {
        if (tools.length === 0) return '';
        // What an OpenAI-compatible server hands the template: {type:'function', function:{name, description, parameters}}.
        // A missing description is '' (the template concatenates it).
        const out = template.render({
          messages: [{ role: 'user', content: 'hi' }],
          tools: tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description ?? '', ...(t.inputSchema !== undefined ? { parameters: guard(t.inputSchema) } : {}) } })),
          add_generation_prompt: true,
        });
        const i = out.indexOf(START);
        if (i < 0) throw new Error('template output has no developer tools section');
        return out.slice(i + START.length, out.indexOf('<|end|>', i)).split(SENTINEL).join('items');
      },
    },
  };
}

// ---- measuring ----

interface Variant {
  readonly name: string;
  readonly steps?: TransformStepInput[];
}

const VARIANTS: readonly Variant[] = [
  { name: 'before (the server’s list)' },
  { name: 'default call (safe)', steps: ['safe'] },
  { name: "presetForProfile('safe','openai')", steps: presetForProfile('safe', 'openai', { tokenizer: o200k }) },
];

interface Diff {
  readonly server: string;
  readonly tool: string;
  readonly ours: string;
  readonly ref: string;
}

interface SetResult {
  readonly set: string;
  readonly variant: string;
  readonly servers: number;
  readonly tools: number;
  readonly ours: number;
  readonly ref: number;
  /** (ours − ref) / ref over the set. */
  readonly aggregate: number;
  /** Largest |ours − ref| / ref of one server, and that server. */
  readonly maxServer: number;
  readonly maxServerName: string;
  readonly toolsDiffering: number;
  readonly refErrors: number;
  readonly template?: number;
  /** Servers the template could not render (not counted in `template`). */
  readonly templateErrors?: string[];
  readonly templateVsRef?: number;
  readonly within: boolean;
}

/** Per-tool texts compared without the trailing newline (where one tool's block ends is a convention). */
const sameTool = (a: string, b: string) => a.replace(/\n+$/, '') === b.replace(/\n+$/, '');

function measure(setName: string, servers: readonly Server[], template: TemplateRenderer | undefined, diffs: Diff[]): SetResult[] | { why: string } {
  const inputs = VARIANTS.map((v) => servers.map((s) => (v.steps ? (transformTools(s.tools, { transforms: v.steps, verify: false }).tools as McpTool[]) : s.tools).map(forward)));
  // The server's own list goes to the reference as its file (key order and numbers as the server wrote them).
  const batches0 = VARIANTS.flatMap((v, vi) => servers.map((s, si) => (v.steps === undefined && s.path !== undefined ? { file: s.path } : inputs[vi]![si]!)));
  const r = python([], JSON.stringify({ batches: batches0 }));
  if (r.out === undefined) return { why: r.why ?? 'render.py failed' };
  const batches = (JSON.parse(r.out) as { batches: RefOutput[] }).batches;
  return VARIANTS.map((v, vi) => {
    let ours = 0;
    let ref = 0;
    let tpl = 0;
    let maxServer = 0;
    let maxServerName = '';
    let toolsDiffering = 0;
    let refErrors = 0;
    let toolCount = 0;
    const templateErrors: string[] = [];
    servers.forEach((s, si) => {
      const fwd = inputs[vi]![si]!;
      const out = batches[vi * servers.length + si]!;
      const o = o200k.count(typescriptRenderer.renderTools(fwd));
      const rf = o200k.count(out.section);
      ours += o;
      ref += rf;
      if (template) {
        try {
          tpl += o200k.count(template.render(fwd));
        } catch (e) {
          templateErrors.push(`${s.file}: ${(e as Error).message.split('\n')[0]!.slice(0, 160)}`);
        }
      }
      const d = rf === 0 ? 0 : Math.abs(o - rf) / rf;
      if (d > maxServer) {
        maxServer = d;
        maxServerName = s.file;
      }
      refErrors += out.errors.length;
      toolCount += fwd.length;
      fwd.forEach((t, ti) => {
        const mine = typescriptRenderer.renderTool(t);
        if (!sameTool(mine, out.tools[ti]!)) {
          toolsDiffering++;
          diffs.push({ server: `${setName} / ${v.name} / ${s.file}`, tool: t.name, ours: mine, ref: out.tools[ti]! });
        }
      });
    });
    const aggregate = ref === 0 ? 0 : (ours - ref) / ref;
    return {
      set: setName,
      variant: v.name,
      servers: servers.length,
      tools: toolCount,
      ours,
      ref,
      aggregate,
      maxServer,
      maxServerName,
      toolsDiffering,
      refErrors,
      ...(template ? { template: tpl, templateVsRef: ref === 0 ? 0 : (tpl - ref) / ref, templateErrors } : {}),
      within: Math.abs(aggregate) <= TARGET && maxServer <= TARGET,
    };
  });
}

const n = (x: number) => x.toLocaleString('en-US');
const pct = (x: number, signed = true) => `${signed && x > 0 ? '+' : ''}${(x * 100).toFixed(2)}%`;

/** First differing line of two texts, for the listing. */
function firstDifference(a: string, b: string): string {
  const la = a.split('\n');
  const lb = b.split('\n');
  for (let i = 0; i < Math.max(la.length, lb.length); i++) {
    if (la[i] !== lb[i]) return `line ${i + 1}: ours \`${JSON.stringify(la[i] ?? '(end)').slice(1, -1).slice(0, 120)}\` · reference \`${JSON.stringify(lb[i] ?? '(end)').slice(1, -1).slice(0, 120)}\``;
  }
  return 'trailing text only';
}

const started = performance.now();
const sets = [
  { name: 'bundled corpus', dir: join(BENCH, 'corpus') },
  { name: 'validation set (never tuned on)', dir: join(BENCH, 'validation') },
].map((s) => ({ ...s, servers: loadCaptures(s.dir) as Server[] }));
// `--dir PATH` (repeatable): any folder of captures (`{toolsList: {tools}}` or `{tools}` JSON files), e.g. servers this bench has not seen.
process.argv.forEach((a, i) => {
  if (a === '--dir' && process.argv[i + 1] !== undefined) sets.push({ name: `--dir ${process.argv[i + 1]!}`, dir: process.argv[i + 1]!, servers: loadCaptures(process.argv[i + 1]!) });
});
// Hand-written tools that take every branch of the rules (each its own "server", so the max is per tool).
const edge = JSON.parse(readFileSync(join(REF, 'edge-cases.json'), 'utf8')) as { tools: McpTool[] };
sets.push({ name: 'edge cases (bench/harmony-ref/edge-cases.json)', dir: '', servers: edge.tools.map((t) => ({ file: String(t.name), tools: [t] })) });
// The suite's fuzz generator (every dialect, $ref/anyOf/oneOf/const/nullable mixes), seeded: each list a "server".
const FUZZ_SEED = 27;
const FUZZ_LISTS = process.argv.includes('--quick') ? 50 : 400;
sets.push({
  name: `fuzzed lists (test/helpers/fuzz-arbitraries.ts, seed ${FUZZ_SEED})`,
  dir: '',
  servers: fc.sample(fuzzToolsArb(), { numRuns: FUZZ_LISTS, seed: FUZZ_SEED }).map((tools, i) => ({ file: `fuzz-${i}`, tools: tools as McpTool[] })),
});

const parts: string[] = [
  '## `typescript` against an independent harmony reference (issue 27)',
  '',
  'Target: toolslim\'s `typescript` tokens within 2% of an independent implementation of the published harmony rules on every set. ' +
    'Reference: [bench/harmony-ref/render.py](harmony-ref/render.py), Python 3.11 standard library, written from openai/harmony v0.0.8 ' +
    '(commit ec7606d, `src/encoding.rs`: `json_schema_to_typescript`, `template_tools_section`) and its fixture, without reading ' +
    '`src/render/typescript.ts`. Both render what a client forwards (name, description, input schema) as the whole tools section ' +
    '(`## functions` … `} // namespace functions`); for the server\'s own list the reference reads the capture file itself (key ' +
    'order and number spelling as the server wrote them), for transformed lists the JSON toolslim outputs; o200k_base tokens (gpt-tokenizer, as `toolslim/tokens`). "max per server" is the ' +
    'largest |ours − reference| / reference of one server. "tools differing" counts tools whose text is not identical (trailing newline aside).',
];
const results: SetResult[] = [];
const diffs: Diff[] = [];
let skipped: string | undefined;
const fixture = fixtureCheck();
if (!fixture.ok) {
  skipped = fixture.why ?? 'fixture check failed';
} else {
  const tpl = await loadTemplate();
  if (tpl.t && tpl.t.sha256 !== KNOWN_TEMPLATE_SHA256) tpl.why = `template sha256 ${tpl.t.sha256} is not the known ${KNOWN_TEMPLATE_SHA256}`;
  for (const s of sets) {
    if (s.servers.length === 0) continue;
    const r = measure(s.name, s.servers, tpl.t, diffs);
    if ('why' in r) {
      skipped = r.why;
      break;
    }
    results.push(...r);
  }
  if (skipped === undefined) {
    parts.push('', 'Reference self-check: `render.py --fixture` reproduces harmony\'s `test_render_functions_with_parameters.txt` developer message byte for byte.');
    parts.push(
      '',
      `| set | input | servers | tools | toolslim \`typescript\` | reference | difference | max per server | tools differing | within 2% | HF chat template | template vs reference |`,
      '|:--|:--|--:|--:|--:|--:|--:|--:|--:|:--:|--:|--:|',
    );
    for (const r of results) {
      parts.push(
        `| ${r.set} | ${r.variant} | ${r.servers} | ${n(r.tools)} | ${n(r.ours)} | ${n(r.ref)} | ${pct(r.aggregate)} | ${pct(r.maxServer, false)}${r.maxServer > 0 ? ` (${r.maxServerName.replace(/\.json$/, '')})` : ''} | ${r.toolsDiffering} | ${r.within ? 'yes' : '**no**'} | ${r.template === undefined ? '–' : n(r.template)} | ${r.templateVsRef === undefined ? '–' : pct(r.templateVsRef)} |`,
      );
    }
    parts.push(
      '',
      tpl.t && !tpl.why
        ? `HF chat template: openai/gpt-oss-20b/120b \`chat_template.jinja\` (sha256 \`${tpl.t.sha256.slice(0, 16)}…\`, the file llama.cpp vendors as models/templates/openai-gpt-oss-120b.jinja), rendered with @huggingface/jinja (transformers' trim_blocks/lstrip_blocks); its tools section only. It drops nested descriptions, titles, examples and nested defaults, writes nested objects on one line, and renders \`oneOf\` with an object variant as \`any\`; not committed here (third-party file). @huggingface/jinja stands in for Python's Jinja2 (not installable here); the one difference met, a property named \`items\` shadowing \`.items()\`, is worked around; \`join\` of non-string \`enum\` members (\`true\` vs Python's \`True\`) is not.`
        : `HF chat template: not measured: ${tpl.why ?? 'unavailable'}.`,
    );
    const failed = new Map<string, Set<string>>();
    for (const r of results) for (const e of r.templateErrors ?? []) failed.set(r.set, (failed.get(r.set) ?? new Set()).add(e));
    for (const [set, errs] of failed) parts.push('', `HF chat template could not render ${errs.size} server(s) of ${set} (left out of its column, in every input): ${[...errs].slice(0, 5).join('; ')}${errs.size > 5 ? '; …' : ''}`);
    const uniq = new Map<string, Diff>();
    for (const d of diffs) if (!uniq.has(`${d.tool}\0${d.ours}\0${d.ref}`)) uniq.set(`${d.tool}\0${d.ours}\0${d.ref}`, d);
    parts.push('', `Tools whose text differs: ${diffs.length} (${uniq.size} distinct).`);
    parts.push(
      '',
      'Fixed after this comparison: numbers in `// default:` comments were written as JavaScript writes them (`1e+21`, `0.0000015`, ' +
        '`200000000000000000000`); harmony prints them with serde_json + ryu (`1e21`, `1.5e-6`, `2e20`): src/render/serde-number.ts, ' +
        'test/render/typescript-numbers.test.ts. Differences left on purpose (not measurable here): very deep schemas. Through its Python binding harmony ' +
        'parses the whole conversation with serde_json (recursion limit 128; the schema sits 9 levels down, so about 118 levels of ' +
        'schema), and refuses the request past that: there is no harmony text to match. Called from Rust it has no limit. toolslim ' +
        'renders `any` past `MAX_TYPESCRIPT_DEPTH` (128); the reference reports such a tool as an error. A description holding a lone ' +
        'surrogate is likewise a serde_json parse error in harmony.',
    );
    for (const d of [...uniq.values()].slice(0, 20)) parts.push(`- ${d.server} · \`${d.tool}\`: ${firstDifference(d.ours, d.ref)}`);
  }
}
if (skipped !== undefined) parts.push('', `**Skipped**: ${skipped}. Nothing was compared.`);
parts.push('', `(${((performance.now() - started) / 1000).toFixed(0)} s; \`npm run bench:harmony\`)`);
const section = parts.join('\n');
process.stdout.write(section + '\n');

if (WRITE) {
  writeFileSync(join(BENCH, 'harmony-check.json'), JSON.stringify({ target: TARGET, skipped: skipped ?? null, results, differences: diffs.length }, null, 2) + '\n');
  const path = join(BENCH, 'results.md');
  const md = existsSync(path) ? readFileSync(path, 'utf8') : '';
  const replaced = replaceMarkedBlock(md, 'harmony', section);
  writeFileSync(path, replaced ?? md.replace(/\n*$/, '\n\n') + `<!-- harmony:start -->\n${section}\n<!-- harmony:end -->\n`);
}
