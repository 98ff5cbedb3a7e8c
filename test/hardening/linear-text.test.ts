/**
 * Hostile descriptions take linear time (issue 12): every family of bench/lib/hostile-text.ts, at a quarter of
 * a megabyte per description, through the default call `transformTools(tools)` and strip-noise alone.
 *
 * No timed assertion here (issue 31: a test that asserts timings fails on a loaded machine, and a red CI
 * blocks every landing). The backtracking patterns these families were built against took four to eight
 * times as long per doubling: at 256k characters that is hours, while the linear rules take tens of
 * milliseconds, so each test's timeout is the guard, with orders of magnitude of margin either way. The
 * time itself, and the ratio at 1 MB and 2 MB, are measured by bench/hostile.ts (`npm run bench`), which
 * holds the target.
 */
import { describe, expect, it } from 'vitest';
import { HOSTILE_FAMILIES, requiredProperties } from '../../bench/lib/hostile-text.js';
import { stripNoise, transformTools } from '../../src/index.js';

const CHARS = 256 * 1024;

type Run = (tools: unknown[]) => { tools: readonly unknown[] };
const runs: readonly [string, Run][] = [
  ['default call', (tools) => transformTools(tools)],
  ['strip-noise alone', (tools) => stripNoise(tools)],
];

/** Every description string of a tools array (tool level and one level of properties). */
function descriptionChars(tools: readonly unknown[]): number {
  let n = 0;
  for (const t of tools as { description?: unknown; inputSchema?: { properties?: Record<string, { description?: unknown }> } }[]) {
    if (typeof t.description === 'string') n += t.description.length;
    for (const p of Object.values(t.inputSchema?.properties ?? {})) if (typeof p.description === 'string') n += p.description.length;
  }
  return n;
}

describe('hostile descriptions take linear time (256k characters each, within the test timeout)', () => {
  for (const family of HOSTILE_FAMILIES) {
    it(`${family.name}: ${family.targets}`, () => {
      const tools = family.build(Math.ceil(CHARS / family.unit));
      const before = descriptionChars(tools);
      expect(before).toBeGreaterThanOrEqual(CHARS - family.unit);
      for (const [label, run] of runs) {
        const out = run(tools).tools;
        expect(out, label).toHaveLength(tools.length);
        // Cleaning only removes text: the output never holds more description than the input.
        expect(descriptionChars(out), label).toBeLessThanOrEqual(before);
      }
    });
  }

  it('a property’s `required` look-up: 100k required properties (a look-up per property over the list would be 1e10 steps)', () => {
    // 100k: every property is looked up; every thousandth says `Required.`, and only those lose it.
    const tools = requiredProperties(100_000, (i) => (i % 1000 === 0 ? 'Required. A value.' : 'A value.'));
    const { tools: out, report } = stripNoise(tools);
    const properties = (out[0] as unknown as { inputSchema: { properties: Record<string, { description: string }> } }).inputSchema.properties;
    expect(report.changes.map((c) => c.path)).toEqual(Array.from({ length: 100 }, (_, k) => `/0/inputSchema/properties/p${k * 1000}/description`));
    expect(new Set(report.changes.map((c) => c.code))).toEqual(new Set(['removed-optional-marker']));
    expect(properties.p0!.description).toBe('A value.');
    expect(properties.p1!.description).toBe('A value.');
  });

  it('the URL rule finds the lines that hold a URL with searches that pass over each character a bounded number of times', () => {
    // Counted, not timed: every `indexOf` / `lastIndexOf` on a string while strip-noise runs adds the characters
    // it passed over. A search for the next `](` from each line's end (no link anywhere: each one runs to the
    // end of the text) passes over about lines × length / 2 of them: 20k lines of 13 characters, 2.6e9.
    const family = HOSTILE_FAMILIES.find((f) => f.name === 'url-lines')!;
    const tools = family.build(Math.ceil(CHARS / family.unit));
    const length = descriptionChars(tools);
    const proto = String.prototype as unknown as Record<'indexOf' | 'lastIndexOf', (this: string, search: string, from?: number) => number>;
    const { indexOf, lastIndexOf } = proto;
    let passed = 0;
    proto.indexOf = function (search, from = 0) {
      const at = indexOf.call(this, search, from);
      passed += (at === -1 ? this.length : at + search.length) - Math.max(0, from);
      return at;
    };
    proto.lastIndexOf = function (search, from = Infinity) {
      const at = lastIndexOf.call(this, search, from);
      passed += Math.min(from, this.length) - (at === -1 ? 0 : at);
      return at;
    };
    let out: readonly unknown[];
    try {
      out = stripNoise(tools).tools;
    } finally {
      proto.indexOf = indexOf;
      proto.lastIndexOf = lastIndexOf;
    }
    // Every line's URL went (what the rule is for), and the searches stayed within a few dozen passes.
    expect((out[0] as { description: string }).description).not.toContain('http');
    expect(passed).toBeGreaterThan(length);
    expect(passed).toBeLessThan(100 * length);
  });
});
