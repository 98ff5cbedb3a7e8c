/** The BFCL test copy (test/session/data): tool groups and sessions. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { McpTool } from '../../src/index.js';

export interface BfclCall {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
}
export interface BfclSession {
  readonly id: string;
  readonly groups: readonly string[];
  readonly turns: readonly { readonly text: string; readonly calls: readonly BfclCall[] }[];
}

const dir = join(import.meta.dirname, 'data');

export const BFCL_GROUPS: Readonly<Record<string, readonly McpTool[]>> = JSON.parse(readFileSync(join(dir, 'bfcl-tools.json'), 'utf8'));

export const BFCL_SESSIONS: readonly BfclSession[] = readFileSync(join(dir, 'bfcl-sessions.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as BfclSession);

/** A session's tool list: its groups' tools in the order given (a fresh copy). */
export function sessionTools(session: BfclSession): McpTool[] {
  return JSON.parse(JSON.stringify(session.groups.flatMap((g) => BFCL_GROUPS[g] ?? []))) as McpTool[];
}
