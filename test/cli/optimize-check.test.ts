/** Issue 29 item 13: `optimize --check` and `--write`, with prettier's exit codes (0 formatted, 1 would change, 2 error). */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_TOOLS, DEMO_TOOLS_OPTIMIZED, runMain } from './helpers.js';
import { tempDir } from '../helpers/temp.js';

const dir = tempDir('toolslim-optimize-check-');

describe('optimize --check / --write', () => {
  it('--check exits 1 naming the file and writes nothing; --write rewrites it; then --check exits 0', async () => {
    const f = join(dir, 'tools.json');
    const text = JSON.stringify(DEMO_TOOLS, null, 2) + '\n';
    writeFileSync(f, text);
    const before = await runMain(['optimize', '--check', f]);
    expect(before.code).toBe(1);
    expect(before.stderr).toContain(`${f} would change`);
    expect(before.stdout).toBe('');
    expect(readFileSync(f, 'utf8')).toBe(text);

    const write = await runMain(['optimize', '--write', f]);
    expect(write.code, write.stderr).toBe(0);
    expect(write.stdout).toBe('');
    // DEMO_TOOLS_OPTIMIZED is the hand-written result of the default preset (test/cli/helpers.ts).
    expect(JSON.parse(readFileSync(f, 'utf8'))).toEqual(DEMO_TOOLS_OPTIMIZED);

    const after = await runMain(['optimize', '--check', f]);
    expect(after.code, after.stderr).toBe(0);
    expect(after.stderr).toBe('');
  });

  it('exits 2 when --check or --write has no input file, or is given with -o', async () => {
    const f = join(dir, 'x.json');
    writeFileSync(f, JSON.stringify(DEMO_TOOLS));
    for (const [argv, message] of [
      [['optimize', '--check', '-'], /--check needs an input file/],
      [['optimize', '--write', '--', 'node', 'server.mjs'], /--write needs an input file/],
      [['optimize', '--check', f, '-o', join(dir, 'y.json')], /--check acts on the input file/],
      [['optimize', '--check', '--write', f], /either --check or --write/],
    ] as const) {
      const r = await runMain(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
    }
  });
});
