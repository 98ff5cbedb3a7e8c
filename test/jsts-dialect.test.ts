/**
 * reconcile-dialect against the JSON Schema Test Suite (test/data/jsts): a converted schema, read by ajv
 * in the target dialect, must give the verdict the original gave in its own dialect, on every instance
 * where ajv agrees with the suite. The expectations are ajv's verdicts on the untouched originals.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { loadJstsCases, loadJstsRemotes, type JstsCase } from './helpers/jsts.js';
import { applyToSchema, hoistNestedDefs, reconcileDialect, type Diagnostic, type JsonSchema } from '../src/index.js';
import { deepFreeze } from './helpers/freeze.js';

const addFormats = ((formatsModule as unknown as { default?: unknown }).default ?? formatsModule) as (ajv: unknown) => void;

interface Case extends JstsCase {
  readonly schema: JsonSchema;
}

interface Exception {
  readonly direction: string;
  readonly file: string;
  readonly description: string;
  readonly reason: string;
}

const cases: Case[] = loadJstsCases().map((c) => deepFreeze(c as Case));
const exceptions: Exception[] = JSON.parse(readFileSync(join(import.meta.dirname, 'data', 'jsts-dialect-exceptions.json'), 'utf8'));

/** Every remote document of the suite, by the URI the suite serves it at. */
const remotes: { uri: string; schema: JsonSchema }[] = loadJstsRemotes().map((r) => ({ uri: r.uri, schema: deepFreeze(r.schema as JsonSchema) }));

/** The draft-07 meta-schema, as ajv ships it: a remote a converted schema may still reference. */
const DRAFT7_META = deepFreeze(JSON.parse(readFileSync(join(import.meta.dirname, '..', 'node_modules', 'ajv', 'dist', 'refs', 'json-schema-draft-07.json'), 'utf8')) as JsonSchema);

const DRAFT7_META_2020 = applyToSchema(reconcileDialect, DRAFT7_META, {}).schema;

type Direction = 'draft7→2020-12' | '2020-12→draft7' | 'draft7→2020-12→draft7' | 'draft7→2020-12+hoist';

function usesFormats(file: string): boolean {
  return file.startsWith('optional/format/') || file === 'optional/format-assertion.json';
}

/**
 * A fresh ajv of the reading dialect (the suite's setup: strict off, no logger; schemas are not checked
 * against their meta-schema, which costs 50 ms per instance and never changes a verdict) with the suite's
 * remotes as they are: a client converts the tool schemas it is given, not the documents they reference.
 * A 2020-12 reader of a converted draft-07 schema may still meet the draft-07 meta-schema by reference, so
 * that one is added converted.
 */
function makeAjv(reading: 'draft7' | 'draft2020', file: string, schema: JsonSchema, metaFor2020?: JsonSchema): InstanceType<typeof Ajv> | InstanceType<typeof Ajv2020> {
  const opts = { strict: false, logger: false as const, validateSchema: false };
  const ajv = reading === 'draft7' ? new Ajv(opts) : new Ajv2020(opts);
  if (usesFormats(file)) addFormats(ajv);
  const text = JSON.stringify(schema);
  if (metaFor2020 !== undefined && text.includes('json-schema.org/draft-07/schema')) ajv.addSchema(metaFor2020 as object, undefined, undefined, false);
  // Only a schema that names the remote host can reach a remote (adding them all costs time, not verdicts).
  if (!text.includes('localhost:1234')) return ajv;
  for (const r of remotes) {
    try {
      ajv.addSchema(r.schema as object, r.uri, undefined, false);
    } catch {
      // a remote this reader cannot register (its id is taken); no case of this dialect uses it
    }
  }
  return ajv;
}

function verdictsOf(ajv: InstanceType<typeof Ajv> | InstanceType<typeof Ajv2020>, schema: JsonSchema, data: readonly unknown[]): boolean[] | { error: string } {
  try {
    const validate = ajv.compile(schema as object);
    return data.map((d) => validate(d) as boolean);
  } catch (e) {
    return { error: (e as Error).message };
  }
}

function to2020(schema: JsonSchema): { schema: JsonSchema; diagnostics: readonly Diagnostic[] } {
  const r = applyToSchema(reconcileDialect, schema, {});
  return { schema: r.schema, diagnostics: r.report.diagnostics };
}

function to07(schema: JsonSchema): { schema: JsonSchema; diagnostics: readonly Diagnostic[] } {
  const r = applyToSchema(reconcileDialect, schema, { target: 'draft-07' });
  return { schema: r.schema, diagnostics: r.report.diagnostics };
}

function to2020Hoisted(schema: JsonSchema): { schema: JsonSchema; diagnostics: readonly Diagnostic[] } {
  const a = applyToSchema(reconcileDialect, schema, {});
  const b = applyToSchema(hoistNestedDefs, a.schema, { refTargets: true });
  return { schema: b.schema, diagnostics: [...a.report.diagnostics, ...b.report.diagnostics] };
}

const originals = new Map<Case, boolean[] | { error: string }>();

