/**
 * toolslim/mcp with the official SDK on both sides (Client + InMemoryTransport): instructions reach
 * `client.getInstructions()`, unreadable tools are left out so `listTools()` works, and hot sets serve
 * the same list every time, check cold calls and reveal only as the server's capabilities allow.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compressColdTools, presetForProfile, ToolslimError, ToolUsageGraph, type McpTool } from '../../src/index.js';
import { DEFAULT_HOT_SET } from '../../src/session/defaults.js';
import { readUsageFile } from '../../src/session/usage-store.js';
import { optimizeToolsList } from '../../src/sdk/index.js';
import { BFCL_GROUPS } from './bfcl.js';
import { tempDir } from '../helpers/temp.js';

const dir = tempDir('toolslim-hook-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function connect(server: McpServer | Server) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(clientSide);
  const changed: number[] = [];
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changed.push(Date.now()));
  return { client, changed };
}

const WS = 'ID of the workspace to act on; find it with list_workspaces first.';

function workspaceServer(instructions?: string) {
  const server = new McpServer({ name: 'ws', version: '1.0.0' }, instructions === undefined ? {} : { instructions });
  for (const name of ['list_projects', 'list_members', 'list_files']) {
    server.registerTool(name, { description: `List the ${name.slice(5)} of a workspace`, inputSchema: { workspace_id: z.string().describe(WS) } }, async ({ workspace_id }) => ({ content: [{ type: 'text', text: `${name} ${workspace_id}` }] }));
  }
  return server;
}

describe('instructions reach the client', () => {
  it('the promoted text is in client.getInstructions(), and gone from the tools', async () => {
    const server = workspaceServer();
    const optimizer = optimizeToolsList(server, { transforms: ['max'] });
    const { client } = await connect(server);
    const instructions = client.getInstructions();
    expect(instructions).toContain(`- "workspace_id": ${WS}`);
    expect(instructions).toBe(optimizer.deliveredInstructions);
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(3);
    expect(JSON.stringify(tools)).not.toContain(WS);
    expect(await client.callTool({ name: 'list_files', arguments: { workspace_id: 'w1' } })).toMatchObject({ content: [{ type: 'text', text: 'list_files w1' }] });
  });

  it('appended after the server’s own instructions', async () => {
    const server = workspaceServer('Start with list_projects.');
    optimizeToolsList(server, { transforms: ['max'] });
    const { client } = await connect(server);
    expect(client.getInstructions()).toMatch(/^Start with list_projects\.\n\nParameters shared by several tools\./);
  });

  it('when they cannot reach the client any more, the tools keep their descriptions and the step is named', async () => {
    // Installed after the client initialized: initialize is gone.
    const server = workspaceServer();
    const { client } = await connect(server);
    const failures: unknown[] = [];
    optimizeToolsList(server, { transforms: ['max'], onFailure: (e) => failures.push(e) });
    expect(client.getInstructions()).toBeUndefined();
    const { tools } = await client.listTools();
    expect(tools.every((t) => JSON.stringify(t).includes(WS))).toBe(true);
    expect(failures).toHaveLength(1);
    expect((failures[0] as ToolslimError).transform).toBe('promote-common-params');
    expect((failures[0] as Error).message).toMatch(/served tools\/list without `promote-common-params`: the instructions it writes can no longer reach the client/);
  });

  it('a tool set that changes later, with other instructions, is served without the step', async () => {
    const server = workspaceServer();
    const failures: unknown[] = [];
    const optimizer = optimizeToolsList(server, { transforms: ['max'], onFailure: (e) => failures.push(e) });
    const { client, changed } = await connect(server);
    const LIMIT = 'How many results at most, between 1 and 100; the default is 20.';
    for (const name of ['search_a', 'search_b', 'search_c']) server.registerTool(name, { description: 'Search', inputSchema: { limit: z.number().describe(LIMIT) } }, async () => ({ content: [] }));
    await waitFor(() => changed.length >= 1);
    const { tools } = await client.listTools();
    expect(tools.filter((t) => t.name.startsWith('search_')).every((t) => JSON.stringify(t).includes(LIMIT))).toBe(true);
    expect(tools.filter((t) => t.name.startsWith('list_')).every((t) => JSON.stringify(t).includes(WS))).toBe(true);
    expect(optimizer.served?.omittedSteps).toEqual(['promote-common-params']);
    expect(failures.length).toBeGreaterThanOrEqual(1);
  });
});

describe('dropUnreadable', () => {
  /** The seed: an output schema whose $ref leads nowhere; the SDK Client compiles output schemas in listTools. */
  const SEED = { name: 'broken', description: 'Broken output', inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { hits: { $ref: '#/$defs/Hit' } } } };
  const GOOD = { name: 'fine', description: 'Fine', inputSchema: { type: 'object', properties: { q: { type: 'string' } } } };
  const lowServer = () => {
    const server = new Server({ name: 'low', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [GOOD, SEED] }) as never);
    return server;
  };

  it('without it, the seed list makes Client.listTools() throw', async () => {
    const server = lowServer();
    optimizeToolsList(server, { transforms: [] });
    const { client } = await connect(server);
    await expect(client.listTools()).rejects.toThrow();
  });

  it('with it, the client lists the rest, and the dropped tool is named', async () => {
    const server = lowServer();
    const optimizer = optimizeToolsList(server, { transforms: [], dropUnreadable: true });
    const { client } = await connect(server);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['fine']);
    expect(optimizer.served?.dropped.map((d) => [d.name, d.slot])).toEqual([['broken', 'outputSchema']]);
  });
});

