/**
 * The typescript reader, one hand-written case per keyword class. Each expected text was written from the
 * harmony rules (openai/harmony src/encoding.rs, `json_schema_to_typescript`; docs/render.md lists them),
 * not from this renderer's output — including harmony's quirks (an object's description written twice, a
 * union's lines indented by three spaces, `[]` after the last union line).
 */
import { describe, expect, it } from 'vitest';
import { findAnyTypes, getRenderer, type AnyType } from '../../src/index.js';

const ts = getRenderer('typescript');
const lines = (...l: string[]) => l.join('\n');
/** The `(_: …)` text of a tool whose inputSchema is `schema`. */
const params = (schema: unknown) => {
  const block = ts.renderTool({ name: 't', inputSchema: schema });
  const m = /^type t = \(_: ([\s\S]*)\) => any;\n$/.exec(block);
  if (!m) throw new Error(`unexpected block: ${block}`);
  return m[1];
};
const obj = (properties: Record<string, unknown>, required: string[] = []) => ({ type: 'object', properties, required });

interface Case {
  readonly name: string;
  readonly schema: unknown;
  readonly text: string;
  readonly any: readonly AnyType[];
}

const CASES: readonly Case[] = [
  {
    name: '$ref is any (its $defs are not shown)',
    schema: { ...obj({ a: { $ref: '#/$defs/A', description: 'An A' } }, ['a']), $defs: { A: { type: 'string' } } },
    text: lines('{', '// An A', 'a: any,', '}'),
    any: [{ path: '/properties/a', reason: 'ref' }],
  },
  {
    name: 'anyOf is any; a null default is written as JSON',
    schema: obj({ v: { anyOf: [{ type: 'string' }, { type: 'null' }], default: null } }),
    text: lines('{', 'v?: any, // default: null', '}'),
    any: [{ path: '/properties/v', reason: 'anyOf' }],
  },
  {
    name: 'allOf is any; title is a comment with an empty comment line under it',
    schema: obj({ w: { allOf: [{ type: 'string' }], title: 'W' } }),
    text: lines('{', '// W', '//', 'w?: any,', '}'),
    any: [{ path: '/properties/w', reason: 'allOf' }],
  },
  {
    name: 'const is any',
    schema: obj({ c: { const: 'x' } }, ['c']),
    text: lines('{', 'c: any,', '}'),
    any: [{ path: '/properties/c', reason: 'const' }],
  },
  {
    name: 'oneOf on a property: a union, one line per variant, variant comments after it',
    schema: obj({ u: { oneOf: [{ type: 'string', description: 'a name' }, { type: 'integer' }] } }),
    text: lines('{', 'u?:', ' | string // a name', ' | number', ',', '}'),
    any: [],
  },
  {
    name: 'oneOf variants that are objects are indented by three spaces; type "null" is any',
    schema: obj({ o: { oneOf: [obj({ x: { type: 'string' } }, ['x']), { type: 'null' }] } }),
    text: lines('{', 'o?:', ' | {', '   x: string,', '   }', ' | any', ',', '}'),
    any: [{ path: '/properties/o/oneOf/1', reason: 'unknown-type' }],
  },
  {
    name: 'oneOf property: its description and default above the name; the first variant’s equal description is not repeated',
    schema: obj({ p: { description: 'same', default: 's', oneOf: [{ type: 'string', description: 'same' }, { type: 'number', description: 'other' }] } }),
    text: lines('{', '// default: "s"', 'p?:', ' | string', ' | number // other', ',', '}'),
    any: [],
  },
  {
    name: 'oneOf property: a variant’s string default under an enum is written bare',
    schema: obj({ p: { description: 'pick', oneOf: [{ type: 'string', enum: ['x', 'y'], default: 'x' }, { type: 'boolean', default: false }] } }),
    text: lines('{', '// pick', 'p?:', ' | "x" | "y" // default: x', ' | boolean // default: false', ',', '}'),
    any: [],
  },
  {
    name: 'oneOf met as a schema (array items): lines start with a newline and the indent; `[]` follows the last; an enum default is JSON',
    schema: obj({ arr: { type: 'array', items: { oneOf: [{ type: 'string', enum: ['a'], default: 'a' }, { type: 'number', default: 1, description: 'n' }] } } }),
    text: lines('{', 'arr?: ', '     | "a" // default: "a"', '     | number // n default: 1[],', '}'),
    any: [],
  },
  {
    name: 'a oneOf that is not an array: the property loses its description and default, and is any',
    schema: obj({ q: { oneOf: {}, description: 'D', default: 1 } }),
    text: lines('{', 'q?: any,', '}'),
    any: [{ path: '/properties/q', reason: 'no-type' }],
  },
  {
    name: 'string enum: quoted values; a string default under an enum is written bare; non-strings are left out',
    schema: obj({ e: { type: 'string', enum: ['a', 'b'], default: 'a' }, f: { type: 'string', enum: ['x', 1, null] }, g: { type: 'string', enum: [2] } }),
    text: lines('{', 'e?: "a" | "b", // default: a', 'f?: "x",', 'g?: string,', '}'),
    any: [],
  },
  {
    name: 'number enum: `number` under a type, any without one; a string enum without type is any too',
    schema: obj({ n: { type: 'integer', enum: [1, 2] }, m: { enum: [1, 2] }, s: { enum: ['x', 'y'] } }),
    text: lines('{', 'n?: number,', 'm?: any,', 's?: any,', '}'),
    any: [
      { path: '/properties/m', reason: 'number-enum' },
      { path: '/properties/s', reason: 'enum' },
    ],
  },
  {
    name: 'type arrays: names joined, integer → number; object and array stay bare words',
    schema: obj({
      a: { type: ['string', 'null'] },
      b: { type: ['integer', 'string'] },
      c: { type: ['object', 'null'], properties: { hidden: { type: 'string' } } },
      d: { type: ['array', 'null'], items: { type: 'string' } },
      e: { type: [] },
    }),
    text: lines('{', 'a?: string | null,', 'b?: number | string,', 'c?: object | null,', 'd?: array | null,', 'e?: any,', '}'),
    any: [
      { path: '/properties/c', reason: 'nullable-object' },
      { path: '/properties/d', reason: 'nullable-array' },
      { path: '/properties/e', reason: 'no-type' },
    ],
  },
  {
    name: 'OpenAPI nullable adds `| null` unless the type already says null',
    schema: obj({ a: { type: 'string', nullable: true }, b: { type: ['string', 'null'], nullable: true }, c: { type: 'number', nullable: 'yes' } }),
    text: lines('{', 'a?: string | null,', 'b?: string | null,', 'c?: number,', '}'),
    any: [],
  },
  {
    name: 'nested objects: an object’s description is written above the property and again before its brace; deeper levels indent by four',
    schema: obj(
      {
        outer: {
          type: 'object',
          description: 'The outer',
          properties: { inner: { type: 'string', description: 'The inner' }, deep: obj({ z: { type: 'boolean' } }, ['z']) },
          required: ['inner'],
        },
      },
      ['outer'],
    ),
    text: lines('{', '// The outer', 'outer:     // The outer', '{', '    // The inner', '    inner: string,', '    deep?: {', '        z: boolean,', '        },', '    },', '}'),
    any: [],
  },
  {
    name: 'arrays: items + [], nested arrays, object items, no items is Array<any>',
    schema: obj({ s: { type: 'array', items: { type: 'string' } }, nn: { type: 'array', items: { type: 'array', items: { type: 'integer' } } }, o: { type: 'array', items: obj({ a: { type: 'number' } }) }, x: { type: 'array' } }),
    text: lines('{', 's?: string[],', 'nn?: number[][],', 'o?: {', '    a?: number,', '    }[],', 'x?: Array<any>,', '}'),
    any: [],
  },
  {
    name: 'defaults of every JSON type',
    schema: obj({
      s: { type: 'string', default: 'x' },
      n: { type: 'integer', default: 10 },
      b: { type: 'boolean', default: true },
      o: { type: 'object', default: { a: 1, b: [1, 'two'] } },
      a: { type: 'array', items: { type: 'number' }, default: [1, 2] },
    }),
    text: lines('{', 's?: string, // default: "x"', 'n?: number, // default: 10', 'b?: boolean, // default: true', 'o?: {', '    }, // default: {"a":1,"b":[1,"two"]}', 'a?: number[], // default: [1,2]', '}'),
    any: [],
  },
  {
    name: 'title, description and string examples as comments; non-string examples left out',
    schema: obj({ t: { type: 'string', title: 'T', description: 'D', examples: ['e1', 2, 'e2'] }, u: { type: 'number', examples: [1] } }),
    text: lines('{', '// T', '//', '// D', '// Examples:', '// - "e1"', '// - "e2"', 't?: string,', '// Examples:', 'u?: number,', '}'),
    any: [],
  },
  {
    name: 'additionalProperties, format, pattern, bounds, $defs, $schema and x-* are not shown',
    schema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      additionalProperties: false,
      $defs: { X: { type: 'string' } },
      'x-vendor': { a: 1 },
      properties: {
        s: { type: 'string', format: 'uri', pattern: '^a', minLength: 1, maxLength: 5, 'x-note': 'n' },
        n: { type: 'number', minimum: 0, maximum: 1, exclusiveMinimum: 0, multipleOf: 0.5 },
        l: { type: 'array', items: { type: 'string' }, minItems: 1, uniqueItems: true },
      },
      required: ['s', 'n'],
    },
    text: lines('{', 's: string,', 'n: number,', 'l?: string[],', '}'),
    any: [],
  },
  {
    name: 'unknown keywords are not shown; an unknown type is any',
    schema: obj({ a: { type: 'string', frobnicate: { deep: [1] } }, b: { type: 'date' } }),
    text: lines('{', 'a?: string,', 'b?: any,', '}'),
    any: [{ path: '/properties/b', reason: 'unknown-type' }],
  },
  {
    name: 'required lists only its strings; property names are written as they are',
    schema: { type: 'object', properties: { 'a b': { type: 'string' }, 'c/d': { type: 'string' } }, required: ['a b', 3] },
    text: lines('{', 'a b: string,', 'c/d?: string,', '}'),
    any: [],
  },
  {
    name: 'an empty schema and an open object',
    schema: obj({ e: {}, o: { type: 'object' } }),
    text: lines('{', 'e?: any,', 'o?: {', '    },', '}'),
    any: [{ path: '/properties/e', reason: 'no-type' }],
  },
  {
    name: 'pointers escape ~ and /',
    schema: obj({ 'a/b~c': { $ref: '#/x' } }),
    text: lines('{', 'a/b~c?: any,', '}'),
    any: [{ path: '/properties/a~1b~0c', reason: 'ref' }],
  },
];

