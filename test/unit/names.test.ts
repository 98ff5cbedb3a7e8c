import { describe, expect, it } from 'vitest';
import { uniqueName } from '../../src/schema/names.js';

describe('uniqueName (the one naming rule of hoist-nested-defs, dedupe-repeated-subtrees, reconcile-dialect, adapt-to-client)', () => {
  it('keeps a free name, else takes the first free `_2`, `_3`…', () => {
    expect(uniqueName('Foo', new Set())).toBe('Foo');
    expect(uniqueName('Foo', new Set(['Foo']))).toBe('Foo_2');
    expect(uniqueName('Foo', new Set(['Foo', 'Foo_2', 'Foo_4']))).toBe('Foo_3');
    expect(uniqueName('Foo', new Set(['Foo_2']))).toBe('Foo');
  });

  it('asks anything with `has`, such as the own keys of an object', () => {
    const defs: Record<string, unknown> = JSON.parse('{"__proto__":{},"root":{},"root_2":{}}');
    const ownKey = { has: (n: string) => Object.prototype.hasOwnProperty.call(defs, n) };
    expect(uniqueName('root', ownKey)).toBe('root_3');
    expect(uniqueName('__proto__', ownKey)).toBe('__proto___2');
    expect(uniqueName('constructor', ownKey)).toBe('constructor');
  });
});
