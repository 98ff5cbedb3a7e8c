/** `main()` in-process with fake streams: argument parsing, help, input errors, formats, --url. */
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { o200k, cl100k } from '../../src/tokens.js';
import { presetSafe } from '../../src/index.js';
import { DEMO_TOOLS, DEMO_TOOLS_OPTIMIZED, runMain } from './helpers.js';
import { tempDir } from '../helpers/temp.js';

const dir = tempDir('toolslim-main-');
const file = (name: string, content: unknown) => {
  const p = join(dir, name);
  writeFileSync(p, typeof content === 'string' ? content : JSON.stringify(content));
  return p;
};
const demo = file('demo.json', { tools: DEMO_TOOLS });
const healthy = file('healthy.json', [{ name: 'ok', description: 'Fine', inputSchema: { type: 'object', properties: { q: { type: 'string', description: 'query' } } } }]);
const broken = file('broken.json', [
  { name: 'dangling', description: 'd', inputSchema: { type: 'object', properties: { a: { $ref: '#/$defs/Nope', description: 'a' } } } },
  { name: 'stamped', description: 'd', inputSchema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { a: { $ref: '#/$defs/A', description: 'a' } }, $defs: { A: { type: 'string' } } } },
]);

describe('usage', () => {
  it('prints the command list with no arguments (exit 2) and with --help (exit 0)', async () => {
    const none = await runMain([]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('Commands:');
    const help = await runMain(['--help']);
    expect(help.code).toBe(0);
    for (const c of ['capture', 'report', 'optimize', 'check', 'proxy']) expect(help.stdout).toContain(`  ${c} `);
  });

  it.each(['capture', 'report', 'optimize', 'check', 'proxy'])('has --help with examples for %s', async (command) => {
    const r = await runMain([command, '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Usage: toolslim ${command}`);
    expect(r.stdout).toMatch(/Examples?( \(an MCP client configuration\))?:\n {2}/);
    expect(r.stdout).toContain(`toolslim ${command}`);
    expect((await runMain(['help', command])).stdout).toBe(r.stdout);
  });

  it('rejects unknown commands and options, missing values and bad choices with exit 2', async () => {
    const cases: [string[], RegExp][] = [
      [['frobnicate'], /unknown command `frobnicate`/],
      [['check', demo, '--nope'], /unknown option --nope$/m],
      [['check', demo, '--formt', 'json'], /unknown option --formt \(did you mean --format\?\)/],
      [['optimize', demo, '--presets', 'safe'], /unknown option --presets \(did you mean --preset\?\)/],
      [['check', demo, '-z'], /unknown option -z/],
      [['check', demo, '--max-bytes'], /--max-bytes needs a value/],
      [['check', demo, '--max-bytes', 'lots'], /--max-bytes must be a non-negative number/],
      [['check', demo, '--fail-on', 'fatal'], /--fail-on must be one of error, warning, info/],
      [['report', demo, '--format', 'xml'], /--format must be one of text, markdown, json, html/],
      [['check', demo, '--fail-on', 'error', '--fail-on', 'warning'], /given twice/],
      [['check'], /missing input/],
      [['optimize', demo, demo], /one input at a time/],
      [['check', demo, '--timeout', '3'], /--timeout goes with a live server/],
      [['check', demo, '--', 'node', 'x.js'], /either an input file or a live server/],
      [['check', '--url', 'http://x/mcp', '--', 'node'], /either --url or -- <command>/],
      [['check', demo, '-H', 'A: b'], /--header goes with --url/],
      [['capture', '-o', 'x.json'], /capture needs a live server/],
      [['proxy'], /proxy needs the server command after --/],
      [['optimize', demo, '--transform', 'prune-unreachable-defs={bad'], /options after = are not JSON/],
      [['optimize', demo, '--transform', 'prune-unreachable-defs=[1]'], /must be a JSON object/],
    ];
    for (const [argv, message] of cases) {
      const r = await runMain(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr, argv.join(' ')).toMatch(message);
      expect(r.stdout, argv.join(' ')).toBe('');
    }
  });

  it('proxy exits 2 when the server command cannot be started', async () => {
    const r = await runMain(['proxy', '--', 'toolslim-no-such-command-xyz']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('toolslim proxy: cannot start `toolslim-no-such-command-xyz`');
  });

  it('exits 2 naming the transform or preset it does not know', async () => {
    const r = await runMain(['optimize', demo, '--preset', 'max-ultra']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown transform or preset `max-ultra` \(known: .*safe/);
    const p = await runMain(['proxy', '--transform', 'nope', '--', 'node', '-e', '']);
    expect(p.code).toBe(2);
    expect(p.stderr).toMatch(/unknown transform or preset `nope`/);
  });
});

describe('input', () => {
  it('names the file, line and column of bad JSON and exits 2', async () => {
    const bad = file('bad.json', '{\n  "tools": [\n    {"name": "a",}\n  ]\n}\n');
    const r = await runMain(['check', bad]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${bad}: not valid JSON at line 3, column 18`);
    const stdin = await runMain(['report', '-'], { stdin: '[1, 2' });
    expect(stdin.code).toBe(2);
    expect(stdin.stderr).toContain('<stdin>: not valid JSON at line 1, column 6: unexpected end of input');
  });

  it('accepts a BOM, stdin, and every envelope', async () => {
    const list = { tools: DEMO_TOOLS };
    const withBom = file('bom.json', '\ufeff' + JSON.stringify(list));
    const a = await runMain(['optimize', withBom]);
    expect(a.code).toBe(0);
    expect(JSON.parse(a.stdout)).toEqual({ tools: DEMO_TOOLS_OPTIMIZED });
    const b = await runMain(['optimize', '-'], { stdin: JSON.stringify(DEMO_TOOLS) });
    expect(JSON.parse(b.stdout)).toEqual(DEMO_TOOLS_OPTIMIZED);
    const rpc = { jsonrpc: '2.0', id: 7, result: { tools: DEMO_TOOLS, _meta: { x: 1 } } };
    const c = await runMain(['optimize', '-'], { stdin: JSON.stringify(rpc) });
    expect(JSON.parse(c.stdout)).toEqual({ jsonrpc: '2.0', id: 7, result: { tools: DEMO_TOOLS_OPTIMIZED, _meta: { x: 1 } } });
  });

  it('exits 2 for a missing file, a directory, and JSON that holds no tools', async () => {
    expect((await runMain(['check', join(dir, 'nope.json')])).stderr).toContain('nope.json: no such file');
    expect((await runMain(['check', tempDir('toolslim-empty-')])).stderr).toContain('a directory with no .json files');
    expect((await runMain(['optimize', dir])).stderr).toContain('is a directory');
    const r = await runMain(['check', file('obj.json', { hello: 1 })]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/obj\.json: expected a tools array/);
  });
});

describe('check', () => {
  it('exits 0 without findings at or above --fail-on, 1 with', async () => {
    const ok = await runMain(['check', healthy]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toBe('0 errors, 0 warnings, 0 info: passed (failing on error)\n');
    const demoErr = await runMain(['check', demo]);
    expect(demoErr.code).toBe(0);
    const demoWarn = await runMain(['check', demo, '--fail-on', 'warning']);
    expect(demoWarn.code).toBe(1);
    expect(demoWarn.stdout).toContain('warning unreachable-def get_pet /0/inputSchema/$defs/Order');
    const bad = await runMain(['check', broken]);
    expect(bad.code).toBe(1);
    expect(bad.stdout.split('\n').filter((l) => l.startsWith('error'))).toEqual([
      expect.stringMatching(/^error {3}unresolved-ref dangling \/0\/inputSchema\/properties\/a\/\$ref /),
      expect.stringMatching(/^error {3}contradicted-dialect stamped \/1\/inputSchema\/\$defs /),
    ]);
  });

  it('--profile adds what that client would reject; optimize --profile makes the tools acceptable', async () => {
    // A `$ref` is something a ref-free client cannot resolve (hand-built: one ref, one definition).
    const dir = tempDir('toolslim-profile-');
    const file = join(dir, 'ref.json');
    writeFileSync(file, JSON.stringify([{ name: 'get_pet', description: 'Get a pet by its id', inputSchema: { type: 'object', properties: { id: { $ref: '#/$defs/Id' } }, $defs: { Id: { type: 'string', description: 'Pet id' } } } }]));
    expect((await runMain(['check', file])).code).toBe(0);
    const refFree = await runMain(['check', file, '--profile', 'ref-free']);
    expect(refFree.code).toBe(1);
    expect(refFree.stdout).toMatch(/^error +profile-ref-unsupported get_pet \/0\/inputSchema\/properties\/id\/\$ref /m);
    const out = join(dir, 'slim.json');
    expect((await runMain(['optimize', file, '--profile', 'ref-free', '-o', out])).code).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8'))[0].inputSchema).toEqual({ type: 'object', properties: { id: { type: 'string', description: 'Pet id' } } });
    expect((await runMain(['check', out, '--profile', 'ref-free'])).code).toBe(0);
    const unknown = await runMain(['check', file, '--profile', 'nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown profile `nope` \(known: .*gemini/);
  });

  it('checks budgets, token budgets in o200k_base', async () => {
    const total = Buffer.byteLength(JSON.stringify(DEMO_TOOLS));
    expect((await runMain(['check', demo, '--max-bytes', String(total)])).code).toBe(0);
    const over = await runMain(['check', demo, '--max-bytes', String(total - 1)]);
    expect(over.code).toBe(1);
    expect(over.stdout).toContain(`the tools list is ${total.toLocaleString('en-US')} bytes of JSON; the budget is ${(total - 1).toLocaleString('en-US')}`);
    const tokens = o200k.count(JSON.stringify(DEMO_TOOLS));
    expect((await runMain(['check', demo, '--max-tokens', String(tokens)])).code).toBe(0);
    expect((await runMain(['check', demo, '--max-tokens', String(tokens - 1)])).code).toBe(1);
  });

  it('writes JSON with --format json', async () => {
    const r = await runMain(['check', broken, '--format', 'json']);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out.failOn).toBe('error');
    expect(out.failed).toBe(true);
    expect(out.counts).toEqual({ error: 2, warning: 0, info: 0 });
    expect(out.findings.map((f: { code: string; tool: string; path: string }) => [f.code, f.tool, f.path])).toEqual([
      ['unresolved-ref', 'dangling', '/0/inputSchema/properties/a/$ref'],
      ['contradicted-dialect', 'stamped', '/1/inputSchema/$defs'],
    ]);
  });

  it('colours only on a TTY, and never with NO_COLOR', async () => {
    expect((await runMain(['check', broken])).stdout).not.toContain('\u001b[');
    expect((await runMain(['check', broken], { tty: true })).stdout).toContain('\u001b[31m');
    expect((await runMain(['check', broken], { tty: true, env: { NO_COLOR: '1' } })).stdout).not.toContain('\u001b[');
  });
});

describe('report', () => {
  it('json: bytes and both token counts per tool, largest first, savings and findings', async () => {
    const r = await runMain(['report', demo, '--format', 'json']);
    expect(r.code).toBe(0);
    const data = JSON.parse(r.stdout);
    const expected = DEMO_TOOLS.map((t, index) => ({ index, name: t.name, bytes: Buffer.byteLength(JSON.stringify(t)), o200k: o200k.count(JSON.stringify(t)), cl100k: cl100k.count(JSON.stringify(t)) }));
    expected.sort((a, b) => b.bytes - a.bytes);
    expect(data.tools.map((t: Record<string, unknown>) => ({ index: t.index, name: t.name, bytes: t.bytes, o200k: t.o200k, cl100k: t.cl100k }))).toEqual(expected);
    const getPet = data.tools.find((t: { name: string }) => t.name === 'get_pet');
    expect(getPet.bytesAfter).toBe(Buffer.byteLength(JSON.stringify(DEMO_TOOLS_OPTIMIZED[0])));
    expect(data.total.bytes).toBe(Buffer.byteLength(JSON.stringify(DEMO_TOOLS)));
    expect(data.total.cl100k).toBe(cl100k.count(JSON.stringify(DEMO_TOOLS)));
    expect(data.total.cl100kAfter).toBe(cl100k.count(JSON.stringify(DEMO_TOOLS_OPTIMIZED)));
    // Every step of the default preset is listed; on these tools only pruning (get_pet) and echo's
    // extension keyword save anything.
    expect(data.transforms.map((t: { name: string }) => t.name)).toEqual(presetSafe.steps.map((t) => t.name));
    expect(data.transforms.filter((t: { bytesSaved: number }) => t.bytesSaved !== 0).map((t: { name: string; bytesSaved: number }) => [t.name, t.bytesSaved])).toEqual([
      ['prune-unreachable-defs', Buffer.byteLength(JSON.stringify(DEMO_TOOLS[0])) - Buffer.byteLength(JSON.stringify(DEMO_TOOLS_OPTIMIZED[0]))],
      ['strip-vendor-extensions', Buffer.byteLength(',"x-vendor":{"kept":true}')],
    ]);
    expect(data.findings.filter((f: { code: string }) => f.code === 'unreachable-def').map((f: { path: string }) => f.path)).toEqual(['/0/inputSchema/$defs/Order', '/0/inputSchema/$defs/User']);
  });

  it('text and markdown: a table, largest tool first', async () => {
    const text = await runMain(['report', demo]);
    expect(text.code).toBe(0);
    const rows = text.stdout.split('\n').filter((l) => /^ {2}(get_pet|echo|add_tool|exit_server) /.test(l));
    expect(rows[0]).toMatch(/^ {2}get_pet /);
    expect(text.stdout).toContain('o200k');
    expect(text.stdout).toContain('cl100k');
    expect(text.stdout).toContain('prune-unreachable-defs');
    expect(text.stdout).toContain('warning unreachable-def × 2');
    const md = await runMain(['report', demo, '--format', 'markdown']);
    expect(md.stdout).toContain('| tool | bytes | o200k | cl100k | bytes after | saved |');
    expect(md.stdout).toContain('- **warning** `unreachable-def` × 2');
    const top = await runMain(['report', demo, '--top', '1']);
    expect(top.stdout).toContain('… and 3 more (--top 0 lists all)');
  });
});

describe('optimize', () => {
  it('writes -o, the report, and an instructions file', async () => {
    const out = join(dir, 'slim.json');
    const report = join(dir, 'report.json');
    const instructions = join(dir, 'instructions.txt');
    const r = await runMain(['optimize', demo, '-o', out, '--report', report, '--instructions', instructions, '--verify', 'verdicts']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual({ tools: DEMO_TOOLS_OPTIMIZED });
    const rep = JSON.parse(readFileSync(report, 'utf8'));
    expect(rep.changes.map((c: { op: string; path: string }) => `${c.op} ${c.path}`)).toEqual(['remove /0/inputSchema/$defs/Order', 'remove /0/inputSchema/$defs/User', 'remove /1/inputSchema/x-vendor']);
    expect(rep.stats.tokenizer).toBe('o200k_base');
    expect(readFileSync(instructions, 'utf8')).toBe('');
    expect(r.stderr).toMatch(/^toolslim: [\d,]+ → [\d,]+ bytes of compact JSON \(−[\d.]+%\); wrote [\d,]+ bytes \(input [\d,]+\); 3 changes; 0 skipped; left for check: 0 errors, 0 warnings; no instructions proposed\n$/);
    const md = join(dir, 'report.md');
    await runMain(['optimize', demo, '-o', out, '--report', md]);
    expect(readFileSync(md, 'utf8')).toContain('**toolslim**');
  });

  it('--verify: verdicts records the gate in the report, off skips it', async () => {
    const report = join(dir, 'verify.json');
    expect((await runMain(['optimize', demo, '--verify', 'verdicts', '--report', report])).code).toBe(0);
    const checked = JSON.parse(readFileSync(report, 'utf8')).stats.verify;
    expect(checked.level).toBe('verdicts');
    expect(checked.failed).toBe(0);
    expect(checked.instances).toBeGreaterThan(50);
    expect((await runMain(['optimize', demo, '--verify', 'off', '--report', report])).code).toBe(0);
    expect(JSON.parse(readFileSync(report, 'utf8')).stats.verify?.level ?? false).toBe(false);
    expect((await runMain(['optimize', demo, '--verify', 'sometimes'])).code).toBe(2);
  });

  it('runs --transform steps with JSON options', async () => {
    const r = await runMain(['optimize', demo, '--transform', 'prune-unreachable-defs={"keep":["User"]}']);
    expect(Object.keys(JSON.parse(r.stdout).tools[0].inputSchema.$defs)).toEqual(['Id', 'User']);
    const bad = await runMain(['optimize', demo, '--transform', 'prune-unreachable-defs={"kept":[]}']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('unknown option `kept`');
  });
});

describe('--url (streamable HTTP, read with the SDK client)', () => {
  let http: HttpServer;
  let url: string;
  const seen: IncomingHttpHeaders[] = [];
  beforeAll(async () => {
    http = createServer(async (req, res) => {
      seen.push(req.headers);
      // Stateless: a fresh server and transport per request.
      const server = new Server({ name: 'http-demo', version: '2.0.0' }, { capabilities: { tools: {} } });
      server.setRequestHandler(ListToolsRequestSchema, async (r) => (r.params?.cursor === 'b' ? { tools: DEMO_TOOLS.slice(2) } : { tools: DEMO_TOOLS.slice(0, 2), nextCursor: 'b' }));
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res);
    });
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', () => r()));
    url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  });
  afterAll(() => new Promise<void>((r) => http.close(() => r())));

  it('captures initialize and every page of tools/list, sending the headers given', async () => {
    const out = join(dir, 'http-capture.json');
    const r = await runMain(['capture', '--url', url, '-H', 'Authorization: Bearer s3cret', '-o', out]);
    expect(r.stderr).toBe(`toolslim: captured 4 tools to ${out}\n`);
    expect(r.code).toBe(0);
    const capture = JSON.parse(readFileSync(out, 'utf8'));
    expect(capture.server).toMatchObject({ url, pages: 2 });
    expect(capture.initialize.serverInfo).toEqual({ name: 'http-demo', version: '2.0.0' });
    expect(capture.toolsList).toEqual({ tools: DEMO_TOOLS });
    expect(seen.length).toBeGreaterThanOrEqual(3);
    expect(seen.every((h) => h.authorization === 'Bearer s3cret')).toBe(true);
  });

  it('shows progress on stderr only when it is a terminal', async () => {
    const tty = await runMain(['check', '--url', url], { tty: true });
    expect(tty.code).toBe(0);
    expect(tty.stderr).toBe(`toolslim: connecting to ${url}…\ntoolslim: initialized http-demo 2.0.0\ntoolslim: tools/list page 1: 2 tools\ntoolslim: tools/list page 2: 2 tools\n`);
    const pipe = await runMain(['check', '--url', url]);
    expect(pipe.code).toBe(0);
    expect(pipe.stderr).toBe('');
  });

  it('checks a live server, and says so when it cannot be reached', async () => {
    const r = await runMain(['check', '--url', url, '--fail-on', 'warning', '--format', 'json']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).counts.warning).toBe(2);
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const down = await runMain(['check', '--url', `http://127.0.0.1:${port}/mcp`, '--timeout', '5']);
    expect(down.code).toBe(2);
    expect(down.stderr).toContain(`toolslim check: http://127.0.0.1:${port}/mcp failed during initialize: fetch failed (ECONNREFUSED)`);
    const notUrl = await runMain(['check', '--url', 'ftp://x/mcp']);
    expect(notUrl.code).toBe(2);
    expect(notUrl.stderr).toContain('--url must be http(s)');
  });
});
