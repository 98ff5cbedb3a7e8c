/**
 * The core of `npm run bench:sessions` (bench/lib/sessions/), checked against prices computed by hand on a
 * tiny hand-written session folder (test/data/sessions-tiny) with a stand-in tokenizer whose counts are
 * round numbers, so every expected value below is arithmetic on this page.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSessionData, readSessionFolder, SessionDataError } from '../bench/lib/sessions/data.js';
import { evaluate, summarize } from '../bench/lib/sessions/evaluate.js';
import { policyByName } from '../bench/lib/sessions/names.js';
import { PolicyContext } from '../bench/lib/sessions/policies.js';
import { priceRequests, PromptCache, type ModelRequest } from '../bench/lib/sessions/price.js';
import { chainSessions, firstTurns, widenLists } from '../bench/lib/sessions/scenarios.js';
import { chooserOptions, COLD_FORM_OPTIONS, conveyedSchema, hidesConstraints, PREAMBLE_OF_FORM, servedList, type Chooser, type ColdForm } from '../bench/lib/sessions/served.js';
import { buildServedTools, compressColdTools, DEFAULT_HOT_SET, searchMode, serverToolPrefix, ToolSession, type McpTool } from '../src/index.js';

const TINY = join(import.meta.dirname, 'data', 'sessions-tiny');
const data = readSessionFolder(TINY);
const fs = data.groups.get('toyfs')!;
const [cd, ls, rm] = fs as [McpTool, McpTool, McpTool];

// The cold forms, written out by hand: preamble gone, first sentence, open schema.
const CD_COLD = { name: 'cd', description: 'Change the directory.', inputSchema: { type: 'object' } };
const LS_COLD = { name: 'ls', description: 'List the files.', inputSchema: { type: 'object' } };
const RM_COLD = { name: 'rm', description: 'Remove a file.', inputSchema: { type: 'object' } };

/** A tokenizer that knows exactly the texts a replay of s1 may show, with round counts; anything else throws. */
function tinyTokenizer(): (text: string) => number {
  const table = new Map<string, number>([
    [JSON.stringify(cd), 100],
    [JSON.stringify(ls), 40],
    [JSON.stringify(rm), 45],
    [JSON.stringify(CD_COLD), 9],
    [JSON.stringify(LS_COLD), 10],
    [JSON.stringify(RM_COLD), 12],
    ['go', 1],
    ['list', 1],
    ['{"name":"cd","arguments":{"folder":"a"}}', 8],
    ['{"name":"ls","arguments":{}}', 6],
    ['{"name":"cd","arguments":{"folder":".."}}', 8],
  ]);
  return (text: string) => {
    const n = table.get(text);
    if (n !== undefined) return n;
    // The proxy's answer to an invalid cold call, as the model reads it: the result's text (not its JSON envelope).
    if (!text.startsWith('toolslim did not call `')) throw new Error(`unexpected text: ${text}`);
    // Reveal in the result carries ls's real schema; list-changed's answer does not.
    return text.includes('Input schema: {"type":"object","properties":{}}') ? 30 : 15;
  };
}

const CONVERSATION = { resultTokens: 20, answerTokens: 5 };

function evaluateS1(names: string[]) {
  const ctx = new PolicyContext(data);
  const s1 = data.sessions.filter((s) => s.id === 's1');
  const ev = evaluate(s1, policyByName(ctx, 'full'), names.map((n) => policyByName(ctx, n)), { conversation: CONVERSATION, count: tinyTokenizer() });
  return { ev, byName: (n: string) => ev.policies.find((p) => p.spec.name === n)! };
}