describe('hot sets', () => {
  const FS = JSON.parse(JSON.stringify(BFCL_GROUPS.GorillaFileSystem)) as McpTool[];
  const names = FS.map((t) => t.name);
/** A hot tool other than the first, as a session serves it by default: without BFCL's preamble (up to "Tool description: "). */
const withoutPreamble = (t: McpTool): McpTool => ({ ...t, description: t.description!.slice(t.description!.indexOf('Tool description: ') + 'Tool description: '.length) });
  const fsServer = (capabilities: object = { tools: {} }) => {
    const server = new Server({ name: 'fs', version: '1.0.0' }, { capabilities });
    const calls: unknown[] = [];
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: FS }) as never);
    server.setRequestHandler(CallToolRequestSchema, async (req) => {
      calls.push(req.params);
      return { content: [{ type: 'text', text: `ran ${req.params.name}` }] };
    });
    return { server, calls };
  };
  const usage = () => new ToolUsageGraph(FS).recordAll(['cd', 'cd', 'ls', 'cat', 'cd']);

  it('serves the same list every time: hot tools in full, the rest in the default cold form', async () => {
    const { server } = fsServer();
    const optimizer = optimizeToolsList(server, { transforms: [], hotSet: { k: 2, usage: usage() } });
    const { client } = await connect(server);
    const first = await client.listTools();
    // cd 3 calls; ls and cat 1 each, and cat is listed first.
    expect(optimizer.session?.hot).toEqual(['cat', 'cd']);
    // compress-cold-tools with the hot names kept; the server's preamble (up to "Tool description: ") stays on
    // `cat`, listed first, and `cd`, hot, is served without it (DEFAULT_HOT_SET.preamble: 'once').
    const expected = compressColdTools(FS, { ...DEFAULT_HOT_SET.cold, keep: ['cat', 'cd'] }).tools;
    const cdAt = names.indexOf('cd');
    const cdDescription = FS[cdAt]!.description!;
    expected[cdAt] = { ...FS[cdAt]!, description: cdDescription.slice(cdDescription.indexOf('Tool description: ') + 'Tool description: '.length) };
    expect(first.tools).toEqual(expected);
    for (let i = 0; i < 5; i++) expect(JSON.stringify(await client.listTools())).toBe(JSON.stringify(first));
  });

  it('forwards a valid cold call, answers an invalid one with the schema without calling the handler', async () => {
    const { server, calls } = fsServer();
    optimizeToolsList(server, { transforms: [], hotSet: { k: 2, usage: usage() } });
    const { client } = await connect(server);
    await client.listTools();
    expect(await client.callTool({ name: 'mkdir', arguments: { dir_name: 'x' } })).toMatchObject({ content: [{ type: 'text', text: 'ran mkdir' }] });
    const bad = await client.callTool({ name: 'mkdir', arguments: { dir: 'x' } });
    expect(bad.isError).toBe(true);
    const text = (bad.content as { text: string }[])[0]!.text;
    expect(text).toContain("must have required property 'dir_name'");
    expect(text).toContain(JSON.stringify(FS[names.indexOf('mkdir')]!.inputSchema));
    // Hot calls pass through untouched, whatever their arguments.
    await client.callTool({ name: 'cd', arguments: { nonsense: true } });
    expect(calls).toEqual([
      { name: 'mkdir', arguments: { dir_name: 'x' } },
      { name: 'cd', arguments: { nonsense: true } },
    ]);
  });

  it('reveal list-changed: notifies only when the server declared tools.listChanged', async () => {
    const declared = fsServer({ tools: { listChanged: true } });
    optimizeToolsList(declared.server, { transforms: [], hotSet: { k: 1, usage: usage(), reveal: 'list-changed' } });
    const a = await connect(declared.server);
    await a.client.listTools();
    await a.client.callTool({ name: 'mkdir', arguments: { dir_name: 'x' } });
    await waitFor(() => a.changed.length === 1);
    const afterA = (await a.client.listTools()).tools;
    expect(afterA[names.indexOf('mkdir')]).toEqual(withoutPreamble(FS[names.indexOf('mkdir')]!));

    const silent = fsServer({ tools: {} });
    optimizeToolsList(silent.server, { transforms: [], hotSet: { k: 1, usage: usage(), reveal: 'list-changed' } });
    const b = await connect(silent.server);
    await b.client.listTools();
    await b.client.callTool({ name: 'mkdir', arguments: { dir_name: 'x' } });
    await new Promise((r) => setTimeout(r, 50));
    expect(b.changed).toEqual([]);
    // Revealed on the client's next own tools/list.
    expect((await b.client.listTools()).tools[names.indexOf('mkdir')]).toEqual(withoutPreamble(FS[names.indexOf('mkdir')]!));
  });

  it('keeps a usage file: calls are recorded and the next connection ranks from them', async () => {
    const file = join(dir, 'usage.json');
    const one = fsServer();
    const first = optimizeToolsList(one.server, { transforms: [], hotSet: { k: 2, usage: file } });
    const c1 = await connect(one.server);
    await c1.client.listTools();
    expect(first.session?.hot).toEqual([]); // a new file is no evidence
    for (const n of ['grep', 'grep', 'tail', 'grep']) await c1.client.callTool({ name: n, arguments: n === 'tail' ? { file_name: 'a' } : { file_name: 'a', pattern: 'x' } });
    first.flushUsage();
    const graph = readUsageFile(file)!;
    expect(graph.callCount('grep')).toBe(3);
    expect(graph.callCount('tail')).toBe(1);
    expect(graph.sessions).toBe(1);

    const two = fsServer();
    const second = optimizeToolsList(two.server, { transforms: [], hotSet: { k: 2, usage: file } });
    const c2 = await connect(two.server);
    await c2.client.listTools();
    expect(second.session?.hot).toEqual(['grep', 'tail']);
  });

  it('checks every option now, with errors that name it', () => {
    const { server } = fsServer();
    const foreign = join(dir, 'foreign.json');
    writeFileSync(foreign, '{"name":"not usage"}');
    expect(() => optimizeToolsList(fsServer().server, { hotSet: { k: -1 } })).toThrow(/`hotSet.k` must be a non-negative integer/);
    expect(() => optimizeToolsList(fsServer().server, { hotSet: { usage: foreign } })).toThrow(new RegExp(`usage file ${foreign} is JSON but not a toolslim usage graph`));
    expect(readFileSync(foreign, 'utf8')).toBe('{"name":"not usage"}');
    expect(() => optimizeToolsList(fsServer().server, { hotSet: { usage: 42 as never } })).toThrow(/`hotSet.usage` must be a usage file's path, a UsageStore or a ToolUsageGraph/);
    expect(() => optimizeToolsList(fsServer().server, { hotSet: { reveal: 'now' as never } })).toThrow(/`hotSet.reveal` must be one of/);
    expect(() => optimizeToolsList(fsServer().server, { dropUnreadable: 1 as never })).toThrow(/`dropUnreadable` must be true or false/);
    expect(() => optimizeToolsList(fsServer().server, { onServed: 'x' as never })).toThrow(/`onServed` must be a function/);
    expect(() => optimizeToolsList(fsServer().server, { hotset: {} } as never)).toThrow(/unknown option `hotset`/);
    expect(() => optimizeToolsList(server, 'max' as never)).toThrow(/options must be an object/);
  });

  it('refuses a hot set for a client that accepts only closed objects, as the proxy refuses --hot-set with such a profile', () => {
    // Found as a user: the hook served `{"type": "object"}` cold stubs to openai-strict, which refuses them.
    const refused = /`hotSet` serves cold tools as open objects .*the openai-strict profile's client refuses/;
    expect(() => optimizeToolsList(fsServer().server, { transforms: presetForProfile('safe', 'openai-strict'), hotSet: { k: 2 } })).toThrow(refused);
    expect(() => optimizeToolsList(fsServer().server, { transforms: ['safe', ['adapt-to-client', { profile: 'openai-strict' }]], hotSet: {} })).toThrow(refused);
    // Clients that take open objects keep their hot set; openai-strict without one is served in full.
    expect(() => optimizeToolsList(fsServer().server, { transforms: presetForProfile('safe', 'openai'), hotSet: { k: 2 } })).not.toThrow();
    expect(() => optimizeToolsList(fsServer().server, { transforms: presetForProfile('safe', 'openai-strict') })).not.toThrow();
  });
});

async function waitFor(cond: () => boolean, ms = 20_000) {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 5));
  }
}
