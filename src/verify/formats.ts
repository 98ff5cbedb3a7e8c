/**
 * The string formats the gate asserts, with a valid and an invalid sample of each. The checks are
 * deliberately simple (the gate only needs the SAME judgment before and after a rewrite, so that a
 * rewrite that drops a `format` is seen); formats not listed here are ignored, as ajv does without
 * `ajv-formats`.
 */

/** One format: its check and samples the instance generator uses. */
export interface FormatSpec {
  readonly check: (s: string) => boolean;
  readonly valid: readonly string[];
  readonly invalid: readonly string[];
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^([01]\d|2[0-3]):([0-5]\d):([0-5]\d|60)(\.\d+)?([zZ]|[+-]([01]\d|2[0-3]):[0-5]\d)$/;
const LABEL = '[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?';
const HOSTNAME = new RegExp(`^${LABEL}(?:\\.${LABEL})*\\.?$`);

function isDate(s: string): boolean {
  const m = DATE.exec(s);
  if (!m) return false;
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12 || day < 1) return false;
  const year = Number(m[1]);
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
  return day <= days;
}

function isDateTime(s: string): boolean {
  const t = s.search(/[tT ]/);
  return t === 10 && isDate(s.slice(0, 10)) && TIME.test(s.slice(11));
}

function isIpv4(s: string): boolean {
  const parts = s.split('.');
  return parts.length === 4 && parts.every((p) => /^(?:0|[1-9]\d{0,2})$/.test(p) && Number(p) <= 255);
}

function isIpv6(s: string): boolean {
  if (!/^[0-9a-fA-F:.]+$/.test(s) || s.indexOf(':') === -1) return false;
  const double = s.split('::');
  if (double.length > 2) return false;
  const groups = s.split(':').filter((g) => g !== '');
  if (groups.some((g) => g.length > 4 && !isIpv4(g))) return false;
  return double.length === 2 ? groups.length < 8 : groups.length === 8;
}

/**
 * What /^[^\s@]+@[^\s@]+\.[^\s@]+$/ accepts, read in one pass: no whitespace, exactly one `@` with something
 * before it, and after it a `.` with something on both sides. The expression itself tried every dot of the
 * domain in turn, each time scanning to the end: a server's `default` of 100 kB with a dot every other
 * character took seconds (the instances the gate judges hold a server's defaults).
 */
function isEmail(s: string): boolean {
  const at = s.indexOf('@');
  if (at <= 0 || s.indexOf('@', at + 1) !== -1 || /\s/.test(s)) return false;
  const dot = s.indexOf('.', at + 2);
  return dot !== -1 && dot < s.length - 1;
}

/** Formats by name. */
export const FORMATS: Readonly<Record<string, FormatSpec>> = Object.freeze({
  date: { check: isDate, valid: ['2024-02-29'], invalid: ['2023-02-29', '24-1-1'] },
  time: { check: (s: string) => TIME.test(s), valid: ['10:30:00Z'], invalid: ['25:00:00Z'] },
  'date-time': { check: isDateTime, valid: ['2024-01-15T10:30:00Z', '2024-01-15T10:30:00.5+02:00'], invalid: ['2024-01-15', 'yesterday'] },
  email: { check: isEmail, valid: ['user@example.com'], invalid: ['user@', 'not an email'] },
  uri: { check: (s: string) => /^[a-zA-Z][a-zA-Z0-9+.-]*:[^\s]*$/.test(s), valid: ['https://example.com/a?b=1'], invalid: ['/relative/path', 'not a uri'] },
  'uri-reference': { check: (s: string) => /^[^\s]*$/.test(s), valid: ['/relative/path', 'https://example.com'], invalid: ['not a uri'] },
  url: { check: (s: string) => /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^\s]+$/.test(s), valid: ['https://example.com'], invalid: ['example dot com'] },
  uuid: { check: (s: string) => /^(?:urn:uuid:)?[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/.test(s), valid: ['123e4567-e89b-12d3-a456-426614174000'], invalid: ['123e4567-e89b-12d3-a456', 'not-a-uuid'] },
  ipv4: { check: isIpv4, valid: ['192.168.0.1'], invalid: ['256.1.1.1'] },
  ipv6: { check: isIpv6, valid: ['::1', '2001:db8::8a2e:370:7334'], invalid: ['2001:db8:::1', '12345::'] },
  hostname: { check: (s: string) => s.length <= 253 && HOSTNAME.test(s), valid: ['example.com'], invalid: ['-bad-.com', 'has space'] },
});
