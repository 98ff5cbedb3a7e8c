/**
 * verifyTool and verifyHistory on hand-written pairs: each rewrite below is known (by reading it) to keep
 * or change meaning; the gate must say the same. Where a verdict differs, the test's own ajv (with
 * ajv-formats, built independently of the gate) confirms the reported instance really is judged
 * differently.
 */
import { describe, expect, it } from 'vitest';
import { AjvPool, verifyHistory, verifyTool, type McpTool, type VerifyFailure } from '../../src/index.js';
import { verdicts } from '../helpers/ajv.js';
import { deepFreeze } from '../helpers/freeze.js';

const tool = (inputSchema: unknown, extra: Record<string, unknown> = {}): McpTool => deepFreeze({ name: 't', description: 'Does things', inputSchema, ...extra } as McpTool);

const BASE = {
  type: 'object',
  properties: {
    path: { type: 'string', description: 'Where', minLength: 1 },
    count: { type: 'integer', minimum: 1, maximum: 50, default: 10, description: 'How many' },
    mode: { enum: ['fast', 'slow'] },
    title: { type: 'string', title: 'A property named title' },
  },
  required: ['path'],
  additionalProperties: false,
};

function edit(mutate: (s: Record<string, any>) => void, base: unknown = BASE): unknown {
  const copy = structuredClone(base) as Record<string, any>;
  mutate(copy);
  return copy;
}

/** The reported instance must get different verdicts from an independent ajv. */
function confirmVerdict(before: unknown, after: unknown, failure: VerifyFailure | undefined) {
  expect(failure?.check).toBe('verdict');
  expect(failure!.instance).not.toBeUndefined();
  const a = verdicts(before, [failure!.instance]);
  const b = verdicts(after, [failure!.instance]);
  expect(a).not.toEqual(b);
}

