import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTransform } from '../../src/engine/define-transform.js';
import { optimizeToolsList } from '../../src/sdk/index.js';

/** A test transform with an effect visible on any SDK-generated schema: drops the root `$schema`. */
const stripSchemaUri = defineTransform({
  name: 'strip-schema-uri',
  description: 'Test-only: removes the root $schema of inputSchema',
  safety: 'annotation',
  defaultOptions: {},
  messages: { removed: 'Removed `$schema`' },
  apply(doc, ctx) {
    const s = doc.tool.inputSchema;
    if (typeof s === 'object' && s !== null && Object.prototype.hasOwnProperty.call(s, '$schema')) ctx.remove('/inputSchema/$schema', 'removed');
  },
});

async function connect(server: McpServer | Server) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test', version: '1.0.0' });
  const changed: number[] = [];
  await client.connect(clientSide);
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    changed.push(Date.now());
  });
  return { client, changed };
}

function addServer() {
  const server = new McpServer({ name: 'demo', version: '1.0.0' });
  server.registerTool('add', { description: 'Add two numbers', inputSchema: { a: z.number().describe('first'), b: z.number().describe('second') } }, async ({ a, b }) => ({
    content: [{ type: 'text', text: String(a + b) }],
  }));
  return server;
}

describe('optimizeToolsList with McpServer', () => {
  it('answers tools/list with the optimized list and leaves tools/call working with the original arguments', async () => {
    const plain = addServer();
    const { client: plainClient } = await connect(plain);
    const original = (await plainClient.listTools()).tools;
    expect(original[0]!.inputSchema).toHaveProperty('$schema');

    const server = addServer();
    const optimizer = optimizeToolsList(server, { transforms: [stripSchemaUri] });
    const { client } = await connect(server);
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(1);
    expect(tools[0]!.name).toBe('add');
    expect(tools[0]!.inputSchema).toEqual({ type: 'object', properties: { a: { type: 'number', description: 'first' }, b: { type: 'number', description: 'second' } }, required: ['a', 'b'] });
    const result = await client.callTool({ name: 'add', arguments: { a: 2, b: 40 } });
    expect(result.content).toEqual([{ type: 'text', text: '42' }]);
    expect(optimizer.computations).toBe(1);
    expect(optimizer.last?.report.changes.map((c) => c.path)).toEqual(['/0/inputSchema/$schema']);
  });

  it('computes once per tool set, and again after list_changed', async () => {
    const server = addServer();
    const optimizer = optimizeToolsList(server, { transforms: [stripSchemaUri] });
    const { client, changed } = await connect(server);
    await client.listTools();
    await client.listTools();
    expect(optimizer.computations).toBe(1);

    const tool = server.registerTool('echo', { description: 'Echo', inputSchema: { text: z.string() } }, async ({ text }) => ({ content: [{ type: 'text', text }] }));
    await waitFor(() => changed.length === 1);
    const after = (await client.listTools()).tools;
    expect(after.map((t) => t.name)).toEqual(['add', 'echo']);
    expect(after.every((t) => !('$schema' in t.inputSchema))).toBe(true);
    expect(optimizer.computations).toBe(2);
    await client.listTools();
    expect(optimizer.computations).toBe(2);

    tool.disable();
    await waitFor(() => changed.length === 2);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['add']);
    // The first tool set again: served from its result (a cache hit does not count), and the result of record.
    expect(optimizer.computations).toBe(2);
    expect(optimizer.last!.tools.map((t) => t.name)).toEqual(['add']);
    expect((await client.callTool({ name: 'add', arguments: { a: 1, b: 1 } })).content).toEqual([{ type: 'text', text: '2' }]);
  });

  it('a client making up cursors gets the list from the result already computed, however many it sends', async () => {
    // An McpServer ignores the cursor and answers every request with its whole list. Before, each new cursor
    // optimized the list again and kept another copy (10,000 cursors: 10,000 runs, 10,000 pages held).
    const server = addServer();
    const results: number[] = [];
    const optimizer = optimizeToolsList(server, { transforms: [stripSchemaUri], onResult: () => void results.push(1) });
    const { client } = await connect(server);
    const first = JSON.stringify((await client.listTools()).tools);
    for (let i = 0; i < 300; i++) expect(JSON.stringify((await client.listTools({ cursor: `made-up-${i}` })).tools)).toBe(first);
    expect(optimizer.computations).toBe(1);
    // Each new cursor is still a new page, told once as before.
    expect(results).toHaveLength(301);
    expect((await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } })).content).toEqual([{ type: 'text', text: '5' }]);
  });

  it('works when installed before any tool is registered', async () => {
    const server = new McpServer({ name: 'demo', version: '1.0.0' });
    const optimizer = optimizeToolsList(server, { transforms: [stripSchemaUri] });
    server.registerTool('add', { description: 'Add', inputSchema: { a: z.number() } }, async ({ a }) => ({ content: [{ type: 'text', text: String(a) }] }));
    expect(() => optimizeToolsList(server)).toThrow(/already installed/);
    const { client } = await connect(server);
    expect((await client.listTools()).tools[0]!.inputSchema).not.toHaveProperty('$schema');
    expect(optimizer.computations).toBe(1);
  });

  it('rejects unknown transforms at install time', () => {
    expect(() => optimizeToolsList(addServer(), { transforms: ['no-such-transform'] })).toThrow(/unknown transform/);
    expect(() => optimizeToolsList(addServer(), { transforms: [['prune-unreachable-defs', { nope: 1 }]] })).toThrow(/unknown option `nope`/);
    expect(() => optimizeToolsList({} as never)).toThrow(/McpServer or a Server/);
  });
});

