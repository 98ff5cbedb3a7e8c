/**
 * The gate inside the engine: deliberately broken test-only transforms must be caught, their tools
 * returned unchanged and the report kept consistent (fast-json-patch, a third-party RFC 6902
 * implementation, replays report.changes on the input to exactly the output); legit transforms pass.
 */
import { Ajv } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import AjvDraft04Module from 'ajv-draft-04';
import jsonPatch from 'fast-json-patch';
import { describe, expect, it, vi } from 'vitest';
import { AjvPool, defineTransform, presetSafe, pruneUnreachableDefs, registerAjv, ToolslimError, transformTools, type AnyTransform, type EditContext, type McpTool, type Safety, type TransformResult } from '../../src/index.js';
import { deepFreeze, jsonClone } from '../helpers/freeze.js';

type Schema = Record<string, any>;

const AjvDraft04 = ((AjvDraft04Module as unknown as { default?: unknown }).default ?? AjvDraft04Module) as typeof Ajv;

/** A test-only transform that rewrites every tool's inputSchema through `edit` (which returns true if it changed something). */
function brokenTransform(name: string, safety: Safety, edit: (schema: Schema, ctx: EditContext) => void): AnyTransform {
  return defineTransform({
    name,
    description: `test-only: ${name}`,
    safety,
    defaultOptions: {},
    messages: { edited: `Edited by ${name}` },
    apply(doc, ctx) {
      const s = doc.tool.inputSchema;
      if (typeof s === 'object' && s !== null) edit(s as Schema, ctx);
    },
  });
}

const dropRequired = brokenTransform('drop-required', 'lossless', (s, ctx) => {
  if (Array.isArray(s.required)) ctx.remove('/inputSchema/required', 'edited');
});
const dropClosed = brokenTransform('drop-closed', 'lossless', (s, ctx) => {
  if (s.additionalProperties === false) ctx.remove('/inputSchema/additionalProperties', 'edited');
});
const renameProperty = brokenTransform('rename-property', 'lossless', (s, ctx) => {
  if (s.properties?.path) ctx.rename('/inputSchema/properties/path', 'filePath', 'edited');
});
const redirectRef = brokenTransform('redirect-ref', 'lossless', (s, ctx) => {
  if (s.properties?.limit?.$ref === '#/$defs/Small') ctx.replace('/inputSchema/properties/limit/$ref', '#/$defs/Big', 'edited');
});
const stripMinimum = brokenTransform('strip-minimum', 'lossless', (s, ctx) => {
  if (s.properties?.count?.minimum !== undefined) ctx.remove('/inputSchema/properties/count/minimum', 'edited');
});
const rewordDescription = brokenTransform('reword-description', 'lossless', (s, ctx) => {
  if (typeof s.properties?.path?.description === 'string') ctx.replace('/inputSchema/properties/path/description', 'Something else entirely', 'edited');
});
const breakType = brokenTransform('break-type', 'annotation', (s, ctx) => {
  if (s.properties?.count?.type === 'integer') ctx.replace('/inputSchema/properties/count/type', 'int', 'edited');
});
const annotationTouchesEnum = brokenTransform('annotation-touches-enum', 'annotation', (s, ctx) => {
  if (Array.isArray(s.properties?.mode?.enum)) ctx.replace('/inputSchema/properties/mode/enum', ['fast', 'slow', 'turbo'], 'edited');
});

/** Legit: a lossless transform that removes `$comment`, and an annotation transform that trims descriptions. */
const removeComments = brokenTransform('remove-comments', 'lossless', (s, ctx) => {
  if (Object.prototype.hasOwnProperty.call(s, '$comment')) ctx.remove('/inputSchema/$comment', 'edited');
});
const trimDescriptions = brokenTransform('trim-descriptions', 'annotation', (s, ctx) => {
  for (const [k, p] of Object.entries((s.properties ?? {}) as Record<string, Schema>)) {
    if (typeof p?.description === 'string' && p.description.length > 8) ctx.replace(`/inputSchema/properties/${k}/description`, p.description.slice(0, 8), 'edited');
  }
});

/** Tool 0 is what the broken transforms break; tool 1 has none of it, only a `$comment` and a long description. */
const INPUT: McpTool[] = [
  {
    name: 'read_file',
    description: 'Reads a file',
    inputSchema: {
      $comment: 'generated',
      type: 'object',
      properties: {
        path: { type: 'string', description: 'Path of the file to read' },
        count: { type: 'integer', minimum: 1, description: 'Lines to read from the start' },
        mode: { enum: ['fast', 'slow'] },
        limit: { $ref: '#/$defs/Small' },
      },
      required: ['path'],
      additionalProperties: false,
      $defs: { Small: { type: 'integer', maximum: 10 }, Big: { type: 'integer', maximum: 1000 } },
    },
  },
  {
    name: 'list_dir',
    inputSchema: { $comment: 'generated', type: 'object', properties: { dir: { type: 'string', description: 'Directory to list, absolute' } } },
  },
];

