/** The text rules of strip-noise, one hand-written expectation per case. */
import { describe, expect, it } from 'vitest';
import { cleanDescription, restatesName, type NoiseRules } from '../../src/transforms/strip-noise.js';

const ALL: NoiseRules = { urls: true, examples: true, whitespace: true };
const clean = (text: string, rules: NoiseRules = ALL) => cleanDescription(text, rules).text;

describe('URLs', () => {
  it.each([
    ['a markdown link keeps its text', 'The SID of the [Account](https://x.example/docs/account) that made it.', 'The SID of the Account that made it.'],
    ['a link with a title keeps its text', 'Read [the guide](https://x.example/g "Guide") first.', 'Read the guide first.'],
    ['an image keeps its alt text', '![diagram](https://x.example/d.png) of the flow', 'diagram of the flow'],
    ['a relative link keeps its text', 'See the [notes](./notes.md) file.', 'See the notes file.'],
    ['brackets that are not a link stay', 'Use items[0](optional) syntax', 'Use items[0](optional) syntax'],
    ['a bare URL in a sentence goes', 'Docs live at https://x.example/docs and are current.', 'Docs live at and are current.'],
    ['a URL before punctuation takes its space', 'Upload to https://x.example/upload.', 'Upload to.'],
    ['a sentence that only points at a link goes', 'Lists files. See https://x.example/files for more.', 'Lists files.'],
    ['"Read more … at <url>" goes', 'Sets the version. Read more about versions at https://x.example/v.', 'Sets the version.'],
    ['a reference line goes', 'Query issues.\nAPI reference: https://x.example/api', 'Query issues.'],
    ['"; see <url> for details" goes', 'A JMESPath expression; see https://jmespath.org for details', 'A JMESPath expression'],
    ['a parenthesised URL goes with its brackets', 'The home page (https://x.example).', 'The home page.'],
    ['"(i.e., <url>)" goes', 'A goggle (i.e., https://x.example/goggle).', 'A goggle.'],
    ['an autolink goes', 'Token <https://x.example/tokens> with repo scope', 'Token with repo scope'],
    ['a balanced parenthesis stays in the URL', 'Wiki https://en.wikipedia.org/wiki/Foo_(bar) here', 'Wiki here'],
    ['a URL template is a value: kept', 'Format: https://{vault}.vault.azure.net/keys/{name}', 'Format: https://{vault}.vault.azure.net/keys/{name}'],
    ['"e.g." introduces a value: kept', 'An endpoint (e.g., https://svc.example.com/), required', 'An endpoint (e.g., https://svc.example.com/), required'],
    ['"such as" introduces a value: kept', 'A repository URL such as https://github.com/o/r', 'A repository URL such as https://github.com/o/r'],
    ['a quoted URL is a value: kept', "Typically 'https://us.sentry.io'.", "Typically 'https://us.sentry.io'."],
    ['inline code is never touched', 'Clone `https://x.example/r.git` now', 'Clone `https://x.example/r.git` now'],
    ['a scheme without a host is not a URL', 'Either http:// or https://.', 'Either http:// or https://.'],
  ])('%s', (_name, input, expected) => {
    expect(clean(input)).toBe(expected);
  });

  it('leaves fenced code alone', () => {
    const text = 'Call it:\n```\ncurl https://x.example/api\n```';
    expect(clean(text)).toBe(text);
  });

  it('leaves text holding a NUL alone (the rule marks removed URLs with one)', () => {
    expect(clean('a\u0000 https://x.example b', { urls: true, examples: false, whitespace: false })).toBe('a\u0000 https://x.example b');
  });
});

