/**
 * Attack: seeded random client traffic through the built proxy, as a misbehaving client sends it, checked
 * against what JSON-RPC and MCP promise the client. Each run sends a few hundred messages, mostly at once:
 * requests of every method (served, unknown, `initialize` again), calls of served, unknown, renamed and
 * prototype-named tools with odd arguments (`__proto__` keys, arrays, strings, null, 5 kB values),
 * cancellations and progress for ids pending or not, answers to server requests never made, batches of one
 * to four, and lines no peer should send (not JSON, scalars, empty batches, a missing `jsonrpc`, a method
 * that is not a string, duplicate members, a cut-off object). Every id is used once (MCP forbids reuse).
 *
 * What must hold whatever arrives:
 * - every line the client gets is a JSON-RPC 2.0 object or a non-empty array of them, and each response
 *   holds exactly one of `result` and `error`;
 * - every well-formed request (`jsonrpc` 2.0, a string or number id, a string method) is answered exactly
 *   once, under the id exactly as the client wrote it (its text, so 9007199254740993 does not come back as
 *   …992); one the client cancelled at most once;
 * - every successful `tools/list` without a cursor is the same text (the client's prompt cache keys on it);
 * - the proxy is still answering after all of it, and exits 0 when the client closes stdin.
 * Upstreams: test/servers/wire-server.mjs over stdio (as the proxy is run by default, with `--hot-set` and
 * with `--search`, whose calls the proxy answers itself), and the SDK's streamable HTTP server (`--url`).
 * The generator is a fixed-seed xorshift: the same traffic every run.
 */
import { describe, expect, it } from 'vitest';
import { requireBuild } from '../cli/helpers.js';
import { startHttpServer } from '../cli/http-server.js';
import { ProxyProcess, WIRE_SERVER, node } from '../cli/proxy-helpers.js';

requireBuild();

/** A well-formed request in the traffic: its id as written, its id as JSON reads it (`JSON.stringify(JSON.parse(raw))`), its method. */
interface Sent {
  readonly raw: string;
  readonly id: string;
  readonly method: string;
}

/** One run's traffic: the lines sent, in order, and the well-formed requests among them. */
function traffic(seed: number, count: number, served: readonly string[]): { lines: string[]; requests: Sent[] } {
  let s = seed >>> 0 || 1;
  const rnd = (): number => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 4294967296;
  };
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  let n = 0;
  // Ids as a client may write them: every one new. Raw text, so that ids JSON.parse would round are sent as written.
  const id = (): string =>
    pick<() => string>([
      () => String(++n),
      () => String(-++n),
      () => JSON.stringify(`s${++n}`),
      () => JSON.stringify(`ü${++n}\u2028`),
      () => `"\\u0041${++n}"`,
      () => `${++n}.5`,
      // Four apart: parsed, each is a different double (they are two apart above 2^53).
      () => String(9007199254740993n + BigInt(4 * ++n)),
      () => `${++n}e0`,
    ])();
  const names = [...served, 'echo', 'get_pet', 'noise', '__proto__', 'constructor', 'toString', 'hasOwnProperty', '', 'x'.repeat(300), 'nope'];
  const args = (): string =>
    pick<() => string>([
      () => '{}',
      () => '{"id":1}',
      () => '{"id":"x"}',
      () => '{"__proto__":{"polluted":1},"constructor":{"prototype":{"x":1}}}',
      () => '[1,2]',
      () => '"str"',
      () => 'null',
      () => JSON.stringify({ a: 'x'.repeat(Math.floor(rnd() * 5000)) }),
      () => JSON.stringify({ code: 1, q: 'é\u0000\ud800' }),
    ])();
  const request = (): string => {
    const method = pick(['tools/list', 'tools/call', 'tools/call', 'tools/call', 'ping', 'resources/list', 'prompts/list', 'nope/nope', 'initialize', 'completion/complete', 'logging/setLevel', '__proto__', '']);
    let params: string | undefined;
    if (method === 'tools/call') {
      params = pick<() => string | undefined>([
        () => `{"name":${JSON.stringify(pick(names))},"arguments":${args()}}`,
        () => `{"name":${JSON.stringify(pick(names))}}`,
        () => '{"arguments":{}}',
        () => 'null',
        () => '[]',
        () => '{"name":5}',
        () => `{"name":${JSON.stringify(pick(names))},"arguments":${args()},"_meta":{"progressToken":${pick(['1', '"p"', 'null'])}}}`,
      ])();
    } else if (method === 'tools/list') params = pick([undefined, '{}', '{"cursor":"zz"}', '{"cursor":5}', '{"cursor":null}', '{"_meta":{}}']);
    else if (method === 'initialize') params = `{"protocolVersion":${pick(['"2025-06-18"', '"1999"', '5'])},"capabilities":{},"clientInfo":{"name":"again","version":"1"}}`;
    const raw = id();
    requests.push({ raw, id: JSON.stringify(JSON.parse(raw)), method });
    return `{"jsonrpc":"2.0","id":${raw},"method":${JSON.stringify(method)}${params === undefined ? '' : `,"params":${params}`}}`;
  };
  const requests: Sent[] = [];
  const one = (): string => {
    const r = rnd();
    if (r < 0.55) return request();
    if (r < 0.7) {
      const method = pick(['notifications/cancelled', 'notifications/progress', 'notifications/initialized', 'notifications/roots/list_changed', 'nope']);
      const params = pick([`{"requestId":${n}}`, `{"requestId":"s${n}"}`, '{"requestId":"zz"}', '{}', undefined, '{"progressToken":1,"progress":1}']);
      return `{"jsonrpc":"2.0","method":"${method}"${params === undefined ? '' : `,"params":${params}`}}`;
    }
    if (r < 0.8) return `{"jsonrpc":"2.0","id":${pick([String(n), '"srv-1"', '0', '-1', '"toolslim-1"'])},"result":${pick(['{}', 'null', '{"tools":[]}'])}}`;
    if (r < 0.85) return `{"jsonrpc":"2.0","id":${pick([String(n), '"srv-1"'])},"error":{"code":1,"message":"m"}}`;
    return pick<() => string>([
      () => `{"id":${++n},"method":"ping"}`,
      () => `{"jsonrpc":"1.0","id":${++n},"method":"ping"}`,
      () => `{"jsonrpc":"2.0","id":${++n}}`,
      () => `{"jsonrpc":"2.0","id":${++n},"method":7}`,
      () => `{"jsonrpc":"2.0","id":null,"method":"ping"}`,
      () => `{"jsonrpc":"2.0","id":{"o":1},"method":"ping"}`,
      () => 'not json',
      () => '[]',
      () => '5',
      () => '"s"',
      () => 'null',
      () => `{"jsonrpc":"2.0","id":${++n},"method":"ping"`,
    ])();
  };
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const before = requests.length;
    const line = rnd() < 0.12 ? `[${Array.from({ length: 1 + Math.floor(rnd() * 4) }, one).join(',')}]` : one();
    lines.push(line);
    // A line that is not JSON (a batch holding a broken member is not either) holds no request anyone reads.
    try {
      JSON.parse(line);
    } catch {
      requests.length = before;
    }
  }
  return { lines, requests };
}

