/**
 * The profile-tuned preset reaches its fixed point in one run when a lossy step frees a conversion that
 * reconcile-dialect held back (issue 12: the last non-idempotent lossy fuzz runs, seed 20261212 lists #411,
 * #2768 and #5307 under `gemini` and `openai-strict`, and seed 7 #2435). reconcile-dialect leaves a draft-07
 * tool as it is while a `$ref` points into a keyword the dialect does not read (a 2020-12 `prefixItems`, a
 * sibling of `$ref`); here that `$ref` sits under `not`, which both clients reject and relax-assertions
 * drops. The next run would then convert the tool; adapt-to-client now does it in the same run (its
 * `reconcile` option, which presetForProfile sets). Minimal hand-written tools reduced from those lists.
 *
 * Each expected output is written by hand from what the steps must do. ajv checks that the conversion
 * reconcile-dialect makes keeps its verdicts: on instances that do not reach the dropped `not` (whose loss is
 * the lossy step's, documented), the draft-07 input read as draft-07 and the output read as 2020-12 agree.
 */
import { describe, expect, it } from 'vitest';
import { adaptToClient, presetForProfile, presetSafe, transformTools } from '../../src/index.js';
import { deepFreeze } from '../helpers/freeze.js';
import { specValidator } from '../helpers/readings.js';

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';

interface Case {
  readonly title: string;
  readonly profile: string;
  readonly input: Record<string, unknown>;
  readonly output: Record<string, unknown>;
  /** adapt-to-client's change codes, in order. */
  readonly adapt: readonly string[];
  /** Instances on which the input (as draft-07) and the output (as 2020-12) must agree, with that verdict. */
  readonly instances: readonly (readonly [unknown, boolean])[];
}

const cases: readonly Case[] = [
  {
    // #2768: `b.prefixItems` is 2020-12, ignored by draft-07 readers, and `a.not` points into it
    // (`referenced-foreign-keyword`): the tool stays draft-07. gemini rejects `not`: dropped, nothing
    // points into `prefixItems` any more, so it is dropped as draft-07 ignores it, and the stamp goes.
    title: 'a `$ref` into a foreign keyword, under a dropped `not` (was: reconcile-dialect/dropped-foreign-keyword on the second run)',
    profile: 'gemini',
    input: {
      name: 'pick',
      inputSchema: {
        $schema: DRAFT_07,
        type: 'object',
        properties: {
          a: { type: 'string', not: { $ref: '#/properties/b/prefixItems/0' } },
          b: { type: 'array', prefixItems: [{ type: 'object' }] },
        },
      },
    },
    output: { name: 'pick', inputSchema: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'array' } } } },
    adapt: ['dropped-assertion', 'reconciled-again'],
    // `[1]` is not an object: a 2020-12 reader of the kept `prefixItems` would refuse it; draft-07 never did.
    instances: [
      [{ b: [1] }, true],
      [{ b: [{}] }, true],
      [{ b: 'x' }, false],
      [{ a: 1 }, false],
    ],
  },
  {
    // #5307: `item.properties` beside a draft-07 `$ref` is ignored by draft-07 readers, and `id.not` points
    // into it (`referenced-ref-sibling`). Once gemini's `not` is dropped, the sibling is dropped as draft-07
    // reads it, `definitions` becomes `$defs` and the reference follows; gemini resolves no reference, so
    // the next pass inlines `Item` and removes `$defs`.
    title: 'a `$ref` into a draft-07 `$ref` sibling, under a dropped `not`: converted, then inlined (was: reconcile-dialect/dropped-ref-sibling on the second run)',
    profile: 'gemini',
    input: {
      name: 'get',
      inputSchema: {
        $schema: DRAFT_07,
        type: 'object',
        properties: {
          id: { type: 'string', not: { $ref: '#/properties/item/properties/k' } },
          item: { $ref: '#/definitions/Item', properties: { k: { type: 'integer' } } },
        },
        definitions: { Item: { type: 'object', properties: { name: { type: 'string' } } } },
      },
    },
    output: {
      name: 'get',
      inputSchema: { type: 'object', properties: { id: { type: 'string' }, item: { type: 'object', properties: { name: { type: 'string' } } } } },
    },
    adapt: ['dropped-assertion', 'reconciled-again', 'inlined-ref', 'removed-defs'],
    // `k: "x"` breaks the ignored sibling only: accepted before and after.
    instances: [
      [{ item: { name: 'n', k: 'x' } }, true],
      [{ item: { name: 1 } }, false],
      [{ item: 'x' }, false],
      [{ id: 'i', item: {} }, true],
    ],
  },
  {
    // #411 (openai-strict): as the first case, and the conversion writes a keyword the client rejects:
    // draft-07 `dependencies: {q: ["t"]}` becomes `dependentRequired`, which openai-strict rejects, so the
    // next pass drops it (lossy in general; here both names are required anyway).
    title: 'openai-strict: the freed conversion writes `dependentRequired`, which the next pass drops (was: reconcile-dialect/converted-dependencies, then adapt-to-client/dropped-assertion on the second run)',
    profile: 'openai-strict',
    input: {
      name: 'find',
      inputSchema: {
        $schema: DRAFT_07,
        type: 'object',
        properties: {
          q: { type: 'string', not: { $ref: '#/properties/t/prefixItems/0' } },
          t: { type: 'array', prefixItems: [{ type: 'integer' }] },
        },
        required: ['q', 't'],
        additionalProperties: false,
        dependencies: { q: ['t'] },
      },
    },
    output: {
      name: 'find',
      inputSchema: { type: 'object', properties: { q: { type: 'string' }, t: { type: 'array' } }, required: ['q', 't'], additionalProperties: false },
    },
    adapt: ['dropped-assertion', 'reconciled-again', 'dropped-assertion'],
    // `t: ["s"]`: a 2020-12 reader of the kept `prefixItems` would refuse it; draft-07 never did.
    instances: [
      [{ q: 'a', t: ['s'] }, true],
      [{ q: 'a', t: [] }, true],
      [{ q: 'a' }, false],
      [{ q: 'a', t: [], x: 1 }, false],
    ],
  },
];

