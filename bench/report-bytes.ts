/**
 * `toolslim report`'s output bytes for every list of bench/corpus and bench/validation, in four forms
 * (`--format json`, the default text, and both with `--render typescript,json-indent4`), written to a
 * directory, one file per run; with `--compare <dir>`, the differences (all but `timeMs`) from a directory written before
 * (by this script, or by the built CLI run once per file as `<dir>/<set>__<name>[.render].{json,txt}`).
 * For changes that must not move a byte of the report (issue 31 item 4: tokens memoized per segment).
 *
 * Runs in one process through the CLI's `main` (so the token memo is shared across all the lists, which
 * exercises its reuse across texts). Usage: `tsx bench/report-bytes.ts <out dir> [--compare <dir>]`.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { main } from '../src/cli/main.js';

const ROOT = join(import.meta.dirname, '..');
const out = process.argv[2];
const compareAt = process.argv.indexOf('--compare');
const compare = compareAt > 0 ? process.argv[compareAt + 1] : undefined;
if (!out) throw new Error('usage: tsx bench/report-bytes.ts <out dir> [--compare <dir>]');
mkdirSync(out, { recursive: true });

function sink(): { stream: Writable; text: () => string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({ write(chunk, _enc, done) { chunks.push(Buffer.from(chunk)); done(); } });
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

const FORMS: readonly { suffix: string; args: readonly string[] }[] = [
  { suffix: '.json', args: ['--format', 'json'] },
  { suffix: '.txt', args: [] },
  { suffix: '.render.json', args: ['--render', 'typescript,json-indent4', '--format', 'json'] },
  { suffix: '.render.txt', args: ['--render', 'typescript,json-indent4'] },
];

/** The report's JSON holds each transform's `timeMs`, which no two runs share: compared as 0. */
function untimed(text: string): string {
  return text.replace(/"timeMs": [0-9.e+-]+/g, '"timeMs": 0');
}

let runs = 0;
let differ = 0;
for (const set of ['corpus', 'validation']) {
  for (const file of readdirSync(join(ROOT, 'bench', set)).filter((f) => f.endsWith('.json')).sort()) {
    for (const form of FORMS) {
      const o = sink();
      const e = sink();
      const code = await main(['report', join('bench', set, file), ...form.args], { stdin: new PassThrough(), stdout: o.stream, stderr: e.stream, env: { NO_COLOR: '1' }, cwd: ROOT });
      const name = `${set}__${file.replace(/\.json$/, '')}${form.suffix}`;
      writeFileSync(join(out, name), o.text());
      runs++;
      if (compare) {
        const was = existsSync(join(compare, name)) ? readFileSync(join(compare, name), 'utf8') : undefined;
        const wasErr = existsSync(join(compare, name + '.err')) ? readFileSync(join(compare, name + '.err'), 'utf8') : '';
        const wasCode = /rc=(\d+)/.exec(wasErr)?.[1];
        if (was === undefined || untimed(was) !== untimed(o.text()) || (wasCode !== undefined && Number(wasCode) !== code)) {
          differ++;
          process.stderr.write(`differs: ${name} (exit ${code}${wasCode !== undefined ? `, was ${wasCode}` : ''})\n`);
        }
      }
    }
  }
}
process.stdout.write(`${runs} runs${compare ? `, ${differ} differ from ${compare}` : ''}\n`);
process.exitCode = differ > 0 ? 1 : 0;
