/**
 * The JSON Schema Test Suite as an oracle for normalize-schema's null-union collapse. The suite holds no
 * `anyOf: [X, {"type": "null"}]` of its own, so every case's schema is put into that shape: below a
 * property `v` of an object, as the branch X beside the bare null schema (under `anyOf`, and under `oneOf`
 * in the other order), as the holder's own keywords beside a union of a plain `type` and null, and split between the two. An X
 * without `type` gets every non-null type but `object`, so its keywords are tried too. Each of the suite's instances
 * (as `{"v": data}`) and `{"v": null}` must get the same verdict from ajv before and after, and a fair share
 * of the shapes must actually collapse. The gate is off, so the rule itself is tested. ajv's verdict on the untouched wrapped schema is the expectation.
 */
import { describe, expect, it } from 'vitest';
import { loadJstsCases } from './helpers/jsts.js';
import { verdicts } from './helpers/ajv.js';
import { deepFreeze } from './helpers/freeze.js';
import { normalizeSchema } from '../src/index.js';

const URI = { draft7: 'http://json-schema.org/draft-07/schema#', 'draft2020-12': 'https://json-schema.org/draft/2020-12/schema' } as const;
// Not `object`: an object branch stays a union (the form strict clients want), so it is never tried.
const NON_NULL = ['array', 'boolean', 'number', 'string'];
const NULL = { type: 'null' };
type Schema = Record<string, unknown>;

/** The three shapes a case's schema is tried in: the holder of property `v`. */
const SHAPES: readonly (readonly [string, (s: Schema) => Schema])[] = [
  ['anyOf [X, null]', (s) => ({ anyOf: [typed(s), NULL] })],
  ['oneOf [null, X]', (s) => ({ description: 'v', oneOf: [NULL, typed(s)] })],
  ['beside anyOf [type, null]', (s) => ({ ...s, anyOf: [{ type: NON_NULL }, NULL] })],
  // Keywords that read a sibling (`additionalProperties` and `properties`…) end up on both sides.
  ['split between the holder and X', (s) => split(s)],
];

describe('JSON Schema Test Suite schemas as null unions under normalize-schema', () => {
  it.each(SHAPES)('%s: ajv’s verdict on every instance (and on null) is unchanged', (_name, shape) => {
    const failures: string[] = [];
    let collapsed = 0;
    let compared = 0;
    for (const c of loadJstsCases()) {
      // References and identifiers would change meaning once nested one level down.
      if (!isPlainObject(c.schema) || c.needsRemotes || /"\$(?:ref|id|anchor|dynamic|recursive|defs)|"definitions"|"id"/.test(JSON.stringify(c.schema))) continue;
      const { $schema: _ignored, ...inner } = c.schema;
      const root = deepFreeze({ $schema: URI[c.dialect], type: 'object', properties: { v: shape(inner) }, required: ['v'] });
      const data = [...c.tests.map((t) => ({ v: t.data })), { v: null }];
      const before = verdicts(root, data);
      if ('error' in before) continue;
      // The gate off: it would return a wrongly rewritten tool unchanged, and hide the rule's mistake.
      const result = normalizeSchema([{ name: 'case', inputSchema: root }], {}, { verify: false });
      const after = verdicts(result.tools[0]!.inputSchema, data);
      const label = `${c.dialect}/${c.file}: ${c.description}`;
      if (result.report.changes.some((ch) => ch.code === 'collapsed-null-union')) collapsed++;
      if ('error' in after) failures.push(`${label}: no longer compiles (${after.error})`);
      else
        for (const [i, d] of data.entries()) {
          compared++;
          if (after[i] !== before[i]) failures.push(`${label} / ${JSON.stringify(d)}: ajv said ${before[i]} before, ${after[i]} after: ${JSON.stringify((result.tools[0]!.inputSchema as Schema).properties)}`);
        }
    }
    expect(failures).toEqual([]);
    expect(compared).toBeGreaterThan(4000);
    // Most of the suite's schemas hold only keywords the collapse takes along.
    expect(collapsed).toBeGreaterThan(300);
  });
});

/** The schema with a `type` (every non-null type when it had none), so that the collapse may apply. */
function typed(s: Schema): Schema {
  return 'type' in s ? s : { type: NON_NULL, ...s };
}

/** The schema's keys at odd positions in the holder, the others (and a `type`) in X under `anyOf`. */
function split(s: Schema): Schema {
  const holder: Schema = {};
  const x: Schema = {};
  Object.keys(s).forEach((k, i) => ((i % 2 === 1 ? holder : x)[k] = s[k]));
  return { ...holder, anyOf: [typed(x), NULL] };
}

function isPlainObject(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