describe('verifyTool: verdicts', () => {
  const meaningChanges: Record<string, (s: Record<string, any>) => void> = {
    'drop required': (s) => delete s.required,
    'drop additionalProperties:false': (s) => delete s.additionalProperties,
    'rename a property': (s) => {
      s.properties = { where: s.properties.path, count: s.properties.count, mode: s.properties.mode, title: s.properties.title };
    },
    'strip a minimum': (s) => delete s.properties.count.minimum,
    'strip a maximum': (s) => delete s.properties.count.maximum,
    'strip minLength': (s) => delete s.properties.path.minLength,
    'narrow an enum': (s) => (s.properties.mode.enum = ['fast']),
    'widen a type': (s) => (s.properties.count.type = 'number'),
    'drop the property named title': (s) => delete s.properties.title,
  };
  for (const [name, mutate] of Object.entries(meaningChanges)) {
    it(`catches: ${name}`, () => {
      const after = edit(mutate);
      const failure = verifyTool(tool(BASE), tool(after), { level: 'verdicts' });
      confirmVerdict(BASE, after, failure);
      expect(failure!.path).toBe('/inputSchema');
      expect(failure!.message).toMatch(/valid before and is (in)?valid after/);
    });
  }

  it('catches a $ref redirected to another definition', () => {
    const before = { type: 'object', properties: { a: { $ref: '#/$defs/Small' } }, $defs: { Small: { type: 'integer', maximum: 5 }, Big: { type: 'integer', maximum: 500 } } };
    const after = edit((s) => (s.properties.a.$ref = '#/$defs/Big'), before);
    confirmVerdict(before, after, verifyTool(tool(before), tool(after), { level: 'verdicts' }));
  });

  it('catches a dropped format (the gate asserts common formats)', () => {
    const before = { type: 'object', properties: { id: { type: 'string', format: 'uuid' } } };
    const after = edit((s) => delete s.properties.id.format, before);
    confirmVerdict(before, after, verifyTool(tool(before), tool(after), { level: 'verdicts' }));
  });

  it('catches a change in outputSchema too', () => {
    const out = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] };
    const failure = verifyTool(tool(BASE, { outputSchema: out }), tool(BASE, { outputSchema: edit((s) => delete s.required, out) }), { level: 'verdicts' });
    expect(failure?.check).toBe('verdict');
    expect(failure!.path).toBe('/outputSchema');
  });

  it('passes rewrites that keep meaning', () => {
    const keep: Record<string, (s: Record<string, any>) => void> = {
      'drop a description': (s) => delete s.properties.path.description,
      'reorder properties': (s) => {
        s.properties = { title: s.properties.title, mode: s.properties.mode, count: s.properties.count, path: s.properties.path };
      },
      'one-element type array': (s) => (s.properties.path.type = ['string']),
    };
    for (const [name, mutate] of Object.entries(keep)) {
      const after = JSON.parse(JSON.stringify(edit(mutate)));
      expect(verifyTool(tool(BASE), tool(after), { level: 'verdicts' }), name).toBeUndefined();
    }
  });

  it('a definition moved into $defs behind a $ref keeps verdicts', () => {
    const before = { type: 'object', properties: { a: { type: 'object', properties: { x: { type: 'string' } }, required: ['x'] }, b: { type: 'object', properties: { x: { type: 'string' } }, required: ['x'] } } };
    const after = { type: 'object', properties: { a: { $ref: '#/$defs/X' }, b: { $ref: '#/$defs/X' } }, $defs: { X: { type: 'object', properties: { x: { type: 'string' } }, required: ['x'] } } };
    expect(verifyTool(tool(before), tool(after), { level: 'verdicts' })).toBeUndefined();
  });

  it('only objects at the root count (MCP arguments are always an object)', () => {
    const before = { properties: { a: { type: 'string' } } };
    expect(verifyTool(tool(before), tool({ type: 'object', ...before }), { level: 'verdicts' })).toBeUndefined();
    const nested = { type: 'object', properties: { a: { type: 'object', properties: { b: { type: 'integer' } } } } };
    const failure = verifyTool(tool(nested), tool(edit((s) => delete s.properties.a.type, nested)), { level: 'verdicts' });
    confirmVerdict(nested, edit((s) => delete s.properties.a.type, nested), failure);
    expect(typeof failure!.instance === 'object' && failure!.instance !== null && !Array.isArray(failure!.instance)).toBe(true);
  });

  it('a lossy rewrite is held to structural only', () => {
    const after = edit((s) => delete s.properties.count.maximum);
    expect(verifyTool(tool(BASE), tool(after), { level: 'verdicts', safety: 'lossy' })).toBeUndefined();
    const broken = edit((s) => (s.properties.count.type = 'integr'));
    expect(verifyTool(tool(BASE), tool(broken), { level: 'verdicts', safety: 'lossy' })?.check).toBe('compile');
  });
});

