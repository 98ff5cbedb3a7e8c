/**
 * Hostile descriptions for strip-noise (issue 12): each family grows one input that a backtracking pattern
 * could rescan from every position. Used by test/hardening/linear-text.test.ts (doubling ratios) and
 * bench/hostile.ts (each family at about 1 MB through the default call).
 */

/** One family: `build(n)` makes a tools array whose hostile text grows linearly with `n`. */
export interface HostileFamily {
  readonly name: string;
  /** The rule or pattern the family attacks. */
  readonly targets: string;
  /** Characters of hostile text per unit of `n` (about), so callers can size a run by bytes. */
  readonly unit: number;
  readonly build: (n: number) => unknown[];
}

const schema = { type: 'object' } as const;
/** The description on the tool itself. */
const onTool = (description: string): unknown[] => [{ name: 't', description, inputSchema: schema }];
/** The description on a property, with the schema facts that turn on the default and marker rules. */
const onProperty = (description: string, facts: { default?: unknown; required?: boolean } = {}): unknown[] => [
  {
    name: 't',
    inputSchema: {
      type: 'object',
      properties: { p: { type: 'string', description, ...('default' in facts ? { default: facts.default } : {}) }, q: { type: 'string' } },
      required: facts.required === true ? ['p'] : ['q'],
    },
  },
];

const rep = (s: string, n: number) => s.repeat(n);

