/**
 * Attack (issue 26, items 4 and 5), with small hand-written HTTP servers on 127.0.0.1:
 * - item 4: a redirect to another origin is refused with an error naming both origins, and that origin
 *   gets no request (so never the `-H` header); a redirect within the origin is followed. Before the fix
 *   fetch followed the redirect and sent `X-Api-Key` to the other server.
 * - item 5: a server that never answers the POST of a notification: every later message still gets its
 *   answer (the POST fails after --timeout). Before the fix the next request waited forever.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { requireBuild } from '../cli/helpers.js';
import { INIT, INITIALIZED, ProxyProcess } from '../cli/proxy-helpers.js';

beforeAll(() => requireBuild());

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

async function listen(handler: (req: IncomingMessage, body: string, res: ServerResponse) => void): Promise<string> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString('utf8')));
    req.on('end', () => handler(req, body, res));
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A minimal MCP server over HTTP: JSON answers, no session; notifications get 202 unless `hangNotifications`. */
function mcp(options: { hangNotifications?: boolean } = {}) {
  return (req: IncomingMessage, body: string, res: ServerResponse) => {
    if (req.method !== 'POST') {
      res.writeHead(405).end();
      return;
    }
    const msg = JSON.parse(body) as { id?: number; method: string };
    if (msg.id === undefined) {
      if (options.hangNotifications) return; // never answered: the connection stays open
      res.writeHead(202).end();
      return;
    }
    const result = msg.method === 'initialize' ? { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'tiny', version: '1' } } : msg.method === 'tools/list' ? { tools: [] } : {};
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result }));
  };
}

describe('proxy --url: redirects stay within the origin', () => {
  it('a 307 to another origin is refused naming both origins; that origin gets nothing', async () => {
    const seenByOther: IncomingMessage['headers'][] = [];
    const other = await listen((req, body, res) => {
      seenByOther.push(req.headers);
      mcp()(req, body, res);
    });
    const first = await listen((_req, _body, res) => res.writeHead(307, { location: `${other}/mcp` }).end());
    const p = new ProxyProcess(['--url', `${first}/mcp`, '-H', 'X-Api-Key: k-123456']);
    try {
      p.send(INIT);
      const { message } = await p.until(0);
      const text = JSON.stringify(message.error);
      expect(text).toContain(`origin ${first}`);
      expect(text).toContain(`origin ${other}`);
    } finally {
      p.end();
      await p.closed;
    }
    expect(seenByOther).toEqual([]);
  });

  it('a 307/308 within the origin is followed, keeping the method and body', async () => {
    const host = await listen((req, body, res) => {
      if (req.url === '/old') res.writeHead(308, { location: '/mcp' }).end();
      else mcp()(req, body, res);
    });
    const p = new ProxyProcess(['--url', `${host}/old`]);
    try {
      p.send(INIT);
      const { message } = await p.until(0);
      expect((message.result as { serverInfo: { name: string } }).serverInfo.name).toBe('tiny');
    } finally {
      p.end();
      await p.closed;
    }
  });
});

describe('proxy --url: every POST has a limit', () => {
  it('a notification the server never answers does not hold the messages after it', async () => {
    const host = await listen(mcp({ hangNotifications: true }));
    const p = new ProxyProcess(['--url', `${host}/mcp`, '--timeout', '1']);
    try {
      p.send(INIT);
      await p.until(0);
      p.send(INITIALIZED);
      p.send('{"jsonrpc":"2.0","id":7,"method":"ping"}');
      // Answered once the notification's POST gave up (1 s), well within the wait.
      const { message } = await p.until(7, 8000);
      expect(message.result).toEqual({});
    } finally {
      p.end();
      await p.closed;
    }
    expect(p.stderr).toMatch(/did not answer the POST of a notification within 1s/);
  });
});
