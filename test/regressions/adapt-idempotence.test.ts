/**
 * The profile-tuned preset reaches its fixed point in one run (issue 12 item 5), on minimal hand-written
 * tools of the three shapes the fuzz harness once listed as known exceptions (seed 20261212: samples 1703,
 * 571 and 6148), each run through `presetForProfile('safe', profile)` with the default gate and with
 * `verify: false` (as the fuzz harness runs it: there the gate does not hide a step's second thoughts).
 * Every expected output is written by hand from what the step must do; the second run must change nothing.
 */
import { describe, expect, it } from 'vitest';
import { presetForProfile, transformTools } from '../../src/index.js';
import { deepFreeze } from '../helpers/freeze.js';

interface Case {
  readonly title: string;
  readonly profiles: readonly string[];
  readonly input: unknown[];
  /** The expected output per profile (a profile not listed: the same output as the first). */
  readonly output: Readonly<Record<string, unknown[]>>;
  /** Codes the adapt-to-client step must (and must not) report, as `code` strings. */
  readonly adapt: { readonly changes: readonly string[]; readonly diagnostics?: readonly string[] };
}

const filterSearch = {
  name: 'search',
  inputSchema: {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: {
      filter: {
        $ref: '#/definitions/Filter',
        properties: { op: { type: 'string', enum: ['eq', 'ne'] } },
        required: ['op'],
        additionalProperties: false,
      },
    },
    required: ['filter'],
    additionalProperties: false,
    definitions: {
      Filter: {
        type: 'object',
        properties: { op: { $ref: '#/properties/filter/properties/op' } },
        required: ['op'],
        additionalProperties: false,
      },
    },
  },
};

const cases: readonly Case[] = [
  {
    // reconcile-dialect leaves this draft-07 tool as it is (`referenced-ref-sibling`: `Filter` points into
    // `properties` beside `$ref`, which draft-07 ignores and 2020-12 applies). hoist-refs used to copy that
    // target to `definitions/op` and repoint: the second run then found nothing pointing into the sibling
    // and converted the tool (`dropped-ref-sibling`). Now it leaves the reference too and says why.
    title: 'a reference into a draft-07 `$ref` sibling is not copied out (was: reconcile-dialect/dropped-ref-sibling on the second run)',
    profiles: ['openai-strict'],
    input: [filterSearch],
    output: { 'openai-strict': [filterSearch] },
    adapt: { changes: [], diagnostics: ['hoist-unsafe', 'ref-not-top-level'] },
  },
  {
    // kimi needs `#/$defs/…`: the definition moves (as before); the reference into the sibling stays.
    title: 'kimi: the definition moves to `$defs`, the reference into the `$ref` sibling stays as it is',
    profiles: ['kimi'],
    input: [filterSearch],
    output: {
      kimi: [
        {
          name: 'search',
          inputSchema: {
            $schema: 'http://json-schema.org/draft-07/schema#',
            type: 'object',
            properties: {
              filter: {
                $ref: '#/$defs/Filter',
                properties: { op: { type: 'string', enum: ['eq', 'ne'] } },
                required: ['op'],
                additionalProperties: false,
              },
            },
            required: ['filter'],
            additionalProperties: false,
            $defs: {
              Filter: {
                type: 'object',
                properties: { op: { $ref: '#/properties/filter/properties/op' } },
                required: ['op'],
                additionalProperties: false,
              },
            },
          },
        },
      ],
    },
    adapt: { changes: ['added-defs', 'hoisted-def', 'repointed-ref', 'removed-empty-defs'], diagnostics: ['hoist-unsafe', 'ref-siblings-ambiguous'] },
  },
  {
    // The anchored target sits inside `Modes`: hoist-refs copies it (without the anchor) to `$defs/0` and
    // repoints `#mode`; nothing reaches `Modes` any more, and prune-unreachable-defs removed it on the
    // second run. Now the copy step removes it itself.
    title: 'the definition a copy leaves unreachable is removed with the copy (was: prune-unreachable-defs/removed on the second run)',
    profiles: ['openai-strict', 'kimi'],
    input: [
      {
        name: 'set_mode',
        inputSchema: {
          type: 'object',
          properties: { mode: { $ref: '#mode' } },
          required: ['mode'],
          additionalProperties: false,
          $defs: { Modes: { allOf: [{ $anchor: 'mode', type: 'string', enum: ['fast', 'safe'] }] } },
        },
      },
    ],
    output: {
      'openai-strict': [
        {
          name: 'set_mode',
          inputSchema: {
            type: 'object',
            properties: { mode: { $ref: '#/$defs/0' } },
            required: ['mode'],
            additionalProperties: false,
            $defs: { '0': { type: 'string', enum: ['fast', 'safe'] } },
          },
        },
      ],
    },
    adapt: { changes: ['copied-def', 'repointed-ref', 'removed-orphaned-def'] },
  },
  {
    // `$id: "#path"` beside `$anchor: "path"` (one name, twice): reconcile-dialect cannot rewrite the `$id`
    // as `$anchor` while the other is there. Inlining removed the `$anchor` and kept the `$id`, which the
    // second run rewrote as `$anchor` (and then removed). Now both go with the inlining.
    title: 'a fragment `$id` goes with the anchors inlining removes (was: reconcile-dialect/converted-id on the second run)',
    profiles: ['gemini', 'ref-free'],
    input: [
      {
        name: 'open_file',
        inputSchema: {
          type: 'object',
          properties: { path: { $ref: '#/$defs/Path' } },
          required: ['path'],
          $defs: { Path: { $id: '#path', $anchor: 'path', type: 'string', minLength: 1 } },
        },
      },
    ],
    output: {
      gemini: [
        {
          name: 'open_file',
          inputSchema: { type: 'object', properties: { path: { type: 'string', minLength: 1 } }, required: ['path'] },
        },
      ],
    },
    adapt: { changes: ['inlined-ref', 'removed-defs'] },
  },
];

describe('profile-tuned preset: one run reaches the fixed point', () => {
  for (const c of cases) {
    for (const [profile, verify] of c.profiles.flatMap((p) => [[p, false], [p, undefined]] as const)) {
      it(`${profile}${verify === false ? ', verify: false' : ''}: ${c.title}`, () => {
        const steps = presetForProfile('safe', profile);
        const options = verify === false ? { transforms: steps, verify } : { transforms: steps };
        const first = transformTools(deepFreeze(structuredClone(c.input)), options);
        const want = c.output[profile] ?? Object.values(c.output)[0]!;
        expect(JSON.stringify(first.tools)).toBe(JSON.stringify(want));
        const adapt = first.report.changes.filter((ch) => ch.transform === 'adapt-to-client').map((ch) => ch.code);
        expect(adapt).toEqual(c.adapt.changes);
        if (c.adapt.diagnostics) {
          const found = new Set(first.report.diagnostics.filter((d) => d.transform === 'adapt-to-client').map((d) => d.code));
          for (const code of c.adapt.diagnostics) expect(found, code).toContain(code);
        }
        const again = transformTools(deepFreeze(first.tools), options);
        expect(again.report.changes.map((ch) => `${ch.transform}/${ch.code} ${ch.path}`)).toEqual([]);
        expect(JSON.stringify(again.tools)).toBe(JSON.stringify(first.tools));
      });
    }
  }
});
