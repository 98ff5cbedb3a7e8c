/** Every built-in transform has what a user and the fixture runner need: fixtures, a docs page, messages. */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinPresets, builtinTransforms } from '../src/index.js';

const root = join(import.meta.dirname, '..');

describe.each(builtinTransforms.map((t) => [t.name, t] as const))('%s', (name, t) => {
  it('has a kebab-case verb-object name from the closed verb set', () => {
    expect(name).toMatch(/^(prune|strip|hoist|inline|reconcile|normalize|promote|compress|dedupe|adapt)-[a-z]+(-[a-z]+)*$/);
  });
  it('has at least one fixture case', () => {
    const dir = join(root, 'test', 'fixtures', name);
    expect(existsSync(dir)).toBe(true);
    expect(readdirSync(dir).length).toBeGreaterThan(0);
  });
  it('has a docs page', () => {
    expect(existsSync(join(root, 'docs', 'transforms', `${name}.md`))).toBe(true);
  });
  it('declares safety, a description and messages', () => {
    expect(['lossless', 'annotation', 'lossy']).toContain(t.safety);
    expect(t.description.length).toBeGreaterThan(10);
    expect(Object.keys(t.messages).length).toBeGreaterThan(0);
    expect(Object.isFrozen(t)).toBe(true);
  });
});

it('lists transforms sorted by name, without duplicates', () => {
  const names = builtinTransforms.map((t) => t.name);
  expect(names).toEqual([...new Set(names)].sort());
});

it('keeps lossy transforms out of every preset', () => {
  for (const p of builtinPresets) for (const t of p.steps) expect(t.safety, `${p.name}: ${t.name}`).not.toBe('lossy');
});
