/**
 * The public fixture of openai/harmony (test/data/render/harmony/README.md): the tools section of
 * `test_render_functions_with_parameters.txt`, reproduced byte for byte from the tools of `src/tests.rs`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getRenderer, type ForwardedTool } from '../../src/index.js';

const DATA = join(import.meta.dirname, '..', 'data', 'render', 'harmony');
const fixture = readFileSync(join(DATA, 'test_render_functions_with_parameters.txt'), 'utf8');
const tools = JSON.parse(readFileSync(join(DATA, 'functions_with_parameters.input.json'), 'utf8')) as ForwardedTool[];

function section(text: string): string {
  const start = text.indexOf('## functions');
  const endMark = '} // namespace functions';
  const end = text.indexOf(endMark);
  if (start < 0 || end < 0) throw new Error('fixture has no functions section');
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
});
