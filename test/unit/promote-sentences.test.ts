/**
 * The `sentences` rule of promote-common-params: how a description is read (blocks, sentences), which
 * sentences stand alone, and why a shared sentence stays. Every expectation is written by hand.
 */
import { describe, expect, it } from 'vitest';
import { presetForProfile, presetMax, presetSafe, profileRefFree, promoteCommonParams, resolveSteps, transformTools } from '../../src/index.js';
import { isComplete, readBlocks, removeSentences, sentencePieces, standsAlone, TABLE_DELIMITER } from '../../src/transforms/promote-common-params/sentences.js';
import { deepFreeze } from '../helpers/freeze.js';
import { rng } from '../helpers/rng.js';

const read = (text: string) => readBlocks(text).map((b) => (b.kind === 'prose' ? b.sentences.map((s) => s.text) : b.kind));

describe('reading a description', () => {
  it('splits prose at sentence ends, not inside code spans, links, brackets or quotes', () => {
    expect(read('Twilio - Api: This is the public Twilio REST API. Create a new Twilio Subaccount')).toEqual([['Twilio - Api: This is the public Twilio REST API.', 'Create a new Twilio Subaccount']]);
    expect(read('Call `a. B` first. See [the docs. Part 2](https://x.example/a.b) now. Say "Stop. Go" twice. (One. Two.) Done!')).toEqual([
      ['Call `a. B` first.', 'See [the docs. Part 2](https://x.example/a.b) now.', 'Say "Stop. Go" twice.', '(One. Two.)', 'Done!'],
    ]);
  });

  it('does not split after abbreviations, initials, versions or an ellipsis', () => {
    expect(read('Use e.g. Markdown, i.e. CommonMark, etc. Made in the U.S. Army. Needs v1.2 or later. Loading... Done. By J. Smith.')).toEqual([
      ['Use e.g. Markdown, i.e. CommonMark, etc. Made in the U.S. Army.', 'Needs v1.2 or later.', 'Loading... Done.', 'By J. Smith.'],
    ]);
  });

  it('splits before a lowercase start too (that piece never stands alone)', () => {
    expect(read('Shared API. update the row.')).toEqual([['Shared API.', 'update the row.']]);
  });

  it('reads lists (with lazy continuation lines), code, quotes, tables, headings and HTML as no prose', () => {
    const text = [
      'Intro.',
      '- item one. Item two.',
      'lazy continuation.',
      '',
      '  indented after the list.',
      '',
      'Prose again.',
      '',
      '    indented code. Code.',
      '',
      '```',
      'Fenced. Code.',
      '```',
      '> Quote. Here.',
      '',
      '| a | b |',
      '',
      'Title',
      '=====',
      '',
      '# Heading. One.',
      '<div>Html. Block.</div>',
      '',
      '1) Numbered. Item.',
    ].join('\n');
    expect(read(text)).toEqual([['Intro.'], 'other', 'other', ['Prose again.'], 'other', 'other', 'other', 'other', 'heading', 'heading', 'other', 'other']);
  });

  it('reads a table with a delimiter row inside a paragraph as no prose', () => {
    expect(read('a | b\n--|--\n1 | 2')).toEqual(['other']);
  });

  it('tells a delimiter row as the pattern written with a run of blanks beside each pipe and dash does', () => {
    // The oracle: the delimiter row as first written, where two runs of blanks can meet (quadratic on a long
    // run, fine on these short lines).
    const written = /^[ \t]*\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)+\|?[ \t]*$/;
    const next = rng(20261207);
    const alphabet = [' ', '\t', '|', ':', '-', 'x'];
    let rows = 0;
    for (let i = 0; i < 200_000; i++) {
      let line = '';
      for (let n = Math.floor(next() * 15); n > 0; n--) line += alphabet[Math.floor(next() * alphabet.length)];
      const want = written.test(line);
      if (want) rows++;
      if (TABLE_DELIMITER.test(line) !== want) expect.fail(`${JSON.stringify(line)}: ${!want}, expected ${want}`);
    }
    expect(rows).toBeGreaterThan(1000);
    for (const row of ['--|--', '| --- | :-: |', ':-|-:', '\t|-|-|\t', '-- | -- |']) expect(TABLE_DELIMITER.test(row)).toBe(true);
    for (const row of ['--', '|--|', '- | x', '-- | -- | |', '--|--x']) expect(TABLE_DELIMITER.test(row)).toBe(false);
  });

  // No timed assertion: the test's timeout is the guard (the pattern as first written took 1 s on a line of
  // 50,000 blanks and `-|`, four times that for each doubling: some 8 s for the first two lines here; these
  // take milliseconds).
  it('reads a paragraph line of 100,000 blanks beside a cell in linear time', () => {
    const blanks = ' '.repeat(100_000);
    expect(readBlocks(`Intro.\n${blanks}-|`)[0]!.kind).toBe('prose');
    expect(readBlocks(`Intro.\n-|-${blanks}x`)[0]!.kind).toBe('prose');
    expect(readBlocks(`Intro.\n${blanks}-|-`)[0]!.kind).toBe('other');
  });

  it('finds pieces on lines of their own inside a list, never inside code', () => {
    expect([...sentencePieces('Intro.\n- item\nOwn line. Second.\n\n```\nIn code.\n```')]).toEqual(['Intro.', '- item', 'Own line.', 'Second.']);
  });
});