/** The ids the traffic cancels (as JSON reads them). */
function cancelledIn(lines: readonly string[]): Set<string> {
  const cancelled = new Set<string>();
  for (const line of lines) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      continue;
    }
    for (const m of (Array.isArray(parsed) ? parsed : [parsed]) as Record<string, unknown>[]) {
      if (m === null || typeof m !== 'object' || m.method !== 'notifications/cancelled' || typeof m.params !== 'object' || m.params === null) continue;
      const requestId = (m.params as { requestId?: unknown }).requestId;
      if (typeof requestId === 'number' || typeof requestId === 'string') cancelled.add(JSON.stringify(requestId));
    }
  }
  return cancelled;
}

interface Outcome {
  readonly problems: string[];
  readonly exitCode: number | null;
}

async function fuzz(seed: number, proxyArgs: readonly string[], count: number): Promise<Outcome> {
  const p = new ProxyProcess([...proxyArgs]);
  const problems: string[] = [];
  const got: string[] = [];
  try {
    p.send('{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"fuzz","version":"0"}}}');
    await p.until('init', 20_000);
    p.send('{"jsonrpc":"2.0","method":"notifications/initialized"}', '{"jsonrpc":"2.0","id":"list","method":"tools/list"}');
    const list = (await p.until('list', 20_000)).message as { result: { tools: { name: string }[] } };
    const { lines, requests } = traffic(seed, count, list.result.tools.map((t) => t.name));
    p.send(...lines);
    const cancelled = cancelledIn(lines);
    const want = new Map<string, number>();
    for (const r of requests) want.set(r.id, (want.get(r.id) ?? 0) + 1);
    const answered = new Map<string, number>();
    const lists = new Set<string>();
    const pending = () => [...want].some(([k, c]) => (answered.get(k) ?? 0) < c && !cancelled.has(k));
    const deadline = Date.now() + 30_000;
    // Read until every request not cancelled is answered (a cancelled one may never be), then a little more
    // (a late duplicate would show), then a last ping: the proxy must still answer.
    let quiet = false;
    while (!quiet) {
      const left = pending() ? deadline - Date.now() : 500;
      if (left <= 0) break;
      let line: string;
      try {
        line = await p.next(left);
      } catch {
        quiet = true;
        continue;
      }
      got.push(line);
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        problems.push(`a line that is not JSON: ${line.slice(0, 120)}`);
        continue;
      }
      const members = Array.isArray(parsed) ? parsed : [parsed];
      if (members.length === 0) problems.push('an empty batch response');
      for (const m of members as Record<string, unknown>[]) {
        if (m === null || typeof m !== 'object' || Array.isArray(m) || m.jsonrpc !== '2.0') {
          problems.push(`not a JSON-RPC 2.0 object: ${line.slice(0, 120)}`);
          continue;
        }
        if ('method' in m) continue;
        if (typeof m.id === 'string' || typeof m.id === 'number') answered.set(JSON.stringify(m.id), (answered.get(JSON.stringify(m.id)) ?? 0) + 1);
        if ('result' in m === 'error' in m) problems.push(`a response with ${'result' in m ? 'both result and error' : 'neither result nor error'}: ${line.slice(0, 120)}`);
        const tools = (m.result as { tools?: unknown } | undefined)?.tools;
        if (Array.isArray(tools) && tools.length > 0) lists.add(JSON.stringify(m.result));
      }
    }
    for (const [i, c] of want) {
      const n = answered.get(i) ?? 0;
      if (n !== c && !(cancelled.has(i) && n < c)) problems.push(`id ${i}: sent ${c}, answered ${n}`);
    }
    // Lists asked with a cursor may differ (an error, or a page); those without one are the same list. The
    // proxy serves one page, so every non-empty list seen is that one.
    if (lists.size > 1) problems.push(`${lists.size} different tools/list results`);
    // A tools/list the proxy answers itself, in every mode: under the id's very text (a client matches its
    // answers by it; 9007199254740997 read by JSON.parse and written again is …996).
    const text = got.join('\n');
    for (const r of requests) {
      if (r.method !== 'tools/list' || r.raw === r.id || cancelled.has(r.id)) continue;
      if (!text.includes(`"id":${r.raw},`)) problems.push(`tools/list ${r.raw} not answered under that text`);
    }
    p.send('{"jsonrpc":"2.0","id":"last","method":"ping"}');
    await p.until('last', 20_000).catch(() => problems.push('no answer to a ping after the traffic'));
  } finally {
    p.end();
  }
  const exitCode = await p.closed;
  if (problems.length > 0) problems.push(`stderr: ${p.stderr.slice(-800)}`);
  return { problems, exitCode };
}

