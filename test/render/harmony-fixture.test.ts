/**
 * The public fixture of openai/harmony (test/data/render/harmony/README.md): the tools section of
 * `test_render_functions_with_parameters.txt`, reproduced byte for byte from the tools of `src/tests.rs`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getRenderer, type ForwardedTool } from '../../src/index.js';

const DATA = join(import.meta.dirname, '..', 'data', 'render', 'harmony');
const read = (file: string) => readFileSync(join(DATA, file), 'utf8');
const fixture = read('test_render_functions_with_parameters.txt');
const tools = JSON.parse(read('functions_with_parameters.input.json')) as ForwardedTool[];

function section(text: string, ns = 'functions'): string {
  const start = text.indexOf(`## ${ns}`);
  const endMark = `} // namespace ${ns}`;
  const end = text.indexOf(endMark);
  if (start < 0 || end < 0) throw new Error(`fixture has no ${ns} section`);
  return text.slice(start, end + endMark.length);
}

describe('typescript reader: the harmony fixture', () => {
  it('renders the functions section byte for byte', () => {
    expect(getRenderer('typescript').renderTools(tools)).toBe(section(fixture));
  });

  it('each renderTool is that tool’s block of the section', () => {
    const blocks = section(fixture).split('\n\n').slice(2, -1); // after "## functions" and "namespace functions {"
    expect(blocks).toHaveLength(tools.length);
    tools.forEach((t, i) => expect(getRenderer('typescript').renderTool(t)).toBe(blocks[i] + '\n'));
  });

  it('test_browser_and_function_tool: the functions section', () => {
    const weather = JSON.parse(read('browser_and_function_tool.input.json')) as ForwardedTool[];
    expect(getRenderer('typescript').renderTools(weather)).toBe(section(read('test_browser_and_function_tool.txt')));
  });

  it('the browser namespace’s tool blocks (both browser fixtures)', () => {
    // The built-in namespace has its own header and description; its tool blocks follow the same rules.
    const browser = JSON.parse(read('browser_tools.input.json')) as ForwardedTool[];
    const rendered = browser.map((t) => getRenderer('typescript').renderTool(t)).join('\n');
    for (const file of ['test_browser_tool_only.txt', 'test_browser_and_function_tool.txt']) {
      const ns = section(read(file), 'browser');
      const body = ns.slice(ns.indexOf('namespace browser {\n\n') + 'namespace browser {\n\n'.length, ns.lastIndexOf('} // namespace browser'));
      expect(rendered + '\n').toBe(body); // blocks joined by a newline, one more before the closing line
    }
  });
});
