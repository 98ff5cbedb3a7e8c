/**
 * The collision search's bound of work: a list whose texts are short and alike (numbered names without
 * descriptions) made `check` run for minutes (200,000 tools: more than 120 s), so the search stops at a bound
 * and says so. What it reports for the tools it searched must still be exact: checked against a brute-force
 * oracle written here (plain Sets of two-character strings, every pair), with bounds small enough to stop
 * the search anywhere in the list. The lint's and `analyzeSurface`'s reaction to a stopped search is checked
 * with the search's bound lowered (the default one takes seconds to reach).
 */
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { analyzeSurface } from '../../src/index.js';
import * as collisions from '../../src/lint/collisions.js';
import { lintTools } from '../../src/lint/index.js';
import { makeStyle, renderReport } from '../../src/cli/format.js';
import { allPairsPartners } from '../helpers/all-pairs.js';

vi.mock('../../src/lint/collisions.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/lint/collisions.js')>();
  return { ...real, findCollisions: vi.fn(real.findCollisions) };
});

const real = (await vi.importActual<typeof import('../../src/lint/collisions.js')>('../../src/lint/collisions.js')).findCollisions;

/** For every tool, its partners at or above `threshold` (and above 0; most similar first, ties by position), from every pair (test/helpers/all-pairs.ts). */
function oracle(texts: readonly string[], threshold: number, partners: number): Map<number, [number, number][]> {
  const out = new Map<number, [number, number][]>();
  allPairsPartners(texts, threshold, partners).forEach((found, x) => {
    if (found.length > 0) out.set(x, found.map((p) => [p.toolIndex, p.score]));
  });
  return out;
}

/** `n` numbered names without descriptions, as collisionText makes them: `t0`, `t1`, … */
const numbered = (n: number) => Array.from({ length: n }, (_, i) => `t${i}`);

