/**
 * ToolUsageGraph. Expected scores are worked out by hand from the definitions in the issue (transition
 * share, A→B→A, 2^(−age/halfLife), share of name words in the text); determinism is checked on bytes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compressColdTools, ToolslimError, ToolUsageGraph } from '../../src/index.js';
import { loadCorpus } from '../helpers/corpus.js';
import { deepFreeze, jsonClone } from '../helpers/freeze.js';

const SEED = 424_242;
const TOOLS = ['list_issues', 'getPullRequest', 'repo.search', 'create-branch'];
const only = (key: 'transition' | 'alternation' | 'recency' | 'lexical') => ({
  weights: { transition: 0, alternation: 0, recency: 0, lexical: 0, [key]: 1 },
});

describe('signals (hand-computed)', () => {
  // Calls: list_issues, getPullRequest, list_issues, repo.search, list_issues
  // Transitions: LI→GPR 1, GPR→LI 1, LI→RS 1, RS→LI 1. Last = LI (out-weight 2); the one before = RS.
  const events = ['list_issues', 'getPullRequest', 'list_issues', 'repo.search', 'list_issues'];
  const byName = (g: ToolUsageGraph, ctx?: string) => Object.fromEntries(g.rank(ctx).map((r) => [r.name, r]));

  it('transition: weight(last→X) / out-weight(last)', () => {
    const r = byName(new ToolUsageGraph(TOOLS).recordAll(events));
    expect([r.list_issues!.transition, r.getPullRequest!.transition, r['repo.search']!.transition, r['create-branch']!.transition]).toEqual([0, 0.5, 0.5, 0]);
  });

  it('alternation: the call before last, when the last call was another tool', () => {
    const r = byName(new ToolUsageGraph(TOOLS).recordAll(events));
    expect(TOOLS.map((t) => r[t]!.alternation)).toEqual([0, 0, 1, 0]);
    // A self-loop is not an alternation.
    const loop = byName(new ToolUsageGraph(TOOLS).recordAll(['list_issues', 'list_issues']));
    expect(loop.list_issues!.alternation).toBe(0);
    expect(loop.list_issues!.transition).toBe(1);
  });

  it('recency: 2^(−age/halfLife), age 0 for the last call, 0 for a tool never called', () => {
    const r = byName(new ToolUsageGraph(TOOLS, { halfLife: 4 }).recordAll(events));
    // last calls at steps 4 (LI), 1 (GPR), 3 (RS); 5 steps in all.
    expect(r.list_issues!.recency).toBe(1);
    expect(r.getPullRequest!.recency).toBe(Math.pow(2, -3 / 4));
    expect(r['repo.search']!.recency).toBe(Math.pow(2, -1 / 4));
    expect(r['create-branch']!.recency).toBe(0);
    const slow = byName(new ToolUsageGraph(TOOLS, { halfLife: 1 }).recordAll(events));
    expect(slow.getPullRequest!.recency).toBe(0.125);
  });

  it('lexical: share of the name’s words (split at _ - . and camelCase, plurals folded) found in the text', () => {
    const r = byName(new ToolUsageGraph(TOOLS), 'Please search the repo for open issue reports');
    // list_issues {list, issue} → issue: 1/2; getPullRequest {get, pull, request} → 0; repo.search → 2/2; create-branch → 0
    expect(TOOLS.map((t) => r[t]!.lexical)).toEqual([0.5, 0, 1, 0]);
    const r2 = byName(new ToolUsageGraph(TOOLS), 'get me that pull request; create a BRANCH');
    expect(TOOLS.map((t) => r2[t]!.lexical)).toEqual([0, 1, 0, 1]);
    const r3 = byName(new ToolUsageGraph(['search_repositories']), 'which repository?');
    expect(r3.search_repositories!.lexical).toBe(0.5);
  });

  it('score: the weighted mean of the signals', () => {
    const g = new ToolUsageGraph(TOOLS, { halfLife: 4, weights: { transition: 2, alternation: 1, recency: 1, lexical: 0 } }).recordAll(events);
    const r = byName(g);
    expect(r.getPullRequest!.score).toBe((2 * 0.5 + 0 + Math.pow(2, -3 / 4)) / 4);
    expect(r['repo.search']!.score).toBe((2 * 0.5 + 1 + Math.pow(2, -1 / 4)) / 4);
    expect(g.rank().map((x) => x.name)).toEqual(['repo.search', 'getPullRequest', 'list_issues', 'create-branch']);
  });

  it('each signal alone ranks as expected, ties by list position', () => {
    const rankOf = (key: Parameters<typeof only>[0], ctx?: string) => new ToolUsageGraph(TOOLS, only(key)).recordAll(events).rank(ctx).map((x) => x.name);
    expect(rankOf('transition')).toEqual(['getPullRequest', 'repo.search', 'list_issues', 'create-branch']);
    expect(rankOf('alternation')).toEqual(['repo.search', 'list_issues', 'getPullRequest', 'create-branch']);
    expect(rankOf('recency')).toEqual(['list_issues', 'repo.search', 'getPullRequest', 'create-branch']);
    expect(rankOf('lexical', 'branch')).toEqual(['create-branch', 'list_issues', 'getPullRequest', 'repo.search']);
  });
});

describe('hotSet', () => {
  it('gives the list order on a cold graph with no context (all ties)', () => {
    const g = new ToolUsageGraph(TOOLS);
    expect(g.rank().every((r) => r.score === 0)).toBe(true);
    expect(g.hotSet(2)).toEqual(['list_issues', 'getPullRequest']);
  });

  it('returns the top k in list order, not rank order', () => {
    const g = new ToolUsageGraph(TOOLS, only('recency')).recordAll(['create-branch', 'list_issues']);
    expect(g.rank().slice(0, 2).map((r) => r.name)).toEqual(['list_issues', 'create-branch']);
    expect(g.hotSet(2)).toEqual(['list_issues', 'create-branch']);
    expect(new ToolUsageGraph(TOOLS, only('recency')).recordAll(['list_issues', 'create-branch']).hotSet(2)).toEqual(['list_issues', 'create-branch']);
  });

  it('handles k of 0 and k beyond the list, and rejects a bad k', () => {
    const g = new ToolUsageGraph(TOOLS);
    expect(g.hotSet(0)).toEqual([]);
    expect(g.hotSet(99)).toEqual(TOOLS);
    expect(() => g.hotSet(-1)).toThrow(ToolslimError);
    expect(() => g.hotSet(1.5)).toThrow(/k/);
  });

  it('appends tools first seen in record, and takes MCP tools or names', () => {
    const g = new ToolUsageGraph([{ name: 'a' }, 'b', { name: 'a' }]).record('zeta');
    expect(g.tools).toEqual(['a', 'b', 'zeta']);
    expect(g.hotSet(1)).toEqual(['zeta']);
    expect(() => new ToolUsageGraph([{}] as never)).toThrow(/tool 0/);
  });

  it('keeps `__proto__` and `constructor` as ordinary tool names', () => {
    const g = new ToolUsageGraph(['__proto__', 'constructor']).recordAll(['constructor', '__proto__']);
    // constructor: alternation 1 (0.1) + recency 2^(−1/4) (0.2·0.84) beats __proto__: recency 1 (0.2)
    expect(g.rank().map((r) => r.name)).toEqual(['constructor', '__proto__']);
    expect(ToolUsageGraph.fromJSON(JSON.parse(JSON.stringify(g))).rank()).toEqual(g.rank());
  });
});

describe('options', () => {
  it('rejects bad half-lives and weights', () => {
    expect(() => new ToolUsageGraph([], { halfLife: 0 })).toThrow(/halfLife/);
    expect(() => new ToolUsageGraph([], { weights: { recency: -1 } })).toThrow(/recency/);
    expect(() => new ToolUsageGraph([], { weights: { typo: 1 } as never })).toThrow(/unknown weight `typo`/);
  });

  it('rejects a context text that is not a string, and a record that is not a name', () => {
    const g = new ToolUsageGraph(TOOLS);
    expect(() => g.rank({ text: 5 as never })).toThrow(/context text must be a string/);
    expect(() => g.record(3 as never)).toThrow(ToolslimError);
  });

  it('scores 0 everywhere when every weight is 0', () => {
    const g = new ToolUsageGraph(TOOLS, { weights: { transition: 0, alternation: 0, recency: 0, lexical: 0 } }).recordAll(['create-branch']);
    expect(g.hotSet(1, 'branch')).toEqual(['list_issues']);
  });
});

describe('serialization', () => {
  const events = ['a', 'b', 'a', 'c', 'c', 'b', 'a'];

  it('writes a canonical JSON form (hand-written expectation)', () => {
    const g = new ToolUsageGraph(['c', 'b', 'a'], { halfLife: 2 }).recordAll(events);
    expect(g.toJSON()).toEqual({
      version: 1,
      halfLife: 2,
      weights: { transition: 0.3, alternation: 0.1, recency: 0.2, lexical: 0.4 },
      tools: ['c', 'b', 'a'],
      steps: 7,
      recent: ['b', 'a'],
      lastUsed: [
        ['c', 4],
        ['b', 5],
        ['a', 6],
      ],
      transitions: [
        ['c', 'c', 1],
        ['c', 'b', 1],
        ['b', 'a', 2],
        ['a', 'c', 1],
        ['a', 'b', 1],
      ],
    });
  });

  it('round-trips: same JSON, same ranking, and the same future', () => {
    const g = new ToolUsageGraph(['a', 'b', 'c', 'd']).recordAll(events);
    const copy = ToolUsageGraph.fromJSON(JSON.parse(JSON.stringify(g)));
    expect(JSON.stringify(copy)).toBe(JSON.stringify(g));
    expect(copy.rank('c please')).toEqual(g.rank('c please'));
    g.record('d');
    copy.record('d');
    expect(JSON.stringify(copy)).toBe(JSON.stringify(g));
    expect(copy.rank()).toEqual(g.rank());
  });

  it('refuses malformed state with a path', () => {
    const good = new ToolUsageGraph(['a', 'b']).recordAll(['a', 'b']).toJSON();
    const bad = (patch: Record<string, unknown>) => () => ToolUsageGraph.fromJSON({ ...jsonClone(good), ...patch });
    expect(bad({ version: 2 })).toThrow(/version/);
    expect(bad({ tools: ['a', 'a'] })).toThrow(/duplicate/);
    expect(bad({ steps: -1 })).toThrow(/\/steps/);
    expect(bad({ lastUsed: [['zzz', 0]] })).toThrow(/unknown tool "zzz" at `\/lastUsed\/0\/0`/);
    expect(bad({ lastUsed: [['a', 5]] })).toThrow(/\/lastUsed\/0\/1/);
    expect(bad({ transitions: [['a', 'b', 0]] })).toThrow(/\/transitions\/0\/2/);
    expect(bad({ transitions: [['a', 'b', 1], ['a', 'b', 1]] })).toThrow(/duplicate transition/);
    expect(bad({ recent: ['a'] })).toThrow(/\/recent/);
    expect(() => ToolUsageGraph.fromJSON('x')).toThrow(ToolslimError);
  });
});

describe('determinism: the contract', () => {
  const github = deepFreeze(jsonClone(loadCorpus().find((c) => c.file === 'modelcontextprotocol__server-github.json')!.data.toolsList.tools)) as unknown as { name: string }[];
  const names = github.map((t) => t.name as string);
  const session: [string, string[]][] = [
    ['Find the repository for the MCP servers', ['search_repositories']],
    ['Show me the open issues there', ['list_issues', 'get_issue']],
    ['Comment on that issue and update it', ['add_issue_comment', 'update_issue', 'get_issue']],
    ['Now create a branch and push the fix', ['create_branch', 'push_files']],
    ['Open a pull request', ['create_pull_request', 'get_pull_request']],
    ['Check the pull request status again', ['get_pull_request_status', 'get_pull_request']],
  ];

  const replay = () => {
    const g = new ToolUsageGraph(github);
    const out: string[] = [];
    for (const [text, calls] of session) {
      const keep = g.hotSet(5, { text });
      out.push(JSON.stringify(keep), JSON.stringify(compressColdTools(github as never, { keep }, { measure: false }).tools));
      g.recordAll(calls);
      out.push(JSON.stringify(g), JSON.stringify(g.rank(text)));
    }
    return out.join('\n');
  };

  it('replaying the same events 50 times from cold gives byte-identical output', () => {
    const first = replay();
    expect(first.length).toBeGreaterThan(10_000);
    for (let i = 0; i < 49; i++) expect(replay()).toBe(first);
  });

  it('the same hot set gives byte-identical compressed output, whatever events led to it', () => {
    const calls = fc.array(fc.constantFrom(...names.slice(0, 8)), { maxLength: 12 });
    const seen = new Map<string, string>();
    let repeats = 0;
    fc.assert(
      fc.property(calls, fc.constantFrom('', 'issue', 'pull request', 'branch file'), (events, text) => {
        const keep = new ToolUsageGraph(github).recordAll(events).hotSet(3, text);
        const key = [...keep].sort().join('\u0000');
        const bytes = JSON.stringify(compressColdTools(github as never, { keep }, { measure: false }).tools);
        const before = seen.get(key);
        if (before === undefined) seen.set(key, bytes);
        else {
          repeats++;
          expect(bytes).toBe(before);
        }
      }),
      { seed: SEED, numRuns: 300 },
    );
    // Not vacuous: many different event sequences landed on an already-seen hot set.
    expect(repeats).toBeGreaterThan(100);
    expect(seen.size).toBeGreaterThan(5);
  });

  it('pass-through: with every tool hot the output is byte-identical to the input', () => {
    const g = new ToolUsageGraph(github).recordAll(['get_issue', 'list_issues']);
    const keep = g.hotSet(github.length, 'anything');
    expect([...keep].sort()).toEqual([...names].sort());
    const r = compressColdTools(github as never, { keep });
    expect(r.report.changes).toEqual([]);
    expect(JSON.stringify(r.tools)).toBe(JSON.stringify(github));
  });
});

describe('ToolUsageGraph sessions', () => {
  it('counts sessions, keeps them through JSON, and leaves the JSON of session-less graphs as it was', () => {
    const plain = new ToolUsageGraph(['a', 'b']).recordAll(['a', 'b']);
    expect('sessions' in plain.toJSON()).toBe(false);
    const g = new ToolUsageGraph(['a', 'b']).beginSession().recordAll(['a', 'b']).beginSession().record('a');
    expect(g.sessions).toBe(2);
    const json = JSON.parse(JSON.stringify(g));
    expect(json.sessions).toBe(2);
    const back = ToolUsageGraph.fromJSON(json);
    expect(back.sessions).toBe(2);
    expect(JSON.stringify(back)).toBe(JSON.stringify(g));
    // The chain is not broken: b → a still counts, and call counts follow the calls.
    expect(back.callCount('a')).toBe(2);
    expect(back.callCount('b')).toBe(1);
  });

  it('refuses a session count that is not a non-negative integer, naming where', () => {
    const json = { ...new ToolUsageGraph(['a']).toJSON(), sessions: -1 };
    expect(() => ToolUsageGraph.fromJSON(json)).toThrow(/expected a non-negative integer at `\/sessions`/);
    expect(() => ToolUsageGraph.fromJSON({ ...json, sessions: 1.5 })).toThrow(/\/sessions/);
  });
});
