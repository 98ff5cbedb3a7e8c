/**
 * A server author's view: register tools as usual, add one line, and `tools/list` answers with the
 * optimized tools. `tools/call` is untouched. Here a client connects in memory to show what it sees;
 * a real server would `connect(new StdioServerTransport())` instead.
 *
 *   npx tsx examples/server-registration.ts
 *
 * An ES module (top-level `await`): in your project an `.mjs`/`.mts` file or `"type": "module"`.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { optimizeToolsList } from 'toolslim/mcp';

const server = new McpServer({ name: 'weather', version: '1.0.0' });

const Place = z.object({ city: z.string().describe('City name'), country: z.string().length(2).describe('ISO 3166 country code').optional() });

server.registerTool(
  'get_forecast',
  {
    description: 'Daily forecast for a place',
    inputSchema: { place: Place, days: z.number().int().min(1).max(7).describe('How many days, 1–7') },
  },
  async ({ place, days }) => ({ content: [{ type: 'text', text: `Forecast for ${place.city}: ${days} day(s) of sunshine` }] }),
);

server.registerTool(
  'get_alerts',
  { description: 'Weather alerts for a place', inputSchema: { place: Place } },
  async ({ place }) => ({ content: [{ type: 'text', text: `No alerts for ${place.city}` }] }),
);

// The one line: computed once per change of the tool set, cached in between.
const optimizer = optimizeToolsList(server, {
  onResult: ({ report }) => console.log(`optimized ${report.stats.tools.length} tools: ${report.stats.before.bytes} → ${report.stats.after.bytes} bytes`),
});

const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
await server.connect(serverSide);
const client = new Client({ name: 'example-client', version: '1.0.0' });
await client.connect(clientSide);

const { tools } = await client.listTools();
console.log(`tools/list: ${tools.map((t) => t.name).join(', ')}`);
await client.listTools();
console.log(`optimized ${optimizer.computations} time(s) for 2 listings`);

const result = await client.callTool({ name: 'get_forecast', arguments: { place: { city: 'Paris', country: 'FR' }, days: 2 } });
console.log(`tools/call get_forecast: ${(result.content as { text: string }[])[0]!.text}`);

server.registerTool('get_uv_index', { description: 'UV index for a place', inputSchema: { place: Place } }, async () => ({ content: [{ type: 'text', text: 'UV 3' }] }));
console.log(`after registering one more: ${(await client.listTools()).tools.map((t) => t.name).join(', ')}`);
console.log(`optimized ${optimizer.computations} time(s)`);

await client.close();
await server.close();
