/**
 * Issue 29 item 13: the shipped toolslim.config.schema.json is the config's contract. ajv (an independent
 * validator) and the CLI's loader must give the same verdict on every config here, written by hand.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { validateConfig } from '../../src/cli/config.js';
import { CONFIG_SCHEMA } from '../../src/cli/config-schema.js';
import { isKnownFindingCode } from '../../src/lint/index.js';
import { PROFILE_FINDING_CODES } from '../../src/profiles/codes.js';
import { builtinProfiles } from '../../src/profiles/profiles.js';

const ROOT = join(import.meta.dirname, '..', '..');
const schema = JSON.parse(readFileSync(join(ROOT, 'toolslim.config.schema.json'), 'utf8'));

const CONFIGS: readonly [unknown, boolean][] = [
  [{}, true],
  [{ $schema: './node_modules/toolslim/toolslim.config.schema.json', failOn: 'warning' }, true],
  [{ rules: { 'description-collision': 'off', 'missing-description': 'error' }, maxWarnings: 0, maxTokens: 20000, collisionThreshold: 0.8, profile: 'gemini' }, true],
  [{ collisionPartners: 1, maxArguments: 0, maxBytes: 0.5, maxToolBytes: 10, maxToolTokens: 3 }, true],
  [{ maxWarning: 1 }, false],
  [{ collisionThreshold: 'high' }, false],
  [{ collisionThreshold: 1.5 }, false],
  [{ maxWarnings: -1 }, false],
  [{ maxWarnings: 1.5 }, false],
  [{ collisionPartners: 0 }, false],
  [{ rules: { 'missing-description': 'loud' } }, false],
  [{ rules: [] }, false],
  [{ failOn: 'fatal' }, false],
  [{ profile: 3 }, false],
  [{ profile: 'gemni' }, false],
  [{ profile: 'claude-code' }, true],
  [{ $schema: 3 }, false],
  [[], false],
  ['x', false],
];

describe('toolslim.config.schema.json', () => {
  const validate = new Ajv({ strict: true }).compile(schema);
  it.each(CONFIGS.map(([c, ok]) => [JSON.stringify(c), c, ok] as const))('%s: ajv and the loader agree', (_label, config, ok) => {
    expect(validate(config)).toBe(ok);
    const loader = () => validateConfig(config, 'toolslim.config.json');
    if (ok) expect(loader).not.toThrow();
    else expect(loader).toThrow(/^toolslim\.config\.json: /);
  });
  it('names an unknown key and points at the schema', () => {
    expect(() => validateConfig({ maxWarning: 1 }, 'toolslim.config.json')).toThrow(/unknown key `maxWarning` .*toolslim\.config\.schema\.json/);
  });
  it('names a profile no client has, with the key and the known names', () => {
    expect(() => validateConfig({ profile: 'gemni' }, 'package.json#toolslim')).toThrow(/^package\.json#toolslim: `profile` must be one of .*openai-strict.*, got "gemni"$/);
    expect(schema.properties.profile.enum).toEqual(builtinProfiles.map((p) => p.name));
  });
  it('lists in `rules` exactly the profile codes check accepts', () => {
    // Before, it said "profile-… codes" and listed none: a user had to read the source to name one.
    const listed = /for --profile findings: (.*)\.$/.exec(schema.properties.rules.description)?.[1]?.split(', ');
    expect(listed).toEqual(PROFILE_FINDING_CODES.map((c) => `profile-${c}`));
    expect(listed!.every((c) => isKnownFindingCode(c))).toBe(true);
  });
  it('ships in the package for editors, equal to the schema the loader uses', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.files).toContain('toolslim.config.schema.json');
    expect(schema).toEqual(CONFIG_SCHEMA);
    // Byte for byte: after a change to config-schema.ts (or to the profile codes), rewrite the file with
    // JSON.stringify(CONFIG_SCHEMA, null, 2) + '\n'.
    expect(readFileSync(join(ROOT, 'toolslim.config.schema.json'), 'utf8')).toBe(JSON.stringify(CONFIG_SCHEMA, null, 2) + '\n');
  });
});
