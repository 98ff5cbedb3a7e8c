/**
 * An input's text, read with bounds: a device, a FIFO or stdin need not end (`check /dev/zero`, `yes |
 * toolslim check -` read until memory ran out). Reading stops
 * - as soon as the first byte that is not whitespace cannot start a JSON value: the text read so far fails
 *   to parse at that byte exactly as the whole would (`/dev/zero`: "unexpected \u0000" at once);
 * - past {@link MAX_INPUT_BYTES}, V8's longest string: a longer text cannot be decoded or parsed in one piece.
 * A regular file is read in one call when its size is within the bound (see inputs.ts for why not streamed).
 */
import { constants } from 'node:buffer';
import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import type { Readable } from 'node:stream';

/** The most bytes an input may hold: V8's longest string (2^29 − 24 on 64-bit). */
export const MAX_INPUT_BYTES = constants.MAX_STRING_LENGTH;

const CHUNK = 1 << 16;

/** Why an input was not read whole. */
export class InputTooLarge extends Error {
  constructor(limit: number) {
    super(`larger than ${limit.toLocaleString('en-US')} bytes, the longest text JavaScript can hold, so it cannot be parsed in one piece (split the tools into several files: check and report take many)`);
  }
}

/** Reads a file's text, bounded. Throws what `fs` throws (ENOENT, EISDIR …) and {@link InputTooLarge}. */
export function readInputFile(path: string, limit = MAX_INPUT_BYTES): string {
  const fd = openSync(path, 'r');
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    if (stat.isFile()) {
      if (stat.size > limit) throw new InputTooLarge(limit);
      return readFileSync(fd, 'utf8');
    }
    const reader = new BoundedReader(limit);
    const buffer = Buffer.allocUnsafe(CHUNK);
    for (;;) {
      const n = readSync(fd, buffer, 0, CHUNK, null);
      if (n === 0 || !reader.add(buffer.subarray(0, n), true)) break;
    }
    return reader.text();
  } finally {
    closeSync(fd);
  }
}

/** Reads a stream's text (stdin), bounded as {@link readInputFile} reads a device. */
export async function readInputStream(stream: Readable, limit = MAX_INPUT_BYTES): Promise<string> {
  const reader = new BoundedReader(limit);
  for await (const c of stream) {
    if (!reader.add(typeof c === 'string' ? Buffer.from(c) : (c as Buffer), false)) {
      stream.destroy();
      break;
    }
  }
  return reader.text();
}

/** The chunks read so far, whether the text may still be JSON, and the bound. */
class BoundedReader {
  readonly #chunks: Buffer[] = [];
  #bytes = 0;
  /** Still looking for the first byte that is not whitespace (after a byte-order mark). */
  #leading = true;
  /** The first bytes, while fewer than a byte-order mark's three have come. */
  #head: number[] = [];
  constructor(readonly limit: number) {}

  /** Takes a chunk (copied when `copy`, the caller's buffer being reused); false when reading should stop. */
  add(chunk: Buffer, copy: boolean): boolean {
    const at = this.#bytes;
    this.#bytes += chunk.length;
    if (this.#bytes > this.limit) throw new InputTooLarge(this.limit);
    this.#chunks.push(copy ? Buffer.from(chunk) : chunk);
    if (!this.#leading) return true;
    let i = 0;
    // A byte-order mark (the JSON parser skips one, see json.ts): its three bytes may come in several chunks.
    while (at + i < 3 && i < chunk.length) this.#head.push(chunk[i++]!);
    if (at + i <= 3) {
      const bom = [0xef, 0xbb, 0xbf];
      if (this.#head.every((b, k) => b === bom[k])) {
        if (this.#head.length < 3) return true;
      } else i = 0; // no mark: this chunk is looked at whole (an earlier one held only whitespace)
    }
    for (let k = i; k < chunk.length; k++) {
      const b = chunk[k]!;
      if (b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d) continue;
      this.#leading = false;
      return STARTS_VALUE.has(b);
    }
    return true;
  }

  text(): string {
    return Buffer.concat(this.#chunks).toString('utf8');
  }
}

/** The bytes a JSON value can start with: `{ [ " -`, a digit, `t f n`. */
const STARTS_VALUE: ReadonlySet<number> = new Set([0x7b, 0x5b, 0x22, 0x2d, 0x74, 0x66, 0x6e, ...Array.from({ length: 10 }, (_, d) => 0x30 + d)]);
