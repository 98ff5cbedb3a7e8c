import type { EditContext } from '../core/context.js';
import { defineTransform } from '../core/define-transform.js';
import { SCHEMA_SLOTS, type SchemaSlot } from '../mcp/types.js';
import { getSchemaDocuments } from '../schema/documents.js';
import { DIALECTS, type Dialect } from '../schema/keywords.js';
import { appendPointer, hasOwn, isObject, unescapeToken } from '../schema/pointer.js';
import { walkSchema } from '../schema/walk.js';

/** Options of {@link stripNoise}. Every rule is on by default. */
export interface StripNoiseOptions {
  /** Remove URLs; a markdown link keeps its text. */
  readonly urls?: boolean;
  /** Remove blocks that start with a line `Example:` / `Examples:`, up to the next blank line. */
  readonly examples?: boolean;
  /** Trim, collapse runs of spaces and tabs, and runs of blank lines (single newlines stay). */
  readonly whitespace?: boolean;
  /** Remove parameter descriptions of three words or fewer that only restate the parameter's name. */
  readonly restatedNames?: boolean;
  /** Which schemas of each tool to clean (default both); the tool's own `description` is always cleaned. */
  readonly slots?: readonly SchemaSlot[];
  /** The dialect of a schema without `$schema` (MCP: 2020-12); decides where schema positions are. */
  readonly assume?: Dialect;
}

/**
 * Cleans descriptions (the tool's and every schema `description` annotation): URLs, `Example:` blocks
 * and redundant whitespace go; a parameter description that only restates the parameter's name goes.
 * Never empties a description, never touches names or anything inside data (`default`, `const`, `enum`,
 * `examples`, `x-*`).
 */
export const stripNoise = defineTransform<StripNoiseOptions, undefined>({
  name: 'strip-noise',
  description: 'Remove URLs, Example: blocks, extra whitespace and name-restating parameter descriptions',
  safety: 'annotation',
  defaultOptions: { urls: true, examples: true, whitespace: true, restatedNames: true, slots: SCHEMA_SLOTS, assume: '2020-12' },
  messages: {
    'cleaned-description': 'Removed {what} from the description',
    'removed-restated-description': 'Removed the description {text} of `{name}`: it only restates the name',
    'kept-description': 'Kept the description unchanged: removing {what} would leave it empty (expected some other text beside them)',
    'unknown-dialect': 'Left the schema’s descriptions unchanged: `$schema` `{uri}` names a meta-schema toolslim does not know (expected a JSON Schema draft URI)',
  },
  validateOptions(options) {
    for (const key of ['urls', 'examples', 'whitespace', 'restatedNames'] as const) {
      if (typeof options[key] !== 'boolean') throw new Error(`\`${key}\` must be a boolean`);
    }
    if (!Array.isArray(options.slots) || options.slots.some((s) => !SCHEMA_SLOTS.includes(s))) throw new Error('`slots` must list `inputSchema` and/or `outputSchema`');
    if (!DIALECTS.includes(options.assume as Dialect)) throw new Error(`\`assume\` must be one of ${DIALECTS.join(', ')}`);
  },
  apply(doc, ctx, options) {
    const rules: NoiseRules = { urls: options.urls !== false, examples: options.examples !== false, whitespace: options.whitespace !== false };
    const tool = doc.tool as Record<string, unknown>;
    if (hasOwn(tool, 'description') && typeof tool.description === 'string') {
      const cleaned = cleanText(ctx, '/description', tool.description, rules);
      if (cleaned !== undefined) ctx.replace('/description', cleaned.text, 'cleaned-description', { what: cleaned.what });
    }
    const { documents, unknown } = getSchemaDocuments(doc.tool, options.slots ?? SCHEMA_SLOTS, options.assume ?? '2020-12');
    for (const u of unknown) ctx.report('info', 'unknown-dialect', u.base + '/$schema', { uri: String(u.uri) });
    for (const d of documents) {
      if (!d.table.has('description')) continue;
      const edits: { path: string; text?: string; what?: string; name?: string; restated?: string }[] = [];
      walkSchema(d.schema, '', {
        table: d.table,
        onSchema(node, path, keyword) {
          if (!isObject(node) || !hasOwn(node, 'description') || typeof node.description !== 'string') return;
          const at = d.base + appendPointer(path, 'description');
          const cleaned = cleanText(ctx, at, node.description, rules);
          const text = cleaned?.text ?? node.description;
          if (options.restatedNames !== false && keyword === 'properties') {
            const name = unescapeToken(path.slice(path.lastIndexOf('/') + 1));
            if (restatesName(name, text)) {
              edits.push({ path: at, name, restated: node.description });
              return;
            }
          }
          if (cleaned !== undefined) edits.push({ path: at, text: cleaned.text, what: cleaned.what });
        },
      });
      for (const e of edits) {
        if (e.restated !== undefined) ctx.remove(e.path, 'removed-restated-description', { text: JSON.stringify(e.restated), name: e.name! });
        else ctx.replace(e.path, e.text, 'cleaned-description', { what: e.what! });
      }
    }
  },
});

