/**
 * THE fixture runner: every case under test/fixtures/<transform>/<NN-slug>/ (and, for each part of a large
 * transform, under test/fixtures/<transform>/rules/<part>/<NN-slug>/, run with that part alone) is checked the same way.
 * Expectations are hand-written files; ajv gives the verdicts; fast-json-patch (a third-party RFC 6902
 * implementation) replays the report.
 */
import jsonPatch from 'fast-json-patch';
import { describe, expect, it } from 'vitest';
import { lookup, type AnyTransform } from '../src/index.js';
import { verdicts } from './helpers/ajv.js';
import { readingVerdicts } from './helpers/readings.js';
import { loadFixtures } from './helpers/fixtures.js';
import { deepFreeze, jsonClone } from './helpers/freeze.js';

const cases = loadFixtures();

describe.each(cases.map((c) => [`${c.transform}/${c.name}`, c] as const))('%s', (_label, c) => {
  const transform = lookup(c.transform) as AnyTransform;
  const input = deepFreeze(jsonClone(c.input));
  // A part's case runs with that part alone: its option on, every other part's off (options.json on top).
  const options = c.part === undefined ? c.options : { ...partOptions(transform, c.part), ...c.options };
  const result = transform(input as never, options);

  it('produces the expected output, byte for byte', () => {
    expect(JSON.stringify(result.tools, null, 1)).toBe(JSON.stringify(c.output, null, 1));
  });

  it('reports the expected changes', () => {
    const got = result.report.changes.map((ch) => {
      const o: Record<string, unknown> = { op: ch.op, path: ch.path };
      if (ch.from !== undefined) o.from = ch.from;
      o.code = ch.code;
      return o;
    });
    const want = c.changes.map((ch) => {
      const o: Record<string, unknown> = { op: ch.op, path: ch.path };
      if (ch.from !== undefined) o.from = ch.from;
      o.code = ch.code;
      return o;
    });
    expect(got).toEqual(want);
    for (const [i, ch] of c.changes.entries()) if ('value' in ch) expect(result.report.changes[i]!.value).toEqual(ch.value);
    for (const ch of result.report.changes) {
      expect(ch.transform).toBe(c.transform);
      expect(ch.message.length).toBeGreaterThan(0);
    }
  });

  if (c.instructions !== undefined) {
    it('proposes the expected instructions, byte for byte', () => {
      // An empty instructions.txt: no instructions at all.
      expect(result.instructions).toBe(c.instructions === '' ? undefined : c.instructions);
    });
  }

  it('reports the expected diagnostics and skips', () => {
    if (c.diagnostics) expect(result.report.diagnostics.map((d) => ({ severity: d.severity, code: d.code, path: d.path }))).toEqual(c.diagnostics);
    expect(result.report.skipped.map((s) => ({ toolIndex: s.toolIndex, transform: s.transform }))).toEqual(c.skipped ?? []);
  });

  it('is idempotent: a second run changes nothing', () => {
    const again = transform(result.tools as never, options);
    expect(again.report.changes).toEqual([]);
    expect(JSON.stringify(again.tools)).toBe(JSON.stringify(result.tools));
  });

  it('replays: applying the report to the input yields the output', () => {
    const ops = result.report.changes.map(({ op, path, from, value }) => (op === 'move' ? { op, path, from } : op === 'remove' ? { op, path } : { op, path, value })) as jsonPatch.Operation[];
    const replayed = jsonPatch.applyPatch(jsonClone(c.input), jsonClone(ops), true, false).newDocument;
    expect(replayed).toEqual(jsonClone(result.tools));
  });

  if (c.instances && c.instances.length > 0) {
    it('keeps ajv’s verdict on every instance', () => {
      for (const inst of c.instances!) {
        const tool = inst.tool ?? 0;
        const slot = inst.slot ?? 'inputSchema';
        const source = (c.input as Record<string, unknown>[])[tool]![slot];
        const output = (result.tools[tool] as Record<string, unknown>)[slot];
        const after = inst.readOutputAs ? readingVerdicts(inst.readOutputAs, output, [inst.data]) : verdicts(output, [inst.data]);
        if (inst.readAs === 'none') {
          expect(inst.valid, 'an instance read as `none` needs a hand-written `valid`').toBeTypeOf('boolean');
          expect(after, `instance ${JSON.stringify(inst.data)}`).toEqual([inst.valid]);
          continue;
        }
        const before = inst.readAs ? readingVerdicts(inst.readAs, source, [inst.data]) : verdicts(source, [inst.data]);
        expect(after, `instance ${JSON.stringify(inst.data)}`).toEqual(before);
        if (inst.valid !== undefined) expect(before, `hand-written verdict for ${JSON.stringify(inst.data)}`).toEqual([inst.valid]);
      }
    });
  }
});

/** Options that turn on part `id` of `transform` and turn off every other part that has an option. */
function partOptions(transform: AnyTransform, id: string): Record<string, boolean> {
  const parts = transform.parts ?? [];
  const part = parts.find((p) => p.id === id);
  if (part === undefined) throw new Error(`${transform.name} has no part \`${id}\` (it has: ${parts.map((p) => p.id).join(', ')})`);
  const out: Record<string, boolean> = {};
  for (const p of parts) if (p.option !== undefined) out[p.option] = p.id === id;
  return out;
}

it('has fixtures', () => {
  expect(cases.length).toBeGreaterThan(0);
});
