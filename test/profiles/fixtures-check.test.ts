/**
 * The checker on the adapt-to-client fixtures: each tool the transform rewrote failed its profile's checker
 * before and passes after; what the transform reports as left over is exactly what the checker still finds.
 */
import { describe, expect, it } from 'vitest';
import { builtinProfiles, checkToolsForProfile } from '../../src/index.js';
import { loadFixtures } from '../helpers/fixtures.js';

const cases = loadFixtures().filter((c) => c.transform === 'adapt-to-client');
// Diagnostics only the transform emits (why it could not rewrite something); the rest are checker findings.
const TRANSFORM_ONLY = new Set(['allof-kept', 'recursive-ref', 'growth-capped', 'ref-siblings-ambiguous', 'inline-unsafe', 'hoist-unsafe', 'tool-count', 'open-map', 'free-form-object', 'required-invalid']);
// Of those, the ones that say why a rewritten tool is still rejected (a lossy step converted what it could).
const PARTIAL = new Set(['open-map', 'free-form-object', 'required-invalid']);
const profileOf = (options: object) => ((options as { profile?: string }).profile ?? 'mcp');
const errorsByTool = (findings: ReturnType<typeof checkToolsForProfile>) => {
  const m = new Map<number, number>();
  for (const f of findings) if (f.severity === 'error') m.set(f.toolIndex, (m.get(f.toolIndex) ?? 0) + 1);
  return m;
};

describe.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
  const profile = profileOf(c.options);
  const before = checkToolsForProfile(c.input, profile);
  const after = checkToolsForProfile(c.output, profile);
  const input = c.input as unknown[];
  const output = c.output as unknown[];

  it('every rewritten tool fails the checker before and passes it after (unless the transform names what it could not convert)', () => {
    const b = errorsByTool(before);
    const a = errorsByTool(after);
    const partial = new Set((c.diagnostics ?? []).filter((d) => PARTIAL.has(d.code)).map((d) => Number(d.path.split('/')[1])));
    for (let i = 0; i < input.length; i++) {
      if (JSON.stringify(input[i]) === JSON.stringify(output[i])) continue;
      expect(b.get(i) ?? 0, `tool ${i} before`).toBeGreaterThan(0);
      if (!partial.has(i)) expect(a.get(i) ?? 0, `tool ${i} after`).toBe(0);
    }
  });

  it('reports as left over exactly what the checker still finds', () => {
    const left = (c.diagnostics ?? []).filter((d) => !TRANSFORM_ONLY.has(d.code));
    const found = after.filter((f) => f.toolIndex >= 0).map((f) => ({ severity: f.severity, code: f.code, path: f.path }));
    expect(found).toEqual(left);
    const capped = (c.diagnostics ?? []).some((d) => d.code === 'tool-count');
    expect(after.some((f) => f.code === 'tool-count')).toBe(capped);
  });
});

it('has fixtures for every built-in profile, and a fixed tool for each profile where a fix exists', () => {
  const byProfile = new Map<string, { fixed: number }>();
  for (const c of cases) {
    const p = profileOf(c.options);
    const e = byProfile.get(p) ?? { fixed: 0 };
    const b = errorsByTool(checkToolsForProfile(c.input, p));
    const a = errorsByTool(checkToolsForProfile(c.output, p));
    for (const [i, n] of b) if (i >= 0 && n > 0 && !a.has(i)) e.fixed++;
    byProfile.set(p, e);
  }
  expect([...byProfile.keys()].sort()).toEqual(builtinProfiles.map((p) => p.name).sort());
  // `mcp` and `openai` have nothing that can be rewritten without changing meaning (names, counts, broken refs).
  for (const p of ['claude', 'openai-strict', 'gemini', 'kimi', 'ref-free']) expect(byProfile.get(p)!.fixed, p).toBeGreaterThan(0);
});
