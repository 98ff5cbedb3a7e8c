/**
 * toolslim/mcp with the profile-tuned preset: a tool rename-tools renamed is served under its new name and
 * its calls reach the handler registered under the old one (with and without a hot set); for
 * openai-strict the nulls the conversion makes a model send for "absent" never reach the handler (whose
 * own zod schema would refuse them). The SDK on both sides (Client + InMemoryTransport); expectations by hand.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { presetForProfile } from '../../src/index.js';
import { optimizeToolsList } from '../../src/sdk/index.js';

function server(got: unknown[]) {
  const s = new McpServer({ name: 'renames', version: '1.0.0' });
  s.registerTool('2fa_login', { description: 'Log in', inputSchema: { user: z.string(), code: z.string().optional() } }, async (args) => {
    got.push({ tool: '2fa_login', args });
    return { content: [{ type: 'text', text: 'ok' }] };
  });
  s.registerTool('search', { description: 'Search', inputSchema: { q: z.string(), limit: z.number().optional() } }, async (args) => {
    got.push({ tool: 'search', args });
    return { content: [{ type: 'text', text: 'ok' }] };
  });
  return s;
}

async function connect(s: McpServer) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await s.connect(serverSide);
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

describe('optimizeToolsList with presetForProfile', () => {
  it('gemini: the renamed tool is listed under its new name and called through its own handler', async () => {
    const got: unknown[] = [];
    const s = server(got);
    optimizeToolsList(s, { transforms: presetForProfile('safe', 'gemini') });
    const client = await connect(s);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['_2fa_login', 'search']);
    const r = (await client.callTool({ name: '_2fa_login', arguments: { user: 'ann' } })) as { isError?: boolean };
    expect(r.isError).not.toBe(true);
    expect(got).toEqual([{ tool: '2fa_login', args: { user: 'ann' } }]);
    await client.close();
  });

  it('gemini with a hot set: a cold renamed tool is checked under its new name, then reaches its handler', async () => {
    const got: unknown[] = [];
    const s = server(got);
    optimizeToolsList(s, { transforms: presetForProfile('safe', 'gemini'), hotSet: { k: 0 } });
    const client = await connect(s);
    await client.listTools();
    const refused = (await client.callTool({ name: '_2fa_login', arguments: { user: 5 } })) as { isError?: boolean; content: { text: string }[] };
    expect(refused.isError).toBe(true);
    expect(refused.content[0]!.text.split('\n')[0]).toBe('toolslim did not call `_2fa_login`: invalid arguments.');
    await client.callTool({ name: '_2fa_login', arguments: { user: 'bo', code: '1' } });
    expect(got).toEqual([{ tool: '2fa_login', args: { user: 'bo', code: '1' } }]);
    await client.close();
  });

  it('openai-strict: nulls for the optional properties never reach the handler', async () => {
    const got: unknown[] = [];
    const s = server(got);
    optimizeToolsList(s, { transforms: presetForProfile('safe', 'openai-strict') });
    const client = await connect(s);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['2fa_login', 'search']);
    expect(tools[1]!.inputSchema.required).toEqual(['q', 'limit']);
    const r = (await client.callTool({ name: 'search', arguments: { q: 'x', limit: null } })) as { isError?: boolean };
    expect(r.isError).not.toBe(true);
    await client.callTool({ name: '2fa_login', arguments: { user: 'ann', code: null } });
    expect(got).toEqual([
      { tool: 'search', args: { q: 'x' } },
      { tool: '2fa_login', args: { user: 'ann' } },
    ]);
    await client.close();
  });
});
