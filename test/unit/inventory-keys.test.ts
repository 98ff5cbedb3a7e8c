/**
 * The engine tells the run's analysis which schemas hold no key a `$ref` inventory records (the reference,
 * identifier and anchor keywords), so no step and not the gate walk them for one (RunState.inventoryKeys).
 * What can go wrong is a schema noted that holds such a key: its references and anchors would be invisible
 * to every step and to the gate. The oracle here never asks the engine: a regular expression over each
 * schema's JSON text finds the keys, and the hand-written edits say what each inventory must list.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defineTransform, presetMax, transformTools, type EditContext } from '../../src/index.js';
import { checkInputs } from '../../src/engine/input.js';
import { collectRefInventory, SchemaAnalysis } from '../../src/schema/refs.js';
import { loadCorpus, VALIDATION_DIR } from '../helpers/corpus.js';
import { deepFreeze } from '../helpers/freeze.js';

/**
 * A key of the inventory with a string value (the only value an inventory records) anywhere in the JSON
 * text: a quote not escaped, the key, a quote, a colon and the value's opening quote.
 */
const INVENTORY_KEY_TEXT = /(?<!\\)"(?:\$ref|\$dynamicRef|\$recursiveRef|\$id|id|\$anchor|\$dynamicAnchor)":"/;
const holdsInventoryKey = (value: unknown): boolean => INVENTORY_KEY_TEXT.test(JSON.stringify(value));

type Inventory = { refs: string[]; anchors: string[]; resources: string[] };

/**
 * Runs `edit` as a lossless step between two steps that read the first tool's inputSchema inventory, with the
 * gate off; returns what each read (the references, anchor names and resource ids) and the run's skips.
 */
function inventoriesAround(input: readonly unknown[], edit: (ctx: EditContext) => void): { seen: Inventory[]; skipped: readonly unknown[] } {
  const seen: Inventory[] = [];
  const look = defineTransform({
    name: 'look',
    description: 'Records the inventory of each inputSchema',
    safety: 'lossless',
    defaultOptions: {},
    messages: {},
    apply: (doc) => {
      const inv = doc.documents[0]!.refs.inventory;
      seen.push({ refs: inv.refs.map((r) => r.ref), anchors: inv.anchors.map((a) => a.name), resources: inv.resources.map((r) => r.id) });
    },
  });
  const editor = defineTransform({ name: 'edit', description: 'Makes the case’s edit', safety: 'lossless', defaultOptions: {}, messages: { edit: 'Edited' }, apply: (_doc, ctx) => edit(ctx) });
  const r = transformTools(input, { transforms: [look, editor, look], verify: false });
  return { seen, skipped: r.report.skipped };
}

const LISTS = [...loadCorpus(), ...loadCorpus(VALIDATION_DIR)].map((c) => c.data.toolsList.tools);

afterEach(() => void vi.restoreAllMocks());

