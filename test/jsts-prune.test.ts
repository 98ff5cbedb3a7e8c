/**
 * prune-unreachable-defs over the JSON Schema Test Suite (test/data/jsts, see its README.md): for every
 * case, ajv's verdict on every test instance is the same before and after pruning. The reference is ajv's
 * verdict on the original schema, not the suite's `valid` (ajv disagrees with the suite on some cases).
 *
 * Each object schema is run twice: as the suite wrote it, and with an unreachable definition added to its
 * root (so every case exercises an actual removal). The added definition is `false`, so wrongly keeping a
 * reference to it would flip verdicts; it must be gone unless the library said it could not decide.
 */
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { pruneUnreachableDefs, type Report } from '../src/index.js';
import { deepFreeze, jsonClone } from './helpers/freeze.js';
import { loadJstsCases, loadJstsRemotes, type JstsCase } from './helpers/jsts.js';

const addFormats = ((formatsModule as unknown as { default?: unknown }).default ?? formatsModule) as (ajv: unknown) => void;


type Case = JstsCase;

const cases: Case[] = loadJstsCases();

const remotes: [string, unknown][] = loadJstsRemotes().map((r) => [r.uri, r.schema]);

/** ajv's verdict on one instance; `throws` when validation itself blows up (unbounded recursion). */
type Verdict = boolean | 'throws';
type Validate = (data: unknown) => Verdict;

/** The ajv set-up the suite's README describes: a fresh instance per schema, remotes, formats for format cases. */
function compile(c: Case, schema: unknown): Validate {
  // validateSchema off: checking each schema against the meta-schema costs ~20 ms per ajv instance and
  // does not change any verdict (the first test checks that against the suite's recorded ajvAgrees).
  const opts = { strict: false, logger: false as const, validateSchema: false };
  const ajv = c.dialect === 'draft7' ? new Ajv(opts) : new Ajv2020(opts);
  if (c.file.startsWith('optional/format/') || c.file === 'optional/format-assertion.json') addFormats(ajv);
  if (c.needsRemotes || (typeof schema === 'object' && schema !== null && JSON.stringify(schema).includes('localhost:1234'))) {
    for (const [uri, remote] of remotes) {
      try {
        ajv.addSchema(remote as object, uri);
      } catch {
        // A remote of another dialect that this ajv cannot take; the cases that need it fail to compile.
      }
    }
  }
  const validate = ajv.compile(schema as object);
  return (data) => {
    try {
      return validate(data) as boolean;
    } catch {
      return 'throws';
    }
  };
}

const verdictCache = new Map<string, Verdict[] | { error: string }>();

/** ajv's verdicts on every test instance of the case, memoized by the schema's text. */
function verdicts(c: Case, schema: unknown): Verdict[] | { error: string } {
  const cacheKey = `${cases.indexOf(c)}\u0000${JSON.stringify(schema)}`;
  let v = verdictCache.get(cacheKey);
  if (v === undefined) {
    v = computeVerdicts(c, schema);
    verdictCache.set(cacheKey, v);
  }
  return v;
}

function computeVerdicts(c: Case, schema: unknown): Verdict[] | { error: string } {
  let validate: Validate;
  try {
    validate = compile(c, schema);
  } catch (e) {
    return { error: (e as Error).message };
  }
  return c.tests.map((t) => validate(jsonClone(t.data)));
}

function prune(schema: unknown): { schema: unknown; report: Report } {
  const input = deepFreeze([{ name: 'jsts', inputSchema: jsonClone(schema) }]);
  const { tools, report } = pruneUnreachableDefs(input as never);
  return { schema: tools[0]!.inputSchema, report };
}

const JUNK = 'toolslimUnreachable';

const hasOwn = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);

/** The root container the unreachable definition goes into: the one the schema has, else its dialect's. */
function junkContainer(c: Case, schema: Record<string, unknown>): string {
  return hasOwn(schema, 'definitions') ? 'definitions' : hasOwn(schema, '$defs') ? '$defs' : c.dialect === 'draft7' ? 'definitions' : '$defs';
}

/** The schema with one unreachable `false` definition added to its root definitions. */
function withJunk(c: Case, schema: Record<string, unknown>): Record<string, unknown> {
  const out = jsonClone(schema);
  const container = junkContainer(c, out);
  out[container] = { ...(out[container] as object | undefined), [JUNK]: false };
  return out;
}

const label = (c: Case) => `${c.dialect} ${c.file}: ${c.description}`;

// Cases ajv 8 cannot compile at all (so there is no verdict to keep); each is named with its reason.
const UNCOMPILABLE = new Map<string, string>();
const undecidable: string[] = [];
let changedCount = 0;
let junkRemoved = 0;