describe('price model', () => {
  it('prices cached prefixes at 0.1, new blocks at 1.25, and a changed tool re-writes everything after it', () => {
    const T1 = { key: 'T1', tokens: 100 };
    const T2 = { key: 'T2', tokens: 50 };
    const T2b = { key: 'T2b', tokens: 60 };
    const u = { key: 'u', tokens: 10 };
    const c = { key: 'c', tokens: 5 };
    const r = { key: 'r', tokens: 20 };
    const a = { key: 'a', tokens: 7 };
    const requests: ModelRequest[] = [
      { tools: [T1, T2], conversation: [u], wastedOutput: 0 }, // 160 written: 200
      { tools: [T1, T2], conversation: [u, c, r], wastedOutput: 0 }, // 160 read (16) + 25 written (31.25)
      { tools: [T1, T2b], conversation: [u, c, r, a], wastedOutput: 0 }, // T1 read (10) + 102 written (127.5)
    ];
    const p = priceRequests(requests);
    expect(p.cached).toBeCloseTo(200 + 47.25 + 137.5, 10);
    expect(p.uncached).toBe(160 + 185 + 202);
    expect(p.readTokens).toBe(160 + 100);
    expect(p.writtenTokens).toBe(160 + 25 + 102);
    // Output of failed calls is priced only when the model says so.
    const withOutput = priceRequests([{ tools: [], conversation: [u], wastedOutput: 4 }], { write: 1.25, read: 0.1, output: 5 });
    expect(withOutput.cached).toBeCloseTo(12.5 + 20, 10);
  });

  it('a prefix cached by any earlier prompt of the session is read, not only the previous one', () => {
    const cache = new PromptCache();
    const A = { key: 'A', tokens: 3 };
    const B = { key: 'B', tokens: 4 };
    const C = { key: 'C', tokens: 5 };
    expect(cache.lookupAndStore([A, B])).toEqual({ read: 0, written: 7 });
    expect(cache.lookupAndStore([A, C])).toEqual({ read: 3, written: 5 });
    expect(cache.lookupAndStore([A, B, C])).toEqual({ read: 7, written: 5 });
  });
});

