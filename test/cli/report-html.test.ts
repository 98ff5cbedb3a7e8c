/**
 * `report --format html` (issue 29 item 13): one self-contained page, every input string escaped, the same
 * bytes for the same input, bytes with --no-tokens, a reader's chart with --render. Expected counts come from
 * the hand-written fixture (report-html.fixture.ts); the part sizes in bytes are recomputed here from their
 * definition (the compact JSON of the member).
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ATTRIBUTE_NAME, EXPECTED, HOSTILE_DESCRIPTION, HOSTILE_NAME, occurrences, TOOLS, writeFixture } from './report-html.fixture.js';
import { o200k } from '../../src/tokens.js';
import { runMain } from './helpers.js';

const { dir, file } = writeFixture();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function html(args: readonly string[]): Promise<string> {
  const out = join(dir, `r-${args.join('_').replace(/[^a-z0-9_-]/gi, '')}.html`);
  const r = await runMain(['report', file, '--format', 'html', '-o', out, ...args]);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  expect(r.stdout).toBe('');
  return readFileSync(out, 'utf8');
}

describe('report --format html', () => {
  it('charts one row per tool, a part rect per part present, an after bar per tool', async () => {
    const page = await html(['--no-tokens']);
    expect(occurrences(page, '<g class="tool"')).toBe(EXPECTED.tools);
    expect(occurrences(page, 'class="part part-description"')).toBe(EXPECTED.withDescription);
    expect(occurrences(page, 'class="part part-definitions"')).toBe(EXPECTED.withDefinitions);
    expect(occurrences(page, 'class="part part-outputSchema"')).toBe(EXPECTED.withOutputSchema);
    expect(occurrences(page, 'class="part part-parameters"')).toBe(EXPECTED.tools);
    expect(occurrences(page, '<rect class="after"')).toBe(EXPECTED.tools);
    expect(page).toContain('Unit: bytes');
    // Bytes of a part: the member's compact JSON, recomputed here.
    const plain = TOOLS[1]!;
    const bytes = Buffer.byteLength('"description":' + JSON.stringify(plain.description));
    expect(page).toContain(`description ${bytes} bytes</title>`);
    const defs = Buffer.byteLength('"$defs":' + JSON.stringify(TOOLS[0]!.inputSchema.$defs)) + 1; // and its comma
    expect(page).toContain(`definitions ${defs} bytes</title>`);
  });

  it('escapes every string from the input: no markup of the tools reaches the page', async () => {
    const page = await html(['--no-tokens']);
    expect(occurrences(page, /<script/i)).toBe(0);
    expect(occurrences(page, /<img/i)).toBe(0);
    expect(occurrences(page, '</svg>')).toBe(occurrences(page, '<svg'));
    expect(page).not.toContain('onmouseover="');
    expect(page).not.toContain("data-x='");
    const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
    expect(page).toContain(`<title>${esc(HOSTILE_NAME)}</title>`);
    expect(page).toContain(`<title>${esc(ATTRIBUTE_NAME)}</title>`);
    // The description is in no chart, but a file name, a finding message or a title could carry it: none does unescaped.
    expect(page).not.toContain(HOSTILE_DESCRIPTION);
    // Nothing loaded from anywhere, and a policy that forbids it.
    expect(page).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">/);
    expect(page).not.toMatch(/\b(?:src|href)\s*=|url\(|@import/i);
  });

  it('writes the same bytes for the same input', async () => {
    const a = await html(['--render', 'typescript,json']);
    const b = await html(['--render', 'typescript,json']);
    expect(a).toBe(b);
    expect(a).toContain('Unit: tokens (o200k_base');
  });

  it('with --render, charts each tool as the reader counts it, in that unit', async () => {
    const page = await html(['--render', 'typescript']);
    expect(occurrences(page, '<g class="reader-tool"')).toBe(EXPECTED.tools);
    expect(page).toContain('Tokens as the typescript reader (o200k_base) reads the tools');
    expect(page).not.toContain('pproximate');
  });

  it('splits a reader\'s bars by part in its tokens: what the rendering loses without each part', async () => {
    const page = await html(['--render', 'typescript,json-indent4']);
    const chart = (id: string) => {
      const start = page.indexOf(`<svg class="chart" id="chart-reader-${id}"`);
      expect(start).toBeGreaterThan(-1);
      return page.slice(start, page.indexOf('</svg>', start));
    };
    const ts = chart('typescript');
    const json = chart('json-indent4');
    // The typescript reader (harmony) drops `$defs`: no definitions part; the indented JSON shows them.
    expect(occurrences(ts, 'class="part part-definitions"')).toBe(0);
    expect(occurrences(json, 'class="part part-definitions"')).toBe(EXPECTED.withDefinitions);
    expect(occurrences(ts, 'class="part part-description"')).toBe(EXPECTED.withDescription);
    expect(occurrences(ts, 'class="part part-outputSchema"')).toBe(0);
    // The description of the plain tool as the json-indent4 reader reads it: the OpenAI-style function object
    // indented by 4, with and without its description, counted in o200k_base.
    const plain = TOOLS[1]!;
    const indent4 = (f: Record<string, unknown>) => JSON.stringify({ type: 'function', function: f }, null, 4);
    const delta = o200k.count(indent4({ name: plain.name, description: plain.description, parameters: plain.inputSchema })) - o200k.count(indent4({ name: plain.name, parameters: plain.inputSchema }));
    expect(delta).toBeGreaterThan(0);
    expect(json).toContain(`description ${delta} tokens as the json-indent4 reader (o200k_base) reads it</title>`);
  });

  it('with --profile, names the profile and its reader', async () => {
    const page = await html(['--profile', 'openai']);
    expect(occurrences(page, '<g class="reader-tool"')).toBe(EXPECTED.tools);
    expect(page).toContain('Tokens as openai (typescript rendering, o200k_base) reads the tools');
  });

  it('--responses says it has no html and no -o instead of ignoring them', async () => {
    for (const extra of [['--format', 'html'], ['-o', join(dir, 'x.txt')]]) {
      const r = await runMain(['report', '--responses', file, ...extra]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/--responses prints text, markdown or json to stdout/);
    }
  });

  it('writes to stdout without -o, and -o works for the other formats', async () => {
    const r = await runMain(['report', file, '--format', 'html', '--no-tokens']);
    expect(r.code).toBe(0);
    expect(r.stdout.startsWith('<!doctype html>')).toBe(true);
    const out = join(dir, 'r.md');
    const m = await runMain(['report', file, '--format', 'markdown', '--no-tokens', '-o', out]);
    expect(m.code).toBe(0);
    expect(m.stdout).toBe('');
    expect(readFileSync(out, 'utf8')).toContain('## toolslim report');
  });
});