describe('verifyTool: structural', () => {
  it('catches a dangling $ref (ajv MissingRefError)', () => {
    const before = { type: 'object', properties: { a: { $ref: '#/$defs/A' } }, $defs: { A: { type: 'string' } } };
    const after = edit((s) => (s.properties.a.$ref = '#/$defs/Gone'), before);
    const failure = verifyTool(tool(before), tool(after), { level: 'structural' });
    expect(failure?.check).toBe('compile');
    expect(failure!.message).toMatch(/#\/\$defs\/Gone/);
  });

  it('catches a keyword value ajv refuses', () => {
    const failure = verifyTool(tool(BASE), tool(edit((s) => (s.required = 'path'))), { level: 'structural' });
    expect(failure?.check).toBe('compile');
  });

  it('does not hold a schema that never compiled to compiling', () => {
    const before = { type: 'object', properties: { a: { $ref: '#/definitions/missing' } }, $comment: 'x' };
    const after = { type: 'object', properties: { a: { $ref: '#/definitions/missing', type: 'string' } } };
    expect(verifyTool(tool(before), tool(after), { level: 'verdicts' })).toBeUndefined();
  });

  it('structural probes the places a rewrite changed, and only those', () => {
    const dropped = edit((s) => delete s.required);
    confirmVerdict(BASE, dropped, verifyTool(tool(BASE), tool(dropped), { level: 'structural' }));
    // A `$ref` pointed elsewhere (its text changed) is not a probed place; `verdicts` compares everything.
    const before = { type: 'object', properties: { a: { $ref: '#/$defs/Small' } }, $defs: { Small: { type: 'integer', maximum: 5 }, Big: { type: 'integer', maximum: 500 } } };
    const after = edit((s) => (s.properties.a.$ref = '#/$defs/Big'), before);
    expect(verifyTool(tool(before), tool(after), { level: 'structural' })).toBeUndefined();
    confirmVerdict(before, after, verifyTool(tool(before), tool(after), { level: 'verdicts' }));
  });

  it('compiles each schema in its declared dialect', () => {
    // A draft-07 tuple `items` compiles as draft-07; without the stamp it is read as 2020-12, where
    // `items` must be one schema, and no longer compiles.
    const d7 = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'array', items: [{ type: 'string' }], additionalItems: false };
    expect(verifyTool(tool(d7), tool({ ...d7, description: 'x' }), { level: 'verdicts', safety: 'annotation' })).toBeUndefined();
    const { $schema: _, ...unstamped } = d7;
    expect(verifyTool(tool(d7), tool(unstamped), { level: 'verdicts' })?.check).toBe('compile');
    // `prefixItems` is not a draft-07 keyword: dropping the stamp makes it apply, and verdicts change.
    const tuple = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { t: { type: 'array', prefixItems: [{ type: 'string' }] } } };
    const { $schema: __, ...tupleUnstamped } = tuple;
    confirmVerdict(tuple, tupleUnstamped, verifyTool(tool(tuple), tool(tupleUnstamped), { level: 'verdicts' }));
  });

  it('two tools with the same $id never collide in one pool', () => {
    const pool = new AjvPool();
    const a = { $id: 'https://example.com/s', type: 'object', properties: { x: { type: 'string' } } };
    const b = { $id: 'https://example.com/s', type: 'object', properties: { x: { type: 'integer' } } };
    expect(verifyTool(tool(a), tool({ ...a, description: 'd' }), { level: 'verdicts', safety: 'annotation', pool })).toBeUndefined();
    expect(verifyTool(tool(b), tool({ ...b, description: 'd' }), { level: 'verdicts', safety: 'annotation', pool })).toBeUndefined();
    expect(verifyTool(tool(b), tool({ ...b, properties: { x: { type: 'string' } } }), { level: 'verdicts', pool })?.check).toBe('verdict');
    expect(pool.compiled).toBeGreaterThan(0);
  });
});

