/**
 * A JSON-RPC batch from the client, split out of router.ts (its own concern; the router's state machine
 * decides each member). Members are decided one by one, as single messages are, with two rules of their own:
 *
 * - A `tools/call` member that can be decided only once the list is known (a session's cold checks need it)
 *   holds the whole batch until the list is fetched, then the batch is routed again; so its answer stays one
 *   batch response and no member is forwarded unchecked. If the list cannot be fetched, those calls are
 *   answered with an error that says why.
 * - Members the proxy answers itself and the server's answers to the rest go back as one batch response
 *   (batch.ts); a member the client cancels is dropped from it (`Batches.forget`).
 */
import { isObject } from '../../json/guards.js';
import type { Batches } from './batch.js';
import type { CallDecision } from './hooks.js';
import { elementSpans } from './json-text.js';
import { kindOf, type Kind } from './messages.js';
import type { RpcId } from './upstream.js';

/** What the router decided for one member. */
export type Member = { kind: 'forward'; text?: string; requestKey?: string; requestId?: RpcId; method?: string } | { kind: 'local'; answer: Promise<string | undefined> } | { kind: 'drop' };

/** How a member is decided: a call decision made already, or why the list a waiting call needs could not be had. */
export interface Decide {
  readonly decision?: CallDecision;
  readonly listFailed?: string;
  /** The batch was held for the list: a request the client cancelled meanwhile is dropped. */
  readonly held?: boolean;
}

/** What the batch routing needs of the router. */
export interface BatchRouter {
  readonly batches: Batches;
  /** The call decision of a `tools/call` member (params text as it came), or undefined without a call hook. */
  decideCall(msg: Record<string, unknown>, text: string): CallDecision | undefined;
  classify(text: string, msg: Record<string, unknown>, bytes: number, how: Decide): Member;
  send(text: Buffer | string, requestIds: readonly RpcId[], kind: Kind): boolean;
  track(p: Promise<unknown>): void;
  /** Marks the batch's requests as held for the list (a cancel meanwhile then drops them). */
  hold(ids: readonly RpcId[]): void;
  /** Resolves once the list is served; rejects with why it could not be. */
  listServed(): Promise<unknown>;
  readonly finished: boolean;
}

/** Routes one client batch; false when the server is not keeping up. `after`: the batch was held for the list. */
export function routeClientBatch(r: BatchRouter, line: Buffer, text: string, arr: unknown[], after?: { failed?: string }): boolean {
  const spans = elementSpans(text);
  const slice = (i: number) => text.slice(spans[i]!.start, spans[i]!.end);
  const decided = new Map<number, CallDecision>();
  if (after === undefined) {
    for (const [i, m] of arr.entries()) {
      if (!isObject(m) || m.method !== 'tools/call' || (typeof m.id !== 'string' && typeof m.id !== 'number')) continue;
      const d = r.decideCall(m, slice(i));
      if (d === undefined) break;
      if (!d.forward && 'wait' in d) {
        // Decisions made above are not used: before the list every checked call waits, so none was final.
        r.hold(arr.flatMap((x) => (isObject(x) && typeof x.method === 'string' && (typeof x.id === 'string' || typeof x.id === 'number') ? [x.id] : [])));
        r.track(
          r.listServed().then(
            () => !r.finished && routeClientBatch(r, line, text, arr, {}),
            (e: unknown) => !r.finished && routeClientBatch(r, line, text, arr, { failed: (e as Error)?.message ?? String(e) }),
          ),
        );
        return true;
      }
      decided.set(i, d);
    }
  }
  const members = arr.map((m, i): Member => (isObject(m) ? r.classify(slice(i), m, spans[i]!.end - spans[i]!.start, { ...(decided.has(i) ? { decision: decided.get(i)! } : {}), ...(after?.failed !== undefined ? { listFailed: after.failed } : {}), ...(after !== undefined ? { held: true } : {}) }) : { kind: 'forward' }));
  const requestIds = members.flatMap((m) => (m.kind === 'forward' && m.requestId !== undefined ? [m.requestId] : []));
  const kind = kindOf(members.map((m) => (m.kind === 'forward' ? m.method : undefined)));
  if (members.every((m) => m.kind === 'forward' && m.text === undefined)) return r.send(line, requestIds, kind);
  const forwarded = members.flatMap((m, i) => (m.kind === 'forward' ? [m.text ?? slice(i)] : []));
  const locals = members.flatMap((m) => (m.kind === 'local' ? [m.answer] : []));
  const keys = members.flatMap((m) => (m.kind === 'forward' && m.requestKey !== undefined ? [m.requestKey] : []));
  r.track(r.batches.open(keys, Promise.all(locals).then((answers) => answers.filter((a): a is string => a !== undefined))));
  return forwarded.length > 0 ? r.send(`[${forwarded.join(',')}]`, requestIds, kind) : true;
}
