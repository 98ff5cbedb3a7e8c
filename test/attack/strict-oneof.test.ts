/**
 * Attack (issue 26, item 13): under openai-strict, close-objects closed every object, also inside the
 * branches of a `oneOf` whose branches overlap. `oneOf` accepts a value matching exactly one branch, so a
 * value that matched two (refused) could match only one once they were closed (accepted): the conversion
 * widened the schema, and the report said only `closed-object`. Now such branches stay open and the step
 * names the `oneOf` (`oneof-overlap`); branches told apart by a discriminator are closed as before.
 * Oracle: ajv verdicts on natural calls, written by hand; the real tools are Notion's (bench/corpus).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getProfile, presetForProfile, transformTools, type McpTool } from '../../src/index.js';
import { EditContext } from '../../src/core/context.js';
import { locateTools } from '../../src/engine/input.js';
import { SlotEditor } from '../../src/transforms/adapt-to-client/editor.js';
import { closeObjects } from '../../src/transforms/adapt-to-client/steps/close-objects.js';
import { compile } from '../helpers/ajv.js';
import { deepFreeze } from '../helpers/freeze.js';

function close(schema: unknown) {
  const ctx = new EditContext(deepFreeze(structuredClone(schema)), {});
  const ed = new SlotEditor(ctx, '');
  closeObjects.run(ed, { profile: getProfile('openai-strict'), dialect: '2020-12', source: 'assumed', isArguments: true, growthLimit: (b) => 2 * b });
  return { root: ed.root as Record<string, unknown>, codes: ctx.changes.map((c) => `${c.code} ${c.path}`), notes: ed.notes.map((n) => `${n.severity} ${n.code} ${n.path}`) };
}

/** `call` as the model sends it for the converted schema: every property it now requires and the call leaves out, as null. */
function asSent(schema: Record<string, unknown>, call: Record<string, unknown>): Record<string, unknown> {
  const out = { ...call };
  for (const name of (schema.required as string[] | undefined) ?? []) if (!(name in out)) out[name] = null;
  return out;
}

const UUID = '0f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b';

describe('openai-strict close-objects and oneOf', () => {
  it('overlapping branches (a branch that requires only `type`): left open, named, the natural call still refused', () => {
    const schema = {
      type: 'object',
      properties: {
        parent: {
          oneOf: [
            { type: 'object', properties: { type: { type: 'string' }, page_id: { type: 'string' } }, required: ['type', 'page_id'] },
            { type: 'object', properties: { type: { type: 'string' } }, required: ['type'] },
          ],
        },
      },
      required: ['parent'],
    };
    const natural = { parent: { type: 'page_id', page_id: 'p1' } };
    // The original refuses it: both branches match.
    expect(compile(schema)(natural)).toBe(false);
    const r = close(schema);
    expect(compile(r.root)(natural)).toBe(false);
    expect((r.root.properties as any).parent).toEqual(schema.properties.parent);
    expect(r.notes).toContain('error oneof-overlap /properties/parent/oneOf');
    // The root object is still closed (it is not inside the oneOf).
    expect(r.codes).toContain('closed-object /additionalProperties');
  });

  it('a branch given by $ref: its definition is left open too', () => {
    const schema = {
      type: 'object',
      properties: { parent: { oneOf: [{ $ref: '#/$defs/PageParent' }, { type: 'object', properties: { type: { type: 'string' } }, required: ['type'] }] } },
      required: ['parent'],
      $defs: { PageParent: { type: 'object', properties: { type: { type: 'string' }, page_id: { type: 'string' } }, required: ['type', 'page_id'] } },
    };
    const natural = { parent: { type: 'page_id', page_id: 'p1' } };
    expect(compile(schema)(natural)).toBe(false);
    const r = close(schema);
    expect(compile(r.root)(natural)).toBe(false);
    expect((r.root.$defs as any).PageParent).toEqual(schema.$defs.PageParent);
  });

  it('branches told apart by a discriminator (`type` const): closed as before; only the lossy narrowing it reports', () => {
    const schema = {
      type: 'object',
      properties: {
        parent: {
          oneOf: [
            { type: 'object', properties: { type: { const: 'page_id' }, page_id: { type: 'string' } }, required: ['type', 'page_id'] },
            { type: 'object', properties: { type: { const: 'workspace' } }, required: ['type'] },
          ],
        },
      },
      required: ['parent'],
    };
    const r = close(schema);
    expect(r.notes).toEqual([]);
    expect(r.codes).toEqual(expect.arrayContaining(['closed-object /properties/parent/oneOf/0/additionalProperties', 'closed-object /properties/parent/oneOf/1/additionalProperties']));
    const [before, after] = [compile(schema), compile(r.root)];
    const page = { parent: { type: 'page_id', page_id: 'p1' } };
    const extra = { parent: { type: 'workspace', note: 'x' } };
    const both = { parent: { type: 'page_id', page_id: 'p1', extra: 1 } };
    // Never a value refused before and accepted after; the one narrowing is what `closed-object` says (keys not listed are refused).
    expect([before(page), after(page)]).toEqual([true, true]);
    expect([before(extra), after(extra)]).toEqual([true, false]);
    expect([before(both), after(both)]).toEqual([true, false]);
  });

  it('Notion (notionhq 2.1.0): API-move-page and API-post-page no longer accept `parent: {type, page_id}`, which the server refuses', () => {
    const file = join(import.meta.dirname, '..', '..', 'bench', 'corpus', 'notionhq__notion-mcp-server@2.1.0.json');
    const tools = locateTools(JSON.parse(readFileSync(file, 'utf8'))).tools as McpTool[];
    const r = transformTools(tools, { transforms: presetForProfile('safe', 'openai-strict') });
    const calls: Record<string, Record<string, unknown>> = {
      'API-move-page': { page_id: UUID, parent: { type: 'page_id', page_id: UUID } },
      'API-post-page': { parent: { type: 'page_id', page_id: UUID }, properties: {} },
    };
    for (const [name, call] of Object.entries(calls)) {
      const i = tools.findIndex((t) => t.name === name);
      const before = tools[i]!.inputSchema as Record<string, unknown>;
      const after = r.tools[i]!.inputSchema as Record<string, unknown>;
      // The original refuses it: the `parent` value matches the page branch and the catch-all `{type}` branch.
      expect(compile(before)(call), name).toBe(false);
      expect(compile(after)(asSent(after, call)), name).toBe(false);
      expect(r.report.diagnostics.filter((d) => d.tool === name && d.code === 'oneof-overlap').length, name).toBeGreaterThan(0);
    }
  });
});