describe('the collision search stops at its bound of work', () => {
  it('reports exactly what every pair gives for the tools it searched, and nothing after them (fixed seed)', () => {
    let stopped = 0;
    let finished = 0;
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer({ min: 2, max: 400 }).map(numbered),
          fc.array(fc.stringMatching(/^[a-d]{0,12}$/), { minLength: 2, maxLength: 60 }),
          fc.array(fc.stringMatching(/^[a-z0-9]{3,40}$/), { minLength: 2, maxLength: 60 }),
        ),
        fc.integer({ min: 0, max: 20_000 }),
        fc.constantFrom(0.3, 0.5),
        fc.integer({ min: 1, max: 3 }),
        (texts, maxWork, threshold, partners) => {
          const names = texts.map((_, i) => `n${i}`);
          const r = real(texts, names, { threshold, partners, maxWork });
          expect(r.searched).toBeGreaterThanOrEqual(0);
          expect(r.searched).toBeLessThanOrEqual(texts.length);
          expect(r.complete).toBe(r.searched === texts.length);
          if (r.complete) finished++;
          else stopped++;
          const expected = oracle(texts, threshold, partners);
          const want = [...expected].filter(([x]) => x < r.searched).map(([x, ps]) => [x, ps]);
          expect(r.tools.map((t) => [t.toolIndex, t.partners.map((p) => [p.toolIndex, p.score])])).toEqual(want);
          // The pairs: those the searched tools list, each once.
          const pairs = new Set(want.flatMap(([x, ps]) => (ps as [number, number][]).map(([y]) => `${Math.min(x as number, y)},${Math.max(x as number, y)}`)));
          expect(new Set(r.pairs.map((p) => `${p.aIndex},${p.bIndex}`))).toEqual(pairs);
        },
      ),
      { seed: 3131, numRuns: 250 },
    );
    // The bounds drawn stop some searches and let others finish.
    expect(stopped).toBeGreaterThan(20);
    expect(finished).toBeGreaterThan(20);
  });

  it('stops on a list of numbered names without descriptions, and a larger bound searches further', () => {
    const texts = numbered(3000);
    const names = texts;
    const small = real(texts, names, { maxWork: 200_000 });
    const larger = real(texts, names, { maxWork: 2_000_000 });
    expect(small.complete).toBe(false);
    expect(small.searched).toBeGreaterThan(0);
    expect(larger.searched).toBeGreaterThan(small.searched);
    // The default bound lets this list (and every list of the suite's other collision tests) finish.
    const whole = real(texts, names);
    expect(whole.complete).toBe(true);
    expect(whole.searched).toBe(3000);
    // What the smaller search reports is the whole search's result for its tools.
    expect(small.tools).toEqual(whole.tools.filter((t) => t.toolIndex < small.searched));
  });

  it('the lint says the search stopped, which tools its findings cover, and reports none after them', () => {
    vi.mocked(collisions.findCollisions).mockImplementation((texts, names, options) => real(texts, names, { ...options, maxWork: 50_000 }));
    try {
      const tools = numbered(1500).map((name) => ({ name, inputSchema: { type: 'object' } }));
      const searched = real(tools.map((t) => t.name), tools.map((t) => t.name), { maxWork: 50_000 }).searched;
      expect(searched).toBeGreaterThan(0);
      expect(searched).toBeLessThan(1500);
      const findings = lintTools(tools).filter((f) => f.code === 'description-collision');
      const list = findings.filter((f) => f.toolIndex < 0);
      const stoppedNote = list.find((f) => f.message.includes('stopped'));
      expect(stoppedNote?.message).toContain(`after the first ${searched.toLocaleString('en-US')} of 1,500 tools`);
      expect(stoppedNote?.severity).toBe('info');
      // The summary counts the tools searched, not the list.
      expect(list.find((f) => f.message.includes('read like another tool'))?.message).toContain(`of the first ${searched} tools`);
      const perTool = findings.filter((f) => f.toolIndex >= 0);
      expect(perTool.length).toBeGreaterThan(0);
      expect(Math.max(...perTool.map((f) => f.toolIndex))).toBeLessThan(searched);
      // Severity follows the rule's: at error, the stopped search fails a CI run that asked for the rule.
      expect(lintTools(tools, { severity: { 'description-collision': 'error' } }).find((f) => f.message.includes('stopped'))?.severity).toBe('error');
      // analyzeSurface: the same note among its findings, and the result says so.
      const surface = analyzeSurface(tools);
      expect(surface.collisions.complete).toBe(false);
      expect(surface.collisions.searched).toBe(searched);
      expect(surface.findings.filter((f) => f.toolIndex < 0).map((f) => f.message)).toEqual([stoppedNote!.message]);
    } finally {
      vi.mocked(collisions.findCollisions).mockImplementation(real);
    }
  });
});

describe("report's text lists a code's whole-list findings before its tools'", () => {
  it('shows the whole-list findings of a code with more than five tool findings', () => {
    const perTool = Array.from({ length: 8 }, (_, i) => ({ severity: 'info' as const, code: 'description-collision' as const, tool: `t${i}`, toolIndex: i, path: `/${i}`, message: `tool ${i} reads like another` }));
    const whole = [
      { severity: 'info' as const, code: 'description-collision' as const, tool: '', toolIndex: -1, path: '', message: 'SUMMARY of the list' },
      { severity: 'info' as const, code: 'description-collision' as const, tool: '', toolIndex: -1, path: '', message: 'the search STOPPED' },
    ];
    const text = renderReport({ source: 'x.json', steps: 'safe', total: { bytes: 1, bytesAfter: 1 }, tools: [], transforms: [], skipped: [], findings: [...perTool, ...whole] } as never, 'text', makeStyle(false), 10);
    expect(text).toContain('SUMMARY of the list');
    expect(text).toContain('the search STOPPED');
    expect(text).toContain('tool 4 reads like another');
    expect(text).not.toContain('tool 5 reads like another');
    expect(text).toContain('… 3 more');
  });
});