/** ajv's verdicts on an untouched case in its own dialect (computed once). */
function originalVerdicts(c: Case): boolean[] | { error: string } {
  let v = originals.get(c);
  if (v === undefined) {
    v = verdictsOf(makeAjv(c.dialect === 'draft7' ? 'draft7' : 'draft2020', c.file, c.schema), c.schema, c.tests.map((t) => t.data));
    originals.set(c, v);
  }
  return v;
}

interface Outcome {
  readonly checked: number;
  readonly mismatches: string[];
  readonly unconvertible: string[];
  readonly excepted: string[];
  /** The exceptions that excused at least one verdict. */
  readonly used: Set<Exception>;
}

function run(direction: Direction): Outcome {
  const from = direction === '2020-12→draft7' ? 'draft2020-12' : 'draft7';
  const mismatches: string[] = [];
  const unconvertible: string[] = [];
  const excepted: string[] = [];
  const used = new Set<Exception>();
  let checked = 0;
  for (const c of cases) {
    if (c.dialect !== from) continue;
    const label = `${c.file} / ${c.description}`;
    const excused = exceptions.find((e) => e.direction === direction && e.file === c.file && e.description === c.description);
    const data = c.tests.map((t) => t.data);
    const original = originalVerdicts(c);
    if (!Array.isArray(original)) continue;
    let converted: JsonSchema;
    let reading: 'draft7' | 'draft2020';
    if (direction === 'draft7→2020-12') {
      const r = to2020(c.schema);
      converted = r.schema;
      reading = 'draft2020';
      if (r.diagnostics.some((d) => d.severity === 'error')) unconvertible.push(label);
    } else if (direction === 'draft7→2020-12+hoist') {
      const r = to2020Hoisted(c.schema);
      converted = r.schema;
      reading = 'draft2020';
      if (r.diagnostics.some((d) => d.severity === 'error')) unconvertible.push(label);
    } else if (direction === '2020-12→draft7') {
      const r = to07(c.schema);
      converted = r.schema;
      reading = 'draft7';
      if (r.diagnostics.some((d) => d.severity === 'error' || d.code === 'unknown-dialect')) {
        // Left in place with an error diagnostic (or, with an unknown meta-schema, not touched): no verdict is claimed.
        unconvertible.push(label);
        continue;
      }
    } else {
      const there = to2020(c.schema);
      const back = to07(there.schema);
      converted = back.schema;
      reading = 'draft7';
      if ([...there.diagnostics, ...back.diagnostics].some((d) => d.severity === 'error')) unconvertible.push(label);
    }
    const after = verdictsOf(makeAjv(reading, c.file, converted, reading === 'draft2020' ? DRAFT7_META_2020 : undefined), converted, data);
    for (let i = 0; i < c.tests.length; i++) {
      if (!c.ajvAgrees[i]) continue;
      checked++;
      const got = Array.isArray(after) ? after[i] : after.error;
      if (got === original[i]) continue;
      const line = `${label} / ${c.tests[i]!.description}: expected ${original[i]}, got ${JSON.stringify(got)} from ${JSON.stringify(converted)}`;
      if (excused) {
        excepted.push(line);
        used.add(excused);
      } else mismatches.push(line);
    }
  }
  return { checked, mismatches, unconvertible, excepted, used };
}

const outcomes = new Map<Direction, Outcome>();

function outcome(direction: Direction): Outcome {
  let o = outcomes.get(direction);
  if (o === undefined) {
    o = run(direction);
    outcomes.set(direction, o);
  }
  return o;
}

describe('JSON Schema Test Suite across dialects', () => {
  it('keeps every draft-07 verdict when converted to 2020-12 and read by Ajv2020', () => {
    const o = outcome('draft7→2020-12');
    expect(o.mismatches).toEqual([]);
    expect(o.unconvertible).toEqual([]);
    expect(o.checked).toBeGreaterThan(1000);
  });

  it('keeps every draft-07 verdict when converted to 2020-12 and hoisted (refTargets)', () => {
    const o = outcome('draft7→2020-12+hoist');
    expect(o.mismatches).toEqual([]);
    expect(o.checked).toBeGreaterThan(1000);
  });

  it('keeps every 2020-12 verdict when converted to draft-07 and read by draft-07 Ajv (unless it reports the schema unconvertible)', () => {
    const o = outcome('2020-12→draft7');
    expect(o.mismatches).toEqual([]);
    expect(o.checked).toBeGreaterThan(1000);
    // What draft-07 cannot express is reported, never silently dropped: those cases exist in the suite.
    expect(o.unconvertible.length).toBeGreaterThan(10);
  });

  it('keeps every draft-07 verdict on the round trip draft-07 → 2020-12 → draft-07', () => {
    const o = outcome('draft7→2020-12→draft7');
    expect(o.mismatches).toEqual([]);
    expect(o.unconvertible).toEqual([]);
    expect(o.checked).toBeGreaterThan(1000);
  });

  it('keeps its exceptions list short, each with a reason, each still needed', () => {
    expect(exceptions.length).toBeLessThanOrEqual(5);
    for (const e of exceptions) {
      expect(e.reason.length, `${e.file} / ${e.description}`).toBeGreaterThan(20);
      expect(outcome(e.direction as Direction).used.has(e), `exception no longer needed: ${e.direction} ${e.file} / ${e.description}`).toBe(true);
    }
  });
});
