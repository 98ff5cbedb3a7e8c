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
  it('names its reader on its docs page: renderer, tokenizer, and stand-in when it is one', () => {
    const text = readFileSync(join(root, p.docs), 'utf8');
    expect(text).toContain('what the model reads');
    expect(text).toContain(`\`${p.reader.renderer}\``);
    expect(text).toContain(p.reader.tokenizer);
    if (p.reader.standIn !== undefined) expect(text).toMatch(/stand-in/);
    expect(Object.isFrozen(p.reader)).toBe(true);
  });
  it('is found by name', () => {
    expect(getProfile(name)).toBe(p);
  });
});

it('ships the ten profiles, mcp first (the default)', () => {
  expect(builtinProfiles.map((p) => p.name)).toEqual(['mcp', 'claude', 'openai', 'openai-strict', 'gemini', 'kimi', 'ref-free', 'claude-code', 'qwen', 'llama']);
});

it('classifies by role: annotations are droppable, assertions are not (hand-listed from the 2020-12 vocabularies)', () => {
  expect(profileOpenaiStrict.rejectedAnnotations).toEqual(['default']);
  expect(profileOpenaiStrict.rejectedValidation).toEqual(['allOf', 'dependentRequired', 'dependentSchemas', 'else', 'if', 'not', 'oneOf', 'then']);
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

it('says what each model reads and pays (issue 27; sources on each docs page)', () => {
  const readers = Object.fromEntries(builtinProfiles.map((p) => [p.name, `${p.reader.renderer} ${p.reader.tokenizer} ${p.reader.alwaysPaid}${p.reader.standIn ? ' stand-in' : ''}`]));
  expect(readers).toEqual({
    mcp: 'json o200k_base everything stand-in',
    claude: 'json o200k_base everything stand-in',
    openai: 'typescript o200k_base everything',
    'openai-strict': 'typescript o200k_base everything',
    gemini: 'json o200k_base everything stand-in',
    kimi: 'json o200k_base everything stand-in',
    'ref-free': 'json o200k_base everything stand-in',
    'claude-code': 'json o200k_base names stand-in',
    qwen: 'json-spaced o200k_base everything stand-in',
    llama: 'json-indent4 o200k_base everything stand-in',
  });
  // A deferring client pays names and instructions up front: it must show the instructions.
  expect(getProfile('claude-code').showsInstructions).toBe(true);
  for (const p of builtinProfiles) expect(p.reader.forwards).toEqual(['name', 'description', 'inputSchema']);
});

it('gives a profile that names no reader the labelled compact-JSON stand-in', () => {
  const p = defineProfile({ name: 'mine', title: 'Mine', dialect: '2020-12', slots: ['inputSchema'], refs: 'any', refSiblings: 'any', showsInstructions: false, docs: 'docs/profiles/mine.md' });
  expect(p.reader.renderer).toBe('json');
  expect(p.reader.standIn).toMatch(/stand in/);
  const q = defineProfile({ name: 'ts', title: 'TS', dialect: '2020-12', slots: ['inputSchema'], refs: 'any', refSiblings: 'any', showsInstructions: false, reader: { renderer: 'typescript', tokenizer: 'cl100k_base', forwards: ['name'], alwaysPaid: 'names' }, docs: 'docs/profiles/ts.md' });
  expect(q.reader).toEqual({ renderer: 'typescript', tokenizer: 'cl100k_base', forwards: ['name'], alwaysPaid: 'names' });
  expect(Object.isFrozen(q.reader.forwards)).toBe(true);
});
