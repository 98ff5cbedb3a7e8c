/**
 * Overlays: `optimize --overlay` writes one, `proxy --overlay` serves it and compares the live list with
 * its pin at start and after every list_changed; drift is refused (exit 1) unless --on-drift says
 * otherwise; foreign overlays are refused. Through the built binary; expected tools come from
 * transformTools on the hand-written tool files.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { transformTools } from '../../src/api.js';
import { parseOverlay } from '../../src/session/overlay.js';
import { BIN, ROOT, requireBuild, run, SERVER } from './helpers.js';
import { INIT, node, ProxyProcess, WIRE_SERVER } from './proxy-helpers.js';
import { tempDir } from '../helpers/temp.js';

const SHARED = join(ROOT, 'test', 'servers', 'shared-params-tools.json');
const CHANGED = join(ROOT, 'test', 'servers', 'shared-params-tools-changed.json');
const NUMBERS = join(ROOT, 'test', 'data', 'proxy', 'numbers-list.json');
const shared = JSON.parse(readFileSync(SHARED, 'utf8'));
const changedTools = JSON.parse(readFileSync(CHANGED, 'utf8'));
const expected = transformTools(shared, { transforms: ['max'] });
const dir = tempDir('toolslim-overlay-');
const overlayFile = join(dir, 'overlay.json');
const server = [node, WIRE_SERVER, '--tools', SHARED, '--instructions', 'Docs.'];
const list = (id: unknown) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list' });

beforeAll(async () => {
  requireBuild();
  const r = await run(['optimize', '--overlay', overlayFile, '--preset', 'max', '--', ...server]);
  if (r.code !== 0) throw new Error(r.stderr);
});

describe('optimize --overlay', () => {
  it('writes the optimized tools, the instructions, a pin and the rebuild command, and says how to serve it', async () => {
    const overlay = parseOverlay(JSON.parse(readFileSync(overlayFile, 'utf8')), overlayFile);
    expect(overlay.tools).toEqual(expected.tools);
    expect(overlay.instructions).toBe(expected.instructions);
    expect(overlay.pin.tools.map((t) => t.name)).toEqual(['list_issues', 'get_issue', 'close_issue']);
    expect(overlay.server).toEqual({ name: 'wire-server', version: '0.0.1' });
    expect(overlay.rebuild).toBe(`toolslim optimize --overlay ${overlayFile} --preset max -- ${server.join(' ')}`);
    expect(overlay.steps.map((s) => s.transform)).toContain('promote-common-params');
    const again = await run(['optimize', '--overlay', join(dir, 'again.json'), '--preset', 'max', '--', ...server]);
    expect(again.stderr).toContain(`toolslim: review it, then serve it: toolslim proxy --overlay ${join(dir, 'again.json')} -- ${server.join(' ')}\n`);
    expect(again.stderr).toContain('it is in the overlay\'s "instructions", and toolslim proxy --overlay appends it to the initialize result');
  });

  it('keeps the tools as the input wrote them where no step changed them', async () => {
    const out = join(dir, 'numbers-overlay.json');
    const r = await run(['optimize', '--overlay', out, NUMBERS]);
    expect(r.code).toBe(0);
    const text = readFileSync(out, 'utf8');
    expect(text).toContain('"minimum": 1.0');
    expect(text).toContain('"maximum": 1e2');
    expect(text).toContain('"maximum": 9223372036854775807');
    expect(text).toContain('"multipleOf": 0.50');
  });

  it('refuses -o with --overlay, and --drop-unreadable without it', async () => {
    expect((await run(['optimize', SHARED, '--overlay', join(dir, 'x.json'), '-o', join(dir, 'y.json')])).stderr).toContain('give either -o <file> (the optimized tools) or --overlay <file>');
    expect((await run(['optimize', SHARED, '--drop-unreadable'])).stderr).toContain('--drop-unreadable goes with --overlay <file>');
  });
});

describe('proxy --overlay', () => {
  it('serves the overlay’s tools and delivers its instructions (SDK client)', async () => {
    const transport = new StdioClientTransport({ command: node, args: [BIN, 'proxy', '--overlay', overlayFile, '--', ...server], stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const client = new Client({ name: 'overlay-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      expect(client.getInstructions()).toBe(`Docs.\n\n${expected.instructions}`);
      expect((await client.listTools()).tools).toEqual(expected.tools);
      expect(await client.callTool({ name: 'get_issue', arguments: { workspace: 'w', id: 1 } })).toEqual({ content: [{ type: 'text', text: '{"workspace":"w","id":1}' }] });
    } finally {
      await client.close();
    }
    expect(stderr).toBe('');
  });

  it('serves the overlay file’s number lexemes', async () => {
    const out = join(dir, 'numbers-overlay.json');
    if (!existsSync(out)) await run(['optimize', '--overlay', out, NUMBERS]);
    const p = new ProxyProcess(['--overlay', out, '--', node, WIRE_SERVER, '--list-text', NUMBERS]);
    await p.initialize();
    p.send(list(1));
    const line = await p.next();
    expect(line).toContain('"minimum":1.0,"maximum":1e2,"default":-0');
    expect(line).toContain('"maximum":9223372036854775807');
    expect(line).toContain('"_meta":{"page":1.0}');
    p.end();
    expect(await p.closed).toBe(0);
  });

  it('drift after list_changed: refused, exit 1, each changed tool and the rebuild command named', async () => {
    const p = new ProxyProcess(['--overlay', overlayFile, '--', ...server, '--change-tools', CHANGED]);
    await p.initialize();
    p.send(list(1));
    expect(JSON.parse(await p.next()).result.tools).toEqual(expected.tools);
    p.send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'change', arguments: {} } }));
    expect(await p.closed).toBe(1);
    expect(p.stderr).toContain(`toolslim proxy: the server's tools differ from ${overlayFile} (pinned by toolslim `);
    expect(p.stderr).toContain('  changed: `list_issues`, `get_issue`, `close_issue`\n');
    // The hint is the proxy's own (the file in use, this command), not the overlay's `rebuild` member (issue 26 item 11).
    expect(p.stderr).toContain(`Review what changed, then rebuild the overlay: toolslim optimize --overlay ${overlayFile} --preset … -- ${[...server, '--change-tools', CHANGED].join(' ')}\n`);
    expect(p.stderr).toContain('(--on-drift refuse, the default; --on-drift reoptimize or passthrough serve the live list anyway)');
  });

  it('drift at start: the client’s initialize gets the reason as an error, exit 1', async () => {
    const p = new ProxyProcess(['--overlay', overlayFile, '--', node, WIRE_SERVER, '--tools', CHANGED]);
    p.send(INIT);
    const answer = JSON.parse(await p.next());
    expect(answer.id).toBe(0);
    expect(answer.error.message).toContain("the server's tools differ from");
    expect(answer.error.message).toContain('changed: `list_issues`');
    expect(await p.closed).toBe(1);
  });

  it('--on-drift reoptimize serves the live list through the overlay’s steps; passthrough serves it as it came', async () => {
    const re = new ProxyProcess(['--overlay', overlayFile, '--on-drift', 'reoptimize', '--', node, WIRE_SERVER, '--tools', CHANGED]);
    const init = JSON.parse(await re.initialize());
    const live = transformTools(changedTools, { transforms: ['max'] });
    expect(init.result.instructions).toBe(live.instructions);
    re.send(list(1));
    expect(JSON.parse(await re.next()).result.tools).toEqual(live.tools);
    re.end();
    expect(await re.closed).toBe(0);
    expect(re.stderr).toContain("--on-drift reoptimize: serving the live list through the overlay's steps");

    const pass = new ProxyProcess(['--overlay', overlayFile, '--on-drift', 'passthrough', '--', node, WIRE_SERVER, '--tools', CHANGED]);
    const init2 = JSON.parse(await pass.initialize());
    expect(init2.result.instructions).toBeUndefined();
    pass.send(list(1));
    expect(JSON.parse(await pass.next()).result).toEqual({ tools: changedTools });
    pass.end();
    expect(await pass.closed).toBe(0);
    expect(pass.stderr).toContain("--on-drift passthrough: serving the server's list as it came");
  });

  it('refuses what is not an overlay, an overlay of another major, and another server’s overlay', async () => {
    const notOverlay = await run(['proxy', '--overlay', SHARED, '--', node, SERVER]);
    expect(notOverlay.code).toBe(2);
    expect(notOverlay.stderr).toContain(`${SHARED}: not a toolslim overlay (no \`toolslimOverlay\` member)`);
    const old = join(dir, 'old.json');
    writeFileSync(old, JSON.stringify({ ...JSON.parse(readFileSync(overlayFile, 'utf8')), toolslimVersion: '99.0.0' }));
    const other = await run(['proxy', '--overlay', old, '--', node, SERVER]);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('written by toolslim 99.0.0 (major 99)');
    // The demo server is not the one the overlay was made for.
    const p = new ProxyProcess(['--overlay', overlayFile, '--', node, SERVER]);
    p.send(INIT);
    const answer = JSON.parse(await p.next());
    expect(answer.error.message).toBe(`toolslim proxy: ${overlayFile} was made for the server \`wire-server\` 0.0.1, and this server is \`demo-server\` 1.2.3: it is another server's overlay; build one for this server: toolslim optimize --overlay ${overlayFile} --preset … -- ${node} ${SERVER}`);
    expect(await p.closed).toBe(1);
    expect((await run(['proxy', '--overlay', overlayFile, '--preset', 'max', '--', node, SERVER])).stderr).toContain('--overlay serves the overlay as it was built');
  });
});
