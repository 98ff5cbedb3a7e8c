/** Options of reconcile-dialect and hoist-nested-defs are checked before any tool is touched. */
import { describe, expect, it } from 'vitest';
import { hoistNestedDefs, reconcileDialect, ToolslimError } from '../../src/index.js';

const tools = [{ name: 't', inputSchema: { type: 'object' } }];

describe('option checks', () => {
  it.each([
    [{ target: 'draft-04' }, /target/],
    [{ assume: 'draft-03' }, /assume/],
    [{ stamp: 'always' }, /stamp/],
    [{ refSiblings: 'drop' }, /refSiblings/],
    [{ foreignKeywords: 'apply' }, /foreignKeywords/],
    [{ slots: ['schema'] }, /slots/],
    [{ nope: true }, /unknown option `nope`/],
  ])('reconcile-dialect refuses %j', (options, message) => {
    expect(() => reconcileDialect(tools, options as never)).toThrow(ToolslimError);
    expect(() => reconcileDialect(tools, options as never)).toThrow(message);
  });

  it.each([
    [{ refTargets: 'yes' }, /refTargets/],
    [{ assume: 'draft-3' }, /assume/],
    [{ target: '2020-12' }, /unknown option `target`/],
  ])('hoist-nested-defs refuses %j', (options, message) => {
    expect(() => hoistNestedDefs(tools, options as never)).toThrow(message);
  });

  it('accepts every documented value', () => {
    for (const target of ['2020-12', 'draft-07'] as const)
      for (const stamp of ['omit', 'write', 'keep'] as const)
        for (const assume of ['2020-12', 'openapi-3.0', 'draft-07'] as const) expect(reconcileDialect(tools, { target, stamp, assume, refSiblings: 'apply', foreignKeywords: 'keep' }).report.skipped).toEqual([]);
    expect(hoistNestedDefs(tools, { refTargets: true, assume: 'draft-07' }).report.skipped).toEqual([]);
  });
});