describe('profile-tuned preset: a conversion a lossy step frees is made in the same run', () => {
  for (const c of cases) {
    for (const verify of [false, undefined] as const) {
      it(`${c.profile}${verify === false ? ', verify: false' : ''}: ${c.title}`, () => {
        const steps = presetForProfile('safe', c.profile);
        const options = verify === false ? { transforms: steps, verify } : { transforms: steps };
        const first = transformTools(deepFreeze(structuredClone([c.input])), options);
        expect(JSON.stringify(first.tools)).toBe(JSON.stringify([c.output]));
        expect(first.report.changes.filter((ch) => ch.transform === 'adapt-to-client').map((ch) => ch.code)).toEqual(c.adapt);
        const again = transformTools(deepFreeze(first.tools), options);
        expect(again.report.changes.map((ch) => `${ch.transform}/${ch.code} ${ch.path}`)).toEqual([]);
        expect(JSON.stringify(again.tools)).toBe(JSON.stringify(first.tools));
      });
    }
    it(`${c.profile}: ajv: the conversion keeps the verdicts of what the lossy step did not drop`, () => {
      const before = specValidator(c.input.inputSchema);
      const after = specValidator(c.output.inputSchema);
      if ('error' in before || 'error' in after) throw new Error('ajv refused a schema');
      for (const [data, verdict] of c.instances) {
        expect(before(data), JSON.stringify(data)).toBe(verdict);
        expect(after(data), JSON.stringify(data)).toBe(verdict);
      }
    });
  }

  it('without the `reconcile` option adapt-to-client leaves the conversion to the next run (the option is what makes it)', () => {
    const c = cases[0]!;
    const safe = transformTools(deepFreeze(structuredClone([c.input])), { transforms: [presetSafe], verify: false });
    // reconcile-dialect held the tool back: the stamp and `prefixItems` are still there.
    expect((safe.tools[0] as { inputSchema: Record<string, unknown> }).inputSchema.$schema).toBe(DRAFT_07);
    const lossy = { profile: 'gemini', growthAllowance: 2048, relaxAssertions: true, describeFormats: true };
    const without = adaptToClient(deepFreeze(safe.tools), lossy, { verify: false });
    expect(without.tools[0]).toEqual({ name: 'pick', inputSchema: { $schema: DRAFT_07, type: 'object', properties: { a: { type: 'string' }, b: { type: 'array', prefixItems: [{ type: 'object' }] } } } });
    const withIt = adaptToClient(deepFreeze(safe.tools), { ...lossy, reconcile: {} }, { verify: false });
    expect(JSON.stringify(withIt.tools)).toBe(JSON.stringify([c.output]));
  });

  it('checks the `reconcile` option as reconcile-dialect checks its own', () => {
    const tools = [{ name: 't', inputSchema: { type: 'object' } }];
    expect(() => adaptToClient(tools, { reconcile: { target: 'draft-04' } as never })).toThrow(/`target` must be `2020-12` or `draft-07`/);
    expect(() => adaptToClient(tools, { reconcile: { traget: '2020-12' } as never })).toThrow(/unknown option `traget`/);
    expect(() => adaptToClient(tools, { reconcile: true as never })).toThrow(/`reconcile` must be false or reconcile-dialect's options/);
  });
  it('a later round over the growth cap keeps the first pass and the conversion, and says so (`growth-capped-again`)', () => {
    // Six draft-07 `$ref`s with a sibling: adapt-to-client keeps them in its first pass (ambiguous), drops `not`
    // (gemini rejects it), and reconcile-dialect then converts the tool, which makes the references
    // inlinable; inlining six copies of `Big` would more than double the slot, so that round is rolled back.
    const big = { type: 'object', properties: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`field${i}`, { type: 'string', minLength: 1 }])) };
    const refs = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`a${i + 1}`, { $ref: '#/definitions/Big', minProperties: 1 }]));
    const input = {
      name: 'pick',
      inputSchema: { $schema: DRAFT_07, type: 'object', definitions: { Big: big }, properties: { ...refs, b: { type: 'string', not: { $ref: '#/properties/c/prefixItems/0' } }, c: { type: 'array', prefixItems: [{ type: 'object' }] } } },
    };
    // Written from what the steps must do: `not` dropped; reconcile-dialect's conversion to 2020-12 (the stamp,
    // `definitions` renamed, the ignored `$ref` siblings and `prefixItems` dropped); no reference inlined.
    const converted = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`a${i + 1}`, { $ref: '#/$defs/Big' }]));
    const output = { name: 'pick', inputSchema: { type: 'object', $defs: { Big: big }, properties: { ...converted, b: { type: 'string' }, c: { type: 'array' } } } };
    const steps = presetForProfile('safe', 'gemini');
    const first = transformTools(deepFreeze(structuredClone([input])), { transforms: steps, verify: false });
    expect(JSON.stringify(first.tools)).toBe(JSON.stringify([output]));
    const adapt = first.report.changes.filter((ch) => ch.transform === 'adapt-to-client').map((ch) => ch.code);
    expect(adapt).toEqual(['dropped-assertion', 'reconciled-again']);
    const capped = first.report.diagnostics.filter((d) => d.code.startsWith('growth-capped'));
    expect(capped.map((d) => [d.code, d.path])).toEqual([['growth-capped-again', '/0/inputSchema']]);
    expect(capped[0]!.message).toMatch(/^Left `inputSchema` as reconcile-dialect rewrote it after the lossy steps: adapting it to `gemini` again would grow it from \d+ to \d+ bytes, more than 2×$/);
    // The next run leaves it so too (its first pass is capped: that tool it does leave as it was).
    const again = transformTools(deepFreeze(first.tools), { transforms: steps, verify: false });
    expect(JSON.stringify(again.tools)).toBe(JSON.stringify(first.tools));
    expect(again.report.changes).toEqual([]);
    expect(again.report.diagnostics.filter((d) => d.code.startsWith('growth-capped')).map((d) => d.code)).toEqual(['growth-capped']);
  });

  it('an invalid `reconcile` option is an invalid-option error naming adapt-to-client', () => {
    const tools = [{ name: 't', inputSchema: { type: 'object' } }];
    expect(() => adaptToClient(tools, { reconcile: 7 as never })).toThrow(expect.objectContaining({ code: 'invalid-option', transform: 'adapt-to-client' }));
  });
});