/** Which text rules apply. */
export interface NoiseRules {
  readonly urls: boolean;
  readonly examples: boolean;
  readonly whitespace: boolean;
}

/** What {@link cleanDescription} did. */
export interface CleanedText {
  readonly text: string;
  /** Rules that changed something, in a fixed order. */
  readonly applied: readonly ('urls' | 'examples' | 'whitespace')[];
}

const MAX_PASSES = 8;

/**
 * Cleans one description. Passes repeat until nothing changes (removing a URL can expose another
 * link), so the result is a fixed point; text that does not settle within a few passes is returned
 * unchanged. The result may be empty: callers decide what to do then.
 */
export function cleanDescription(text: string, rules: NoiseRules): CleanedText {
  const applied = new Set<'urls' | 'examples' | 'whitespace'>();
  let current = text;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    let next = current.indexOf('\r') === -1 ? current : current.replace(/\r\n?/g, '\n');
    if (rules.urls) {
      const t = removeUrls(next);
      if (t !== next) applied.add('urls');
      next = t;
    }
    if (rules.examples) {
      const t = removeExampleBlocks(next);
      if (t !== next) applied.add('examples');
      next = t;
    }
    if (rules.whitespace) {
      const t = collapseWhitespace(next);
      if (t !== next) applied.add('whitespace');
      next = t;
    }
    if (next === current) return { text: current, applied: ORDER.filter((r) => applied.has(r)) };
    current = next;
  }
  return { text, applied: [] };
}

const ORDER = ['urls', 'examples', 'whitespace'] as const;
const WHAT: Record<(typeof ORDER)[number], string> = { urls: 'URLs', examples: 'example blocks', whitespace: 'extra whitespace' };

/**
 * The cleaned text of a description and what was removed, or undefined when it stays as it is (nothing
 * to clean, or cleaning would leave nothing: then the URLs or examples were the information).
 */
function cleanText(ctx: EditContext, path: string, text: string, rules: NoiseRules): { text: string; what: string } | undefined {
  const { text: cleaned, applied } = cleanDescription(text, rules);
  if (cleaned === text) return undefined;
  if (cleaned === '') {
    const removed = applied.filter((r) => r !== 'whitespace');
    if (removed.length > 0) ctx.report('info', 'kept-description', path, { what: listOf(removed.map((r) => WHAT[r])) });
    return undefined;
  }
  return { text: cleaned, what: listOf(applied.map((r) => WHAT[r])) };
}

function listOf(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return items.slice(0, -1).join(', ') + ' and ' + items[items.length - 1];
}

// ---------------------------------------------------------------------------------------------------
// URLs

