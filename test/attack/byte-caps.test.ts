/**
 * Attack (issue 26, item 8): byte caps and the SSE reconnection.
 * - A line the server never ends (the attack: 300 MB held, 944 MB of memory) is cut at the line cap and
 *   the request it answers gets an error naming the cap and its flag, at once, not when (if) it ends.
 * - One huge tools/list page, and a cursor loop of pages (the attack: 1 MB pages, 2.1 GB before the page
 *   count stopped it), stop at the page and list caps, naming them.
 * - A tools/call answer over the result cap becomes an error naming it.
 * - Over --url: a JSON body and an SSE event over the line cap fail their request naming it; a server
 *   whose event stream says `retry: 0` and ends at once was reconnected ~200 times a second, forever.
 * Each cap is checked with a small value set by its flag; the defaults with the issue's own cursor loop.
 */
import { appendFileSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { leadingId, reconnectDelay, trailingId } from '../../src/cli/proxy/limits.js';
import { requireBuild, ROOT } from '../cli/helpers.js';
import { INIT, INITIALIZED, ProxyProcess, WIRE_SERVER, node } from '../cli/proxy-helpers.js';
import { tempDir } from '../helpers/temp.js';

beforeAll(() => requireBuild());
const dir = tempDir('toolslim-caps-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const HOSTILE = join(ROOT, 'test', 'servers', 'hostile-bytes-server.mjs');

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

const listRequests = (file: string) => {
  try {
    return readFileSync(file, 'utf8').split('\n').filter((l) => l !== '').length;
  } catch {
    return 0;
  }
};

async function withProxy<T>(args: string[], f: (p: ProxyProcess) => Promise<T>): Promise<{ value: T; p: ProxyProcess }> {
  const p = new ProxyProcess(args);
  try {
    return { value: await f(p), p };
  } finally {
    p.end();
    await p.closed;
  }
}

const errorOf = (m: Record<string, unknown>) => (m.error as { message?: string } | undefined)?.message ?? '';

describe('stdio: line, page, list and result caps', () => {
  it('a line the server never ends: the call fails at the line cap, naming it; the proxy goes on', async () => {
    const { value } = await withProxy(['--max-line-bytes', '1000000', '--', node, HOSTILE], async (p) => {
      await p.initialize();
      p.send('{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"endless","arguments":{}}}');
      const { message } = await p.until(5, 20_000);
      return errorOf(message);
    });
    expect(value).toContain('over the line cap of 1,000,000 bytes (--max-line-bytes <bytes> raises it)');
  });

  it('a client line over the line cap is not sent; its request gets the error', async () => {
    const { value } = await withProxy(['--max-line-bytes', '1000000', '--', node, WIRE_SERVER], async (p) => {
      await p.initialize();
      p.send(`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"echo","arguments":{"text":"${'y'.repeat(2_000_000)}"}}}`);
      const big = errorOf((await p.until(9)).message);
      p.send('{"jsonrpc":"2.0","id":10,"method":"ping"}');
      const ping = (await p.until(10)).message;
      return { big, ping };
    });
    expect(value.big).toContain('a line from the client is over the line cap of 1,000,000 bytes (--max-line-bytes <bytes> raises it); it was not sent to the server');
    expect(value.ping.result).toEqual({});
  });

  it('a response over the line cap with its id last (as the SDK writes it): the call fails naming the cap, not by the client’s timeout', async () => {
    const { value } = await withProxy(['--max-line-bytes', '1000000', '--', node, HOSTILE], async (p) => {
      await p.initialize();
      p.send('{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"id-last","arguments":{}}}');
      const big = errorOf((await p.until(5, 20_000)).message);
      p.send('{"jsonrpc":"2.0","id":6,"method":"ping"}');
      return { big, ping: (await p.until(6)).message };
    });
    expect(value.big).toContain('over the line cap of 1,000,000 bytes (--max-line-bytes <bytes> raises it)');
    expect(value.ping.result).toEqual({});
  });

  it('a client line over the line cap with its id last (as the SDK’s Client writes it): its request gets the error', async () => {
    const { value } = await withProxy(['--max-line-bytes', '1000000', '--', node, WIRE_SERVER], async (p) => {
      await p.initialize();
      p.send(`{"method":"tools/call","params":{"name":"echo","arguments":{"text":"${'y'.repeat(2_000_000)}"}},"jsonrpc":"2.0","id":9}`);
      return errorOf((await p.until(9, 20_000)).message);
    });
    expect(value).toContain('a line from the client is over the line cap of 1,000,000 bytes (--max-line-bytes <bytes> raises it); it was not sent to the server');
  });

  it('one tools/list page over the page cap: the client’s tools/list gets an error naming it', async () => {
    const { value } = await withProxy(['--max-page-bytes', '100000', '--', node, HOSTILE, '--page-bytes', '300000'], async (p) => {
      await p.initialize();
      p.send('{"jsonrpc":"2.0","id":1,"method":"tools/list"}');
      return errorOf((await p.until(1, 20_000)).message);
    });
    expect(value).toMatch(/page 1 of .*tools\/list is [\d,]+ bytes, which is over the tools\/list page cap of 100,000 bytes \(--max-page-bytes <bytes> raises it\)/);
  });

  it('a cursor loop: stops at the list cap, naming it, after a handful of pages', async () => {
    const count = join(dir, 'loop.count');
    const { value } = await withProxy(['--max-list-bytes', '1000000', '--', node, HOSTILE, '--page-bytes', '300000', '--endless-cursor', '--count', count], async (p) => {
      await p.initialize();
      p.send('{"jsonrpc":"2.0","id":1,"method":"tools/list"}');
      return errorOf((await p.until(1, 20_000)).message);
    });
    expect(value).toMatch(/over the tools\/list total cap of 1,000,000 bytes \(--max-list-bytes <bytes> raises it\)/);
    expect(value).toContain('the server gives another cursor');
    // 300 kB pages: the 4th passes 1 MB.
    expect(listRequests(count)).toBeLessThanOrEqual(5);
  });

  it('defaults: a cursor loop of 2 MB pages stops at the 128 MiB list cap (1 MB pages reached 2.1 GB before)', async () => {
    const count = join(dir, 'default-loop.count');
    const { value } = await withProxy(['--', node, HOSTILE, '--page-bytes', '2000000', '--endless-cursor', '--count', count], async (p) => {
      await p.initialize();
      p.send('{"jsonrpc":"2.0","id":1,"method":"tools/list"}');
      return errorOf((await p.until(1, 60_000)).message);
    });
    expect(value).toContain('over the tools/list total cap of 134,217,728 bytes (--max-list-bytes <bytes> raises it)');
    // 128 MiB of ~2 MB pages: 68 pages at most (the page count, 1000, let 2 GB through).
    expect(listRequests(count)).toBeLessThanOrEqual(70);
  }, 90_000);

  it('a tools/call answer over the result cap: an error naming it instead', async () => {
    const { value } = await withProxy(['--max-result-bytes', '100000', '--', node, WIRE_SERVER, '--big-bytes', '300000'], async (p) => {
      await p.initialize();
      p.send('{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"big","arguments":{}}}');
      const big = errorOf((await p.until(3)).message);
      p.send('{"jsonrpc":"2.0","id":4,"method":"ping"}');
      await p.until(4);
      return big;
    });
    expect(value).toMatch(/the answer of `big` is [\d,]+ bytes, which is over the result cap of 100,000 bytes \(--max-result-bytes <bytes> raises it\)/);
  });

  it('a cap below 1024 bytes is refused as a usage error', async () => {
    const p = new ProxyProcess(['--max-line-bytes', '10', '--', node, WIRE_SERVER]);
    expect(await p.closed).toBe(2);
    expect(p.stderr).toContain('--max-line-bytes must be a whole number of bytes, at least 1024');
  });
});

async function listen(handler: (req: IncomingMessage, body: string, res: ServerResponse) => void): Promise<string> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString('utf8')));
    req.on('end', () => handler(req, body, res));
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

