/**
 * A tuple in an output schema, read by the official TypeScript SDK's `Client` with its default validator (a
 * draft-07 Ajv, which checks every `structuredContent` against the tool's `outputSchema`). Found as a user:
 * @mapbox/mcp-server's zod tuples (`items: [...]`, `additionalItems: false`, stamped draft-07) were served
 * as 2020-12's `prefixItems` with `items: false`, which that reader reads as "no items at all": every valid
 * result failed with "Structured content does not match the tool's output schema". The default preset now
 * leaves such an output schema as it is (the model never reads it); the input schema is still converted.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { transformTools, type McpTool } from '../src/index.js';
import { deepFreeze, jsonClone } from './helpers/freeze.js';

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';
const bbox = { type: 'array', items: [{ type: 'number' }, { type: 'number' }, { type: 'number' }, { type: 'number' }], additionalItems: false, minItems: 4, maxItems: 4 };
const TOOL: McpTool = {
  name: 'bbox_tool',
  description: 'The bounding box of a geometry',
  inputSchema: { $schema: DRAFT_07, type: 'object', properties: { point: { type: 'array', items: [{ type: 'number' }, { type: 'number' }], additionalItems: false } }, required: ['point'] },
  outputSchema: { $schema: DRAFT_07, type: 'object', properties: { bbox }, required: ['bbox'], additionalProperties: false },
};

async function callThrough(tools: readonly McpTool[], structured: unknown): Promise<unknown> {
  const server = new Server({ name: 'tuples', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: jsonClone(tools) as never }));
  server.setRequestHandler(CallToolRequestSchema, async () => ({ content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured as Record<string, unknown> }));
  const client = new Client({ name: 'test', version: '1.0.0' });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  await client.connect(clientTransport);
  try {
    await client.listTools();
    return await client.callTool({ name: 'bbox_tool', arguments: { point: [1, 2] } });
  } finally {
    await client.close();
    await server.close();
  }
}

describe('an output schema with tuples, through the default preset, to the SDK client', () => {
  it('is left as it is, so that a valid result still passes the client; the input schema is still converted', async () => {
    const { tools, report } = transformTools(deepFreeze([jsonClone(TOOL)]));
    expect(tools[0]!.outputSchema).toEqual(TOOL.outputSchema);
    expect(report.diagnostics.map((d) => [d.code, d.path])).toContainEqual(['kept-output-tuples', '/0/outputSchema']);
    expect(tools[0]!.inputSchema).toEqual({ type: 'object', properties: { point: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }], items: false } }, required: ['point'] });
    const valid = { bbox: [0, 0, 2, 1] };
    // The server as it is, and as served: the client accepts the valid result both ways.
    await expect(callThrough([TOOL], valid)).resolves.toMatchObject({ structuredContent: valid });
    await expect(callThrough(tools, valid)).resolves.toMatchObject({ structuredContent: valid });
    // And still refuses an invalid one (three numbers where the tuple has four).
    await expect(callThrough(tools, { bbox: [0, 0, 2] })).rejects.toThrow(/output schema/i);
  });
});