const MARK = '\u0000';
const LINK_TARGET = String.raw`(?:https?:\/\/|mailto:|www\.|\.{0,2}\/|#)`;
const MARKDOWN_LINK = new RegExp(String.raw`!?\[([^\]\n]*)\]\(\s*(?:<${LINK_TARGET}[^<>\n]*>|${LINK_TARGET}[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)(?:\s+(?:"[^"\n]*"|'[^'\n]*'))?\s*\)`, 'gi');
const AUTOLINK = /<https?:\/\/[^<>\s]*>/gi;
const BARE_URL = /\bhttps?:\/\/[\p{L}\p{N}[][^\s<>"'`]*/giu;
const TRAILING_PUNCTUATION = '.,;:!?\'"*_';
/** Words that introduce a URL as a value's shape (`e.g. https://…`): such URLs stay. */
const VALUE_LEAD = /(?:\be\.g\.|\beg\.|\bfor example|\bsuch as|\blike|\bformat)[\s,:]*$|['"“‘]$/i;
/**
 * A sentence that only points at a link (`See https://…`, `Read more about versioning at https://…`,
 * `API reference: https://…`) goes with it: it starts with such a lead-in and ends at the URL.
 */
const LINK_LEAD = /(^|[.!?][ \t]+|\n)[ \t]*(?:see|read more|learn more|more info(?:rmation)?|for more (?:info(?:rmation)?|details)|refer to|documentation|docs?|(?:api )?reference|details)\b[^.!?\n\u0000]{0,80}\u0000(?:[ \t]+for (?:more )?(?:details|information|info|more))?[ \t]*(?:\.(?=\s|$)|(?=\n|$))/gim;

/**
 * Markdown links and images keep their text; autolinks and bare `http(s)` URLs are removed, except URLs
 * that show a value's shape: templates (`https://{vault}.vault.azure.net`), quoted URLs, and URLs
 * introduced by `e.g.`, `for example`, `such as`, `like` or `format`. Code (fenced blocks, `inline
 * spans`) is never touched.
 */
function removeUrls(text: string): string {
  if (text.indexOf(MARK) !== -1 || (text.indexOf('](') === -1 && !/https?:\/\//i.test(text))) return text;
  const lines = text.split('\n');
  let fence: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const f = FENCE.exec(line);
    if (fence !== undefined) {
      if (f && f[1] === fence) fence = undefined;
      continue;
    }
    if (f) {
      fence = f[1];
      continue;
    }
    const parts = line.split(/(`[^`\n]*`)/);
    for (let j = 0; j < parts.length; j += 2) {
      let part = parts[j]!.replace(MARKDOWN_LINK, (_m, label: string) => label);
      part = part.replace(AUTOLINK, MARK);
      parts[j] = markBareUrls(part);
    }
    lines[i] = parts.join('');
  }
  return removeMarks(lines.join('\n'));
}

function markBareUrls(text: string): string {
  let out = '';
  let last = 0;
  BARE_URL.lastIndex = 0;
  for (let m = BARE_URL.exec(text); m !== null; m = BARE_URL.exec(text)) {
    const start = m.index;
    let end = start + m[0].length;
    // Trailing punctuation belongs to the sentence; a closing bracket only when unbalanced in the URL.
    for (;;) {
      const c = text[end - 1]!;
      if (TRAILING_PUNCTUATION.includes(c)) end--;
      else if ((c === ')' && count(text, start, end, '(') < count(text, start, end, ')')) || (c === ']' && count(text, start, end, '[') < count(text, start, end, ']'))) end--;
      else break;
    }
    BARE_URL.lastIndex = end;
    const url = text.slice(start, end);
    if (url.includes('{') || VALUE_LEAD.test(text.slice(Math.max(0, start - 24), start))) continue;
    out += text.slice(last, start) + MARK;
    last = end;
  }
  return out + text.slice(last);
}

/** Removes the marks left where URLs were, with what only framed them. */
function removeMarks(text: string): string {
  if (text.indexOf(MARK) === -1) return text;
  return (
    text
      .replace(LINK_LEAD, '$1')
      // `…; see https://… for details` inside a sentence: the clause goes.
      .replace(/[ \t]*[,;]?[ \t]*\b(?:see|visit|check)[ \t]+\u0000(?:[ \t]+for (?:more )?(?:details|information|info|more))?/gi, '')
      // Brackets around nothing but the URL (and a `see`/`i.e.`).
      .replace(/[ \t]*\((?:[ \t]*(?:see(?: also)?|i\.e\.|e\.g\.|cf\.|docs?|at|via))?[ \t,:;]*\u0000[ \t]*\)/gi, '')
      .replace(/[ \t]*\[[ \t]*\u0000[ \t]*\]/g, '')
      // A URL before punctuation or a line end takes the space before it.
      .replace(/[ \t]*\u0000(?=[.,;:!?)\]]|\n|$)/g, '')
      // A URL between spaces takes the spaces after it.
      .replace(/(^|[ \t])\u0000[ \t]+/gm, '$1')
      .replace(/\u0000/g, '')
  );
}

function count(text: string, from: number, to: number, c: string): number {
  let n = 0;
  for (let i = from; i < to; i++) if (text[i] === c) n++;
  return n;
}

// ---------------------------------------------------------------------------------------------------
// Example blocks

const EXAMPLE_START = /^[ \t]*(?:\*\*|__|\*|_)?examples?(?:\*\*|__|\*|_)?[ \t]*:/i;
const FENCE = /^[ \t]*(```|~~~)/;

/**
 * A block starts at a line whose text begins with `Example:` or `Examples:` (case-insensitive, optionally
 * in `*`/`_` emphasis; list items do not start one) and ends before the next blank line, or at the end of
 * the text. A fenced code block that opens inside it is part of it up to its closing fence, blank lines
 * included.
 */
function removeExampleBlocks(text: string): string {
  if (!/examples?/i.test(text)) return text;
  const lines = text.split('\n');
  const kept: string[] = [];
  let fence: string | undefined;
  let inBlock = false;
  for (const line of lines) {
    const f = FENCE.exec(line);
    if (fence !== undefined) {
      if (f && f[1] === fence) fence = undefined;
      if (!inBlock) kept.push(line);
      continue;
    }
    if (f) {
      fence = f[1];
      if (!inBlock) kept.push(line);
      continue;
    }
    if (inBlock) {
      if (line.trim() === '') {
        inBlock = false;
        kept.push(line);
      }
      continue;
    }
    if (EXAMPLE_START.test(line)) {
      inBlock = true;
      continue;
    }
    kept.push(line);
  }
  return kept.join('\n');
}

// ---------------------------------------------------------------------------------------------------
// Whitespace

/** Anything {@link collapseWhitespace} could change: a line break, a tab, two spaces, or an outer space. */
const UNTIDY = /[\n\t\v\f\r\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]| {2}|^ | $/;

/**
 * Trims the text and every line's end, collapses runs of spaces and tabs inside a line (indentation is
 * kept: it nests markdown lists) and runs of blank lines into one. Single newlines stay. Inside code
 * (fenced blocks, `inline spans`) only line ends are trimmed.
 */
function collapseWhitespace(text: string): string {
  // Most descriptions are one tidy line: nothing to do.
  if (!UNTIDY.test(text)) return text;
  const lines = text.split('\n');
  const out: string[] = [];
  let fence: string | undefined;
  for (const raw of lines) {
    let line = raw.replace(/[ \t]+$/, '');
    const f = FENCE.exec(line);
    if (fence !== undefined) {
      if (f && f[1] === fence) fence = undefined;
      out.push(line);
      continue;
    }
    if (f) fence = f[1];
    else {
      const indent = /^[ \t]*/.exec(line)![0];
      const parts = line.slice(indent.length).split(/(`[^`\n]*`)/);
      for (let j = 0; j < parts.length; j += 2) parts[j] = parts[j]!.replace(/[ \t]{2,}/g, ' ');
      line = indent + parts.join('');
    }
    if (line === '' && out.length > 0 && out[out.length - 1] === '') continue;
    out.push(line);
  }
  return out.join('\n').trim();
}

