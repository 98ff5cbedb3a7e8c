/**
 * inline-refs (profiles that cannot resolve references) on long chains and on definitions that carry their
 * own machinery: the copies' definitions and anchors are found in the originals (a target spliced in is an
 * expansion, already clean), and a result nested deeper than the run reads back is refused before it is
 * built. Expectations come from walks written here: the output's height, and every key left in it.
 */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { adaptToClient, transformTools } from '../../src/index.js';
import { verdicts } from '../helpers/ajv.js';
import { deepFreeze, jsonClone } from '../helpers/freeze.js';

/** Containers on the longest path from `value` down (a scalar: 0). Recursive: the heights here are ≤ ~1,000. */
function height(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  let best = 0;
  for (const v of Object.values(value)) best = Math.max(best, height(v));
  return best + 1;
}

/** Every key anywhere in `value` (data included: a leftover would be a defect wherever it sits). */
function keysIn(value: unknown, out = new Set<string>()): Set<string> {
  if (value === null || typeof value !== 'object') return out;
  for (const [k, v] of Object.entries(value)) {
    out.add(k);
    keysIn(v, out);
  }
  return out;
}

/** `{type: object, properties: {a: → D0}}`, each Di an object whose property `n` references D(i+1), the last a string. */
function objectChain(links: number, sibling?: Record<string, unknown>): Record<string, unknown> {
  const defs: Record<string, unknown> = { [`D${links}`]: { type: 'string' } };
  for (let i = 0; i < links; i++) defs[`D${i}`] = { type: 'object', properties: { n: { $ref: `#/$defs/D${i + 1}`, ...sibling } } };
  return { type: 'object', properties: { a: { $ref: '#/$defs/D0' } }, $defs: defs };
}

it('inlines a chain whose copies nest exactly as deep as the run reads, and refuses one level more', () => {
  // Inlined, the slot is: root, properties, a = D0, properties, n = D1, …, D(links) = {type: string}.
  // Height by hand: 2 (root, its properties) + 2 per link + 1 (the last definition).
  const fits = (1000 - 3) / 2; // 498.5: 498 links nest 999 deep, 499 would nest 1,001
  for (const links of [Math.floor(fits), Math.ceil(fits)]) {
    const expected = 3 + 2 * links;
    const tools = deepFreeze([{ name: 'chain', inputSchema: objectChain(links) }]);
    const r = adaptToClient(tools, { profile: 'ref-free', growthCap: 100 });
    if (expected <= 1000) {
      expect(r.report.diagnostics.filter((d) => d.severity === 'error'), String(links)).toEqual([]);
      expect(height(r.tools[0]!.inputSchema)).toBe(expected);
      expect(keysIn(r.tools[0]!.inputSchema).has('$ref')).toBe(false);
      // What it wrote, toolslim reads back: a second run transforms the tool rather than skipping it.
      const again = transformTools(r.tools, { transforms: [[adaptToClient, { profile: 'ref-free' }]] });
      expect(again.report.skipped).toEqual([]);
    } else {
      expect(r.tools[0]).toBe(tools[0]);
      expect(r.report.changes).toEqual([]);
      const refused = r.report.diagnostics.find((d) => d.code === 'inline-unsafe');
      expect(refused).toMatchObject({ severity: 'error', path: '/0/inputSchema/properties/a' });
      expect(refused!.message).toContain(`${expected} levels deep`);
      expect(refused!.message).toContain('at most 1000');
    }
  }
});

it('counts a reference with siblings as two levels more (the target may land under `allOf`)', () => {
  // `additionalProperties` beside `$ref` interacts with a target's `properties`: the target goes under
  // `allOf` (properties, n, allOf, its item: 4 a link), except the last, a string, merged beside it (2).
  // The bound counts 4 for every link: 2 more than the result, never less.
  for (const links of [20, 240, 249, 250]) {
    const tools = deepFreeze([{ name: 'chain', inputSchema: objectChain(links, { additionalProperties: false }) }]);
    const r = adaptToClient(tools, { profile: 'ref-free', growthCap: 100 });
    const actual = 3 + 4 * (links - 1) + 2;
    const bound = 3 + 4 * links;
    if (bound <= 1000) {
      expect(height(r.tools[0]!.inputSchema)).toBe(actual);
      const args = [{ a: { n: 'x' } }, { a: { n: 'x', m: 1 } }, { a: {} }, { a: 'x' }, { a: { n: { n: 'x', z: 1 } } }];
      // ajv itself runs out of stack compiling the original past a few dozen links.
      if (links <= 20) expect(verdicts(r.tools[0]!.inputSchema, args)).toEqual(verdicts(jsonClone(tools[0]!.inputSchema), args));
    } else {
      expect(r.tools[0]).toBe(tools[0]);
      expect(r.report.diagnostics.find((d) => d.code === 'inline-unsafe')!.message).toContain(`${bound} levels deep`);
    }
  }
});

