/**
 * The profile checker's codes are a closed list (src/profiles/codes.ts): `--rule`, a config file's `rules`
 * and `lintTools`' `severity` accept `profile-<code>` for exactly those. The list is checked against the
 * checker itself, read from its source: every `code:` a finding is built with in src/profiles/ is a literal
 * of the list (or hands on a code already made), and every entry of the list is built somewhere there.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROFILE_FINDING_CODES } from '../../src/profiles/codes.js';

const DIR = join(import.meta.dirname, '..', '..', 'src', 'profiles');

/** Each `code:` property of the checker's files (comments left out), as written after the colon. */
function codeProperties(): { file: string; value: string }[] {
  const out: { file: string; value: string }[] = [];
  for (const file of readdirSync(DIR).filter((f) => f.endsWith('.ts') && f !== 'codes.ts')) {
    const source = readFileSync(join(DIR, file), 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '');
    for (const m of source.matchAll(/\bcode:\s*([^,}\n]+)/g)) out.push({ file, value: m[1]!.trim() });
  }
  return out;
}

describe('profile finding codes', () => {
  const found = codeProperties();
  const literals = found.map((f) => /^'([^']*)'/.exec(f.value)?.[1]).filter((c): c is string => c !== undefined);

  it('reads the codes the checker builds its findings with', () => {
    // Guards the reading itself: check.ts builds a finding of each kind with a literal code.
    expect(literals.length).toBeGreaterThanOrEqual(PROFILE_FINDING_CODES.length);
  });

  it('every code the checker can emit is on the list', () => {
    // A `code:` that is not a literal may only hand on a finding's code made above (`f.code`), or be a type.
    expect(found.filter((f) => !f.value.startsWith("'") && f.value !== 'f.code' && !/^(string|ProfileFindingCode)\b/.test(f.value)).map((f) => `${f.file}: code: ${f.value}`)).toEqual([]);
    expect([...new Set(literals)].filter((c) => !(PROFILE_FINDING_CODES as readonly string[]).includes(c))).toEqual([]);
  });

  it('every code on the list is one the checker emits', () => {
    expect(PROFILE_FINDING_CODES.filter((c) => !literals.includes(c))).toEqual([]);
  });

  it('docs/profiles/README.md lists each, as the CLI names it', () => {
    const doc = readFileSync(join(DIR, '..', '..', 'docs', 'profiles', 'README.md'), 'utf8');
    const section = doc.slice(doc.indexOf('\n## Finding codes\n'), doc.indexOf('\n## ', doc.indexOf('\n## Finding codes\n') + 1));
    expect([...section.matchAll(/`(profile-[a-z-]+)`/g)].map((m) => m[1])).toEqual(PROFILE_FINDING_CODES.map((c) => `profile-${c}`));
  });
});
