/**
 * The BUILT binary (dist/cli/bin.js) against a real MCP server started by the test
 * (test/servers/demo-server.mjs, the official SDK over stdio).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, DEMO_TOOLS, DEMO_TOOLS_OPTIMIZED, isAlive, requireBuild, run, SERVER, waitFor } from './helpers.js';
import { tempDir } from '../helpers/temp.js';

const dir = tempDir('toolslim-bin-');
const captured = join(dir, 'tools.json');
const node = process.execPath;

beforeAll(() => requireBuild());

describe('capture', () => {
  it('writes the initialize result and every page of the exact tools/list result', async () => {
    const r = await run(['capture', '-o', captured, '--', node, SERVER, '--pages', '3']);
    expect(r.stderr).toBe(`toolslim: captured 4 tools to ${captured}\n`);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    const capture = JSON.parse(readFileSync(captured, 'utf8'));
    expect(Object.keys(capture)).toEqual(['server', 'initialize', 'toolsList']);
    expect(capture.server).toMatchObject({ command: node, args: [SERVER, '--pages', '3'], pages: 2 });
    expect(capture.server.capturedWith).toMatch(/^@modelcontextprotocol\/sdk \d+\.\d+\.\d+/);
    expect(capture.initialize).toMatchObject({ capabilities: { tools: {} }, serverInfo: { name: 'demo-server', version: '1.2.3' }, instructions: 'Demo server for toolslim tests' });
    // Exactly the hand-written tools, merged from both pages, key order included.
    expect(JSON.stringify(capture.toolsList)).toBe(JSON.stringify({ tools: DEMO_TOOLS }));
  });

  it('times out with a message naming the command, and leaves no child running', async () => {
    const pidFile = join(dir, 'hung.pid');
    const script = `require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); console.error('hung-server: waiting forever'); setInterval(() => {}, 1000);`;
    const r = await run(['capture', '--timeout', '3', '-o', join(dir, 'never.json'), '--', node, '-e', script]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`toolslim capture: timed out after 3s waiting for \`${node} -e `);
    expect(r.stderr).toContain('to answer initialize (raise --timeout if the server is just slow)');
    expect(r.stderr).toContain('hung-server: waiting forever');
    expect(existsSync(join(dir, 'never.json'))).toBe(false);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    await waitFor(() => !isAlive(pid), 3000, `process ${pid} to be gone`);
  });
});

describe('report, optimize and check on the capture', () => {
  it('report: a table, largest tool first, with both tokenizers and the preset’s savings', async () => {
    const r = await run(['report', captured]);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(new RegExp(`^${escape(captured)}: 4 tools, [\\d,]+ bytes, [\\d,]+ tokens \\(o200k_base\\), [\\d,]+ tokens \\(cl100k_base\\)$`));
    const header = lines.findIndex((l) => /^ {2}tool +bytes +o200k +cl100k +bytes after +saved$/.test(l));
    expect(header).toBeGreaterThan(0);
    const sizes = DEMO_TOOLS.map((t) => [t.name as string, Buffer.byteLength(JSON.stringify(t))] as const).sort((a, b) => b[1] - a[1]);
    const rows = lines.slice(header + 2, header + 6).map((l) => l.trim().split(/\s+/));
    expect(rows.map((c) => [c[0], Number(c[1]!.replace(/,/g, ''))])).toEqual(sizes);
    expect(r.stdout).toMatch(/ {2}prune-unreachable-defs +2 +1 +[\d,]+ +[\d,]+/);
  });

  it('optimize: same envelope, unreachable definitions gone', async () => {
    const out = join(dir, 'slim.json');
    const r = await run(['optimize', captured, '-o', out]);
    expect(r.code).toBe(0);
    const before = JSON.parse(readFileSync(captured, 'utf8'));
    const after = JSON.parse(readFileSync(out, 'utf8'));
    expect(after).toEqual({ ...before, toolsList: { tools: DEMO_TOOLS_OPTIMIZED } });
  });

  it('optimize: straight from a live server', async () => {
    const r = await run(['optimize', '--', node, SERVER]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).toolsList).toEqual({ tools: DEMO_TOOLS_OPTIMIZED });
  });

  it('check: exit 0, 1 and 2', async () => {
    const ok = await run(['check', captured]);
    expect(ok.code).toBe(0);
    const failing = await run(['check', captured, '--fail-on', 'warning']);
    expect(failing.code).toBe(1);
    expect(failing.stdout).toContain('warning unreachable-def get_pet /0/inputSchema/$defs/Order');
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"tools": [\n  {"name": "x"\n]}');
    const broken = await run(['check', bad]);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toBe(`toolslim check: ${bad}: not valid JSON at line 3, column 1: unexpected \`]\` (expected \`,\` or \`}\`)\n`);
  });
});

describe('proxy', () => {
  it('serves the optimized list, forwards calls, follows list_changed, advertises only what the server does', async () => {
    const transport = new StdioClientTransport({ command: node, args: [BIN, 'proxy', '--', node, SERVER, '--pages', '3'], stderr: 'pipe' });
    const client = new Client({ name: 'proxy-test', version: '1.0.0' });
    const changed: number[] = [];
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changed.push(1);
    });
    await client.connect(transport);
    try {
      expect(client.getServerCapabilities()).toEqual({ tools: {} });
      expect(client.getServerVersion()).toEqual({ name: 'demo-server', version: '1.2.3' });
      expect(client.getInstructions()).toBe('Demo server for toolslim tests');
      const { tools, nextCursor } = await client.listTools();
      expect(nextCursor).toBeUndefined();
      expect(tools).toEqual(DEMO_TOOLS_OPTIMIZED);
      const args = { text: 'héllo "world"', extra: [1, { deep: null }] };
      expect(await client.callTool({ name: 'echo', arguments: args })).toEqual({ content: [{ type: 'text', text: JSON.stringify(args) }] });

      await client.callTool({ name: 'add_tool', arguments: {} });
      await waitFor(() => changed.length === 1, 5000, 'notifications/tools/list_changed');
      const after = (await client.listTools()).tools;
      expect(after.map((t) => t.name)).toEqual(['get_pet', 'echo', 'add_tool', 'exit_server', 'late_tool']);
      // The default preset: `n`'s description "n" only restates its name (strip-noise removes it).
      expect(after[4]!.inputSchema).toEqual({ type: 'object', properties: { n: { $ref: '#/$defs/N' } }, $defs: { N: { type: 'number' } } });
      expect(await client.callTool({ name: 'late_tool', arguments: { n: 2 } })).toEqual({ content: [{ type: 'text', text: '{"n":2}' }] });
    } finally {
      await client.close();
    }
  });

  it('forwards every other message byte for byte and exits with the server’s exit code', async () => {
    const log = join(dir, 'wire.log');
    const proxy = spawn(node, [BIN, 'proxy', '--', node, SERVER, '--log', log], { stdio: ['pipe', 'pipe', 'pipe'] });
    const wire = new Wire(proxy);
    // Odd spacing, escapes and key order: the server must see exactly these bytes.
    const init = '{ "id" : 1, "jsonrpc":"2.0", "method":"initialize", "params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}} }\n';
    const initialized = '{"jsonrpc":"2.0","method":"notifications/initialized"}\n';
    const call = '{"jsonrpc":"2.0","id":"c-1","method":"tools/call","params":{"arguments":{"text":"caf\\u00e9 \\ud83d\\ude00"},"name":"echo"}}\n';
    const list = '{"jsonrpc":"2.0","id":2,"method":"tools/list"}\n';
    const exit = '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"exit_server","arguments":{"code":7}}}\n';

    proxy.stdin.write(init);
    const initReply = await wire.next();
    proxy.stdin.write(initialized);
    proxy.stdin.write(call);
    const callReply = await wire.next();
    proxy.stdin.write(list);
    const listReply = await wire.next();
    proxy.stdin.write(exit);
    const exitReply = await wire.next();
    const code = await new Promise<number | null>((resolve) => proxy.on('close', resolve));
    expect(code).toBe(7);

    const { sent, received } = readWireLog(log);
    // Client → server: the forwarded lines arrive unchanged; the client's tools/list is answered by the proxy.
    expect(sent).toContain(init + initialized);
    expect(sent).toContain(call);
    expect(sent).toContain(exit);
    expect(sent).not.toContain(list);
    // Server → client: the same bytes the server wrote.
    for (const line of [initReply, callReply, exitReply]) expect(received).toContain(line);
    expect(JSON.parse(callReply)).toMatchObject({ id: 'c-1', result: { content: [{ type: 'text', text: '{"text":"café 😀"}' }] } });
    expect(JSON.parse(listReply)).toEqual({ jsonrpc: '2.0', id: 2, result: { tools: DEMO_TOOLS_OPTIMIZED } });
    expect(received).not.toContain(listReply);
  });
});

/** Reads newline-delimited messages from a child's stdout. */
class Wire {
  #buffer = '';
  #waiting: ((line: string) => void)[] = [];
  #lines: string[] = [];
  constructor(child: ChildProcessWithoutNullStreams) {
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d: string) => {
      this.#buffer += d;
      let nl = this.#buffer.indexOf('\n');
      while (nl !== -1) {
        const line = this.#buffer.slice(0, nl + 1);
        this.#buffer = this.#buffer.slice(nl + 1);
        const w = this.#waiting.shift();
        if (w) w(line);
        else this.#lines.push(line);
        nl = this.#buffer.indexOf('\n');
      }
    });
  }
  next(ms = 10_000): Promise<string> {
    const ready = this.#lines.shift();
    if (ready !== undefined) return Promise.resolve(ready);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no message from the proxy')), ms);
      this.#waiting.push((line) => {
        clearTimeout(timer);
        resolve(line);
      });
    });
  }
}

/** The demo server's --log: every stdin chunk and stdout write, base64. */
function readWireLog(path: string): { sent: string; received: string } {
  let sent = '';
  let received = '';
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const [dir, b64] = line.split(' ');
    if (!b64) continue;
    const text = Buffer.from(b64, 'base64').toString('utf8');
    if (dir === 'IN') sent += text;
    else received += text;
  }
  return { sent, received };
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