describe('what stands alone', () => {
  it.each([
    ['Returns the rows.', true],
    ['`limit` caps the rows.', true],
    ['"Quoted" names are exact.', true],
    ['This tool never deletes data.', true],
    ['This command can be referenced as "DC: ...".', true],
    ['This list is cached.', false],
    ['It is read-only.', false],
    ['These results are cached.', false],
    ['Also returns the count.', false],
    ['However, names are unique.', false],
    ['And the owner is notified.', false],
    ['If so, retry.', false],
    ['For example, the archive.', false],
    ['E.g. the archive.', false],
    ['also lowercase.', false],
    ['3 retries are made.', false],
    ['(Optional) text.', false],
  ])('%s → %s', (sentence, expected) => {
    expect(standsAlone(sentence)).toBe(expected);
  });

  it('a complete sentence ends with . ! or ? (before closing quotes or brackets)', () => {
    expect([isComplete('Done.'), isComplete('Really?'), isComplete('(see below).'), isComplete('He said "stop."'), isComplete('No stop'), isComplete('Options:'), isComplete('...')]).toEqual([true, true, true, true, false, false, false]);
  });
});

describe('removing a shared sentence from one description', () => {
  const S = 'Shared sentence here.';
  const promoted = new Set([S]);
  it.each([
    ['Does things. Shared sentence here.', 'Does things.'],
    ['Shared sentence here. Does things.', 'Does things.'],
    ['Does things. Shared sentence here. More things.', 'Does things. More things.'],
    ['Does things.\nShared sentence here.\nMore here.', 'Does things.\nMore here.'],
    ['Does things.\n\nShared sentence here.\n\nMore.', 'Does things.\n\nMore.'],
    ['Shared sentence here.\n\nDoes things.', 'Does things.'],
    ['Does things.\n\nShared sentence here.\n', 'Does things.\n'],
    ['  Shared sentence here. Does things.', '  Does things.'],
    ['# Title\nShared sentence here.\n\nBody.', '# Title\n\nBody.'],
    ['- a\n\nShared sentence here.\n\nBody.', '- a\n\nBody.'],
    ['Shared sentence here. Shared sentence here. Does.', 'Does.'],
    ['Shared sentence here. This tool never deletes.', 'This tool never deletes.'],
  ])('%j → %j', (text, expected) => {
    const r = removeSentences(text, promoted);
    expect(r.text).toBe(expected);
    expect(r.kept).toEqual([]);
  });

  it.each([
    ['Shared sentence here. It does more.', 'next-leans'],
    ['Shared sentence here. also more.', 'next-leans'],
    ['Shared sentence here. Or not.', 'next-leans'],
    ['Options:\n\nShared sentence here.\n\nMore.', 'introduced'],
    ['Does things. Shared sentence here.\n- a list', 'introduces'],
    ['Does things. Shared sentence here.\n\n```\ncode\n```', 'introduces'],
    ['- A bullet. Shared sentence here.\n\nDoes things.', 'not-prose'],
    ['Does things.\n- item\nShared sentence here.', 'not-prose'],
    ['# Intro. Shared sentence here.\n\nDoes.', 'not-prose'],
    ['Shared sentence here.', 'would-empty'],
    ['Shared sentence here.\n\n', 'would-empty'],
  ])('%j keeps it: %s', (text, reason) => {
    const r = removeSentences(text, promoted);
    expect(r.text).toBe(text);
    expect(r.removed).toEqual([]);
    expect(r.kept).toEqual([{ sentence: S, reason }]);
  });

  it('decides from the end: a kept sentence is what the one before it is followed by', () => {
    const two = new Set(['First shared one.', 'Second shared one.']);
    // Second stays (`It` leans on it); First is then followed by Second, which stands alone.
    expect(removeSentences('First shared one. Second shared one. It leans.', two)).toEqual({
      text: 'Second shared one. It leans.',
      removed: ['First shared one.'],
      kept: [{ sentence: 'Second shared one.', reason: 'next-leans' }],
    });
    expect(removeSentences('Keep me. First shared one. Second shared one. Done here.', two).text).toBe('Keep me. Done here.');
  });
});

