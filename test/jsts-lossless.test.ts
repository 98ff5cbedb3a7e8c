/**
 * The JSON Schema Test Suite (test/data/jsts, a copy of ../shared/jsts) as an oracle: for every test group
 * of draft-07 and 2020-12, each preset must leave ajv's verdict on every instance unchanged. The
 * expectation is ajv's verdict on the untouched original schema (not the suite's `valid`, where ajv
 * disagrees with the suite).
 */
import { describe, expect, it } from 'vitest';
import { loadJstsCases, loadJstsRemotes, type JstsCase } from './helpers/jsts.js';
import { dedupeRepeatedSubtrees, presetLossless, presetMax, presetSafe, transformTools, type TransformStepInput } from '../src/index.js';
import { ajvDialectOf, makeAjv, type AjvDialect } from './helpers/ajv.js';

type SuiteCase = JstsCase;

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';
const cases: SuiteCase[] = loadJstsCases();
const remotes = loadJstsRemotes() as { uri: string; schema: object }[];

/**
 * Cases whose schema is a `$ref` to the draft-07 meta-schema, another document: after reconcile-dialect
 * the schema reads as 2020-12, whose readers do not carry the draft-07 meta-schema, so it cannot resolve.
 * The transform converts the schema it is given, not documents it references.
 */
const EXCEPTIONS: ReadonlySet<string> = new Set(['draft7/definitions.json: validate definition against metaschema', 'draft7/ref.json: remote ref, containing refs itself']);

const PRESETS: readonly (readonly [string, TransformStepInput])[] = [
  ['lossless', presetLossless],
  ['safe', presetSafe],
  // Deduplication with a low threshold so that the suite's small schemas exercise it too.
  ['max (dedupe minBytes 16)', [presetMax, { overrides: { 'dedupe-repeated-subtrees': { minBytes: 16 } } }]],
];

describe.each(PRESETS)('JSON Schema Test Suite under %s', (_name, step) => {
  it('keeps ajv’s verdict on every instance of every case, skips nothing, and is idempotent', () => {
    const failures: string[] = [];
    let compared = 0;
    let changedCases = 0;
    for (const c of cases) {
      const dialect: AjvDialect = c.dialect === 'draft7' ? 'draft7' : 'draft2020';
      const formats = c.file.startsWith('optional/format/') || c.file === 'optional/format-assertion.json';
      const label = `${c.dialect}/${c.file}: ${c.description}`;
      if (EXCEPTIONS.has(label)) continue;
      const before = originalVerdicts(c, dialect, formats);
      if ('error' in before) continue; // ajv cannot compile the original either: nothing to compare
      // A tool declares its dialect with `$schema`; a draft-07 case without one gets it stamped.
      const declared = c.dialect === 'draft7' && isPlainObject(c.schema) && !('$schema' in c.schema) ? { $schema: DRAFT_07, ...c.schema } : c.schema;
      const input = [{ name: 'case', inputSchema: declared }];
      const result = transformTools(input, { transforms: [step], measure: false });
      if (result.report.skipped.length > 0) {
        failures.push(`${label}: skipped (${result.report.skipped.map((s) => `${s.transform}: ${s.reason}`).join('; ')})`);
        continue;
      }
      if (result.report.changes.length > 0) changedCases++;
      const again = transformTools(result.tools, { transforms: [step], measure: false });
      if (again.report.changes.length > 0) failures.push(`${label}: not idempotent (${again.report.changes.map((ch) => `${ch.transform}/${ch.code} ${ch.path}`).join(', ')})`);
      // The rewritten schema is read in the dialect it now declares (reconcile-dialect moves draft-07 to 2020-12).
      // Untouched and unstamped: the very same schema, nothing to compile again.
      if (result.report.changes.length === 0 && declared === c.schema) {
        compared += c.tests.length;
        continue;
      }
      const after = verdictsOf(result.tools[0]!.inputSchema, ajvDialectOf(result.tools[0]!.inputSchema), formats, c.needsRemotes, c.tests);
      if ('error' in after) {
        failures.push(`${label}: the rewritten schema no longer compiles (${after.error})`);
        continue;
      }
      for (const [i, t] of c.tests.entries()) {
        // A draft-07 case now read as 2020-12 is compared where ajv's draft-07 reading agrees with the
        // suite: elsewhere ajv's "before" is ajv's own deviation (e.g. `$id` beside `$ref`), not the spec.
        if (c.dialect === 'draft7' && ajvDialectOf(result.tools[0]!.inputSchema) !== 'draft7' && c.ajvAgrees?.[i] === false) continue;
        compared++;
        if (after[i] !== before[i]) failures.push(`${label} / ${t.description}: ajv said ${before[i]} before, ${after[i]} after: ${JSON.stringify(result.tools[0]!.inputSchema)}`);
      }
    }
    expect(failures).toEqual([]);
    // The oracle saw real work: most of the suite compiles, and the presets changed a fair share of it.
    expect(compared).toBeGreaterThan(3000);
    expect(changedCases).toBeGreaterThan(50);
  });
});

