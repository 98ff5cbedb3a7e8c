/**
 * A JSON number as harmony prints it in a `// default: …` comment. Harmony (Rust) parses the request with
 * serde_json 1.0.140 and prints a value with `Display`, i.e. serde_json's own writer:
 *
 * - a number written without fraction or exponent that fits `u64` (or `i64` when negative) stays an integer
 *   and is printed as those digits;
 * - every other number is an `f64`, printed by the ryu crate: the shortest digits that read back, laid out as
 *   `12340000000.0` (integer values below 10^16), `12.34`, `0.001234` (down to 10^-5), and otherwise in
 *   scientific form without a `+`: `1e21`, `1.5e-6`, `-9.223372036854776e18`.
 *
 * What harmony reads is the JSON a client sends for the tool, i.e. `JSON.stringify` of the JavaScript
 * number (a client cannot keep `1.0` apart from `1`); that text decides integer or float.
 */

const U64_MAX = 18446744073709551615n;
const I64_MIN = -9223372036854775808n;

/** `n` as serde_json prints the number `JSON.stringify(n)` parses to; non-finite numbers are `null` (as JSON sends them). */
export function serdeNumber(n: number): string {
  if (!Number.isFinite(n)) return 'null';
  const sent = JSON.stringify(n);
  if (/^-?\d+$/.test(sent)) {
    const big = BigInt(sent);
    if (big >= I64_MIN && big <= U64_MAX) return sent;
  }
  return ryu(n);
}

/** A finite f64 as ryu's `format64` lays it out. */
function ryu(n: number): string {
  if (n === 0) return Object.is(n, -0) ? '-0.0' : '0.0';
  const sign = n < 0 ? '-' : '';
  // toExponential() without an argument gives the shortest digits that read back, as ryu does.
  const [mantissa, exp] = Math.abs(n).toExponential().split('e') as [string, string];
  const digits = mantissa.replace('.', '');
  const len = digits.length;
  const kk = Number(exp) + 1; // 10^(kk-1) <= |n| < 10^kk
  const k = kk - len; // |n| = digits × 10^k
  if (k >= 0 && kk <= 16) return `${sign}${digits}${'0'.repeat(k)}.0`;
  if (kk > 0 && kk <= 16) return `${sign}${digits.slice(0, kk)}.${digits.slice(kk)}`;
  if (kk > -5 && kk <= 0) return `${sign}0.${'0'.repeat(-kk)}${digits}`;
  return `${sign}${digits[0]}${len > 1 ? `.${digits.slice(1)}` : ''}e${kk - 1}`;
}
