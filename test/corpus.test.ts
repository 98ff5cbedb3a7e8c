/**
 * The default preset over every real capture in bench/corpus. Expectations come from outside the code
 * under test: ajv compiles the schemas, a pointer walk written here resolves the `$ref`s, fast-json-patch
 * replays the report, Buffer.byteLength measures the bytes.
 */
import jsonPatch from 'fast-json-patch';
import { describe, expect, it } from 'vitest';
import { transformTools, type TransformResult } from '../src/index.js';
import { compile } from './helpers/ajv.js';
import { loadCorpus, type CorpusFile } from './helpers/corpus.js';
import { deepFreeze, jsonClone } from './helpers/freeze.js';

const SLOTS = ['inputSchema', 'outputSchema'] as const;

/**
 * Corpus tools the preset may legitimately skip, by `file/tool-index`, with the reason it must give.
 * Empty: every real capture is clean enough to transform.
 */
const EXPECTED_SKIPS: Record<string, string> = {};

interface Run {
  readonly file: string;
  readonly input: CorpusFile['data'];
  readonly text: string;
  readonly result: TransformResult;
}

let compiledChecks = 0;

const runs: Run[] = loadCorpus().map(({ file, data }) => {
  const text = JSON.stringify(data);
  const input = deepFreeze(jsonClone(data));
  return { file, input, text, result: transformTools(input) };
});

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Local `$ref`s (`#…`) of a schema that resolve to nothing: a plain scan and pointer walk written here. */
function unresolvedLocalRefs(schema: unknown): string[] {
  const out: string[] = [];
  const stack: unknown[] = [schema];
  while (stack.length > 0) {
    const v = stack.pop();
    if (Array.isArray(v)) stack.push(...v);
    else if (isObj(v)) {
      for (const [k, x] of Object.entries(v)) {
        if (k === '$ref' && typeof x === 'string' && x.startsWith('#') && !resolves(schema, x)) out.push(x);
        stack.push(x);
      }
    }
  }
  return out.sort();
}

function resolves(root: unknown, ref: string): boolean {
  const fragment = decodeURIComponent(ref.slice(1));
  if (fragment === '') return true;
  if (!fragment.startsWith('/')) return true; // anchors: not used in the corpus (asserted below)
  let cur: unknown = root;
  for (const raw of fragment.slice(1).split('/')) {
    const t = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(cur) && /^(0|[1-9]\d*)$/.test(t) && Number(t) < cur.length) cur = cur[Number(t)];
    else if (isObj(cur) && Object.prototype.hasOwnProperty.call(cur, t)) cur = cur[t];
    else return false;
  }
  return true;
}