function run(transforms: readonly AnyTransform[], extra: Record<string, unknown> = {}): { input: McpTool[]; result: TransformResult } {
  const input = deepFreeze(jsonClone(INPUT));
  return { input, result: transformTools(input, { transforms, verify: 'verdicts', ...extra }) };
}

function replay(input: unknown, result: TransformResult): unknown {
  const ops = result.report.changes.map(({ op, path, from, value }) => (op === 'move' ? { op, path, from } : op === 'remove' ? { op, path } : { op, path, value })) as jsonPatch.Operation[];
  return jsonPatch.applyPatch(jsonClone(input), jsonClone(ops), true, false).newDocument;
}

describe('broken transforms are caught and reverted', () => {
  const broken: [AnyTransform, string][] = [
    [dropRequired, 'verdict'],
    [dropClosed, 'verdict'],
    [renameProperty, 'verdict'],
    [redirectRef, 'verdict'],
    [stripMinimum, 'verdict'],
    [rewordDescription, 'annotations'],
    [breakType, 'compile'],
    [annotationTouchesEnum, 'verdict'],
  ];
  for (const [transform, check] of broken) {
    for (const order of ['broken first', 'broken last'] as const) {
      it(`${transform.name} (${order})`, () => {
        const steps = order === 'broken first' ? [transform, removeComments, trimDescriptions] : [removeComments, trimDescriptions, transform];
        const { input, result } = run(steps);
        const { tools, report } = result;
        // Tool 0 is returned exactly as it came in (the very same object).
        expect(tools[0]).toBe(input[0]);
        // Tool 1 keeps its legit changes.
        expect(tools[1]).not.toBe(input[1]);
        expect((tools[1]!.inputSchema as Schema).$comment).toBeUndefined();
        expect((tools[1]!.inputSchema as Schema).properties.dir.description).toBe('Director');
        // No change of tool 0 is left in the report, and the patch replays to the output.
        expect(report.changes.filter((c) => c.toolIndex === 0)).toEqual([]);
        expect(report.changes.length).toBeGreaterThan(0);
        expect(replay(input, result)).toEqual(jsonClone(tools));
        // One error diagnostic naming tool, culprit and all transforms that changed it; a defect of toolslim.
        const errors = report.diagnostics.filter((d) => d.severity === 'error');
        expect(errors).toHaveLength(1);
        const e = errors[0]!;
        expect(e).toMatchObject({ tool: 'read_file', toolIndex: 0, transform: 'verify', code: check });
        expect(e.path.startsWith('/0/inputSchema')).toBe(true);
        expect(e.message).toContain(`\`${transform.name}\``);
        expect(e.message).toContain('`read_file`');
        expect(e.message).toContain('`remove-comments`');
        expect(e.message).toMatch(/defect/);
        expect(e.message).toMatch(/bug in toolslim/);
        // The culprit is named as the one that broke it, not the legit ones.
        expect(e.message.indexOf(`\`${transform.name}\``)).toBeLessThan(e.message.indexOf('Transforms that changed'));
        expect(e.message.slice(0, e.message.indexOf('Transforms that changed'))).not.toContain('`remove-comments`');
        if (check === 'verdict') expect(e.message).toMatch(/was (in)?valid before and is (in)?valid after/);
        expect(report.skipped).toEqual([{ tool: 'read_file', toolIndex: 0, transform: 'verify', reason: e.message }]);
        // Stats: tool 0 unchanged; no transform is credited with changing it.
        const s0 = report.stats.tools[0]!;
        expect(s0.after).toEqual(s0.before);
        for (const t of report.stats.transforms) {
          expect(t.changes).toBe(report.changes.filter((c) => c.transform === t.name).length);
          expect(t.toolsChanged).toBe(new Set(report.changes.filter((c) => c.transform === t.name).map((c) => c.toolIndex)).size);
        }
        expect(report.stats.transforms.find((t) => t.name === transform.name)).toMatchObject({ changes: 0, toolsChanged: 0, bytesSaved: 0 });
        const bytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v));
        expect(report.stats.after.bytes).toBe(bytes(tools));
        expect(report.stats.transforms.reduce((n, t) => n + t.bytesSaved, 0)).toBe(report.stats.before.bytes - report.stats.after.bytes);
        expect(report.stats.verify).toMatchObject({ level: 'verdicts', tools: 2, failed: 1 });
      });
    }
  }

  it('a broken $ref is caught (the engine post-condition or the gate: either way the tool is unchanged)', () => {
    const dangle = brokenTransform('dangle-ref', 'lossless', (s, ctx) => {
      if (s.properties?.limit?.$ref) ctx.replace('/inputSchema/properties/limit/$ref', '#/$defs/Nowhere', 'edited');
    });
    const { input, result } = run([dangle]);
    expect(result.tools[0]).toBe(input[0]);
    expect(result.report.changes).toEqual([]);
    expect(result.report.skipped.map((s) => s.toolIndex)).toEqual([0]);
  });

  it('onError throw: a ToolslimError with code verification-failed, naming tool, path and transform', () => {
    const input = deepFreeze(jsonClone(INPUT));
    let error: unknown;
    try {
      transformTools(input, { transforms: [removeComments, dropRequired], verify: 'verdicts', onError: 'throw' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ToolslimError);
    expect(error).toMatchObject({ code: 'verification-failed', tool: 'read_file', transform: 'drop-required' });
    expect((error as ToolslimError).path).toMatch(/^\/0\/inputSchema/);
  });

  it('structural (the default) catches a rewrite that stops compiling, and a verdict change where a keyword was rewritten, not one a moved $ref makes', () => {
    const input = deepFreeze(jsonClone(INPUT));
    const notCompiling = brokenTransform('not-compiling', 'lossless', (s, ctx) => {
      if (s.properties?.count) ctx.replace('/inputSchema/properties/count/type', 'int', 'edited');
    });
    const r1 = transformTools(input, { transforms: [notCompiling] });
    expect(r1.tools[0]).toBe(input[0]);
    expect(r1.report.diagnostics).toMatchObject([{ severity: 'error', transform: 'verify', code: 'compile' }]);
    expect(r1.report.stats.verify?.level).toBe('structural');
    // The targeted probe: `required` was removed, so instances without it are tried.
    const r2 = transformTools(input, { transforms: [dropRequired] });
    expect(r2.tools[0]).toBe(input[0]);
    expect(r2.report.diagnostics).toMatchObject([{ severity: 'error', transform: 'verify', code: 'verdict' }]);
    expect(r2.report.diagnostics[0]!.message).toContain('targeted probe');
    // A `$ref` whose text changed is not probed (references are rewritten to follow moves): `verdicts` catches it.
    const r3 = transformTools(input, { transforms: [redirectRef] });
    expect(r3.tools[0]).not.toBe(input[0]);
    expect(r3.report.diagnostics).toEqual([]);
  });

  it('the single-transform callables use the same default and accept verify', () => {
    const input = deepFreeze(jsonClone(INPUT));
    expect(dropRequired(input, {}, { verify: 'verdicts' }).tools[0]).toBe(input[0]);
    expect(dropRequired(input).report.stats.verify?.level).toBe('structural');
  });

  it('a lossy transform may change verdicts', () => {
    const lossy = brokenTransform('drop-minimum-lossy', 'lossy', (s, ctx) => {
      if (s.properties?.count?.minimum !== undefined) ctx.remove('/inputSchema/properties/count/minimum', 'edited');
    });
    const { input, result } = run([lossy]);
    expect(result.tools[0]).not.toBe(input[0]);
    expect(result.report.diagnostics).toEqual([]);
  });
});

