import fc from 'fast-check';
import traverse from 'json-schema-traverse';
import { describe, expect, it } from 'vitest';
import { collectRefInventory, KEYWORD_TABLES, UNION_KEYWORDS } from '../../src/index.js';
import { placePointer, someSubschema, visitSchemaObjects, walkJson, walkSchema } from '../../src/schema/walk.js';

type Visit = [path: string, keyword: string | undefined];

function visits(root: unknown, table = UNION_KEYWORDS): { schemas: Visit[]; opaque: [string, string][] } {
  const schemas: Visit[] = [];
  const opaque: [string, string][] = [];
  walkSchema(root, '', {
    table,
    onSchema: (_node, path, keyword) => void schemas.push([path, keyword]),
    onOpaque: (keyword, _value, path) => void opaque.push([keyword, path]),
  });
  return { schemas, opaque };
}

describe('walkSchema', () => {
  it('visits in preorder, keys in document order, with the keyword that led there', () => {
    const schema = {
      type: 'object',
      properties: { b: { anyOf: [{ type: 'string' }, true] }, a: { items: { not: {} } } },
      $defs: { D: { $ref: '#' } },
      additionalProperties: false,
    };
    expect(visits(schema).schemas).toEqual([
      ['', undefined],
      ['/properties/b', 'properties'],
      ['/properties/b/anyOf/0', 'anyOf'],
      ['/properties/b/anyOf/1', 'anyOf'],
      ['/properties/a', 'properties'],
      ['/properties/a/items', 'items'],
      ['/properties/a/items/not', 'not'],
      ['/$defs/D', '$defs'],
      ['/additionalProperties', 'additionalProperties'],
    ]);
  });

  it('handles every keyword shape', () => {
    const schema = {
      not: {},
      allOf: [{}, {}],
      properties: { 'a/b': {} },
      items: [{}, {}],
      dependencies: { x: { type: 'string' }, y: ['x'] },
      enum: [{ type: 'not a schema' }],
      'x-ext': { properties: {} },
      unknownKeyword: {},
    };
    const { schemas, opaque } = visits(schema);
    expect(schemas.map((s) => s[0])).toEqual(['', '/not', '/allOf/0', '/allOf/1', '/properties/a~1b', '/items/0', '/items/1', '/dependencies/x']);
    expect(opaque).toEqual([
      ['dependencies', '/dependencies/y'],
      ['enum', '/enum'],
      ['x-ext', '/x-ext'],
      ['unknownKeyword', '/unknownKeyword'],
      ['type', '/dependencies/x/type'],
    ]);
    // items as one schema
    expect(visits({ items: { type: 'string' } }).schemas.map((s) => s[0])).toEqual(['', '/items']);
  });

  it('hands values of the wrong shape to onOpaque instead of descending', () => {
    const { schemas, opaque } = visits({ anyOf: { $ref: '#/x' }, properties: [1], not: [{ $ref: '#/y' }] });
    expect(opaque).toEqual([
      ['anyOf', '/anyOf'],
      ['properties', '/properties'],
      ['not', '/not'],
    ]);
    expect(schemas.map((s) => s[0])).toEqual(['', '/not']);
  });

  it('reads with the given dialect’s table', () => {
    const schema = { prefixItems: [{}], $defs: { A: {} }, dependentSchemas: { a: {} } };
    expect(visits(schema, KEYWORD_TABLES['draft-07']).schemas.map((s) => s[0])).toEqual(['']);
    expect(visits(schema, KEYWORD_TABLES['2020-12']).schemas.map((s) => s[0])).toEqual(['', '/prefixItems/0', '/$defs/A', '/dependentSchemas/a']);
  });

  it('skips the children of a node when the visitor returns false', () => {
    const seen: string[] = [];
    walkSchema({ properties: { a: { not: {} }, b: {} } }, '', { onSchema: (_n, p) => (seen.push(p), p !== '/properties/a') });
    expect(seen).toEqual(['', '/properties/a', '/properties/b']);
  });

  it('prefixes paths with basePath', () => {
    const seen: string[] = [];
    walkSchema({ not: {} }, '/0/inputSchema', { onSchema: (_n, p) => void seen.push(p) });
    expect(seen).toEqual(['/0/inputSchema', '/0/inputSchema/not']);
  });

  it('never touches `__proto__` as anything but a property name', () => {
    const schema = JSON.parse('{"properties":{"__proto__":{"not":{}}},"__proto__":{"not":{}}}');
    expect(visits(schema).schemas.map((s) => s[0])).toEqual(['', '/properties/__proto__', '/properties/__proto__/not']);
    expect(Object.getPrototypeOf(schema)).toBe(Object.prototype);
  });

  it('walks 100,000 levels of nesting without a stack overflow', () => {
    const depth = 100_000;
    let schema: Record<string, unknown> = { $ref: '#/$defs/Leaf' };
    for (let i = 0; i < depth; i++) schema = i % 2 === 0 ? { not: schema } : { properties: { p: schema } };
    let count = 0;
    walkSchema(schema, '', { onSchema: () => void count++ });
    expect(count).toBe(depth + 1);
    expect(collectRefInventory(schema, '2020-12').refs).toHaveLength(1);
    let values = 0;
    let json: unknown = 'leaf';
    for (let i = 0; i < depth; i++) json = [json];
    walkJson(json, '', () => void values++);
    expect(values).toBe(depth + 1);
  });
});

