/**
 * The one redaction of the CLI: every string the proxy (and the commands that read a live server) writes
 * out of the process that could hold a secret of its configuration passes here — JSON-RPC errors the
 * proxy answers itself, stderr lines, the overlay's `rebuild` command, labels in messages.
 *
 * What becomes `***`:
 * - in a URL: the userinfo (user and password), the value of every query parameter (and a fragment), and
 *   every path segment that looks like a secret (see looksSecret: services that put the key in the path,
 *   `https://mcp.zapier.com/api/mcp/s/<key>/mcp`, often passed to `mcp-remote` as an argument); a URL
 *   given as a command-line word (or as a flag's `=value`) is redacted so too, its host and other segments kept;
 * - every `-H` header value;
 * - command-line words that look like secrets: the value of a flag whose name holds `key`, `token`,
 *   `secret`, `password`/`passwd`, `credential` or `auth` (`--api-key=…`, `--api-key …`, `API_KEY=…`),
 *   a word holding an `sk-…` key, a `Bearer …` value, a word with a published key prefix (`ghp_…`,
 *   `napi_…`, `AKIA…`, … see KEY_PREFIX), and any long random-looking word (see looksSecret: 20+
 *   characters of letters, digits and `-_+=.~` with upper case, lower case and digits, or 32+ with a long
 *   run of letters and digits, as a hex key has) — a key passed as a bare argument, as some servers'
 *   documented usage does (`mcp-server-neon start <key>`);
 * - inside a longer word, only the secret (see embeddedSecrets): a header's value (`x-api-key:<key>`,
 *   `--header=Authorization: <key>`), a JSON config's value under a secret's name (`{"apiKey":"…"}`), a
 *   connection string's `password=…` (`host=db password=…`, `Server=db;Password=…;`), a
 *   key-looking piece (`label:ghp_…`);
 * - then, in any text, every occurrence of those values (the secrets this process was given), in their
 *   raw and URL-decoded forms, when they are at least 6 characters long (shorter ones would blank out
 *   ordinary words; they are still hidden in the labels above).
 *
 * The server's own stderr passes it too, line by line (proxy/server-stderr.ts). Not redacted: what the
 * server itself sends in its messages.
 */

/** A function every outgoing string passes; `secrets` are the exact values it hides anywhere in a text. */
export interface Redactor {
  (text: string): string;
  readonly secrets: readonly string[];
}

const MASK = '***';
// `pat` (a personal access token: `--github-pat`, `GITLAB_PAT`) only as a word of the name: `path`, `pattern`
// and `patch` are not secrets.
const SECRET_NAME = /key|token|secret|passw|credential|auth|cookie|session|(?:^|[-_.])pat(?:$|[-_.=])/i;
const SK = /\bsk-[A-Za-z0-9_-]{8,}/g;
const BEARER = /\b(Bearer|Basic|Token)\s+[A-Za-z0-9._~+/=-]{6,}/gi;
const MIN_GLOBAL = 6;
/** A `name=value` pair inside a word, after a blank, `;` or `&` (not the word's own `NAME=`): lead, name, `=` with its blanks, value (quoted as libpq quotes, or up to a blank, `;` or `&`). */
const SECRET_PAIR = /(^|[\s;&])([A-Za-z_][A-Za-z0-9_.-]*)(\s*=\s*)('(?:[^'\\]|\\.)*'|[^\s;&]+)/g;

/** A redactor hiding these values (and the patterns every redactor hides). */
export function makeRedactor(secrets: Iterable<string> = []): Redactor {
  const values = new Set<string>();
  for (const s of secrets) {
    for (const form of forms(s)) if (form.length >= MIN_GLOBAL && form !== MASK) values.add(form);
  }
  // Longest first, so a secret that contains another is hidden whole.
  const list = [...values].sort((a, b) => b.length - a.length);
  const f = ((text: string) => {
    let out = text;
    for (const v of list) if (out.includes(v)) out = out.split(v).join(MASK);
    return out.replace(SK, MASK).replace(BEARER, (_m, scheme: string) => `${scheme} ${MASK}`);
  }) as Redactor;
  Object.defineProperty(f, 'secrets', { value: list });
  return f;
}

