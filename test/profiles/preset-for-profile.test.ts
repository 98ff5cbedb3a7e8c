import { describe, expect, it } from 'vitest';
import { adaptToClient, definePreset, defineTransform, planForProfile, presetForProfile, presetSafe, resolveSteps, transformTools, type Preset } from '../../src/index.js';
import { o200k } from '../../src/tokens.js';
import { loadCorpus } from '../helpers/corpus.js';

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
  it('keeps them for clients that resolve references and do not read them as `any`', () => {
    for (const profile of ['mcp', 'kimi', 'claude', 'claude-code', 'qwen', 'llama']) {
      expect(resolveSteps(presetForProfile(preset, profile)).map(([t]) => t.name)).toEqual([...preset.steps.map((t) => t.name), 'adapt-to-client']);
    }
  });
  it('leaves out transforms that write server instructions for clients that do not show them', () => {
    expect(resolveSteps(presetForProfile(withPromote, 'mcp')).map(([t]) => t.name)).toEqual([...withPromote.steps.map((t) => t.name), 'adapt-to-client']);
    for (const profile of ['claude', 'gemini', 'kimi', 'ref-free', 'qwen', 'llama', 'claude-code']) {
      expect(resolveSteps(presetForProfile(withPromote, profile)).map(([t]) => t.name), profile).toEqual([...presetSafe.steps.map((t) => t.name), 'adapt-to-client']);
    }
    // A typescript reader gets normalize-unions, inline-small-refs (by default) and normalize-unions again before adapt-to-client.
    expect(resolveSteps(presetForProfile(withPromote, 'openai')).map(([t]) => t.name)).toEqual([...presetSafe.steps.map((t) => t.name), 'normalize-unions', 'inline-small-refs', 'normalize-unions', 'adapt-to-client']);
    expect(resolveSteps(presetForProfile(withPromote, 'openai', { inlineRefs: false })).map(([t]) => t.name)).toEqual([...presetSafe.steps.map((t) => t.name), 'normalize-unions', 'adapt-to-client']);
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
  it('rejects an option other than overrides, growthCap, growthAllowance, lossy, renameTools, tokenizer and inlineRefs', () => {
    expect(() => presetForProfile('max', 'openai', { growthcap: 3 } as never)).toThrow('presetForProfile: unknown option `growthcap` (known: overrides, growthCap, growthAllowance, lossy, renameTools, tokenizer, inlineRefs)');
    expect(() => presetForProfile('max', 'openai', { inlineRefs: 'yes' } as never)).toThrow('presetForProfile: `inlineRefs` must be true or false');
    expect(() => presetForProfile('max', 'openai', { tokenizer: 'o200k' } as never)).toThrow(/`tokenizer` must have a count\(text\) method/);
  });
});

// A description long enough that the tool's TypeScript form grows by less than 10% when `to` shows its type.
const LONG = 'Ships a parcel from one address to another and back again, choosing the cheapest carrier that delivers within the requested window. Returns the tracking number, the carrier, the price and the expected delivery date of both legs, or an error naming the address that could not be reached.';

