/**
 * Server-sent events for the HTTP upstream: `eventsource-parser` (the SDK's own parser, already in its
 * dependency tree; 172 kB unpacked, loaded only with `proxy --url`, never by `import 'toolslim'`) does the
 * WHATWG "event stream" parsing; this adapter keeps the proxy's side of it: the last event id as the
 * stream's resumption point (the parser reports the id per event; the format keeps the last one), the
 * `retry` the server asked for, and the line cap — the parser's `maxBufferSize` bounds a line without
 * its end plus an event's data lines, so a server that never ends a line is cut there, not held.
 *
 * Replaced the hand-written parser (issue 29 item 14): the library is linear too (a long line's
 * fragments are joined once, as ours were) and its buffer cap is what the byte cap needs.
 */
import { createParser, type EventSourceParser } from 'eventsource-parser';

/** One dispatched event. */
export interface SseEvent {
  /** `message` when the stream gave none. */
  readonly event: string;
  readonly data: string;
  /** The last event id seen so far (the stream's resumption point), if any. */
  readonly id: string | undefined;
}

export class SseParser {
  readonly #parser: EventSourceParser;
  #lastId: string | undefined;
  /** The reconnection time the stream asked for (`retry:`), in ms. */
  retryMs: number | undefined;
  /** Set once a line or an event went over `maxChars`: the stream is cut, nothing more is parsed. */
  overflowed = false;

  /**
   * `lastEventId`: where a resumed stream starts (the id sent as `Last-Event-ID`). `maxChars`: the cap
   * on a line without its end plus the data of the event being read (characters).
   */
  constructor(onEvent: (event: SseEvent) => void, lastEventId?: string, maxChars?: number) {
    this.#lastId = lastEventId;
    this.#parser = createParser({
      onEvent: (e) => {
        if (e.id !== undefined) this.#lastId = e.id;
        onEvent({ event: e.event ?? 'message', data: e.data, id: this.#lastId });
      },
      onRetry: (ms) => {
        this.retryMs = ms;
      },
      onError: (e) => {
        if (e.type === 'max-buffer-size-exceeded') this.overflowed = true;
      },
      ...(maxChars !== undefined ? { maxBufferSize: maxChars } : {}),
    });
  }

  get lastEventId(): string | undefined {
    return this.#lastId;
  }

  push(text: string): void {
    if (!this.overflowed) this.#parser.feed(text);
  }

  /** The stream ended: a last line without its end is handled; an event not ended by a blank line is dropped (as the format says). */
  end(): void {
    if (!this.overflowed) this.#parser.reset({ consume: true });
  }
}
