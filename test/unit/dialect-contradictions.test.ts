/** findDialectContradictions: hand-written documents, hand-written findings. */
import { describe, expect, it } from 'vitest';
import { dialectFromUri, findDialectContradictions, findToolsDialectContradictions, keywordFit } from '../../src/index.js';

const brief = (schema: unknown, assume?: 'openapi-3.0' | 'draft-07') =>
  findDialectContradictions(schema, assume ? { assume } : {}).map((c) => [c.kind, c.path, c.dialect, c.source, c.expected.join(',')]);

describe('findDialectContradictions', () => {
  it('finds draft-07 usage in a document declared 2020-12', () => {
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      properties: {
        t: { items: [{}], additionalItems: false },
        d: { dependencies: { a: ['b'] } },
        n: { exclusiveMinimum: true, minimum: 1 },
        i: { id: 'x.json' },
        definitions: { type: 'string' },
      },
      definitions: { A: { definitions: {} } },
    };
    expect(brief(schema)).toEqual([
      ['deprecated', '/definitions', '2020-12', 'declared', 'draft-04,draft-06,draft-07'],
      ['misfit', '/properties/t/items', '2020-12', 'declared', 'draft-04,draft-06,draft-07,2019-09'],
      ['foreign', '/properties/t/additionalItems', '2020-12', 'declared', 'draft-04,draft-06,draft-07,2019-09,openapi-3.0'],
      ['deprecated', '/properties/d/dependencies', '2020-12', 'declared', 'draft-04,draft-06,draft-07,openapi-3.0'], // 2020-12's meta-schema still describes it (and ajv enforces it), as deprecated
      ['misfit', '/properties/n/exclusiveMinimum', '2020-12', 'declared', 'draft-04,openapi-3.0'],
      ['foreign', '/properties/i/id', '2020-12', 'declared', 'draft-04'],
      ['deprecated', '/definitions/A/definitions', '2020-12', 'declared', 'draft-04,draft-06,draft-07'],
    ]);
  });

  it('finds 2019-09/2020-12 keywords in a document declared draft-07, but not their annotations', () => {
    const schema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      $defs: {},
      prefixItems: [{}],
      properties: { a: { dependentRequired: { x: ['y'] }, unevaluatedProperties: false, deprecated: true, $comment: 'fine' } },
    };
    expect(brief(schema)).toEqual([
      ['foreign', '/$defs', 'draft-07', 'declared', '2019-09,2020-12'],
      ['foreign', '/prefixItems', 'draft-07', 'declared', '2020-12'],
      ['foreign', '/properties/a/dependentRequired', 'draft-07', 'declared', '2019-09,2020-12'],
      ['foreign', '/properties/a/unevaluatedProperties', 'draft-07', 'declared', '2019-09,2020-12'],
    ]);
  });

  it('reads a document without $schema as 2020-12 (or as told), and OpenAPI nullable as foreign there', () => {
    const schema = { type: 'object', properties: { a: { type: 'string', nullable: true }, b: { type: 'number', exclusiveMaximum: true, maximum: 2 } } };
    expect(brief(schema)).toEqual([
      ['foreign', '/properties/a/nullable', '2020-12', 'assumed', 'openapi-3.0'],
      ['misfit', '/properties/b/exclusiveMaximum', '2020-12', 'assumed', 'draft-04,openapi-3.0'],
    ]);
    expect(brief(schema, 'openapi-3.0')).toEqual([]);
  });

  it('judges a subschema with its own $schema by it, and skips one it does not know', () => {
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      properties: {
        old: { $schema: 'http://json-schema.org/draft-07/schema#', $id: 'old.json', items: [{}], prefixItems: [] },
        custom: { $schema: 'https://example.com/meta', items: [{}] },
      },
    };
    expect(brief(schema)).toEqual([['foreign', '/properties/old/prefixItems', 'draft-07', 'declared', '2020-12']]);
  });

  it('reports nothing for a clean document, a property named like a keyword, or an unknown $schema', () => {
    expect(brief({ type: 'object', properties: { definitions: { type: 'string' }, items: { type: 'array', items: { type: 'string' } } }, $defs: { A: {} } })).toEqual([]);
    expect(brief({ $schema: 'https://example.com/meta', definitions: {}, items: [{}] })).toEqual([]);
    expect(brief(true)).toEqual([]);
  });

  it('finds contradictions tool by tool', () => {
    const tools = [
      { name: 'ok', inputSchema: { type: 'object' } },
      { name: 'bad', inputSchema: { type: 'object', definitions: {} }, outputSchema: { $schema: 'http://json-schema.org/draft-07/schema#', $defs: {} } },
    ];
    expect(findToolsDialectContradictions(tools).map((t) => [t.tool, t.toolIndex, t.slot, t.contradictions.length])).toEqual([
      ['bad', 1, 'inputSchema', 1],
      ['bad', 1, 'outputSchema', 1],
    ]);
  });
});

describe('dialect helpers', () => {
  it('reads $schema URIs tolerantly', () => {
    expect(dialectFromUri('http://json-schema.org/draft-07/schema#')).toBe('draft-07');
    expect(dialectFromUri('https://json-schema.org/draft-07/schema')).toBe('draft-07');
    expect(dialectFromUri('https://json-schema.org/draft/2020-12/schema#')).toBe('2020-12');
    expect(dialectFromUri('http://json-schema.org/draft/2019-09/schema')).toBe('2019-09');
    expect(dialectFromUri('http://json-schema.org/draft-04/schema#')).toBe('draft-04');
    expect(dialectFromUri('https://example.com/schema')).toBeUndefined();
  });

  it('tells keyword forms apart', () => {
    expect(keywordFit('2020-12', 'items', [{}])).toBe('misfit');
    expect(keywordFit('draft-07', 'items', [{}])).toBe('fits');
    expect(keywordFit('draft-07', 'prefixItems', [])).toBe('unknown');
    expect(keywordFit('draft-04', 'exclusiveMinimum', true)).toBe('fits');
    expect(keywordFit('draft-07', 'exclusiveMinimum', true)).toBe('misfit');
    expect(keywordFit('openapi-3.0', 'nullable', true)).toBe('fits');
  });
});