describe('the rule in the transform and the presets', () => {
  const S = 'Every call is billed to the account that makes it, per request.';
  const tools = deepFreeze([
    { name: 'a', description: `Create a key. ${S}`, inputSchema: { type: 'object' } },
    { name: 'b', description: `${S} Rotate a key.`, inputSchema: { type: 'object' } },
    { name: 'c', description: `Revoke a key.\n\n${S}`, inputSchema: { type: 'object' } },
  ]);

  it('is off by default and in safe, on in max', () => {
    expect(promoteCommonParams(tools).report.changes).toEqual([]);
    expect(transformTools(tools, { transforms: [presetSafe] }).instructions).toBeUndefined();
    const max = transformTools(tools, { transforms: [presetMax] });
    expect(max.tools.map((t) => t.description)).toEqual(['Create a key.', 'Rotate a key.', 'Revoke a key.']);
    expect(max.instructions).toBe(`Each tool’s description also says:\n- ${S}`);
  });

  it('max passes its options to the step, and an override is merged over them', () => {
    const steps = resolveSteps([presetMax]);
    expect(steps.find(([t]) => t.name === 'promote-common-params')![1]).toEqual({ sentences: true });
    const tuned = resolveSteps([[presetMax, { overrides: { 'promote-common-params': { minTools: 4 } } }]]);
    expect(tuned.find(([t]) => t.name === 'promote-common-params')![1]).toEqual({ sentences: true, minTools: 4 });
    const off = transformTools(tools, { transforms: [[presetMax, { overrides: { 'promote-common-params': { sentences: false } } }]] });
    expect(off.instructions).toBeUndefined();
  });

  it('goes with promote-common-params when a client does not show instructions, and stays when it does', () => {
    const hidden = transformTools(tools, { transforms: presetForProfile(presetMax, 'openai') });
    expect(hidden.instructions).toBeUndefined();
    expect(hidden.tools[0]!.description).toBe(tools[0]!.description);
    expect(transformTools(tools, { transforms: presetForProfile(presetMax, 'mcp') }).instructions).toBe(`Each tool’s description also says:\n- ${S}`);
    // A client without $ref that shows instructions: dedupe goes, promote-common-params keeps max's options.
    const shown = transformTools(tools, { transforms: presetForProfile(presetMax, { ...profileRefFree, name: 'ref-free-with-instructions', showsInstructions: true }) });
    expect(shown.report.stats.transforms.map((t) => t.name)).not.toContain('dedupe-repeated-subtrees');
    expect(shown.instructions).toBe(`Each tool’s description also says:\n- ${S}`);
  });

  it('rejects a non-boolean option', () => {
    expect(() => promoteCommonParams(tools, { sentences: 'yes' as never })).toThrow(/`sentences` must be a boolean/);
  });

  it('writes nothing for a sentence no tool could lose', () => {
    const leaning = deepFreeze(tools.map((t) => ({ ...t, description: `${S} It leans.` })));
    const r = promoteCommonParams(leaning, { sentences: true });
    expect(r.instructions).toBeUndefined();
    expect(r.report.diagnostics.map((d) => d.code)).toEqual([]);
  });
});

describe('cost', () => {
  const shared = Array.from({ length: 20 }, (_, k) => `Shared sentence number ${k} says something about the whole server.`).join(' ');
  const list = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `t${i}`, description: `Tool ${i} does its own thing. ${shared}`, inputSchema: { type: 'object' } }));
  // No timed assertion (issue 31: timings are the bench's). 20,000 tools sharing 20 sentences: comparing each
  // tool's sentences with every other tool's (quadratic, ~8e9 sentence comparisons) runs for minutes; the linear
  // count takes a second or two, so the test's 60 s timeout is the guard.
  it('grows linearly with the list (20,000 tools, within the test timeout)', () => {
    const r = promoteCommonParams(list(20_000) as never, { sentences: true }, { measure: false, verify: false });
    expect(r.tools).toHaveLength(20_000);
    // Every shared sentence left the tools for the instructions; each tool keeps its own.
    expect((r.tools[19_999] as { description: string }).description).toBe('Tool 19999 does its own thing.');
    expect(r.instructions).toContain('Shared sentence number 19 says something about the whole server.');
  });
});

it('a preset cannot set options for a step it does not hold', async () => {
  const { definePreset, stripNoise } = await import('../../src/index.js');
  expect(() => definePreset('x', 'x', [stripNoise], { 'promote-common-params': { sentences: true } })).toThrow(/not one of its steps/);
});
