/**
 * Issue 29 item 13: `check --format sarif` validated with ajv against the official SARIF 2.1.0 schema
 * (test/data/sarif, see SOURCE.md), and `--format github` workflow-command lines. Positions are written
 * by hand from the fixture's text below.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Ajv } from 'ajv';
import Ajv04Module from 'ajv-draft-04';
import { describe, expect, it } from 'vitest';
import { runMain } from './helpers.js';
import { tempDir } from '../helpers/temp.js';

// ajv-draft-04 is CommonJS: its class is the default export or the module itself, as test/helpers/readings.ts reads it.
const Ajv04 = ((Ajv04Module as unknown as { default?: unknown }).default ?? Ajv04Module) as typeof Ajv;
const ROOT = join(import.meta.dirname, '..', '..');
const schema = JSON.parse(readFileSync(join(ROOT, 'test', 'data', 'sarif', 'sarif-schema-2.1.0.json'), 'utf8'));
const dir = tempDir('toolslim-sarif-');

// Line 3 holds the dangling $ref (column 50 is where `"$ref"` starts); line 5 the tool without a description.
const TEXT = `{
  "tools": [
    { "name": "dangling", "description": "d", "inputSchema": { "type": "object", "properties": { "a": { "$ref": "#/$defs/Nope", "description": "a" } } } },
    {
      "name": "bare", "inputSchema": { "type": "object" } }
  ]
}
`;

describe('check --format sarif', () => {
  const file = join(dir, 'tools.json');
  writeFileSync(file, TEXT);

  it('is valid SARIF 2.1.0: one result per finding, rules with help, pointer and line/column', async () => {
    const r = await runMain(['check', 'tools.json', '--format', 'sarif'], { cwd: dir });
    expect(r.code).toBe(1);
    const log = JSON.parse(r.stdout);
    const validate = new Ajv04({ strict: false, validateFormats: false }).compile(schema);
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
    const json = JSON.parse((await runMain(['check', 'tools.json', '--format', 'json'], { cwd: dir })).stdout);
    const results = log.runs[0].results;
    expect(results).toHaveLength(json.findings.length);
    const rules = log.runs[0].tool.driver.rules;
    for (const res of results) {
      expect(rules[res.ruleIndex].id).toBe(res.ruleId);
      expect(rules[res.ruleIndex].help.text.length).toBeGreaterThan(10);
    }
    const ref = results.find((x: { ruleId: string }) => x.ruleId === 'unresolved-ref');
    expect(ref.level).toBe('error');
    expect(ref.locations[0].logicalLocations[0].fullyQualifiedName).toBe('/tools/0/inputSchema/properties/a/$ref');
    expect(ref.locations[0].physicalLocation.artifactLocation.uri).toBe('tools.json');
    expect(ref.locations[0].physicalLocation.region).toEqual({ startLine: 3, startColumn: TEXT.split('\n')[2]!.indexOf('"$ref"') + 1 });
    const bare = results.find((x: { ruleId: string }) => x.ruleId === 'missing-description');
    expect(bare.level).toBe('warning');
    expect(bare.locations[0].logicalLocations[0].fullyQualifiedName).toBe('/tools/1');
    expect(bare.locations[0].physicalLocation.region).toEqual({ startLine: 4, startColumn: 5 });
  });

  it('an input that cannot be read makes the run unsuccessful, with a notification naming the file', async () => {
    writeFileSync(join(dir, 'broken.json'), '{"tools": [');
    const r = await runMain(['check', 'tools.json', 'broken.json', '--format', 'sarif'], { cwd: dir });
    expect(r.code).toBe(2);
    const log = JSON.parse(r.stdout);
    const validate = new Ajv04({ strict: false, validateFormats: false }).compile(schema);
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
    const [invocation] = log.runs[0].invocations;
    expect(invocation.executionSuccessful).toBe(false);
    expect(invocation.toolExecutionNotifications).toHaveLength(1);
    const [note] = invocation.toolExecutionNotifications;
    expect(note.level).toBe('error');
    expect(note.message.text).toMatch(/^broken\.json: not valid JSON at line 1, column 12/);
    expect(note.locations[0].physicalLocation.artifactLocation.uri).toBe('broken.json');
    // The readable input's findings are still there.
    expect(log.runs[0].results.some((x: { ruleId: string }) => x.ruleId === 'unresolved-ref')).toBe(true);
    const ok = JSON.parse((await runMain(['check', 'tools.json', '--format', 'sarif'], { cwd: dir })).stdout);
    expect(ok.runs[0].invocations).toEqual([{ executionSuccessful: true }]);
    const gh = await runMain(['check', 'tools.json', 'broken.json', '--format', 'github'], { cwd: dir });
    expect(gh.code).toBe(2);
    expect(gh.stdout.split('\n')).toContain('::error file=broken.json,title=toolslim%3A input not read::broken.json: not valid JSON at line 1, column 12: unexpected end of input (expected a value)');
  });

  it('--format github writes workflow commands with file, line and column, then the summary', async () => {
    const r = await runMain(['check', 'tools.json', '--format', 'github'], { cwd: dir });
    expect(r.code).toBe(1);
    const lines = r.stdout.trimEnd().split('\n');
    const col = TEXT.split('\n')[2]!.indexOf('"$ref"') + 1;
    expect(lines[0]).toMatch(new RegExp(`^::error file=tools\\.json,line=3,col=${col},title=toolslim unresolved-ref::dangling /tools/0/inputSchema/properties/a/\\$ref: `));
    expect(lines.some((l) => l.startsWith('::warning file=tools.json,line=4,col=5,title=toolslim missing-description::bare /tools/1: '))).toBe(true);
    expect(lines.at(-1)).toMatch(/^1 error, 1 warning, \d+ info: failed/);
  });
});

describe('check: a tool name with a backtick in every output format', () => {
  // Found as a user: the `invalid-name` message listed the backtick in backticks, as three in a row ("```"),
  // which reads as nothing and opens a code fence wherever the message is shown as markdown.
  const file = join(dir, 'backtick.json');
  writeFileSync(file, '[{"name":"a`b","description":"Do it.","inputSchema":{"type":"object"}}]\n');
  const expected = 'tool name "a`b" contains "`"; expected 1–128 characters of A–Z a–z 0–9 _ - . (rename it, e.g. `a_b`)';

  it.each(['text', 'json', 'sarif', 'github'])('--format %s: the name once, the backtick listed as "`"', async (format) => {
    const r = await runMain(['check', 'backtick.json', '--format', format], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain('```');
    const message =
      format === 'json'
        ? JSON.parse(r.stdout).findings.find((f: { code: string }) => f.code === 'invalid-name').message
        : format === 'sarif'
          ? JSON.parse(r.stdout).runs[0].results.find((x: { ruleId: string }) => x.ruleId === 'invalid-name').message.text
          : r.stdout.split('\n').find((l) => l.includes('invalid-name'))!.replace(/^.*?(?=tool name )/, '');
    expect(message).toBe(expected);
  });
});