describe('planForProfile: presets that know their reader (issue 27)', () => {
  const names = (plan: ReturnType<typeof planForProfile>) => resolveSteps(plan.steps).map(([t]) => t.name);
  it('a typescript reader: no step that writes `$ref`, inline-small-refs before adapt-to-client unless turned off, each skip with its reason', () => {
    for (const profile of ['openai', 'openai-strict']) {
      // normalize-unions for openai only: openai-strict's close-objects writes nullable properties as `anyOf` with null.
      const unions = profile === 'openai' ? ['normalize-unions'] : [];
      expect(names(planForProfile('max', profile, { inlineRefs: false })), profile).toEqual(['reconcile-dialect', 'hoist-nested-defs', 'prune-unreachable-defs', 'normalize-schema', 'strip-noise', 'strip-vendor-extensions', ...unions, 'adapt-to-client']);
      // On by default for openai only: openai-strict's close-objects rewrites kept definitions after it (asked for, it runs).
      if (profile === 'openai-strict') expect(names(planForProfile('max', profile)), profile).toEqual(names(planForProfile('max', profile, { inlineRefs: false })));
      const plan = planForProfile('max', profile, { inlineRefs: true });
      expect(names(plan), profile).toEqual(['reconcile-dialect', 'hoist-nested-defs', 'prune-unreachable-defs', 'normalize-schema', 'strip-noise', 'strip-vendor-extensions', ...unions, 'inline-small-refs', ...unions, 'adapt-to-client']);
      expect(plan.skipped.map((s) => s.transform)).toEqual(['dedupe-repeated-subtrees', 'promote-common-params']);
      expect(plan.skipped[0]!.reason).toMatch(/TypeScript, where a `\$ref` renders as `any`/);
      expect(plan.skipped[1]!.reason).toMatch(/does not show the server's instructions/);
    }
  });
  it('a deferring client: no step that writes instructions, said why; references kept (its reader resolves them)', () => {
    const plan = planForProfile('max', 'claude-code');
    expect(names(plan)).toEqual(['reconcile-dialect', 'hoist-nested-defs', 'prune-unreachable-defs', 'normalize-schema', 'strip-noise', 'strip-vendor-extensions', 'dedupe-repeated-subtrees', 'adapt-to-client']);
    expect(plan.skipped).toEqual([{ transform: 'promote-common-params', reason: expect.stringMatching(/defers tool schemas and pays the server's instructions on every request: promote-common-params would move text from the deferred descriptions into the always-paid part/) }]);
  });
  it('mcp keeps all of max; presetForProfile returns the plan\'s steps', () => {
    expect(planForProfile('max', 'mcp').skipped).toEqual([]);
    expect(resolveSteps(presetForProfile('max', 'openai')).map(([t]) => t.name)).toEqual(names(planForProfile('max', 'openai')));
  });
  it('for openai, inlines a definition used once, so the typescript reader sees its type; dedupe is not run', () => {
    const address = { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } }, required: ['street'] };
    const tools = [
      { name: 'ship', description: LONG, inputSchema: { type: 'object', properties: { to: { $ref: '#/$defs/Address' }, from: address, back: address }, $defs: { Address: address } } },
    ];
    const r = transformTools(tools, { transforms: presetForProfile('max', 'openai', { inlineRefs: true }) });
    // Hand-written: the reference replaced by the definition, the emptied $defs gone; the repeats stay inline.
    expect(r.tools[0]!.inputSchema).toEqual({ type: 'object', properties: { to: address, from: address, back: address } });
    expect(r.report.changes.filter((c) => c.transform === 'inline-small-refs').map((c) => `${c.op} ${c.path} ${c.code}`)).toEqual(['replace /0/inputSchema/properties/to inlined-ref', 'remove /0/inputSchema/$defs removed-empty-defs']);
    expect(r.report.changes.some((c) => c.transform === 'dedupe-repeated-subtrees')).toBe(false);
    // Plain max keeps dedupe and says which readers it hurts.
    const addr = { type: 'object', properties: { street: { type: 'string', description: 'Street and house number' }, city: { type: 'string', description: 'City or town' } }, required: ['street'] };
    const plain = transformTools([{ name: 'ship', inputSchema: { type: 'object', properties: { from: addr, to: addr } } }], { transforms: ['max'] });
    expect(plain.report.changes.filter((c) => c.code === 'replaced-subtree').length).toBe(2);
    expect(plain.report.diagnostics.filter((d) => d.code === 'hides-types').map((d) => d.message)).toEqual([expect.stringMatching(/TypeScript reader \(openai, openai-strict\) renders as `any`/)]);
  });
  it('never raises the count of types the reader cannot see: a definition holding two `anyOf`s stays a reference', () => {
    // Branches that may overlap (the second has no `type`): normalize-unions cannot make this a `oneOf`.
    const either = { anyOf: [{ type: 'string' }, { minLength: 3 }] };
    const tools = [{ name: 'configure', description: `${LONG} ${LONG} ${LONG}`, inputSchema: { type: 'object', properties: { cfg: { $ref: '#/$defs/Cfg' }, mode: { $ref: '#/$defs/Mode' } }, $defs: { Cfg: { type: 'object', properties: { a: either, b: either } }, Mode: { type: 'string', enum: ['fast', 'slow'] } } } }];
    const r = transformTools(tools, { transforms: presetForProfile('safe', 'openai', { inlineRefs: true }) });
    // Mode is inlined (one `any` fewer); Cfg would turn one `any` into two, so it stays.
    expect(r.tools[0]!.inputSchema).toEqual({ type: 'object', properties: { cfg: { $ref: '#/$defs/Cfg' }, mode: { type: 'string', enum: ['fast', 'slow'] } }, $defs: { Cfg: { type: 'object', properties: { a: either, b: either } } } });
  });
  it('measures growth in the reader\'s unit: a tokenizer passed in counts the typescript rendering', () => {
    const big = { type: 'object', properties: Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`field_${i}`, { type: 'string', description: `The field number ${i}` }])) };
    const tools = [{ name: 'many', inputSchema: { type: 'object', properties: { a: { $ref: '#/$defs/Big' }, b: { $ref: '#/$defs/Big' }, c: { $ref: '#/$defs/Big' } }, $defs: { Big: big } } }];
    const calls: string[] = [];
    const counting = { name: 'words', count: (text: string) => (calls.push(text), text.split(/\s+/).length) };
    const r = transformTools(tools, { transforms: presetForProfile('safe', 'openai', { tokenizer: counting, inlineRefs: true }) });
    // Three uses of a twelve-field object: far more than 10% of a tool that renders three `any`s.
    expect(r.tools[0]!.inputSchema).toEqual(tools[0]!.inputSchema);
    expect(r.report.diagnostics.filter((d) => d.code === 'kept-ref').map((d) => d.path)).toEqual(['/0/inputSchema/properties/a/$ref', '/0/inputSchema/properties/b/$ref', '/0/inputSchema/properties/c/$ref']);
    // The measure saw the harmony form (`type many = (_: {…}) => any;`), not JSON.
    expect(calls.length).toBeGreaterThan(0);
    expect(calls[0]).toMatch(/^type many = \(_: \{/m);
  });
});

describe('presetForProfile for a typescript reader reaches its fixed point with inline-small-refs on (issue 27 item 6)', () => {
  // Each run of the old step granted a fresh 10% budget, so a second run over its own output inlined more.
  const corpus = loadCorpus().map((c) => ({ file: c.file, tools: c.data.toolsList.tools as unknown[] }));
  for (const preset of ['safe', 'max']) {
    it(`${preset}+openai: plan(plan(x)) is plan(x), byte for byte, on every corpus capture`, () => {
      const steps = presetForProfile(preset, 'openai', { tokenizer: o200k });
      const notFixed: string[] = [];
      for (const c of corpus) {
        const once = transformTools(c.tools, { transforms: steps });
        const twice = transformTools(once.tools, { transforms: steps, verify: false });
        if (JSON.stringify(twice.tools) !== JSON.stringify(once.tools) || twice.report.changes.length > 0) notFixed.push(c.file);
      }
      expect(notFixed).toEqual([]);
    });
  }
});