const INIT_RESULT = { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'http-caps', version: '1' } };

describe('--url: line caps on bodies and events, and the event stream’s reconnection', () => {
  it('a JSON body and an SSE event over the line cap fail their request, naming the cap', async () => {
    const url = await listen((req, body, res) => {
      if (req.method !== 'POST') return void res.writeHead(405).end();
      const msg = JSON.parse(body) as { id?: number; method: string; params?: { name?: string } };
      if (msg.id === undefined) return void res.writeHead(202).end();
      if (msg.method === 'initialize') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: INIT_RESULT }));
      const big = { jsonrpc: '2.0', id: msg.id, result: { content: [{ type: 'text', text: 'x'.repeat(200_000) }] } };
      if (msg.params?.name === 'sse') res.writeHead(200, { 'content-type': 'text/event-stream' }).end(`data: ${JSON.stringify(big)}\n\n`);
      else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(big));
    });
    const { value } = await withProxy(['--url', url, '--max-line-bytes', '100000'], async (p) => {
      p.send(INIT);
      await p.until(0);
      p.send(INITIALIZED);
      p.send('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"json","arguments":{}}}');
      const json = errorOf((await p.until(1)).message);
      p.send('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"sse","arguments":{}}}');
      const sse = errorOf((await p.until(2)).message);
      return { json, sse };
    });
    expect(value.json).toContain('over the line cap of 100,000 bytes (--max-line-bytes <bytes> raises it)');
    expect(value.sse).toContain('over the line cap of 100,000 bytes (--max-line-bytes <bytes> raises it)');
  });

  it('a `retry: 0` event stream that ends at once is reconnected at most a few times in 3.5 s (about 700 before)', async () => {
    const gets = join(dir, 'gets.count');
    const url = await listen((req, body, res) => {
      if (req.method === 'GET') {
        appendFileSync(gets, 'get\n');
        return void res.writeHead(200, { 'content-type': 'text/event-stream' }).end('retry: 0\n\n');
      }
      if (req.method !== 'POST') return void res.writeHead(405).end();
      const msg = JSON.parse(body) as { id?: number; method: string };
      if (msg.id === undefined) return void res.writeHead(202).end();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: msg.method === 'initialize' ? INIT_RESULT : {} }));
    });
    await withProxy(['--url', url], async (p) => {
      p.send(INIT);
      await p.until(0);
      p.send(INITIALIZED);
      await new Promise((r) => setTimeout(r, 3500));
    });
    // Floor 1 s, then 2 s, 4 s …: the first GET and at most 2 reconnections fit in 3.5 s; 5 leaves room.
    const n = listRequests(gets);
    expect(n).toBeGreaterThanOrEqual(1);
    expect(n).toBeLessThanOrEqual(5);
  });
});