describe('inventory keys', () => {
  it('the input check says "none" exactly for tools without a reference, identifier or anchor key with a string value anywhere', () => {
    let none = 0;
    let some = 0;
    for (const tools of LISTS) {
      const check = checkInputs(tools, tools.map(() => ''), 10_000, 'report');
      tools.forEach((tool, i) => {
        if (!check.usable[i]) return;
        // "maybe" may be said of a tool without one (never the other way), but the fast path is exact.
        expect(check.inventoryKeys[i], JSON.stringify(tool).slice(0, 80)).toBe(holdsInventoryKey(tool));
        if (check.inventoryKeys[i]) some++;
        else none++;
      });
    }
    expect(none).toBeGreaterThan(3000);
    expect(some).toBeGreaterThan(50);
    // A property named `id` is not an inventory key (its value is a schema, an object); a string-valued one in
    // data is, for the check (it reads keys and value types, not positions); a `$ref` that is not a string is not.
    const odd = [
      { name: 'a', inputSchema: { type: 'object', properties: { id: { type: 'string' } } } },
      { name: 'b', inputSchema: { default: { $anchor: 'x' } } },
      { name: 'c', inputSchema: { type: 'object', properties: { ids: {} } } },
      { name: 'd', inputSchema: { type: 'object', properties: { a: { id: 'a' } } } },
      { name: 'e', inputSchema: { type: 'object', properties: { a: { $ref: 5 } } } },
      { name: 'f', inputSchema: { type: 'object', properties: { $ref: '#/definitions/x' } } },
    ];
    expect(checkInputs(odd, odd.map((t) => t.name), 10_000, 'report').inventoryKeys).toEqual([false, true, false, true, false, true]);
    expect(odd.map(holdsInventoryKey)).toEqual([false, true, false, true, false, true]);
  });

  it('over the corpus and the validation set, every schema the engine notes holds no inventory key, in every preset and with the gate', () => {
    const noted: object[] = [];
    const original = SchemaAnalysis.prototype.noteNoInventoryKeys;
    vi.spyOn(SchemaAnalysis.prototype, 'noteNoInventoryKeys').mockImplementation(function (this: SchemaAnalysis, schema: object) {
      noted.push(schema);
      original.call(this, schema);
    });
    for (const tools of LISTS) {
      transformTools(tools);
      transformTools(tools, { transforms: [presetMax], verify: false });
    }
    expect(noted.length).toBeGreaterThan(5000);
    for (const schema of noted) {
      expect(holdsInventoryKey(schema)).toBe(false);
      for (const dialect of ['draft-04', 'draft-07', '2020-12', 'openapi-3.0'] as const) {
        const inv = collectRefInventory(schema, dialect);
        expect(inv.refs.length + inv.anchors.length + inv.resources.length).toBe(0);
        expect(inv.rootUri).toBeUndefined();
      }
    }
  });

  it('each way a step can put an inventory key into a tool without one makes the next step see it', () => {
    type Edit = (ctx: EditContext) => void;
    // Each edit, with what the inventory of the edited inputSchema must list afterwards (hand-written).
    const cases: [string, Edit, Inventory][] = [
      ['a $ref member added', (ctx) => ctx.add('/inputSchema/properties/a/$ref', '#/properties/b', 'edit'), { refs: ['#/properties/b'], anchors: [], resources: [] }],
      ['a value holding a $dynamicRef added', (ctx) => ctx.add('/inputSchema/properties/c', { items: { $dynamicRef: '#/properties/b' } }, 'edit'), { refs: ['#/properties/b'], anchors: [], resources: [] }],
      ['a value holding an $anchor replaced in', (ctx) => ctx.replace('/inputSchema/properties/b', { type: 'integer', $anchor: 'count' }, 'edit'), { refs: [], anchors: ['count'], resources: [] }],
      ['a member renamed to $id', (ctx) => ctx.rename('/inputSchema/properties/b/note', '$id', 'edit'), { refs: [], anchors: [], resources: ['https://example.com/b'] }],
      ['a member renamed to id (an anchor in 2020-12)', (ctx) => ctx.rename('/inputSchema/properties/b/tag', 'id', 'edit'), { refs: [], anchors: ['bee'], resources: [] }],
      ['a $dynamicAnchor added', (ctx) => ctx.add('/inputSchema/properties/a/$dynamicAnchor', 'node', 'edit'), { refs: [], anchors: ['node'], resources: [] }],
    ];
    for (const [what, edit, expected] of cases) {
      const input = deepFreeze([{ name: 'one', inputSchema: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'number', note: 'https://example.com/b', tag: '#bee' } } } }]);
      expect(holdsInventoryKey(input), what).toBe(false);
      const { seen, skipped } = inventoriesAround(input, edit);
      expect(skipped, what).toEqual([]);
      expect(seen, what).toEqual([{ refs: [], anchors: [], resources: [] }, expected]);
    }
  });

  it('a step that gives an `id` key a string value (replaced, or moved in) makes the next step see it', () => {
    type Edit = (ctx: EditContext) => void;
    // `id` here is an object (an unknown keyword in 2020-12) and a property name: no inventory records either.
    const cases: [string, Edit, Inventory][] = [
      ['an object-valued id replaced by a string', (ctx) => ctx.replace('/inputSchema/id', '#root', 'edit'), { refs: [], anchors: ['root'], resources: [] }],
      [
        'a string moved in as id',
        (ctx) => {
          ctx.remove('/inputSchema/id', 'edit');
          ctx.move('/inputSchema/properties/id/tag', '/inputSchema/id', 'edit');
        },
        { refs: [], anchors: ['bee'], resources: [] },
      ],
    ];
    for (const [what, edit, expected] of cases) {
      const input = deepFreeze([{ name: 'two', inputSchema: { type: 'object', id: { x: 1 }, properties: { id: { type: 'string', tag: '#bee' } } } }]);
      expect(checkInputs(input, ['two'], 10_000, 'report').inventoryKeys, what).toEqual([false]);
      const { seen, skipped } = inventoriesAround(input, edit);
      expect(skipped, what).toEqual([]);
      expect(seen, what).toEqual([{ refs: [], anchors: [], resources: [] }, expected]);
    }
  });

  it('the gate still reads the references of a version a step put one into', () => {
    // A lossless step that points a property at another one changes verdicts: on a tool the engine had
    // noted as holding no reference, the gate must still read the new `$ref` and revert the tool.
    const retarget = defineTransform({
      name: 'retarget',
      description: 'Replaces a property by a reference to a stricter one',
      safety: 'lossless',
      defaultOptions: {},
      messages: { edit: 'Edited' },
      apply: (_doc, ctx) => ctx.replace('/inputSchema/properties/a', { $ref: '#/properties/b' }, 'edit'),
    });
    const input = deepFreeze([{ name: 'one', inputSchema: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'integer' } } } }]);
    const r = transformTools(input, { transforms: [retarget] });
    expect(r.tools[0]).toBe(input[0]);
    expect(r.report.stats.verify?.failed).toBe(1);
  });
});
