/**
 * report --render / --profile and check --profile budgets count what each reader sees (issue 27). The
 * expected numbers are computed here, independently of src/render: the typescript text is written by hand
 * from the harmony rules (openai/harmony, `json_schema_to_typescript`), the indented JSON is
 * `JSON.stringify(…, null, 4)` of the OpenAI-style function object (what Python's `json.dumps(indent=4)`
 * writes for ASCII text), and both are counted with o200k_base.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { o200k } from '../../src/tokens.js';
import { runMain } from './helpers.js';
import { tempDir } from '../helpers/temp.js';

const STATUS = { type: 'string', enum: ['open', 'closed'] };
const TOOLS = [
  {
    name: 'get_order',
    description: 'Get an order.',
    inputSchema: { type: 'object', properties: { id: { type: 'string', description: 'Order id' }, status: { $ref: '#/$defs/Status' } }, required: ['id'], $defs: { Status: STATUS, Unused: { type: 'number' } } },
    annotations: { readOnlyHint: true },
  },
  { name: 'list_orders', description: 'List orders.', inputSchema: { type: 'object', properties: { limit: { type: 'integer' } } } },
];
// After `--preset lossless`: only the unreachable `Unused` goes.
const AFTER = [{ ...TOOLS[0]!, inputSchema: { ...TOOLS[0]!.inputSchema, $defs: { Status: STATUS } } }, TOOLS[1]!];

// The harmony rendering of each tool, by hand: the description as a comment, then the type; a required
// property without `?`, an optional one with it; a `$ref` is `any` (harmony drops `$defs`).
const TS = [
  '// Get an order.\ntype get_order = (_: {\n// Order id\nid: string,\nstatus?: any,\n}) => any;\n',
  '// List orders.\ntype list_orders = (_: {\nlimit?: number,\n}) => any;\n',
];
const TS_SECTION = `## functions\n\nnamespace functions {\n\n${TS.join('\n')}\n} // namespace functions`;

interface Tool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: unknown;
}
const forwarded = (t: Tool) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.inputSchema } });
const indent4 = (t: Tool) => JSON.stringify(forwarded(t), null, 4);

const dir = tempDir('toolslim-rendered-');
const file = join(dir, 'tools.json');
writeFileSync(file, JSON.stringify({ tools: TOOLS }));

describe('report --render', () => {
  it('json: rendered tokens before and after, and `any` types, in total and per tool, for each renderer', async () => {
    const r = await runMain(['report', file, '--render', 'typescript,json-indent4', '--preset', 'lossless', '--format', 'json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const data = JSON.parse(r.stdout);
    const section = o200k.count(TS_SECTION);
    expect(data.total.rendered.typescript).toEqual({ tokens: section, tokensAfter: section, any: 1, anyAfter: 1 });
    const jsonBefore = o200k.count(TOOLS.map((t) => indent4(t) + '\n\n').join(''));
    const jsonAfter = o200k.count(AFTER.map((t) => indent4(t) + '\n\n').join(''));
    expect(jsonAfter).toBeLessThan(jsonBefore);
    expect(data.total.rendered['json-indent4']).toEqual({ tokens: jsonBefore, tokensAfter: jsonAfter, any: 0, anyAfter: 0 });
    const byName = Object.fromEntries(data.tools.map((t: { name: string; rendered: unknown }) => [t.name, t.rendered]));
    expect(byName.get_order).toEqual({
      typescript: { tokens: o200k.count(TS[0]!), tokensAfter: o200k.count(TS[0]!), any: 1, anyAfter: 1 },
      'json-indent4': { tokens: o200k.count(indent4(TOOLS[0]!)), tokensAfter: o200k.count(indent4(AFTER[0]!)), any: 0, anyAfter: 0 },
    });
    expect(byName.list_orders.typescript).toEqual({ tokens: o200k.count(TS[1]!), tokensAfter: o200k.count(TS[1]!), any: 0, anyAfter: 0 });
    expect(data.readers.map((x: { renderer: string; tokenizer: string }) => `${x.renderer} ${x.tokenizer}`)).toEqual(['typescript o200k_base', 'json-indent4 o200k_base']);
  });

  it('--profile implies its renderer and tokenizer, and labels a stand-in', async () => {
    const r = await runMain(['report', file, '--profile', 'llama', '--preset', 'lossless', '--format', 'json']);
    expect(r.code).toBe(0);
    const data = JSON.parse(r.stdout);
    expect(Object.keys(data.total.rendered)).toEqual(['json-indent4']);
    expect(data.total.rendered['json-indent4'].tokens).toBe(o200k.count(TOOLS.map((t) => indent4(t) + '\n\n').join('')));
    expect(data.readers[0]).toMatchObject({ renderer: 'json-indent4', tokenizer: 'o200k_base', profile: 'llama', standIn: expect.stringMatching(/Llama 3 tokenizer/) });
  });

  it('text: a section per reader, with the stand-in said and a deferring client\'s always-paid part', async () => {
    const r = await runMain(['report', file, '--profile', 'claude-code', '--render', 'typescript', '--preset', 'lossless']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('What each reader sees');
    expect(r.stdout).toMatch(/json \(claude-code\) +o200k_base/);
    expect(r.stdout).toMatch(/json \(claude-code\) is a stand-in: compact JSON and o200k_base stand in/);
    const names = o200k.count('get_order\nlist_orders');
    expect(r.stdout).toContain(`claude-code defers schemas: every request pays the tool names (${names} → ${names} tokens) plus the server's instructions`);
    expect(r.stdout).toMatch(/Tools as typescript renders them, largest first/);
  });

  it('an unknown renderer is a usage error listing the valid ones; --no-tokens refuses --render', async () => {
    const r = await runMain(['report', file, '--render', 'typescript,yaml']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--render yaml: Unknown renderer `yaml`: expected one of `json`, `json-spaced`, `json-indent4`, `typescript`');
    const n = await runMain(['report', file, '--render', 'json', '--no-tokens']);
    expect(n.code).toBe(2);
    expect(n.stderr).toContain('drop --no-tokens');
    // --profile alone with --no-tokens still lists the profile's findings (as check --profile does), uncounted.
    const p = await runMain(['report', file, '--profile', 'openai', '--no-tokens', '--format', 'json']);
    expect(p.code).toBe(0);
    const data = JSON.parse(p.stdout);
    expect(data.total.rendered).toBeUndefined();
    expect(data.findings.filter((f: { code: string }) => f.code === 'renders-as-any').map((f: { path: string }) => f.path)).toEqual(['/0/inputSchema/properties/status']);
  });
});

describe('check --profile budgets in the client\'s unit', () => {
  it('openai: the typescript rendering in o200k_base, said in the finding and the output', async () => {
    const section = o200k.count(TS_SECTION);
    const under = await runMain(['check', file, '--profile', 'openai', '--max-tokens', String(section), '--rule', 'renders-as-any=off']);
    expect(under.code).toBe(0);
    expect(under.stdout).toContain('token budgets counted in tokens as `openai` reads it (typescript rendering, o200k_base)');
    const over = await runMain(['check', file, '--profile', 'openai', '--max-tokens', String(section - 1), '--format', 'json']);
    expect(over.code).toBe(1);
    const data = JSON.parse(over.stdout);
    expect(data.tokenUnit).toBe('tokens as `openai` reads it (typescript rendering, o200k_base)');
    const budget = data.findings.filter((f: { code: string }) => f.code === 'over-budget');
    expect(budget.map((f: { message: string }) => f.message)).toEqual([expect.stringContaining(`the tools list is ${section.toLocaleString('en-US')} tokens as \`openai\` reads it (typescript rendering, o200k_base); the budget is ${(section - 1).toLocaleString('en-US')}`)]);
    // The compact JSON of the list is far larger than its TypeScript form: the old unit would have failed.
    expect(o200k.count(JSON.stringify(TOOLS))).toBeGreaterThan(section);
  });

  it('per tool, in the same unit; a deferring client budgets the names every request pays', async () => {
    const one = o200k.count(TS[0]!);
    const r = await runMain(['check', file, '--profile', 'openai', '--max-tool-tokens', String(one - 1), '--format', 'json']);
    const budget = JSON.parse(r.stdout).findings.filter((f: { code: string }) => f.code === 'over-budget');
    expect(budget.map((f: { path: string }) => f.path)).toEqual(['/0']);
    expect(budget[0].message).toContain(`\`get_order\` is ${one} tokens as \`openai\` reads it`);
    const names = o200k.count('get_order\nlist_orders');
    const cc = await runMain(['check', file, '--profile', 'claude-code', '--max-tokens', String(names - 1), '--format', 'json']);
    const f = JSON.parse(cc.stdout).findings.filter((x: { code: string }) => x.code === 'over-budget');
    expect(f.map((x: { message: string }) => x.message)).toEqual([expect.stringContaining(`what every request pays (the tool names, plus the server's instructions) is ${names} tokens as \`claude-code\` reads it (json rendering, o200k_base, a stand-in)`)]);
  });

  it('renders-as-any for a typescript reader (and --render typescript), not for a JSON one', async () => {
    const paths = async (args: string[]) => JSON.parse((await runMain(['check', file, ...args, '--format', 'json'])).stdout).findings.filter((f: { code: string }) => f.code === 'renders-as-any').map((f: { path: string }) => f.path);
    expect(await paths(['--profile', 'openai'])).toEqual(['/0/inputSchema/properties/status']);
    expect(await paths(['--render', 'typescript'])).toEqual(['/0/inputSchema/properties/status']);
    expect(await paths(['--profile', 'qwen'])).toEqual([]);
  });
});
