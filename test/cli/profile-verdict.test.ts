/**
 * `--profile` keeps its word: `optimize --profile P` and `proxy --profile P` fail (exit 1, the findings on
 * stderr) when the result still fails P, unless `--allow-rejected`; what they name is what
 * `check --profile P` reports on the same result. The tools are hand-written: `2fa_login` starts with a
 * digit, which Gemini's name rule (`^[A-Za-z_]…`) refuses; the tuned preset renames it (`_2fa_login`, and
 * says so), and with `--keep-names` nothing may fix it (calls name the tool); `get_pet` has a `$ref` that
 * adaptation inlines.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { requireBuild, ROOT, runMain } from './helpers.js';
import { node, ProxyProcess, WIRE_SERVER } from './proxy-helpers.js';
import { tempDir } from '../helpers/temp.js';

const dir = tempDir('toolslim-profile-verdict-');
const GET_PET = { name: 'get_pet', description: 'Get a pet', inputSchema: { type: 'object', properties: { id: { $ref: '#/$defs/Id' } }, $defs: { Id: { type: 'string' } } } };
const TWO_FA = { name: '2fa_login', description: 'Log in with a one-time code', inputSchema: { type: 'object', properties: { code: { type: 'string' } } } };
const rejected = join(dir, 'rejected.json');
writeFileSync(rejected, JSON.stringify([GET_PET, TWO_FA]));
const accepted = join(dir, 'accepted.json');
writeFileSync(accepted, JSON.stringify([GET_PET]));

/** The finding lines of the refusal on stderr: `<tool> <path>  <code>: <message>`. */
function stderrFindings(stderr: string): { tool: string; path: string; code: string }[] {
  return stderr
    .split('\n')
    .map((l) => /^ {2}(\S+) (\S+) {2}(profile-[a-z-]+): /.exec(l))
    .filter((m) => m !== null)
    .map((m) => ({ tool: m[1]!, path: m[2]!, code: m[3]! }));
}

