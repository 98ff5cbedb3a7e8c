/**
 * Newline-delimited framing (the MCP stdio transport) read in linear time: each chunk is scanned once
 * for `\n`, the pieces of a line that spans chunks are kept as they came and joined once, when its end
 * arrives. A 50 MB line in 64 KB chunks costs one scan and one copy, never a rescan of what came before.
 *
 * Why not `node:readline` (issue 29 item 14), measured on Node 20.20 with a 100 MB line in 64 KB chunks:
 * readline holds the whole line before it emits it and has no cap (peak RSS 303 MB, 908 ms), where this
 * reader drops a line past its cap as it arrives (80 MB, 7 ms with a 1 MiB cap); readline also hands on
 * decoded strings, not the exact bytes the proxy forwards, and ends lines at a lone `\r` too.
 */

const NEWLINE = 0x0a;

/** A line over the cap: its first bytes (at most {@link HEAD_BYTES}, to find its id) and how many bytes were seen when it was cut. */
export type OnOverflow = (head: Buffer, seen: number) => void;

/** A line over the cap, once its `\n` came: its last bytes (at most {@link TAIL_BYTES}), where the official SDK writes a message's id. */
export type OnOverflowEnd = (tail: Buffer) => void;

/** How much of a line over the cap is kept for its caller (the id is near the start). */
export const HEAD_BYTES = 64 * 1024;

/** How much of the end of a line over the cap is kept for its caller (the SDK writes `id` last). */
export const TAIL_BYTES = 64 * 1024;

/**
 * Splits a byte stream into lines; each line is handed on without its `\n`, as the exact bytes that came.
 * With `maxBytes`, a line longer than that is never held: once it passes the cap its bytes are dropped
 * up to its `\n`, and `onOverflow` gets its first bytes instead.
 */
export class LineReader {
  readonly #onLine: (line: Buffer) => void;
  readonly #maxBytes: number;
  readonly #onOverflow: OnOverflow | undefined;
  #pieces: Buffer[] = [];
  #pendingBytes = 0;
  /** Dropping the rest of a line over the cap, up to its `\n`. */
  #skipping = false;
  readonly #onOverflowEnd: OnOverflowEnd | undefined;
  /** The last bytes of the line being dropped (at least {@link TAIL_BYTES} of them once it has that many, at most twice that). */
  #tail: Buffer[] = [];
  #tailBytes = 0;

  /**
   * `onOverflow` is called as soon as a line passes the cap (also when it never ends); `onOverflowEnd`,
   * when that line's `\n` comes, with its last bytes.
   */
  constructor(onLine: (line: Buffer) => void, limit?: { readonly maxBytes: number; readonly onOverflow: OnOverflow; readonly onOverflowEnd?: OnOverflowEnd }) {
    this.#onLine = onLine;
    this.#maxBytes = limit?.maxBytes ?? Infinity;
    this.#onOverflow = limit?.onOverflow;
    this.#onOverflowEnd = limit?.onOverflowEnd;
  }

  /** Bytes of the line still waiting for its `\n`. */
  get pendingBytes(): number {
    return this.#pendingBytes;
  }

  push(chunk: Buffer): void {
    let start = 0;
    if (this.#skipping) {
      const nl = chunk.indexOf(NEWLINE);
      if (nl === -1) {
        this.#keepTail(chunk);
        return;
      }
      this.#keepTail(chunk.subarray(0, nl));
      this.#skipping = false;
      this.#endOverflow();
      start = nl + 1;
    }
    let nl = chunk.indexOf(NEWLINE, start);
    while (nl !== -1) {
      const tail = chunk.subarray(start, nl);
      if (this.#pendingBytes + tail.length > this.#maxBytes) {
        this.#overflow(tail, this.#pendingBytes + tail.length);
        this.#endOverflow();
      } else {
        let line: Buffer;
        if (this.#pieces.length === 0) line = tail;
        else {
          this.#pieces.push(tail);
          line = Buffer.concat(this.#pieces, this.#pendingBytes + tail.length);
          this.#pieces = [];
          this.#pendingBytes = 0;
        }
        this.#onLine(line);
      }
      start = nl + 1;
      nl = chunk.indexOf(NEWLINE, start);
    }
    if (start < chunk.length) {
      const rest = start === 0 ? chunk : chunk.subarray(start);
      if (this.#pendingBytes + rest.length > this.#maxBytes) {
        this.#overflow(rest, this.#pendingBytes + rest.length);
        this.#skipping = true;
      } else {
        this.#pieces.push(rest);
        this.#pendingBytes += rest.length;
      }
    }
  }

  /** Hands on a last line that never got its `\n`, if any. */
  end(): void {
    this.#skipping = false;
    this.#tail = [];
    this.#tailBytes = 0;
    if (this.#pieces.length === 0) return;
    const line = Buffer.concat(this.#pieces, this.#pendingBytes);
    this.#pieces = [];
    this.#pendingBytes = 0;
    this.#onLine(line);
  }

  /** The line held so far plus `more` is over the cap: its head goes to onOverflow, the rest is dropped. */
  #overflow(more: Buffer, seen: number): void {
    const parts = [...this.#pieces, more];
    let headBytes = 0;
    const head: Buffer[] = [];
    for (const p of parts) {
      if (headBytes >= HEAD_BYTES) break;
      const take = p.subarray(0, HEAD_BYTES - headBytes);
      head.push(take);
      headBytes += take.length;
    }
    this.#tail = [];
    this.#tailBytes = 0;
    for (const p of parts) this.#keepTail(p);
    this.#pieces = [];
    this.#pendingBytes = 0;
    this.#onOverflow?.(Buffer.concat(head, headBytes), seen);
  }

  /** Adds bytes of the line being dropped to its kept tail, trimmed to {@link TAIL_BYTES} once it holds twice that. */
  #keepTail(bytes: Buffer): void {
    if (this.#onOverflowEnd === undefined || bytes.length === 0) return;
    this.#tail.push(bytes.length > TAIL_BYTES ? bytes.subarray(bytes.length - TAIL_BYTES) : bytes);
    this.#tailBytes += Math.min(bytes.length, TAIL_BYTES);
    if (this.#tailBytes >= 2 * TAIL_BYTES) {
      const all = Buffer.concat(this.#tail, this.#tailBytes);
      this.#tail = [all.subarray(all.length - TAIL_BYTES)];
      this.#tailBytes = TAIL_BYTES;
    }
  }

  /** The dropped line's `\n` came: its last bytes go to onOverflowEnd. */
  #endOverflow(): void {
    const tail = Buffer.concat(this.#tail, this.#tailBytes);
    this.#tail = [];
    this.#tailBytes = 0;
    this.#onOverflowEnd?.(tail.length > TAIL_BYTES ? tail.subarray(tail.length - TAIL_BYTES) : tail);
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