describe('legit transforms pass', () => {
  it('remove-comments and trim-descriptions over both tools', () => {
    const { input, result } = run([removeComments, trimDescriptions]);
    expect(result.report.diagnostics).toEqual([]);
    expect(result.report.skipped).toEqual([]);
    expect(result.report.stats.verify).toMatchObject({ level: 'verdicts', tools: 2, failed: 0 });
    expect(result.report.stats.verify!.instances).toBeGreaterThan(100);
    expect(replay(input, result)).toEqual(jsonClone(result.tools));
  });

  it('prune-unreachable-defs and the safe preset', () => {
    const input = deepFreeze([{ name: 'x', inputSchema: { type: 'object', properties: { a: { $ref: '#/$defs/A' } }, $defs: { A: { type: 'string' }, Unused: { type: 'number' } } } }]);
    for (const transforms of [[pruneUnreachableDefs], [presetSafe]]) {
      const r = transformTools(input, { transforms, verify: 'verdicts' });
      expect(r.report.stats.verify?.failed).toBe(0);
      expect(r.report.changes.length).toBeGreaterThan(0);
    }
  });
});

describe('cost', () => {
  it('verify: false does no ajv work and reports no verify stats', () => {
    const spy = vi.spyOn(AjvPool.prototype, 'compile');
    try {
      const { result } = run([removeComments, dropRequired], { verify: false });
      expect(spy).not.toHaveBeenCalled();
      expect(result.report.stats.verify).toBeUndefined();
      // Without the gate, the broken rewrite goes through: the gate is what catches it.
      expect(result.report.changes.some((c) => c.transform === 'drop-required')).toBe(true);
    } finally {
      spy.mockRestore();
    }
  });

  it('only changed tools are compiled', () => {
    const spy = vi.spyOn(AjvPool.prototype, 'compile');
    try {
      const input = deepFreeze(jsonClone(INPUT));
      const r = transformTools(input, { transforms: [redirectRef], verify: 'structural' });
      // Tool 0 changed (one schema compiled after, and it compiles; nothing the probe looks at changed, so
      // the original is not needed); tool 1 did not.
      expect(r.report.stats.verify).toMatchObject({ tools: 1, compiled: 1 });
      expect(spy).toHaveBeenCalledTimes(1);
      // A rewritten keyword costs the original's compile too, for the probe.
      spy.mockClear();
      const probed = transformTools(input, { transforms: [dropClosed], verify: 'structural' });
      expect(probed.report.stats.verify).toMatchObject({ tools: 1, compiled: 2, failed: 1 });
    } finally {
      spy.mockRestore();
    }
  });

  it('if the gate itself fails on a tool, that tool is reverted and the batch goes on', () => {
    const spy = vi.spyOn(AjvPool.prototype, 'compile').mockImplementation(() => {
      throw new Error('boom');
    });
    try {
      // `verdicts`: at `structural` removing a `$comment` is proven without compiling (see implied.ts).
      const { input, result } = run([removeComments], { verify: 'verdicts' });
      expect(result.tools).toEqual(input);
      expect(result.report.changes).toEqual([]);
      expect(result.report.diagnostics.map((d) => [d.toolIndex, d.transform, d.code])).toEqual([
        [0, 'verify', 'error'],
        [1, 'verify', 'error'],
      ]);
      expect(result.report.diagnostics[0]!.message).toContain('boom');
    } finally {
      spy.mockRestore();
    }
  });

  it('uses the ajv classes handed over with registerAjv', () => {
    let made = 0;
    class Counting2020 extends Ajv2020 {
      constructor(o?: ConstructorParameters<typeof Ajv2020>[0]) {
        super(o);
        made++;
      }
    }
    registerAjv({ Ajv, Ajv2019, Ajv2020: Counting2020 });
    try {
      const { result } = run([dropRequired]);
      expect(result.report.stats.verify?.failed).toBe(1);
      expect(made).toBeGreaterThan(0);
    } finally {
      registerAjv({ Ajv, Ajv2019, Ajv2020 });
    }
  });

  it('reads draft-04 with the draft-04 class handed over with registerAjv (or ajv-draft-04 loaded on demand)', () => {
    let made = 0;
    class Counting04 extends AjvDraft04 {
      constructor(o?: ConstructorParameters<typeof AjvDraft04>[0]) {
        super(o);
        made++;
      }
    }
    const d4 = deepFreeze([{ name: 'd4', inputSchema: { $schema: 'http://json-schema.org/draft-04/schema#', id: 'http://example.com/a.json', type: 'object', properties: { a: { $ref: '#A' } }, definitions: { A: { id: '#A', type: 'string' } } } }]) as McpTool[];
    // Breaks the draft-04 anchor: the stamp goes and `id` stays, which 2020-12 does not read.
    const unstamp = brokenTransform('unstamp', 'lossless', (s, ctx) => {
      if (s.$schema) ctx.remove('/inputSchema/$schema', 'edited');
    });
    registerAjv({ Ajv, Ajv2019, Ajv2020, AjvDraft04: Counting04 as never });
    try {
      const r = transformTools(d4, { transforms: [unstamp] });
      // The original compiles as draft-04 (ajv's draft-07 class refuses `id`), so the rewrite is held to compiling.
      expect(r.tools[0]).toBe(d4[0]);
      expect(r.report.diagnostics).toMatchObject([{ transform: 'verify', code: 'compile' }]);
      expect(made).toBeGreaterThan(0);
    } finally {
      registerAjv({ Ajv, Ajv2019, Ajv2020 });
    }
    made = 0;
    expect(transformTools(d4, { transforms: [unstamp] }).report.diagnostics).toMatchObject([{ transform: 'verify', code: 'compile' }]);
    expect(made).toBe(0);
  });

  it('rejects an unknown verify level', () => {
    expect(() => transformTools([], { verify: 'yes' as never })).toThrow(ToolslimError);
  });
});