describe('typescript reader: keyword classes (hand-written)', () => {
  for (const c of CASES) {
    it(c.name, () => {
      expect(params(c.schema)).toBe(c.text);
      expect(findAnyTypes(c.schema)).toEqual(c.any);
    });
  }
});

describe('typescript reader: the tool block', () => {
  it('description lines as Rust `lines()` splits them: CRLF, blank lines, no trailing empty line', () => {
    expect(ts.renderTool({ name: 'f', description: 'Line one\r\n\nLine three\n', inputSchema: { type: 'object' } })).toBe(lines('// Line one', '// ', '// Line three', 'type f = (_: {', '}) => any;', ''));
    // Rust's own doc example: "foo\nbar\n\r\nbaz\r" → "foo", "bar", "", "baz\r".
    expect(ts.renderTool({ name: 'f', description: 'foo\nbar\n\r\nbaz\r' })).toBe(lines('// foo', '// bar', '// ', '// baz\r', 'type f = () => any;', ''));
  });

  it('no description, no comment; no inputSchema (or null), no parameters', () => {
    expect(ts.renderTool({ name: 'f' })).toBe('type f = () => any;\n');
    expect(ts.renderTool({ name: 'f', description: '', inputSchema: null })).toBe('type f = () => any;\n');
    expect(findAnyTypes(undefined)).toEqual([]);
  });

  it('a root schema that is not an object type renders as that type', () => {
    expect(params({})).toBe('any');
    expect(findAnyTypes({})).toEqual([{ path: '', reason: 'no-type' }]);
    expect(params({ type: 'string' })).toBe('string');
    expect(params(true)).toBe('any');
    expect(params([1])).toBe('any');
    expect(params('x')).toBe('any');
  });

  it('an object’s root description comes before its brace', () => {
    expect(params({ type: 'object', description: 'Params', properties: { a: { type: 'string' } } })).toBe(lines('// Params', '{', 'a?: string,', '}'));
  });

  it('the section: header, namespace, one block per tool with a blank line between', () => {
    const tools = [{ name: 'a', description: 'A' }, { name: 'b', inputSchema: { type: 'object', properties: { x: { type: 'boolean' } }, required: ['x'] } }];
    expect(ts.renderTools(tools)).toBe(lines('## functions', '', 'namespace functions {', '', '// A', 'type a = () => any;', '', 'type b = (_: {', 'x: boolean,', '}) => any;', '', '} // namespace functions'));
  });
});