it('refuses a chain of 50,000 definitions through unions, leaving the tool as it was', () => {
  // Before: the copies were walked again for their definitions (n²), then `JSON.stringify` ran out of stack.
  const n = 50_000;
  const defs: Record<string, unknown> = { [`d${n}`]: { type: 'string' } };
  for (let i = 0; i < n; i++) defs[`d${i}`] = { anyOf: [{ $ref: `#/$defs/d${i + 1}` }, { type: 'null' }] };
  const tools = deepFreeze([{ name: 'defs', inputSchema: { type: 'object', properties: { a: { $ref: '#/$defs/d0' } }, $defs: defs } }]);
  const r = adaptToClient(tools, { profile: 'gemini' });
  expect(r.report.skipped).toEqual([]);
  expect(r.tools[0]).toBe(tools[0]);
  expect(r.report.diagnostics.find((d) => d.code === 'inline-unsafe')).toMatchObject({ path: '/0/inputSchema/properties/a' });
});

// Definitions that carry definitions and anchors of their own, referenced through chains: the result must
// hold no reference, no definitions container and no anchor anywhere, and keep ajv's verdicts.
const leaf = fc.constantFrom<Record<string, unknown>>(
  { type: 'string' },
  { type: 'integer', minimum: 1 },
  { enum: ['x', 2] },
  { type: 'object', properties: { p: { type: 'string' } } },
);
// Anchor names are numbered by place: two equal anchors in one resource would make the input itself invalid.
const machinery = (i: number) =>
  fc.constantFrom<Record<string, unknown>>(
    {},
    { $anchor: `here${i}` },
    { $defs: { unused: { type: 'boolean' } } },
    { $defs: { inner: { $anchor: `deep${i}`, type: 'null' } } },
    { $comment: 'c', $defs: { a: { $defs: { b: {} } } } },
  );
let uses = 0;
const useSite = fc.constantFrom<Record<string, unknown>>({}, { description: 'use' }, { $defs: { beside: {} } }, { $anchor: 'at-use' }, { additionalProperties: false }).map((s) => ('$anchor' in s ? { $anchor: `at-use${uses++}` } : s));
function machineryArb() {
  const ref = (i: number) => fc.tuple(fc.integer({ min: i + 1, max: 5 }), useSite).map(([j, s]) => ({ $ref: `#/$defs/D${j}`, ...s }));
  const def = (i: number) =>
    fc.tuple(i === 5 ? leaf : fc.oneof(leaf, ref(i).map((r) => ({ type: 'object', properties: { n: r } })), ref(i).map((r) => ({ anyOf: [r, { type: 'integer' }] }))), machinery(i)).map(([d, m]) => ({ ...d, ...m }));
  return fc.tuple(def(0), def(1), def(2), def(3), def(4), def(5), ref(-1), ref(-1)).map(([d0, d1, d2, d3, d4, d5, a, b]) => ({
    type: 'object',
    properties: { a, b },
    $defs: { D0: d0, D1: d1, D2: d2, D3: d3, D4: d4, D5: d5 },
  }));
}
const args = fc.array(
  fc.dictionary(fc.constantFrom('a', 'b'), fc.oneof(fc.constantFrom('x', 2, 0, null, true), fc.dictionary(fc.constantFrom('n', 'p', 'q'), fc.constantFrom('x', 2, null, {}), { maxKeys: 2 })), { maxKeys: 2 }),
  { minLength: 6, maxLength: 6 },
);

it('leaves no definitions, anchors or references in the copies, and keeps every verdict', () => {
  let inlined = 0;
  fc.assert(
    fc.property(machineryArb(), args, (schema, instances) => {
      const tools = deepFreeze([{ name: 'machinery', inputSchema: schema }]);
      const r = adaptToClient(tools, { profile: 'ref-free', growthCap: 100 });
      expect(r.report.skipped).toEqual([]);
      if (r.tools[0] === tools[0]) return; // left as it was (reported: an anchor ambiguity, say)
      inlined++;
      const keys = keysIn(r.tools[0]!.inputSchema);
      for (const k of ['$ref', '$defs', '$anchor']) expect(keys.has(k), `${k} in ${JSON.stringify(r.tools[0]!.inputSchema)}`).toBe(false);
      expect(verdicts(r.tools[0]!.inputSchema, instances)).toEqual(verdicts(jsonClone(schema), instances));
    }),
    { numRuns: 150, seed: 31 },
  );
  expect(inlined).toBeGreaterThan(50);
});

it('merges a copy beside a reference\'s siblings once its own definitions and anchors are gone (by hand)', () => {
  // A carries an anchor and definitions at its root: left in the copy, they would send it under `allOf`.
  const inputSchema = {
    type: 'object',
    properties: { a: { $ref: '#/$defs/A', description: 'use' } },
    $defs: {
      A: { $anchor: 'x', type: 'object', properties: { n: { $ref: '#/$defs/B', title: 'n', $defs: { beside: {} } } }, $defs: { inner: { $anchor: 'y' } } },
      B: { $defs: { z: {} }, type: 'string' },
    },
  };
  const tools = deepFreeze([{ name: 'by_hand', inputSchema }]);
  const r = adaptToClient(tools, { profile: 'ref-free' });
  expect(JSON.stringify(r.tools[0]!.inputSchema)).toBe(
    JSON.stringify({ type: 'object', properties: { a: { type: 'object', properties: { n: { type: 'string', title: 'n' } }, description: 'use' } } }),
  );
});
