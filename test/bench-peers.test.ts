/**
 * The peers of bench:sessions (issue 30) and the BM25 their searches run, checked against values worked out
 * by hand: BM25 scores on a three-document corpus, and each peer's price over the tiny two-turn session s1
 * (test/data/sessions-tiny) with a stand-in tokenizer that counts every text as 10 tokens, so a price is
 * arithmetic on the blocks each request carries.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSessionFolder } from '../bench/lib/sessions/data.js';
import { evaluate, summarize } from '../bench/lib/sessions/evaluate.js';
import { policyByName } from '../bench/lib/sessions/names.js';
import { searchFor } from '../bench/lib/sessions/peers.js';
import { PolicyContext } from '../bench/lib/sessions/policies.js';
import { addServers } from '../bench/lib/sessions/scenarios.js';
import { presetForProfile, transformTools, type McpTool } from '../src/index.js';

describe('a search round trip', () => {
  const tools: McpTool[] = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta_target'].map((name) => ({ name, description: name === 'eta_target' ? 'Rarely found.' : `Common words ${name}.`, inputSchema: { type: 'object' } }));
  const byOrder = (q: string) => (q === 'eta target' ? [6, 0, 1, 2, 3, 4, 5] : [0, 1, 2, 3, 4, 5, 6]);

  it('a hit is one search of 5 results', () => {
    expect(searchFor(tools, byOrder, 'gamma', 'anything')).toEqual({ rank: 3, results: [[0, 1, 2, 3, 4]] });
  });

  it('a miss costs a second search, with the words of the name, that holds the tool', () => {
    expect(searchFor(tools, byOrder, 'eta_target', 'anything')).toEqual({ rank: 7, results: [[0, 1, 2, 3, 4], [6, 0, 1, 2, 3]] });
    // When the second ranking does not hold it in its top 5 either, it takes the last place.
    expect(searchFor(tools, () => [0, 1, 2, 3, 4, 5, 6], 'eta_target', 'x').results[1]).toEqual([0, 1, 2, 3, 6]);
  });
});

describe('peer prices on the hand-worked session s1', () => {
  // s1: turn 0 "go" → cd(a); turn 1 "list" → ls(), cd(..). Results 20 tokens, answers 5; every text 10.
  // Conversation alone, 5 requests: [u0] 12.5 · +c,r: 1 + 37.5 · +a0,u1: 4 + 18.75 · +c,r: 5.5 + 37.5 · +c,r: 8.5 + 37.5
  // → 162.75. Full list (cd, ls, rm: 30): 30 · 1.25 + 4 · 3 = 49.5.
  const data = readSessionFolder(join(import.meta.dirname, 'data', 'sessions-tiny'));
  const s1 = data.sessions.filter((s) => s.id === 's1');
  const ten = () => 10;
  const price = (name: string) => {
    const ctx = new PolicyContext(data);
    const ev = evaluate(s1, policyByName(ctx, 'full'), [policyByName(ctx, name)], { conversation: { resultTokens: 20, answerTokens: 5 }, count: ten });
    expect(ev.conversation.cached).toBeCloseTo(162.75, 9);
    expect(ev.full.bounds.max.cached).toBeCloseTo(49.5, 9);
    const p = ev.policies[0]!;
    // No call of a peer fails validation: every bound prices the same.
    for (const b of ['first', 'hidden', 'min'] as const) expect(p.bounds[b].cached).toBeCloseTo(p.bounds.max.cached, 9);
    return { cost: p.bounds.max.cached, stats: p.bounds.max.stats, summary: summarize(ev, p) };
  };

  // One load per first use (cd in turn 0, ls in turn 1), prefix P tokens, each load call 10 and its result 10:
  // R1 load cd [P,u0] · R2 cd +s,l · R3 answer +c,r · R4 load ls +a0,u1 · R5 ls +s,l · R6 cd +c,r · R7 answer +c,r.
  // With P = 20: 37.5 · 3 + 25 · 5 + 37.5 · 8 + 18.75 · 9.5 + 25 · 11.5 + 37.5 · 14.5 + 37.5 = 270.25.
  it('meta-tools: two meta-tools (20), a schema call before each tool\'s first use', () => {
    const { cost, stats, summary } = price('meta-tools');
    expect(cost).toBeCloseTo(270.25 - 162.75, 9);
    expect(stats).toMatchObject({ baseRequests: 5, extraRequests: 2, loadRequests: 2, loadTokens: 40 });
    expect(summary.costVsFullCached).toBeCloseTo(107.5 / 49.5, 9);
    expect(summary.extraRequestsMax).toBeCloseTo(2 / 5, 12);
    expect(summary.recallAt1).toBeNull();
    expect(summary).toMatchObject({ family: 'peer', side: 'proxy' });
  });

  it('defer-names: a search tool and the names block (20), a select load per first use', () => {
    const { cost, summary } = price('defer-names');
    expect(cost).toBeCloseTo(270.25 - 162.75, 9);
    expect(summary).toMatchObject({ family: 'peer', side: 'client' });
  });

  it('defer-description: the search tool and three name-and-description stubs (40), a load per first use', () => {
    // 62.5 · 5 + 25 · 7 + 37.5 · 10 + 18.75 · 11.5 + 25 · 13.5 + 37.5 · 16.5 + 37.5 = 307.25
    expect(price('defer-description').cost).toBeCloseTo(307.25 - 162.75, 9);
  });

  it('defer-search: one search finds cd first and loads all three definitions (30); ls is loaded already', () => {
    // "go" matches no term: every score 0, list order, cd first. R1 [T10,u0] 25 · R2 +s10,l30: 2 + 50 ·
    // R3 +c,r: 6 + 37.5 · R4 ls +a0,u1: 9 + 18.75 · R5 cd +c,r: 10.5 + 37.5 · R6 +c,r: 13.5 + 37.5 → 247.25
    const { cost, stats, summary } = price('defer-search');
    expect(cost).toBeCloseTo(247.25 - 162.75, 9);
    expect(stats).toMatchObject({ extraRequests: 1, searches: 1, at1: 1, loadTokens: 40 });
    expect(summary.recallAt1).toBe(1);
  });

  it('search-proxy: two tools (20), the search result one JSON text (10)', () => {
    // R1 37.5 · R2 3 + 25 · R3 5 + 37.5 · R4 8 + 18.75 · R5 9.5 + 37.5 · R6 12.5 + 37.5 → 231.75
    const { cost, summary } = price('search-proxy');
    expect(cost).toBeCloseTo(231.75 - 162.75, 9);
    expect(summary).toMatchObject({ family: 'peer', side: 'proxy', recallAt5: 1 });
  });

  it('toolslim hot set beside a search tool: cd and ls hot (rate 0.5 each without s1), rm behind search + call', () => {
    // Served: cd, ls, toyfs_search_tools, toyfs_call_tool = 40, never changing, no round trip: 40 · 1.25 + 4 · 4 = 66.
    const { cost, stats, summary } = price('hot-5/rate-0.35/search');
    expect(cost).toBeCloseTo(66, 9);
    expect(stats.extraRequests).toBe(0);
    expect(summary).toMatchObject({ family: 'toolslim', side: 'proxy', kind: 'search', recallAt1: null });
  });

  it('proxy/default: toyfs has 3 tools (< 100), so chooseServing serves them all: priced as the full list (49.5)', () => {
    const { cost, stats, summary } = price('proxy/default');
    expect(cost).toBeCloseTo(49.5, 9);
    expect(stats.extraRequests).toBe(0);
    expect(summary).toMatchObject({ family: 'toolslim', side: 'proxy', costVsFullCached: 1 });
  });

  it('proxy/--search: below 100 tools the names variant; cd and ls hot, rm never called: 40 served, no round trip (66)', () => {
    expect(price('proxy/--search').cost).toBeCloseTo(66, 9);
  });

  it('proxy/claude-code: Claude Code deferring the proxy\'s list is priced as defer-names (a search tool, the names, a load per first use)', () => {
    const { cost, summary } = price('proxy/claude-code');
    expect(cost).toBeCloseTo(270.25 - 162.75, 9);
    expect(summary).toMatchObject({ family: 'toolslim', kind: 'composed' });
  });

  it('proxy/default and proxy/--search choose per server: a connected server of 120 tools is served behind its search tool', () => {
    const big: McpTool[] = Array.from({ length: 120 }, (_, i) => ({ name: `w${i}`, description: `Widget ${i}.`, inputSchema: { type: 'object' } }));
    const wide = addServers(data, new Map([['big', big]]), 1);
    const ctx = new PolicyContext(wide, data);
    const s1w = wide.sessions.find((s) => s.id === 's1')!;
    const names = (policy: string) => policyByName(ctx, policy).start(s1w).served().tools.map((t) => t.name);
    // toyfs in full (3 < 100); big: nothing of it was ever called, so nothing hot, only its search and call tools.
    expect(names('proxy/default')).toEqual(['cd', 'ls', 'rm', 'big_search_tools', 'big_call_tool']);
    // --search: toyfs's hot set (cd, ls) and its search tool naming rm; big's search tool naming none (120 ≥ 100).
    const served = policyByName(ctx, 'proxy/--search').start(s1w).served().tools;
    expect(served.map((t) => t.name)).toEqual(['cd', 'ls', 'toyfs_search_tools', 'toyfs_call_tool', 'big_search_tools', 'big_call_tool']);
    expect(served[2]!.description).toMatch(/Its other tools: rm\.$/);
    expect(served[4]!.description).not.toContain('w1');
  });

  it('proxy/default: a connected server under 100 tools but of 3,000 bytes or more is served behind a search tool naming its tools', () => {
    // 20 tools of 160 bytes each or more: over 3,000 bytes of compact JSON, far under 100 tools.
    const mid: McpTool[] = Array.from({ length: 20 }, (_, i) => ({ name: `m${i}`, description: `Mid tool ${i}. ${'x'.repeat(120)}`, inputSchema: { type: 'object' } }));
    expect(Buffer.byteLength(JSON.stringify(mid))).toBeGreaterThanOrEqual(3000);
    const wide = addServers(data, new Map([['mid', mid]]), 1);
    const ctx = new PolicyContext(wide, data);
    const served = policyByName(ctx, 'proxy/default').start(wide.sessions.find((s) => s.id === 's1')!).served().tools;
    expect(served.map((t) => t.name)).toEqual(['cd', 'ls', 'rm', 'mid_search_tools', 'mid_call_tool']);
    expect(served[3]!.description).toMatch(new RegExp(`Its other tools: ${mid.map((t) => t.name).join(', ')}\\.$`));
  });

  it('proxy/claude-code loads what the proxy serves claude-code: the list through presetForProfile(\'safe\', \'claude-code\')', () => {
    const ctx = new PolicyContext(data);
    const run = policyByName(ctx, 'proxy/claude-code').start(s1[0]!);
    const call = s1[0]!.turns[0]!.calls[0]!;
    const trip = run.roundTrips!(call, 'go')[0]!;
    const expected = transformTools(data.groups.get('toyfs')!, { transforms: presetForProfile('safe', 'claude-code') }).tools.find((t) => t.name === 'cd');
    expect(trip).toEqual({ output: '{"name":"ToolSearch","arguments":{"query":"select:cd"}}', result: { tools: [expected] } });
    expect(run.served().texts).toEqual(['Deferred tools (load with ToolSearch before calling):\ncd\nls\nrm']);
  });

  it('each call is written as the mechanism wraps it', () => {
    const ctx = new PolicyContext(data);
    const call = s1[0]!.turns[0]!.calls[0]!;
    const meta = policyByName(ctx, 'meta-tools').start(s1[0]!);
    expect(meta.callText!(call)).toBe('{"name":"toyfs_invoke_tool","arguments":{"tool_name":"cd","tool_input":{"folder":"a"}}}');
    expect(meta.roundTrips!(call, 'go')[0]!.output).toBe('{"name":"toyfs_get_tool_schema","arguments":{"tool_name":"cd"}}');
    expect(meta.roundTrips!(call, 'go')).toEqual([]); // loaded now
    const proxy = policyByName(ctx, 'search-proxy').start(s1[0]!);
    expect(proxy.callText!(call)).toBe('{"name":"call_tool","arguments":{"name":"cd","arguments":{"folder":"a"}}}');
    const trip = proxy.roundTrips!(call, 'go')[0]!;
    expect(trip.result).toBe(JSON.stringify(data.groups.get('toyfs')));
  });
});

describe('distractor servers', () => {
  it('each session gets n more servers from a moving offset, skipping name clashes', () => {
    const data = readSessionFolder(join(import.meta.dirname, 'data', 'sessions-tiny'));
    const extra = new Map<string, McpTool[]>([
      ['a', [{ name: 'a1', inputSchema: { type: 'object' } }]],
      ['clash', [{ name: 'cd', inputSchema: { type: 'object' } }]],
      ['b', [{ name: 'b1', inputSchema: { type: 'object' } }]],
    ]);
    // Pool (toynotes is already a group): a, clash, b. Stride 1: s1 from a, s2 from clash (skipped) → b, a; s3 from b.
    const wide = addServers(data, extra, 2, 1);
    expect(wide.sessions.map((s) => s.groups)).toEqual([['toyfs', 'a', 'b'], ['toyfs', 'b', 'a'], ['toyfs', 'toynotes', 'b', 'a']]);
  });
});

describe('bench/sessions.json carries what issue 30 asks for', () => {
  const json = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'bench', 'sessions.json'), 'utf8')) as {
    recommended: string;
    units: string[];
    policies: Record<string, unknown>[];
    scenarios: { scenario: string; toolsPerSession: number; policies: Record<string, unknown>[] }[];
    sensitivity: { scenario: string; policies: Record<string, unknown>[] }[];
  };
  const runs = [{ scenario: 'bfcl', policies: json.policies }, ...json.scenarios, ...json.sensitivity];

  it('every policy says its family, side and scenario; each scenario marks the policy the proxy picks', () => {
    for (const r of runs) {
      expect(r.policies.filter((p) => p.recommended === true).map((p) => p.name), r.scenario).toEqual([json.recommended]);
      for (const p of r.policies) {
        expect(['toolslim', 'peer'], `${r.scenario} ${String(p.name)}`).toContain(p.family);
        expect(['client', 'proxy']).toContain(p.side);
        expect(p.scenario).toBe(r.scenario);
      }
    }
  });

  it('the peers are priced in bfcl, servers-5/10/20 and long results, in json and typescript, with recall for the searches', () => {
    expect(json.units).toEqual(expect.arrayContaining(['json', 'typescript']));
    const sizes = Object.fromEntries(json.scenarios.map((s) => [s.scenario, s.toolsPerSession]));
    expect(sizes['servers-5']).toBeGreaterThan(100);
    expect(sizes['servers-10']).toBeGreaterThan(sizes['servers-5']!);
    expect(sizes['servers-20']).toBeGreaterThan(sizes['servers-10']!);
    for (const scenario of ['bfcl', 'servers-5', 'servers-10', 'servers-20', 'long-results']) {
      const r = runs.find((x) => x.scenario === scenario)!;
      for (const name of ['defer-search', 'defer-search-regex', 'defer-names', 'defer-description', 'meta-tools', 'search-proxy']) {
        const p = r.policies.find((x) => x.name === name);
        expect(p, `${scenario} ${name}`).toBeDefined();
        expect(p!.family).toBe('peer');
        expect(Object.keys(p!.units as object)).toEqual(expect.arrayContaining(['json', 'typescript']));
        const searches = name.startsWith('defer-search') || name === 'search-proxy';
        for (const k of ['recallAt1', 'recallAt3', 'recallAt5']) expect(typeof p![k], `${scenario} ${name} ${k}`).toBe(searches ? 'number' : 'object');
        if (searches) expect(p!.recallAt1 as number).toBeLessThanOrEqual(p!.recallAt5 as number);
      }
    }
  });

  it('toolslim proxy --profile claude-code under Claude Code costs at most Claude Code alone, in json and typescript, in every compared scenario', () => {
    for (const scenario of ['bfcl', 'servers-5', 'servers-10', 'servers-20', 'long-results']) {
      const r = runs.find((x) => x.scenario === scenario)!;
      const get = (n: string) => r.policies.find((p) => p.name === n) as { costVsFullCached: number; extraRequestsMax: number; units: Record<string, { costVsFullCached: number }> };
      const under = get('proxy/claude-code');
      const alone = get('defer-names');
      expect(under.costVsFullCached, scenario).toBeLessThanOrEqual(alone.costVsFullCached);
      expect(under.units.typescript!.costVsFullCached, scenario).toBeLessThanOrEqual(alone.units.typescript!.costVsFullCached);
      expect(under.extraRequestsMax).toBe(alone.extraRequestsMax);
    }
  });
});