describe('verifyTool: annotations and fields', () => {
  it('annotation rewrites may change descriptions, titles, examples, defaults and the tool description', () => {
    const after = edit((s) => {
      s.properties.path.description = 'Path';
      delete s.properties.count.description;
      delete s.properties.title.title;
    });
    expect(verifyTool(tool(BASE), tool(after, { description: 'Short' }), { level: 'verdicts', safety: 'annotation' })).toBeUndefined();
  });

  it('an annotation rewrite that changes more than annotations is held to the ajv checks', () => {
    const cases: [string, unknown, unknown][] = [
      ['a validation keyword', BASE, edit((s) => (s.properties.path.minLength = 2))],
      ['a property named title', BASE, edit((s) => delete s.properties.title)],
      // A property called `description` is a property, not an annotation.
      ['a property named description', { type: 'object', properties: { description: { type: 'string' } } }, { type: 'object', properties: {} }],
    ];
    for (const [name, before, after] of cases) {
      confirmVerdict(before, after, verifyTool(tool(before), tool(after), { level: 'verdicts', safety: 'annotation' }));
      // Structural probes the changed places too.
      confirmVerdict(before, after, verifyTool(tool(before), tool(after), { level: 'structural', safety: 'annotation' }));
    }
    // Verdict-neutral edits beyond annotations pass (normalize-schema's empty `required`, `additionalProperties: true`).
    const noise = { ...BASE, required: [], properties: { ...BASE.properties, path: { type: 'string', additionalProperties: true } } };
    const clean = { ...BASE, properties: { ...BASE.properties, path: { type: 'string' } } };
    delete (clean as Record<string, unknown>).required;
    expect(verifyTool(tool(noise), tool(clean), { level: 'verdicts', safety: 'annotation' })).toBeUndefined();
  });

  it('an annotation-only rewrite needs no compile', () => {
    const pool = new AjvPool();
    const after = edit((s) => (s.properties.path.description = 'P'));
    expect(verifyTool(tool(BASE), tool(after), { level: 'verdicts', safety: 'annotation', pool })).toBeUndefined();
    expect(pool.compiled).toBe(0);
    // More than annotations, at a place the probe does not look at (a `$ref`'s text): one compile.
    const refs = { type: 'object', properties: { a: { $ref: '#/$defs/A' } }, $defs: { A: { type: 'string' }, B: { type: 'string' } } };
    expect(verifyTool(tool(refs), tool(edit((s) => (s.properties.a.$ref = '#/$defs/B'), refs)), { level: 'structural', safety: 'annotation', pool })).toBeUndefined();
    expect(pool.compiled).toBe(1);
  });

  it('data is compared whole: a description inside const is data, not an annotation', () => {
    const before = { type: 'object', properties: { cfg: { const: { description: 'data', additionalProperties: false } } } };
    for (const after of [edit((s) => (s.properties.cfg.const.description = 'changed'), before), edit((s) => delete s.properties.cfg.const.additionalProperties, before)]) {
      confirmVerdict(before, after, verifyTool(tool(before), tool(after), { level: 'verdicts', safety: 'annotation' }));
    }
  });

  it('annotation rewrites may not change other tool fields', () => {
    const failure = verifyTool(tool(BASE, { annotations: { readOnlyHint: true } }), tool(BASE, { annotations: { readOnlyHint: false } }), { level: 'structural', safety: 'annotation' });
    expect(failure).toMatchObject({ check: 'fields', path: '/annotations' });
    expect(verifyTool(tool(BASE), tool(BASE, { name: 'u' }), { level: 'structural', safety: 'annotation' })).toMatchObject({ check: 'fields', path: '/name' });
  });

  it('a lossless rewrite may drop annotations but never write or alter one', () => {
    const dropped = edit((s) => {
      delete s.properties.title.title;
      delete s.properties.path.description;
    });
    expect(verifyTool(tool(BASE), tool(dropped), { level: 'verdicts' })).toBeUndefined();
    const altered = edit((s) => (s.properties.path.description = 'Somewhere'));
    const failure = verifyTool(tool(BASE), tool(altered), { level: 'verdicts' });
    expect(failure).toMatchObject({ check: 'annotations', path: '/inputSchema/properties/path/description' });
    const newDefault = edit((s) => (s.properties.count.default = 11));
    expect(verifyTool(tool(BASE), tool(newDefault), { level: 'verdicts' })?.check).toBe('annotations');
  });

  it('a lossless rewrite may regroup annotation values it already has (OpenAPI example → examples)', () => {
    const before = { type: 'object', properties: { s: { type: 'string', example: 'open' } } };
    const after = { type: 'object', properties: { s: { type: 'string', examples: ['open'] } } };
    expect(verifyTool(tool(before), tool(after), { level: 'verdicts' })).toBeUndefined();
    const invented = { type: 'object', properties: { s: { type: 'string', examples: ['open', 'closed'] } } };
    expect(verifyTool(tool(before), tool(invented), { level: 'verdicts' })).toMatchObject({ check: 'annotations', path: '/inputSchema/properties/s/examples' });
  });

  it('only a lossy rewrite may remove a schema', () => {
    const out = { type: 'object' };
    expect(verifyTool(tool(BASE, { outputSchema: out }), tool(BASE), { level: 'structural', safety: 'lossy' })).toBeUndefined();
    expect(verifyTool(tool(BASE, { outputSchema: out }), tool(BASE), { level: 'structural' })).toMatchObject({ check: 'compile', path: '/outputSchema' });
  });

  it('a lossless rewrite may not change the tool description', () => {
    expect(verifyTool(tool(BASE), tool(BASE, { description: 'Other' }), { level: 'structural' })).toMatchObject({ check: 'fields', path: '/description' });
  });
});

