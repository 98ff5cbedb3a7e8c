#!/usr/bin/env node
// An MCP server over stdio for the rename and null-stripping tests of `toolslim proxy --profile`, built with
// the official SDK's low-level Server. Its tools have names some clients refuse (a leading digit, 71
// characters) and optional properties (which openai-strict's conversion makes required and nullable).
// Every call is answered with what the server received: `{"name": …, "arguments": …}` as the text.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const LONG = 'TwilioMessagingV1--FetchLinkshorteningMessagingServiceDomainAssociation';
const tools = [
  {
    name: '2fa_login',
    description: 'Log in with a one-time code',
    inputSchema: { type: 'object', properties: { user: { type: 'string' }, code: { type: 'string' } }, required: ['user'] },
  },
  {
    name: LONG,
    description: 'Fetch a domain association',
    inputSchema: { type: 'object', properties: { sid: { type: 'string' } }, required: ['sid'] },
  },
  {
    name: 'search',
    description: 'Search things',
    inputSchema: {
      type: 'object',
      properties: {
        q: { type: 'string' },
        filter: { type: 'object', properties: { tag: { type: 'string' }, limit: { type: 'integer' } }, required: ['tag'] },
        tags: { type: 'array', items: { type: 'object', properties: { k: { type: 'string' }, v: { type: 'string' } }, required: ['k'] } },
        note: { type: ['string', 'null'] },
      },
      required: ['q'],
    },
  },
];
const names = new Set(tools.map((t) => t.name));

const server = new Server({ name: 'names-server', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const { name, arguments: args } = request.params;
  if (!names.has(name)) return { isError: true, content: [{ type: 'text', text: `unknown tool ${name}` }] };
  return { content: [{ type: 'text', text: JSON.stringify({ name, arguments: args }) }] };
});
await server.connect(new StdioServerTransport());