describe('replay and accounting on a hand-priced session', () => {
  // s1: turn 0 "go" → cd(a); turn 1 "list" → ls(), cd(..). Results 20 tokens, answers 5.
  // Usage without s1 (s2: cd, s3: ls) ties cd and ls at one call; list order makes cd the hot tool.
  // Conversation alone (no tools), 5 requests: [u0] 1.25; +c,r: 0.1 + 35; +a0,u1: 2.9 + 7.5; +c(ls),r: 3.5 + 32.5;
  // +c(cd..),r: 6.1 + 35 → 123.85 cached, 1 + 29 + 35 + 61 + 89 = 215 uncached.
  const BASE = 123.85;

  it('the full list costs its tokens once at 1.25 and then at 0.1 per request', () => {
    const { ev } = evaluateS1([]);
    const full = ev.full.bounds.max;
    expect(ev.conversation.cached).toBeCloseTo(BASE, 9);
    expect(ev.conversation.uncached).toBe(215);
    expect(full.cached).toBeCloseTo(185 * 1.25 + 185 * 0.1 * 4, 9);
    expect(full.uncached).toBe(185 * 5);
    expect(full.stats).toMatchObject({ calls: 3, hotCalls: 3, coldCalls: 0, baseRequests: 5, extraRequests: 0 });
  });

  it('reveal in the result: the failed cold call, its schema-carrying answer and the extra request are paid', () => {
    const name = 'hot-1/usage/no-preamble/result';
    const { ev, byName } = evaluateS1([name]);
    const p = byName(name);
    // Served list: cd (100) in full, ls (10) and rm (12) cold: 122 tokens, never changing.
    // R1 [T,u0] 123 written 153.75 · R2 read 123 + write c,r 28: 47.3 · R3 (ls, fails) read 151 + write a0,u1 6: 22.6
    // R4 extra: read 157 + write x 6, answer 30: 60.7 · R5 (cd) read 193 + write c(ls),r 26: 51.8
    // R6 answer: read 219 + write 28: 56.9 → 393.05
    expect(p.bounds.max.cached).toBeCloseTo(393.05 - BASE, 9);
    expect(p.bounds.max.uncached).toBe(123 + 151 + 157 + 193 + 219 + 247 - 215);
    expect(p.bounds.max.stats).toMatchObject({ calls: 3, hotCalls: 2, coldCalls: 1, baseRequests: 5, extraRequests: 1, revealTokens: 30 });
    // ls's real schema `{"type":"object","properties":{}}` says no more than the open one: the hidden bound retries nothing.
    expect(p.bounds.hidden.stats.extraRequests).toBe(0);
    // No retry: the 122-token list at 1.25 then 0.1 on four more requests.
    expect(p.bounds.min.cached).toBeCloseTo(122 * 1.25 + 122 * 0.1 * 4, 9);
    expect(p.bounds.hidden.cached).toBeCloseTo(p.bounds.min.cached, 9);
    const s = summarize(ev, p);
    expect(s.costVsFullCached).toBeCloseTo((393.05 - BASE) / 305.25, 9);
    expect(s.costVsFullUncached).toBeCloseTo((393.05 - BASE) / 925, 9);
    expect(s.hitRate).toBeCloseTo(2 / 3, 12);
    expect(s.extraRequestsMax).toBeCloseTo(1 / 5, 12);
    expect(s.extraRequestsMin).toBe(0);
    expect(s.bytesPerRequest).toBe(Buffer.byteLength(JSON.stringify([cd, LS_COLD, RM_COLD])));
    expect(s.tokensPerRequest).toBe(122);
    expect(s.hotToolsPerRequest).toBe(1);
    expect(s.turnsWithChangedList).toBe(0);
  });

  it('list-changed: the revealed tool re-writes the list from itself on, and the conversation after it', () => {
    const name = 'hot-1/usage/no-preamble/list-changed';
    const { byName } = evaluateS1([name]);
    const p = byName(name);
    // (Turn 1 starts before the reveal, so no turn starts with a changed list.)
    // R1–R3 as with reveal in the result (153.75, 47.3, 22.6). ls fails; the answer (30, it carries the schema
    // here too) says ls is now in the list, and ls turns hot.
    // R4 extra: tools cd 100, ls 40, rm 12; only cd is a cached prefix (10); written 40+12 + the whole conversation
    // (1+8+20+5+1) + x 6 + answer 30 = 123 → 153.75 · R5 read 223 + write 26: 54.8 · R6 read 249 + write 28: 59.9
    expect(p.bounds.max.cached).toBeCloseTo(153.75 + 47.3 + 22.6 + 163.75 + 54.8 + 59.9 - BASE, 9);
    // No failure: ls is revealed after its call, so R4 (cd) re-writes: read cd 10 + written 40+12+61 = 113 → 141.25,
    // then R5 read 213 + write 28: 56.3.
    expect(p.bounds.min.cached).toBeCloseTo(153.75 + 47.3 + 22.6 + 151.25 + 56.3 - BASE, 9);
    expect(p.bounds.max.stats).toMatchObject({ hotCalls: 2, coldCalls: 1, extraRequests: 1, turnsChanged: 0, turnsAfterFirst: 1 });
  });

  it('bounds: `first` retries only a tool\'s first cold call; `hidden` only where the cold form hides a constraint', () => {
    // s1 under hot-0 (nothing hot): cd is called cold twice. Its names-and-types form shows everything cd checks.
    const { byName } = evaluateS1(['hot-0/no-preamble/result']);
    const p = byName('hot-0/no-preamble/result');
    expect(p.bounds.max.stats).toMatchObject({ coldCalls: 3, repeatColdCalls: 1, extraRequests: 3 });
    expect(p.bounds.first.stats.extraRequests).toBe(2);
    expect(p.bounds.hidden.stats.extraRequests).toBe(2); // cd's open schema hides `folder`; ls hides nothing
  });
});

