/**
 * adapt-to-client's rename-tools step (lossy, `renameTools`): every name a profile refuses gets one it
 * accepts, judged by the profile checker (`checkToolsForProfile`, which the step does not call); no two
 * tools end with the same name unless they came with it; names the profile accepts stay; the report maps
 * each new name back to the old one. Hand-written cases (the fixture cases are in
 * test/fixtures/adapt-to-client/rules/rename-tools/) and a property over generated names (fixed seed).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { adaptToClient, builtinProfiles, checkToolsForProfile, defineProfile, planToolRenames, presetForProfile, toolRenamesOf, transformTools } from '../../src/index.js';
import { deepFreeze } from '../helpers/freeze.js';

const tool = (name: string) => ({ name, inputSchema: { type: 'object', properties: { q: { type: 'string' } } } });
const NAMED = builtinProfiles.filter((p) => p.toolName?.severity === 'error');

describe('planToolRenames', () => {
  it('renames only refused names, by hand', () => {
    const rule = { pattern: '^[A-Za-z_][A-Za-z0-9_.-]{0,63}$', maxLength: 64, severity: 'error' as const };
    const plan = planToolRenames(['ok_name', '9lives', 'a b', ''], rule);
    expect([...plan.renames]).toEqual([
      ['9lives', '_9lives'],
      ['a b', 'a_b'],
    ]);
    expect([...plan.kept]).toEqual([]);
  });

  it('keeps (and names) a name no rename makes acceptable', () => {
    // A custom rule only uppercase names pass: nothing toolslim tries (it never changes case) matches.
    const shouting = defineProfile({ name: 'shouting', title: 'Uppercase names', dialect: '2020-12', slots: ['inputSchema'], refs: 'any', refSiblings: 'any', toolName: { pattern: '^[A-Z]+$', maxLength: 20, severity: 'error' }, showsInstructions: false, docs: 'docs/profiles/mcp.md' });
    const r = adaptToClient(deepFreeze([tool('OK'), tool('lower')]), { profile: shouting, renameTools: true });
    expect(r.tools.map((t) => t.name)).toEqual(['OK', 'lower']);
    expect(r.report.changes).toEqual([]);
    expect(r.report.diagnostics.map((d) => `${d.severity} ${d.code} ${d.path}`)).toEqual(['error name-kept /1/name', 'error tool-name /1/name']);
    expect(r.report.diagnostics[0]!.message).toBe('Kept the name `lower`: no rename toolslim tries matches `^[A-Z]+$`');
  });
});

describe('adapt-to-client renameTools', () => {
  it('is off by default and off in presetForProfile with lossy: false or renameTools: false', () => {
    const input = deepFreeze([tool('21st_magic_component_builder')]);
    expect(adaptToClient(input, { profile: 'gemini' }).tools[0]!.name).toBe('21st_magic_component_builder');
    expect(transformTools(input, { transforms: presetForProfile('safe', 'gemini', { lossy: false }) }).tools[0]!.name).toBe('21st_magic_component_builder');
    expect(transformTools(input, { transforms: presetForProfile('safe', 'gemini', { renameTools: false }) }).tools[0]!.name).toBe('21st_magic_component_builder');
    expect(transformTools(input, { transforms: presetForProfile('safe', 'gemini') }).tools[0]!.name).toBe('_21st_magic_component_builder');
    expect(() => presetForProfile('safe', 'gemini', { renameTools: 'no' as never })).toThrow('`renameTools` must be true or false');
  });

  it('does not run for a profile whose name rule is only a recommendation (mcp)', () => {
    const r = adaptToClient(deepFreeze([tool('has space')]), { profile: 'mcp', renameTools: true });
    expect(r.tools[0]!.name).toBe('has space');
    expect(r.report.diagnostics.map((d) => `${d.severity} ${d.code}`)).toEqual(['warning tool-name']);
  });

  it('reports each rename with the old and new name, and toolRenamesOf maps back; the gate keeps it', () => {
    // gemini takes `.`: only the leading digit needs a fix.
    const r = transformTools(deepFreeze([tool('fine'), tool('2fa.login')]), { transforms: [['adapt-to-client', { profile: 'gemini', renameTools: true }]], verify: 'verdicts' });
    expect(r.report.skipped).toEqual([]);
    const [c] = r.report.changes;
    expect(c).toMatchObject({ op: 'replace', path: '/1/name', value: '_2fa.login', oldValue: '2fa.login', tool: '2fa.login', toolIndex: 1, transform: 'adapt-to-client', code: 'renamed-tool' });
    expect(c!.message).toBe('Renamed the tool `2fa.login` to `_2fa.login`, a name `gemini` accepts (lossy: calls name `_2fa.login`; map them back to `2fa.login` before the server sees them, as toolslim proxy does)');
    expect(toolRenamesOf(r.report)).toEqual([{ toolIndex: 1, from: '2fa.login', to: '_2fa.login' }]);
  });

  it('property: every renamed list passes each profile’s name rule, keeps accepted names, never makes two names alike', () => {
    const char = fc.constantFrom('a', 'Z', '0', '9', '_', '-', '.', ' ', '/', 'é', '—', '😀');
    const name = fc.array(char, { minLength: 1, maxLength: 80 }).map((cs) => cs.join(''));
    fc.assert(
      fc.property(fc.uniqueArray(name, { minLength: 1, maxLength: 12 }), fc.constantFrom(...NAMED), (names, p) => {
        const input = deepFreeze(names.map(tool));
        const r = adaptToClient(input, { profile: p, renameTools: true });
        const out = r.tools.map((t) => t.name);
        // The checker is the oracle: no tool-name finding is left.
        expect(checkToolsForProfile(r.tools, p).filter((f) => f.code === 'tool-name')).toEqual([]);
        expect(new Set(out).size).toBe(out.length);
        const refused = new Set(checkToolsForProfile(input, p).filter((f) => f.code === 'tool-name').map((f) => f.toolIndex));
        names.forEach((n, i) => {
          if (!refused.has(i)) expect(out[i]).toBe(n);
        });
        // The report maps every new name back, and a second run renames nothing.
        const back = new Map(toolRenamesOf(r.report).map((x) => [x.to, x.from]));
        expect(out.map((n) => back.get(n) ?? n)).toEqual(names);
        expect(back.size).toBe(refused.size);
        expect(adaptToClient(r.tools, { profile: p, renameTools: true }).report.changes).toEqual([]);
      }),
      { seed: 1515, numRuns: 300 },
    );
  });
});