/** The secrets of a server target: URL userinfo and query values, header values, secret-looking arguments. */
export function targetSecrets(target: { kind: 'stdio'; command: string; args: readonly string[] } | { kind: 'http'; url: string; headers?: Readonly<Record<string, string>> }): string[] {
  if (target.kind === 'http') return [...urlSecrets(target.url), ...Object.values(target.headers ?? {})];
  return argSecrets([target.command, ...target.args]);
}

/** A redactor for a server target. */
export function targetRedactor(target: Parameters<typeof targetSecrets>[0]): Redactor {
  return makeRedactor(targetSecrets(target));
}

/**
 * Where a server's own answers hold a secret of its target (a value `targetRedactor` hides: one given on
 * its command line, in its URL or in a header), e.g. a server that writes its base URL, credentials
 * included, into its `instructions`. A capture and the proxy keep the server's text as it came (what the
 * server sends is not redacted), so the caller warns instead. Places are named, never the secret.
 */
export function echoedSecrets(capture: { readonly initialize?: unknown; readonly toolsList?: unknown }, secrets: readonly string[]): string[] {
  if (secrets.length === 0) return [];
  const holds = (value: unknown): boolean => {
    const text = JSON.stringify(value);
    return text !== undefined && secrets.some((s) => text.includes(s) || text.includes(JSON.stringify(s).slice(1, -1)));
  };
  const places: string[] = [];
  if (holds(capture.initialize)) places.push('its initialize result');
  const list = capture.toolsList as { tools?: unknown } | undefined;
  const tools = Array.isArray(list?.tools) ? (list.tools as unknown[]) : [];
  const named: string[] = [];
  tools.forEach((t, i) => {
    if (!holds(t)) return;
    const name = (t as { name?: unknown } | null)?.name;
    named.push(typeof name === 'string' ? `\`${name}\`` : `#${i}`);
  });
  if (named.length > 0) places.push(`tool${named.length === 1 ? '' : 's'} ${named.slice(0, 3).join(', ')}${named.length > 3 ? ` and ${named.length - 3} more` : ''}`);
  else if (tools.length === 0 && holds(capture.toolsList)) places.push('its tools/list result');
  return places;
}

/** The URL with its userinfo, query values and fragment replaced by `***` (the text as given when it is no URL). */
export function redactUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return makeRedactor()(url);
  }
  const auth = u.username !== '' || u.password !== '' ? `${MASK}@` : '';
  const query = u.search === '' ? '' : `?${[...u.searchParams.keys()].map((k) => `${encodeURIComponent(k)}=${MASK}`).join('&')}`;
  const hash = u.hash === '' ? '' : `#${MASK}`;
  const path = u.pathname
    .split('/')
    .map((segment) => (secretSegment(segment) ? MASK : segment))
    .join('/');
  return `${u.protocol}//${auth}${u.host}${path}${query}${hash}`;
}

/** A URL path segment that looks like a secret, raw or percent-decoded (an `=` of base64 may come encoded). */
function secretSegment(segment: string): boolean {
  if (segment.length < 20) return false;
  if (looksSecret(segment)) return true;
  try {
    const decoded = decodeURIComponent(segment);
    return decoded !== segment && looksSecret(decoded);
  } catch {
    return false;
  }
}

/** The word as a URL with a scheme and host (`https://…`, `wss://…`), or undefined: such a word is redacted by {@link redactUrl}. */
function asUrl(word: string): URL | undefined {
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s]/.test(word)) return undefined;
  try {
    return new URL(word);
  } catch {
    return undefined;
  }
}

