/**
 * A server-sent events parser (the WHATWG "event stream" format) in linear time: text is scanned once
 * for line ends (CRLF, LF or CR, also split across chunks), the pieces of a long line are joined once,
 * and an event's data lines are joined once when it is dispatched.
 */

/** One dispatched event. */
export interface SseEvent {
  /** `message` when the stream gave none. */
  readonly event: string;
  readonly data: string;
  /** The last event id seen so far (the stream's resumption point), if any. */
  readonly id: string | undefined;
}

export class SseParser {
  readonly #onEvent: (event: SseEvent) => void;
  #line: string[] = [];
  #afterCR = false;
  #started = false;
  #data: string[] = [];
  #event = '';
  #lastId: string | undefined;
  /** The reconnection time the stream asked for (`retry:`), in ms. */
  retryMs: number | undefined;

  /** `lastEventId`: where a resumed stream starts (the id sent as `Last-Event-ID`). */
  constructor(onEvent: (event: SseEvent) => void, lastEventId?: string) {
    this.#onEvent = onEvent;
    this.#lastId = lastEventId;
  }

  get lastEventId(): string | undefined {
    return this.#lastId;
  }

  push(text: string): void {
    let i = 0;
    if (!this.#started && text.length > 0) {
      this.#started = true;
      if (text.charCodeAt(0) === 0xfeff) i = 1;
    }
    if (this.#afterCR && text.charCodeAt(i) === 10) i++;
    this.#afterCR = false;
    const ends = /[\r\n]/g;
    ends.lastIndex = i;
    for (let m = ends.exec(text); m !== null; m = ends.exec(text)) {
      const at = m.index;
      this.#line.push(text.slice(i, at));
      const line = this.#line.length === 1 ? this.#line[0]! : this.#line.join('');
      this.#line = [];
      this.#handle(line);
      i = at + 1;
      if (text.charCodeAt(at) === 13) {
        if (i === text.length) this.#afterCR = true;
        else if (text.charCodeAt(i) === 10) i++;
      }
      ends.lastIndex = i;
    }
    if (i < text.length) this.#line.push(text.slice(i));
  }

  /** The stream ended: a last line without its end is handled; an event not ended by a blank line is dropped (as the format says). */
  end(): void {
    if (this.#line.length > 0) {
      const line = this.#line.join('');
      this.#line = [];
      this.#handle(line);
    }
  }

  #handle(line: string): void {
    if (line === '') {
      this.#dispatch();
      return;
    }
    if (line.charCodeAt(0) === 58 /* : */) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    switch (field) {
      case 'data':
        this.#data.push(value);
        break;
      case 'event':
        this.#event = value;
        break;
      case 'id':
        if (!value.includes('\u0000')) this.#lastId = value;
        break;
      case 'retry':
        if (/^[0-9]+$/.test(value)) this.retryMs = Number(value);
        break;
      default:
        break;
    }
  }

  #dispatch(): void {
    const data = this.#data;
    const event = this.#event;
    this.#data = [];
    this.#event = '';
    if (data.length === 0) return;
    this.#onEvent({ event: event === '' ? 'message' : event, data: data.length === 1 ? data[0]! : data.join('\n'), id: this.#lastId });
  }
}
