// Server-chosen names with a backtick in messages: a name in a code span (`` `a`b` ``) closed the span early and
// read as three backticks in a row. Such a name is written as a JSON string instead, in the lint's messages and
// in the transforms' (their templates' `` `{name}` ``). Expected texts are written out by hand.
import { describe, expect, it } from 'vitest';
import { lintTools, transformTools } from '../../src/index.js';
import { deepFreeze } from '../helpers/freeze.js';

const tick = 'a`b';

function messages(tools: unknown[]): string[] {
  return lintTools(deepFreeze(tools) as never).map((f) => f.message);
}

describe('a backtick in a name', () => {
  it('is written as a JSON string in lint messages', () => {
    const tools = [
      { name: 'dup', description: 'First tool with its own words.', inputSchema: { type: 'object', properties: { [tick]: { type: 'string' } }, $defs: { ['d`x']: { type: 'string' } } } },
      { name: 'dup', description: 'Second tool doing something else.', inputSchema: { type: 'object', properties: { q: { $ref: '#/$defs/no`pe' } } } },
    ];
    const all = messages(tools);
    expect(all).toContain('tool name `dup` is already used by tool #0; clients can call only one of them: rename one');
    expect(all.find((m) => m.startsWith('parameter "a`b"'))).toBe('parameter "a`b" of `dup` has no description; say what it is for and what it takes (models fill it from this)');
    expect(all.find((m) => m.startsWith('definition '))).toMatch(/^definition "d`x" in `\$defs` is not reachable/);
    expect(all.find((m) => m.includes('cannot be resolved'))).toMatch(/^`\$ref` "#\/\$defs\/no`pe" cannot be resolved/);
    for (const m of all) expect(m, m).not.toMatch(/``/);
  });

  it('names a tool with a backtick as a JSON string', () => {
    const all = messages([{ name: 'x`y', description: 'A tool.', inputSchema: { type: 'object', properties: { p: { type: 'string' } } } }]);
    const param = all.find((m) => m.startsWith('parameter `p`'));
    expect(param).toBe('parameter `p` of "x`y" has no description; say what it is for and what it takes (models fill it from this)');
  });

  it('is written as a JSON string in a transform message, and a name without one stays in its code span', () => {
    const tools = deepFreeze([{ name: 't', description: 'T.', inputSchema: { type: 'object', properties: {}, $defs: { ['d`x']: { type: 'string' }, plain: { type: 'number' } } } }]);
    const r = transformTools(tools as never, { transforms: ['prune-unreachable-defs'] as never });
    expect(r.report.changes.map((c) => c.message)).toEqual(['Removed unreachable definition "d`x" from `$defs`', 'Removed unreachable definition `plain` from `$defs`']);
  });
});