describe('walkJson', () => {
  it('visits every value in preorder, keys in order', () => {
    const seen: [string, unknown][] = [];
    walkJson({ a: [1, { b: null }], c: 'x' }, '/base', (v, p) => void seen.push([p, typeof v === 'object' && v !== null ? (Array.isArray(v) ? 'array' : 'object') : v]));
    expect(seen).toEqual([
      ['/base', 'object'],
      ['/base/a', 'array'],
      ['/base/a/0', 1],
      ['/base/a/1', 'object'],
      ['/base/a/1/b', null],
      ['/base/c', 'x'],
    ]);
  });
});

describe('the draft-07 keyword table against json-schema-traverse', () => {
  // Read its tables; never write to them (ajv shares the module).
  const t = traverse as unknown as Record<'keywords' | 'arrayKeywords' | 'propsKeywords' | 'skipKeywords', Record<string, true>>;
  const draft07 = KEYWORD_TABLES['draft-07'];
  // `$defs` is not a draft-07 keyword (the draft-07 meta-schema has only `definitions`); json-schema-traverse
  // lists it for every draft. The walkers that must find every reference use UNION_KEYWORDS, which has it.
  const NOT_DRAFT_07 = new Set(['$defs']);

  it('knows every keyword json-schema-traverse knows, with a compatible shape', () => {
    const before = JSON.stringify([t.keywords, t.arrayKeywords, t.propsKeywords, t.skipKeywords]);
    const check = (name: string, shapes: readonly string[]) => {
      const info = NOT_DRAFT_07.has(name) ? UNION_KEYWORDS.get(name) : draft07.get(name);
      expect(info, `\`${name}\` is missing`).toBeDefined();
      expect(shapes, `\`${name}\` is ${info!.shape}`).toContain(info!.shape);
    };
    for (const k of Object.keys(t.keywords)) check(k, ['schema', 'schemaOrArray']);
    for (const k of Object.keys(t.arrayKeywords)) check(k, ['schemaArray', 'schemaOrArray']);
    for (const k of Object.keys(t.propsKeywords)) check(k, ['schemaMap', 'schemaOrStrings']);
    for (const k of Object.keys(t.skipKeywords)) check(k, ['opaque']);
    expect([...NOT_DRAFT_07].every((k) => !draft07.has(k))).toBe(true);
    expect(JSON.stringify([t.keywords, t.arrayKeywords, t.propsKeywords, t.skipKeywords])).toBe(before);
  });

  it('visits the same subschemas as json-schema-traverse on generated draft-07 schemas', () => {
    const keywordsUsed = ['not', 'if', 'then', 'else', 'items', 'additionalItems', 'contains', 'additionalProperties', 'propertyNames', 'allOf', 'anyOf', 'oneOf', 'properties', 'patternProperties', 'definitions', 'dependencies', 'enum', 'const', 'default', 'x-unknown'];
    const schemaArb = fc.letrec((tie) => ({
      schema: fc.oneof({ depthSize: 'small', withCrossShrink: true }, fc.constant({ type: 'string' }), fc.dictionary(fc.constantFrom(...keywordsUsed), tie('value'), { maxKeys: 4 })),
      value: fc.oneof(tie('schema'), fc.array(tie('schema'), { maxLength: 3 }), fc.dictionary(fc.constantFrom('a', 'b/c', '~'), fc.oneof(tie('schema'), fc.constant(['a'])), { maxKeys: 2 }), fc.boolean()),
    })).schema;
    fc.assert(
      fc.property(schemaArb, (schema) => {
        const theirs: string[] = [];
        traverse(schema as traverse.SchemaObject, { cb: (_s, ptr) => void theirs.push(ptr) });
        const ours: string[] = [];
        walkSchema(schema, '', { table: draft07, onSchema: (n, p) => void (typeof n === 'object' && n !== null && !Array.isArray(n) && ours.push(p)) });
        // json-schema-traverse escapes property names but not array indices; both are preorder.
        expect(ours).toEqual(theirs);
      }),
      { numRuns: 300, seed: 159 },
    );
  });
});