export const HOSTILE_FAMILIES: readonly HostileFamily[] = [
  // The examples.
  { name: 'see-url-blanks', targets: '`; see <url>` clause', unit: 1, build: (n) => onTool('see http://a.b' + rep(' ', n) + 'b') },
  { name: 'inner-blanks', targets: 'trailing-blank trim', unit: 1, build: (n) => onTool('a' + rep(' ', n) + 'b') },
  { name: 'url-close-parens', targets: 'bare URL trailing `)`', unit: 1, build: (n) => onTool('http://a' + rep(')', n)) },
  { name: 'url-close-brackets', targets: 'bare URL trailing `]`', unit: 1, build: (n) => onTool('http://a' + rep(']', n)) },
  { name: 'open-brackets-link', targets: 'markdown link label', unit: 1, build: (n) => onTool(rep('[', n) + '](x') },
  { name: 'blanks-optional-clause', targets: '`…, optional` clause', unit: 1, build: (n) => onProperty('a' + rep(' ', n) + ', optional') },
  // Found by the audit.
  { name: 'url-blanks', targets: 'URL brackets and URL-before-punctuation', unit: 1, build: (n) => onTool('x http://a.b ' + rep(' ', n) + 'b') },
  { name: 'url-tabs-mixed', targets: 'URL rules on tabs', unit: 2, build: (n) => onTool('x http://a.b' + rep(' \t', n) + 'b') },
  { name: 'stop-blanks-url', targets: 'pointer sentence after a stop', unit: 1, build: (n) => onTool('x http://a.b. ' + rep(' ', n) + 'y') },
  { name: 'stop-blanks-link', targets: 'pointer sentence to a markdown link', unit: 1, build: (n) => onTool('[a](http://x). ' + rep(' ', n) + 'y') },
  { name: 'blanks-before-bracket', targets: '`(<url>)` brackets', unit: 1, build: (n) => onTool('x http://a.b' + rep(' ', n) + '(y') },
  { name: 'blanks-before-square', targets: '`[<url>]` brackets', unit: 1, build: (n) => onTool('x http://a.b' + rep(' ', n) + '[y') },
  { name: 'see-words', targets: '`see` lead-ins', unit: 4, build: (n) => onTool(rep('see ', n) + 'http://a.b') },
  { name: 'see-commas', targets: '`, see` lead-ins', unit: 5, build: (n) => onTool('x' + rep(', see', n) + ' http://a.b') },
  { name: 'open-parens-url', targets: '`(<url>)` brackets', unit: 5, build: (n) => onTool(rep('(see ', n) + 'http://a.b') },
  { name: 'images-unclosed', targets: 'markdown image label', unit: 2, build: (n) => onTool(rep('![', n) + '](http://x') },
  { name: 'link-tails', targets: 'markdown link target', unit: 12, build: (n) => onTool(rep('[](http://a(', n)) },
  { name: 'link-blank-tail', targets: 'markdown link title', unit: 1, build: (n) => onTool('[a](http://x' + rep(' ', n) + 'y') },
  { name: 'autolinks-unclosed', targets: 'autolinks', unit: 8, build: (n) => onTool(rep('<http://', n)) },
  { name: 'urls-run-together', targets: 'bare URLs', unit: 9, build: (n) => onTool(rep('http://a ', n)) },
  { name: 'url-lines', targets: 'finding the lines that hold a URL', unit: 13, build: (n) => onTool(rep('x http://a.b\n', n) + 'y') },
  { name: 'url-trailing-stops', targets: 'bare URL trailing punctuation', unit: 1, build: (n) => onTool('http://a' + rep('.', n) + 'x') },
  { name: 'value-leads', targets: 'URL value lead-ins', unit: 14, build: (n) => onTool(rep('e.g. http://a ', n)) },
  { name: 'backticks', targets: 'inline code spans', unit: 1, build: (n) => onTool('http://a ' + rep('`', n) + ' x') },
  { name: 'one-backtick', targets: 'inline code spans', unit: 1, build: (n) => onTool('http://a `' + rep('a', n)) },
  { name: 'blank-lines', targets: 'blank-line collapse', unit: 1, build: (n) => onTool('a' + rep('\n', n) + 'b') },
  { name: 'blank-lines-spaced', targets: 'line-end trim', unit: 2, build: (n) => onTool('a' + rep(' \n', n) + 'b') },
  { name: 'indented-lines', targets: 'template indentation', unit: 6, build: (n) => onTool('a' + rep('\n    x', n)) },
  { name: 'unicode-blanks', targets: 'whitespace rules on Unicode blanks', unit: 5, build: (n) => onTool('a' + rep('\u00a0\u2003\u3000 \ufeff', n) + 'b') },
  { name: 'line-separators', targets: 'sentences across U+2028', unit: 1, build: (n) => onProperty('Optional: a ' + rep('a', n) + '\u2028b.') },
  { name: 'default-separators', targets: 'sentences across U+2028', unit: 1, build: (n) => onProperty('Default 1 ' + rep('a', n) + '\u2028b.', { default: 1 }) },
  { name: 'example-lines', targets: 'example blocks', unit: 9, build: (n) => onTool('a\n' + rep('Example:\n', n) + 'b') },
  { name: 'fences', targets: 'code fences', unit: 4, build: (n) => onTool('http://a\n' + rep('```\n', n)) },
  { name: 'stops', targets: 'sentences', unit: 2, build: (n) => onProperty('Optional: ' + rep('. ', n) + 'x', { default: 1 }) },
  { name: 'default-sentences', targets: 'restated defaults', unit: 12, build: (n) => onProperty(rep('Default: 1. ', n) + 'x', { default: 1 }) },
  { name: 'default-big-value', targets: 'restated defaults against a large `default`', unit: 12, build: (n) => onProperty(rep('Default: a. ', n) + 'x', { default: rep('a', 12 * n) }) },
  { name: 'default-clauses', targets: 'closing default clauses', unit: 11, build: (n) => onProperty('x' + rep(', default is', n) + ' 1.', { default: 1 }) },
  { name: 'default-clause-blanks', targets: 'closing default clauses', unit: 1, build: (n) => onProperty('x, the' + rep(' ', n) + 'default is 1.', { default: 1 }) },
  { name: 'default-brackets', targets: 'default brackets', unit: 13, build: (n) => onProperty(rep('(default: 1) ', n) + 'x', { default: 1 }) },
  { name: 'default-open-brackets', targets: 'default brackets', unit: 1, build: (n) => onProperty(rep('(', n) + 'default: 1)', { default: 1 }) },
  { name: 'default-lead-blanks', targets: 'default lead-in', unit: 1, build: (n) => onProperty('Defaults' + rep(' ', n) + 'x', { default: 1 }) },
  { name: 'optional-words', targets: 'optional markers', unit: 10, build: (n) => onProperty(rep('optional, ', n) + 'x') },
  { name: 'optional-blanks', targets: 'optional markers', unit: 1, build: (n) => onProperty('Optional:' + rep(' ', n) + 'x') },
  { name: 'optional-sentences', targets: 'optional markers', unit: 11, build: (n) => onProperty(rep('Optional.  ', n) + 'x') },
  { name: 'required-markers', targets: 'required markers', unit: 1, build: (n) => onProperty('x,' + rep(' ', n) + 'required.', { required: true }) },
  { name: 'restated-name', targets: 'restated names', unit: 1, build: (n) => onProperty('the' + rep(' ', n) + 'p') },
];

/**
 * `n` properties, all required: the marker rule looks each up in its parent's `required`. With the
 * default description nothing changes, so the time is the walk and those look-ups.
 */
export function requiredProperties(n: number, description: (i: number) => string = () => 'A value.'): unknown[] {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (let i = 0; i < n; i++) {
    properties[`p${i}`] = { type: 'string', description: description(i) };
    required.push(`p${i}`);
  }
  return [{ name: 't', inputSchema: { type: 'object', properties, required } }];
}
