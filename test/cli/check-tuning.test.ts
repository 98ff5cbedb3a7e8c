/**
 * `check` and `report` as a CI user tunes them: --rule, --collision-threshold, --quiet, --max-warnings,
 * severity order, a config file (flags win), several inputs (files, directories, globs) and one exit code
 * for all of them. The fixtures are hand-written; what each must produce is stated next to it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain } from './helpers.js';
import { tempDir } from '../helpers/temp.js';

const root = tempDir('toolslim-tuning-');
const write = (rel: string, content: unknown) => {
  const p = join(root, rel);
  mkdirSync(join(p, '..'), { recursive: true });
  writeFileSync(p, typeof content === 'string' ? content : JSON.stringify(content));
  return p;
};
const param = { type: 'object', properties: { q: { type: 'string', description: 'query' } } };
// No finding at all.
write('inputs/clean.json', [{ name: 'ok', description: 'Fine', inputSchema: param }]);
// One warning: missing-description.
write('inputs/warn.json', [{ name: 'nodesc', inputSchema: param }]);
// One error: unresolved-ref.
write('inputs/sub/err.json', [{ name: 'dangling', description: 'Dangling', inputSchema: { type: 'object', properties: { a: { $ref: '#/$defs/Nope', description: 'a' } } } }]);
// One of each: missing-description (warning), unresolved-ref (error), missing-param-description (info),
// in tool order info, error, warning.
const mixed = write('mixed.json', [
  { name: 'first', description: 'The first', inputSchema: { type: 'object', properties: { p: { type: 'string' } } } },
  { name: 'second', description: 'The second', inputSchema: { type: 'object', properties: { a: { $ref: '#/$defs/Nope', description: 'a' } } } },
  { name: 'third', inputSchema: param },
]);
// Two tools that read alike (13/14, see test/unit/lint.test.ts): two info collisions and a summary.
const alike = write('alike.json', [
  { name: 'get_user', description: 'Get a user by id', inputSchema: param },
  { name: 'getUser', description: 'Get a user by id.', inputSchema: param },
]);
const clean = join(root, 'inputs/clean.json');
const warn = join(root, 'inputs/warn.json');
const err = join(root, 'inputs/sub/err.json');
const codes = (stdout: string) => stdout.split('\n').filter((l) => /^(error|warning|info) /.test(l.trim())).map((l) => l.trim().split(/\s+/).slice(0, 2).join(' '));

describe('check: rules, thresholds, quiet, max-warnings', () => {
  it('--max-warnings fails on more than n warnings', async () => {
    expect((await runMain(['check', warn])).code).toBe(0);
    const zero = await runMain(['check', warn, '--max-warnings', '0']);
    expect(zero.code).toBe(1);
    expect(zero.stdout).toContain('0 errors, 1 warning, 0 info: failed: 1 warning, more than --max-warnings 0');
    const one = await runMain(['check', warn, '--max-warnings', '1']);
    expect(one.code).toBe(0);
    expect(one.stdout).toContain('passed (failing on error, at most 1 warning)');
    expect((await runMain(['check', warn, '--max-warnings', '1.5'])).stderr).toContain('--max-warnings must be a whole number');
  });

  it('--rule sets a severity or turns a rule off; unknown rules and severities are usage errors', async () => {
    expect((await runMain(['check', warn, '--rule', 'missing-description=error'])).code).toBe(1);
    const off = await runMain(['check', warn, '--rule', 'missing-description=off', '--fail-on', 'warning']);
    expect(off.code).toBe(0);
    expect(off.stdout).toBe('0 errors, 0 warnings, 0 info: passed (failing on warning)\n');
    const two = await runMain(['check', mixed, '--rule', 'unresolved-ref=info', '--rule', 'missing-param-description=off']);
    expect(codes(two.stdout)).toEqual(['warning missing-description', 'info unresolved-ref']);
    for (const [rule, message] of [
      ['nope=off', /--rule nope=off: unknown rule `nope` \(known: invalid-tool, /],
      // Before: any `profile-…` name passed, so a misspelt profile code turned nothing off and said nothing.
      ['profile-keyword-rejectd=off', /^toolslim check: --rule profile-keyword-rejectd=off: unknown rule `profile-keyword-rejectd` \(known for --profile findings: profile-tool-count, .*profile-keyword-rejected, /],
      ['profile-=off', /--rule profile-=off: unknown rule `profile-`/],
      ['missing-description=fatal', /the severity must be off, info, warning or error/],
      ['missing-description', /expected <code>=<severity>/],
    ] as const) {
      const r = await runMain(['check', warn, '--rule', rule]);
      expect(r.code, rule).toBe(2);
      expect(r.stderr, rule).toMatch(message);
    }
  });

  it('--rule takes each profile code the checker reports, and turns its findings off', async () => {
    // A name gemini refuses (it starts with a digit): one profile-tool-name error.
    const named = write('named.json', [{ name: '2fa_login', description: 'Log in', inputSchema: param }]);
    const on = await runMain(['check', named, '--profile', 'gemini']);
    expect(on.code).toBe(1);
    expect(codes(on.stdout)).toEqual(['error profile-tool-name']);
    const off = await runMain(['check', named, '--profile', 'gemini', '--rule', 'profile-tool-name=off']);
    expect(off.code).toBe(0);
    expect(codes(off.stdout)).toEqual([]);
  });

  it('--collision-threshold decides which tools read alike', async () => {
    const r = await runMain(['check', alike]);
    expect(codes(r.stdout)).toEqual(['info description-collision', 'info description-collision', 'info description-collision']);
    expect(r.code).toBe(0);
    expect(codes((await runMain(['check', alike, '--collision-threshold', '0.95'])).stdout)).toEqual([]);
    expect((await runMain(['check', alike, '--collision-threshold', '2'])).stderr).toContain('--collision-threshold must be between 0 and 1');
  });

  it('lists findings most severe first, and --quiet shows errors only', async () => {
    const r = await runMain(['check', mixed]);
    expect(codes(r.stdout)).toEqual(['error unresolved-ref', 'warning missing-description', 'info missing-param-description']);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('1 error, 1 warning, 1 info: failed: 1 at or above error');
    const q = await runMain(['check', mixed, '--quiet']);
    expect(codes(q.stdout)).toEqual(['error unresolved-ref']);
    expect(q.stdout).toContain('1 error, 1 warning, 1 info (2 not shown: --quiet): failed');
    const json = JSON.parse((await runMain(['check', mixed, '-q', '--format', 'json'])).stdout);
    expect(json.findings.map((f: { code: string }) => f.code)).toEqual(['unresolved-ref']);
    expect(json.counts).toEqual({ error: 1, warning: 1, info: 1 });
  });
});

describe('check: config file', () => {
  const project = (config: Record<string, unknown> | undefined, pkg?: Record<string, unknown>) => {
    const dir = tempDir('toolslim-config-');
    if (config) writeFileSync(join(dir, 'toolslim.config.json'), JSON.stringify(config));
    if (pkg) writeFileSync(join(dir, 'package.json'), JSON.stringify(pkg));
    return dir;
  };

  it('reads toolslim.config.json from the working directory; flags win', async () => {
    const cwd = project({ failOn: 'warning', rules: { 'missing-param-description': 'off' } });
    expect((await runMain(['check', warn], { cwd })).code).toBe(1);
    expect((await runMain(['check', warn, '--fail-on', 'error'], { cwd })).code).toBe(0);
    expect(codes((await runMain(['check', mixed], { cwd })).stdout)).toEqual(['error unresolved-ref', 'warning missing-description']);
    expect(codes((await runMain(['check', mixed, '--rule', 'missing-param-description=warning'], { cwd })).stdout)).toEqual(['error unresolved-ref', 'warning missing-param-description', 'warning missing-description']);
  });

  it('reads the toolslim key of package.json, and --config names another file', async () => {
    const cwd = project(undefined, { name: 'x', toolslim: { maxWarnings: 0 } });
    expect((await runMain(['check', warn], { cwd })).code).toBe(1);
    expect((await runMain(['check', warn], { cwd: project(undefined, { name: 'x' }) })).code).toBe(0);
    writeFileSync(join(cwd, 'ci.json'), JSON.stringify({ rules: { 'missing-description': 'error' } }));
    const r = await runMain(['check', warn, '--config', 'ci.json'], { cwd });
    expect(r.code).toBe(1);
    expect(codes(r.stdout)).toEqual(['error missing-description']);
    expect((await runMain(['check', warn, '--config', 'nope.json'], { cwd })).stderr).toContain('--config nope.json: no such file');
  });

  it('rejects a bad config with the file and the key', async () => {
    for (const [config, message] of [
      [{ maxWarning: 1 }, /toolslim\.config\.json: unknown key `maxWarning` \(known: rules, /],
      [{ collisionThreshold: 'high' }, /toolslim\.config\.json: `collisionThreshold` must be a number in \[0, 1\], got "high"/],
      [{ maxWarnings: -1 }, /`maxWarnings` must be a non-negative integer, got -1/],
      [{ rules: { 'missing-description': 'loud' } }, /`rules\.missing-description` must be one of error, warning, info, off, got "loud"/],
      [{ rules: { nope: 'off' } }, /toolslim\.config\.json: `rules\.nope`: unknown rule `nope`/],
      [{ rules: { 'profile-tool-nam': 'off' } }, /toolslim\.config\.json: `rules\.profile-tool-nam`: unknown rule `profile-tool-nam` \(known for --profile findings: .*profile-tool-name, /],
      [{ failOn: 'fatal' }, /`failOn` must be error, warning or info/],
    ] as const) {
      const r = await runMain(['check', warn], { cwd: project(config) });
      expect(r.code, JSON.stringify(config)).toBe(2);
      expect(r.stderr, JSON.stringify(config)).toMatch(message);
    }
    const broken = project(undefined);
    writeFileSync(join(broken, 'toolslim.config.json'), '{"rules": ');
    expect((await runMain(['check', warn], { cwd: broken })).stderr).toMatch(/toolslim\.config\.json: not valid JSON at line 1/);
  });
});

describe('several inputs', () => {
  it('checks files, directories and globs; one exit code for all', async () => {
    const both = await runMain(['check', clean, err]);
    expect(both.code).toBe(1);
    expect(both.stdout).toContain(`${err}\n  error   unresolved-ref dangling`);
    expect(both.stdout).not.toContain(`${clean}\n`); // nothing to show for it
    expect(both.stdout.trimEnd().split('\n').at(-1)).toBe('1 error, 0 warnings, 0 info in 2 inputs: failed: 1 at or above error');
    const dir = await runMain(['check', 'inputs'], { cwd: root });
    expect(dir.stdout).toContain('in 3 inputs');
    expect(dir.stdout).toContain('inputs/sub/err.json\n');
    expect(dir.stdout).toContain('inputs/warn.json\n');
    const top = await runMain(['check', 'inputs/*.json'], { cwd: root });
    expect(top.code).toBe(0);
    expect(top.stdout).toContain('0 errors, 1 warning, 0 info in 2 inputs');
    const deep = await runMain(['check', 'inputs/**/err.json', '--format', 'json'], { cwd: root });
    expect(JSON.parse(deep.stdout).inputs).toEqual([{ source: 'inputs/sub/err.json', counts: { error: 1, warning: 0, info: 0 } }]);
    expect((await runMain(['check', 'inputs/*.yaml'], { cwd: root })).stderr).toContain('inputs/*.yaml: no files match');
  });

  it('an unreadable input exits 2, and the others are still checked', async () => {
    const bad = write('bad.json', '{"tools": [');
    const r = await runMain(['check', err, join(root, 'missing.json'), bad]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('missing.json: no such file');
    expect(r.stderr).toContain(`${bad}: not valid JSON`);
    expect(r.stdout).toContain('unresolved-ref dangling');
    expect(r.stdout).toContain('in 3 inputs: failed: 1 at or above error; 2 inputs could not be read');
    const run = await runMain(['check', clean, join(root, 'missing.json'), '--format', 'json']);
    expect(run.code).toBe(2);
    const json = JSON.parse(run.stdout);
    // No finding in the readable input, yet the run failed: a CI script reading `failed` must not see a pass.
    expect(json.failed).toBe(true);
    expect(json.inputs.map((i: { source: string; error?: string }) => [i.source.endsWith('missing.json'), i.error !== undefined])).toEqual([
      [false, false],
      [true, true],
    ]);
  });

  it('report takes several inputs (a JSON array of reports) and --no-tokens', async () => {
    const r = await runMain(['report', clean, warn, '--format', 'json']);
    expect(r.code).toBe(0);
    const reports = JSON.parse(r.stdout);
    expect(reports.map((d: { source: string }) => d.source)).toEqual([clean, warn]);
    expect(typeof reports[0].total.o200k).toBe('number');
    const bare = JSON.parse((await runMain(['report', clean, '--no-tokens', '--format', 'json'])).stdout);
    expect(bare.total).toEqual({ bytes: Buffer.byteLength(JSON.stringify([{ name: 'ok', description: 'Fine', inputSchema: param }])), bytesAfter: bare.total.bytesAfter });
    expect(bare.tools[0]).not.toHaveProperty('o200k');
    const text = await runMain(['report', clean, '--no-tokens']);
    expect(text.stdout).toContain(': 1 tool, ');
    expect(text.stdout).toContain('tokens not counted: --no-tokens');
    expect((await runMain(['report', clean, '--no-tokens', '--max-tokens', '5'])).stderr).toContain('need token counts');
    const missing = await runMain(['report', clean, join(root, 'missing.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stdout).toContain(': 1 tool, ');
  });

  it('report --format json keeps each input in its place: an unreadable one is an entry with its error', async () => {
    // Before: the unreadable input was left out, so entry 1 was the third input's report.
    const notJson = write('not-json.json', 'this is not JSON');
    const r = await runMain(['report', clean, notJson, warn, '--format', 'json', '--no-tokens']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${notJson}: not valid JSON`);
    const entries = JSON.parse(r.stdout);
    expect(entries).toHaveLength(3);
    expect(entries.map((e: { source: string }) => e.source)).toEqual([clean, notJson, warn]);
    // The same shape as the input's entry in `check --format json`'s `inputs`.
    expect(entries[1]).toEqual({ source: notJson, error: expect.stringMatching(/^.*not-json\.json: not valid JSON at line 1/) });
    expect(Object.keys(entries[1])).toEqual(Object.keys(JSON.parse((await runMain(['check', clean, notJson, '--format', 'json'])).stdout).inputs[1]));
    expect(entries[0].tools.map((t: { name: string }) => t.name)).toEqual(['ok']);
    expect(entries[2].tools.map((t: { name: string }) => t.name)).toEqual(['nodesc']);
    // Every input unreadable: still one entry each. One input alone: no report to write (exit 2 says why).
    const none = await runMain(['report', notJson, join(root, 'missing.json'), '--format', 'json', '--no-tokens']);
    expect(none.code).toBe(2);
    expect(JSON.parse(none.stdout).map((e: { source: string; error: string }) => [e.source, typeof e.error])).toEqual([
      [notJson, 'string'],
      [join(root, 'missing.json'), 'string'],
    ]);
    const alone = await runMain(['report', notJson, '--format', 'json']);
    expect(alone.code).toBe(2);
    expect(alone.stdout).toBe('');
  });
});
