import { describe, expect, it } from 'vitest';
import { adaptToClient, definePreset, defineTransform, presetForProfile, presetSafe, resolveSteps, transformTools, type Preset } from '../../src/index.js';

// A stand-in with the name the real transform will have (issue 4): presetForProfile matches by name.
const fakeDedupe = defineTransform<object, undefined>({
  name: 'dedupe-repeated-subtrees',
  description: 'stand-in that turns every `properties` value into a reference',
  safety: 'lossless',
  defaultOptions: {},
  messages: { x: 'x' },
  apply() {},
});
const fakePromote = defineTransform<object, undefined>({
  name: 'promote-common-params',
  description: 'stand-in that would move shared parameter text into instructions',
  safety: 'lossless',
  defaultOptions: {},
  messages: { x: 'x' },
  apply() {},
});
const preset: Preset = definePreset('test', 'test preset', [...presetSafe.steps, fakeDedupe]);
const withPromote: Preset = definePreset('test2', 'test preset', [...presetSafe.steps, fakePromote]);

describe('presetForProfile', () => {
  it('leaves out reference-creating transforms for a client that cannot resolve references, then adapts', () => {
    for (const profile of ['ref-free', 'gemini']) {
      const steps = resolveSteps(presetForProfile(preset, profile));
      expect(steps.map(([t]) => t.name)).toEqual([...presetSafe.steps.map((t) => t.name), 'adapt-to-client']);
      expect(steps[steps.length - 1]![0]).toBe(adaptToClient);
      // Both need their schema assertions relaxed and formats described (their profiles list keywords and formats).
      expect(steps[steps.length - 1]![1]).toEqual(profile === 'gemini' ? { profile, growthAllowance: 2048, relaxAssertions: true, describeFormats: true, renameTools: true, reconcile: {} } : { profile, growthAllowance: 2048 });
    }
  });
  it('keeps them for clients that resolve references', () => {
    for (const profile of ['mcp', 'openai-strict', 'kimi', 'claude']) {
      expect(resolveSteps(presetForProfile(preset, profile)).map(([t]) => t.name)).toEqual([...preset.steps.map((t) => t.name), 'adapt-to-client']);
    }
  });
  it('leaves out transforms that write server instructions for clients that do not show them', () => {
    expect(resolveSteps(presetForProfile(withPromote, 'mcp')).map(([t]) => t.name)).toEqual([...withPromote.steps.map((t) => t.name), 'adapt-to-client']);
    for (const profile of ['claude', 'openai', 'gemini', 'kimi', 'ref-free']) {
      expect(resolveSteps(presetForProfile(withPromote, profile)).map(([t]) => t.name), profile).toEqual([...presetSafe.steps.map((t) => t.name), 'adapt-to-client']);
    }
  });
  it('drops an override of a transform it left out, keeps the others, passes the growth cap', () => {
    const steps = resolveSteps(presetForProfile(preset, 'ref-free', { overrides: { 'dedupe-repeated-subtrees': {}, 'prune-unreachable-defs': { keep: ['A'] } }, growthCap: 3 }));
    const byName = new Map(steps.map(([t, o]) => [t.name, o]));
    expect(byName.has('dedupe-repeated-subtrees')).toBe(false);
    expect(byName.get('prune-unreachable-defs')).toEqual({ keep: ['A'] });
    expect(steps[steps.length - 1]![0].name).toBe('adapt-to-client');
    expect(steps[steps.length - 1]![1]).toEqual({ profile: 'ref-free', growthCap: 3, growthAllowance: 2048 });
  });
  it('turns on exactly the lossy steps a profile asks for, and none with lossy: false', () => {
    const adapt = (profile: string, o = {}) => resolveSteps(presetForProfile('safe', profile, o)).at(-1)![1];
    expect(adapt('openai-strict')).toEqual({ profile: 'openai-strict', growthAllowance: 2048, relaxAssertions: true, describeFormats: true, closeObjects: true, renameTools: true, reconcile: {} });
    // rename-tools: every profile whose name rule is an error (mcp's is a recommendation; ref-free has none).
    for (const p of ['claude', 'openai', 'kimi']) expect(adapt(p), p).toEqual({ profile: p, growthAllowance: 2048, renameTools: true });
    for (const p of ['mcp', 'ref-free']) expect(adapt(p), p).toEqual({ profile: p, growthAllowance: 2048 });
    expect(adapt('openai-strict', { lossy: false, growthAllowance: 0 })).toEqual({ profile: 'openai-strict', growthAllowance: 0 });
    expect(adapt('openai-strict', { renameTools: false })).toEqual({ profile: 'openai-strict', growthAllowance: 2048, relaxAssertions: true, describeFormats: true, closeObjects: true, reconcile: {} });
    expect(adapt('kimi', { renameTools: false })).toEqual({ profile: 'kimi', growthAllowance: 2048 });
  });
  it('with a lossy schema step on, passes adapt-to-client the options the preset runs reconcile-dialect with', () => {
    const adapt = (profile: string, o = {}, p: Preset | string = 'safe') => resolveSteps(presetForProfile(p, profile, o)).at(-1)![1] as { reconcile?: unknown };
    // The preset's own options for the step, then the override's over them (as the preset's step gets them).
    const draft07 = definePreset('d7', 'draft-07 output', presetSafe.steps, { 'reconcile-dialect': { target: 'draft-07', stamp: 'keep' } });
    expect(adapt('gemini', {}, draft07).reconcile).toEqual({ target: 'draft-07', stamp: 'keep' });
    expect(adapt('gemini', { overrides: { 'reconcile-dialect': { stamp: 'write' } } }, draft07).reconcile).toEqual({ target: 'draft-07', stamp: 'write' });
    expect(adapt('openai-strict', { overrides: { 'reconcile-dialect': { assume: 'draft-07' } } }).reconcile).toEqual({ assume: 'draft-07' });
    // Left out of the preset, off, or no lossy schema step (renames only, or lossy: false): not passed.
    expect(adapt('openai-strict', { overrides: { 'reconcile-dialect': false } })).not.toHaveProperty('reconcile');
    expect(adapt('gemini', {}, definePreset('no-rd', 'without reconcile-dialect', presetSafe.steps.filter((t) => t.name !== 'reconcile-dialect')))).not.toHaveProperty('reconcile');
    expect(adapt('gemini', { lossy: false })).not.toHaveProperty('reconcile');
    expect(adapt('kimi')).not.toHaveProperty('reconcile');
  });
  it('accepts a preset by name and runs end to end', () => {
    const tools = [{ name: 'a', inputSchema: { type: 'object', properties: { x: { $ref: '#/$defs/X' } }, $defs: { X: { type: 'string' }, Unused: { type: 'number' } } } }];
    const r = transformTools(tools, { transforms: presetForProfile('safe', 'ref-free') });
    expect(r.tools[0]!.inputSchema).toEqual({ type: 'object', properties: { x: { type: 'string' } } });
    expect(r.report.diagnostics).toEqual([]);
    expect(() => presetForProfile('prune-unreachable-defs', 'mcp')).toThrow(/not a preset/);
  });
  it('rejects an option other than overrides, growthCap, growthAllowance, lossy and renameTools', () => {
    expect(() => presetForProfile('max', 'openai', { growthcap: 3 } as never)).toThrow('presetForProfile: unknown option `growthcap` (known: overrides, growthCap, growthAllowance, lossy, renameTools)');
  });
});