describe('verifyHistory attributes a failure to a step', () => {
  const v0 = tool(edit((s) => (s.$comment = 'c')));
  const v1 = tool(BASE);
  const v2 = tool(edit((s) => delete s.required));
  const v3 = tool(edit((s) => (delete s.required, (s.properties.path.description = 'P'))));

  it('names the first step after which verdicts differ', () => {
    const r = verifyHistory(
      v0,
      [
        { transform: 'a', safety: 'lossless', tool: v1 },
        { transform: 'b', safety: 'lossless', tool: v2 },
        { transform: 'c', safety: 'annotation', tool: v3 },
      ],
      { level: 'verdicts' },
    );
    expect(r?.step).toBe(1);
    expect(r?.failure.check).toBe('verdict');
  });

  it('checks annotations per step, by each step’s safety', () => {
    const r = verifyHistory(
      v0,
      [
        { transform: 'a', safety: 'lossless', tool: v1 },
        { transform: 'b', safety: 'lossy', tool: v2 },
        { transform: 'c', safety: 'lossless', tool: v3 },
      ],
      { level: 'verdicts' },
    );
    // b is lossy (verdicts may change); c is lossless but wrote a description.
    expect(r?.step).toBe(2);
    expect(r?.failure.check).toBe('annotations');
  });

  it('passes a clean history', () => {
    expect(verifyHistory(v0, [{ transform: 'a', safety: 'lossless', tool: v1 }], { level: 'verdicts' })).toBeUndefined();
  });

  it('holds each lossless step to the version before it, each version read once (the same objects in two histories)', () => {
    // An annotation step writes `Where exactly`; a lossless step after it may move it into `examples`, and
    // may not write `Elsewhere`. The same version objects serve both histories and both steps.
    const wrote = tool(edit((s) => (s.properties.path.description = 'Where exactly')));
    const moved = tool(edit((s) => (delete s.properties.path.description, (s.properties.path.examples = ['Where exactly']))));
    const invented = tool(edit((s) => (delete s.properties.path.description, (s.properties.path.examples = ['Where exactly', 'Elsewhere']))));
    const pool = new AjvPool();
    const ok = verifyHistory(
      v1,
      [
        { transform: 'a', safety: 'annotation', tool: wrote },
        { transform: 'b', safety: 'lossless', tool: moved },
      ],
      { level: 'structural', pool },
    );
    expect(ok).toBeUndefined();
    const bad = verifyHistory(
      v1,
      [
        { transform: 'a', safety: 'annotation', tool: wrote },
        { transform: 'b', safety: 'lossless', tool: moved },
        { transform: 'c', safety: 'lossless', tool: invented },
      ],
      { level: 'structural', pool },
    );
    expect(bad).toMatchObject({ step: 2, failure: { check: 'annotations', path: '/inputSchema/properties/path/examples' } });
    // Moving it straight from the original is writing it: the original never said `Where exactly`.
    expect(verifyHistory(v1, [{ transform: 'b', safety: 'lossless', tool: moved }], { level: 'structural', pool })).toMatchObject({ step: 0, failure: { check: 'annotations' } });
  });
});
