/**
 * adapt-to-client over every bench/corpus capture, per profile: never throws or skips, never leaves a
 * tool worse for its client, never grows a schema past the cap (a capped tool is left as it was and
 * reported), is idempotent, and keeps ajv's verdicts on sampled arguments wherever references were rewritten.
 */
import { describe, expect, it } from 'vitest';
import { adaptToClient, builtinProfiles, checkToolsForProfile, utf8Length } from '../src/index.js';
import { loadCorpus } from './helpers/corpus.js';
import { verdicts } from './helpers/ajv.js';
import { deepFreeze } from './helpers/freeze.js';

const corpus = loadCorpus().map((c) => ({ file: c.file, tools: deepFreeze(c.data.toolsList.tools) }));
const REF_REWRITES = new Set(['inlined-ref', 'hoisted-def', 'copied-def', 'repointed-ref', 'wrapped-ref']);
const CAP = 2;

describe.each(builtinProfiles.map((p) => [p.name, p] as const))('%s', (name, p) => {
  const runs = corpus.map(({ file, tools }) => ({ file, tools, result: adaptToClient(tools, { profile: name }) }));

  it('never throws, never skips a tool, and never leaves a tool with more findings than before', () => {
    for (const { file, tools, result } of runs) {
      expect(result.report.skipped, file).toEqual([]);
      const before = countErrors(checkToolsForProfile(tools, p));
      const after = countErrors(checkToolsForProfile(result.tools, p));
      for (const [i, n] of after) expect(n, `${file} #${i}`).toBeLessThanOrEqual(before.get(i) ?? 0);
    }
  });

  it('grows no schema past the cap; every tool it could not fix is reported', () => {
    for (const { file, tools, result } of runs) {
      const reported = new Set(result.report.diagnostics.filter((d) => d.severity === 'error').map((d) => d.toolIndex));
      const after = countErrors(checkToolsForProfile(result.tools, p));
      for (let i = 0; i < tools.length; i++) {
        for (const slot of p.slots) {
          const b = JSON.stringify((tools[i] as Record<string, unknown>)[slot]);
          const a = JSON.stringify((result.tools[i] as Record<string, unknown>)[slot]);
          if (b === undefined) continue;
          expect(utf8Length(a), `${file} #${i} ${slot}`).toBeLessThanOrEqual(CAP * utf8Length(b));
        }
        if ((after.get(i) ?? 0) > 0) expect(reported.has(i), `${file} #${i} is still rejected but not reported`).toBe(true);
      }
    }
  });

  it('is idempotent', () => {
    for (const { file, result } of runs) {
      if (result.report.changes.length === 0) continue;
      expect(adaptToClient(result.tools, { profile: name }).report.changes, file).toEqual([]);
    }
  });

  it('keeps ajv verdicts on sampled arguments wherever references were rewritten', () => {
    let checked = 0;
    for (const { file, tools, result } of runs) {
      const touched = new Set(result.report.changes.filter((c) => REF_REWRITES.has(c.code)).map((c) => c.toolIndex));
      for (const i of touched) {
        const before = (tools[i] as Record<string, unknown>).inputSchema;
        const after = (result.tools[i] as Record<string, unknown>).inputSchema;
        const samples = sampleArguments(before);
        const v = verdicts(before, samples);
        expect(verdicts(after, samples), `${file} #${i}`).toEqual(v);
        checked++;
      }
    }
    if (p.refs !== 'any') expect(checked).toBeGreaterThan(0);
  });
});

function countErrors(findings: ReturnType<typeof checkToolsForProfile>): Map<number, number> {
  const m = new Map<number, number>();
  for (const f of findings) if (f.severity === 'error' && f.toolIndex >= 0) m.set(f.toolIndex, (m.get(f.toolIndex) ?? 0) + 1);
  return m;
}

/**
 * A few arguments per schema, built from its top-level properties without looking at the rewritten
 * schema: empty, every property with a value of its declared type, the same with each value of the
 * wrong type, and every property set to `{}` (which exercises nested required/additional rules).
 */
function sampleArguments(schema: unknown): unknown[] {
  const props = isRecord(schema) && isRecord(schema.properties) ? schema.properties : {};
  const good: Record<string, unknown> = {};
  const wrong: Record<string, unknown> = {};
  const empty: Record<string, unknown> = {};
  for (const [k, s] of Object.entries(props)) {
    good[k] = sample(s);
    wrong[k] = typeof good[k] === 'string' ? 12345 : 'not-the-type';
    empty[k] = {};
  }
  // Only objects: MCP sends a tool's arguments as a JSON object, always.
  return [{}, good, wrong, empty];
}

function sample(s: unknown): unknown {
  if (!isRecord(s)) return 'x';
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  if ('const' in s) return s.const;
  const t = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (t) {
    case 'string': return 'x';
    case 'integer': return 1;
    case 'number': return 1.5;
    case 'boolean': return true;
    case 'array': return [isRecord(s.items) ? sample(s.items) : 'x'];
    case 'object': return {};
    case 'null': return null;
  }
  for (const k of ['anyOf', 'oneOf', 'allOf']) if (Array.isArray(s[k]) && s[k].length > 0) return sample(s[k][0]);
  return 'x';
}

function isRecord(v: unknown): v is Record<string, any> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
