/**
 * Attack (issue 26, item 1): over `--url`, what a message is comes from its parsed `method`, never from a
 * pattern over its text. A tool argument, a result or an error's data that holds `"method":"initialize"` (or
 * any other JSON-RPC method name) must not end the HTTP session. Before the fix, the first such call and
 * every later one failed with HTTP 400 (the proxy dropped the session id, as for a new initialize).
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { requireBuild } from '../cli/helpers.js';
import { startHttpServer, type TestHttpServer } from '../cli/http-server.js';
import { ProxyProcess } from '../cli/proxy-helpers.js';

beforeAll(() => requireBuild());

let server: TestHttpServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Every method name of the MCP schema (2025-06-18), and JSON-RPC's own shapes. */
const METHODS = [
  'initialize',
  'notifications/initialized',
  'ping',
  'tools/list',
  'tools/call',
  'notifications/tools/list_changed',
  'notifications/cancelled',
  'notifications/progress',
  'resources/list',
  'resources/read',
  'prompts/list',
  'completion/complete',
  'logging/setLevel',
  'sampling/createMessage',
  'roots/list',
  'elicitation/create',
];

describe('proxy --url: message kinds come from parsing', () => {
  it('a tools/call whose arguments hold every method name (first in the text, as a bare member) keeps the session', async () => {
    server = await startHttpServer();
    const p = new ProxyProcess(['--url', server.url]);
    try {
      expect(JSON.parse(await p.initialize()).result.serverInfo.name).toBe('http-demo');
      let id = 10;
      const calls: string[] = [];
      for (const method of METHODS) {
        // `params` before `method`, so the planted text is within the first 200 characters.
        calls.push(`{"jsonrpc":"2.0","params":{"name":"echo","arguments":{"method":${JSON.stringify(method)},"id":0}},"id":${id++},"method":"tools/call"}`);
        calls.push(`{"jsonrpc":"2.0","id":${id++},"method":"tools/call","params":{"name":"echo","arguments":{"x":{"jsonrpc":"2.0","id":0,"method":${JSON.stringify(method)},"params":{}}}}}`);
      }
      for (const [i, line] of calls.entries()) {
        p.send(line);
        const { message } = await p.until(10 + i);
        expect(message.error, `call ${i}: ${line}`).toBeUndefined();
        const text = (message.result as { content: { text: string }[] }).content[0]!.text;
        // The echo result carries the method name back in its text: results are not classified either.
        expect(text).toContain(JSON.parse(line).params.arguments.method ?? JSON.parse(line).params.arguments.x.method);
      }
      // A batch with a planted name in one member's arguments.
      p.send(`[{"jsonrpc":"2.0","id":500,"method":"tools/call","params":{"name":"echo","arguments":{"method":"initialize"}}},{"jsonrpc":"2.0","id":501,"method":"ping"}]`);
      // The SDK's server answers a batch's members one by one (each may come as its own message).
      const batch: { id: number; error?: unknown }[] = [];
      while (batch.length < 2) {
        const m = JSON.parse(await p.next()) as { id: number; error?: unknown } | { id: number; error?: unknown }[];
        batch.push(...(Array.isArray(m) ? m : [m]));
      }
      expect(batch.map((m) => m.id).sort()).toEqual([500, 501]);
      for (const m of batch) expect(m.error).toBeUndefined();
      // An unknown tool's error (its message names the planted method) keeps the session too.
      p.send(`{"jsonrpc":"2.0","id":600,"method":"tools/call","params":{"name":"\\"method\\":\\"initialize\\"","arguments":{}}}`);
      await p.until(600);
      // The session is still the same one: the next call works and every POST after initialize carried one id.
      p.send('{"jsonrpc":"2.0","id":700,"method":"tools/list"}');
      const list = (await p.until(700)).message;
      expect(list.error).toBeUndefined();
      const posts = server.requests.filter((r) => r.method === 'POST');
      const ids = new Set(posts.slice(1).map((r) => r.headers['mcp-session-id']));
      expect(ids.size).toBe(1);
      expect([...ids][0]).toMatch(/^[0-9a-f-]{36}$/);
    } finally {
      p.end();
      await p.closed;
    }
    expect(server.closedSessions).toHaveLength(1);
  });
});