describe('JSON Schema Test Suite: pruning keeps ajv’s verdict on every instance', () => {
  it('reproduces the suite README’s ajv set-up (ajvAgrees) on the original schemas', () => {
    const disagreeing = new Set<string>();
    for (const c of cases) {
      const v = verdicts(c, c.schema);
      if (!Array.isArray(v)) continue;
      v.forEach((got, i) => {
        if ((got === c.tests[i]!.valid) !== c.ajvAgrees[i]) disagreeing.add(label(c));
      });
    }
    // Only where the README's set-up (meta-schema validation on) could not compile the schema at all and
    // recorded every instance as a disagreement: a remote or `$schema` of another dialect.
    expect([...disagreeing].sort()).toEqual([
      'draft2020-12 optional/format-assertion.json: schema that uses custom metaschema with format-assertion: false',
      'draft2020-12 optional/format-assertion.json: schema that uses custom metaschema with format-assertion: true',
      'draft7 optional/cross-draft.json: refs to future drafts are processed as future drafts',
    ]);
  });

  it.each([['draft7'], ['draft2020-12']] as const)('%s', (dialect) => {
    for (const c of cases.filter((x) => x.dialect === dialect)) {
      const variants: [string, unknown][] = [['as written', c.schema]];
      if (typeof c.schema === 'object' && c.schema !== null && !Array.isArray(c.schema)) variants.push(['with an unreachable definition', withJunk(c, c.schema as Record<string, unknown>)]);
      for (const [variant, schema] of variants) {
        const where = `${label(c)} (${variant})`;
        const before = verdicts(c, schema);
        if (!Array.isArray(before)) {
          // Uncompilable as written means uncompilable with one more definition too.
          UNCOMPILABLE.set(label(c), before.error);
          break;
        }
        const { schema: after, report } = prune(schema);
        expect(report.skipped, where).toEqual([]);
        if (report.diagnostics.some((d) => d.code === 'undecidable')) undecidable.push(where);
        if (variant !== 'as written') {
          const container = (after as Record<string, unknown>)[junkContainer(c, schema as Record<string, unknown>)];
          const kept = typeof container === 'object' && container !== null && hasOwn(container, JUNK);
          if (!kept) junkRemoved++;
          else expect(report.diagnostics.map((d) => d.code), `${where}: the unreachable definition was kept`).toContain('undecidable');
        }
        if (JSON.stringify(after) === JSON.stringify(schema)) continue;
        changedCount++;
        const afterVerdicts = verdicts(c, after);
        expect(afterVerdicts, `${where}: pruned schema ${JSON.stringify(after)}`).toEqual(before);
      }
    }
  });

  it('exercised real removals, and skipped only the few cases ajv cannot compile', () => {
    expect(changedCount).toBeGreaterThan(700);
    expect(junkRemoved).toBeGreaterThan(700);
    // Every uncompilable case, by name: ajv 8.20 rejects these schemas before any pruning.
    expect([...UNCOMPILABLE.keys()].sort()).toEqual(EXPECTED_UNCOMPILABLE);
    // The library decides every case of the suite (where it cannot, it keeps everything and says so).
    expect(undecidable).toEqual([]);
  });
});

/** ajv 8.20 cannot compile these (with the reason it gives), so they have no verdict to keep. */
const EXPECTED_UNCOMPILABLE: string[] = [
  // "$dynamicRef" only supports hash fragment reference
  'draft2020-12 dynamicRef.json: A $dynamicRef that initially resolves to a schema with a matching $dynamicAnchor resolves to the first $dynamicAnchor in the dynamic scope',
  'draft2020-12 dynamicRef.json: A $dynamicRef that initially resolves to a schema without a matching $dynamicAnchor behaves like a normal $ref to $anchor',
  'draft2020-12 dynamicRef.json: after leaving a dynamic scope, it is not used by a $dynamicRef',
  // enum must have non-empty array
  'draft2020-12 enum.json: empty enum',
  // reference "…/my_identifier.json" resolves to more than one schema
  'draft2020-12 optional/unknownKeyword.json: $id inside an unknown keyword is not a real identifier',
  // Maximum call stack size exceeded (while compiling)
  'draft2020-12 ref.json: URN ref with nested pointer ref',
  'draft2020-12 ref.json: refs with relative uris and defs',
  'draft2020-12 ref.json: relative refs with absolute uris and defs',
  'draft7 optional/unknownKeyword.json: $id inside an unknown keyword is not a real identifier',
];
