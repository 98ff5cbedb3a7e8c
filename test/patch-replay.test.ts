/**
 * The report replays byte for byte: for a seeded sample of (tools, pipeline) pairs — fixture inputs and
 * bench/corpus tools, one at a time, under every built-in preset and every profile pipeline —
 * `applyPatch(input, changes)` serializes exactly as the output, and `applyPatch(output,
 * invertPatch(changes))` exactly as the input. The expectation is `JSON.stringify` of what the run itself
 * returned and received. (Whole corpus files under the presets are checked in presets.test.ts.)
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyPatch, builtinPresets, builtinProfiles, invertPatch, presetForProfile, transformTools, type TransformStepInput } from '../src/index.js';
import { loadCorpus } from './helpers/corpus.js';
import { loadFixtures } from './helpers/fixtures.js';
import { deepFreeze, jsonClone } from './helpers/freeze.js';

const pipelines: [string, TransformStepInput[]][] = [
  ...builtinPresets.map((p): [string, TransformStepInput[]] => [p.name, [p]]),
  ...builtinPresets.flatMap((p) => builtinProfiles.map((pr): [string, TransformStepInput[]] => [`${p.name}+${pr.name}`, presetForProfile(p.name, pr.name)])),
];

const inputs: [string, unknown[]][] = [
  ...loadFixtures()
    .filter((c) => Array.isArray(c.input))
    .map((c): [string, unknown[]] => [`fixture ${c.transform}/${c.name}`, c.input as unknown[]]),
  ...loadCorpus().flatMap(({ file, data }) => data.toolsList.tools.map((t, i): [string, unknown[]] => [`${file} #${i}`, [t]])),
];

describe('report replay, byte for byte', () => {
  it('applyPatch reproduces the output and invertPatch the input, for a seeded sample of tools × pipelines', () => {
    let renames = 0;
    fc.assert(
      fc.property(fc.nat(inputs.length - 1), fc.nat(pipelines.length - 1), (i, p) => {
        const [, tools] = inputs[i]!;
        const [, steps] = pipelines[p]!;
        const input = deepFreeze(jsonClone(tools)) as never;
        const result = transformTools(input, { transforms: steps });
        const changes = result.report.changes;
        renames += changes.filter((c) => c.op === 'move' || (c.op === 'remove' && c.index !== undefined)).length;
        expect(JSON.stringify(applyPatch(input, changes))).toBe(JSON.stringify(result.tools));
        expect(JSON.stringify(applyPatch(result.tools, invertPatch(changes)))).toBe(JSON.stringify(input));
      }),
      { seed: 0x70a7c4, numRuns: 400 },
    );
    // The sample reaches the cases this is about: moves and removals that are not of the last key.
    expect(renames).toBeGreaterThan(0);
  });
});