function compiles(schema: unknown): string | undefined {
  try {
    compile(schema);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

describe.each(runs.map((r) => [r.file, r] as const))('%s', (file, { input, text, result }) => {
  const inTools = input.toolsList.tools;
  const { tools, report, output } = result;

  it('runs without skipping a tool, keeps the envelope, order and every field it does not own', () => {
    const skips = Object.fromEntries(report.skipped.map((s) => [`${file}/${s.toolIndex}`, s.reason]));
    const expected = Object.fromEntries(Object.entries(EXPECTED_SKIPS).filter(([k]) => k.startsWith(file + '/')));
    expect(skips).toEqual(expected);
    expect(tools.length).toBe(inTools.length);
    const out = output as CorpusFile['data'];
    expect(out.toolsList.tools).toBe(tools);
    expect(Object.keys(out)).toEqual(Object.keys(input));
    expect(JSON.stringify({ ...out, toolsList: null })).toBe(JSON.stringify({ ...input, toolsList: null }));
    tools.forEach((t, i) => {
      expect(t.name).toBe(inTools[i]!.name);
      // Every key no transform of the preset owns is the same value in the same place (strip-noise owns
      // the tool description, and never empties one that had text).
      for (const k of Object.keys(inTools[i]!)) if (!(SLOTS as readonly string[]).includes(k) && k !== 'description') expect(t[k]).toBe(inTools[i]![k]);
      const d = inTools[i]!.description;
      if (typeof d === 'string' && d.trim() !== '') expect(String(t.description).trim()).not.toBe('');
      expect(Object.keys(t)).toEqual(Object.keys(inTools[i]!));
    });
  });

  it('never changes the (deep-frozen) input', () => {
    expect(JSON.stringify(input)).toBe(text);
  });

  it('keeps every schema compilable by ajv in its dialect, with no new unresolvable $ref', () => {
    for (const [i, t] of tools.entries()) {
      for (const slot of SLOTS) {
        const before = inTools[i]![slot];
        const after = t[slot];
        if (after === before) continue; // untouched (shared with the input)
        const where = `${String(t.name)} ${slot}`;
        if (compiles(before) === undefined) {
          expect(compiles(after), where).toBeUndefined();
          compiledChecks++;
        }
        const brokenBefore = unresolvedLocalRefs(before);
        for (const r of unresolvedLocalRefs(after)) expect(brokenBefore, `${where}: \`${r}\` no longer resolves`).toContain(r);
      }
    }
  });

  it('is idempotent and deterministic', () => {
    const again = transformTools(tools);
    expect(again.report.changes).toEqual([]);
    expect(JSON.stringify(again.tools)).toBe(JSON.stringify(tools));
    const second = transformTools(deepFreeze(JSON.parse(text)));
    expect(JSON.stringify(second.output)).toBe(JSON.stringify(output));
    expect(JSON.stringify(second.report.changes)).toBe(JSON.stringify(report.changes));
    expect(JSON.stringify(second.report.diagnostics)).toBe(JSON.stringify(report.diagnostics));
  });

  it('replays: fast-json-patch applies the report to the input and gets the output', () => {
    const ops = report.changes.map(({ op, path, from, value }) => (op === 'move' ? { op, path, from } : op === 'remove' ? { op, path } : { op, path, value })) as jsonPatch.Operation[];
    const replayed = jsonPatch.applyPatch(JSON.parse(text).toolsList.tools, jsonClone(ops), true, false).newDocument;
    expect(JSON.stringify(replayed)).toBe(JSON.stringify(tools));
  });

  it('reports sizes that add up and match the real bytes', () => {
    const { stats } = report;
    const frame = (n: number) => (n === 0 ? 2 : n + 1); // brackets and commas
    expect(stats.tools.length).toBe(tools.length);
    expect(stats.before.bytes).toBe(Buffer.byteLength(JSON.stringify(inTools), 'utf8'));
    expect(stats.after.bytes).toBe(Buffer.byteLength(JSON.stringify(tools), 'utf8'));
    expect(stats.tools.reduce((s, t) => s + t.before.bytes, 0) + frame(tools.length)).toBe(stats.before.bytes);
    expect(stats.tools.reduce((s, t) => s + t.after.bytes, 0) + frame(tools.length)).toBe(stats.after.bytes);
    stats.tools.forEach((t, i) => {
      expect(t.index).toBe(i);
      expect(t.before.bytes).toBe(Buffer.byteLength(JSON.stringify(inTools[i]), 'utf8'));
      expect(t.after.bytes).toBe(Buffer.byteLength(JSON.stringify(tools[i]), 'utf8'));
    });
    const saved = stats.transforms.reduce((s, t) => s + t.bytesSaved, 0);
    expect(saved).toBe(stats.before.bytes - stats.after.bytes);
    expect(stats.transforms.reduce((s, t) => s + t.changes, 0)).toBe(report.changes.length);
  });
});

it('the corpus holds no anchors (so the pointer-only ref check above is complete)', () => {
  for (const r of runs) expect(r.text, r.file).not.toMatch(/"\$ref":"#[^/"]/);
});

it('the preset does real work on the corpus', () => {
  const saved = runs.reduce((s, r) => s + r.result.report.stats.before.bytes - r.result.report.stats.after.bytes, 0);
  expect(saved).toBeGreaterThan(50_000);
  // and the ajv check above was not vacuous
  expect(compiledChecks).toBeGreaterThan(40);
});
