#!/usr/bin/env node
// An MCP server over stdio whose tools return lists of records in every shape the response policies
// meet (and the shapes they must leave alone), for the proxy's --project / --response-budget tests.
// Built with the official SDK's low-level Server. Deterministic: no clock, no randomness.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const CATEGORIES = ['bug', 'feature', 'docs', 'question'];
/** ~110 KB of compact JSON: 365 issues with a body, labels, an owner. */
function items(n = 365, from = 0) {
  return Array.from({ length: n }, (_, k) => {
    const i = from + k;
    return {
      id: i + 1,
      title: `Issue number ${i + 1}: ${CATEGORIES[i % 4]} about the ${['parser', 'renderer', 'proxy', 'cli', 'docs'][i % 5]}`,
      category: CATEGORIES[i % 4],
      owner: { login: `user${i % 17}`, id: 1000 + (i % 17), site_admin: i % 17 === 0 },
      labels: [{ name: CATEGORIES[i % 4], color: 'ededed' }],
      body: `Steps to reproduce ${i + 1}: ` + 'lorem ipsum dolor sit amet '.repeat(2 + (i % 3)) + 'é✓',
    };
  });
}

let calls = 0;
const text = (value) => ({ content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) }] });
const obj = (properties = {}) => ({ type: 'object', properties });

const TOOLS = [
  { name: 'list_items', description: 'List issues.', inputSchema: obj({ query: { type: 'string' } }) },
  { name: 'list_paged', description: 'List issues (has its own page).', inputSchema: obj({ page: { type: 'string', description: 'the server’s own cursor' } }) },
  { name: 'wrapped', description: 'Issues in structuredContent.', inputSchema: obj(), outputSchema: { type: 'object', properties: { total: { type: 'integer' }, items: { type: 'array' } }, required: ['total', 'items'] } },
  { name: 'big_record', description: 'One record is large.', inputSchema: obj() },
  { name: 'changing', description: 'Different records on every call.', inputSchema: obj() },
  { name: 'not_json', description: 'Plain text.', inputSchema: obj() },
  { name: 'scalars', description: 'JSON that is not records.', inputSchema: obj() },
  { name: 'mixed', description: 'A record that is not an object.', inputSchema: obj() },
  { name: 'graph', description: 'Two arrays.', inputSchema: obj() },
  { name: 'failing', description: 'An error result.', inputSchema: obj() },
  { name: 'call_count', description: 'How many tools/call this server answered.', inputSchema: obj() },
];

const server = new Server({ name: 'records-server', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const { name } = request.params;
  if (name === 'call_count') return text(String(calls));
  calls++;
  switch (name) {
    case 'list_items':
    case 'list_paged':
      return text(items());
    case 'wrapped': {
      const structured = { total: 30, items: items(30) };
      return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
    }
    case 'big_record': {
      const rows = items(5);
      rows[3] = { ...rows[3], body: 'x'.repeat(5000) };
      return text(rows);
    }
    case 'changing':
      return text(items(40, calls * 1000));
    case 'not_json':
      return text('id title\n1 first\n2 second');
    case 'scalars':
      return text([1, 2, 3]);
    case 'mixed':
      return text([{ id: 1 }, 'two', { id: 3 }]);
    case 'graph':
      return text({ entities: items(3), relations: [] });
    case 'failing':
      return { isError: true, content: [{ type: 'text', text: '[{"id":1}]' }] };
    default:
      return { isError: true, content: [{ type: 'text', text: `unknown tool ${name}` }] };
  }
});
await server.connect(new StdioServerTransport());
