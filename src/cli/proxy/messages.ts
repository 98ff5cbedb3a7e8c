/**
 * Message-level helpers of the router: what the upstream is told about a message (from its parsed
 * `method`, never from a pattern over its text), text splices that keep every other byte, previews.
 */
import { hasOwn, isObject } from '../../json/guards.js';
import { memberSpans, setMember } from './json-text.js';

/** What the upstream is told about a message, from its parsed `method` (never from a pattern over its text). */
export interface Kind {
  readonly initialize?: true;
  readonly initialized?: true;
}

export const NO_KIND: Kind = {};

export function kindOf(methods: readonly (string | undefined)[]): Kind {
  let initialize = false;
  let initialized = false;
  for (const m of methods) {
    if (m === 'initialize') initialize = true;
    else if (m === 'notifications/initialized') initialized = true;
  }
  if (!initialize && !initialized) return NO_KIND;
  return { ...(initialize ? { initialize: true as const } : {}), ...(initialized ? { initialized: true as const } : {}) };
}

/**
 * A line of the server that MCP clients read as JSON-RPC 2.0: one message (`"jsonrpc": "2.0"` and a
 * request, a notification, a result or an error), or a non-empty batch of them. Anything else on the
 * server's stdout — a JSON logger's `{"level":30,…}`, an array of numbers — is a log line, not a message.
 */
export function isJsonRpcLine(msg: unknown): msg is Record<string, unknown> | unknown[] {
  if (Array.isArray(msg)) return msg.length > 0 && msg.every(isJsonRpcMessage);
  return isJsonRpcMessage(msg);
}

function isJsonRpcMessage(m: unknown): boolean {
  if (!isObject(m) || m.jsonrpc !== '2.0') return false;
  const id = m.id;
  const withId = typeof id === 'string' || typeof id === 'number';
  if (typeof m.method === 'string') return !hasOwn(m, 'id') || withId;
  if (hasOwn(m, 'result')) return withId;
  // An error may answer a request whose id could not be read (`"id": null`).
  if (hasOwn(m, 'error')) return isObject(m.error) && (withId || id === null || !hasOwn(m, 'id'));
  return false;
}

/** A message of the server that is a request (a method and an id): the client must see it at once. */
export function isServerRequest(msg: unknown): boolean {
  return isObject(msg) && typeof msg.method === 'string' && (typeof msg.id === 'string' || typeof msg.id === 'number');
}

/** The `initialize` response text with `extra` appended to its result's `instructions` (every other byte kept). */
export function appendInstructions(text: string, result: Record<string, unknown>, extra: string): string {
  const span = memberSpans(text).get('result')!;
  const current = typeof result.instructions === 'string' && result.instructions !== '' ? `${result.instructions}\n\n${extra}` : extra;
  const resultText = setMember(text.slice(span.start, span.end), 'instructions', JSON.stringify(current));
  return text.slice(0, span.start) + resultText + text.slice(span.end);
}

export function spliceMember(text: string, key: string, valueText: string): string {
  return setMember(text, key, valueText);
}

/** UTF-8 bytes of a request's `params` member as it came. */
export function paramsBytes(text: string): number {
  const span = memberSpans(text).get('params');
  return span === undefined ? 0 : Buffer.byteLength(text.slice(span.start, span.end), 'utf8');
}

export function preview(line: Buffer): string {
  const s = line.subarray(0, 200).toString('utf8').replace(/[\u0000-\u001f]/g, ' ');
  return JSON.stringify(line.length > 200 ? `${s}…` : s);
}
