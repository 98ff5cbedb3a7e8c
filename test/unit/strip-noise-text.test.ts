/** The text rules of strip-noise, one hand-written expectation per case. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanDescription, restatesName, TEXT_RULES, type NoiseRules, type TextRule } from '../../src/transforms/strip-noise/index.js';
import { mayClean } from '../../src/transforms/strip-noise/clean.js';
import { mayRestateName } from '../../src/transforms/strip-noise/rules/restated-names.js';

const CORPUS = join(import.meta.dirname, '..', '..', 'bench', 'corpus');

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
    ['removes the indentation all later lines share, keeps the rest (nested lists)', 'List:\n  - a\n    - b', 'List:\n- a\n  - b'],
    ['keeps indentation when a later line has none', 'List:\n  - a\nend', 'List:\n  - a\nend'],
    ['shares only a common prefix of spaces and tabs', 'T:\n\t x\n\t\ty', 'T:\n x\n\ty'],
    ['dedents around blank lines and fences alike', 'T:\n    a\n\n    ```\n      code\n    ```', 'T:\na\n\n```\n  code\n```'],
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

const NONE: NoiseRules = { urls: false, examples: false, whitespace: false };
const withDefault = (text: string, value: unknown, rules: NoiseRules = NONE) => cleanDescription(text, rules, { hasDefault: true, default: value }).text;
const withRequired = (text: string, required: boolean, rules: NoiseRules = NONE) => cleanDescription(text, rules, { required }).text;

describe('restated defaults', () => {
  it.each([
    ['a closing sentence', 25, 'Maximum number of events (1-2500). Defaults to 25.', 'Maximum number of events (1-2500).'],
    ['an opening sentence takes the space after it', 0, 'Defaults to 0. Use it to paginate.', 'Use it to paginate.'],
    ['a sentence alone on its line takes the line', 0, 'Offset.\nDefaults to 0.\nUse it to paginate.', 'Offset.\nUse it to paginate.'],
    ['a paragraph between paragraphs leaves one blank line', 'fast', 'Mode.\n\nDefaults to fast.\n\nFast skips checks.', 'Mode.\n\nFast skips checks.'],
    ['a last paragraph leaves no blank line at the end', 1, 'Count.\n\nDefault: 1', 'Count.'],
    ['a first paragraph leaves no blank line at the start', 1, 'Default: 1\n\nCount.', 'Count.'],
    ['"Default is" without a period', 'png', 'Type of format. Default is "png"', 'Type of format.'],
    ['"The default value is"', 'moderate', "Filter level. The default value is 'moderate'.", 'Filter level.'],
    ['"If omitted, defaults to"; a string stated bare', '1', 'Sub-indexes to create. If omitted, defaults to 1.', 'Sub-indexes to create.'],
    ['"Default" alone', true, 'Validate nodes. Default true.', 'Validate nodes.'],
    ['"Default value:"', 5, 'Items to use. Default value: 5.', 'Items to use.'],
    ['a bracket closing a sentence', 500, 'Rows to clear (default: 500). Set higher for big sheets.', 'Rows to clear. Set higher for big sheets.'],
    ['a bracket at the end', 10, 'Number of messages (default 10)', 'Number of messages'],
    ['"(default = X)"', 0, 'Elements to skip (default = 0)', 'Elements to skip'],
    ['"(defaults to X)"', 2, 'Retries (defaults to 2).', 'Retries.'],
    ['the last item of a bracketed list', 10, 'Number of results (1-20, default 10)', 'Number of results (1-20)'],
    ['the first item of a bracketed list', 100, 'Users to return (default 100, max 200)', 'Users to return (max 200)'],
    ['a bracket opening the line', 1, '(default: 1) Page to read.', 'Page to read.'],
    ['a closing clause', 400, 'Set the height of chart, default is 400.', 'Set the height of chart.'],
    ['"and the default is"', 10, 'Limit can range between 1 and 100, and the default is 10.', 'Limit can range between 1 and 100.'],
    ['a clause after a semicolon', 'queryPlanner', 'The verbosity; defaults to queryPlanner. Use executionStats for timing.', 'The verbosity. Use executionStats for timing.'],
    ['double quotes', 'primary', 'Calendar ID. Defaults to "primary".', 'Calendar ID.'],
    ['single quotes', 'main', "Source branch. Defaults to 'main'.", 'Source branch.'],
    ['backticks', 'main', 'Source branch. Defaults to `main`.', 'Source branch.'],
    ['curly quotes', 'main', 'Source branch. Defaults to “main”.', 'Source branch.'],
    ['a boolean in backticks', false, 'Dry run. Defaults to `false`.', 'Dry run.'],
    ['a string as JSON with an escape', 'a"b', 'Separator. Defaults to "a\\"b".', 'Separator.'],
    ['an empty string in quotes', '', 'Prefix. Defaults to "".', 'Prefix.'],
    ['null', null, 'A note. Defaults to null.', 'A note.'],
    ['an array as JSON', ['web', 'query'], 'Result filter. Defaults to ["web", "query"].', 'Result filter.'],
    ['an object as JSON', { a: 1 }, 'Options. Defaults to {"a": 1}.', 'Options.'],
    ['every statement of the default', 3, 'Defaults to 3. Retries (default: 3).', 'Retries.'],
  ] as const)('%s', (_name, value, input, expected) => {
    expect(withDefault(input, value)).toBe(expected);
  });

  it.each([
    ['another value', 20, 'Limit. Defaults to 25.'],
    ['a sentence that says more', 'NEXT_PAGE', 'Break type. Defaults to NEXT_PAGE, which starts a new page.'],
    ['a value with an explanation', 'primary', 'Calendar. Defaults to "primary" (the main calendar).'],
    ['a value flagged "(default)" in an explanation', 'markdown', "How to read it. 'markdown' (default) converts markdown; 'raw' keeps it."],
    ['"If true (default), …"', true, 'If true (default), expands recurring events.'],
    ['a number written differently', 1, 'Zoom. Defaults to 1.0.'],
    ['a number in quotes', 1, "Zoom. Defaults to '1'."],
    ['a boolean in another case', true, 'Exact. Defaults to True.'],
    ['a boolean in quotes', true, 'Exact. Defaults to "true".'],
    ['a string in another case', 'Active', 'Status. Defaults to active.'],
    ['an array that is not JSON', ['web', 'query'], "Result filter (default ['web', 'query'])"],
    ['a bracket inside a sentence', 'Active', "Used for create (defaults to 'Active') and required for update."],
    ['a bracket before a comma', 1, 'Page (default: 1), counted from one.'],
    ['a clause that is not the last', 10, 'Results, default is 10, or fewer.'],
    ['a clause with no space after the comma', 1000, 'Rows,default 1000.'],
    ['a statement of a described value, not the default', 5, 'Default retries are handled by the server: 5.'],
    ['a bracket in inline code', 'a', 'Written as `x (default: a)` in the query.'],
    ['a sentence in inline code', 1, 'Write `a. Defaults to 1.` then go.'],
    ['a fenced block', 1, 'Usage:\n```\nDefaults to 1.\n```'],
    ['a list item', 1, 'Options:\n- Defaults to 1.'],
  ] as const)('keeps %s', (_name, value, input) => {
    expect(withDefault(input, value)).toBe(input);
  });

  it('may leave nothing (the transform keeps the description then)', () => {
    expect(withDefault('Defaults to 3.', 3)).toBe('');
  });

  it('runs only with a default: without one nothing changes', () => {
    expect(cleanDescription('Count. Defaults to 1.', ALL).text).toBe('Count. Defaults to 1.');
    expect(cleanDescription('Count. Defaults to 1.', ALL, { hasDefault: false, default: 1 }).text).toBe('Count. Defaults to 1.');
  });

  it('works with the other rules and reports itself', () => {
    const got = cleanDescription('Count.  Tall. See https://x.example/c. Defaults to 1.', ALL, { hasDefault: true, default: 1 });
    expect(got.text).toBe('Count. Tall.');
    expect(got.applied).toEqual(['urls', 'defaults', 'whitespace']);
  });
});

describe('optional and required markers', () => {
  it.each([
    ['"Optional:" capitalises the next word', 'Optional: filter to this sheet.', 'Filter to this sheet.'],
    ['"Optional."', 'Optional. Filters by tag.', 'Filters by tag.'],
    ['"Optional." before a condition: a separate sentence', 'Optional. if set, filters.', 'If set, filters.'],
    ['"(optional)" first', '(optional) label for the run', 'Label for the run'],
    ['"(Optional)" first', '(Optional) Label', 'Label'],
    ['upper case', 'OPTIONAL: Do not use unless asked.', 'Do not use unless asked.'],
    ['a marker on its own line', 'Optional:\n- a\n- b', '- a\n- b'],
    ['"Optional" as an adjective', 'Optional target tab ID.', 'Target tab ID.'],
    ['a word with a slash gets a capital', 'Optional sheet/tab name.', 'Sheet/tab name.'],
    ['a word with a capital inside keeps its case', 'Optional iPhone model.', 'iPhone model.'],
    ['an identifier keeps its case', 'Optional snake_case key.', 'snake_case key.'],
    ['code keeps its case', 'Optional `fields` list.', '`fields` list.'],
    ['a quoted word keeps its case', 'Optional "quoted" thing', '"quoted" thing'],
    ['a non-ASCII word gets a capital', 'Optional élan setting', 'Élan setting'],
    ['an abbreviation keeps its case', 'Optional: e.g. foo', 'e.g. foo'],
    ['" (optional)" last', 'Name of the database (optional)', 'Name of the database'],
    ['" (Optional)." last', 'Name of the database (Optional).', 'Name of the database.'],
    ['a closing sentence "Optional."', 'Format of the text. Optional.', 'Format of the text.'],
    ['a closing sentence "Optional"', 'Format of the text. Optional', 'Format of the text.'],
    ['a line "Optional"', 'Format.\nOptional\nMore.', 'Format.\nMore.'],
    ['a closing clause ", optional."', 'Theme of the chart, optional.', 'Theme of the chart.'],
  ] as const)('optional: %s', (_name, input, expected) => {
    expect(withRequired(input, false)).toBe(expected);
  });

  it.each([
    ['" (required)" last', 'Search text (required)', 'Search text'],
    ['"REQUIRED:"', 'REQUIRED: the record.', 'The record.'],
    ['"Required."', 'Required. The record.', 'The record.'],
    ['a closing sentence', 'The input. Required.', 'The input.'],
    ['"(required)" first', '(required) the record', 'The record'],
  ] as const)('required: %s', (_name, input, expected) => {
    expect(withRequired(input, true)).toBe(expected);
  });

  it.each([
    ['a condition after the adjective', 'Optional when the end has an offset.'],
    ['"Optional if"', 'Optional if only one account is connected.'],
    ['"Optional for:"', 'Optional for: reorder.'],
    ['a condition after "Optional:"', 'Optional: if set, filters.'],
    ['a condition after "(optional)"', '(optional) when set, filters'],
    ['"Optional," with more', 'Optional, but recommended.'],
    ['"Optionally"', 'Optionally filter by tag.'],
    ['"optional" inside a sentence', 'An optional list of tags.'],
    ['a bracket inside a sentence', 'A name (optional) for the run.'],
    ['a list of values', 'Which fields: all, required, optional.'],
    ['a pair of values', 'Either required, optional.'],
    ['a value', 'Mark the attendee as optional.'],
    ['the required marker', 'Search text (required)'],
    ['a marker without a space after it', 'Optional:filter'],
  ] as const)('optional keeps %s', (_name, input) => {
    expect(withRequired(input, false)).toBe(input);
  });

  it.each([
    ['"Required when"', 'Required when type is user.'],
    ['"Required: when"', 'Required: when type is user.'],
    ['"Required for:"', 'Required for: create.'],
    ['"Required for all actions"', 'Required for all actions.'],
    ['"Required" as an adjective (not a marker)', 'Required field name.'],
    ['"required" inside a sentence', 'Explicit confirmation required.'],
    ['the optional marker', 'Optional target tab.'],
  ] as const)('required keeps %s', (_name, input) => {
    expect(withRequired(input, true)).toBe(input);
  });

  it('may leave nothing (the transform keeps the description then)', () => {
    expect(withRequired('Optional', false)).toBe('');
    expect(withRequired('(required)', true)).toBe('(required)');
  });
});

describe('long text costs linear time', () => {
  // Each of these took seconds at 20,000 repetitions when a scan restarted at every position; 200,000
  // would take minutes.
  const n = 200_000;
  it.each([
    ['a run of spaces after a bracket', 'default (' + ' '.repeat(n) + 'x', { hasDefault: true, default: 1 }],
    ['many sentences', 'Defaults to 2. ' + 'a. '.repeat(n), { hasDefault: true, default: 1 }],
    ['many brackets about the default', 'x ' + '(default a) '.repeat(n), { hasDefault: true, default: 1 }],
    ['many commas', 'default' + ', a'.repeat(n) + '.', { hasDefault: true, default: 1 }],
    ['a run of spaces before a marker', 'Optional ' + ' '.repeat(n) + 'x', { required: false }],
    ['many sentences after a marker', 'Optional. ' + 'a. '.repeat(n), { required: false }],
  ] as const)('%s', (_name, text, facts) => {
    // A backtracking pattern would take minutes here: the test's timeout is the guard (bench/hostile.ts times it).
    expect(cleanDescription(text, NONE, facts).text.length).toBeLessThanOrEqual(text.length);
  });
});

describe('a rule’s cheap look (mayApply)', () => {
  // Every description of the bench corpus (real servers' text) plus a few hand-written edge cases: where a
  // rule says it cannot apply, running it must leave the text as it is, so skipping it changes nothing.
  const texts = new Set<string>(['', ' ', 'a\r\nb', 'Optional: x', '(required) y', 'Defaults to 10.', 'Example:\n  x', 'see [a](b)', 'HTTPS://X.EXAMPLE']);
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) k === 'description' && typeof x === 'string' ? texts.add(x) : walk(x);
  };
  for (const f of readdirSync(CORPUS).filter((n) => n.endsWith('.json'))) walk(JSON.parse(readFileSync(join(CORPUS, f), 'utf8')));
  const states = (rule: TextRule<unknown>) => [rule.setup(ALL, {}), rule.setup(ALL, { hasDefault: true, default: 10 }), rule.setup(ALL, { required: true }), rule.setup(ALL, { required: false })].filter((s) => s !== undefined);

  it.each(TEXT_RULES.filter((r) => r.mayApply !== undefined).map((r) => [r.id, r] as const))('%s: no change where it says it cannot apply', (_id, rule) => {
    let passedOver = 0;
    for (const state of states(rule)) {
      for (const text of texts) {
        if (rule.mayApply!(text, state)) continue;
        passedOver++;
        expect(rule.apply(text, state), JSON.stringify(text)).toBe(text);
      }
    }
    expect(passedOver).toBeGreaterThan(100);
  });

  it('whitespace: no change where it says it cannot apply, over generated text of every kind of blank and line', () => {
    const rule = TEXT_RULES.find((r) => r.id === 'whitespace')!;
    const state = rule.setup(ALL, {});
    const piece = fc.constantFrom(' ', '  ', '\t', '\n', '\n\n', '\n\n\n', '\r', '\u00a0', '\u2028', '\ufeff', '\v', '`', '```', '~~~', 'a', 'b c', '-', '*', '.', 'x  y');
    let passedOver = 0;
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 16 }).map((ps) => ps.join('')), (t) => {
        if (rule.mayApply!(t, state)) return;
        passedOver++;
        expect(rule.apply(t, state), JSON.stringify(t)).toBe(t);
      }),
      { seed: 1416, numRuns: 6000 },
    );
    expect(passedOver).toBeGreaterThan(300);
    // Several tidy lines are passed over; any untidy one is not.
    expect(rule.mayApply!('First line.\nSecond line.\n\nA paragraph.', state)).toBe(false);
    for (const t of ['a\n\n\nb', 'a \nb', 'a\n b', '\na', 'a\n', 'a\tb', 'a  b']) expect(rule.mayApply!(t, state), JSON.stringify(t)).toBe(true);
  });

  it('a description no rule may change comes back as it is, and one some rule changes is still cleaned', () => {
    expect(cleanDescription('Plain words.', ALL)).toEqual({ text: 'Plain words.', applied: [] });
    expect(cleanDescription('a\r\nb', { urls: false, examples: false, whitespace: false }).text).toBe('a\nb');
    expect(cleanDescription('Two  spaces', ALL)).toEqual({ text: 'Two spaces', applied: ['whitespace'] });
  });
});

describe('the quick looks strip-noise passes descriptions over with', () => {
  const texts = new Set<string>(['', ' ', 'a ', ' a', 'a\r\nb', 'a\tb', 'a\u00a0b', 'a\u2028b', 'Example', 'EXAMPLES:', 'ExAmPlE', 'see [a](b)', 'HTTPS://X.Y', 'http:/x', 'a  b', 'x ](y', 'Ünïcödé wörds', 'The user ID.', 'user_id']);
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) k === 'description' && typeof x === 'string' ? texts.add(x) : walk(x);
  };
  for (const f of readdirSync(CORPUS).filter((n) => n.endsWith('.json'))) walk(JSON.parse(readFileSync(join(CORPUS, f), 'utf8')));
  // Characters and words every rule starts from, so that generated texts reach each of them.
  const piece = fc.constantFrom(' ', ' ', '  ', '\t', '\n', '\n\n', '\r', '\u00a0', '\u2028', '\ufeff', '`', '```', '~~~', 'a', 'B', 'é', '-', '*', '.', ',', '(', ')', '[', ']', 'Example:', 'examples', '**Examples**:', '_example_ :', 'For example', 'https://a.b/c', 'www.a.b', '[t](https://x)', '<https://a>', 'See', 'Defaults to 1.', 'Optional.', '(required)', 'user', 'ID');
  const text = fc.array(piece, { maxLength: 24 }).map((ps) => ps.join(''));

  it('mayClean: a text it finds nothing in comes back from the text rules as it is, whichever are on', () => {
    let passedOver = 0;
    const rulesets: NoiseRules[] = [ALL, { urls: true, examples: false, whitespace: false }, { urls: false, examples: true, whitespace: false }, { urls: false, examples: false, whitespace: true }];
    for (const t of texts) {
      if (mayClean(t)) continue;
      passedOver++;
      for (const rules of rulesets) expect(cleanDescription(t, rules), JSON.stringify(t)).toEqual({ text: t, applied: [] });
    }
    expect(passedOver).toBeGreaterThan(1000);
    fc.assert(
      fc.property(text, (t) => {
        if (!mayClean(t)) expect(cleanDescription(t, ALL)).toEqual({ text: t, applied: [] });
      }),
      { seed: 1414, numRuns: 3000 },
    );
  });

  it('mayClean answers as the one pattern of everything the rules start from (kept here as the oracle)', () => {
    // Outer whitespace (what trim takes), odd whitespace or \r anywhere, two spaces, a line's trailing blank, an
    // indented line after a break, two blank lines; a line that starts an `Example:` block; a URL's scheme; a
    // markdown link.
    const oracle = /^\s|\s$|[\t\v\f\r\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]| {2}| \n|\n |\n\n\n|(?:^|\n)[ \t]*(?:\*\*|__|\*|_)?examples?(?:\*\*|__|\*|_)?[ \t]*:|https?:\/\/|\]\(/i;
    const validation = join(CORPUS, '..', 'validation');
    const more = new Set<string>();
    const collect = (v: unknown): void => {
      if (Array.isArray(v)) v.forEach(collect);
      else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) k === 'description' && typeof x === 'string' ? more.add(x) : collect(x);
    };
    for (const f of readdirSync(validation).filter((n) => n.endsWith('.json'))) collect(JSON.parse(readFileSync(join(validation, f), 'utf8')));
    expect(more.size).toBeGreaterThan(1000);
    const all = [...texts, ...more, 'EXAMPLE', 'eXample', 'xample', 'HTTP://', 'ftp://x', '://', ' x', 'x ', ' ', '\u1680', 'a\u200ab', 'ﬀexample', 'a\nb', 'a\n\nb', 'a\n\n\nb', 'a \nb', 'a\n b', '\na', 'a\n', '\u2028a', 'a\ufeff', 'a\u0085b', 'For example, x.', 'x\nExample: y', 'x\n**Examples**: y', 'x\n_example_ : y', 'x example: y'];
    for (const t of all) expect(mayClean(t), JSON.stringify(t)).toBe(oracle.test(t));
    fc.assert(
      fc.property(text, (t) => mayClean(t) === oracle.test(t)),
      { seed: 1415, numRuns: 3000 },
    );
  });

  it('mayRestateName: false only where no name is restated (four words or more)', () => {
    for (const t of texts) if (!mayRestateName(t)) expect((t.match(/[\p{L}\p{N}]+/gu) ?? []).length, JSON.stringify(t)).toBeGreaterThan(3);
    expect(mayRestateName('The user ID.')).toBe(true);
    expect(mayRestateName('The ID of the user')).toBe(false);
  });

  it.each(TEXT_RULES.filter((r) => r.idempotent === true).map((r) => [r.id, r] as const))('%s says it is idempotent: given its own output it returns it as it is', (_id, rule) => {
    const state = rule.setup(ALL, {});
    for (const t of texts) {
      const once = rule.apply(t, state);
      expect(rule.apply(once, state), JSON.stringify(t)).toBe(once);
    }
    fc.assert(
      fc.property(text, (t) => {
        const once = rule.apply(t, state);
        expect(rule.apply(once, state)).toBe(once);
      }),
      { seed: 1415, numRuns: 5000 },
    );
  });
});

describe('restatesName reads words as its patterns say', () => {
  // The reading its documentation gives, with the patterns themselves: the oracle for the one-scan paths.
  const oracle = (name: string, description: string): boolean => {
    const words = description.match(/[\p{L}\p{N}]+/gu);
    if (!words || words.length > 3 || /[^\p{L}\p{N}\s.,:;'’-]/u.test(description)) return false;
    const norm = (w: string) => {
      const l = w.toLowerCase();
      return l.length > 2 && l.endsWith('s') ? l.slice(0, -1) : l;
    };
    const nameWords = name
      .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
      .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w !== '')
      .map(norm);
    const filler = new Set(['a', 'an', 'the', 'of', 'this', 'that', 'its', 'your', 'given', 'specified']);
    const content = words.map(norm).filter((w) => !filler.has(w));
    if (nameWords.length === 0 || content.length === 0) return false;
    return content.every((w) => nameWords.includes(w)) || content.join('') === nameWords.join('');
  };

  it('agrees with the patterns on generated names and descriptions, ASCII and not', () => {
    const namePart = fc.constantFrom('a', 'b', 'A', 'B', 'Z', 'z', '0', '9', '_', '-', '.', ' ', '/', 'URL', 'Id', 'ID', 'user', 'é', 'Ü');
    const descPart = fc.constantFrom('', ' ', '\t', '\n', '\v', '\u001f', '.', ',', ':', ';', "'", '’', '-', '_', '(', '/', 'user', 'User', 'ID', 'id', 'ids', 'the', 'The', 'of', 'a', 'url', 'URLs', '1', 'é', 'ß', '日', '\u00a0');
    const cache = new Map();
    let restated = 0;
    fc.assert(
      fc.property(fc.array(namePart, { maxLength: 8 }).map((p) => p.join('')), fc.array(descPart, { maxLength: 7 }).map((p) => p.join('')), (name, description) => {
        const want = oracle(name, description);
        if (want) restated++;
        expect(restatesName(name, description)).toBe(want);
        expect(restatesName(name, description, cache)).toBe(want);
      }),
      { seed: 1416, numRuns: 20000 },
    );
    expect(restated).toBeGreaterThan(100);
  });
});
