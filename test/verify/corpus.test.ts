/**
 * The gate over the real captures in bench/corpus: the default preset passes it with zero failures at
 * the `verdicts` level, and a deliberately broken transform is caught on every tool it breaks (so the
 * zero above means something).
 */
import { describe, expect, it } from 'vitest';
import { defineTransform, transformTools } from '../../src/index.js';
import { loadCorpus } from '../helpers/corpus.js';
import { deepFreeze } from '../helpers/freeze.js';

const corpus = loadCorpus();

describe('bench/corpus through the gate', () => {
  it('the default preset: every changed tool passes the verdicts check (0 failures)', () => {
    let checked = 0;
    let failed = 0;
    const failures: string[] = [];
    for (const { file, data } of corpus) {
      const r = transformTools(deepFreeze(data), { verify: 'verdicts' });
      checked += r.report.stats.verify!.tools;
      failed += r.report.stats.verify!.failed;
      for (const d of r.report.diagnostics) if (d.transform === 'verify') failures.push(`${file}: ${d.message}`);
    }
    expect(failures).toEqual([]);
    expect(failed).toBe(0);
    expect(checked).toBeGreaterThan(0);
  });

  it('a transform that drops the root `required` and `additionalProperties: false` is caught on every tool it changes', () => {
    const breakRoot = defineTransform({
      name: 'break-root',
      description: 'test-only: drops root required and additionalProperties:false',
      safety: 'lossless',
      defaultOptions: {},
      messages: { dropped: 'Dropped `{keyword}`' },
      apply(doc, ctx) {
        const s = doc.tool.inputSchema as Record<string, unknown>;
        if (typeof s !== 'object' || s === null) return;
        if (Array.isArray(s.required) && s.required.length > 0) ctx.remove('/inputSchema/required', 'dropped', { keyword: 'required' });
        if (s.additionalProperties === false) ctx.remove('/inputSchema/additionalProperties', 'dropped', { keyword: 'additionalProperties' });
      },
    });
    let changed = 0;
    let caught = 0;
    let expected = 0;
    for (const { data } of corpus) {
      // Expected from the data alone: tools whose root has a non-empty `required` or `additionalProperties: false`.
      for (const t of data.toolsList.tools) {
        const s = t.inputSchema as Record<string, unknown>;
        if ((Array.isArray(s.required) && s.required.length > 0) || s.additionalProperties === false) expected++;
      }
      const r = transformTools(deepFreeze(data), { transforms: [breakRoot], verify: 'verdicts' });
      changed += r.report.stats.verify!.tools;
      caught += r.report.stats.verify!.failed;
      expect(r.report.changes).toEqual([]);
    }
    expect(changed).toBe(expected);
    expect(caught).toBe(expected);
    expect(expected).toBeGreaterThan(1000);
  });
});
