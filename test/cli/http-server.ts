/**
 * A streamable HTTP MCP server for the proxy tests: the official SDK's StreamableHTTPServerTransport
 * (stateful, one transport per session) and its low-level Server, serving the demo tools in pages.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListRootsResultSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { ROOT } from './helpers.js';

export interface TestHttpServer {
  readonly url: string;
  /** Request headers of every HTTP request, with its method. */
  readonly requests: { method: string; headers: IncomingHttpHeaders }[];
  /** Sessions ended by DELETE. */
  readonly closedSessions: string[];
  /** Forgets every session, as a restarted server does: later requests with their ids get 404. */
  forgetSessions(): Promise<void>;
  close(): Promise<void>;
}

export interface HttpServerOptions {
  readonly pages?: number;
  readonly tools?: Record<string, unknown>[];
  readonly instructions?: string;
  readonly listChanged?: boolean;
}

export async function startHttpServer(options: HttpServerOptions = {}): Promise<TestHttpServer> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const requests: TestHttpServer['requests'] = [];
  const closedSessions: string[] = [];

  const makeServer = () => {
    const tools: Record<string, unknown>[] = structuredClone(options.tools ?? JSON.parse(readFileSync(join(ROOT, 'test', 'servers', 'demo-tools.json'), 'utf8')));
    const server = new Server(
      { name: 'http-demo', version: '2.0.0' },
      { capabilities: { tools: options.listChanged ? { listChanged: true } : {}, logging: {} }, instructions: options.instructions ?? 'HTTP demo server' },
    );
    server.setRequestHandler(ListToolsRequestSchema, async (request) => {
      const size = options.pages ?? 0;
      if (!size) return { tools } as never;
      const start = Number(request.params?.cursor ?? 0);
      const next = start + size < tools.length ? String(start + size) : undefined;
      return (next === undefined ? { tools: tools.slice(start, start + size) } : { tools: tools.slice(start, start + size), nextCursor: next }) as never;
    });
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const { name, arguments: args = {} } = request.params;
      switch (name) {
        case 'roots': {
          const roots = await extra.sendRequest({ method: 'roots/list' }, ListRootsResultSchema);
          return { content: [{ type: 'text', text: JSON.stringify(roots.roots) }] };
        }
        case 'log':
          await extra.sendNotification({ method: 'notifications/message', params: { level: 'info', data: 'working on it' } });
          return { content: [{ type: 'text', text: 'logged' }] };
        case 'add_tool':
          tools.push({ name: 'late_tool', description: 'Added by add_tool', inputSchema: { type: 'object', properties: { n: { type: 'number' } } } });
          setTimeout(() => void server.sendToolListChanged(), 20);
          return { content: [{ type: 'text', text: 'added late_tool' }] };
        default:
          return { content: [{ type: 'text', text: JSON.stringify(args) }] };
      }
    });
    return server;
  };

  const http: HttpServer = createServer(async (req, res) => {
    requests.push({ method: req.method ?? '', headers: req.headers });
    const sid = req.headers['mcp-session-id'];
    const existing = typeof sid === 'string' ? transports.get(sid) : undefined;
    if (existing) {
      await existing.handleRequest(req, res);
      return;
    }
    if (req.method === 'POST' && sid === undefined) {
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void transports.set(id, transport),
        onsessionclosed: (id) => {
          closedSessions.push(id);
          transports.delete(id);
        },
      });
      await makeServer().connect(transport);
      await transport.handleRequest(req, res);
      return;
    }
    res.writeHead(404, { 'content-type': 'text/html' }).end('<html><body><h1>404</h1><p>No such session</p></body></html>');
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const port = (http.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    requests,
    closedSessions,
    forgetSessions: async () => {
      const open = [...transports.values()];
      transports.clear();
      for (const t of open) await t.close().catch(() => {});
    },
    close: async () => {
      for (const t of transports.values()) await t.close().catch(() => {});
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