/** Command-line words with the values that look like secrets replaced by `***`. */
export function redactArgs(words: readonly string[]): string[] {
  const secret = new Set(argSecretIndexes(words).map((s) => s.index));
  return words.map((w, i) => {
    if (!secret.has(i)) {
      // A URL (or `--flag=<URL>`) keeps its host and path; its secrets go (see redactUrl).
      if (asUrl(w) !== undefined) return redactUrl(w);
      const eq = w.indexOf('=');
      if (eq > 0 && asUrl(w.slice(eq + 1)) !== undefined) return `${w.slice(0, eq + 1)}${redactUrl(w.slice(eq + 1))}`;
      let out = w;
      for (const v of embeddedSecrets(w).sort((a, b) => b.length - a.length)) out = out.split(v).join(MASK);
      // A connection string's `password=…` pair, masked in place whatever its length (see embeddedSecrets).
      out = out.replace(SECRET_PAIR, (m: string, lead: string, name: string, sep: string) => (SECRET_NAME.test(name) ? `${lead}${name}${sep}${MASK}` : m));
      return makeRedactor()(out);
    }
    const eq = w.indexOf('=');
    return eq > 0 && SECRET_NAME.test(w.slice(0, eq)) ? `${w.slice(0, eq + 1)}${MASK}` : eq > 0 && looksSecret(w.slice(eq + 1)) ? `${w.slice(0, eq + 1)}${MASK}` : MASK;
  });
}

function urlSecrets(url: string): string[] {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return [];
  }
  const out: string[] = [];
  if (u.username !== '') out.push(u.username);
  if (u.password !== '') out.push(u.password);
  for (const v of u.searchParams.values()) if (v !== '') out.push(v);
  for (const part of u.search.slice(1).split('&')) {
    const eq = part.indexOf('=');
    if (eq >= 0 && part.length > eq + 1) out.push(part.slice(eq + 1));
  }
  if (u.hash.length > 1) out.push(u.hash.slice(1));
  for (const segment of u.pathname.split('/')) if (secretSegment(segment)) out.push(segment);
  return out;
}

function argSecrets(words: readonly string[]): string[] {
  return argSecretIndexes(words).map((s) => s.value);
}

/** Which words hold a secret, and the secret itself. */
function argSecretIndexes(words: readonly string[]): { index: number; value: string }[] {
  const out: { index: number; value: string }[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const eq = w.indexOf('=');
    // A URL's secrets (userinfo, query values, secret-looking path segments) are hidden wherever they
    // appear; the word itself is redacted as a URL (redactArgs), not blanked.
    const url = asUrl(w) ?? (eq > 0 && !SECRET_NAME.test(w.slice(0, eq)) ? asUrl(w.slice(eq + 1)) : undefined);
    if (url !== undefined) {
      for (const value of urlSecrets(url.href)) out.push({ index: -1, value });
      continue;
    }
    if (eq > 0) {
      const name = w.slice(0, eq);
      const value = w.slice(eq + 1);
      if (value !== '' && (SECRET_NAME.test(name) || looksSecret(value))) {
        out.push({ index: i, value });
        continue;
      }
    }
    if (/^--?[A-Za-z]/.test(w) && eq < 0 && SECRET_NAME.test(w) && i + 1 < words.length && !words[i + 1]!.startsWith('-')) {
      out.push({ index: i + 1, value: words[i + 1]! });
      i++;
      continue;
    }
    if (looksSecret(w)) {
      out.push({ index: i, value: w });
      continue;
    }
    for (const value of embeddedSecrets(w)) out.push({ index: -1, value });
  }
  return out;
}

/**
 * Secrets inside a longer word, which redactArgs masks in place (the rest of the word stays): the value of a
 * header written `Name:value` or `Name: value` whose name is a secret's (`x-api-key:…`, `Authorization:…`,
 * alone or as a flag's `=value`: mcp-remote's `--header` usage), the string value of a JSON key with such a
 * name (`{"apiKey":"…"}`, a JSON config argument), and any piece between punctuation that looks like a key
 * (`label:ghp_…`).
 */
