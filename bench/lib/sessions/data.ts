/**
 * Reading a session folder (the format of bench/sessions/: `tools.json` + `sessions.jsonl`, see its README).
 * Any folder of that shape works; everything wrong with one is a clear error naming the file, the line and
 * what was expected, never a silent skip.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { McpTool } from '../../../src/index.js';

export interface SessionCall {
  readonly name: string;
  readonly arguments: Readonly<Record<string, unknown>>;
}

export interface SessionTurn {
  readonly text: string;
  readonly calls: readonly SessionCall[];
}

export interface Session {
  readonly id: string;
  /** Tool servers (BFCL "API classes"), in the order their tools are listed. */
  readonly groups: readonly string[];
  readonly turns: readonly SessionTurn[];
  /** Ids of the sessions it was built from (a chained session); a usage file built without it leaves all of them out. */
  readonly sources?: readonly string[];
}

export interface SessionData {
  /** Each group's tools, in file order. */
  readonly groups: ReadonlyMap<string, readonly McpTool[]>;
  readonly sessions: readonly Session[];
}

export class SessionDataError extends Error {
  override name = 'SessionDataError';
}

/** Reads `<folder>/tools.json` and `<folder>/sessions.jsonl`. */
export function readSessionFolder(folder: string): SessionData {
  const toolsFile = join(folder, 'tools.json');
  const sessionsFile = join(folder, 'sessions.jsonl');
  for (const f of [toolsFile, sessionsFile]) {
    if (!existsSync(f)) throw new SessionDataError(`${f}: not found (a session folder holds tools.json and sessions.jsonl; see bench/sessions/README.md)`);
  }
  return parseSessionData(readFileSync(toolsFile, 'utf8'), readFileSync(sessionsFile, 'utf8'), { tools: toolsFile, sessions: sessionsFile });
}

/** The pure part of {@link readSessionFolder}: `labels` name the files in error messages. */
export function parseSessionData(toolsText: string, sessionsText: string, labels = { tools: 'tools.json', sessions: 'sessions.jsonl' }): SessionData {
  let raw: unknown;
  try {
    raw = JSON.parse(toolsText);
  } catch (e) {
    throw new SessionDataError(`${labels.tools}: not JSON (${(e as Error).message})`);
  }
  if (!isRecord(raw)) throw new SessionDataError(`${labels.tools}: expected an object of groups, { "<group>": [tool, …] }`);
  const groups = new Map<string, McpTool[]>();
  for (const [group, tools] of Object.entries(raw)) {
    if (!Array.isArray(tools)) throw new SessionDataError(`${labels.tools}: group \`${group}\` must be an array of tools`);
    const seen = new Set<string>();
    for (const [i, t] of tools.entries()) {
      if (!isRecord(t) || typeof t.name !== 'string') throw new SessionDataError(`${labels.tools}: group \`${group}\`, tool ${i} has no string \`name\``);
      if (seen.has(t.name)) throw new SessionDataError(`${labels.tools}: group \`${group}\` lists tool \`${t.name}\` twice`);
      seen.add(t.name);
    }
    groups.set(group, tools as McpTool[]);
  }

  const sessions: Session[] = [];
  const ids = new Set<string>();
  const lines = sessionsText.split('\n');
  for (const [n, line] of lines.entries()) {
    if (line.trim() === '') continue;
    const where = `${labels.sessions}:${n + 1}`;
    let s: unknown;
    try {
      s = JSON.parse(line);
    } catch (e) {
      throw new SessionDataError(`${where}: not JSON (${(e as Error).message})`);
    }
    if (!isRecord(s)) throw new SessionDataError(`${where}: expected a session object { id, groups, turns }`);
    if (typeof s.id !== 'string') throw new SessionDataError(`${where}: \`id\` must be a string`);
    if (ids.has(s.id)) throw new SessionDataError(`${where}: session id \`${s.id}\` appears twice`);
    ids.add(s.id);
    if (!Array.isArray(s.groups) || s.groups.length === 0 || s.groups.some((g) => typeof g !== 'string')) {
      throw new SessionDataError(`${where}: \`groups\` must be a non-empty array of group names`);
    }
    const names = new Map<string, string>();
    for (const g of s.groups as string[]) {
      const tools = groups.get(g);
      if (tools === undefined) throw new SessionDataError(`${where}: group \`${g}\` is not in ${labels.tools} (it has: ${[...groups.keys()].join(', ')})`);
      for (const t of tools) {
        const other = names.get(t.name);
        if (other !== undefined) throw new SessionDataError(`${where}: tool \`${t.name}\` is in both \`${other}\` and \`${g}\`; a session's list needs distinct names`);
        names.set(t.name, g);
      }
    }
    if (!Array.isArray(s.turns) || s.turns.length === 0) throw new SessionDataError(`${where}: \`turns\` must be a non-empty array`);
    const turns: SessionTurn[] = [];
    for (const [ti, turn] of (s.turns as unknown[]).entries()) {
      if (!isRecord(turn) || typeof turn.text !== 'string' || !Array.isArray(turn.calls)) {
        throw new SessionDataError(`${where}: turn ${ti} must be { text: string, calls: [...] }`);
      }
      const calls: SessionCall[] = [];
      for (const [ci, call] of (turn.calls as unknown[]).entries()) {
        if (!isRecord(call) || typeof call.name !== 'string' || !isRecord(call.arguments)) {
          throw new SessionDataError(`${where}: turn ${ti}, call ${ci} must be { name: string, arguments: object }`);
        }
        if (!names.has(call.name)) throw new SessionDataError(`${where}: turn ${ti}, call ${ci} calls \`${call.name}\`, which none of the session's groups (${(s.groups as string[]).join(', ')}) lists`);
        calls.push({ name: call.name, arguments: call.arguments });
      }
      turns.push({ text: turn.text, calls });
    }
    sessions.push({ id: s.id, groups: s.groups as string[], turns });
  }
  if (sessions.length === 0) throw new SessionDataError(`${labels.sessions}: no sessions`);
  return { groups, sessions };
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}
