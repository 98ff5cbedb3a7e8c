/**
 * The typescript reader against an independent oracle: bench/harmony-ref/render.py, a Python implementation
 * of harmony's rules written from openai/harmony's source without reading src/render/typescript.ts (bench
 * `npm run bench:harmony` runs it on the corpora). Here: the oracle reproduces harmony's public fixture byte
 * for byte, then both render the hand-written edge cases (every rule branch) and seeded fuzz lists alike,
 * tool by tool. Skipped, with the reason, where python3 cannot be run.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { getRenderer, type ForwardedTool } from '../../src/index.js';
import { fuzzToolsArb } from '../helpers/fuzz-arbitraries.js';

const REF = join(import.meta.dirname, '..', '..', 'bench', 'harmony-ref');
const python = (args: string[], input: string) => spawnSync('python3', [join(REF, 'render.py'), ...args], { input, encoding: 'utf8', maxBuffer: 1 << 28 });
const hasPython = !python(['--fixture'], '').error;
const ts = getRenderer('typescript');

/** What a client sends: the JSON text of name, description and input schema. */
const forward = (t: Record<string, unknown>): ForwardedTool =>
  JSON.parse(JSON.stringify({ name: t.name, ...(typeof t.description === 'string' ? { description: t.description } : {}), ...(t.inputSchema !== undefined ? { inputSchema: t.inputSchema } : {}) })) as ForwardedTool;

function reference(tools: readonly ForwardedTool[]): string[] {
  const r = python([], JSON.stringify(tools));
  if (r.status !== 0) throw new Error(`render.py failed: ${r.stderr}`);
  return (JSON.parse(r.stdout) as { tools: string[] }).tools;
}

describe.skipIf(!hasPython)('typescript reader vs the independent harmony reference (python3)', () => {
  it('the reference reproduces harmony\'s fixture (developer message) byte for byte', () => {
    const fixture = readFileSync(join(REF, 'test_render_functions_with_parameters.txt'), 'utf8');
    const body = fixture.split('<|start|>developer<|message|>')[1]!.split('<|end|>')[0]!;
    expect(python(['--fixture'], '').stdout).toBe(body);
  });

  it('every hand-written edge case renders as the reference renders it', () => {
    const edge = (JSON.parse(readFileSync(join(REF, 'edge-cases.json'), 'utf8')) as { tools: Record<string, unknown>[] }).tools.map(forward);
    const ref = reference(edge);
    expect(edge.length).toBeGreaterThan(15);
    edge.forEach((t, i) => expect(ts.renderTool(t), t.name).toBe(ref[i]));
    // And the whole section, as harmony joins the tools.
    expect(ts.renderTools(edge)).toBe((JSON.parse(python([], JSON.stringify(edge)).stdout) as { section: string }).section);
  });

  it('seeded fuzz lists (every dialect) render as the reference renders them', () => {
    const tools = fc.sample(fuzzToolsArb(), { numRuns: 60, seed: 2027 }).flat().map(forward);
    const ref = reference(tools);
    tools.forEach((t, i) => expect(ts.renderTool(t)).toBe(ref[i]));
  });
});
