/**
 * The run's options, as plain JavaScript hands them over: a value the run cannot use, or a key it does not
 * know, throws `invalid-option` naming it — before, `{ verfy: false }` ran the gate, `{ trasnforms: [...] }`
 * ran the `safe` preset, `maxDepth: -1` skipped every tool, and a tokenizer or `keepUnchanged` of the wrong
 * shape failed with a TypeError from inside the run. Messages are written out here by hand.
 */
import { describe, expect, it } from 'vitest';
import { analyzeSurface, applyPatch, applyToSchema, checkToolsForProfile, formatReport, measureRendered, normalizeSchema, stripNoise, transformSchema, transformTools, verifyTool } from '../../src/index.js';
import { deepFreeze } from '../helpers/freeze.js';

const tools = deepFreeze([{ name: 'a', description: 'Lists things.  See https://example.com/docs for more.', inputSchema: { type: 'object', properties: { x: { type: 'string' } } } }]);

function refusal(f: () => unknown): { code?: string; message: string } | undefined {
  try {
    f();
  } catch (e) {
    return { code: (e as { code?: string }).code, message: (e as Error).message };
  }
  return undefined;
}

const KNOWN = 'known: transforms, onError, tokenizer, measure, maxDepth, verify, keepUnchanged';

describe('transformTools', () => {
  it.each([
    [{ verfy: false }, `unknown option \`verfy\` (${KNOWN})`],
    [{ trasnforms: ['strip-noise'] }, `unknown option \`trasnforms\` (${KNOWN})`],
    [{ onError: 'ignore' }, "`onError` must be 'report' or 'throw', got \"ignore\""],
    [{ measure: 'yes' }, '`measure` must be true or false, got "yes"'],
    [{ maxDepth: -1 }, '`maxDepth` must be a whole number of levels, at least 1, got -1'],
    [{ maxDepth: '5' }, '`maxDepth` must be a whole number of levels, at least 1, got "5"'],
    [{ maxDepth: 2.5 }, '`maxDepth` must be a whole number of levels, at least 1, got 2.5'],
    [{ tokenizer: {} }, '`tokenizer` must be a Tokenizer ({ name, count(text) }; e.g. import { o200k } from "toolslim/tokens"), got {}'],
    [{ tokenizer: (s: string) => s.length }, '`tokenizer` must be a Tokenizer ({ name, count(text) }; e.g. import { o200k } from "toolslim/tokens"), got a function'],
    [{ keepUnchanged: [0] }, '`keepUnchanged` must be a Map of tool index → reason, got [0]'],
    [{ transforms: stripNoise }, "`transforms` must be an array of transforms, presets or their names (e.g. [stripNoise] or ['safe'])"],
    [null, 'transformTools: options must be an object, got null'],
  ])('%j', (options, message) => {
    expect(refusal(() => transformTools(tools, options as never))).toEqual({ code: 'invalid-option', message });
  });

  it('takes what it knows, as before', () => {
    // strip-noise by name removes the URL clause and the double space: the run went ahead with these options.
    const r = transformTools(tools, { transforms: ['strip-noise'], onError: 'throw', measure: false, maxDepth: 5, verify: false, keepUnchanged: new Map() });
    expect(r.tools[0]!.description).toBe('Lists things.');
    // One level below the properties' schemas: the tool is skipped as too deep, and said so.
    const shallow = transformTools(tools, { maxDepth: 2 });
    expect(shallow.tools[0]).toBe(tools[0]);
    expect(shallow.report.skipped.map((s) => s.reason)).toEqual([expect.stringMatching(/deeper than 2 levels/)]);
    const tokenizer = { name: 'chars', count: (s: string) => s.length };
    // A tokenizer counting characters counts the list's compact JSON (all ASCII here) character for character.
    expect(transformTools(tools, { tokenizer, transforms: [] }).report.stats.before.tokens).toBe(JSON.stringify(tools).length);
  });

  it('a transform called alone checks its run options too', () => {
    expect(refusal(() => stripNoise(tools, {}, { measure: 1 } as never))).toEqual({ code: 'invalid-option', message: '`measure` must be true or false, got 1' });
  });
});