describe('optimizeToolsList with the low-level Server', () => {
  const tools = [
    {
      name: 'get_pet',
      description: 'Get a pet',
      inputSchema: {
        type: 'object',
        properties: { id: { $ref: '#/$defs/Id' } },
        required: ['id'],
        $defs: { Id: { type: 'integer', minimum: 1 }, Order: { type: 'object', properties: { qty: { type: 'integer' } } }, User: { type: 'object' } },
      },
    },
  ];

  it('runs the default preset: unreachable definitions are gone, calls are forwarded', async () => {
    const server = new Server({ name: 'low', version: '1.0.0' }, { capabilities: { tools: {} } });
    optimizeToolsList(server);
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
    const calls: unknown[] = [];
    server.setRequestHandler(CallToolRequestSchema, async (req) => {
      calls.push(req.params);
      return { content: [{ type: 'text', text: `pet ${String((req.params.arguments as { id: number }).id)}` }] };
    });
    const { client } = await connect(server);
    const listed = (await client.listTools()).tools;
    expect(listed).toEqual([
      { name: 'get_pet', description: 'Get a pet', inputSchema: { type: 'object', properties: { id: { $ref: '#/$defs/Id' } }, required: ['id'], $defs: { Id: { type: 'integer', minimum: 1 } } } },
    ]);
    expect(await client.callTool({ name: 'get_pet', arguments: { id: 7 } })).toMatchObject({ content: [{ type: 'text', text: 'pet 7' }] });
    expect(calls).toEqual([{ name: 'get_pet', arguments: { id: 7 } }]);
  });

  it('keeps pages apart and serves the original list when optimizing fails', async () => {
    const server = new Server({ name: 'low', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async (req) =>
      req.params?.cursor === 'p2' ? { tools: [{ ...tools[0]!, name: 'second' }] } : { tools, nextCursor: 'p2' },
    );
    const failures: unknown[] = [];
    const boom = defineTransform<object, undefined>({ name: 'boom', description: 'Test-only: throws from prepare (with onError: throw the run fails)', safety: 'lossless', defaultOptions: {}, messages: { x: 'x' }, prepare: (): undefined => {
      throw new Error('boom');
    }, apply() {} });
    const optimizer = optimizeToolsList(server, { transforms: ['safe'] });
    const { client } = await connect(server);
    const p1 = await client.listTools();
    const p2 = await client.listTools({ cursor: 'p2' });
    expect(p1.nextCursor).toBe('p2');
    expect(Object.keys((p1.tools[0]!.inputSchema as unknown as { $defs: object }).$defs)).toEqual(['Id']);
    expect(p2.tools[0]!.name).toBe('second');
    expect(Object.keys((p2.tools[0]!.inputSchema as unknown as { $defs: object }).$defs)).toEqual(['Id']);
    await client.listTools();
    await client.listTools({ cursor: 'p2' });
    expect(optimizer.computations).toBe(2);

    const failing = new Server({ name: 'low', version: '1.0.0' }, { capabilities: { tools: {} } });
    failing.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
    optimizeToolsList(failing, { transforms: [boom], onError: 'throw', onFailure: (e) => failures.push(e) });
    const { client: c2 } = await connect(failing);
    expect((await c2.listTools()).tools).toEqual(tools);
    expect(failures).toHaveLength(1);
  });
});

async function waitFor(cond: () => boolean, ms = 20_000) {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 5));
  }
}
