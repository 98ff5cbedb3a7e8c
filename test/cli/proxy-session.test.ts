/**
 * `toolslim proxy --hot-set`: the served list keeps its bytes from one tools/list to the next whatever
 * calls pass through; cold calls are checked (valid: forwarded as they came; invalid: answered with the
 * schema, never forwarded); `--reveal list-changed` announces a reveal only when the server declared
 * `tools.listChanged`. Through the built binary; expected cold forms come from the session library's
 * buildServedTools over the hand-written optimized demo tools.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildServedTools, DEFAULT_HOT_SET } from '../../src/session/index.js';
import { DEMO_TOOLS_OPTIMIZED, requireBuild } from './helpers.js';
import { node, ProxyProcess, readWireLog, WIRE_SERVER } from './proxy-helpers.js';
import { tempDir } from '../helpers/temp.js';

const dir = tempDir('toolslim-session-');
let n = 0;
const file = (name: string) => join(dir, `${++n}-${name}`);
const call = (id: unknown, name: string, args: unknown) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
const list = (id: unknown) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list' });
/** Without a usage file no tool has earned a place: every tool is served cold. */
const ALL_COLD = buildServedTools(DEMO_TOOLS_OPTIMIZED as never, [], DEFAULT_HOT_SET.cold);
const resultOf = (line: string) => line.slice(line.indexOf('"result":') + 9, -1);

beforeAll(() => requireBuild());

describe('proxy --hot-set', () => {
  it('serves the same bytes for every tools/list whatever passes through; cold calls are checked', async () => {
    const log = file('wire.log');
    const p = new ProxyProcess(['--hot-set', '3', '--', node, WIRE_SERVER, '--log', log]);
    await p.initialize();
    p.send(list(1));
    const first = await p.next();
    expect(JSON.parse(first).result).toEqual({ tools: ALL_COLD });
    expect(ALL_COLD.find((t) => t.name === 'echo')).not.toEqual(DEMO_TOOLS_OPTIMIZED.find((t) => t.name === 'echo'));

    // A valid call of a cold tool reaches the server as its exact bytes; its answer comes back untouched.
    const valid = call(2, 'echo', { text: 'fine' });
    p.send(valid);
    const answer = await p.next();
    expect(readWireLog(log).sent).toContain(valid);
    expect(readWireLog(log).received).toContain(answer);

    // An invalid one never reaches the server; the answer names the problem and carries the schema.
    const invalid = call(3, 'echo', { text: 5 });
    p.send(invalid);
    const refused = JSON.parse(await p.next());
    expect(readWireLog(log).sent).not.toContain(invalid);
    expect(refused.id).toBe(3);
    expect(refused.result.isError).toBe(true);
    const text: string = refused.result.content[0].text;
    expect(text).toContain('toolslim did not call `echo`: invalid arguments.');
    expect(text).toContain('`/text`: must be string');
    expect(text).toContain(JSON.stringify(DEMO_TOOLS_OPTIMIZED.find((t) => t.name === 'echo')!.inputSchema));

    // A call of a tool the list does not have passes through to the server (which answers it).
    p.send(call(4, 'no_such_tool', {}));
    expect(JSON.parse(await p.next()).id).toBe(4);
    for (let i = 5; i < 10; i++) {
      p.send(list(i));
      expect(resultOf(await p.next())).toBe(resultOf(first));
    }
    p.end();
    expect(await p.closed).toBe(0);
  });

  it('every other message passes through byte for byte', async () => {
    const log = file('wire.log');
    const p = new ProxyProcess(['--hot-set', '2', '--', node, WIRE_SERVER, '--log', log]);
    const init = await p.initialize();
    expect(readWireLog(log).received).toContain(init);
    const ping = '{"jsonrpc":"2.0","id":"p","method":"ping"}';
    p.send(ping);
    const pong = await p.next();
    expect(readWireLog(log).sent).toContain(ping);
    expect(readWireLog(log).received).toContain(pong);
    p.end();
    await p.closed;
  });

  it('--reveal list-changed: a cold call makes the tool hot and sends list_changed, when the server declared it', async () => {
    const p = new ProxyProcess(['--hot-set', '3', '--reveal', 'list-changed', '--', node, WIRE_SERVER, '--list-changed']);
    const init = JSON.parse(await p.initialize());
    expect(init.result.capabilities).toEqual({ tools: { listChanged: true } });
    p.send(list(1));
    const before = JSON.parse(await p.next()).result.tools;
    expect(before).toEqual(ALL_COLD);
    p.send(call(2, 'echo', { text: 'hi' }));
    const lines = [JSON.parse(await p.next()), JSON.parse(await p.next())];
    expect(lines).toContainEqual({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    expect(lines.find((l) => l.id === 2).result).toEqual({ content: [{ type: 'text', text: '{"text":"hi"}' }] });
    p.send(list(3));
    const after = JSON.parse(await p.next()).result.tools;
    expect(after).toEqual(buildServedTools(DEMO_TOOLS_OPTIMIZED as never, ['echo'], DEFAULT_HOT_SET.cold));
    expect(after[1]).toEqual(DEMO_TOOLS_OPTIMIZED[1]);
    p.end();
    await p.closed;
    expect(p.stderr).toContain('toolslim proxy: revealed `echo`: its full definition is served from now on (notifications/tools/list_changed sent)');
  });

  it('--reveal list-changed without the capability: no notification is invented; the next tools/list shows the tool', async () => {
    const p = new ProxyProcess(['--hot-set', '3', '--reveal', 'list-changed', '--', node, WIRE_SERVER]);
    const init = JSON.parse(await p.initialize());
    expect(init.result.capabilities).toEqual({ tools: {} });
    p.send(list(1));
    await p.next();
    p.send(call(2, 'echo', { text: 'hi' }), list(3));
    const a = JSON.parse(await p.next());
    const b = JSON.parse(await p.next());
    const answers = [a, b].sort((x, y) => x.id - y.id);
    expect(answers.map((m) => m.id)).toEqual([2, 3]);
    expect(answers[1].result.tools[1]).toEqual(DEMO_TOOLS_OPTIMIZED[1]);
    p.send(list(4));
    expect(JSON.parse(await p.next()).id).toBe(4);
    p.end();
    await p.closed;
    expect(p.stderr).toContain('(the server declared no tools.listChanged: the client sees it on its next tools/list)');
  });
});

describe('--hot-set takes an optional k', () => {
  it('parses --hot-set alone (before --, another option, or at the end) as DEFAULT_HOT_SET.k', async () => {
    const { parseArgs } = await import('../../src/cli/args.js');
    const { proxyCommand } = await import('../../src/cli/commands/proxy.js');
    const k = (argv: string[]) => parseArgs(argv, proxyCommand.flags).flags['hot-set'];
    expect(k(['--hot-set', '--', 'node', 'server.mjs'])).toBe(DEFAULT_HOT_SET.k);
    expect(k(['--hot-set', '--usage', 'u.json'])).toBe(DEFAULT_HOT_SET.k);
    expect(k(['--hot-set'])).toBe(DEFAULT_HOT_SET.k);
    expect(k(['--hot-set', '3', '--', 'x'])).toBe(3);
    expect(k(['--hot-set=0'])).toBe(0);
  });
});