describe('analyzeSurface and profiles', () => {
  it('refuses an unknown option and options that are no object', () => {
    expect(refusal(() => analyzeSurface(tools, { collisionTreshold: 0.5 } as never))).toEqual({ code: 'invalid-option', message: 'analyzeSurface: unknown option `collisionTreshold` (known: collisionThreshold, collisionPartners, maxArguments)' });
    expect(refusal(() => analyzeSurface(tools, null as never))).toEqual({ code: 'invalid-option', message: 'analyzeSurface: options must be an object, got null' });
  });

  it('an unknown profile is an invalid option, naming the known', () => {
    expect(refusal(() => checkToolsForProfile(tools, 'gpt5'))).toEqual({
      code: 'invalid-option',
      message: 'unknown profile `gpt5` (known: mcp, claude, openai, openai-strict, gemini, kimi, ref-free, claude-code, qwen, llama)',
    });
  });
});

describe('transformSchema and the steps', () => {
  it('checks its options as transformTools does', () => {
    expect(refusal(() => transformSchema({ type: 'object' }, { verfy: false } as never))).toEqual({ code: 'invalid-option', message: `unknown option \`verfy\` (${KNOWN})` });
    expect(refusal(() => transformSchema({ type: 'object' }, null as never))).toEqual({ code: 'invalid-option', message: 'transformSchema: options must be an object, got null' });
  });

  it('says what was given where a step was expected', () => {
    const expected = "(expected a transform such as stripNoise, a preset such as 'safe', either's name, or [transform, options])";
    // The arguments of applyToSchema the wrong way round: the schema where the transform goes.
    expect(refusal(() => applyToSchema({ type: 'object', nullable: true } as never, normalizeSchema as never))).toEqual({ code: 'unknown-transform', message: `not a transform or preset: an object with \`type\`, \`nullable\` ${expected}` });
    expect(refusal(() => transformTools([], { transforms: [function helper() {}] as never }))).toEqual({ code: 'unknown-transform', message: `not a transform or preset: a function \`helper\` that is not a transform (make one with defineTransform) ${expected}` });
    expect(refusal(() => transformTools([], { transforms: [42] as never }))).toEqual({ code: 'unknown-transform', message: `not a transform or preset: number 42 ${expected}` });
  });
});

describe('the other entry points, given what plain JavaScript can give', () => {
  it('say what they expected instead of failing inside with a TypeError', () => {
    expect(refusal(() => formatReport(null as never))).toEqual({ code: 'invalid-option', message: 'formatReport: expected the `report` of a run (transformTools(…).report)' });
    const report = transformTools(tools).report;
    expect(refusal(() => formatReport(report, 'html' as never))).toEqual({ code: 'invalid-option', message: "formatReport: format must be 'text', 'markdown' or 'json', got \"html\"" });
    expect(formatReport(report, 'markdown')).toMatch(/^\*\*toolslim\*\*: 1 tool: /);
    expect(refusal(() => verifyTool(tools[0]!, tools[0]!, undefined as never))).toEqual({ code: 'invalid-option', message: "verifyTool: options must say the level, { level: 'structural' } or { level: 'verdicts' }, got undefined" });
    expect(refusal(() => verifyTool(tools[0]!, tools[0]!, { level: 'verdict' } as never))).toEqual({ code: 'invalid-option', message: "verifyTool: options must say the level, { level: 'structural' } or { level: 'verdicts' }, got level \"verdict\"" });
    expect(verifyTool(tools[0]!, tools[0]!, { level: 'verdicts' })).toBeUndefined();
    expect(refusal(() => applyPatch(tools, {} as never))).toEqual({ code: 'invalid-input', message: "patch: operations must be an array (a report's `changes`)" });
    const tokenizer = { name: 'chars', count: (s: string) => s.length };
    expect(refusal(() => measureRendered(tools, {} as never, tokenizer))).toEqual({ code: 'invalid-option', message: 'measureRendered: `renderer` must be a renderer name (json, json-spaced, json-indent4, typescript) or a renderer from getRenderer' });
    expect(refusal(() => measureRendered(tools, 'json', undefined as never))).toEqual({ code: 'invalid-option', message: 'measureRendered: `tokenizer` must be a Tokenizer (e.g. import { o200k } from "toolslim/tokens")' });
    // The json renderer forwards what a client sends: counted character for character here.
    expect(measureRendered(tools, 'json', tokenizer).tokens).toBeGreaterThan(0);
  });
});