describe('someSubschema', () => {
  // Oracle: json-schema-traverse (a separate walker) lists the subschema objects of a draft-07 schema;
  // someSubschema must find a marked one exactly when one of those carries the mark.
  const keywordsUsed = ['not', 'items', 'additionalItems', 'additionalProperties', 'allOf', 'anyOf', 'properties', 'patternProperties', 'definitions', 'dependencies', 'enum', 'default', 'x-unknown', 'mark'];
  const schemaArb = fc.letrec((tie) => ({
    schema: fc.oneof({ depthSize: 'small', withCrossShrink: true }, fc.constant({ type: 'string' }), fc.dictionary(fc.constantFrom(...keywordsUsed), tie('value'), { maxKeys: 4 })),
    value: fc.oneof(tie('schema'), fc.array(tie('schema'), { maxLength: 3 }), fc.dictionary(fc.constantFrom('a', 'b/c', 'mark'), fc.oneof(tie('schema'), fc.constant(['a'])), { maxKeys: 2 }), fc.boolean()),
  })).schema;
  const draft07 = KEYWORD_TABLES['draft-07'];

  it('finds a marked subschema exactly where json-schema-traverse sees one, the root told apart', () => {
    fc.assert(
      fc.property(schemaArb, (schema) => {
        let anyBelow = false;
        let atRoot = false;
        traverse(schema as traverse.SchemaObject, {
          cb: (s, ptr) => {
            if (!Object.prototype.hasOwnProperty.call(s, 'mark')) return;
            if (ptr === '') atRoot = true;
            else anyBelow = true;
          },
        });
        const has = (n: Record<string, unknown>) => Object.prototype.hasOwnProperty.call(n, 'mark');
        expect(someSubschema(schema, has, draft07)).toBe(anyBelow || atRoot);
        expect(someSubschema(schema, (n, isRoot) => !isRoot && has(n), draft07)).toBe(anyBelow);
      }),
      { numRuns: 300, seed: 184 },
    );
  });

  it('stops at the first hit and never looks into data', () => {
    let calls = 0;
    const schema = { properties: { a: { mark: 1 }, b: { type: 'string' } }, default: { mark: 1 }, enum: [{ mark: 1 }] };
    expect(someSubschema(schema, (n) => (calls++, 'mark' in n))).toBe(true);
    expect(someSubschema({ default: { mark: 1 }, enum: [{ mark: 1 }], 'x-y': { mark: 1 } }, (n) => 'mark' in n)).toBe(false);
    expect(calls).toBeLessThanOrEqual(3);
  });
});

