/**
 * `toolslim proxy --profile`: a tool the profile-tuned preset renamed is called by its new name and the
 * server gets the old one (with and without a hot set; a cold call's error names the new name); for
 * `openai-strict` the `null`s a client sends for properties close-objects made nullable are dropped before
 * the server sees the call, and only those. Through the built binary, with the SDK's own Client, against a
 * real stdio server (test/servers/names-server.mjs) that answers every call with what it received. The
 * expected names and arguments are written by hand; the profile checker judges the served list.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkToolsForProfile } from '../../src/index.js';
import { parseOverlay } from '../../src/session/overlay.js';
import { parseStatsLines } from '../../src/session/stats.js';
import { BIN, ROOT, requireBuild, run } from './helpers.js';
import { node, ProxyProcess, readWireLog, WIRE_SERVER } from './proxy-helpers.js';
import { tempDir } from '../helpers/temp.js';

const SERVER = join(ROOT, 'test', 'servers', 'names-server.mjs');
const LONG = 'TwilioMessagingV1--FetchLinkshorteningMessagingServiceDomainAssociation';
// By hand: 55 characters, `_`, FNV-1a 32 of the old name's UTF-8 bytes (6e025187).
const LONG_RENAMED = 'TwilioMessagingV1--FetchLinkshorteningMessagingServiceD_6e025187';

beforeAll(() => requireBuild());

let open: { client: Client; stderr: () => string }[] = [];
afterEach(async () => {
  for (const o of open) await o.client.close();
  open = [];
});

async function connect(args: readonly string[]) {
  const transport = new StdioClientTransport({ command: node, args: [BIN, 'proxy', ...args, '--', node, SERVER], stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = new Client({ name: 'names-test', version: '1.0.0' });
  await client.connect(transport);
  const o = { client, stderr: () => stderr };
  open.push(o);
  return o;
}

/** What the server received, from its answer. */
async function received(client: Client, name: string, args: Record<string, unknown>) {
  const r = (await client.callTool({ name, arguments: args })) as { content: { text: string }[]; isError?: boolean };
  return { isError: r.isError === true, text: r.content[0]!.text, got: r.isError ? undefined : (JSON.parse(r.content[0]!.text) as unknown) };
}

describe('proxy --profile: renamed tools', () => {
  it('gemini: serves names Gemini accepts and calls the server by its own', async () => {
    const { client } = await connect(['--profile', 'gemini']);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['_2fa_login', LONG_RENAMED, 'search']);
    expect(checkToolsForProfile(tools, 'gemini').filter((f) => f.severity === 'error')).toEqual([]);
    expect((await received(client, '_2fa_login', { user: 'ann' })).got).toEqual({ name: '2fa_login', arguments: { user: 'ann' } });
    expect((await received(client, LONG_RENAMED, { sid: 'S1' })).got).toEqual({ name: LONG, arguments: { sid: 'S1' } });
    expect((await received(client, 'search', { q: 'x' })).got).toEqual({ name: 'search', arguments: { q: 'x' } });
    // The server's own errors name the tool as the client knows it (only the whole name: `2fa_login_help` stays).
    const failed = await received(client, '_2fa_login', { user: 'ann', fail: 'result' });
    expect(failed).toMatchObject({ isError: true, text: 'tool _2fa_login refused (see 2fa_login_help)' });
    await expect(client.callTool({ name: '_2fa_login', arguments: { user: 'ann', fail: 'error' } })).rejects.toThrow('MCP error -32603: tool _2fa_login broke');
    // The old name is not served: the server answers it as it would any call (here it knows it).
    expect((await received(client, '2fa_login', { user: 'bob' })).got).toEqual({ name: '2fa_login', arguments: { user: 'bob' } });
  });

  it('kimi with --hot-set: cold calls of a renamed tool are checked under the new name, then reach the server under the old', async () => {
    const { client } = await connect(['--profile', 'kimi', '--hot-set', '0']);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['_2fa_login', LONG_RENAMED, 'search']);
    expect((await received(client, '_2fa_login', { user: 'ann', code: '123' })).got).toEqual({ name: '2fa_login', arguments: { user: 'ann', code: '123' } });
    const refused = await received(client, '_2fa_login', { user: 5 });
    expect(refused.isError).toBe(true);
    expect(refused.text.split('\n')[0]).toBe('toolslim did not call `_2fa_login`: invalid arguments.');
  });

  it('--keep-names keeps every name, and the proxy then refuses a list the client would reject', async () => {
    const message = await refusal(['--profile', 'gemini', '--keep-names']);
    expect(message).toContain('`gemini` would still reject 2 tools (2 findings)');
    expect(message).toContain('2fa_login /0/name  profile-tool-name');
    expect(message).toContain(`${LONG} /1/name  profile-tool-name`);
  });
});