describe('optimize --profile', () => {
  it('exits 1 with the findings and writes nothing when the client would still reject a tool', async () => {
    const out = join(dir, 'refused.json');
    const r = await runMain(['optimize', rejected, '--profile', 'gemini', '--keep-names', '-o', out]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('`gemini` would still reject 1 tool (1 finding):');
    expect(stderrFindings(r.stderr)).toEqual([{ tool: '2fa_login', path: '/1/name', code: 'profile-tool-name' }]);
    // The rule and a fix are in the message.
    expect(r.stderr).toMatch(/profile-tool-name: Found tool name `2fa_login`; `gemini` expects names matching .*; fix: rename the tool on the server/);
    expect(r.stderr).toContain('nothing written (--allow-rejected writes it anyway)');
    expect(existsSync(out)).toBe(false);
  });

  it('--allow-rejected writes it, says so, and names exactly what check --profile finds in the output', async () => {
    const out = join(dir, 'allowed.json');
    const r = await runMain(['optimize', rejected, '--profile', 'gemini', '--keep-names', '--allow-rejected', '-o', out]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('writing it anyway (--allow-rejected)');
    const written = JSON.parse(readFileSync(out, 'utf8'));
    expect(written[0].inputSchema).toEqual({ type: 'object', properties: { id: { type: 'string' } } });
    const check = await runMain(['check', out, '--profile', 'gemini', '--format', 'json']);
    expect(check.code).toBe(1);
    const errors = (JSON.parse(check.stdout).findings as { severity: string; code: string; tool: string; path: string }[]).filter((f) => f.severity === 'error' && f.code.startsWith('profile-'));
    expect(stderrFindings(r.stderr)).toEqual(errors.map((f) => ({ tool: f.tool, path: f.path, code: f.code })));
  });

  it('the fix of what it left never names the command that has just run; check on the input still names it (found as a user)', async () => {
    // An open map openai-strict cannot close, and for kimi a `#/$defs/…` reference read against an embedded `$id`.
    const map = join(dir, 'open-map.json');
    writeFileSync(map, JSON.stringify([{ name: 'tag', description: 'Tag a thing', inputSchema: { type: 'object', properties: { labels: { type: 'object', additionalProperties: { type: 'string' } } }, required: ['labels'], additionalProperties: false } }]));
    const strict = await runMain(['optimize', map, '--profile', 'openai-strict', '-o', join(dir, 'open-map.out.json')]);
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain('profile-strict-additional-properties: ');
    expect(strict.stderr).toContain('fix: an open map (an `additionalProperties` schema, `patternProperties`, a free-form object) cannot be closed: it must change on the server');
    expect(strict.stderr).not.toContain('`toolslim optimize --profile openai-strict`');
    expect((await runMain(['check', map, '--profile', 'openai-strict'])).stdout).toContain('fix: `toolslim optimize --profile openai-strict` closes every object (lossy)');
    const embedded = join(dir, 'embedded-id.json');
    writeFileSync(embedded, JSON.stringify([{ name: 'id_base', description: 'd', inputSchema: { type: 'object', properties: { a: { $id: 'http://x.test/a.json', type: 'object', properties: { v: { $ref: '#/$defs/V' } }, $defs: { V: { type: 'integer' } } } } } }]));
    const kimi = await runMain(['optimize', embedded, '--profile', 'kimi', '-o', join(dir, 'embedded-id.out.json')]);
    expect(kimi.code).toBe(1);
    expect(kimi.stderr).toContain(
      "profile-ref-not-defs-prefix: Found `$ref` `#/$defs/V`, which resolves against the embedded resource at `/properties/a` (its `$id`) to `/properties/a/$defs/V`, not to the root's `$defs`; `kimi` accepts only references that start with `#/$defs/` and name the root's `$defs`; fix: toolslim could not move the target into the top-level `$defs`",
    );
    expect(kimi.stderr).not.toContain('`toolslim optimize --profile kimi`');
  });

  it('exits 0 without a word about rejection when the client accepts the result', async () => {
    const out = join(dir, 'fine.json');
    const r = await runMain(['optimize', accepted, '--profile', 'gemini', '-o', out]);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain('would still reject');
    expect((await runMain(['check', out, '--profile', 'gemini'])).code).toBe(0);
  });

  it('renames a tool whose name the client refuses, and says the file then needs a caller that maps calls back', async () => {
    const out = join(dir, 'renamed.json');
    const r = await runMain(['optimize', rejected, '--profile', 'gemini', '-o', out]);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain('would still reject');
    expect(r.stderr).toContain('renamed 1 tool whose name the client refuses: `2fa_login` → `_2fa_login`. Calls will name the new names, which the server does not know: use this output only through toolslim proxy --profile (it maps calls back) or a caller that maps them back itself (toolRenamesOf(report)); --keep-names keeps every name');
    expect(JSON.parse(readFileSync(out, 'utf8')).map((t: { name: string }) => t.name)).toEqual(['get_pet', '_2fa_login']);
    expect((await runMain(['check', out, '--profile', 'gemini'])).code).toBe(0);
  });

  it('--no-lossy and --keep-names go with --profile; --no-lossy leaves every lossy step out', async () => {
    for (const flag of ['--no-lossy', '--keep-names']) {
      const r = await runMain(['optimize', accepted, flag]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`${flag} goes with --profile <client>`);
    }
    const tools = join(dir, 'uri.json');
    writeFileSync(tools, JSON.stringify([{ name: 'fetch', inputSchema: { type: 'object', properties: { url: { type: 'string', format: 'uri' } } } }]));
    const r = await runMain(['optimize', tools, '--profile', 'gemini', '--no-lossy', '--allow-rejected', '-o', join(dir, 'uri-out.json')]);
    expect(stderrFindings(r.stderr)).toEqual([{ tool: 'fetch', path: '/0/inputSchema/properties/url/format', code: 'profile-format-unsupported' }]);
    expect((await runMain(['optimize', tools, '--profile', 'gemini', '-o', join(dir, 'uri-out2.json')])).code).toBe(0);
  });

  it('--allow-rejected without --profile is a usage error', async () => {
    const r = await runMain(['optimize', accepted, '--allow-rejected']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--allow-rejected goes with --profile <client>');
  });
});

describe('proxy --profile', () => {
  beforeAll(() => requireBuild());
  const INIT = '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"wire","version":"0"}}}';

  it('refuses a list the client would still reject before the client gets initialize: exit 1, the findings on stderr and in the error', async () => {
    const p = new ProxyProcess(['--profile', 'gemini', '--keep-names', '--', node, WIRE_SERVER, '--tools', rejected]);
    p.send(INIT);
    const { message } = await p.until(0);
    expect((message.error as { message: string }).message).toContain('`gemini` would still reject 1 tool');
    expect(await p.closed).toBe(1);
    expect(stderrFindings(p.stderr)).toEqual([{ tool: '2fa_login', path: '/1/name', code: 'profile-tool-name' }]);
    expect(p.stderr).toContain('not serving it (--allow-rejected serves it anyway)');
  });

  it('a tools/list sent right behind initialize: each gets its own answer, initialize first', async () => {
    // Found as a user: the pipelined tools/list met the refused list first and ended the run, and initialize got
    // no answer at all.
    const p = new ProxyProcess(['--profile', 'gemini', '--keep-names', '--', node, WIRE_SERVER, '--tools', rejected]);
    p.send(INIT, '{"jsonrpc":"2.0","method":"notifications/initialized"}', '{"jsonrpc":"2.0","id":2,"method":"tools/list"}');
    const first = await p.until(0);
    expect((first.message.error as { message: string }).message).toContain('`gemini` would still reject 1 tool');
    const second = await p.until(2);
    expect(second.before).toEqual([]);
    expect(second.message.error).toBeDefined();
    expect(await p.closed).toBe(1);
  });

  it('--allow-rejected serves it and says so on stderr', async () => {
    const p = new ProxyProcess(['--profile', 'gemini', '--keep-names', '--allow-rejected', '--', node, WIRE_SERVER, '--tools', rejected]);
    await p.initialize();
    p.send('{"jsonrpc":"2.0","id":1,"method":"tools/list"}');
    const { message } = await p.until(1);
    const tools = (message.result as { tools: { name: string; inputSchema: unknown }[] }).tools;
    expect(tools.map((t) => t.name)).toEqual(['get_pet', '2fa_login']);
    expect(tools[0]!.inputSchema).toEqual({ type: 'object', properties: { id: { type: 'string' } } });
    p.end();
    expect(await p.closed).toBe(0);
    expect(p.stderr).toContain('serving it anyway (--allow-rejected)');
    expect(stderrFindings(p.stderr)).toEqual([{ tool: '2fa_login', path: '/1/name', code: 'profile-tool-name' }]);
  });

  it('openai-strict: a list past the search threshold is served in full and accepted; --hot-set and --search are refused up front', async () => {
    // Found as a user (@makeplane/plane-mcp-server, 47 tools): the proxy chose search, and its own check then
    // refused the served list (the call tool's open `arguments`, the search tool's optional `limit`): the
    // client's initialize got an error in every mode but --full.
    const many = join(dir, 'many.json');
    const tools = Array.from({ length: 60 }, (_, i) => ({ name: `tool_${i}`, description: `Tool number ${i}: it does one thing with words`, inputSchema: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'integer' } }, required: ['a'] } }));
    writeFileSync(many, JSON.stringify(tools));
    const p = new ProxyProcess(['--profile', 'openai-strict', '--', node, WIRE_SERVER, '--tools', many]);
    await p.initialize();
    p.send('{"jsonrpc":"2.0","id":1,"method":"tools/list"}');
    const { message } = await p.until(1);
    const served = (message.result as { tools: { name: string; inputSchema: unknown }[] }).tools;
    expect(served.map((t) => t.name)).toEqual(tools.map((t) => t.name));
    // Closed and every property required, `b` made nullable (hand-written: what strict mode asks for).
    expect(served[0]!.inputSchema).toEqual({ type: 'object', properties: { a: { type: 'string' }, b: { type: ['integer', 'null'] } }, required: ['a', 'b'], additionalProperties: false });
    p.end();
    expect(await p.closed).toBe(0);
    expect(p.stderr).toContain('--profile openai-strict: that client accepts only closed objects');
    expect(p.stderr).not.toContain('would still reject');
    for (const flag of ['--hot-set', '--search']) {
      const r = await runMain(['proxy', '--profile', 'openai-strict', flag, '3', '--', node, WIRE_SERVER]);
      expect(r.code, flag).toBe(2);
      expect(r.stderr).toContain(`--profile openai-strict accepts only closed objects`);
      expect(r.stderr).toContain(`drop ${flag}`);
    }
  });

  it('serves a list the client accepts as usual', async () => {
    const p = new ProxyProcess(['--profile', 'gemini', '--', node, WIRE_SERVER, '--tools', accepted]);
    await p.initialize();
    p.send('{"jsonrpc":"2.0","id":1,"method":"tools/list"}');
    const { message } = await p.until(1);
    expect((message.result as { tools: unknown[] }).tools).toEqual([{ ...GET_PET, inputSchema: { type: 'object', properties: { id: { type: 'string' } } } }]);
    p.end();
    expect(await p.closed).toBe(0);
    expect(p.stderr).not.toContain('would still reject');
  });
});

describe('report --profile lists exactly what check --profile does', () => {
  // Corpus captures with findings for several profiles (names, keywords, formats, references, strict mode).
  const files = ['21st-dev__magic@0.1.0.json', 'a-bonus__google-docs-mcp.json', 'brave__brave-search-mcp-server.json'].map((f) => join(ROOT, 'bench', 'corpus', f));
  it.each(['gemini', 'openai-strict', 'kimi', 'claude'])('%s', async (profile) => {
    let profileFindings = 0;
    for (const file of files) {
      const check = await runMain(['check', file, '--profile', profile, '--format', 'json']);
      const report = await runMain(['report', file, '--profile', profile, '--format', 'json', '--no-tokens']);
      expect(report.code, report.stderr).toBe(0);
      const fromCheck = (JSON.parse(check.stdout).findings as Record<string, unknown>[]).map(({ source: _source, ...f }) => f);
      const fromReport = JSON.parse(report.stdout).findings as Record<string, unknown>[];
      expect(fromReport, file).toEqual(fromCheck);
      profileFindings += fromCheck.filter((f) => String(f.code).startsWith('profile-')).length;
    }
    // Not a comparison of two empty lists.
    if (profile !== 'claude') expect(profileFindings).toBeGreaterThan(0);
  });
});