describe('visitSchemaObjects', () => {
  // Oracle: json-schema-traverse (a separate walker) lists the subschema objects of a draft-07 schema in
  // preorder with their pointers; visitSchemaObjects must visit the same objects in the same order, and
  // spell the same pointers when asked.
  const keywordsUsed = ['not', 'if', 'then', 'items', 'additionalItems', 'additionalProperties', 'allOf', 'anyOf', 'properties', 'patternProperties', 'definitions', 'dependencies', 'enum', 'default', 'x-unknown'];
  const schemaArb = fc.letrec((tie) => ({
    schema: fc.oneof({ depthSize: 'small', withCrossShrink: true }, fc.constant({ type: 'string' }), fc.dictionary(fc.constantFrom(...keywordsUsed), tie('value'), { maxKeys: 4 })),
    value: fc.oneof(tie('schema'), fc.array(tie('schema'), { maxLength: 3 }), fc.dictionary(fc.constantFrom('a', 'b/c', '~', '__proto__'), fc.oneof(tie('schema'), fc.constant(['a'])), { maxKeys: 2 }), fc.boolean()),
  })).schema;
  const draft07 = KEYWORD_TABLES['draft-07'];

  it('visits the subschema objects json-schema-traverse sees, in its order, with its pointers and parents', () => {
    fc.assert(
      fc.property(schemaArb, (schema) => {
        const theirs: [string, unknown, unknown][] = [];
        traverse(schema as traverse.SchemaObject, { cb: (s, ptr, _root, _pp, keyword, parent) => void theirs.push([ptr, s, ptr === '' ? undefined : parent]) });
        const ours: [string, unknown, unknown][] = [];
        visitSchemaObjects(schema, draft07, (node, place) => void ours.push([placePointer(place), node, place?.parent]));
        expect(ours.length).toBe(theirs.length);
        ours.forEach(([p, node, parent], i) => {
          expect(p).toBe(theirs[i]![0]);
          expect(node).toBe(theirs[i]![1]);
          expect(parent).toBe(theirs[i]![2]);
        });
      }),
      { numRuns: 300, seed: 23 },
    );
  });

  it('names the keyword and the entry below it, and skips children when the visitor returns false', () => {
    const schema = { properties: { 'a/b': { items: [{ not: {} }] } }, anyOf: [true, { type: 'x' }], additionalProperties: { type: 'string' } };
    const seen: string[] = [];
    visitSchemaObjects(schema, UNION_KEYWORDS, (_n, place) => void seen.push(place === undefined ? '(root)' : `${place.keyword}:${String(place.entry)}:${placePointer(place)}`));
    expect(seen).toEqual(['(root)', 'properties:a/b:/properties/a~1b', 'items:0:/properties/a~1b/items/0', 'not:undefined:/properties/a~1b/items/0/not', 'anyOf:1:/anyOf/1', 'additionalProperties:undefined:/additionalProperties']);
    const pruned: string[] = [];
    visitSchemaObjects(schema, UNION_KEYWORDS, (_n, place) => (pruned.push(placePointer(place)), place?.keyword !== 'properties'));
    expect(pruned).toEqual(['', '/properties/a~1b', '/anyOf/1', '/additionalProperties']);
  });

  it('hands the state it is given to every visit, and someSubschema to every test', () => {
    const schema = { properties: { a: { type: 'string' } }, anyOf: [{ type: 'x' }, { not: { type: 'y' } }] };
    const state = { types: [] as unknown[] };
    visitSchemaObjects(schema, UNION_KEYWORDS, (n, _place, s: typeof state) => void s.types.push(n.type ?? '-'), state);
    expect(state.types).toEqual(['-', 'string', 'x', '-', 'y']);
    const tested: unknown[] = [];
    expect(someSubschema(schema, (n, _root, s: unknown[]) => (s.push(n.type ?? '-'), n.type === 'x'), UNION_KEYWORDS, tested)).toBe(true);
    // Stack order (see someSubschema): the root, then its last child first; it stops at the hit.
    expect(tested).toEqual(['-', '-', 'y', 'x']);
  });
});