describe('proxy --profile openai-strict: nulls for "absent"', () => {
  it('drops the nulls of properties the conversion made nullable, and only those', async () => {
    const { client } = await connect(['--profile', 'openai-strict']);
    const { tools } = await client.listTools();
    // OpenAI's names: a leading digit is fine, 71 characters are not.
    expect(tools.map((t) => t.name)).toEqual(['2fa_login', LONG_RENAMED, 'search']);
    expect(checkToolsForProfile(tools, 'openai-strict').filter((f) => f.severity === 'error')).toEqual([]);
    const search = tools.find((t) => t.name === 'search')!.inputSchema as { required: string[] };
    expect(search.required).toEqual(['q', 'filter', 'tags', 'note']);

    // `code` was optional: null means absent. `user` is sent as it is.
    expect((await received(client, '2fa_login', { user: 'ann', code: null })).got).toEqual({ name: '2fa_login', arguments: { user: 'ann' } });
    // Nested: `filter.limit` and `tags[].v` were optional; `filter` itself and `tags` too.
    expect((await received(client, 'search', { q: 'x', filter: { tag: 't', limit: null }, tags: [{ k: 'a', v: null }, { k: 'b', v: 'c' }], note: 'n' })).got).toEqual({
      name: 'search',
      arguments: { q: 'x', filter: { tag: 't' }, tags: [{ k: 'a' }, { k: 'b', v: 'c' }], note: 'n' },
    });
    expect((await received(client, 'search', { q: 'x', filter: null, tags: null, note: 'n' })).got).toEqual({ name: 'search', arguments: { q: 'x', note: 'n' } });
    // `note` already accepted null (type [string, null]): a null there is a value, and reaches the server.
    // `q` was required: null is not "absent" there either (the server judges it).
    expect((await received(client, 'search', { q: null, filter: null, tags: null, note: null })).got).toEqual({ name: 'search', arguments: { q: null, note: null } });
    // A renamed tool and a null together.
    expect((await received(client, LONG_RENAMED, { sid: 'S1' })).got).toEqual({ name: LONG, arguments: { sid: 'S1' } });
  });

  it('--no-lossy serves the list unconverted (and refuses it: strict mode would reject it)', async () => {
    const message = await refusal(['--profile', 'openai-strict', '--no-lossy']);
    expect(message).toContain('`openai-strict` would still reject 3 tools');
    expect(message).toContain(`${LONG} /1/name  profile-tool-name`);
    expect(message).toContain('profile-strict-required');
  });
});

describe('proxy --profile --stats', () => {
  it('a renamed tool’s stats line names the tool as served, with the server’s definition as the original', async () => {
    const dir = tempDir('toolslim-names-stats-');
    const stats = join(dir, 'calls.jsonl');
    const { client } = await connect(['--profile', 'gemini', '--stats', stats]);
    await client.listTools();
    await received(client, '_2fa_login', { user: 'ann' });
    await client.close();
    open = [];
    // The server's own definition of 2fa_login (test/servers/names-server.mjs), compact JSON.
    const original = { name: '2fa_login', description: 'Log in with a one-time code', inputSchema: { type: 'object', properties: { user: { type: 'string' }, code: { type: 'string' } }, required: ['user'] } };
    const [line] = parseStatsLines(readFileSync(stats, 'utf8'));
    expect(line).toMatchObject({ tool: '_2fa_login', originalBytes: Buffer.byteLength(JSON.stringify(original)), servedBytes: Buffer.byteLength(JSON.stringify({ ...original, name: '_2fa_login' })) });
  });
});

