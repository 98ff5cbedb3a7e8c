/**
 * Instructions are delivered or the run refuses: text that a step (promote-common-params, --preset max)
 * moves out of the tools reaches the client in the initialize result's instructions. Through the built
 * binary with the SDK Client; what should arrive is computed independently with transformTools.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { transformTools } from '../../src/api.js';
import { BIN, ROOT, requireBuild, waitFor } from './helpers.js';
import { INIT, node, ProxyProcess, readWireLog, WIRE_SERVER } from './proxy-helpers.js';
import { tempDir } from '../helpers/temp.js';

const SHARED = join(ROOT, 'test', 'servers', 'shared-params-tools.json');
const CHANGED = join(ROOT, 'test', 'servers', 'shared-params-tools-changed.json');
const shared = JSON.parse(readFileSync(SHARED, 'utf8'));
const changedTools = JSON.parse(readFileSync(CHANGED, 'utf8'));
const dir = tempDir('toolslim-instr-');

beforeAll(() => requireBuild());

async function connect(args: string[]) {
  const transport = new StdioClientTransport({ command: node, args: [BIN, 'proxy', ...args], stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = new Client({ name: 'instr-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

describe('proxy --preset max: the promoted descriptions reach the client', () => {
  const expected = transformTools(shared, { transforms: ['max'] });

  it('appends them to the server’s instructions, before the client gets initialize', async () => {
    expect(expected.instructions).toContain('"workspace": The workspace slug, as it appears in the URL after /w/');
    const log = join(dir, 'wire.log');
    const { client, stderr } = await connect(['--preset', 'max', '--', node, WIRE_SERVER, '--tools', SHARED, '--instructions', 'Wire server docs.', '--refuse-early', '--log', log]);
    try {
      expect(client.getInstructions()).toBe(`Wire server docs.\n\n${expected.instructions}`);
      const { tools } = await client.listTools();
      expect(tools).toEqual(expected.tools);
      expect(JSON.stringify(tools)).not.toContain('The workspace slug');
      expect(await client.callTool({ name: 'get_issue', arguments: { workspace: 'acme', id: 3 } })).toEqual({ content: [{ type: 'text', text: '{"workspace":"acme","id":3}' }] });
    } finally {
      await client.close();
    }
    // The server (which refuses requests before notifications/initialized) was told once, before tools/list.
    const { sent } = readWireLog(log);
    const methods = sent.map((l) => JSON.parse(l).method);
    expect(methods.filter((m) => m === 'notifications/initialized')).toHaveLength(1);
    expect(methods.indexOf('notifications/initialized')).toBeLessThan(methods.indexOf('tools/list'));
    expect(stderr()).toBe('');
  });

  it('without instructions of the server’s own, they are the instructions', async () => {
    const { client } = await connect(['--preset', 'max', '--', node, WIRE_SERVER, '--tools', SHARED]);
    try {
      expect(client.getInstructions()).toBe(expected.instructions);
    } finally {
      await client.close();
    }
  });

  it('the initialize result keeps every other byte', async () => {
    const log = join(dir, 'bytes.log');
    const p = new ProxyProcess(['--preset', 'max', '--', node, WIRE_SERVER, '--tools', SHARED, '--instructions', 'Docs', '--log', log]);
    const line = await p.initialize();
    const original = readWireLog(log).received.find((l) => l.includes('"serverInfo"'))!;
    expect(line).toBe(original.replace('"instructions":"Docs"', `"instructions":${JSON.stringify(`Docs\n\n${expected.instructions}`)}`));
    p.end();
    expect(await p.closed).toBe(0);
  });

  it('after list_changed, a list that needs other instructions is served without the step, and stderr says so', async () => {
    const { client, stderr } = await connect(['--preset', 'max', '--', node, WIRE_SERVER, '--tools', SHARED, '--change-tools', CHANGED]);
    const changed: number[] = [];
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changed.push(1));
    try {
      await client.callTool({ name: 'change', arguments: {} });
      await waitFor(() => changed.length === 1, 5000, 'list_changed');
      const { tools } = await client.listTools();
      const withoutPromote = transformTools(changedTools, { transforms: [['max', { overrides: { 'promote-common-params': false } }]] });
      expect(tools).toEqual(withoutPromote.tools);
      expect(JSON.stringify(tools)).toContain('as it appears in the address after /workspaces/');
      await waitFor(() => stderr().includes('promote-common-params:'), 5000, 'the stderr line');
      expect(stderr()).toContain('toolslim proxy: promote-common-params: this list needs server instructions that differ from those the client got with initialize, which cannot be sent again; serving it without promote-common-params (restart the client to get them)');
    } finally {
      await client.close();
    }
  });

  it('a server whose tools/list fails: initialize is refused with the reason, the proxy exits 1', async () => {
    const p = new ProxyProcess(['--preset', 'max', '--', node, WIRE_SERVER, '--tools', SHARED, '--list-error']);
    p.send(INIT);
    const answer = JSON.parse(await p.next());
    expect(answer.id).toBe(0);
    const message = /^`.+` answered tools\/list with an error: tools are not available right now \(-32603\); the proxy needs the tools before it answers initialize \(to put what promote-common-params moved out of them into its instructions\), so it refuses$/;
    expect(answer.error.message.replace(/^toolslim proxy: /, '')).toMatch(message);
    expect(await p.closed).toBe(1);
    expect(p.stderr.replace(/^toolslim proxy: /, '').trimEnd()).toMatch(message);
  });
});
