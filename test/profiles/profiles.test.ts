/** Profiles are data: frozen, documented, and their rejected keywords split by the keyword table's roles. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinProfiles, defineProfile, getProfile, profileGemini, profileOpenaiStrict } from '../../src/index.js';

const root = join(import.meta.dirname, '..', '..');

describe.each(builtinProfiles.map((p) => [p.name, p] as const))('%s', (name, p) => {
  it('is frozen data with a docs page of its own name', () => {
    expect(Object.isFrozen(p)).toBe(true);
    expect(Object.isFrozen(p.slots)).toBe(true);
    expect(p.docs).toBe(`docs/profiles/${name}.md`);
    expect(existsSync(join(root, p.docs))).toBe(true);
  });
  it('cites a source on its docs page for every rule it sets', () => {
    const text = readFileSync(join(root, p.docs), 'utf8');
    expect(text).toMatch(/https?:\/\//);
    if (p.toolName) expect(text).toContain(p.toolName.pattern);
    if (p.maxTools !== undefined) expect(text).toContain(String(p.maxTools));
    for (const k of p.rejectedKeywords ?? []) expect(text, k).toContain(`\`${k}\``);
  });
  it('splits every rejected keyword into exactly one of annotations / validation', () => {
    expect([...p.rejectedAnnotations, ...p.rejectedValidation].sort()).toEqual([...p.rejected].sort());
    for (const k of p.rejectedAnnotations) expect(p.rejectedValidation).not.toContain(k);
  });
  it('is found by name', () => {
    expect(getProfile(name)).toBe(p);
  });
});

it('ships the seven profiles, mcp first (the default)', () => {
  expect(builtinProfiles.map((p) => p.name)).toEqual(['mcp', 'claude', 'openai', 'openai-strict', 'gemini', 'kimi', 'ref-free']);
});

it('classifies by role: annotations are droppable, assertions are not (hand-listed from the 2020-12 vocabularies)', () => {
  expect(profileOpenaiStrict.rejectedAnnotations).toEqual(['default']);
  expect(profileOpenaiStrict.rejectedValidation).toEqual(['allOf', 'dependentRequired', 'dependentSchemas', 'else', 'if', 'not', 'then']);
  // Gemini accepts a closed list; everything else in 2020-12 (except the reference machinery its policy governs) is rejected.
  expect(profileGemini.rejectedAnnotations).toEqual(['$comment', 'contentSchema', 'deprecated', 'examples', 'readOnly', 'writeOnly']);
  for (const k of ['additionalProperties', 'const', 'allOf', 'oneOf', 'not', '$schema', 'exclusiveMinimum', 'propertyNames', 'uniqueItems', 'prefixItems']) {
    expect(profileGemini.rejectedValidation, k).toContain(k);
  }
  for (const k of ['$ref', '$defs', 'definitions', 'type', 'description', 'anyOf', 'default', 'title']) expect(profileGemini.rejected, k).not.toContain(k);
});

it('rejects unknown profile names, naming the known ones', () => {
  expect(() => getProfile('gpt')).toThrow(/unknown profile `gpt`.*openai-strict/);
});

it('lets users define their own profile as data', () => {
  const p = defineProfile({ name: 'mine', title: 'Mine', dialect: '2020-12', slots: ['inputSchema'], refs: 'none', refSiblings: 'any', rejectedKeywords: ['title', 'pattern'], showsInstructions: false, docs: 'docs/profiles/mine.md' });
  expect(p.rejectedAnnotations).toEqual(['title']);
  expect(p.rejectedValidation).toEqual(['pattern']);
  expect(getProfile(p)).toBe(p);
});
