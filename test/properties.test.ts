/**
 * Properties over generated tool lists (fixed seed in CI; `npm run fuzz` runs longer with FUZZ_RUNS):
 * every preset and every non-lossy transform keeps ajv's verdict on every instance, is idempotent and
 * deterministic, never mutates its input, and its patch replays to its output; every local `$ref` that
 * resolved before still resolves.
 */
import fc from 'fast-check';
import jsonPatch from 'fast-json-patch';
import { describe, expect, it } from 'vitest';
import { builtinPresets, builtinTransforms, findUnresolvedRefs, getDeclaredDialect, transformTools, type TransformStepInput } from '../src/index.js';
import { verdicts } from './helpers/ajv.js';
import { instancesArb, toolsArb } from './helpers/arbitraries.js';
import { deepFreeze, jsonClone } from './helpers/freeze.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 40);
const SEED = Number(process.env.FUZZ_SEED ?? 20261129);

const subjects: [string, TransformStepInput][] = [
  ...builtinPresets.map((p) => [`preset ${p.name}`, p] as [string, TransformStepInput]),
  ...builtinTransforms.filter((t) => t.safety !== 'lossy').map((t) => [`transform ${t.name}`, t] as [string, TransformStepInput]),
];

function unresolvedCount(schema: unknown): number {
  if (typeof schema !== 'object' || schema === null) return 0;
  return findUnresolvedRefs(schema, getDeclaredDialect(schema).dialect).length;
}

describe.each(subjects)('%s', (_label, step) => {
  it('keeps verdicts, refs, purity, idempotence, determinism and patch replay', () => {
    fc.assert(
      fc.property(toolsArb(), instancesArb(), (rawTools, instances) => {
        const tools = deepFreeze(jsonClone(rawTools));
        const before = JSON.stringify(tools);
        const r = transformTools(tools, { transforms: [step], verify: false } as never);
        expect(JSON.stringify(tools)).toBe(before);
        expect(r.report.skipped).toEqual([]);
        // Deterministic: same input, same bytes.
        expect(JSON.stringify(transformTools(jsonClone(rawTools), { transforms: [step], verify: false } as never).tools)).toBe(JSON.stringify(r.tools));
        // Idempotent.
        expect(transformTools(r.tools, { transforms: [step], verify: false } as never).report.changes).toEqual([]);
        // The patch replays (a third-party RFC 6902 implementation).
        const ops = r.report.changes.map(({ op, path, from, value }) => (op === 'move' ? { op, path, from } : op === 'remove' ? { op, path } : { op, path, value })) as jsonPatch.Operation[];
        expect(jsonPatch.applyPatch(jsonClone(rawTools), jsonClone(ops), true, false).newDocument).toEqual(jsonClone(r.tools));
        for (let i = 0; i < tools.length; i++) {
          const a = tools[i]!.inputSchema;
          const b = (r.tools[i] as Record<string, unknown>).inputSchema;
          expect(unresolvedCount(b)).toBeLessThanOrEqual(unresolvedCount(a));
          const va = verdicts(a, instances);
          if ('error' in va) continue; // ajv refuses the generated original: nothing to compare
          const vb = verdicts(b, instances);
          expect(vb, `tool ${i}: ${JSON.stringify(a)} → ${JSON.stringify(b)}`).toEqual(va);
        }
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