describe('proxy --overlay built with --profile', () => {
  it('serves the overlay’s renamed tools and its nulls are dropped: the map comes from its steps run again', async () => {
    const dir = tempDir('toolslim-names-overlay-');
    const file = join(dir, 'overlay.json');
    const built = await run(['optimize', '--overlay', file, '--profile', 'openai-strict', '--', node, SERVER]);
    expect(built.code, built.stderr).toBe(0);
    expect(built.stderr).toContain(`it serves 1 tool under another name (its "renamed": \`${LONG}\` → \`${LONG_RENAMED}\`); toolslim proxy --overlay calls the server by its own names`);
    const overlay = JSON.parse(readFileSync(file, 'utf8')) as { renamed: unknown; pin: { tools: { name: string }[] } };
    expect(overlay.renamed).toEqual([{ from: LONG, to: LONG_RENAMED }]);
    expect(overlay.pin.tools.map((t) => t.name)).toEqual(['2fa_login', LONG, 'search']);
    // A served name that neither the pin nor "renamed" accounts for is refused when the overlay is read.
    expect(() => parseOverlay({ ...overlay, renamed: [] }, 'o.json')).toThrow(`o.json: tool \`${LONG_RENAMED}\` is not in the pin: the overlay does not say which server tool it stands for at \`/tools/1\``);
    expect(() => parseOverlay({ ...overlay, renamed: [{ from: 'nope', to: LONG_RENAMED }] }, 'o.json')).toThrow('o.json: `nope` is not in the pin at `/renamed/0/from`');
    const { client } = await connect(['--overlay', file]);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['2fa_login', LONG_RENAMED, 'search']);
    expect((await received(client, LONG_RENAMED, { sid: 'S1' })).got).toEqual({ name: LONG, arguments: { sid: 'S1' } });
    expect((await received(client, '2fa_login', { user: 'ann', code: null })).got).toEqual({ name: '2fa_login', arguments: { user: 'ann' } });
  });
});

describe('proxy --profile: the bytes the server gets', () => {
  it('only the name and the dropped members change; every other byte of the request is as the client sent it', async () => {
    const dir = tempDir('toolslim-names-');
    const old = 'x'.repeat(70);
    const renamed = `${'x'.repeat(55)}_${fnv1a(old)}`;
    const toolsFile = join(dir, 'tools.json');
    writeFileSync(toolsFile, JSON.stringify([{ name: old, inputSchema: { type: 'object', properties: { n: { type: 'number' }, opt: { type: 'string' }, big: { type: 'integer' } }, required: ['n'] } }]));
    const log = join(dir, 'wire.log');
    const p = new ProxyProcess(['--profile', 'openai-strict', '--', node, WIRE_SERVER, '--tools', toolsFile, '--log', log]);
    await p.initialize();
    p.send('{"jsonrpc":"2.0","id":1,"method":"tools/list"}');
    expect((JSON.parse(await p.next()) as { result: { tools: { name: string }[] } }).result.tools[0]!.name).toBe(renamed);
    p.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"${renamed}","arguments":{"n":1.0,"opt":null,"big":12345678901234567890},"_meta":{"k":1e2}}}`);
    await p.next();
    expect(readWireLog(log).sent).toContain(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"${old}","arguments":{"n":1.0,"big":12345678901234567890},"_meta":{"k":1e2}}}`);
    p.end();
    expect(await p.closed).toBe(0);
  });
});

/** FNV-1a 32 of the UTF-8 bytes, 8 hex digits (an ASCII-only copy of the definition, for the expected name). */
function fnv1a(s: string): string {
  let h = 0x811c9dc5;
  for (const c of Buffer.from(s, 'utf8')) h = Math.imul(h ^ c, 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}

/** The error a client gets from a proxy that refuses its list at initialize. */
async function refusal(args: readonly string[]): Promise<string> {
  const transport = new StdioClientTransport({ command: node, args: [BIN, 'proxy', ...args, '--', node, SERVER], stderr: 'pipe' });
  const client = new Client({ name: 'names-test', version: '1.0.0' });
  const error = await client.connect(transport).then(
    () => undefined,
    (e: unknown) => e as Error,
  );
  await client.close();
  expect(error).toBeInstanceOf(Error);
  return error!.message;
}
