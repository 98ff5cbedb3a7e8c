/**
 * Subtree key summaries (schema/summary.ts): every answer is checked against a plain walk that collects
 * the keys of every object below a value, outside a run and inside one (where summaries are kept and
 * reused across copy-on-write versions).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EditContext } from '../../src/core/context.js';
import { SchemaAnalysis, withAnalysis } from '../../src/schema/refs.js';
import { EXTENSION_KEYS, keyMask, mayContainKeys } from '../../src/schema/summary.js';
import { isExtensionKeyword, UNION_KEYWORDS } from '../../src/schema/keywords.js';

/** Every key of every object inside `value` (the oracle). */
function keysBelow(value: unknown): Set<string> {
  const out = new Set<string>();
  const stack = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v !== 'object' || v === null) continue;
    if (Array.isArray(v)) stack.push(...v);
    else
      for (const [k, x] of Object.entries(v)) {
        out.add(k);
        stack.push(x);
      }
  }
  return out;
}

const NAMES = ['$defs', 'definitions', 'properties', 'items', 'type', 'description', '$ref', 'nullable', 'x-vendor', 'x-other', 'title', 'notAKeyword', 'foo', '__proto__'];

const json = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, fc.constant(null), fc.integer(), fc.string({ maxLength: 3 }), tie('object'), tie('array')),
  array: fc.array(tie('value'), { maxLength: 4 }),
  object: fc.array(fc.tuple(fc.constantFrom(...NAMES), tie('value')), { maxLength: 4 }).map((entries) => {
    const o: Record<string, unknown> = {};
    for (const [k, v] of entries) Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
    return o;
  }),
}));

/** What the summary must answer for `name`, from the oracle's keys. */
function expected(keys: Set<string>, name: string): boolean {
  if (UNION_KEYWORDS.has(name)) return keys.has(name);
  const extension = isExtensionKeyword(name);
  return [...keys].some((k) => !UNION_KEYWORDS.has(k) && isExtensionKeyword(k) === extension);
}

function check(value: unknown): void {
  const keys = keysBelow(value);
  for (const name of NAMES) expect(mayContainKeys(value, keyMask([name])), name).toBe(expected(keys, name));
  expect(mayContainKeys(value, keyMask(['$defs', 'definitions']))).toBe(keys.has('$defs') || keys.has('definitions'));
  expect(mayContainKeys(value, EXTENSION_KEYS)).toBe([...keys].some(isExtensionKeyword));
  expect(mayContainKeys(value, keyMask([]))).toBe(false);
}

describe('mayContainKeys', () => {
  it('answers as a walk over every object key does, outside a run', () => {
    fc.assert(fc.property(json.value, (v) => check(v)), { seed: 1401, numRuns: 400 });
  });

  it('answers the same inside a run, asked twice, and for each copy-on-write version of an edited document', () => {
    fc.assert(
      fc.property(json.object, fc.constantFrom(...NAMES), (root, added) => {
        // A document big enough that its subtrees are kept, with the random object deep inside.
        const doc = { type: 'object', properties: Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`p${i}`, { type: 'object', properties: { a: { type: 'string' } } }])), $defs: { Deep: { items: root } } };
        withAnalysis(new SchemaAnalysis(), () => {
          check(doc);
          check(doc);
          check(doc.properties);
          // A new version that shares every subtree but the edited path.
          const ctx = new EditContext(doc, {});
          if (!Object.prototype.hasOwnProperty.call(doc.properties.p3!.properties.a, added)) ctx.add(`/properties/p3/properties/a/${added.replace(/~/g, '~0').replace(/\//g, '~1')}`, { nested: [1] }, 'x');
          const next = ctx.root;
          check(next);
          check(doc);
          expect(mayContainKeys(next, keyMask(['nested']))).toBe(true);
        });
      }),
      { seed: 1402, numRuns: 200 },
    );
  });

  it('summarises 100,000 levels of nesting without recursion', () => {
    let deep: unknown = { $ref: '#' };
    for (let i = 0; i < 100_000; i++) deep = { items: [deep] };
    expect(mayContainKeys(deep, keyMask(['$ref']))).toBe(true);
    expect(mayContainKeys(deep, keyMask(['$defs']))).toBe(false);
  });
});

describe('runFacts', () => {
  it('keeps notes per schema object for the run only', async () => {
    const { runFacts } = await import('../../src/schema/refs.js');
    const key = Symbol('test');
    const schema = { type: 'object' };
    expect(runFacts(schema)).toBeUndefined();
    withAnalysis(new SchemaAnalysis(), () => {
      runFacts(schema)!.set(key, 1);
      expect(runFacts(schema)!.get(key)).toBe(1);
      expect(runFacts({ type: 'object' })!.has(key)).toBe(false);
    });
    withAnalysis(new SchemaAnalysis(), () => expect(runFacts(schema)!.has(key)).toBe(false));
  });
});