describe('served lists', () => {
  it('the session layer drops the shared preamble from cold tools only', () => {
    expect(servedList(fs, new Set(['cd']), 'no-preamble')).toEqual([cd, LS_COLD, RM_COLD]);
    expect(servedList(fs, new Set(['cd', 'ls', 'rm']), 'no-preamble')).toEqual(fs);
    expect(servedList(fs, new Set(), 'signature')[2]).toEqual({ name: 'rm', description: 'Remove a file (file:string)', inputSchema: { type: 'object' } });
  });

  it('signature-once: the shared preamble on the first tool only, hot or cold; hot tools without it otherwise', () => {
    const PRE = 'This tool belongs to the toy file system. Tool description: ';
    const CD_SIG = { name: 'cd', description: 'Change the directory (folder:string)', inputSchema: { type: 'object' } };
    const RM_SIG = { name: 'rm', description: 'Remove a file (file:string)', inputSchema: { type: 'object' } };
    // ls hot: cd, cold, carries the preamble in front of its cold description; ls loses it.
    expect(servedList(fs, new Set(['ls']), 'signature-once')).toEqual([{ ...CD_SIG, description: PRE + CD_SIG.description }, { ...ls, description: 'List the files.' }, RM_SIG]);
    // cd hot: it carries the preamble as it is; nothing else has it.
    expect(servedList(fs, new Set(['cd']), 'signature-once')).toEqual([cd, LS_COLD, RM_SIG]);
    // Everything hot: only the first keeps it.
    expect(servedList(fs, new Set(['cd', 'ls', 'rm']), 'signature-once').map((t) => t.description)).toEqual([cd.description, 'List the files.', 'Remove a file.']);
  });

  it('what each cold form tells the model, and what it hides', () => {
    const hides = (t: McpTool, form: 'no-preamble' | 'parameters' | 'signature') => {
      const cold = servedList(fs, new Set(), form).find((c) => c.name === t.name)!;
      const conveyed = conveyedSchema(t, cold, form);
      return conveyed === undefined || hidesConstraints(t.inputSchema, conveyed);
    };
    expect(hides(cd, 'signature')).toBe(false); // folder: string, required; the description is an annotation
    expect(hides(rm, 'signature')).toBe(true); // the enum
    expect(hides(ls, 'no-preamble')).toBe(false); // nothing to hide
    expect(hides(cd, 'no-preamble')).toBe(true);
    expect(hides(cd, 'parameters')).toBe(true); // `parameters: 'schema'` leaves out `required`
    expect(hidesConstraints({ type: 'object', properties: { a: { type: 'string', description: 'x' } }, required: [] }, { type: 'object', properties: { a: { type: 'string' } } })).toBe(false);
  });

  it('composing served lists tool by tool gives what compress-cold-tools gives for the whole list', () => {
    const github = (JSON.parse(readFileSync(join(import.meta.dirname, '..', 'bench', 'corpus', 'modelcontextprotocol__server-github.json'), 'utf8')) as { toolsList: { tools: McpTool[] } }).toolsList.tools;
    const big = { groups: new Map([['github', github]]), sessions: [{ id: 'g', groups: ['github'], turns: [{ text: '', calls: [] }] }] };
    const ctx = new PolicyContext(big);
    for (const hot of [[], ['create_issue'], ['get_file_contents', 'push_files', 'merge_pull_request']]) {
      const keep = new Set(hot);
      expect(ctx.serverList('github', keep, 'sentence').tools).toEqual(compressColdTools(ctx.safe('github'), { keep: hot }).tools);
      for (const [form, cold] of [['no-preamble', { dropSharedPreamble: true }], ['parameters', { dropSharedPreamble: true, parameters: 'schema' }], ['signature', { dropSharedPreamble: true, parameters: 'signature' }]] as const) {
        expect(ctx.serverList('github', keep, form).tools).toEqual(buildServedTools(ctx.safe('github'), keep, cold));
      }
      expect(ctx.serverList('github', keep, 'signature-once').tools).toEqual(buildServedTools(ctx.safe('github'), keep, { dropSharedPreamble: true, parameters: 'signature' }, 'once'));
    }
  });

  it('serves what a ToolSession serves, before and after a reveal, and answers an invalid cold call as it does', () => {
    const ctx = new PolicyContext(data);
    const s1 = data.sessions.find((s) => s.id === 's1')!;
    const run = policyByName(ctx, 'hot-1/usage/signature/list-changed').start(s1);
    const graph = ctx.history.graph('toyfs', fs.map((t) => t.name), new Set(['s1']), false);
    expect(graph.sessions).toBe(2); // s2 and s3, the usage file without s1
    const session = new ToolSession({ list: ctx.safe('toyfs'), hotSet: { k: 1, graph, policy: 'frequency', minCallsPerSession: 0, reveal: 'list-changed', cold: { dropSharedPreamble: true, parameters: 'signature' }, preamble: 'each' }, listChanged: true });
    expect(run.served().tools).toEqual(session.tools);
    expect(session.hot).toEqual(['cd']);
    const decision = session.onCall('rm', {});
    expect(decision.action).toBe('answer');
    // What the model reads of the answer: its text.
    expect(run.invalidAnswer('rm')).toBe(decision.action === 'answer' ? decision.result.content[0]!.text : 'not answered');
    run.coldCalled('rm');
    expect(run.served().tools).toEqual(session.tools);
    expect(session.hot).toEqual(['cd', 'rm']);
  });

  it('the hot set at start: chooseHotSet on the usage file without this session', () => {
    const ctx = new PolicyContext(data);
    const none = new Set<string>();
    expect([...ctx.history.choose('usage', 'toyfs', fs, 2, new Set(['s1']))]).toEqual(['cd', 'ls']);
    expect([...ctx.history.choose('usage', 'toyfs', fs, 3, new Set(['s1']))]).toEqual(['cd', 'ls']); // rm never called
    expect([...ctx.history.choose('usage', 'toyfs', fs, 1, new Set(['s2']))]).toEqual(['cd']); // s1: cd 2, ls 1; s3: ls 1
    expect([...ctx.history.choose('first', 'toyfs', fs, 2, none)]).toEqual(['cd', 'ls']);
    // rate: calls per recorded session. Without s1: cd 1/2, ls 1/2.
    expect([...ctx.history.choose('rate-0.6', 'toyfs', fs, 3, new Set(['s1']))]).toEqual([]);
    expect([...ctx.history.choose('rate-0.5', 'toyfs', fs, 3, new Set(['s1']))]).toEqual(['cd', 'ls']);
    // prior: only sessions before the first excluded one (file order); s1 has none before it.
    expect([...ctx.history.choose('prior', 'toyfs', fs, 2, new Set(['s1']))]).toEqual([]);
    expect([...ctx.history.choose('prior', 'toyfs', fs, 1, new Set(['s3']))]).toEqual(['cd']); // s1, s2: cd 3, ls 1
  });
});

