/**
 * The server's own stderr, on its way to the proxy's stderr: passed through line by line, each line through
 * the one redaction (redact.ts), so a server that prints its command line (`--api-key=sk-…`) or a token
 * shows `***` there too. Lines are cut on `\n`; a secret split across two writes of the server is still
 * one line here. A line longer than {@link MAX_LINE} characters is written out in pieces of that size
 * (redacted each), so a server that never ends a line cannot make the proxy hold its output; a secret that
 * straddles such a cut is the one case not hidden.
 */
import { StringDecoder } from 'node:string_decoder';
import type { Writable } from 'node:stream';

/** The longest piece held back waiting for its newline. */
export const MAX_LINE = 64 * 1024;

export class RedactedLines {
  readonly #out: Writable;
  readonly #redact: (text: string) => string;
  readonly #decoder = new StringDecoder('utf8');
  #pending = '';

  constructor(out: Writable, redact: (text: string) => string) {
    this.#out = out;
    this.#redact = redact;
  }

  /** One chunk as the server wrote it. */
  push(chunk: Buffer): void {
    this.#pending += this.#decoder.write(chunk);
    let nl = this.#pending.lastIndexOf('\n');
    if (nl >= 0) {
      this.#out.write(this.#redact(this.#pending.slice(0, nl + 1)));
      this.#pending = this.#pending.slice(nl + 1);
    }
    while (this.#pending.length > MAX_LINE) {
      this.#out.write(this.#redact(this.#pending.slice(0, MAX_LINE)));
      this.#pending = this.#pending.slice(MAX_LINE);
    }
  }

  /** The server's stderr ended: what is left (a last line without its newline). */
  end(): void {
    const rest = this.#pending + this.#decoder.end();
    this.#pending = '';
    if (rest !== '') this.#out.write(this.#redact(rest));
  }
}
