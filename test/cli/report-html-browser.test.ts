/**
 * `report --format html` in a real browser (issue 29 item 13): headless Chromium (Debian's package; .ci/run
 * installs it when absent) opens the page written for the hand-written fixture, and the DOM after parsing
 * holds the charts — one row per tool, the part rectangles the fixture has, no element from the hostile
 * tool names — with no console message (an injected script would be blocked by the page's policy, and the
 * block logged). A screenshot is written to test-output/report-html.png. Without a browser the tests skip
 * and say why in their title.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CHROMIUM, runChromium } from '../helpers/chromium.js';
import { EXPECTED, HOSTILE_NAME, occurrences, writeFixture } from './report-html.fixture.js';
import { ROOT, runMain } from './helpers.js';

const NO_BROWSER = CHROMIUM === undefined;
const SKIP = NO_BROWSER ? ` (skipped: no Chromium at ${process.env.TOOLSLIM_CHROMIUM ?? '/usr/bin/chromium'} ($TOOLSLIM_CHROMIUM names another); .ci/run installs Debian’s chromium)` : '';
const SCREENSHOT = join(ROOT, 'test-output', 'report-html.png');

const { dir, file } = writeFixture();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function page(args: readonly string[]): Promise<string> {
  const out = join(dir, 'report.html');
  const r = await runMain(['report', file, '--format', 'html', '-o', out, ...args]);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return out;
}

describe('report --format html in headless Chromium', () => {
  it.skipIf(NO_BROWSER)(`renders its charts with no console message, and a screenshot (test-output/report-html.png)${SKIP}`, async () => {
    const html = await page(['--render', 'typescript']);
    mkdirSync(join(ROOT, 'test-output'), { recursive: true });
    rmSync(SCREENSHOT, { force: true });
    // One launch: the DOM after parsing on stdout, the screenshot to its file.
    const dom = await runChromium(html, ['--dump-dom', `--screenshot=${SCREENSHOT}`, '--window-size=1000,900']);
    expect(dom.code).toBe(0);
    expect(dom.console).toEqual([]);
    const body = dom.stdout;
    expect(body).toContain('<svg class="chart" id="chart-tools"');
    expect(occurrences(body, '<g class="tool"')).toBe(EXPECTED.tools);
    expect(occurrences(body, '<g class="reader-tool"')).toBe(EXPECTED.tools);
    const start = body.indexOf('<svg class="chart" id="chart-tools"');
    const tools = body.slice(start, body.indexOf('</svg>', start));
    expect(occurrences(tools, '<rect class="part part-description"')).toBe(EXPECTED.withDescription);
    expect(occurrences(tools, '<rect class="part part-definitions"')).toBe(EXPECTED.withDefinitions);
    expect(occurrences(tools, '<rect class="part part-outputSchema"')).toBe(EXPECTED.withOutputSchema);
    expect(occurrences(tools, '<rect class="after"')).toBe(EXPECTED.tools);
    // Nothing the tools carried became an element; the name is there as text.
    expect(occurrences(body, /<script|<img/i)).toBe(0);
    expect(body).toContain(HOSTILE_NAME.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'));
    expect(body).toMatch(/<title>toolslim report: [^<]*tools\.json<\/title>/);
    // Bars have width: the widest part of the first row spans more than nothing.
    const widths = [...body.matchAll(/<rect class="part [^"]*" x="[\d.]+" y="1" width="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(Math.max(...widths)).toBeGreaterThan(100);

    const png = readFileSync(SCREENSHOT);
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(png.readUInt32BE(16)).toBe(1000); // IHDR width
    expect(png.length).toBeGreaterThan(10_000); // a blank page compresses to a few hundred bytes
    console.info(`report --format html screenshot: ${SCREENSHOT}`);
  });

  it.skipIf(NO_BROWSER)(`the console check sees a page's errors (a script the page's policy blocks, one that throws)${SKIP}`, async () => {
    // A policy in a <meta> applies from where it stands: the first script runs and throws (logged), the
    // second is blocked by the report's policy (logged).
    const bad = join(dir, 'bad.html');
    writeFileSync(bad, `<!doctype html><html><head><script>undefinedFunction()</script><meta http-equiv="Content-Security-Policy" content="default-src 'none'"><script>1</script></head><body>x</body></html>`);
    const r = await runChromium(bad, ['--dump-dom']);
    const log = r.console.join('\n');
    expect(log).toMatch(/Content Security Policy/);
    expect(log).toMatch(/Uncaught ReferenceError: undefinedFunction/);
  });
});
