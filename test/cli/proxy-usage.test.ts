/**
 * `proxy --usage`, `--stats`, `--drop-unreadable` and `report --responses`, through the built binary.
 * The seed test: 50 replays of one session, from a cold and from a warm usage file, serve byte-identical
 * lists. Expected hot sets come from the session library's chooseHotSet on the file the proxy wrote,
 * expected sizes from the server's own log of what it sent.
 */
import { copyFileSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { transformTools } from '../../src/api.js';
import { buildServedTools, chooseHotSet, DEFAULT_HOT_SET, parseStatsLines, ToolSession } from '../../src/session/index.js';
import { ToolUsageGraph } from '../../src/usage/graph.js';
import { BIN, DEMO_TOOLS_OPTIMIZED, ROOT, requireBuild, run } from './helpers.js';
import { node, ProxyProcess, readWireLog, WIRE_SERVER } from './proxy-helpers.js';
import { tempDir } from '../helpers/temp.js';

const dir = tempDir('toolslim-usage-');
let n = 0;
const file = (name: string) => join(dir, `${++n}-${name}`);
const call = (id: unknown, name: string, args: unknown) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
const list = (id: unknown) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list' });
const resultText = (line: string) => line.slice(line.indexOf('"result":') + 9, -1);

beforeAll(() => requireBuild());

/** One session: lists, valid and invalid calls, lists again; returns every tools/list answer's result text. */
async function session(args: readonly string[]): Promise<string[]> {
  const p = new ProxyProcess([...args, '--', node, WIRE_SERVER]);
  await p.initialize();
  const lists: string[] = [];
  const script = [list(1), call(2, 'echo', { text: 'a' }), call(3, 'get_pet', { id: 0 }), list(4), call(5, 'echo', { text: 'b' }), call(6, 'get_pet', { id: 7 }), call(7, 'echo', {}), list(8)];
  for (const line of script) {
    p.send(line);
    const answer = await p.next();
    if (line.includes('tools/list')) lists.push(resultText(answer));
  }
  p.end();
  expect(await p.closed).toBe(0);
  return lists;
}

describe('proxy --hot-set --usage', () => {
  it('records the calls that reach the server, and the next session’s hot set comes from them', async () => {
    const usage = file('usage.json');
    await session(['--hot-set', '3', '--usage', usage]);
    const graph = ToolUsageGraph.fromJSON(JSON.parse(readFileSync(usage, 'utf8')));
    // echo three times; get_pet once valid (id 7) — the invalid call (id 0 < minimum 1) never reached the server.
    expect(graph.callCount('echo')).toBe(3);
    expect(graph.callCount('get_pet')).toBe(1);
    expect(graph.sessions).toBe(1);
    const hot = chooseHotSet(DEMO_TOOLS_OPTIMIZED as never, 3, { graph });
    expect(hot).toContain('echo');
    const lists = await session(['--hot-set', '3', '--usage', usage]);
    expect(JSON.parse(lists[0]!)).toEqual({ tools: buildServedTools(DEMO_TOOLS_OPTIMIZED as never, hot, DEFAULT_HOT_SET.cold) });
    expect(JSON.parse(lists[0]!).tools[1]).toEqual(DEMO_TOOLS_OPTIMIZED[1]);
  });

  it('50 replays of the same session, from a cold and from a warm usage file, serve byte-identical lists', async () => {
    const cold = file('cold.json');
    const warm = file('warm.json');
    await session(['--hot-set', '3', '--usage', warm]);
    const seen = { cold: new Set<string>(), warm: new Set<string>() };
    const replay = async (kind: 'cold' | 'warm', i: number) => {
      const copy = join(dir, `${kind}-replay-${i}.json`);
      if (kind === 'warm') copyFileSync(warm, copy);
      else writeFileSync(copy, '');
      for (const text of await session(['--hot-set', '3', '--usage', copy])) seen[kind].add(text);
    };
    for (let batch = 0; batch < 50; batch += 10) await Promise.all([...Array(10).keys()].map((j) => replay(batch + j < 25 ? 'cold' : 'warm', batch + j)));
    expect(seen.cold.size).toBe(1);
    expect(seen.warm.size).toBe(1);
    expect([...seen.cold][0]).not.toBe([...seen.warm][0]);
  }, 180_000);

  it('a usage file that is not one is an error naming it, and is left as it was', async () => {
    const bad = file('bad.json');
    writeFileSync(bad, '{"not": "a usage graph"}');
    const r = await run(['proxy', '--hot-set', '3', '--usage', bad, '--', node, WIRE_SERVER]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(bad);
    expect(readFileSync(bad, 'utf8')).toBe('{"not": "a usage graph"}');
  });

  it('a lock another live process holds when the session ends is waited for: the calls are written', async () => {
    const usage = file('held.json');
    const lock = `${usage}.lock`;
    // Held by this (live) test process, as another proxy mid-flush would hold it; released once the proxy's
    // input has ended, so its last flush is the one that meets it.
    writeFileSync(lock, `${process.pid} ${Date.now()} held-by-the-test\n`);
    const p = new ProxyProcess(['--hot-set', '2', '--usage', usage, '--', node, WIRE_SERVER]);
    await p.initialize();
    for (const line of [list(1), call(2, 'echo', { text: 'a' }), call(3, 'echo', { text: 'b' })]) {
      p.send(line);
      await p.next();
    }
    p.end();
    const release = setTimeout(() => unlinkSync(lock), 300);
    expect(await p.closed).toBe(0);
    clearTimeout(release);
    const graph = ToolUsageGraph.fromJSON(JSON.parse(readFileSync(usage, 'utf8')));
    expect(graph.callCount('echo')).toBe(2);
    expect(graph.sessions).toBe(1);
  });

  it('two proxies sharing one usage file: every call of both is recorded', async () => {
    const shared = file('shared.json');
    await Promise.all([session(['--hot-set', '2', '--usage', shared]), session(['--hot-set', '2', '--usage', shared])]);
    const graph = ToolUsageGraph.fromJSON(JSON.parse(readFileSync(shared, 'utf8')));
    expect(graph.callCount('echo')).toBe(6);
    expect(graph.sessions).toBe(2);
  });
});

describe('proxy --stats and report --responses', () => {
  it('one line per tools/call with the bytes the client received; the summary per tool', async () => {
    const stats = file('calls.jsonl');
    const log = file('wire.log');
    const p = new ProxyProcess(['--hot-set', '3', '--stats', stats, '--', node, WIRE_SERVER, '--log', log]);
    await p.initialize();
    p.send(list(1));
    const served = JSON.parse(await p.next()).result.tools as { name: string }[];
    const requests = [call(2, 'echo', { text: 'hello' }), call(3, 'echo', { text: 'a much longer text than the first' }), call(4, 'get_pet', { id: 0 })];
    const answers: string[] = [];
    for (const r of requests) {
      p.send(r);
      answers.push(await p.next());
    }
    p.end();
    expect(await p.closed).toBe(0);
    const lines = parseStatsLines(readFileSync(stats, 'utf8'), stats);
    expect(lines.map((l) => l.tool)).toEqual(['echo', 'echo', 'get_pet']);
    const paramsBytes = (r: string) => Buffer.byteLength(JSON.stringify(JSON.parse(r).params));
    const sent = readWireLog(log).received;
    for (const [i, line] of lines.entries()) {
      expect(line.requestBytes).toBe(paramsBytes(requests[i]!));
      const answer = i < 2 ? sent.find((s) => JSON.parse(s).id === i + 2)! : answers[i]!;
      expect(line.resultBytes).toBe(Buffer.byteLength(resultText(answer)));
      const tool = line.tool === 'echo' ? 1 : 0;
      expect(line.originalBytes).toBe(Buffer.byteLength(JSON.stringify(JSON.parse(readFileSync(join(ROOT, 'test', 'servers', 'demo-tools.json'), 'utf8'))[tool])));
      expect(line.servedBytes).toBe(Buffer.byteLength(JSON.stringify(served[tool])));
    }
    expect(lines[2]).toMatchObject({ answered: true, error: true, ms: 0 });

    const report = await run(['report', '--responses', stats]);
    expect(report.code).toBe(0);
    const echoResults = lines.slice(0, 2).map((l) => l.resultBytes);
    const median = (echoResults[0]! + echoResults[1]!) / 2;
    expect(report.stdout.split('\n')[0]).toBe(`${stats}: 3 tools/calls of 2 tools, ${(echoResults[0]! + echoResults[1]! + lines[2]!.resultBytes).toLocaleString('en-US')} result bytes`);
    const row = report.stdout.split('\n').find((l) => l.trim().startsWith('echo'))!;
    expect(row.trim().split(/\s{2,}/)).toEqual(['echo', '2', Math.round(median).toLocaleString('en-US'), String(Math.max(...echoResults)), String(lines[0]!.originalBytes), String(lines[0]!.servedBytes), `${(median / lines[0]!.originalBytes).toFixed(2)}×`]);
    expect(report.stdout).toMatch(/get_pet \(1 answered by toolslim\) +1 \(1 error\)/);
    const json = JSON.parse((await run(['report', '--responses', stats, '--format', 'json'])).stdout);
    expect(json.calls).toBe(3);
    const missing = await run(['report', '--responses', join(dir, 'none.jsonl')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no such file (write one with toolslim proxy --stats');
  });
});

describe('proxy --drop-unreadable', () => {
  const UNREADABLE = join(ROOT, 'test', 'servers', 'unreadable-tools.json');
  const listWith = async (args: string[]) => {
    const transport = new StdioClientTransport({ command: node, args: [BIN, 'proxy', ...args, '--', node, WIRE_SERVER, '--tools', UNREADABLE], stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const client = new Client({ name: 'drop-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      return { tools: await client.listTools().then((r) => r.tools.map((t) => t.name)), stderr: () => stderr };
    } catch (e) {
      return { error: (e as Error).message, stderr: () => stderr };
    } finally {
      await client.close();
    }
  };

  it('the SDK Client cannot list a server with one unreadable tool; with --drop-unreadable it lists the rest, and stderr names the one left out', async () => {
    const plain = await listWith([]);
    expect(plain.error).toContain("can't resolve reference #/$defs/Missing");
    const dropped = await listWith(['--drop-unreadable']);
    expect(dropped.tools).toEqual(['fine', 'also_fine']);
    expect(dropped.stderr()).toMatch(/toolslim proxy: left out `broken_output`: a strict 2020-12 reader cannot read its outputSchema \(.*Missing.*\)\n/);
  });
});

describe('proxy --hot-set defaults', () => {
  it('--hot-set without k serves what a ToolSession with every DEFAULT_HOT_SET field serves', async () => {
    const captured = await run(['capture', '--', node, WIRE_SERVER, '--big-tools', '8']);
    const raw = JSON.parse(captured.stdout).toolsList;
    // Seven tools called in earlier sessions, more often than the floor: more candidates than k.
    const graph = new ToolUsageGraph();
    graph.beginSession();
    for (let i = 0; i < 7; i++) for (let c = 0; c <= i; c++) graph.record(`tool_${i}`);
    const usage = file('defaults-usage.json');
    writeFileSync(usage, JSON.stringify(graph));
    const p = new ProxyProcess(['--hot-set', '--usage', usage, '--', node, WIRE_SERVER, '--big-tools', '8']);
    await p.initialize();
    p.send(list(1));
    const served = JSON.parse(await p.next()).result;
    p.end();
    expect(await p.closed).toBe(0);
    const optimized = transformTools(raw).output;
    const { k, policy, minCallsPerSession, reveal, cold } = DEFAULT_HOT_SET;
    const expected = new ToolSession({ list: optimized as never, original: raw, hotSet: { k, policy, minCallsPerSession, reveal, cold, graph: ToolUsageGraph.fromJSON(JSON.parse(JSON.stringify(graph))) } });
    expect(served).toEqual(JSON.parse(expected.text));
    expect(expected.hot).toHaveLength(DEFAULT_HOT_SET.k);
    expect(expected.hot).toEqual(['tool_2', 'tool_3', 'tool_4', 'tool_5', 'tool_6']);
  });
});