// ---------------------------------------------------------------------------------------------------
// Descriptions that restate the name

const WORD = /[\p{L}\p{N}]+/gu;
const FILLER = new Set(['a', 'an', 'the', 'of', 'this', 'that', 'its', 'your', 'given', 'specified']);

/**
 * True when `description` has one to three words and every word other than filler (`the`, `a`, `of`, …)
 * is a word of `name` (split at `_`, `-`, `.`, spaces and camelCase; case and a plural `s` ignored), or
 * the words run together spell the name.
 */
export function restatesName(name: string, description: string): boolean {
  // A description with more than three words says more: tell without splitting all of it.
  WORD.lastIndex = 0;
  for (let n = 0; n < 4; n++) if (WORD.exec(description) === null) break;
  if (WORD.lastIndex !== 0) return false;
  const words = description.match(/[\p{L}\p{N}]+/gu);
  if (!words || words.length > 3) return false;
  // Anything beside words, spaces and closing punctuation (`ID (UUID)`, `≥ 0`) says more than the name.
  if (/[^\p{L}\p{N}\s.,:;'’-]/u.test(description)) return false;
  const nameWords = splitName(name).map(normalizeWord);
  if (nameWords.length === 0) return false;
  const content = words.map(normalizeWord).filter((w) => !FILLER.has(w));
  if (content.length === 0) return false;
  const set = new Set(nameWords);
  if (content.every((w) => set.has(w))) return true;
  return content.join('') === nameWords.join('');
}

function splitName(name: string): string[] {
  return name
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '');
}

function normalizeWord(word: string): string {
  const w = word.toLowerCase();
  return w.length > 2 && w.endsWith('s') ? w.slice(0, -1) : w;
}
