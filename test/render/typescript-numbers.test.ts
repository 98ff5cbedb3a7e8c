/**
 * Numbers in the typescript reader's `// default: …` comments, as harmony prints them. Harmony parses the
 * JSON a client sends (`JSON.stringify` of the JavaScript value) with serde_json 1.0.140 and prints a default
 * with `Display`: a number text without fraction or exponent that fits u64 (i64 when negative) is printed as
 * those digits; any other number is an f64, printed by ryu 1.0.20 (`format64`): plain for 10^-5 ≤ |x| < 10^16
 * (`0.00001`, `0.5`), scientific without `+` beyond that (`1e21`, `1.5e-6`, `1.8446744073709552e19`).
 * Every expected text below was worked out by hand from those rules (bench/harmony-check.ts found the
 * difference: JavaScript's `1e+21`, `0.0000015`, `200000000000000000000` where harmony writes `1e21`,
 * `1.5e-6`, `2e20`).
 */
import { describe, expect, it } from 'vitest';
import { getRenderer } from '../../src/index.js';

const ts = getRenderer('typescript');
/** The `// default: …` text of a number property with that default. */
const dflt = (value: unknown) => {
  const block = ts.renderTool({ name: 't', inputSchema: { type: 'object', properties: { x: { type: 'number', default: value } } } });
  const m = /\nx\?: number, \/\/ default: (.*)\n\}\) => any;\n$/.exec(block);
  if (!m) throw new Error(`unexpected block: ${block}`);
  return m[1];
};

describe('typescript reader: numbers as serde_json prints them', () => {
  it.each([
    [3, '3'],
    [-7, '-7'],
    [0, '0'],
    [0.5, '0.5'],
    [1234.5, '1234.5'],
    // JSON.stringify writes 10000000000000000: an integer text within u64, kept.
    [1e16, '10000000000000000'],
    // 1e21 is sent as `1e+21`: an f64, 21 + 1 digits before the point > 16, so scientific, no `+`.
    [1e21, '1e21'],
    [-1.5e300, '-1.5e300'],
    // Sent as 200000000000000000000: an integer text beyond u64, so serde_json reads an f64.
    [2e20, '2e20'],
    // 2^64 - 1 is not a JavaScript number: it is sent as 18446744073709552000 (beyond u64): an f64.
    [18446744073709551615, '1.8446744073709552e19'],
    [-9223372036854775808, '-9.223372036854776e18'],
    // 10^-5 ≤ x: plain; below: scientific.
    [0.00001, '0.00001'],
    [0.0000015, '1.5e-6'],
    [-2.5e-7, '-2.5e-7'],
    [5e-324, '5e-324'],
  ])('%s → %s', (value, text) => {
    expect(dflt(value)).toBe(text);
  });

  it('numbers inside an object or array default are printed the same way', () => {
    expect(dflt({ a: [1e21, 0.000002, 2.5] })).toBe('{"a":[1e21,2e-6,2.5]}');
  });

  it('a oneOf variant default and a property-level oneOf default too', () => {
    const block = ts.renderTool({ name: 't', inputSchema: { type: 'object', properties: { u: { oneOf: [{ type: 'number', default: 1e22 }, { type: 'string' }], default: 3e-6 } } } });
    expect(block).toBe(['type t = (_: {', '// default: 3e-6', 'u?:', ' | number // default: 1e22', ' | string', ',', '}) => any;', ''].join('\n'));
  });
});