const originals = new Map<SuiteCase, boolean[] | { error: string }>();

/** ajv's verdicts on the untouched schema, computed once for every preset. */
function originalVerdicts(c: SuiteCase, dialect: AjvDialect, formats: boolean): boolean[] | { error: string } {
  let v = originals.get(c);
  // Draft-07 as specified: keywords beside `$ref` are ignored (ajv applies them unless told not to), which
  // is the reading reconcile-dialect preserves.
  if (v === undefined) originals.set(c, (v = verdictsOf(c.schema, dialect, formats, c.needsRemotes, c.tests, dialect === 'draft7')));
  return v;
}

describe('JSON Schema Test Suite schemas repeated four times under dedupe-repeated-subtrees', () => {
  it('moves the repeats into definitions and keeps ajv’s verdict on every instance', () => {
    const failures: string[] = [];
    let deduped = 0;
    for (const c of cases) {
      // `allOf` of four copies accepts exactly what one copy accepts. References and identifiers would
      // change meaning once nested, so those schemas are left out.
      if (!isPlainObject(c.schema) || /"\$(?:ref|id|anchor|dynamic|recursive|defs)|"definitions"|"id"/.test(JSON.stringify(c.schema))) continue;
      const dialect: AjvDialect = c.dialect === 'draft7' ? 'draft7' : 'draft2020';
      const formats = c.file.startsWith('optional/format/') || c.file === 'optional/format-assertion.json';
      const before = originalVerdicts(c, dialect, formats);
      if ('error' in before) continue;
      const { $schema: _ignored, ...inner } = c.schema;
      const wrapped = { $schema: c.dialect === 'draft7' ? DRAFT_07 : 'https://json-schema.org/draft/2020-12/schema', allOf: [inner, inner, inner, inner] };
      const result = dedupeRepeatedSubtrees([{ name: 'case', inputSchema: wrapped }], { minBytes: 1 }, { measure: false });
      const label = `${c.dialect}/${c.file}: ${c.description}`;
      if (result.report.skipped.length > 0) failures.push(`${label}: skipped`);
      if (result.report.changes.length === 0) continue;
      deduped++;
      const after = verdictsOf(result.tools[0]!.inputSchema, ajvDialectOf(result.tools[0]!.inputSchema), formats, c.needsRemotes, c.tests);
      if ('error' in after) failures.push(`${label}: no longer compiles (${after.error})`);
      else for (const [i, t] of c.tests.entries()) if (after[i] !== before[i]) failures.push(`${label} / ${t.description}: ajv said ${before[i]} before, ${after[i]} after`);
    }
    expect(failures).toEqual([]);
    expect(deduped).toBeGreaterThan(150);
  });
});

function verdictsOf(schema: unknown, dialect: AjvDialect, formats: boolean, needsRemotes: boolean, tests: SuiteCase['tests'], ignoreKeywordsWithRef = false): boolean[] | { error: string } {
  try {
    const ajv = makeAjv(dialect, formats, ignoreKeywordsWithRef ? { ignoreKeywordsWithRef: true } : {});
    if (needsRemotes) {
      for (const r of remotes) {
        try {
          ajv.addSchema(r.schema, r.uri);
        } catch {
          // A remote written for another dialect: the cases of this dialect do not use it.
        }
      }
    }
    const validate = ajv.compile(schema as object);
    return tests.map((t) => validate(t.data) as boolean);
  } catch (e) {
    return { error: (e as Error).message };
  }
}


function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
