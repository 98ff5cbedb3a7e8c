/**
 * The gate over the JSON Schema Test Suite (../shared/jsts): 782 small schemas that exercise every corner
 * of draft-07 and 2020-12 (recursive refs, anchors, embedded `$id`s, unevaluated*, dynamic refs, formats,
 * boolean schemas). A rewrite that changes nothing (a deep copy) must pass at the `verdicts` level for
 * every one of them: no false alarm, no crash, no hang, on schemas far stranger than MCP tools.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AjvPool, generateInstances, verifyTool, type McpTool } from '../../src/index.js';
import { errorsWithMessages } from '../../src/verify/gate.js';
import { deepFreeze, jsonClone } from '../helpers/freeze.js';

interface Group {
  readonly dialect: 'draft7' | 'draft2020-12';
  readonly file: string;
  readonly description: string;
  readonly schema: unknown;
  readonly tests: readonly { readonly description: string; readonly data: unknown; readonly valid: boolean }[];
  readonly needsRemotes: boolean;
}

// The suite as bundled with the tests (test/data/jsts), else the shared copy beside the repository.
const JSTS = [join(import.meta.dirname, '..', 'data', 'jsts', 'cases.jsonl'), join(import.meta.dirname, '..', '..', '..', 'shared', 'jsts', 'cases.jsonl')].find((p) => existsSync(p)) ?? 'test/data/jsts/cases.jsonl';
const groups: Group[] = readFileSync(JSTS, 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as Group);

/** The group's schema, stamped with its dialect when it does not say (the gate reads `$schema`). */
function stamped(g: Group): unknown {
  const s = g.schema;
  if (typeof s !== 'object' || s === null || Object.prototype.hasOwnProperty.call(s, '$schema')) return s;
  return { $schema: g.dialect === 'draft7' ? 'http://json-schema.org/draft-07/schema#' : 'https://json-schema.org/draft/2020-12/schema', ...s };
}

describe('JSON Schema Test Suite', () => {
  it('has the cases', () => {
    expect(groups.length).toBe(782);
  });

  it('an unchanged copy passes the verdicts check for every schema', () => {
    const pool = new AjvPool();
    const alarms: string[] = [];
    for (const g of groups) {
      const schema = deepFreeze(stamped(g));
      const before = { name: g.description, inputSchema: schema } as McpTool;
      const after = { name: g.description, inputSchema: jsonClone(schema) } as McpTool;
      const failure = verifyTool(before, after, { level: 'verdicts', pool });
      if (failure) alarms.push(`${g.dialect}/${g.file} — ${g.description}: ${failure.message}`);
    }
    expect(alarms).toEqual([]);
    // Only instances that are objects at the root are compared (MCP validates nothing else).
    expect(pool.validated).toBeGreaterThan(782 * 20);
  });

  it('the gate compiles without error messages (ajv `messages: false`) and judges every test as ajv with messages does', () => {
    const pool = new AjvPool();
    let judged = 0;
    const differ: string[] = [];
    for (const g of groups) {
      if (g.needsRemotes) continue;
      const schema = stamped(g);
      const dialect = g.dialect === 'draft7' ? 'draft-07' : '2020-12';
      const compiled = pool.compile(schema, dialect);
      if (!compiled.ok) continue;
      for (const t of g.tests) {
        judged++;
        const verdict = pool.judge(compiled.validate, t.data);
        // errorsWithMessages compiles the schema again with messages on: null errors when valid, undefined when ajv threw
        // (a few `$dynamicRef` cases make ajv's validator itself throw, with or without messages).
        const errors = errorsWithMessages(schema, dialect, t.data);
        const withMessages = errors === undefined ? 'throws' : errors === null;
        if (verdict !== withMessages) differ.push(`${g.file} — ${g.description} — ${t.description}`);
        if (errors) expect(errors.every((e) => typeof e.message === 'string'), `${g.file}: messages are there when asked for`).toBe(true);
        // The fast validator carries no messages.
        if (verdict === false) expect(compiled.validate.errors?.[0]?.message).toBeUndefined();
      }
    }
    expect(differ).toEqual([]);
    expect(judged).toBeGreaterThan(2000);
  });

  it('the generator gives at least 50 instances for every schema', () => {
    for (const g of groups) expect(generateInstances(stamped(g)).length, `${g.file} — ${g.description}`).toBeGreaterThanOrEqual(50);
  });
});