describe('session folders', () => {
  it('reads any folder of the format and names what is wrong with a bad one', () => {
    expect(data.sessions.map((s) => s.id)).toEqual(['s1', 's2', 's3']);
    const tools = JSON.stringify({ g: [{ name: 'a' }] });
    const bad = (line: object) => () => parseSessionData(tools, JSON.stringify(line));
    expect(bad({ id: 'x', groups: ['h'], turns: [] })).toThrow(/sessions\.jsonl:1: group `h` is not in tools\.json/);
    expect(bad({ id: 'x', groups: ['g'], turns: [{ text: 't', calls: [{ name: 'b', arguments: {} }] }] })).toThrow(/calls `b`, which none of the session's groups/);
    expect(() => parseSessionData('nope', '')).toThrow(SessionDataError);
    expect(() => parseSessionData(tools, '{"id":"x","groups":["g"],"turns":[{"text":"t","calls":[]}]}\n{"id":"x","groups":["g"],"turns":[{"text":"t","calls":[]}]}')).toThrow(/`x` appears twice/);
    expect(() => readSessionFolder(join(TINY, 'missing'))).toThrow(/not found/);
  });

  it('derived data sets: chains, first turns, widened lists', () => {
    const chained = chainSessions(data, 2);
    expect(chained.sessions.map((s) => [s.id, s.sources, s.turns.length])).toEqual([['s1+s2', ['s1', 's2'], 3]]);
    expect(firstTurns(data, 1).sessions.map((s) => s.turns.length)).toEqual([1, 1, 1]);
    const extra = new Map<string, McpTool[]>([
      ['clash', [{ name: 'cd', inputSchema: { type: 'object' } }]],
      ['more', [{ name: 'z', inputSchema: { type: 'object' } }]],
    ]);
    const wide = widenLists(data, extra, 5);
    expect(wide.sessions.map((s) => s.groups)).toEqual([['toyfs', 'toynotes', 'more'], ['toyfs', 'toynotes', 'more'], ['toyfs', 'toynotes', 'more']]);
  });
});

describe('bench/sessions.json and the docs that quote it', () => {
  const root = join(import.meta.dirname, '..');
  const json = JSON.parse(readFileSync(join(root, 'bench', 'sessions.json'), 'utf8')) as { recommended: string; hotSetDefault: string; policies: { name: string; recommended: boolean; costVsFullCached: number; costVsFullCachedHidden: number }[] };
  const get = (name: string) => json.policies.find((p) => p.name === name)!;
  const x = (r: number) => `${r.toFixed(2)}×`;

  it('marks exactly one policy recommended, the one named at the top level', () => {
    const marked = json.policies.filter((p) => p.recommended);
    expect(marked.map((p) => p.name)).toEqual([json.recommended]);
    for (const p of json.policies) for (const key of ['costVsFullCached', 'costVsFullUncached', 'extraRequestsMax', 'extraRequestsMin', 'hitRate', 'bytesPerRequest']) expect(typeof (p as Record<string, unknown>)[key]).toBe('number');
  });

  it('marks what toolslim proxy picks by default; names the --hot-set default beside it', () => {
    expect(json.recommended).toBe('proxy/default');
    expect(get(json.hotSetDefault)).toBeDefined();
  });

  it('docs/usage-graph.md and bench/cold-tools.md quote the current numbers', () => {
    const rec = get(json.hotSetDefault);
    const rerank = get('rerank-5');
    for (const doc of [join(root, 'docs', 'usage-graph.md'), join(root, 'bench', 'cold-tools.md')]) {
      const text = readFileSync(doc, 'utf8');
      expect(text, doc).toContain(x(rerank.costVsFullCached));
      expect(text, doc).toContain(x(rec.costVsFullCached));
      expect(text, doc).toContain(x(rec.costVsFullCachedHidden));
    }
  });
});

describe('the --hot-set default policy is the session layer\'s default', () => {
  const root = join(import.meta.dirname, '..');
  const json = JSON.parse(readFileSync(join(root, 'bench', 'sessions.json'), 'utf8')) as { hotSetDefault: string; policies: { name: string; recommended: boolean; k: number; chooser: Chooser; coldForm: ColdForm; reveal: string }[] };
  const rec = json.policies.find((p) => p.name === json.hotSetDefault)!;

  it('DEFAULT_HOT_SET (what every hot-set option of ToolSession, the proxy and the hook defaults to) says the same', () => {
    const { policy, minCallsPerSession } = chooserOptions(rec.chooser);
    expect({ k: rec.k, policy, minCallsPerSession, reveal: rec.reveal, cold: COLD_FORM_OPTIONS[rec.coldForm], preamble: PREAMBLE_OF_FORM[rec.coldForm] }).toEqual({ ...DEFAULT_HOT_SET });
  });

  it('a ToolSession given only a usage graph serves, on real sessions, exactly the list the recommended policy is priced on', () => {
    const bfcl = readSessionFolder(join(root, 'bench', 'sessions'));
    const ctx = new PolicyContext(bfcl);
    const policy = policyByName(ctx, rec.name);
    for (const session of bfcl.sessions.slice(0, 12)) {
      const served = policy.start(session).served().tools;
      const exclude = PolicyContext.exclusion(session);
      const expected = session.groups.flatMap((g) => {
        const graph = ctx.history.graph(g, ctx.safe(g).map((t) => t.name), exclude, false);
        return new ToolSession({ list: ctx.safe(g), hotSet: { graph } }).tools;
      });
      expect(served, session.id).toEqual(expected);
    }
  });

  it('a ToolSession with search, given only a usage graph, serves on real sessions the list proxy/--search is priced on', () => {
    const bfcl = readSessionFolder(join(root, 'bench', 'sessions'));
    const ctx = new PolicyContext(bfcl);
    const policy = policyByName(ctx, 'proxy/--search');
    for (const session of bfcl.sessions.slice(0, 12)) {
      const served = policy.start(session).served().tools;
      const exclude = PolicyContext.exclusion(session);
      const expected = session.groups.flatMap((g) => {
        const graph = ctx.history.graph(g, ctx.safe(g).map((t) => t.name), exclude, false);
        // The proxy names each server's two tools after the server (its serverInfo.name; here the group's).
        return new ToolSession({ list: ctx.safe(g), hotSet: { graph, search: searchMode(ctx.safe(g).length), searchPrefix: serverToolPrefix(g) } }).tools;
      });
      expect(served, session.id).toEqual(expected);
    }
  });
});
