/**
 * `missing-param-description` and strip-noise's `restatedNames` agree: a parameter description that says
 * no more than the parameter's name (as it is, or once what the schema says itself is taken out) is
 * reported before `optimize` removes it, so `check` finds as much before as after. Found as a user: with
 * the rule raised to warning, `check` passed a server and failed `optimize`'s output of it.
 */
import { describe, expect, it } from 'vitest';
import { lintTools, transformTools, type McpTool } from '../../src/index.js';
import { restatesName, saysOnlyItsName } from '../../src/transforms/strip-noise/rules/restated-names.js';
import { cleanDescription } from '../../src/transforms/strip-noise/clean.js';
import type { DescriptionFacts } from '../../src/transforms/strip-noise/rule.js';
import { deepFreeze } from '../helpers/freeze.js';
import { loadCorpus, VALIDATION_DIR } from '../helpers/corpus.js';

const param = (path: string) => path.replace(/\/description$/, '');
const missing = (tools: readonly unknown[]) =>
  lintTools(tools, { collisionThreshold: false })
    .filter((f) => f.code === 'missing-param-description')
    .map((f) => `${f.path} ${f.message}`);

describe('missing-param-description: a description that says no more than the name', () => {
  it('is reported at the description, with the text; a real description, a missing one and a referenced one as before', () => {
    const tools: McpTool[] = deepFreeze([
      {
        name: 'pay',
        description: 'Pay an invoice',
        inputSchema: {
          type: 'object',
          properties: {
            paymentMethodId: { type: 'string', description: 'Payment method ID' },
            storyPublicId: { type: 'number', description: 'Story ID (required)' },
            calendarId: { type: 'string', default: 'primary', description: 'Calendar ID. Defaults to "primary".' },
            amount: { type: 'number', description: 'The amount in cents, at least 1' },
            note: { type: 'string' },
            region: { $ref: '#/$defs/Region' },
          },
          required: ['paymentMethodId', 'storyPublicId', 'amount'],
          $defs: { Region: { type: 'string', description: 'Region' } },
        },
      },
    ]);
    expect(missing(tools)).toEqual([
      '/0/inputSchema/properties/paymentMethodId/description parameter `paymentMethodId` of `pay` has a description that says no more than its name ("Payment method ID"); say what it is for and what it takes (models fill it from this)',
      '/0/inputSchema/properties/storyPublicId/description parameter `storyPublicId` of `pay` has a description that says no more than its name ("Story ID (required)"); say what it is for and what it takes (models fill it from this)',
      '/0/inputSchema/properties/calendarId/description parameter `calendarId` of `pay` has a description that says no more than its name ("Calendar ID. Defaults to \\"primary\\"."); say what it is for and what it takes (models fill it from this)',
      '/0/inputSchema/properties/note parameter `note` of `pay` has no description; say what it is for and what it takes (models fill it from this)',
    ]);
  });

  it('reads the schema as strip-noise does: a marker counts only where `required` says it, a default statement only beside `default`', () => {
    // "(required)" on a property that `required` does not list says something the schema does not: kept.
    expect(saysOnlyItsName('storyPublicId', 'Story ID (required)', { required: false })).toBe(false);
    expect(saysOnlyItsName('storyPublicId', 'Story ID (required)', { required: true })).toBe(true);
    expect(saysOnlyItsName('calendarId', 'Calendar ID. Defaults to "primary".', {})).toBe(false);
    expect(saysOnlyItsName('calendarId', 'Calendar ID. Defaults to "primary".', { hasDefault: true, default: 'primary' })).toBe(true);
    expect(saysOnlyItsName('calendarId', 'Calendar ID. Defaults to "primary".', { hasDefault: true, default: 'work' })).toBe(false);
    expect(saysOnlyItsName('paymentMethodId', 'The payment method to charge', {})).toBe(false);
  });

  it('answers as cleaning every description would (its quick look skips only what no rule changes), and asks for the facts only then', () => {
    // The oracle: the name rule on the text as it is and once strip-noise's text rules at their defaults cleaned it.
    const oracle = (name: string, text: string, facts: DescriptionFacts) => restatesName(name, text) || restatesName(name, cleanDescription(text, { urls: true, examples: true, whitespace: true }, facts).text);
    const cases: [string, string, DescriptionFacts][] = [];
    for (const dir of [undefined, VALIDATION_DIR]) {
      for (const { data } of loadCorpus(dir)) {
        for (const tool of data.toolsList.tools as Record<string, unknown>[]) {
          const props = ((tool.inputSchema ?? {}) as Record<string, unknown>).properties;
          if (typeof props !== 'object' || props === null) continue;
          for (const [name, p] of Object.entries(props as Record<string, Record<string, unknown>>)) {
            if (typeof p?.description !== 'string') continue;
            // Every property description under each set of facts: none, a default it states or not, required either way.
            for (const facts of [{}, { hasDefault: true, default: p.default ?? 10 }, { required: true }, { required: false }] as DescriptionFacts[]) cases.push([name, p.description, facts]);
          }
        }
      }
    }
    // Texts made to trip each rule's first look, beside the name they restate.
    for (const text of ['User ID. See https://example.com/users', 'User ID\r\n', ' User ID', 'User  ID', 'User ID\n\n\nmore', 'User ID. Optional.', 'Optional: user ID', 'User ID (required)', 'User ID. Defaults to 10.', 'User ID [docs](https://x.y/z)', 'User ID\nExample:\nabc', 'User ID\u00a0']) {
      for (const facts of [{}, { hasDefault: true, default: 10 }, { required: true }, { required: false }] as DescriptionFacts[]) cases.push(['userId', text, facts]);
    }
    let restating = 0;
    let asked = 0;
    for (const [name, text, facts] of cases) {
      const expected = oracle(name, text, facts);
      if (expected) restating++;
      expect([name, text, facts, saysOnlyItsName(name, text, facts)]).toEqual([name, text, facts, expected]);
      expect([name, text, facts, saysOnlyItsName(name, text, () => (asked++, facts))]).toEqual([name, text, facts, expected]);
    }
    expect(cases.length).toBeGreaterThan(10_000);
    expect(restating).toBeGreaterThan(100); // both answers occur
    // The facts are asked for only where a rule may need them: far fewer times than there are descriptions.
    expect(asked).toBeLessThan(cases.length / 4);
  }, 120_000);

  it('finds before optimize every parameter it finds after, on both bench sets', () => {
    let after = 0;
    for (const dir of [undefined, VALIDATION_DIR]) {
      for (const { file, data } of loadCorpus(dir)) {
        const tools = data.toolsList.tools;
        const before = new Set(missing(tools).map((f) => param(f.slice(0, f.indexOf(' ')))));
        const out = missing(transformTools(tools).tools).map((f) => param(f.slice(0, f.indexOf(' '))));
        after += out.length;
        expect(out.filter((p) => !before.has(p)).map((p) => `${file} ${p}`)).toEqual([]);
      }
    }
    expect(after).toBeGreaterThan(100); // the comparison had parameters to compare
  }, 120_000);
});
