/**
 * Attack: a server's names and texts reach the user's terminal through `check`, `report` and errors. Planted
 * here: ANSI sequences that clear the screen, move the cursor up and erase a line (to overwrite `check`'s
 * verdict), retitle the window; a C1 control; a right-to-left override; a newline that would forge a line.
 * No output of the text formats may hold any control character but newline (and no newline inside one
 * finding's line). Before, `check` printed a tool named `evil\u001b[2J` as is.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuild, run } from '../cli/helpers.js';
import { oneLine, printable } from '../../src/core/safe-text.js';
import { markdownMessage, markdownText } from '../../src/core/format.js';
import { formatReport, transformTools } from '../../src/index.js';
import { tempDir } from '../helpers/temp.js';

beforeAll(() => requireBuild());
const dir = tempDir('toolslim-escapes-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Any control character but newline: what a terminal could act on. */
const DRIVES_TERMINAL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

const EVIL_NAME = 'evil\u001b[2J\u001b[1A\u001b[2K\u001b]0;pwned\u0007\u009b31m\u202eeman';
const FORGED = 'x\n0 errors, 0 warnings, 0 info: passed';
const tools = [
  { name: EVIL_NAME, description: `Does things.\u001b[8m hidden`, inputSchema: { type: 'object', properties: { [`p\u001b[1m`]: { type: 'string' }, q: { $ref: '#/nowhere\u001b[2J' } } } },
  { name: FORGED, inputSchema: { type: 'object' } },
];

