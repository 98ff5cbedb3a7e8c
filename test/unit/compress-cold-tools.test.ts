/**
 * compress-cold-tools beyond the fixtures: description shortening as a property, order-independence of
 * `keep`, pass-through, hostile keys, every corpus server, and removeColdTools.
 */
import fc from 'fast-check';
import jsonPatch from 'fast-json-patch';
import { describe, expect, it } from 'vitest';
import { applyPatch, compressColdTools, removeColdTools, ToolslimError, transformTools } from '../../src/index.js';
import { findSharedPreambles, shortenDescription, trimTrailing } from '../../src/transforms/compress-cold-tools.js';
import { generateInstances } from '../../src/verify/instances.js';
import { compile } from '../helpers/ajv.js';
import { loadCorpus } from '../helpers/corpus.js';
import { deepFreeze, jsonClone } from '../helpers/freeze.js';

const SEED = 7_007;
const chars = (s: string) => [...s].length;

describe('shortenDescription', () => {
  it('keeps the first sentence, or cuts at a word boundary and ends in "…"', () => {
    expect(shortenDescription('Read a file. Then more.', 80)).toBe('Read a file.');
    expect(shortenDescription('Read a file! Then more.', 80)).toBe('Read a file!');
    expect(shortenDescription('Version 1.5 is used. Then more.', 80)).toBe('Version 1.5 is used.');
    expect(shortenDescription('Visit example.com today. Then more.', 80)).toBe('Visit example.com today.');
    expect(shortenDescription('Multi\nline\twrapped text. Next.', 80)).toBe('Multi line wrapped text.');
    expect(shortenDescription('First paragraph\n  \nSecond.', 80)).toBe('First paragraph');
    expect(shortenDescription('検索します。詳細', 80)).toBe('検索します。');
    expect(shortenDescription('one two three four', 10)).toBe('one two…');
    expect(shortenDescription('abcdefghijk', 5)).toBe('abcd…');
    expect(shortenDescription('abc', 1)).toBe('…');
    expect(shortenDescription('', 5)).toBe('');
    expect(() => shortenDescription('x', 0)).toThrow(ToolslimError);
  });

  it('property: agrees with a regex-based oracle written from the documented rules', () => {
    // The rules, stated the slow way: first paragraph, whitespace collapsed, first terminator that is not
    // an abbreviation's period; longer than max → cut at a word boundary in the first max − 1 characters.
    const oracle = (text: string, max: number): string => {
      const paragraph = text.trimStart().split(/\n[ \t\r\f\v]*\n/)[0] ?? '';
      const flat = paragraph.replace(/\s+/g, ' ').trim();
      let sentence = flat;
      const end = /[.!?](?= |$)|[。！？]/g;
      for (let m = end.exec(flat); m !== null; m = end.exec(flat)) {
        const upTo = flat.slice(0, m.index + 1);
        if (m[0] === '.' && /(?:^|[\s(])(?:e\.g|i\.e|etc|vs|cf|approx|incl|esp|resp|no)\.$/i.test(upTo)) continue;
        sentence = upTo;
        break;
      }
      const cps = [...sentence];
      if (cps.length <= max) return sentence;
      let keep = cps.slice(0, max - 1).join('');
      const space = keep.lastIndexOf(' ');
      if (space > 0 && space >= keep.length / 2) keep = keep.slice(0, space);
      return keep.replace(/[\s,;:(\[{\-–—]+$/u, '') + '…';
    };
    const piece = fc.constantFrom('Read', 'a', 'file', 'e.g.', 'etc.', 'no.', 'approx.', 'x.', '1.5', '!', '?', '.', '。', '😀', 'é', ',', '(', '—', ';', ':', '[', '{', '-', '–', '\u3000', ' ', '  ', '\n', '\n\n', '\n \t\n', '\t', '\r\n', '\u00a0', 'ΣΑΣ', 'word.');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 60 }), fc.integer({ min: 1, max: 60 }), (parts, max) => {
        const t = parts.join('');
        expect(shortenDescription(t, max)).toBe(oracle(t, max));
      }),
      { seed: SEED, numRuns: 2000 },
    );
  });

  it('cuts the blanks and punctuation a cut slice ends with as the pattern does', () => {
    const pattern = /[\s,;:(\[{\-\u2013\u2014]+$/u;
    const alphabet = ['a', ' ', '\t', '\n', ',', ';', ':', '(', '[', '{', '-', '\u2013', '\u2014', '\u00a0', '\u2028', '\u3000', '\ufeff', '.', ')', ']', '}', '\u2012', '😀', '\ud83d'];
    const draw = fc.array(fc.constantFrom(...alphabet), { maxLength: 12 }).map((a) => a.join(''));
    fc.assert(
      fc.property(draw, (t) => {
        expect(trimTrailing(t)).toBe(t.replace(pattern, ''));
      }),
      { seed: SEED, numRuns: 20_000 },
    );
  });

  // No timed assertion: the test's timeout is the guard (the pattern took 0.76 s on a run of 40,000 commas
  // inside the slice, and four times that for each doubling: some 19 s on these 200,000).
  it('shortens a description with a long run of punctuation inside its slice in linear time', () => {
    const text = 'a' + ','.repeat(200_000) + 'b ' + 'c'.repeat(200_000);
    // The slice (200,099 characters) cut back to its last space: `a`, the commas and `b`, which ends it.
    expect(shortenDescription(text, 200_100)).toBe('a' + ','.repeat(200_000) + 'b…');
  });

  it('property: at most max characters, a fixed point, and built from the text’s own words', () => {
    const text = fc.stringMatching(/^[A-Za-z .!?,\n\t😀é-]{0,200}$/);
    fc.assert(
      fc.property(text, fc.integer({ min: 1, max: 120 }), (t, max) => {
        const s = shortenDescription(t, max);
        expect(chars(s)).toBeLessThanOrEqual(max);
        expect(shortenDescription(s, max)).toBe(s);
        const flat = t.replace(/\s+/g, ' ').trim();
        const body = s.endsWith('…') ? s.slice(0, -1) : s;
        // Whitespace inside a paragraph is collapsed, so the body is a prefix of the flattened text.
        if (!/\n\s*\n/.test(t)) expect(flat.startsWith(body)).toBe(true);
      }),
      { seed: SEED, numRuns: 500 },
    );
  });
});

describe('compressColdTools', () => {
  const github = loadCorpus().find((c) => c.file === 'modelcontextprotocol__server-github.json')!.data.toolsList.tools;
  const tools = deepFreeze(jsonClone(github));
  const names = tools.map((t) => t.name as string);

  it('depends on the set of kept names, not their order or duplicates', () => {
    const keep = [names[3]!, names[0]!, names[10]!];
    const a = compressColdTools(tools as never, { keep });
    const b = compressColdTools(tools as never, { keep: [...keep].reverse().concat(keep) });
    expect(JSON.stringify(b.tools)).toBe(JSON.stringify(a.tools));
    expect(b.report.changes).toEqual(a.report.changes);
  });

  it('passes everything through byte for byte when every tool is hot', () => {
    const r = compressColdTools(tools as never, { keep: names });
    expect(r.report.changes).toEqual([]);
    expect(JSON.stringify(r.tools)).toBe(JSON.stringify(github));
  });

  it('keeps hot tools as the very same objects and positions', () => {
    const r = compressColdTools(tools as never, { keep: [names[5]!] });
    expect(r.tools.length).toBe(tools.length);
    expect(r.tools[5]).toBe(tools[5]);
    expect(r.tools.map((t) => t.name)).toEqual(names);
  });

  it('treats a `__proto__` member as data: removed, nothing polluted', () => {
    const input = deepFreeze(JSON.parse('[{"name":"x","__proto__":{"polluted":true},"inputSchema":{"type":"object"}}]'));
    const r = compressColdTools(input);
    expect(JSON.stringify(r.tools)).toBe('[{"name":"x","inputSchema":{"type":"object"}}]');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(r.report.changes.map((c) => [c.op, c.path, c.code])).toEqual([['remove', '/0/__proto__', 'removed-field']]);
    expect(JSON.stringify(applyPatch(input, r.report.changes))).toBe(JSON.stringify(r.tools));
  });

  it('keeps an `execution` that lets or makes the client run a task, in its place; the default one goes', () => {
    // Found as a library user: run alone (not through a session), the cold form of a `taskSupport: "required"`
    // tool had no `execution`, so an MCP client called it without a task and the server refused every call.
    const input = deepFreeze(JSON.parse(`[
      {"name":"required","description":"Must run as a task. Long.","inputSchema":{"type":"object","properties":{"q":{"type":"string"}}},"execution":{"taskSupport":"required"},"outputSchema":{"type":"object"},"annotations":{"readOnlyHint":true}},
      {"name":"optional","execution":{"taskSupport":"optional"},"description":"May run as a task."},
      {"name":"forbidden","description":"Plain.","inputSchema":{"type":"object"},"execution":{"taskSupport":"forbidden"}},
      {"name":"empty","description":"Plain too.","inputSchema":{"type":"object"},"execution":{}},
      {"name":"future","description":"Unknown member.","inputSchema":{"type":"object"},"execution":{"taskSupport":"forbidden","other":1}},
      {"name":"not-an-object","description":"Odd.","inputSchema":{"type":"object"},"execution":"required"}
    ]`));
    const r = compressColdTools(input);
    expect(JSON.stringify(r.tools)).toBe(
      '[{"name":"required","description":"Must run as a task.","inputSchema":{"type":"object"},"execution":{"taskSupport":"required"},"annotations":{"readOnlyHint":true}},' +
        '{"name":"optional","execution":{"taskSupport":"optional"},"description":"May run as a task.","inputSchema":{"type":"object"}},' +
        '{"name":"forbidden","description":"Plain.","inputSchema":{"type":"object"}},' +
        '{"name":"empty","description":"Plain too.","inputSchema":{"type":"object"}},' +
        '{"name":"future","description":"Unknown member.","inputSchema":{"type":"object"},"execution":{"taskSupport":"forbidden","other":1}},' +
        '{"name":"not-an-object","description":"Odd.","inputSchema":{"type":"object"}}]',
    );
    expect(r.report.changes.filter((c) => c.path.endsWith('/execution')).map((c) => [c.op, c.path])).toEqual([
      ['remove', '/2/execution'],
      ['remove', '/3/execution'],
      ['remove', '/5/execution'],
    ]);
    expect(JSON.stringify(applyPatch(input, r.report.changes))).toBe(JSON.stringify(r.tools));
    expect(compressColdTools(r.tools).report.changes).toEqual([]);
    // The same through transformTools, as a library user runs it.
    const viaPipeline = transformTools(input, { transforms: [['compress-cold-tools', {}]] });
    expect(JSON.stringify(viaPipeline.tools)).toBe(JSON.stringify(r.tools));
  });

  it('says what it did, counting characters as code points', () => {
    const r = compressColdTools([{ name: 'emoji', description: '😀😀😀 emoji everywhere in this long description text', inputSchema: { type: 'object' } }], { maxDescriptionLength: 26 });
    // 3 emoji + " emoji everywhere in this long description text" (47) = 50; "😀😀😀 emoji everywhere in…" = 24
    expect(r.report.changes.map((c) => c.message)).toEqual(['Shortened the description of cold tool `emoji` from 50 to 24 characters']);
  });

  it('rejects unusable options, naming them', () => {
    expect(() => compressColdTools(tools as never, { keep: 'x' as never })).toThrow(/keep/);
    expect(() => compressColdTools(tools as never, { maxDescriptionLength: 0 })).toThrow(/maxDescriptionLength/);
    expect(() => compressColdTools(tools as never, { keepTitle: 'no' as never })).toThrow(/keepTitle/);
    expect(() => compressColdTools(tools as never, { remove: true } as never)).toThrow(/unknown option `remove`/);
  });

  it('is in no preset, and runs by name when asked for', () => {
    const byName = transformTools(tools, { transforms: [['compress-cold-tools', { keep: [names[0]!] }]] });
    expect(byName.report.stats.after.bytes).toBeLessThan(byName.report.stats.before.bytes / 3);
  });

  it('gives a minimal, valid tool for every cold tool of every corpus server, and the patch replays', () => {
    for (const { file, data } of loadCorpus()) {
      const input = data.toolsList.tools;
      const r = compressColdTools(input as never);
      expect(r.report.skipped, file).toEqual([]);
      expect(r.tools.length, file).toBe(input.length);
      for (const [i, t] of r.tools.entries()) {
        expect(t.name, file).toBe(input[i]!.name);
        expect(t.inputSchema, file).toEqual({ type: 'object' });
        expect(Object.keys(t).every((k) => ['name', 'title', 'description', 'inputSchema', 'annotations', '_meta'].includes(k) || (k === 'execution' && JSON.stringify(t.execution) !== '{"taskSupport":"forbidden"}')), `${file} #${i}`).toBe(true);
        if (t.description !== undefined) expect(chars(t.description), `${file} #${i}`).toBeLessThanOrEqual(80);
      }
      const ops = r.report.changes.map(({ op, path, value }) => (op === 'remove' ? { op, path } : { op, path, value })) as jsonPatch.Operation[];
      expect(jsonPatch.applyPatch(jsonClone(input), ops, true, false).newDocument, file).toEqual(jsonClone(r.tools));
      expect(compressColdTools(r.tools).report.changes, file).toEqual([]);
    }
  });
});

describe('cold forms: parameters and shared preambles', () => {
  const github = loadCorpus().find((c) => c.file === 'modelcontextprotocol__server-github.json')!.data.toolsList.tools;
  const tools = deepFreeze(jsonClone(github));
  const names = tools.map((t) => t.name as string);
  /** The documented rule, the slow way: the longest boundary position b such that ≥ minTools descriptions begin with text[0, b). */
  const oracle = (texts: readonly (string | undefined)[], minTools: number, minLength: number): Map<number, number> => {
    const out = new Map<number, number>();
    for (const [i, t] of texts.entries()) {
      if (t === undefined) continue;
      for (let b = t.length - 1; b >= minLength; b--) {
        if (/\s/.test(t[b]!)) continue;
        const before = t.slice(0, b);
        if (!/[.!?:]\s+$/.test(before)) continue;
        const sharing = texts.filter((u) => u !== undefined && u.startsWith(before)).length;
        if (sharing >= minTools) {
          out.set(i, b);
          break;
        }
      }
    }
    return out;
  };

  it('property: findSharedPreambles agrees with the rule stated the slow way', () => {
    const piece = fc.constantFrom('This tool', ' belongs to', ' the file system.', ' It is simple.', ' Tool description: ', 'Read', ' a file.', ' Write', ' it!', ' why?', ':', '  ', '\n', ' ', 'x', '😀', 'e.g. ', 'Tool description:');
    const text = fc.array(piece, { maxLength: 10 }).map((p) => p.join(''));
    fc.assert(
      fc.property(fc.array(fc.option(text, { nil: undefined, freq: 8 }), { maxLength: 12 }), fc.integer({ min: 2, max: 4 }), fc.integer({ min: 1, max: 40 }), (texts, minTools, minLength) => {
        expect(findSharedPreambles(texts, minTools, minLength)).toEqual(oracle(texts, minTools, minLength));
      }),
      { seed: SEED, numRuns: 1500 },
    );
  });

  it('a cold tool’s form does not depend on which other tools are hot', () => {
    const list = deepFreeze(jsonClone(tools));
    const options = { dropSharedPreamble: true, parameters: 'schema' as const };
    const alone = compressColdTools(list, options).tools.map((t) => JSON.stringify(t));
    fc.assert(
      fc.property(fc.subarray(names), (keep) => {
        const out = compressColdTools(list, { ...options, keep }).tools;
        for (const [i, t] of out.entries()) expect(JSON.stringify(t)).toBe(keep.includes(names[i]!) ? JSON.stringify(list[i]) : alone[i]);
      }),
      { seed: SEED, numRuns: 60 },
    );
  });

  it('the parameters form accepts every arguments object the real schema accepts (every corpus server, generated instances)', () => {
    let checked = 0;
    for (const { file, data } of loadCorpus()) {
      const input = data.toolsList.tools;
      const out = compressColdTools(input as never, { parameters: 'schema' }).tools;
      for (const [i, tool] of input.entries()) {
        let real: (d: unknown) => boolean;
        try {
          real = compile(tool.inputSchema, undefined, false);
        } catch {
          continue; // a schema ajv refuses: nothing to compare with
        }
        const cold = compile(out[i]!.inputSchema, 'draft2020', false);
        for (const instance of generateInstances(tool.inputSchema, { count: 16 })) {
          // MCP arguments are always an object: the claim is about those.
          if (typeof instance !== 'object' || instance === null || Array.isArray(instance) || !real(instance)) continue;
          checked++;
          expect(cold(instance), `${file} ${tool.name}: ${JSON.stringify(instance)}`).toBe(true);
        }
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it('property: the signature form is a fixed point, whatever the names, types and descriptions', () => {
    const name = fc.oneof(fc.constantFrom('path', 'a.b', 'x-y', '$k', '_', 'a b', 'a (b', '"q"', 'é', '', ', ', ')', '__proto__', 'back\\slash'), fc.string({ maxLength: 6 }));
    const param = fc.oneof(fc.constant({}), fc.record({ type: fc.constantFrom('string', 'integer', 'null', 'strin') }), fc.record({ type: fc.constant(['array', 'null']) }), fc.record({ type: fc.constant('string'), nullable: fc.constant(true) }), fc.constant(true));
    const description = fc.option(fc.constantFrom('Read a file. More.', 'Ends with (x)', 'Paren (a: string)', '', 'Long description that goes on and on without a stop for quite a while, really', '(b?)'), { nil: undefined });
    const tool = fc.record({ name: fc.constant('t'), description, inputSchema: fc.record({ type: fc.constant('object'), properties: fc.dictionary(name, param, { maxKeys: 6 }), required: fc.array(name, { maxLength: 3 }) }) }, { requiredKeys: ['name', 'inputSchema'] });
    fc.assert(
      fc.property(fc.array(tool, { maxLength: 4 }), fc.integer({ min: 1, max: 60 }), (tools, maxSignatureLength) => {
        const options = { parameters: 'signature' as const, maxSignatureLength, dropSharedPreamble: true };
        const once = compressColdTools(deepFreeze(jsonClone(tools)) as never, options).tools;
        const twice = compressColdTools(deepFreeze(jsonClone(once)) as never, options);
        expect(twice.report.changes).toEqual([]);
        for (const t of once) expect(t.inputSchema).toEqual({ type: 'object' });
      }),
      { seed: SEED, numRuns: 600 },
    );
  });

  it('signature: `name:type` after the sentence, whose closing period goes unless it closes an abbreviation', () => {
    const schema = { type: 'object', properties: { path: { type: 'string' }, n: { type: 'integer' } }, required: ['path'] };
    const cold = (description: string) => compressColdTools([{ name: 't', description, inputSchema: schema }] as never, { parameters: 'signature' }).tools[0]!.description;
    expect(cold('Read a file. Returns its text.')).toBe('Read a file (path:string, n?:integer)');
    expect(cold('Sum of 2 and 3.')).toBe('Sum of 2 and 3 (path:string, n?:integer)');
    expect(cold('Lists files, dirs, etc.')).toBe('Lists files, dirs, etc. (path:string, n?:integer)');
    expect(cold('Works in the U.S. Then more.')).toBe('Works in the U.S. (path:string, n?:integer)');
    expect(cold('Is it up? Then more.')).toBe('Is it up? (path:string, n?:integer)');
    expect(cold('Ends in ALLCAPS.')).toBe('Ends in ALLCAPS. (path:string, n?:integer)');
    // A description already signed in the older `name: type` form is recognised (with an open schema there is
    // nothing to sign again): its signature stays as it is, only the period goes, and then nothing changes.
    const older = compressColdTools([{ name: 't', description: 'Read a file. (path: string, n?: integer)', inputSchema: { type: 'object' } }] as never, { parameters: 'signature' });
    expect(older.tools[0]!.description).toBe('Read a file (path: string, n?: integer)');
    expect(compressColdTools(older.tools as never, { parameters: 'signature' }).report.changes).toEqual([]);
  });

  it('rejects unusable cold-form options, naming them', () => {
    expect(() => compressColdTools(tools as never, { parameters: 'typed' as never })).toThrow(/`parameters` must be one of 'none', 'schema', 'signature', got "typed"/);
    expect(() => compressColdTools(tools as never, { maxSignatureLength: 0 })).toThrow(/maxSignatureLength/);
    expect(() => compressColdTools(tools as never, { dropSharedPreamble: 1 as never })).toThrow(/dropSharedPreamble/);
    expect(() => compressColdTools(tools as never, { preambleMinTools: 1 })).toThrow(/`preambleMinTools` must be an integer of at least 2/);
    expect(() => compressColdTools(tools as never, { preambleMinLength: 0 })).toThrow(/preambleMinLength/);
  });
});

describe('removeColdTools', () => {
  const list = deepFreeze([
    { name: 'a', inputSchema: { type: 'object' } },
    { name: 'b', inputSchema: { type: 'object' } },
    { name: 'c', inputSchema: { type: 'object' } },
    { name: 'd', inputSchema: { type: 'object' } },
  ]);

  it('removes every tool not kept, keeps order, keeps the envelope, and its patch replays', () => {
    const r = removeColdTools({ tools: list, nextCursor: 'x' }, { keep: ['d', 'b'] });
    expect(r.tools.map((t) => t.name)).toEqual(['b', 'd']);
    expect(r.tools[0]).toBe(list[1]);
    expect(r.output).toEqual({ tools: r.tools, nextCursor: 'x' });
    expect(r.removed).toEqual([
      { name: 'a', index: 0 },
      { name: 'c', index: 2 },
    ]);
    expect(r.patch.map((p) => p.path)).toEqual(['/2', '/0']);
    const replayed = jsonPatch.applyPatch(jsonClone(list), r.patch.map(({ op, path }) => ({ op, path })) as jsonPatch.Operation[], true, false).newDocument;
    expect(replayed).toEqual(r.tools);
  });

  it('removes nothing when everything is kept', () => {
    const r = removeColdTools(list, { keep: ['a', 'b', 'c', 'd'] });
    expect(r.patch).toEqual([]);
    expect(JSON.stringify(r.tools)).toBe(JSON.stringify(list));
  });
});
