/**
 * Inputs that need not end: a device, a FIFO, stdin. Reading stops at the first byte that cannot start
 * JSON, or past the bound (lowered here: the real one is V8's longest string, half a gigabyte). Before,
 * `toolslim check /dev/zero` read until memory ran out.
 */
import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { InputTooLarge, MAX_INPUT_BYTES, readInputFile, readInputStream } from '../../src/cli/read-input.js';
import { parseJsonText } from '../../src/cli/json.js';
import { tempDir } from '../helpers/temp.js';

const dir = tempDir('toolslim-read-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A stream of the given chunks, then (when `endless`) the last chunk forever. */
function chunks(parts: readonly (string | number[])[], endless = false): Readable {
  let i = 0;
  let served = 0;
  return new Readable({
    read() {
      served++;
      if (served > 100_000) throw new Error('read far past where it should have stopped');
      if (i < parts.length) {
        const p = parts[i++]!;
        this.push(typeof p === 'string' ? Buffer.from(p) : Buffer.from(p));
      } else if (endless) {
        const p = parts[parts.length - 1]!;
        this.push(typeof p === 'string' ? Buffer.from(p) : Buffer.from(p));
      } else this.push(null);
    },
  });
}

describe('readInputStream', () => {
  it('reads a whole text that ends, in any chunking, with or without a byte-order mark', async () => {
    const text = '  \n[{"name":"a"}]';
    expect(await readInputStream(chunks([text]))).toBe(text);
    expect(await readInputStream(chunks(text.split('')))).toBe(text);
    // The mark's three bytes one at a time, then the text.
    expect(await readInputStream(chunks([[0xef], [0xbb], [0xbf], text]))).toBe('\ufeff' + text);
    for (const start of ['{', '[', '"', '-', '0', '9', 't', 'f', 'n']) expect(await readInputStream(chunks([' \t\r\n', start + 'x']))).toBe(' \t\r\n' + start + 'x');
  });

  it('stops at the first byte that cannot start JSON, so an endless stream is not read on', async () => {
    // /dev/zero, `yes`, a mark followed by something else: the text so far, which fails to parse at that byte.
    const zeros = await readInputStream(chunks([[0, 0, 0, 0]], true));
    expect(zeros).toBe('\0\0\0\0');
    expect(() => parseJsonText(zeros, '/dev/zero')).toThrow('/dev/zero: not valid JSON at line 1, column 1: unexpected "\\u0000" (expected a value)');
    expect(await readInputStream(chunks(['  ', 'y\n'], true))).toBe('  y\n');
    expect(await readInputStream(chunks([[0xef, 0xbb], [0x41]], true))).toBe(Buffer.from([0xef, 0xbb, 0x41]).toString('utf8'));
  });

  it('stops past the bound with a clear error, also on text that looks like JSON', async () => {
    await expect(readInputStream(chunks(['[', '1,'], true), 1000)).rejects.toThrow(InputTooLarge);
    await expect(readInputStream(chunks(['[', '1,'], true), 1000)).rejects.toThrow(/^larger than 1,000 bytes, the longest text JavaScript can hold/);
    // At the bound exactly: read.
    const exact = '[' + '0'.repeat(998) + ']';
    expect(await readInputStream(chunks([exact.slice(0, 500), exact.slice(500)]), 1000)).toBe(exact);
    await expect(readInputStream(chunks([exact, ' ']), 1000)).rejects.toThrow(InputTooLarge);
  });

  it('the bound is V8\'s longest string', () => {
    expect(MAX_INPUT_BYTES).toBe(2 ** 29 - 24);
  });
});

describe('readInputFile', () => {
  it('reads a regular file whole and refuses one over the bound before reading it', () => {
    const f = join(dir, 'tools.json');
    writeFileSync(f, '[{"name":"a"}]');
    expect(readInputFile(f)).toBe('[{"name":"a"}]');
    expect(() => readInputFile(f, 10)).toThrow(/^larger than 10 bytes/);
    expect(() => readInputFile(dir)).toThrow(expect.objectContaining({ code: 'EISDIR' }));
  });

  it('reads a device up to its first impossible byte: /dev/zero at once', () => {
    // One read's worth (a chunk), not more: the first byte already settles it.
    const text = readInputFile('/dev/zero');
    expect(text.length).toBeGreaterThan(0);
    expect(text.length).toBeLessThanOrEqual(1 << 16);
    expect(/^\0+$/.test(text)).toBe(true);
  });
});

describe('the CLI', () => {
  it('check /dev/zero and `yes | check -` fail at once as not JSON', async () => {
    const bin = join(import.meta.dirname, '..', '..', 'dist', 'cli', 'bin.js');
    const run = (args: string[], stdin?: string) =>
      new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const p = spawn(process.execPath, [bin, ...args], { stdio: ['pipe', 'ignore', 'pipe'] });
        let stderr = '';
        p.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
        p.on('close', (code) => resolve({ code, stderr }));
        if (stdin === undefined) p.stdin.end();
        else {
          // An endless writer: as `yes` writes, until the reader goes away.
          const write = () => p.stdin.write(stdin, (e) => (e ? undefined : setImmediate(write)));
          p.stdin.on('error', () => {});
          write();
        }
      });
    const zero = await run(['check', '/dev/zero']);
    expect(zero.code).toBe(2);
    expect(zero.stderr).toContain('/dev/zero: not valid JSON at line 1, column 1: unexpected "\\u0000"');
    const yes = await run(['check', '-'], 'y\n'.repeat(4096));
    expect(yes.code).toBe(2);
    expect(yes.stderr).toContain('<stdin>: not valid JSON at line 1, column 1: unexpected `y`');
  });
});