function embeddedSecrets(w: string): string[] {
  const out: string[] = [];
  const eq = w.indexOf('=');
  for (const part of eq > 0 ? [w, w.slice(eq + 1)] : [w]) {
    const header = /^([A-Za-z0-9_-]+)\s*:\s*(\S.*)$/.exec(part);
    if (header !== null && SECRET_NAME.test(header[1]!) && !header[2]!.startsWith('//')) out.push(header[2]!);
  }
  for (const m of w.matchAll(/"([^"\\]*)"\s*:\s*"((?:[^"\\]|\\.)+)"/g)) if (SECRET_NAME.test(m[1]!)) out.push(m[2]!);
  // `name=value` pairs after a blank, `;` or `&`, as connection strings hold them: libpq's `host=db password=…`,
  // ADO.NET's `Server=db;Password=…;`. Searched in other text only from MIN_GLOBAL characters, as every value.
  for (const m of w.matchAll(SECRET_PAIR)) if (SECRET_NAME.test(m[2]!) && m[4]!.length >= MIN_GLOBAL) out.push(m[4]!);
  for (const piece of w.split(/[\s:=,;"'{}[\]()<>|&]+/)) if (piece !== w && looksSecret(piece)) out.push(piece);
  return [...new Set(out)];
}

/**
 * Prefixes of API keys and tokens as their issuers publish them (GitHub, GitLab, Slack, Stripe, AWS, Google,
 * Hugging Face, npm, Supabase, Shopify, Linear, Notion, Neon, Tavily, Firecrawl, Perplexity, Groq, xAI,
 * Replicate, DigitalOcean), followed by at least 16 token characters with a digit among them: a key's shape,
 * not a word that starts the same way.
 */
const KEY_PREFIX = /^(?:ghp_|gho_|ghu_|ghs_|ghr_|github_pat_|glpat-|xox[abposr]-|sk_live_|sk_test_|rk_live_|rk_test_|AKIA|ASIA|AIza|hf_|npm_|sbp_|shpat_|shpss_|lin_api_|ntn_|napi_|tvly-|fc-|pplx-|gsk_|xai-|r8_|dop_v1_)(?=[A-Za-z0-9_-]*[0-9])[A-Za-z0-9_-]{16,}$/;

/**
 * An `sk-…` key, a word with a known key prefix, or a random-looking word: 20+ characters with upper case,
 * lower case and digits (at least 3.5 bits of entropy per character), or 32+ characters holding a run of 24+
 * letters and digits with both in it (at least 3 bits per character) — a hex or lower-case key such as
 * Neon's `napi_…` or a 32-character hex API key, which have no upper case. Not a path or a package name
 * (their `/` and `@` are not token characters), nor a hyphenated name or a UUID (no run that long).
 */
function looksSecret(w: string): boolean {
  SK.lastIndex = 0;
  if (SK.test(w)) return true;
  if (w.length < 20 || !/^[A-Za-z0-9_\-+=.~]+$/.test(w)) return false;
  if (KEY_PREFIX.test(w)) return true;
  if (/[a-z]/.test(w) && /[A-Z]/.test(w) && /[0-9]/.test(w) && entropy(w) >= 3.5) return true;
  if (w.length < 32) return false;
  const run = longestRun(w);
  return run.length >= 24 && /[0-9]/.test(run) && /[A-Za-z]/.test(run) && entropy(w) >= 3;
}

/** The longest run of letters and digits in a word. */
function longestRun(w: string): string {
  let best = '';
  for (const r of w.split(/[^A-Za-z0-9]+/)) if (r.length > best.length) best = r;
  return best;
}

/** Shannon entropy in bits per character. */
function entropy(w: string): number {
  const counts = new Map<string, number>();
  for (const c of w) counts.set(c, (counts.get(c) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) {
    const p = n / w.length;
    h -= p * Math.log2(p);
  }
  return h;
}

function forms(s: string): string[] {
  const out = [s];
  try {
    const d = decodeURIComponent(s.replace(/\+/g, ' '));
    if (d !== s) out.push(d);
  } catch {
    // Not percent-encoded text: the raw form only.
  }
  const e = encodeURIComponent(s);
  if (e !== s) out.push(e);
  return out;
}
