/**
 * chooseHotSet: hand-worked cases, and every policy against an oracle that recomputes the scores from the
 * recorded call sequence itself (counts, last positions), not from the graph.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ToolslimError, ToolUsageGraph } from '../../src/index.js';
import { chooseHotSet, HOT_SET_POLICIES, type HotSetPolicy } from '../../src/session/hot-set.js';

const NAMES = ['a', 'b', 'c', 'd', 'e'];

describe('chooseHotSet', () => {
  it('without a graph no tool is hot (no evidence), unless list-order is asked for', () => {
    expect(chooseHotSet(NAMES, 2)).toEqual([]);
    expect(chooseHotSet(NAMES, 2, { policy: 'recency' })).toEqual([]);
    expect(chooseHotSet(NAMES, 2, { policy: 'list-order' })).toEqual(['a', 'b']);
    expect(chooseHotSet(NAMES.map((name) => ({ name, inputSchema: {} })), 3, { policy: 'list-order' })).toEqual(['a', 'b', 'c']);
    expect(chooseHotSet(NAMES, 0, { policy: 'list-order' })).toEqual([]);
    expect(chooseHotSet(NAMES, 9, { policy: 'list-order' })).toEqual(NAMES);
  });

  it('frequency: the most-called tools, returned in list order; ties by list order; never-called tools never hot', () => {
    // calls: d d b d b e → d 3, b 2, e 1
    const graph = new ToolUsageGraph(NAMES).recordAll(['d', 'd', 'b', 'd', 'b', 'e']);
    expect(chooseHotSet(NAMES, 1, { graph })).toEqual(['d']);
    expect(chooseHotSet(NAMES, 2, { graph })).toEqual(['b', 'd']);
    expect(chooseHotSet(NAMES, 3, { graph })).toEqual(['b', 'd', 'e']);
    expect(chooseHotSet(NAMES, 4, { graph })).toEqual(['b', 'd', 'e']);
    // b and e tie at one call each: b is listed first
    const tie = new ToolUsageGraph(NAMES).recordAll(['e', 'b']);
    expect(chooseHotSet(NAMES, 1, { graph: tie })).toEqual(['b']);
  });

  it('frequency: the floor keeps out tools called less than minCallsPerSession times per session', () => {
    // 4 sessions: d 3 calls (0.75/session), b 2 (0.5), e 1 (0.25)
    const graph = new ToolUsageGraph(NAMES).recordAll(['d', 'd', 'b', 'd', 'b', 'e']).beginSession().beginSession().beginSession().beginSession();
    expect(graph.sessions).toBe(4);
    expect(chooseHotSet(NAMES, 5, { graph })).toEqual(['b', 'd']); // default floor 0.35
    expect(chooseHotSet(NAMES, 5, { graph, minCallsPerSession: 0.6 })).toEqual(['d']);
    expect(chooseHotSet(NAMES, 5, { graph, minCallsPerSession: 0 })).toEqual(['b', 'd', 'e']);
    expect(chooseHotSet(NAMES, 5, { graph, minCallsPerSession: 0.25 })).toEqual(['b', 'd', 'e']);
    // No session counted: read as one session.
    const noSessions = new ToolUsageGraph(NAMES).recordAll(['d']);
    expect(chooseHotSet(NAMES, 5, { graph: noSessions, minCallsPerSession: 1 })).toEqual(['d']);
    expect(chooseHotSet(NAMES, 5, { graph: noSessions, minCallsPerSession: 1.5 })).toEqual([]);
  });

  it('recency: the latest-called tools', () => {
    const graph = new ToolUsageGraph(NAMES).recordAll(['d', 'd', 'd', 'b', 'e', 'a']);
    expect(chooseHotSet(NAMES, 2, { graph, policy: 'recency' })).toEqual(['a', 'e']);
    expect(chooseHotSet(NAMES, 3, { graph, policy: 'recency' })).toEqual(['a', 'b', 'e']);
  });

  it('graph: the graph’s own rank with no text', () => {
    const graph = new ToolUsageGraph(NAMES).recordAll(['a', 'b', 'a', 'c', 'a', 'b']);
    const expected = graph
      .rank({})
      .slice(0, 2)
      .map((r) => r.name)
      .sort();
    expect(chooseHotSet(NAMES, 2, { graph, policy: 'graph' })).toEqual(expected);
  });

  it('list-order ignores the graph; names the graph does not know score as never called', () => {
    const graph = new ToolUsageGraph(['x', 'e']).recordAll(['x', 'e', 'e']);
    expect(chooseHotSet(NAMES, 2, { graph, policy: 'list-order' })).toEqual(['a', 'b']);
    expect(chooseHotSet(NAMES, 2, { graph })).toEqual(['e']);
  });

  it('duplicates count once, unnamed entries are never hot', () => {
    expect(chooseHotSet(['a', 'a', { name: 'b' }, { title: 'x' } as never, 'c'], 2, { policy: 'list-order' })).toEqual(['a', 'b']);
  });

  it('rejects bad arguments with errors that name them', () => {
    expect(() => chooseHotSet(NAMES, -1)).toThrow(/`k` must be a non-negative integer, got -1/);
    expect(() => chooseHotSet(NAMES, 1.5)).toThrow(ToolslimError);
    expect(() => chooseHotSet(NAMES, 1, { policy: 'popular' as HotSetPolicy })).toThrow(/unknown hot-set policy "popular" \(known: frequency, recency, graph, list-order\)/);
    expect(() => chooseHotSet(NAMES, 1, { graph: { tools: [] } as never })).toThrow(/`graph` must be a ToolUsageGraph/);
    expect(() => chooseHotSet('abc' as never, 1)).toThrow(/`tools` must be an array/);
    expect(() => chooseHotSet(NAMES, 1, { minCallsPerSession: -1 })).toThrow(/`minCallsPerSession` must be a non-negative number, got -1/);
  });

  it('property: every policy agrees with an oracle computed from the call sequence', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...NAMES, 'z'), { maxLength: 30 }), fc.integer({ min: 0, max: 6 }), fc.constantFrom(...HOT_SET_POLICIES.filter((p) => p !== 'graph')), fc.integer({ min: 0, max: 5 }), fc.constantFrom(0, 0.35, 1, 2.5), (calls, k, policy, sessions, floor) => {
        const graph = new ToolUsageGraph(NAMES).recordAll(calls);
        for (let i = 0; i < sessions; i++) graph.beginSession();
        const count = (n: string) => calls.filter((c) => c === n).length;
        const last = (n: string) => calls.lastIndexOf(n);
        const qualifies = (n: string) => (policy === 'list-order' ? true : policy === 'recency' ? last(n) >= 0 : count(n) > 0 && count(n) / Math.max(1, sessions) >= floor);
        const score = (n: string) => (policy === 'frequency' ? count(n) : policy === 'recency' ? last(n) : 0);
        const ranked = NAMES.map((n, i) => ({ n, i, s: score(n) }))
          .filter((x) => qualifies(x.n))
          .sort((x, y) => y.s - x.s || x.i - y.i);
        const expected = ranked
          .slice(0, k)
          .sort((x, y) => x.i - y.i)
          .map((x) => x.n);
        expect(chooseHotSet(NAMES, k, { graph, policy, minCallsPerSession: floor })).toEqual(expected);
        // And the graph answers counts and last calls the same way, also after a JSON round trip.
        const copy = ToolUsageGraph.fromJSON(JSON.parse(JSON.stringify(graph)));
        for (const n of [...NAMES, 'z']) {
          expect(copy.callCount(n)).toBe(count(n));
          expect(copy.lastCalled(n)).toBe(last(n));
        }
      }),
      { seed: 13_001, numRuns: 400 },
    );
  });
});
