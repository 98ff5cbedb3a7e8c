/**
 * docs/proxy.md and `toolslim proxy --help` stay true: the page's ```ts blocks run against the built
 * binary (`npx toolslim` → dist/cli/bin.js, `node server.mjs` → the demo server) and print what the page
 * says; every `toolslim proxy …` command shown parses; every flag is documented in both.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { expectedOutput, runPrinting } from '../helpers/docs-blocks.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseArgs } from '../../src/cli/args.js';
import { proxyCommand } from '../../src/cli/commands/proxy.js';
import { BIN, ROOT, requireBuild, runMain, SERVER } from './helpers.js';
import { tempDir } from '../helpers/temp.js';

const page = readFileSync(join(ROOT, 'docs', 'proxy.md'), 'utf8');
const dir = tempDir('toolslim-proxy-docs-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(() => requireBuild());

function fenced(lang: string): string[] {
  const re = new RegExp('^```' + lang + '\\n([\\s\\S]*?)^```$', 'gm');
  const out: string[] = [];
  for (let m = re.exec(page); m !== null; m = re.exec(page)) out.push(m[1]!);
  return out;
}

describe('docs/proxy.md', () => {
  it.each(fenced('ts').map((code, i) => [i, code] as const))('ts block %i runs and prints what the page says', async (i, code) => {
    const runnable = code
      .replace(/command: 'npx', args: \['toolslim', /g, `command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(BIN)}, `)
      .replace(/'node', 'server\.mjs'/g, `${JSON.stringify(process.execPath)}, ${JSON.stringify(SERVER)}`);
    expect(runnable).not.toBe(code);
    const expected = expectedOutput(code);
    const file = join(dir, `block-${i}.ts`);
    expect(await runPrinting(file, runnable)).toEqual(expected);
  });

  it('every toolslim proxy command it shows parses with the proxy’s flags', async () => {
    const help = (await runMain(['proxy', '--help'])).stdout;
    const lines = [...page.matchAll(/toolslim proxy ([^\n`]*)/g), ...help.matchAll(/toolslim proxy ([^\n`]*)/g)].map((m) => m[1]!);
    const fromJson = [...page.matchAll(/"args": \[("-y", )?"toolslim", "proxy", ([^\]]*)\]/g)].map((m) => JSON.parse(`[${m[2]}]`) as string[]);
    expect(lines.length).toBeGreaterThan(4);
    expect(fromJson.length).toBeGreaterThan(1);
    for (const line of lines) {
      const words = line.match(/"[^"]*"|\S+/g)!.map((w) => w.replace(/^"|"$/g, ''));
      if (words[0]?.startsWith('[') || words[0] === '—') continue; // the usage line's grammar
      expect(() => parseArgs(words, proxyCommand.flags), line).not.toThrow();
    }
    for (const args of fromJson) expect(() => parseArgs(args, proxyCommand.flags)).not.toThrow();
  });

  it('every flag is in the options table and in --help', async () => {
    const help = (await runMain(['proxy', '--help'])).stdout;
    for (const flag of proxyCommand.flags) {
      if (flag.name === 'help') continue;
      expect(page, `--${flag.name} in docs/proxy.md`).toContain(`\`--${flag.name}`.replace('`--header', '`-H, --header').replace('`--transform', '`-t, --transform').replace('`--verbose', '`-v, --verbose'));
      expect(help, `--${flag.name} in --help`).toContain(`--${flag.name}`);
    }
  });
});