describe('unit: hand-written escapes', () => {
  it('oneLine escapes every control character, newline and tab included', () => {
    expect(oneLine('a\u001b[2Jb\nc\td\u0085e\u202ef\u007f')).toBe('a\\u001b[2Jb\\u000ac\\u0009d\\u0085e\\u202ef\\u007f');
    expect(oneLine('plain é 😀 text')).toBe('plain é 😀 text');
  });
  it('markdown: a server\'s text outside code spans cannot open HTML; a span markdown surely reads keeps what it holds', () => {
    expect(markdownText('a<!--b&c>')).toBe('a&lt;!--b&amp;c&gt;');
    expect(markdownText('plain_name')).toBe('plain_name');
    expect(markdownMessage('`<b>` and "<b>"')).toBe('`<b>` and "&lt;b&gt;"');
    expect(markdownMessage('refs to `#/$defs/<name>` only')).toBe('refs to `#/$defs/<name>` only');
    // Where markdown would not read a span (a backtick run of two, an escaped opener), the text is escaped.
    expect(markdownMessage('`<!--`` x')).toBe('`&lt;!--`` x');
    expect(markdownMessage('\\`<!--` x')).toBe('\\`&lt;!--` x');
    expect(markdownMessage('``<!--` x')).toBe('``&lt;!--` x');
  });

  it('formatReport (the library\'s markdown): names and reasons of skipped tools escaped too', () => {
    const r = transformTools([{ name: 'a<!--', inputSchema: 'nope' as never }, { name: 'b-->', inputSchema: { type: 'object' } }]);
    const md = formatReport(r.report, 'markdown');
    expect(md.replace(/`[^`\n]*`/g, '')).not.toMatch(/<[!/a-zA-Z]/);
    expect(md).toContain('a&lt;!--');
  });

  it('printable keeps newline and tab', () => {
    expect(printable('a\u001b]0;t\u0007\nb\tc\u2066')).toBe('a\\u001b]0;t\\u0007\nb\tc\\u2066');
  });
});

describe('the CLI', () => {
  const file = join(dir, 'evil.json');
  beforeAll(() => writeFileSync(file, JSON.stringify(tools)));

  it('check: no control character reaches the terminal, no finding spans two lines', async () => {
    const r = await run(['check', file]);
    expect(r.code).toBe(1); // the unresolved reference is an error
    for (const [where, text] of [['stdout', r.stdout], ['stderr', r.stderr]] as const) expect(DRIVES_TERMINAL.test(text), `${where}: ${JSON.stringify(text)}`).toBe(false);
    expect(r.stdout).toContain('evil\\u001b[2J\\u001b[1A\\u001b[2K\\u001b]0;pwned\\u0007\\u009b31m\\u202eeman');
    // The forged verdict stays inside its finding's line; the real verdict is the last line.
    expect(r.stdout.split('\n').filter((l) => l.startsWith('0 errors'))).toEqual([]);
    expect(r.stdout).toContain('x\\u000a0 errors, 0 warnings, 0 info: passed');
    expect(r.stdout.trimEnd().split('\n').at(-1)).toMatch(/^1 error, .*: failed/);
  });

  it('report (text and markdown) and optimize --profile: the same', async () => {
    for (const args of [['report', file], ['report', file, '--format', 'markdown'], ['optimize', file, '--profile', 'gemini']]) {
      const r = await run(args);
      for (const [where, text] of [['stdout', r.stdout], ['stderr', r.stderr]] as const) {
        // optimize writes the tools as JSON on stdout: JSON escapes C0 itself; the C1 and bidi characters
        // are the server's own bytes, kept (a tool no step changed is written as its input bytes).
        if (args[0] === 'optimize' && where === 'stdout') continue;
        expect(DRIVES_TERMINAL.test(text), `${args.join(' ')} ${where}: ${JSON.stringify(text.slice(0, 2000))}`).toBe(false);
      }
    }
  });

  it('report --format markdown: a name cannot open HTML (`<!--` in one name, `-->` in a later one hid the rows between on GitHub)', async () => {
    const html = join(dir, 'html.json');
    // The third tool holds an unresolved reference, so a finding names it; the fourth is not JSON Schema, so it is skipped.
    const list = [
      { name: 'open<!--', inputSchema: { type: 'object' } },
      { name: 'middle', inputSchema: { type: 'object' } },
      { name: 'close-->&<img src=x>', inputSchema: { type: 'object', properties: { q: { $ref: '#/nowhere' } } } },
      { name: '<b>skipped</b>', inputSchema: 'not a schema' },
    ];
    writeFileSync(html, JSON.stringify(list));
    const r = await run(['report', html, '--format', 'markdown']);
    // Every `<` a server wrote outside a code span is an entity: no comment, no tag (toolslim's own text has none there).
    const outsideCode = r.stdout.replace(/`[^`\n]*`/g, '');
    expect(outsideCode).not.toMatch(/<[!/a-zA-Z]/);
    // …and reads as written once rendered: the table row, the finding's place and the skipped tool.
    expect(r.stdout).toContain('| open&lt;!-- |');
    expect(r.stdout).toContain('close--&gt;&amp;&lt;img src=x&gt; /2/inputSchema/properties/q/$ref');
    expect(r.stdout).toContain('- &lt;b&gt;skipped&lt;/b&gt; (input)');
    expect(r.stdout).toContain('| middle |');
  });

  it('report --responses: tool names from a stats file', async () => {
    const stats = join(dir, 'stats.jsonl');
    const line = (tool: string) => JSON.stringify({ v: 1, tool, requestBytes: 1, resultBytes: 400, servedBytes: 3, originalBytes: 4, ms: 1 });
    writeFileSync(stats, [line(EVIL_NAME), line(FORGED), line(EVIL_NAME)].join('\n') + '\n');
    for (const format of ['text', 'markdown']) {
      const r = await run(['report', '--responses', stats, '--format', format]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('evil\\u001b[2J');
      expect(DRIVES_TERMINAL.test(r.stdout + r.stderr), JSON.stringify(r.stdout)).toBe(false);
    }
  });

  it("formatReport (the library's text for a terminal): the same", async () => {
    const { formatReport, transformTools } = await import('../../src/index.js');
    const report = transformTools(tools).report;
    for (const format of ['text', 'markdown'] as const) expect(DRIVES_TERMINAL.test(formatReport(report, format)), format).toBe(false);
    expect(formatReport(report)).toContain('evil\\u001b[2J');
  });

  it('an error quoting what an HTTP server answered', async () => {
    const http: Server = createServer((_req, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('boom\u001b[2J\u001b]0;pwned\u0007 \u009b\u202e');
    });
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
    try {
      const r = await run(['check', '--url', `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`]);
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain('boom\\u001b[2J');
      expect(DRIVES_TERMINAL.test(r.stderr), JSON.stringify(r.stderr)).toBe(false);
    } finally {
      await new Promise((r) => http.close(r));
    }
  });
});

describe('the proxy', () => {
  const FORGE = 'toolslim proxy: all clear';
  const file = join(dir, 'proxy-evil.json');
  beforeAll(() =>
    writeFileSync(
      file,
      JSON.stringify([
        { name: `cold\u001b[2J\n${FORGE}`, description: 'A cold tool.', inputSchema: { type: 'object', properties: { a: { type: 'string' } } } },
        { name: `broken\n${FORGE}`, description: 'Unreadable.', inputSchema: { type: 'object', properties: { x: { $ref: '#/$defs/Missing' } } } },
        { name: 'other', description: 'Another tool.', inputSchema: { type: 'object' } },
      ]),
    ),
  );

  it('a tool name of the server cannot forge a line of its stderr (reveal, left out)', async () => {
    const { ProxyProcess, WIRE_SERVER, node } = await import('../cli/proxy-helpers.js');
    const p = new ProxyProcess(['--hot-set', '1', '--reveal', 'list-changed', '--drop-unreadable', '--', node, WIRE_SERVER, '--list-changed', '--tools', file]);
    await p.initialize();
    p.send('{"jsonrpc":"2.0","id":1,"method":"tools/list"}');
    await p.until(1);
    p.send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: `cold\u001b[2J\n${FORGE}`, arguments: { a: 'x' } } }));
    await p.until(2);
    p.end();
    await p.closed;
    // Both messages were written (the name escaped inside them), and no line is the forged one.
    expect(p.stderr).toContain(`revealed \`cold\\u001b[2J\\u000a${FORGE}\``);
    expect(p.stderr).toContain(`left out \`broken\\u000a${FORGE}\``);
    expect(p.stderr.split('\n').filter((l) => l.startsWith(FORGE))).toEqual([]);
    expect(DRIVES_TERMINAL.test(p.stderr), JSON.stringify(p.stderr)).toBe(false);
  });

  it('--url: the error message of an HTTP server that refuses a notification cannot forge a line either', async () => {
    // initialize is answered; the notification after it gets HTTP 500 with a JSON-RPC error whose message spans lines.
    const http: Server = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString('utf8')));
      req.on('end', () => {
        if (req.method !== 'POST') return void res.writeHead(405).end();
        const msg = JSON.parse(body) as { id?: unknown; method: string; params?: { protocolVersion?: string } };
        if (msg.method === 'initialize') {
          res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 's1' });
          return void res.end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: { protocolVersion: msg.params?.protocolVersion, capabilities: {}, serverInfo: { name: 'x', version: '1' } } }));
        }
        if (msg.id === undefined) {
          res.writeHead(500, { 'content-type': 'application/json' });
          return void res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32603, message: `nope\n${FORGE}` } }));
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: {} }));
      });
    });
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
    try {
      const { ProxyProcess } = await import('../cli/proxy-helpers.js');
      const p = new ProxyProcess(['--full', '--url', `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`]);
      await p.initialize();
      p.send('{"jsonrpc":"2.0","id":1,"method":"ping"}');
      await p.until(1);
      p.end();
      await p.closed;
      expect(p.stderr).toContain(`nope\\u000a${FORGE}`);
      expect(p.stderr.split('\n').filter((l) => l.startsWith(FORGE))).toEqual([]);
    } finally {
      await new Promise((r) => http.close(r));
    }
  });
});
