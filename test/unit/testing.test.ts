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

describe('assertToolsHealthy refuses options it cannot honour (a typo must not turn the assertion off)', () => {
  const broken = [tool('a', { type: 'object', properties: { x: { $ref: '#/nowhere' } } })];
  const refused = (options: unknown) => {
    try {
      assertToolsHealthy(broken, options as never);
    } catch (e) {
      return { code: (e as { code?: string }).code, message: (e as Error).message };
    }
    return undefined;
  };

  it('a misspelt `failOn`', () => {
    // Before: no finding is "at or above" an unknown severity, so the broken list passed.
    expect(refused({ failOn: 'errors' })).toEqual({ code: 'invalid-option', message: 'assertToolsHealthy: `failOn` must be error, warning or info, got "errors"' });
    expect(refused({ failOn: 'error' })).toMatchObject({ message: expect.stringMatching(/^tools are not healthy: 1 finding/) });
  });

  it('a severity for a code no check reports, unless extra checks may report it', () => {
    const r = refused({ severity: { 'unresolved-refs': 'off' } });
    expect(r?.code).toBe('invalid-option');
    expect(r?.message).toMatch(/^lint: `severity` names `unresolved-refs`, which no check reports \(known: invalid-tool, .*unresolved-ref, /);
    // The right code turns the finding off; a profile code and a code beside extra checks are taken as given.
    expect(refused({ severity: { 'unresolved-ref': 'off' } })).toBeUndefined();
    expect(refused({ severity: { 'profile-ref-unsupported': 'off', 'unresolved-ref': 'off' } })).toBeUndefined();
    // A `profile-…` code is one of the profile checker's (src/profiles/codes.ts): a misspelt one is refused too.
    expect(refused({ severity: { 'profile-ref-unsuported': 'off', 'unresolved-ref': 'off' } })).toEqual({
      code: 'invalid-option',
      message: expect.stringMatching(/^lint: `severity` names `profile-ref-unsuported`, which no check reports \(known profile codes: profile-tool-count, .*profile-ref-unsupported, /),
    });
    const custom = () => [{ severity: 'error' as const, code: 'team-rule', tool: 'a', toolIndex: 0, path: '', message: 'x' }];
    expect(refused({ severity: { 'team-rule': 'off', 'unresolved-ref': 'off' }, checks: [custom] })).toBeUndefined();
    expect(refused({ severity: { 'unresolved-ref': 'off' }, checks: [custom] })).toMatchObject({ message: expect.stringMatching(/error team-rule a/) });
  });

  it('options that are not an object', () => {
    expect(refused(null)).toEqual({ code: 'invalid-option', message: 'assertToolsHealthy: options must be an object, got null' });
    expect(refused({ severity: ['unresolved-ref'] })?.message).toMatch(/^lint: `severity` must be an object of finding codes/);
  });
});
