/** Every built-in transform has what a user and the fixture runner need: fixtures, a docs page, messages. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../src/cli/main.js';
import * as entry from '../src/index.js';
import { builtinPresets, builtinTransforms, INSTRUCTION_TRANSFORMS, REF_CREATING_TRANSFORMS } from '../src/index.js';

const root = join(import.meta.dirname, '..');
const apiReport = readFileSync(join(root, 'etc', 'toolslim.api.md'), 'utf8');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
/** The README's transform table: the `## Transforms` section, up to its first sub-heading. */
const transformTable = readme.slice(readme.indexOf('\n## Transforms\n')).split(/\n#{2,3} /)[1] ?? '';
const camel = (name: string) => name.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
const pascal = (name: string) => camel(name).replace(/^[a-z]/, (c) => c.toUpperCase());

/** What `toolslim --help` prints. */
async function topLevelHelp(): Promise<string> {
  let text = '';
  const sink = new Writable({
    write(chunk, _enc, done) {
      text += String(chunk);
      done();
    },
  });
  const code = await main(['--help'], { stdout: sink, stderr: sink, stdin: process.stdin } as unknown as Parameters<typeof main>[1]);
  expect(code).toBe(0);
  return text;
}
const help = await topLevelHelp();

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
  it('is exported from the package entry under its camelCase name', () => {
    expect((entry as Record<string, unknown>)[camel(name)]).toBe(t);
  });
  it('has its options type in the public API report', () => {
    expect(apiReport).toContain(`export interface ${pascal(name)}Options `);
  });
  it('has a row in the README transform table, linking its docs page, with its safety', () => {
    expect(transformTable).toContain(`| [${name}](docs/transforms/${name}.md) | ${t.safety} |`);
  });
  it('is listed by `toolslim --help` with its safety', () => {
    expect(help).toMatch(new RegExp(`^  ${name} +${t.safety}`, 'm'));
  });
  it('declares its preset-relevant flags as booleans, if at all', () => {
    for (const flag of ['createsRefs', 'writesInstructions'] as const) expect([undefined, true, false]).toContain(t[flag]);
  });
  it('has fixtures for each of its parts, and no fixtures for a part it does not have', () => {
    const ids = (t.parts ?? []).map((p) => p.id);
    const rulesDir = join(root, 'test', 'fixtures', name, 'rules');
    const folders = existsSync(rulesDir) ? readdirSync(rulesDir).sort() : [];
    expect(folders).toEqual([...ids].sort());
    for (const id of ids) expect(readdirSync(join(rulesDir, id)).length, `fixtures of part ${id}`).toBeGreaterThan(0);
    for (const p of t.parts ?? []) if (p.option !== undefined) expect(Object.keys(t.defaultOptions), `option of part ${p.id}`).toContain(p.option);
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

it('derives the profile preset\'s name lists from the transforms\' flags', () => {
  expect(REF_CREATING_TRANSFORMS).toEqual(builtinTransforms.filter((t) => t.createsRefs).map((t) => t.name));
  expect(INSTRUCTION_TRANSFORMS).toEqual(builtinTransforms.filter((t) => t.writesInstructions).map((t) => t.name));
  // Known members, so the derivation is not vacuous.
  expect(REF_CREATING_TRANSFORMS).toContain('dedupe-repeated-subtrees');
  expect(INSTRUCTION_TRANSFORMS).toContain('promote-common-params');
});

it('lists every README transform row as a built-in transform (no stale rows)', () => {
  const rows = [...transformTable.matchAll(/^\| \[([a-z-]+)\]\(docs\/transforms\/[a-z-]+\.md\) \|/gm)].map((m) => m[1]);
  expect(rows.sort()).toEqual(builtinTransforms.map((t) => t.name).sort());
});
