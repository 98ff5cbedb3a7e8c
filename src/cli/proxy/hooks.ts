/**
 * What the router and the list-serving side (served.ts, overlay.ts, session.ts) say to each other: the
 * server's list as it came, the list to serve, the hooks, and the errors that end a request or the run.
 */

import type { CallMap } from '../../session/call-map.js';

/** The server's `tools/list` pages as they came: exact text and parsed value. */
export interface RawList {
  readonly pages: readonly { readonly text: string; readonly value: Record<string, unknown> }[];
  /** Every page's tools in one result, without `nextCursor`. */
  readonly merged: Record<string, unknown>;
}

/** What the proxy serves for `tools/list`: the result as JSON text. */
export interface ServedList {
  readonly resultText: string;
  /** How calls of the served tools reach the server (renamed tools, nulls to drop); absent: as they come. */
  readonly calls?: CallMap;
}

/** A run that must stop: the message is shown on stderr and to the client, and the proxy exits 1. */
export class Refusal extends Error {
  override name = 'Refusal';
}

/** What a hook decides for a client's `tools/call`. */
export type CallDecision =
  | {
      readonly forward: true;
      /** Send `notifications/tools/list_changed` to the client. */
      readonly listChanged?: boolean;
      /** The `params` text to forward instead of the client's (a renamed tool's server name, nulls dropped). */
      readonly paramsText?: string;
    }
  | {
      readonly forward: false;
      /** The `result` to answer with, as JSON text. */
      readonly resultText: string;
      /** Send `notifications/tools/list_changed` to the client (a reveal by a call answered here). */
      readonly listChanged?: boolean;
    }
  /** The call can be decided only once the list is known: fetch it first, then ask again. */
  | { readonly forward: false; readonly wait: true };

/** A `tools/call` that went through, for the hooks (usage, stats). */
export interface CallInfo {
  readonly params: unknown;
  readonly requestBytes: number;
  readonly started: number;
}

/** What the list-serving side (served.ts) gives the router. */
export interface ListHooks {
  /** Fetch and serve the list before the client gets the `initialize` result (instructions, drift). */
  readonly prefetch: boolean;
  /** Why, for messages: `to put what promote-common-params moved out of the tools into its instructions`. */
  readonly prefetchWhy?: string;
  /** The server's `initialize` result (parsed), before it is forwarded. */
  initialized?(result: Record<string, unknown>): void;
  /** The list as the server sent it → what to serve. Throws a {@link Refusal} to stop the proxy. */
  serve(raw: RawList, when: 'initialize' | 'request' | 'changed'): ServedList;
  /** Text appended to the `initialize` result's `instructions` (asked after `serve` at initialize). */
  instructions?(): string | undefined;
  /** `notifications/tools/list_changed` from the server: true to fetch and serve again right away. */
  changed?(): boolean;
  /** A client's `tools/call` (`requestBytes`: UTF-8 bytes of its `params`; `paramsText`: their text as it came). */
  call?(params: unknown, requestBytes: number, paramsText?: string): CallDecision;
  /** The server's answer to a client's `tools/call` as the client should get it (undefined: as it came). */
  answer?(params: unknown, responseText: string, parsed: Record<string, unknown>): string | undefined;
  /** `responseText`: the server's answer (a result or an error) as it came. */
  called?(info: CallInfo, responseText: string, parsed: Record<string, unknown>): void;
  /** The proxy is ending: write what is pending. */
  close?(): void;
}

/** A JSON-RPC error the proxy answers with. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    /** The exact `error` member text, when it came from the server. */
    readonly errorText?: string,
  ) {
    super(message);
  }
  toText(): string {
    return this.errorText ?? JSON.stringify({ code: this.code, message: this.message });
  }
}

/** Seconds as a message shows them: `30s`, `2.5s`, `0.25s`. */
export function formatSeconds(ms: number): string {
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : Number(s.toPrecision(3))}s`;
}
