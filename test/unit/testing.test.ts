import { describe, expect, it } from 'vitest';
import { assertToolsHealthy, ToolsHealthError } from '../../src/testing/index.js';

const tool = (name: string, inputSchema: unknown, description = 'd') => ({ name, description, inputSchema });

describe('assertToolsHealthy', () => {
  it('returns the findings below the threshold when healthy', () => {
    const fs = assertToolsHealthy([tool('a', { type: 'object', properties: { x: { type: 'string' } } })]);
    expect(fs.map((f) => f.code)).toEqual(['missing-param-description']);
  });

  it('throws an Error whose message lists every failing finding', () => {
    const tools = [tool('a', { type: 'object', properties: { x: { $ref: '#/$defs/X', description: 'x' } } }), tool('b', { type: 'string' }), tool('a', { type: 'object' })];
    let caught: unknown;
    try {
      assertToolsHealthy({ tools });
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(Error);
    expect(caught).toBeInstanceOf(ToolsHealthError);
    const e = caught as ToolsHealthError;
    expect(e.findings.map((f) => f.code)).toEqual(['unresolved-ref', 'root-not-object', 'duplicate-name']);
    const lines = e.message.split('\n');
    expect(lines[0]).toBe('tools are not healthy: 3 findings at or above `error`');
    expect(lines[1]).toMatch(/^ {2}error unresolved-ref a \/0\/inputSchema\/properties\/x\/\$ref: /);
    expect(lines[2]).toMatch(/^ {2}error root-not-object b \/1\/inputSchema\/type: /);
    expect(lines[3]).toMatch(/^ {2}error duplicate-name a \/2\/name: /);
  });

  it('fails on warnings when asked, and honours budgets', () => {
    const tools = [tool('a', { type: 'object' }, '')];
    expect(() => assertToolsHealthy(tools)).not.toThrow();
    expect(() => assertToolsHealthy(tools, { failOn: 'warning' })).toThrow(/missing-description/);
    expect(() => assertToolsHealthy(tools, { maxBytes: 10 })).toThrow(/over-budget \(list\) \/: the tools list is \d+ bytes/);
  });
});
