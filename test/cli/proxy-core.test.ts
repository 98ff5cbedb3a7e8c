/**
 * The built proxy (dist/cli/bin.js) on the wire, against test/servers/wire-server.mjs (a hand-rolled
 * server whose every byte is known): ids, every form of tools/list, faults, process groups.
 * Expected lists come from test/cli/helpers.ts (the demo tools after the default preset, by hand).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOOLS_OPTIMIZED, requireBuild, ROOT, waitFor } from './helpers.js';
import { INIT, INITIALIZED, isRunning, node, ProxyProcess, readWireLog, WIRE_SERVER } from './proxy-helpers.js';
import { tempDir } from '../helpers/temp.js';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';

const dir = tempDir('toolslim-proxy-');
let n = 0;
const file = (name: string) => join(dir, `${++n}-${name}`);
const call = (id: unknown, name: string, args: object = {}) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
const list = (id: unknown, params?: unknown) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list', ...(params === undefined ? {} : { params }) });
const OPTIMIZED = { tools: DEMO_TOOLS_OPTIMIZED };

beforeAll(() => requireBuild());

describe('ids: the proxy’s requests never take a client’s id', () => {
  it('a client request with the id the proxy would use first gets its own answer, and the list is optimized', async () => {
    const log = file('wire.log');
    const p = new ProxyProcess(['--', node, WIRE_SERVER, '--log', log]);
    await p.initialize();
    const theirs = call('toolslim-proxy-1', 'echo', { text: 'mine' });
    // Both in one write: the client's id is in flight when the proxy picks one for its tools/list.
    p.send(theirs, list(5));
    const answers = new Map<unknown, Record<string, unknown>>();
    for (let i = 0; i < 2; i++) {
      const m = JSON.parse(await p.next()) as Record<string, unknown>;
      answers.set(m.id, m);
    }
    expect(answers.get('toolslim-proxy-1')).toEqual({ jsonrpc: '2.0', id: 'toolslim-proxy-1', result: { content: [{ type: 'text', text: '{"text":"mine"}' }] } });
    expect(answers.get(5)).toEqual({ jsonrpc: '2.0', id: 5, result: OPTIMIZED });
    p.end();
    expect(await p.closed).toBe(0);
    // The client's request reached the server as its exact bytes; the proxy's own used another id.
    const { sent } = readWireLog(log);
    expect(sent).toContain(theirs);
    const own = sent.filter((l) => l.includes('"tools/list"')).map((l) => JSON.parse(l).id);
    expect(own).toHaveLength(1);
    expect(own[0]).not.toBe('toolslim-proxy-1');
  });

  it('a client request that arrives with the id of the proxy’s request in flight is forwarded under another id and answered under its own', async () => {
    const log = file('wire.log');
    const p = new ProxyProcess(['--', node, WIRE_SERVER, '--log', log, '--list-delay', '400']);
    await p.initialize();
    p.send(list(5));
    await waitFor(() => readWireLog(log).sent.some((l) => l.includes('"tools/list"')), 5000, 'the proxy’s tools/list');
    const ownId = JSON.parse(readWireLog(log).sent.find((l) => l.includes('"tools/list"'))!).id as string;
    p.send(call(ownId, 'echo', { text: 'collides' }));
    const first = JSON.parse(await p.next());
    expect(first).toEqual({ jsonrpc: '2.0', id: ownId, result: { content: [{ type: 'text', text: '{"text":"collides"}' }] } });
    expect(JSON.parse(await p.next())).toEqual({ jsonrpc: '2.0', id: 5, result: OPTIMIZED });
    p.end();
    expect(await p.closed).toBe(0);
    const forwarded = readWireLog(log).sent.find((l) => l.includes('collides'))!;
    expect(JSON.parse(forwarded).id).not.toBe(ownId);
    expect(JSON.parse(forwarded).params).toEqual({ name: 'echo', arguments: { text: 'collides' } });
  });
});

describe('every form of tools/list is answered from the optimized list', () => {
  it('no params, cursor null, several pages; a cursor the proxy never issued is -32602', async () => {
    const p = new ProxyProcess(['--', node, WIRE_SERVER, '--pages', '3']);
    await p.initialize();
    p.send(list(1));
    expect(JSON.parse(await p.next())).toEqual({ jsonrpc: '2.0', id: 1, result: OPTIMIZED });
    p.send(list(2, { cursor: null }));
    expect(JSON.parse(await p.next())).toEqual({ jsonrpc: '2.0', id: 2, result: OPTIMIZED });
    p.send(list(3, {}));
    expect(JSON.parse(await p.next())).toEqual({ jsonrpc: '2.0', id: 3, result: OPTIMIZED });
    p.send(list(4, { cursor: '3' }));
    const bad = JSON.parse(await p.next());
    expect(bad.id).toBe(4);
    expect(bad.error.code).toBe(-32602);
    expect(bad.error.message).toContain('unknown cursor "3"');
    p.end();
    expect(await p.closed).toBe(0);
  });

  it('the client’s id is echoed exactly as it wrote it', async () => {
    const p = new ProxyProcess(['--', node, WIRE_SERVER]);
    await p.initialize();
    p.send('{"jsonrpc":"2.0","id":1.50,"method":"tools/list"}');
    expect(await p.next()).toBe(`{"jsonrpc":"2.0","id":1.50,"result":${JSON.stringify(OPTIMIZED)}}`);
    p.end();
    await p.closed;
  });

  it('in a batch: tools/list answered by the proxy, the rest by the server, as one batch response', async () => {
    const log = file('wire.log');
    const p = new ProxyProcess(['--', node, WIRE_SERVER, '--log', log]);
    await p.initialize();
    const echo = call('b', 'echo', { x: 1 });
    p.send(`[${list('a')},${echo},{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}]`);
    const batch = JSON.parse(await p.next());
    expect(batch).toEqual([
      { jsonrpc: '2.0', id: 'b', result: { content: [{ type: 'text', text: '{"x":1}' }] } },
      { jsonrpc: '2.0', id: 'a', result: OPTIMIZED },
    ]);
    // The server got the other members, as they were written.
    expect(readWireLog(log).sent).toContain(`[${echo},{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}]`);
    // A batch of tools/list requests alone never reaches the server.
    p.send(`[${list('c')},${list('d', { cursor: null })}]`);
    expect(JSON.parse(await p.next())).toEqual([
      { jsonrpc: '2.0', id: 'c', result: OPTIMIZED },
      { jsonrpc: '2.0', id: 'd', result: OPTIMIZED },
    ]);
    // A batch without tools/list passes through byte for byte, both ways.
    const plain = `[${call('e', 'echo', { y: 2 })},${call('f', 'echo', { z: 3 })}]`;
    p.send(plain);
    const back = await p.next();
    expect(readWireLog(log).received).toContain(back);
    expect(readWireLog(log).sent).toContain(plain);
    p.end();
    expect(await p.closed).toBe(0);
  });

  it('after notifications/tools/list_changed the next tools/list is fetched again', async () => {
    const p = new ProxyProcess(['--', node, WIRE_SERVER]);
    await p.initialize();
    p.send(list(1));
    expect((JSON.parse(await p.next()).result.tools as unknown[]).length).toBe(4);
    p.send(call(2, 'change'));
    await p.until(2);
    expect(JSON.parse(await p.next())).toEqual({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    p.send(list(3));
    const after = JSON.parse(await p.next()).result.tools as { name: string }[];
    expect(after.map((t) => t.name)).toEqual(['get_pet', 'echo', 'add_tool', 'exit_server', 'added_4']);
    p.end();
    await p.closed;
  });
});

describe('faults: every waiting request gets an answer, the proxy exits with the server’s status', () => {
  it('a server that crashes mid-call: the call gets a JSON-RPC error, the proxy exits 3', async () => {
    const p = new ProxyProcess(['--', node, WIRE_SERVER]);
    await p.initialize();
    p.send(call(7, 'hang'), call(8, 'crash'));
    const answers = [JSON.parse(await p.next()), JSON.parse(await p.next())];
    expect(answers.map((a) => a.id).sort()).toEqual([7, 8]);
    for (const a of answers) {
      expect(a.error.code).toBe(-32000);
      expect(a.error.message).toMatch(/^toolslim proxy: `.+wire-server\.mjs` exited with status 3 before answering tools\/call$/);
    }
    expect(await p.closed).toBe(3);
  });

  it('lines that are not JSON never reach the client and are named on stderr', async () => {
    const p = new ProxyProcess(['--', node, WIRE_SERVER, '--banner']);
    const init = await p.initialize();
    expect(JSON.parse(init).result.serverInfo.name).toBe('wire-server');
    p.send(call(1, 'noise'));
    expect(JSON.parse(await p.next())).toEqual({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'after noise' }] } });
    p.end();
    expect(await p.closed).toBe(0);
    expect(p.stderr).toContain('toolslim proxy: dropped a line `');
    expect(p.stderr).toContain('that is not JSON-RPC (it would break the client): "wire-server starting (this line is not JSON)"');
    expect(p.stderr).toContain('"some log line that is not JSON"');
  });

  it('JSON lines that are not JSON-RPC (a JSON logger on stdout) never reach the client either, and are named on stderr', async () => {
    const server = join(ROOT, 'test', 'servers', 'json-log-server.mjs');
    const p = new ProxyProcess(['--', node, server]);
    const init = await p.initialize();
    p.send('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","arguments":{}}}');
    const got = [init];
    for (;;) {
      const line = await p.next();
      got.push(line);
      if (JSON.parse(line).id === 1) break;
    }
    p.end();
    expect(await p.closed).toBe(0);
    // The oracle: the MCP SDK's own message schema accepts every line the client got (one message, or each member of a batch).
    for (const line of got) {
      const parsed = JSON.parse(line) as unknown;
      for (const m of Array.isArray(parsed) ? parsed : [parsed]) expect(JSONRPCMessageSchema.safeParse(m).success, line).toBe(true);
    }
    expect(got.map((l) => JSON.parse(l))).toEqual([
      expect.objectContaining({ jsonrpc: '2.0', id: 0 }),
      [
        { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'working' } },
        { jsonrpc: '2.0', id: 'srv-1', method: 'ping' },
      ],
      { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'done' }] } },
    ]);
    for (const dropped of ['{\\"level\\":30,\\"time\\"', '[1,2,3]', '{\\"jsonrpc\\":\\"2.0\\"}', '{\\"jsonrpc\\":\\"1.0\\"', 'no jsonrpc member', '"[]"', 'got tools/call']) {
      expect(p.stderr).toContain(dropped);
    }
    expect(p.stderr).toContain('that is not JSON-RPC (it would break the client)');
  });

  it('a server that never answers tools/list: the client gets an error when --timeout runs out', async () => {
    const p = new ProxyProcess(['--timeout', '1', '--', node, WIRE_SERVER, '--list-delay', '60000']);
    await p.initialize();
    const t0 = Date.now();
    p.send(list(1));
    const answer = JSON.parse(await p.next());
    const took = Date.now() - t0;
    expect(answer.id).toBe(1);
    expect(answer.error).toEqual({ code: -32001, message: expect.stringMatching(/^toolslim proxy: `.+` did not answer tools\/list within 1s \(raise --timeout if the server is just slow\)$/) });
    expect(took).toBeGreaterThanOrEqual(900);
    expect(took).toBeLessThan(5000);
    p.end();
    expect(await p.closed).toBe(0);
  });

  it('a client that closes stdin: a clean exit (0) and the server is gone', async () => {
    const pid = file('server.pid');
    const p = new ProxyProcess(['--', node, WIRE_SERVER, '--pid', pid]);
    await p.initialize();
    const serverPid = Number(readFileSync(pid, 'utf8'));
    p.end();
    expect(await p.closed).toBe(0);
    expect(isRunning(serverPid)).toBe(false);
  });

  it('a client that closes stdin with a request in flight still gets the answer', async () => {
    const p = new ProxyProcess(['--', node, WIRE_SERVER, '--list-delay', '300']);
    p.send(INIT, INITIALIZED, list(1));
    p.end();
    expect(JSON.parse(await p.next()).id).toBe(0);
    expect(JSON.parse(await p.next())).toEqual({ jsonrpc: '2.0', id: 1, result: OPTIMIZED });
    expect(await p.closed).toBe(0);
  });
});

describe('process groups: nothing the server started outlives the proxy', () => {
  it('a server whose grandchild holds the pipes: the proxy exits with the server’s status and the grandchild is gone', async () => {
    const sleeper = file('sleep.pid');
    const script = `sleep 300 & echo $! > ${sleeper}; exec ${node} ${WIRE_SERVER}`;
    const p = new ProxyProcess(['--', 'sh', '-c', script]);
    await p.initialize();
    await waitFor(() => readFileSync(sleeper, 'utf8').trim() !== '', 5000, 'the grandchild’s pid');
    const grandchild = Number(readFileSync(sleeper, 'utf8'));
    expect(isRunning(grandchild)).toBe(true);
    const t0 = Date.now();
    p.send(call(1, 'exit', { code: 5 }));
    expect(JSON.parse(await p.next()).result).toEqual({ content: [{ type: 'text', text: 'bye' }] });
    expect(await p.closed).toBe(5);
    expect(isRunning(grandchild)).toBe(false);
  });

  it('a client that leaves while sh, a server that ignores stdin EOF and a grandchild run: all are stopped, exit 0', async () => {
    const pids = file('pids');
    const script = `sleep 300 & echo $! >> ${pids}; echo $$ >> ${pids}; ${node} ${WIRE_SERVER} --ignore-eof --pid ${pids}.server; wait`;
    const p = new ProxyProcess(['--', 'sh', '-c', script]);
    await p.initialize();
    const all = [...readFileSync(pids, 'utf8').trim().split('\n').map(Number), Number(readFileSync(`${pids}.server`, 'utf8'))];
    expect(all).toHaveLength(3);
    for (const pid of all) expect(isRunning(pid)).toBe(true);
    const t0 = Date.now();
    p.end();
    expect(await p.closed).toBe(0);
    for (const pid of all) expect(isRunning(pid), `process ${pid}`).toBe(false);
  });

  it('a server that ignores SIGTERM too is killed', async () => {
    const pid = file('server.pid');
    const p = new ProxyProcess(['--', node, WIRE_SERVER, '--ignore-eof', '--ignore-term', '--pid', pid]);
    await p.initialize();
    const serverPid = Number(readFileSync(pid, 'utf8'));
    p.end();
    expect(await p.closed).toBe(0);
    expect(isRunning(serverPid)).toBe(false);
  });

  it('SIGTERM to the proxy reaches the server’s group', async () => {
    const pid = file('server.pid');
    const p = new ProxyProcess(['--', node, WIRE_SERVER, '--pid', pid]);
    await p.initialize();
    const serverPid = Number(readFileSync(pid, 'utf8'));
    p.child.kill('SIGTERM');
    expect(await p.closed).toBe(143);
    expect(isRunning(serverPid)).toBe(false);
  });
});

describe('bytes: what no step changed is served as it came', () => {
  it('unchanged tools keep their bytes, a changed tool keeps its numbers’ text, a tool with numbers JavaScript cannot hold is left unchanged', async () => {
    const text = readFileSync(join(ROOT, 'test', 'data', 'proxy', 'numbers-list.json'), 'utf8').trim();
    const p = new ProxyProcess(['--', node, WIRE_SERVER, '--list-text', join(ROOT, 'test', 'data', 'proxy', 'numbers-list.json')]);
    await p.initialize();
    p.send(list(1));
    const line = await p.next();
    // Hand-written: `big` as it came (its unused definition stays: pruning it would rewrite 9223372036854775807),
    // `plain` byte for byte, `pruned` without its unused definition and with 0.50 and 1E3 as written.
    const big = text.slice(text.indexOf('{"name":"big"'), text.indexOf(',{"name":"plain"'));
    const plain = text.slice(text.indexOf('{"name":"plain"'), text.indexOf(',{"name":"pruned"'));
    const pruned = '{"name":"pruned","description":"An unused definition goes; the numbers keep their text","inputSchema":{"type":"object","properties":{"y":{"type":"number","multipleOf":0.50,"exclusiveMaximum":1E3}}}}';
    expect(line).toBe(`{"jsonrpc":"2.0","id":1,"result":{"tools":[${big},${plain},${pruned}],"_meta":{"page":1.0}}}`);
    p.end();
    expect(await p.closed).toBe(0);
  });
});