describe('the pure parts', () => {
  it('reconnectDelay: the server’s retry with a 1 s floor, doubled per unproductive try, capped at 30 s, given up after 8', () => {
    // Hand-computed from the rule in docs/proxy.md (Security): floor 1000 ms, ×2 per try, cap 30 000 ms, 8 tries.
    expect([0, 1, 2, 3, 4, 5, 6, 7, 8].map((n) => reconnectDelay(n, 0))).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000, undefined]);
    expect(reconnectDelay(0, 5000)).toBe(5000);
    expect(reconnectDelay(1, 5000)).toBe(10000);
    expect(reconnectDelay(0, undefined)).toBe(1000);
  });

  it('leadingId reads the id of a cut response by parsing, and never takes a request’s id', () => {
    expect(leadingId('{"jsonrpc":"2.0","id":5,"result":{"content":[{"text":"aaaa')).toBe(5);
    expect(leadingId('{"id":"a\\"b","result":"')).toBe('a"b');
    expect(leadingId('{"result":{"x":"\\"id\\":9"},"id":7,"jsonrpc":"2.0"}')).toBe(7);
    expect(leadingId('{"result":{"x":"\\"id\\":9, more')).toBeUndefined();
    expect(leadingId('{"jsonrpc":"2.0","method":"sampling/createMessage","id":3,"params":{"x":"')).toBeUndefined();
    expect(leadingId('[{"id":1,')).toBeUndefined();
    // A client's line: the id of a request (a method read too), never of the client's answer to the server.
    expect(leadingId('{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"x":"', 'request')).toBe(9);
    expect(leadingId('{"jsonrpc":"2.0","id":9,"result":{"x":"', 'request')).toBeUndefined();
  });

  it('trailingId reads the id the SDK writes last, only for the kind the first bytes show', () => {
    const head = '{"result":{"content":[{"type":"text","text":"aaaa';
    expect(trailingId(head, 'aaaa"}]},"jsonrpc":"2.0","id":5}')).toBe(5);
    expect(trailingId(head, 'aa"}]},"jsonrpc":"2.0","id" : "a\\"b" }\r')).toBe('a"b');
    expect(trailingId(head, 'a\\",\\"id\\":7}"}]},"jsonrpc":"2.0","id":-1}')).toBe(-1);
    // The last member is not `id` (a string that only ends like one), or the message is cut: no id.
    expect(trailingId(head, 'aa\\",\\"id\\":7}"}]},"jsonrpc":"2.0"}')).toBeUndefined();
    expect(trailingId(head, ',"id":7}')).toBe(7);
    expect(trailingId(head, '"id":7}')).toBeUndefined();
    expect(trailingId(head, 'aaaa')).toBeUndefined();
    expect(trailingId(head, '"}]},"id":{"x":1}}')).toBeUndefined();
    // A server's own request is no answer; a client's line is a request only with a `method` in its first bytes.
    expect(trailingId('{"method":"sampling/createMessage","params":{"x":"', '"}},"jsonrpc":"2.0","id":3}')).toBeUndefined();
    expect(trailingId('{"method":"tools/call","params":{"x":"', '"}},"jsonrpc":"2.0","id":3}', 'request')).toBe(3);
    expect(trailingId('{"result":{"x":"', '"}},"jsonrpc":"2.0","id":3}', 'request')).toBeUndefined();
  });
});