describe('protocol fuzz: the proxy answers every request once, in JSON-RPC, and stays up', () => {
  const stdio = ['--', node, WIRE_SERVER];
  it.each([
    ['default', 1, [] as string[]],
    ['--hot-set 1', 2, ['--hot-set', '1']],
    ['--search 1', 3, ['--search', '1']],
    ['--profile openai-strict', 4, ['--profile', 'openai-strict', '--allow-rejected']],
  ])('over stdio, %s (seed %i)', async (_label, seed, args) => {
    const { problems, exitCode } = await fuzz(seed, [...args, ...stdio], 250);
    expect(problems).toEqual([]);
    expect(exitCode).toBe(0);
  });

  it('over streamable HTTP, --hot-set 1 (seed 5)', async () => {
    const server = await startHttpServer();
    try {
      const { problems, exitCode } = await fuzz(5, ['--hot-set', '1', '--url', server.url], 250);
      expect(problems).toEqual([]);
      expect(exitCode).toBe(0);
    } finally {
      await server.close();
    }
  });
});

// The generator's ids are what the checks key on: each well-formed request gets a new one.
describe('protocol fuzz: the traffic', () => {
  it('holds requests of every kind, their ids never reused (as JSON reads them), some written so that reading changes them', () => {
    const { lines, requests } = traffic(1, 250, ['get_pet']);
    expect(requests.length).toBeGreaterThan(100);
    expect(new Set(requests.map((r) => r.id)).size).toBe(requests.length);
    // Every request is in the lines, as written.
    const all = lines.join('\n');
    for (const r of requests) expect(all).toContain(`{"jsonrpc":"2.0","id":${r.raw},"method":${JSON.stringify(r.method)}`);
    expect(requests.filter((r) => r.method === 'tools/list' && r.raw !== r.id).length).toBeGreaterThan(3);
    expect(new Set(requests.map((r) => r.method)).size).toBeGreaterThan(10);
    expect(lines.some((l) => l.startsWith('['))).toBe(true);
    expect(lines.some((l) => l === 'not json')).toBe(true);
    expect(cancelledIn(lines).size).toBeGreaterThan(5);
  });
});