describe('Example blocks', () => {
  it.each([
    ['a block runs to the next blank line', 'Lists.\n\nExample: ls()\nls(1)\n\nReturns names.', 'Lists.\n\nReturns names.'],
    ['a block runs to the end', 'Glob.\nExamples:\n- *.ts\n- src/**', 'Glob.'],
    ['emphasis around the word is allowed', 'Run.\n**Examples:**\n- a\n\nDone.', 'Run.\n\nDone.'],
    ['case does not matter', 'Run.\nEXAMPLE: x\n\nDone.', 'Run.\n\nDone.'],
    ['a fence inside a block belongs to it, blank lines and all', 'Run.\nExample:\n```\na\n\nb\n```\nmore\n\nDone.', 'Run.\n\nDone.'],
    ['mid-line mentions stay', 'Search. Example: foo', 'Search. Example: foo'],
    ['"Usage examples:" does not start a block', 'Usage examples:\nfoo', 'Usage examples:\nfoo'],
    ['a list item does not start a block', '- Example: one\n- two', '- Example: one\n- two'],
    ['"For example," in prose stays', 'For example, foo.', 'For example, foo.'],
  ])('%s', (_name, input, expected) => {
    expect(clean(input)).toBe(expected);
  });

  it('an Example line inside a fence is code, not a block', () => {
    const text = 'Usage:\n```\nExample: x\n```\nEnd.';
    expect(clean(text)).toBe(text);
  });
});

describe('whitespace', () => {
  it.each([
    ['trims the ends', '  hello  ', 'hello'],
    ['collapses runs inside a line', 'a   b\t\tc', 'a b c'],
    ['keeps indentation (nested lists)', 'List:\n  - a\n    - b', 'List:\n  - a\n    - b'],
    ['keeps single newlines', 'one\ntwo', 'one\ntwo'],
    ['collapses blank-line runs to one', 'one\n\n\n\ntwo', 'one\n\ntwo'],
    ['treats lines of spaces as blank', 'one\n   \n \ntwo', 'one\n\ntwo'],
    ['normalizes CRLF', 'one\r\ntwo\rthree', 'one\ntwo\nthree'],
    ['keeps runs inside inline code', 'use `a  b`  now', 'use `a  b` now'],
    ['keeps runs inside fenced code but trims line ends', '```\na  b  \n```', '```\na  b\n```'],
  ])('%s', (_name, input, expected) => {
    expect(clean(input)).toBe(expected);
  });
});

describe('cleanDescription', () => {
  it('reports which rules changed something', () => {
    expect(cleanDescription('See [x](https://a.example).  \n\nExample: 1', ALL).applied).toEqual(['urls', 'examples', 'whitespace']);
    expect(cleanDescription('plain', ALL).applied).toEqual([]);
  });

  it('applies only the rules asked for', () => {
    expect(clean('a  https://x.example/b', { urls: false, examples: false, whitespace: true })).toBe('a https://x.example/b');
    expect(clean('a  https://x.example/b', { urls: true, examples: false, whitespace: false })).toBe('a');
  });

  it('returns a fixed point: removing one link can expose another', () => {
    // The link's target is not a URL until the bare URL inside it is gone.
    const input = 'x [a](b https://x.example) y';
    const once = clean(input);
    expect(clean(once)).toBe(once);
  });

  it('may return an empty text (callers keep the original then)', () => {
    expect(clean('https://x.example/only')).toBe('');
    expect(clean('Example: only')).toBe('');
  });
});

describe('restatesName', () => {
  it.each([
    ['id', 'The ID', true],
    ['id', 'ID.', true],
    ['userId', 'User ID', true],
    ['user_id', 'The user', true],
    ['userid', 'User ID', true],
    ['HTTPMethod', 'HTTP method', true],
    ['ids', 'The IDs', true],
    ['page-token', 'Page token', true],
    ['title', 'The title', true],
    ['query', 'Search query', false],
    ['page', 'Page number', false],
    ['name', 'Name of the file', false],
    ['id', 'ID (UUID)', false],
    ['limit', 'Limit ≥ 1', false],
    ['id', 'The target ID', false],
    ['id', '', false],
    ['id', 'The', false],
    ['x', 'a b c d', false],
  ] as const)('%s / %j → %s', (name, description, expected) => {
    expect(restatesName(name, description)).toBe(expected);
  });
});
