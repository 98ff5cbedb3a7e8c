/**
 * The three JSON readers against Python's `json` module (test/data/render/json/make.py wrote the expected
 * texts: `json.dumps` is what Jinja's `tojson` calls in Hugging Face chat templates), and the renderer names.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RENDERER_NAMES, RenderError, getRenderer, type ForwardedTool } from '../../src/index.js';

const DATA = join(import.meta.dirname, '..', 'data', 'render', 'json');
const tools = JSON.parse(readFileSync(join(DATA, 'tools.json'), 'utf8')) as ForwardedTool[];
const expected = (name: string) => readFileSync(join(DATA, `expected.${name}.txt`), 'utf8');

describe('JSON readers', () => {
  for (const name of ['json', 'json-spaced', 'json-indent4'] as const) {
    it(`${name}: renderTools matches Python's json.dumps byte for byte`, () => {
      expect(getRenderer(name).renderTools(tools)).toBe(expected(name));
    });
  }

  it('renderTool is one tool of the section', () => {
    const spaced = expected('json-spaced').split('\n');
    tools.forEach((t, i) => expect(getRenderer('json-spaced').renderTool(t)).toBe(spaced[i]));
    const indented = expected('json-indent4').split('\n\n').slice(0, tools.length);
    tools.forEach((t, i) => expect(getRenderer('json-indent4').renderTool(t)).toBe(indented[i]));
  });

  it('json forwards only name, description and inputSchema', () => {
    const tool = { name: 'a', title: 'A', description: 'd', inputSchema: { type: 'object' }, outputSchema: { type: 'object' }, annotations: { readOnlyHint: true }, _meta: { x: 1 }, icons: [] };
    expect(getRenderer('json').renderTool(tool)).toBe('{"name":"a","description":"d","inputSchema":{"type":"object"}}');
    expect(getRenderer('json-spaced').renderTool(tool)).toBe('{"type": "function", "function": {"name": "a", "description": "d", "parameters": {"type": "object"}}}');
  });

  it('an empty list renders as nothing', () => {
    for (const name of RENDERER_NAMES) expect(getRenderer(name).renderTools([])).toBe('');
  });
});

describe('getRenderer', () => {
  it('knows the four readers', () => {
    expect(RENDERER_NAMES).toEqual(['json', 'json-spaced', 'json-indent4', 'typescript']);
    for (const name of RENDERER_NAMES) expect(getRenderer(name).name).toBe(name);
  });

  it('an unknown name is a RenderError listing the valid names', () => {
    for (const bad of ['yaml', '', '__proto__', 'toString', 'JSON']) {
      let error: unknown;
      try {
        getRenderer(bad);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(RenderError);
      expect((error as RenderError).code).toBe('unknown-renderer');
      expect((error as Error).message).toBe(`Unknown renderer \`${bad}\`: expected one of \`json\`, \`json-spaced\`, \`json-indent4\`, \`typescript\``);
    }
  });
});
