/**
 * `toolslim proxy --url`: the built binary between the SDK Client (over stdio) and a streamable HTTP
 * server (the SDK's StreamableHTTPServerTransport). Expected lists are the hand-written ones in helpers.ts.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LATEST_PROTOCOL_VERSION, ListRootsRequestSchema, LoggingMessageNotificationSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BIN, DEMO_TOOLS_OPTIMIZED, requireBuild, waitFor } from './helpers.js';
import { startHttpServer, type TestHttpServer } from './http-server.js';
import { INIT, isRunning, node, ProxyProcess } from './proxy-helpers.js';

beforeAll(() => requireBuild());

let server: TestHttpServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('proxy --url (streamable HTTP upstream)', () => {
  it('serves every page optimized, relays calls, notifications and server requests, and ends the session with DELETE', async () => {
    server = await startHttpServer({ pages: 3, listChanged: true });
    const transport = new StdioClientTransport({ command: node, args: [BIN, 'proxy', '--url', server.url, '-H', 'X-Api-Key: secret 1'], stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const client = new Client({ name: 'http-test', version: '1.0.0' }, { capabilities: { roots: { listChanged: false } } });
    const logs: unknown[] = [];
    const changed: number[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params.data));
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changed.push(1));
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: 'file:///work', name: 'work' }] }));
    await client.connect(transport);
    const pid = transport.pid!;
    try {
      expect(client.getServerVersion()).toEqual({ name: 'http-demo', version: '2.0.0' });
      expect(client.getInstructions()).toBe('HTTP demo server');
      expect(client.getServerCapabilities()).toEqual({ tools: { listChanged: true }, logging: {} });
      const { tools, nextCursor } = await client.listTools();
      expect(nextCursor).toBeUndefined();
      expect(tools).toEqual(DEMO_TOOLS_OPTIMIZED);
      const args = { text: 'héllo "world"', n: [1, 2.5, null] };
      expect(await client.callTool({ name: 'echo', arguments: args })).toEqual({ content: [{ type: 'text', text: JSON.stringify(args) }] });
      // A notification inside a response stream, and a request from the server to the client.
      expect(await client.callTool({ name: 'log', arguments: {} })).toEqual({ content: [{ type: 'text', text: 'logged' }] });
      expect(logs).toEqual(['working on it']);
      expect(await client.callTool({ name: 'roots', arguments: {} })).toEqual({ content: [{ type: 'text', text: '[{"uri":"file:///work","name":"work"}]' }] });
      // list_changed outside any request arrives on the GET stream.
      await client.callTool({ name: 'add_tool', arguments: {} });
      await waitFor(() => changed.length === 1, 5000, 'notifications/tools/list_changed');
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['get_pet', 'echo', 'add_tool', 'exit_server', 'late_tool']);
      // Every request carried the header, the session and (after initialize) the protocol version.
      const posts = server.requests.filter((r) => r.method === 'POST');
      expect(posts.length).toBeGreaterThan(5);
      for (const r of server.requests) expect(r.headers['x-api-key']).toBe('secret 1');
      for (const r of posts.slice(1)) {
        expect(r.headers['mcp-session-id']).toMatch(/^[0-9a-f-]{36}$/);
        expect(r.headers['mcp-protocol-version']).toBe(LATEST_PROTOCOL_VERSION);
      }
      expect(server.requests.some((r) => r.method === 'GET')).toBe(true);
    } finally {
      await client.close();
    }
    await waitFor(() => !isRunning(pid), 5000, 'the proxy to exit');
    expect(server.closedSessions).toHaveLength(1);
    expect(stderr).toBe('');
  });

  it('a server that forgets the session (HTTP 404, a restart): the proxy starts a new one with the client\'s initialize and retries, as MCP says an HTTP client must', async () => {
    // Found as a user: hevy-mcp over HTTP restarted under a proxy session; the next call got "HTTP 404 …
    // the client has to reconnect", and every call after it "HTTP 400 Bad Request" (sent with no session),
    // though a stdio client has no way to reconnect but restarting the proxy.
    server = await startHttpServer();
    const transport = new StdioClientTransport({ command: node, args: [BIN, 'proxy', '--full', '--url', server.url], stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const client = new Client({ name: 'http-restart', version: '1.0.0' });
    await client.connect(transport);
    try {
      expect(await client.callTool({ name: 'echo', arguments: { text: 'before' } })).toEqual({ content: [{ type: 'text', text: '{"text":"before"}' }] });
      const firstSession = server.requests.find((r) => r.method === 'POST' && r.headers['mcp-session-id'] !== undefined)!.headers['mcp-session-id'];
      await server.forgetSessions();
      // Two requests meet the 404 at once: one new session serves both.
      const [after, along] = await Promise.all([client.callTool({ name: 'echo', arguments: { text: 'after' } }), client.callTool({ name: 'echo', arguments: { text: 'along' } })]);
      expect(after).toEqual({ content: [{ type: 'text', text: '{"text":"after"}' }] });
      expect(along).toEqual({ content: [{ type: 'text', text: '{"text":"along"}' }] });
      expect(await client.callTool({ name: 'echo', arguments: { text: 'again' } })).toEqual({ content: [{ type: 'text', text: '{"text":"again"}' }] });
      expect((await client.listTools()).tools).toEqual(DEMO_TOOLS_OPTIMIZED);
      // Two sessions, each started by an initialize without a session id; every later POST names the new one.
      const posts = server.requests.filter((r) => r.method === 'POST');
      const fresh = posts.filter((r) => r.headers['mcp-session-id'] === undefined);
      expect(fresh).toHaveLength(2);
      const last = posts[posts.length - 1]!.headers['mcp-session-id'];
      expect(last).toMatch(/^[0-9a-f-]{36}$/);
      expect(last).not.toBe(firstSession);
      expect(stderr).toMatch(/no longer knows the session \(HTTP 404\): started a new one/);
    } finally {
      await client.close();
    }
  });

  it('after a new session (HTTP 404), the server\'s own messages outside a call reach the client at once: the GET stream of the new session is opened then, not after the dead one\'s backoff', async () => {
    // Found as a user: after a restart of a server under the proxy, a sampling request the server sent
    // outside a call's stream (and list_changed) never arrived: the GET stream was still waiting out the
    // backoff the dead session's failures had run up, and the SDK server drops what it sends to no stream.
    server = await startHttpServer({ listChanged: true });
    const transport = new StdioClientTransport({ command: node, args: [BIN, 'proxy', '--full', '--url', server.url], stderr: 'pipe' });
    const client = new Client({ name: 'http-restart-get', version: '1.0.0' });
    let notified = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => void notified++);
    await client.connect(transport);
    try {
      await waitFor(() => server!.requests.some((r) => r.method === 'GET'), 5000, 'the GET stream');
      const dead = server.requests.find((r) => r.method === 'GET')!.headers['mcp-session-id'];
      await server.forgetSessions();
      // The dead session's stream ends, and its reconnection (2 s later) meets 404: the next one would wait 4 s.
      await waitFor(() => server!.requests.filter((r) => r.method === 'GET' && r.headers['mcp-session-id'] === dead).length >= 2, 5000, 'a reconnection of the dead stream');
      expect(await client.callTool({ name: 'echo', arguments: { text: 'after' } })).toEqual({ content: [{ type: 'text', text: '{"text":"after"}' }] });
      const renewed = server.requests.filter((r) => r.method === 'POST').at(-1)!.headers['mcp-session-id'];
      expect(renewed).not.toBe(dead);
      await waitFor(() => server!.requests.some((r) => r.method === 'GET' && r.headers['mcp-session-id'] === renewed), 1000, 'a GET stream of the new session');
      // The proxy told the client of the new session (the server declared tools.listChanged); then the tool
      // sends list_changed 20 ms after its answer, outside the call: on the GET stream alone.
      await waitFor(() => notified === 1, 1000, 'notifications/tools/list_changed for the new session');
      await client.callTool({ name: 'add_tool', arguments: {} });
      await waitFor(() => notified === 2, 1000, 'the server\'s notifications/tools/list_changed on the new session');
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('late_tool');
    } finally {
      await client.close();
    }
  });

  for (const listChanged of [true, false]) {
    it(`a restarted server that lists other tools (tools.listChanged ${listChanged ? 'declared' : 'not declared'}): after the new session the list is fetched again${listChanged ? ' and the client told' : ''}`, async () => {
      // A server restart (HTTP 404) may come with another version of the server: serving the list fetched
      // from the old one would offer tools that are gone and check calls against schemas that changed.
      const tools: Record<string, unknown>[] = [{ name: 'echo', description: 'Echo the arguments', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }];
      server = await startHttpServer({ tools, listChanged });
      const transport = new StdioClientTransport({ command: node, args: [BIN, 'proxy', '--full', '--url', server.url], stderr: 'pipe' });
      const client = new Client({ name: 'http-restart-tools', version: '1.0.0' });
      let notified = 0;
      client.setNotificationHandler(ToolListChangedNotificationSchema, async () => void notified++);
      await client.connect(transport);
      try {
        expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['echo']);
        // The new version of the server: one more tool (read by every session started from now on).
        tools.push({ name: 'added', description: 'Only in the new version', inputSchema: { type: 'object', properties: { n: { type: 'number' } } } });
        await server.forgetSessions();
        expect(await client.callTool({ name: 'echo', arguments: { text: 'after' } })).toEqual({ content: [{ type: 'text', text: '{"text":"after"}' }] });
        if (listChanged) await waitFor(() => notified === 1, 5000, 'notifications/tools/list_changed after the new session');
        expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['echo', 'added']);
        // Undeclared, the client is sent none (the server said it sends none); it gets the new list when it asks.
        expect(notified).toBe(listChanged ? 1 : 0);
      } finally {
        await client.close();
      }
    });
  }

  it('a client that closes stdin: exit 0 and the session is ended', async () => {
    server = await startHttpServer();
    const p = new ProxyProcess(['--url', server.url]);
    const init = JSON.parse(await p.initialize());
    expect(init.result.serverInfo).toEqual({ name: 'http-demo', version: '2.0.0' });
    p.send('{"jsonrpc":"2.0","id":1,"method":"tools/list"}');
    expect(JSON.parse(await p.next())).toEqual({ jsonrpc: '2.0', id: 1, result: { tools: DEMO_TOOLS_OPTIMIZED } });
    p.end();
    expect(await p.closed).toBe(0);
    expect(server.closedSessions).toHaveLength(1);
  });

  it('HTTP errors become JSON-RPC errors naming the status, never the HTML page', async () => {
    const http = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        if (req.method === 'DELETE') res.writeHead(405).end();
        else res.writeHead(500, { 'content-type': 'text/html' }).end('<!DOCTYPE html>\n<html><head><title>Oops</title></head><body><pre>Traceback (most recent call last): secret stack</pre></body></html>');
      });
    });
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
    try {
      const p = new ProxyProcess(['--url', url]);
      p.send(INIT);
      const answer = JSON.parse(await p.next());
      expect(answer).toEqual({ jsonrpc: '2.0', id: 0, error: { code: -32000, message: `toolslim proxy: initialize: ${url} answered HTTP 500 Internal Server Error` } });
      p.end();
      expect(await p.closed).toBe(0);
      expect(p.stderr).not.toContain('<');
    } finally {
      http.closeAllConnections();
      await new Promise<void>((r) => http.close(() => r()));
    }
  });

  it('a server that cannot be reached: each request gets an error naming the URL and the cause', async () => {
    // A port that was just free.
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const p = new ProxyProcess(['--url', `http://127.0.0.1:${port}/mcp`]);
    p.send(INIT);
    const answer = JSON.parse(await p.next());
    expect(answer.id).toBe(0);
    expect(answer.error.code).toBe(-32000);
    expect(answer.error.message).toMatch(/^toolslim proxy: initialize: cannot reach http:\/\/127\.0\.0\.1:\d+\/mcp: fetch failed \(ECONNREFUSED\)$/);
    p.end();
    expect(await p.closed).toBe(0);
  });

  it('a pretty-printed JSON body reaches the client as one line, every other byte kept', async () => {
    const body = '{\n  "jsonrpc": "2.0",\n  "id": 0,\n  "result": {\n    "protocolVersion": "2025-06-18",\n    "capabilities": {},\n    "serverInfo": { "name": "pretty", "version": "1.0" },\n    "big": 12345678901234567890123, "neg": -0, "one": 1.0\n  }\n}\n';
    const http = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        if (req.method === 'POST') res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 's1' }).end(body);
        else res.writeHead(405).end();
      });
    });
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
    try {
      const p = new ProxyProcess(['--url', url]);
      p.send(INIT);
      expect(await p.next()).toBe(body.replace(/\n/g, ''));
      p.end();
      expect(await p.closed).toBe(0);
    } finally {
      http.closeAllConnections();
      await new Promise<void>((r) => http.close(() => r()));
    }
  });
});

describe('proxy --url with an McpServer', () => {
  it('serves its tools optimized, and reconnects the GET stream after the server closes it (a later list_changed still arrives)', async () => {
    const { McpServer } = await import('@modelcontextprotocol/sdk/server/mcp.js');
    const { StreamableHTTPServerTransport } = await import('@modelcontextprotocol/sdk/server/streamableHttp.js');
    const { z } = await import('zod');
    const { randomUUID } = await import('node:crypto');
    const { transformTools } = await import('../../src/api.js');
    const mcp = new McpServer({ name: 'mcp-http', version: '3.0.0' });
    mcp.registerTool('greet', { description: 'Greets someone by name', inputSchema: { name: z.string().describe('Who to greet'), loud: z.boolean().optional() } }, async ({ name }) => ({ content: [{ type: 'text', text: `hi ${name}` }] }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
    await mcp.connect(transport);
    const gets: number[] = [];
    const http = createServer((req, res) => {
      if (req.method === 'GET') gets.push(Date.now());
      void transport.handleRequest(req, res);
    });
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
    const client = new Client({ name: 'mcp-http-test', version: '1.0.0' });
    const changed: number[] = [];
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changed.push(1));
    await client.connect(new StdioClientTransport({ command: node, args: [BIN, 'proxy', '--url', url], stderr: 'pipe' }));
    try {
      const served = (await client.listTools()).tools;
      // What the McpServer lists (as JSON), through the default preset.
      const direct = JSON.parse(JSON.stringify(await (mcp.server as unknown as { _requestHandlers: Map<string, (r: unknown, e: unknown) => Promise<unknown>> })._requestHandlers.get('tools/list')!({ method: 'tools/list', params: {} }, {})));
      expect(served).toEqual(transformTools(direct).tools);
      expect(await client.callTool({ name: 'greet', arguments: { name: 'Ada' } })).toEqual({ content: [{ type: 'text', text: 'hi Ada' }] });
      await waitFor(() => gets.length >= 1, 5000, 'the GET stream');
      transport.closeStandaloneSSEStream();
      await waitFor(() => gets.length >= 2, 8000, 'the GET stream to reconnect');
      await new Promise((r) => setTimeout(r, 200));
      mcp.registerTool('late', { description: 'Registered after the stream dropped', inputSchema: {} }, async () => ({ content: [] }));
      await waitFor(() => changed.length >= 1, 5000, 'notifications/tools/list_changed over the new GET stream');
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['greet', 'late']);
    } finally {
      await client.close();
      await mcp.close();
      http.closeAllConnections();
      await new Promise<void>((r) => http.close(() => r()));
    }
  });
});
