/**
 * inline-small-refs: the tool as a whole grows by at most `maxGrowth` (issue 27 item 6: "where the tool grows
 * ≤ 10%"), not only each definition. Two definitions that each fit but together do not: nothing is inlined and
 * the report says why; a budget both fit together inlines both. The forms are written by hand and measured
 * here (UTF-8 of compact JSON, the step's default measure), not taken from the step.
 */
import { describe, expect, it } from 'vitest';
import { inlineSmallRefs } from '../../src/index.js';
import { deepFreeze } from '../helpers/freeze.js';

const X = { type: 'string', description: 'An identifier of the account, as the accounts endpoint lists it.' };
const Y = { type: 'string', description: 'An identifier of the workspace, as the workspaces endpoint lists it.' };
const ref = (n: string) => ({ $ref: `#/$defs/${n}` });
const tool = (inputSchema: unknown) => ({ name: 't', inputSchema });
const size = (v: unknown) => Buffer.byteLength(JSON.stringify(v));

const input = tool({ type: 'object', properties: { a: ref('X'), b: ref('X'), c: ref('Y'), d: ref('Y') }, $defs: { X, Y } });
const all = tool({ type: 'object', properties: { a: X, b: X, c: Y, d: Y } });
const xBack = tool({ type: 'object', properties: { a: ref('X'), b: ref('X'), c: Y, d: Y }, $defs: { X } });
const yBack = tool({ type: 'object', properties: { a: X, b: X, c: ref('Y'), d: ref('Y') }, $defs: { Y } });

const perDef = Math.max((size(all) - size(xBack)) / size(xBack), (size(all) - size(yBack)) / size(yBack));
const whole = (size(all) - size(input)) / size(input);

describe('inline-small-refs: a cap on the whole tool', () => {
  it('the fixture is what it claims: each definition alone fits a budget the two together exceed', () => {
    expect(perDef).toBeGreaterThan(0);
    expect(whole).toBeGreaterThan(perDef * 1.5);
  });

  it('each fits, both do not: nothing inlined, reported as left alone with the growth', () => {
    const maxGrowth = (perDef + whole) / 2;
    const out = inlineSmallRefs(deepFreeze([input]) as never, { maxGrowth });
    expect(out.tools).toEqual([input]);
    const notes = out.report.diagnostics.filter((d) => d.code === 'left-alone');
    expect(notes).toHaveLength(1);
    expect(notes[0]!.message).toMatch(/would grow the tool by \d+\.\d%/);
  });

  it('a budget both fit together: both inlined, the definitions removed', () => {
    const out = inlineSmallRefs(deepFreeze([input]) as never, { maxGrowth: whole * 1.1 });
    expect(out.tools).toEqual([all]);
  });
});
