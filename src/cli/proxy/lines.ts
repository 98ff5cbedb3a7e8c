/**
 * Newline-delimited framing (the MCP stdio transport) read in linear time: each chunk is scanned once
 * for `\n`, the pieces of a line that spans chunks are kept as they came and joined once, when its end
 * arrives. A 50 MB line in 64 KB chunks costs one scan and one copy, never a rescan of what came before.
 */

const NEWLINE = 0x0a;

/** Splits a byte stream into lines; each line is handed on without its `\n`, as the exact bytes that came. */
export class LineReader {
  readonly #onLine: (line: Buffer) => void;
  #pieces: Buffer[] = [];
  #pendingBytes = 0;

  constructor(onLine: (line: Buffer) => void) {
    this.#onLine = onLine;
  }

  /** Bytes of the line still waiting for its `\n`. */
  get pendingBytes(): number {
    return this.#pendingBytes;
  }

  push(chunk: Buffer): void {
    let start = 0;
    let nl = chunk.indexOf(NEWLINE, start);
    while (nl !== -1) {
      const tail = chunk.subarray(start, nl);
      let line: Buffer;
      if (this.#pieces.length === 0) line = tail;
      else {
        this.#pieces.push(tail);
        line = Buffer.concat(this.#pieces, this.#pendingBytes + tail.length);
        this.#pieces = [];
        this.#pendingBytes = 0;
      }
      this.#onLine(line);
      start = nl + 1;
      nl = chunk.indexOf(NEWLINE, start);
    }
    if (start < chunk.length) {
      this.#pieces.push(start === 0 ? chunk : chunk.subarray(start));
      this.#pendingBytes += chunk.length - start;
    }
  }

  /** Hands on a last line that never got its `\n`, if any. */
  end(): void {
    if (this.#pieces.length === 0) return;
    const line = Buffer.concat(this.#pieces, this.#pendingBytes);
    this.#pieces = [];
    this.#pendingBytes = 0;
    this.#onLine(line);
  }
}

/** True when a line holds nothing but blanks (`\r` included), which framing ignores. */
export function isBlankLine(line: Buffer): boolean {
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d) return false;
  }
  return true;
}
