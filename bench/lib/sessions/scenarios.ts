/**
 * Derived data sets for "when does a hot set pay": longer sessions (chained), shorter ones (first turn only),
 * larger lists (more servers in the session, never called).
 */
import type { McpTool } from '../../../src/index.js';
import type { Session, SessionData } from './data.js';

/**
 * Sessions with the same groups chained `n` at a time, in file order (a chain is one long session: the
 * turns of each, one after the other). Groups with fewer than `n` sessions give no chain; a last, shorter
 * chunk is dropped, so every chain has exactly `n` parts.
 */
export function chainSessions(data: SessionData, n: number): SessionData {
  const byGroups = new Map<string, Session[]>();
  for (const s of data.sessions) {
    const key = s.groups.join('\u0000');
    let list = byGroups.get(key);
    if (list === undefined) byGroups.set(key, (list = []));
    list.push(s);
  }
  const sessions: Session[] = [];
  for (const list of byGroups.values()) {
    for (let i = 0; i + n <= list.length; i += n) {
      const parts = list.slice(i, i + n);
      sessions.push({
        id: parts.map((p) => p.id).join('+'),
        groups: parts[0]!.groups,
        turns: parts.flatMap((p) => p.turns),
        sources: parts.flatMap((p) => p.sources ?? [p.id]),
      });
    }
  }
  return { groups: data.groups, sessions };
}

/** Every session cut to its first `turns` turns. */
export function firstTurns(data: SessionData, turns: number): SessionData {
  return { groups: data.groups, sessions: data.sessions.map((s) => ({ ...s, turns: s.turns.slice(0, turns), sources: s.sources ?? [s.id] })) };
}

/**
 * Every session's list widened with more servers until it has at least `target` tools: first the data's own
 * groups the session does not use, then `extra` servers, in order; a server that would bring a tool name the
 * list already has is skipped. The added servers are never called.
 */
export function widenLists(data: SessionData, extra: ReadonlyMap<string, readonly McpTool[]>, target: number): SessionData {
  const groups = new Map(data.groups);
  for (const [g, tools] of extra) if (!groups.has(g)) groups.set(g, tools);
  const order = [...data.groups.keys(), ...[...extra.keys()].filter((g) => !data.groups.has(g))];
  const sessions = data.sessions.map((s) => {
    const chosen = [...s.groups];
    const names = new Set(chosen.flatMap((g) => groups.get(g)!.map((t) => t.name)));
    for (const g of order) {
      if (names.size >= target) break;
      if (chosen.includes(g)) continue;
      const tools = groups.get(g)!;
      if (tools.length === 0 || tools.some((t) => names.has(t.name)) || new Set(tools.map((t) => t.name)).size !== tools.length) continue;
      chosen.push(g);
      for (const t of tools) names.add(t.name);
    }
    return { ...s, groups: chosen, sources: s.sources ?? [s.id] };
  });
  return { groups, sessions };
}

/**
 * Every session with `n` more servers connected and never called (the user who connected several servers
 * and uses one): `extra`'s servers taken in order from an offset that moves by `stride` per session
 * (wrapping), so the sessions between them see every server; a server that would bring a tool name the
 * list already has, or that lists a name twice, is skipped. Fewer than `n` when `extra` runs out.
 */
export function addServers(data: SessionData, extra: ReadonlyMap<string, readonly McpTool[]>, n: number, stride = 7): SessionData {
  const groups = new Map(data.groups);
  const pool = [...extra.keys()].filter((g) => !data.groups.has(g));
  for (const g of pool) groups.set(g, extra.get(g)!);
  const sessions = data.sessions.map((s, i) => {
    const chosen = [...s.groups];
    const names = new Set(chosen.flatMap((g) => groups.get(g)!.map((t) => t.name)));
    let added = 0;
    for (let j = 0; j < pool.length && added < n; j++) {
      const g = pool[(i * stride + j) % pool.length]!;
      const tools = groups.get(g)!;
      if (tools.length === 0 || tools.some((t) => names.has(t.name)) || new Set(tools.map((t) => t.name)).size !== tools.length) continue;
      chosen.push(g);
      added++;
      for (const t of tools) names.add(t.name);
    }
    return { ...s, groups: chosen, sources: s.sources ?? [s.id] };
  });
  return { groups, sessions };
}
