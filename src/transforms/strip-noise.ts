import type { EditContext } from '../core/context.js';
import { defineTransform } from '../engine/define-transform.js';
import { SCHEMA_SLOTS, type SchemaSlot } from '../core/tool.js';
import { getSchemaDocuments } from '../core/documents.js';
import { DIALECTS, type Dialect } from '../schema/keywords.js';
import { appendPointer, unescapeToken } from '../json/pointer.js';
import { hasOwn, isObject } from '../json/guards.js';
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
  /**
   * Remove a sentence, clause or bracket of a schema's description that only states the schema's own
   * `default` value (`Defaults to 10.`, `(default: true)`), when it states exactly that value.
   */
  readonly restatedDefaults?: boolean;
  /**
   * Remove a bare `Optional:` / `(optional)` marker from the description of a property its parent's
   * `required` does not list, and a bare `Required.` / `(required)` marker from one it lists.
   */
  readonly optionalMarkers?: boolean;
  /** Which schemas of each tool to clean (default both); the tool's own `description` is always cleaned. */
  readonly slots?: readonly SchemaSlot[];
  /** The dialect of a schema without `$schema` (MCP: 2020-12); decides where schema positions are. */
  readonly assume?: Dialect;
}

/**
 * Cleans descriptions (the tool's and every schema `description` annotation): URLs, `Example:` blocks
 * and redundant whitespace go; a parameter description that only restates the parameter's name goes; a
 * sentence that only states the schema's `default`, and a bare optional/required marker its parent's
 * `required` already says, go. Never empties a description, never touches names or anything inside data
 * (`default`, `const`, `enum`, `examples`, `x-*`).
 */
export const stripNoise = defineTransform<StripNoiseOptions, undefined>({
  name: 'strip-noise',
  description: 'Remove URLs, Example: blocks, extra whitespace, name-restating parameter descriptions, restated defaults and optional/required markers',
  safety: 'annotation',
  defaultOptions: {
    urls: true,
    examples: true,
    whitespace: true,
    restatedNames: true,
    restatedDefaults: true,
    optionalMarkers: true,
    slots: SCHEMA_SLOTS,
    assume: '2020-12',
  },
  messages: {
    'cleaned-description': 'Removed {what} from the description',
    'removed-restated-description': 'Removed the description {text} of `{name}`: it only restates the name',
    'removed-restated-default': 'Removed the statement of the default {value} from the description: the `default` keyword says it',
    'removed-optional-marker': 'Removed the `{marker}` marker from the description of `{name}`: the parent’s `required` says it',
    'kept-description': 'Kept the description unchanged: removing {what} would leave it empty (expected some other text beside them)',
    'kept-statement': 'Kept {what} in the description: removing it would leave the description empty (expected some other text beside it)',
    'unknown-dialect': 'Left the schema’s descriptions unchanged: `$schema` `{uri}` names a meta-schema toolslim does not know (expected a JSON Schema draft URI)',
  },
  validateOptions(options) {
    for (const key of ['urls', 'examples', 'whitespace', 'restatedNames', 'restatedDefaults', 'optionalMarkers'] as const) {
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
    const defaults = options.restatedDefaults !== false;
    const markers = options.optionalMarkers !== false;
    const { documents, unknown } = getSchemaDocuments(doc.tool, options.slots ?? SCHEMA_SLOTS, options.assume ?? '2020-12');
    for (const u of unknown) ctx.report('info', 'unknown-dialect', u.base + '/$schema', { uri: String(u.uri) });
    for (const d of documents) {
      if (!d.table.has('description')) continue;
      const edits: Edit[] = [];
      // Each parent's `required` as a set, built the first time one of its properties asks.
      const requiredSets = new WeakMap<readonly unknown[], ReadonlySet<unknown>>();
      walkSchema(d.schema, '', {
        table: d.table,
        onSchema(node, path, keyword, parent) {
          if (!isObject(node) || !hasOwn(node, 'description') || typeof node.description !== 'string') return;
          const at = d.base + appendPointer(path, 'description');
          const original = node.description;
          const cleaned = cleanText(ctx, at, original, rules);
          let text = cleaned?.text ?? original;
          // One description can take up to three edits, one per kind of rule, each with its own code.
          const first = edits.length;
          if (cleaned !== undefined) edits.push({ path: at, code: 'cleaned-description', text, data: { what: cleaned.what } });
          const isProperty = keyword === 'properties';
          const name = isProperty ? unescapeToken(path.slice(path.lastIndexOf('/') + 1)) : '';
          // Both rules look only where the text mentions what they remove and the schema says it. `text` is
          // a fixed point of the other rules, so when a rule alone finds nothing, nothing changes.
          // The marker rule runs with the default rule too (removing `Optional: ` can bare a `Defaults to 1.`),
          // unless the default statements are all there is.
          let kept: string | undefined;
          let facts: DescriptionFacts | undefined = defaults && hasOwn(node, 'default') ? { hasDefault: true, default: node.default } : undefined;
          if (facts !== undefined && DEFAULT_WORD.test(text) && removeDefaultStatements(text, defaultValue(node.default)) !== text) {
            const next = cleanDescription(text, rules, facts).text;
            if (next === '') {
              kept = 'the restated default';
              facts = undefined;
            } else if (next !== text) {
              edits.push({ path: at, code: 'removed-restated-default', text: next, data: { value: JSON.stringify(node.default) } });
              text = next;
            }
          }
          if (markers && isProperty && parent !== undefined && hasOwn(parent, 'required') && Array.isArray(parent.required)) {
            const required = requiredSet(requiredSets, parent.required).has(name);
            if (MARKER_WORD[required ? 'required' : 'optional'].test(text) && removeMarkers(text, required) !== text) {
              const next = cleanDescription(text, rules, { ...facts, required }).text;
              const marker = required ? 'required' : 'optional';
              if (next === '') kept = `the \`${marker}\` marker`;
              else if (next !== text) {
                edits.push({ path: at, code: 'removed-optional-marker', text: next, data: { marker, name } });
                text = next;
              }
            }
          }
          if (options.restatedNames !== false && isProperty && restatesName(name, text)) {
            edits.length = first;
            edits.push({ path: at, code: 'removed-restated-description', data: { text: JSON.stringify(original), name } });
          } else if (kept !== undefined) ctx.report('info', 'kept-statement', at, { what: kept });
        },
      });
      for (const e of edits) {
        if (e.text === undefined) ctx.remove(e.path, e.code, e.data);
        else ctx.replace(e.path, e.text, e.code, e.data);
      }
    }
  },
});

function requiredSet(cache: WeakMap<readonly unknown[], ReadonlySet<unknown>>, required: readonly unknown[]): ReadonlySet<unknown> {
  let set = cache.get(required);
  if (set === undefined) {
    set = new Set(required);
    cache.set(required, set);
  }
  return set;
}

/** Which text rules apply. */
export interface NoiseRules {
  readonly urls: boolean;
  readonly examples: boolean;
  readonly whitespace: boolean;
}

/**
 * What the schema around a description says, for the rules that remove only what it says: `hasDefault`
 * and `default` (the schema's own `default` keyword) turn on the restated-default rule; `required` (the
 * property is listed in its parent's `required`, or not) turns on the marker rule.
 */
export interface DescriptionFacts {
  readonly hasDefault?: boolean;
  readonly default?: unknown;
  readonly required?: boolean;
}

type Rule = 'urls' | 'examples' | 'defaults' | 'markers' | 'whitespace';

/** What {@link cleanDescription} did. */
export interface CleanedText {
  readonly text: string;
  /** Rules that changed something, in a fixed order. */
  readonly applied: readonly Rule[];
}

interface Edit {
  readonly path: string;
  readonly code: string;
  /** The new text; undefined removes the description. */
  readonly text?: string;
  readonly data: Readonly<Record<string, string>>;
}

const MAX_PASSES = 8;
const DEFAULT_WORD = /default/i;
const MARKER_WORD = { optional: /optional/i, required: /required/i };

/**
 * Cleans one description. Passes repeat until nothing changes (removing a URL can expose another
 * link), so the result is a fixed point; text that does not settle within a few passes is returned
 * unchanged. The result may be empty: callers decide what to do then. `facts` turns on the rules that
 * depend on the schema (see {@link DescriptionFacts}).
 */
export function cleanDescription(text: string, rules: NoiseRules, facts: DescriptionFacts = {}): CleanedText {
  const applied = new Set<Rule>();
  const stated = facts.hasDefault === true ? defaultValue(facts.default) : undefined;
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
    if (stated !== undefined) {
      const t = removeDefaultStatements(next, stated);
      if (t !== next) applied.add('defaults');
      next = t;
    }
    if (facts.required !== undefined) {
      const t = removeMarkers(next, facts.required);
      if (t !== next) applied.add('markers');
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

const ORDER = ['urls', 'examples', 'defaults', 'markers', 'whitespace'] as const;
const WHAT: Record<Rule, string> = { urls: 'URLs', examples: 'example blocks', defaults: 'restated defaults', markers: 'optional/required markers', whitespace: 'extra whitespace' };

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
/** Put after a markdown link's text where the link was, so that a sentence only pointing at it can go. */
const LINK_MARK = '\u0001';
const LINK_TARGET = String.raw`(?:https?:\/\/|mailto:|www\.|\.{0,2}\/|#)`;
/**
 * What follows a markdown link's text: `](target)` or `](target "title")`, matched at the `]` (sticky).
 * The link is `!?[` + text without `]` or a line break + this; {@link replaceMarkdownLinks} finds the text.
 * @internal
 */
export const LINK_TAIL = new RegExp(String.raw`\]\(\s*(?:<${LINK_TARGET}[^<>\n]*>|${LINK_TARGET}[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)(?:\s+(?:"[^"\n]*"|'[^'\n]*'))?\s*\)`, 'iy');
const AUTOLINK = /<https?:\/\/[^<>\s]*>/gi;
const BARE_URL = /\bhttps?:\/\/[\p{L}\p{N}[][^\s<>"'`]*/giu;
const TRAILING_PUNCTUATION = '.,;:!?\'"*_';
/** Words that introduce a URL as a value's shape (`e.g. https://…`): such URLs stay. */
const VALUE_LEAD = /(?:\be\.g\.|\beg\.|\bfor example|\bsuch as|\blike|\bformat)[\s,:]*$|['"“‘]$/i;
/**
 * A sentence that only points at a link (`See https://…`, `Read more about versioning at https://…`,
 * `API reference: https://…`) goes with it: it starts with such a lead-in and ends at the URL. A stop's
 * blanks are taken whole (`(?![ \t])`, as a possessive quantifier would): otherwise the blanks after a stop
 * are shared out between two quantifiers in every possible way before the lead-in is found missing.
 * @internal
 */
export const LINK_LEAD = /(^|[.!?][ \t]+(?![ \t])|\n)[ \t]*(?:see|read more|learn more|more info(?:rmation)?|for more (?:info(?:rmation)?|details)|refer to|documentation|docs?|(?:api )?reference|details)\b[^.!?\n\u0000]{0,80}\u0000(?:[ \t]+for (?:more )?(?:details|information|info|more))?[ \t]*(?:\.(?=\s|$)|(?=\n|$))/gim;

/**
 * The same for a markdown link, whose text stays in place: `Refer to [pagination](https://…) for more
 * details.` goes whole. Only the plain pointing lead-ins (`see`, `read more`, `learn more`, `more info`,
 * `for more details`, `refer to`): a sentence that starts with `Details` or `Documentation` and ends in a
 * link's text says something of its own.
 * @internal
 */
export const LINK_TEXT_LEAD = /(^|[.!?][ \t]+(?![ \t])|\n)[ \t]*(?:see|read more|learn more|more info(?:rmation)?|for more (?:info(?:rmation)?|details)|refer to)\b[^.!?\n\u0000\u0001]{0,80}\u0001(?:[ \t]+for (?:more )?(?:details|information|info|more))?[ \t]*(?:\.(?=\s|$)|(?=\n|$))/gim;

/**
 * Markdown links and images keep their text; autolinks and bare `http(s)` URLs are removed, except URLs
 * that show a value's shape: templates (`https://{vault}.vault.azure.net`), quoted URLs, and URLs
 * introduced by `e.g.`, `for example`, `such as`, `like` or `format`. Code (fenced blocks, `inline
 * spans`) is never touched.
 */
function removeUrls(text: string): string {
  if (text.indexOf(MARK) !== -1 || text.indexOf(LINK_MARK) !== -1 || (text.indexOf('](') === -1 && !/https?:\/\//i.test(text))) return text;
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
      let part = replaceMarkdownLinks(parts[j]!);
      part = part.replace(AUTOLINK, MARK);
      parts[j] = markBareUrls(part);
    }
    lines[i] = parts.join('');
  }
  return removeMarks(lines.join('\n'));
}

/**
 * Replaces each markdown link or image by its text and {@link LINK_MARK}, as the pattern
 * `!?[text](target)` matched leftmost-first would, in one pass: every `[` up to the first `]` or line
 * break after it has the same text end, so a `]` whose tail does not match rules out all of them at once.
 * @internal
 */
export function replaceMarkdownLinks(text: string): string {
  if (text.indexOf('](') === -1) return text;
  let out = '';
  let last = 0;
  let from = 0;
  for (let open = text.indexOf('[', from); open !== -1; open = text.indexOf('[', from)) {
    let close = open + 1;
    while (close < text.length && text[close] !== ']' && text[close] !== '\n') close++;
    if (close === text.length) break;
    from = close + 1;
    if (text[close] === '\n') continue;
    LINK_TAIL.lastIndex = close;
    if (!LINK_TAIL.test(text)) continue;
    const start = open > last && text[open - 1] === '!' ? open - 1 : open;
    out += text.slice(last, start) + text.slice(open + 1, close) + LINK_MARK;
    last = from = LINK_TAIL.lastIndex;
  }
  return last === 0 ? text : out + text.slice(last);
}

/**
 * Puts {@link MARK} in place of each bare URL that does not show a value's shape.
 * @internal
 */
export function markBareUrls(text: string): string {
  let out = '';
  let last = 0;
  BARE_URL.lastIndex = 0;
  for (let m = BARE_URL.exec(text); m !== null; m = BARE_URL.exec(text)) {
    const start = m.index;
    let end = start + m[0].length;
    // Trailing punctuation belongs to the sentence; a closing bracket only when unbalanced in the URL.
    // The brackets are counted once and the counts kept as the end moves back.
    let parens = count(text, start, end, '(') - count(text, start, end, ')');
    let squares = count(text, start, end, '[') - count(text, start, end, ']');
    for (;;) {
      const c = text[end - 1]!;
      if (TRAILING_PUNCTUATION.includes(c)) end--;
      else if (c === ')' && parens < 0) {
        end--;
        parens++;
      } else if (c === ']' && squares < 0) {
        end--;
        squares++;
      } else break;
    }
    BARE_URL.lastIndex = end;
    const url = text.slice(start, end);
    if (url.includes('{') || VALUE_LEAD.test(text.slice(Math.max(0, start - 24), start))) continue;
    out += text.slice(last, start) + MARK;
    last = end;
  }
  return out + text.slice(last);
}

/** `see`, `visit` or `check` (the word before the URL in `…; see <url> for details`); tested on a slice. */
const SEE_WORD = /^(?:see|visit|check)$/i;
/** ` for details` and the like after such a URL, matched right after the mark (sticky). */
const FOR_DETAILS = /[ \t]+for (?:more )?(?:details|information|info|more)/iy;
/** A bracket around nothing but the URL (and a `see`/`i.e.`), matched at the `(` (sticky). */
const URL_BRACKET = /\((?:[ \t]*(?:see(?: also)?|i\.e\.|e\.g\.|cf\.|docs?|at|via))?[ \t,:;]*\u0000[ \t]*\)/iy;
/** Square brackets around nothing but the URL, matched at the `[` (sticky). */
const URL_SQUARE = /\[[ \t]*\u0000[ \t]*\]/y;

/**
 * Removes the marks left where URLs were, with what only framed them. Each step removes what one
 * leftmost-first pattern would (spelled out in its comment), but finds it by scanning from the mark or
 * bracket it must contain and looking back over the blanks before it, so no run of blanks is rescanned
 * from each of its positions.
 */
function removeMarks(marked: string): string {
  const text = marked.indexOf(LINK_MARK) === -1 ? marked : marked.replace(LINK_TEXT_LEAD, '$1').replace(/\u0001/g, '');
  if (text.indexOf(MARK) === -1) return text;
  let t = text.replace(LINK_LEAD, '$1');
  // `…; see https://… for details` inside a sentence: the clause goes.
  t = removeSeeClauses(t);
  // Brackets around nothing but the URL (and a `see`/`i.e.`), with the blanks before them.
  t = removeUrlBrackets(t);
  // A URL before punctuation or a line end takes the space before it.
  t = removeMarksBeforeStops(t);
  return (
    t
      // A URL between spaces takes the spaces after it.
      .replace(/(^|[ \t])\u0000[ \t]+/gm, '$1')
      .replace(/\u0000/g, '')
  );
}

/**
 * What /[ \t]*[,;]?[ \t]*\b(?:see|visit|check)[ \t]+\u0000(?:[ \t]+for (?:more )?(?:details|information|info|more))?/gi
 * removes: found from each mark, looking back for the word and the blanks and comma before it.
 * @internal
 */
export function removeSeeClauses(text: string): string {
  let out = '';
  let last = 0;
  for (let mark = text.indexOf(MARK); mark !== -1; mark = text.indexOf(MARK, mark + 1)) {
    let wordEnd = mark;
    while (wordEnd > last && isBlank(text[wordEnd - 1])) wordEnd--;
    if (wordEnd === mark) continue;
    const wordStart = wordEnd - (wordEnd - 3 >= last && SEE_WORD.test(text.slice(wordEnd - 3, wordEnd)) ? 3 : wordEnd - 5 >= last && SEE_WORD.test(text.slice(wordEnd - 5, wordEnd)) ? 5 : 0);
    if (wordStart === wordEnd || (wordStart > 0 && isAsciiWordChar(text.charCodeAt(wordStart - 1)))) continue;
    let start = wordStart;
    while (start > last && isBlank(text[start - 1])) start--;
    if (start > last && (text[start - 1] === ',' || text[start - 1] === ';')) start--;
    while (start > last && isBlank(text[start - 1])) start--;
    FOR_DETAILS.lastIndex = mark + 1;
    const end = FOR_DETAILS.test(text) ? FOR_DETAILS.lastIndex : mark + 1;
    out += text.slice(last, start);
    last = end;
    mark = end - 1;
  }
  return last === 0 ? text : out + text.slice(last);
}

/**
 * What /[ \t]*\((?:[ \t]*(?:see(?: also)?|i\.e\.|e\.g\.|cf\.|docs?|at|via))?[ \t,:;]*\u0000[ \t]*\)/gi and
 * then /[ \t]*\[[ \t]*\u0000[ \t]*\]/g remove.
 * @internal
 */
export function removeUrlBrackets(text: string): string {
  return removeAnchored(removeAnchored(text, '(', URL_BRACKET), '[', URL_SQUARE);
}

/** What `/[ \t]*` + `tail` (with `g`) removes, where `tail` starts with the character `open`. */
function removeAnchored(text: string, open: string, tail: RegExp): string {
  let out = '';
  let last = 0;
  for (let at = text.indexOf(open); at !== -1; at = text.indexOf(open, at + 1)) {
    tail.lastIndex = at;
    if (!tail.test(text)) continue;
    let start = at;
    while (start > last && isBlank(text[start - 1])) start--;
    out += text.slice(last, start);
    last = tail.lastIndex;
    at = last - 1;
  }
  return last === 0 ? text : out + text.slice(last);
}

/**
 * What /[ \t]*\u0000(?=[.,;:!?)\]]|\n|$)/g removes.
 * @internal
 */
export function removeMarksBeforeStops(text: string): string {
  let out = '';
  let last = 0;
  for (let mark = text.indexOf(MARK); mark !== -1; mark = text.indexOf(MARK, mark + 1)) {
    const next = text[mark + 1];
    if (next !== undefined && next !== '\n' && '.,;:!?)]'.indexOf(next) === -1) continue;
    let start = mark;
    while (start > last && isBlank(text[start - 1])) start--;
    out += text.slice(last, start);
    last = mark + 1;
  }
  return last === 0 ? text : out + text.slice(last);
}

function isBlank(c: string | undefined): boolean {
  return c === ' ' || c === '\t';
}

/** `\w` without the `u` flag: what `\b` looks at. */
function isAsciiWordChar(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
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
 * (fenced blocks, `inline spans`) only line ends are trimmed. Indentation that every line after the
 * first shares (a template literal's) goes, as Python's `inspect.cleandoc` does: relative indentation,
 * and so list nesting, stays.
 */
function collapseWhitespace(text: string): string {
  // Most descriptions are one tidy line: nothing to do.
  if (!UNTIDY.test(text)) return text;
  const lines = text.split('\n');
  const out: string[] = [];
  let fence: string | undefined;
  for (const raw of lines) {
    let line = trimBlanksEnd(raw);
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
  return dedentRest(out.join('\n').trim());
}

/**
 * The line without the spaces and tabs that end it: what /[ \t]+$/ removes, without rescanning each inner run.
 * @internal
 */
export function trimBlanksEnd(line: string): string {
  let end = line.length;
  while (end > 0 && isBlank(line[end - 1])) end--;
  return end === line.length ? line : line.slice(0, end);
}

/** Removes the indentation (the same spaces and tabs) that every non-blank line after the first starts with. */
function dedentRest(text: string): string {
  const lines = text.split('\n');
  let common: string | undefined;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === '') continue;
    const indent = /^[ \t]*/.exec(line)![0];
    if (common === undefined) common = indent;
    else {
      let n = 0;
      while (n < common.length && n < indent.length && common[n] === indent[n]) n++;
      common = common.slice(0, n);
    }
    if (common === '') return text;
  }
  if (!common) return text;
  for (let i = 1; i < lines.length; i++) if (lines[i] !== '') lines[i] = lines[i]!.slice(common.length);
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------------
// Statements the schema already makes: the default, optional or required

/**
 * How a statement of the default begins (any case): `Defaults to`, `If omitted, defaults to`, `Default is`,
 * `The default value is`, `Default:`, `default =`, or `Default` alone; then the value.
 */
const DEFAULT_LEAD = /^(?:if[ \t]+(?:omitted|not[ \t]+(?:specified|provided|set|given)),?[ \t]+defaults?[ \t]+to|defaults?[ \t]+to|(?:the[ \t]+)?default(?:[ \t]+value)?[ \t]+is|default(?:[ \t]+value)?[ \t]*[:=]|default)[ \t]+/i;
/** A bracket holding no other bracket. */
const BRACKET = /\(([^()\n]*)\)/g;
/** Where a closing clause about the default starts, after its comma: `, default is 10`, `, and the default is 10`. */
const CLAUSE_START = /[ \t]+(?:and[ \t]+)?/y;
const QUOTE_PAIRS = new Map([['"', '"'], ["'", "'"], ['“', '”'], ['‘', '’']]);

/**
 * Removes what only states `value` as the default, line by line outside code fences: a sentence
 * (`Defaults to 10.`), a closing clause (`…, default is 10.`), a bracket (`(default: 10)`) or one item of a
 * bracketed list (`(1-100, default 10)` becomes `(1-100)`). The stated value must be `value` exactly: a
 * number, boolean or null as JSON, a string bare or in quotes, either in backticks; a statement that says
 * anything more stays.
 */
function removeDefaultStatements(text: string, value: DefaultValue): string {
  if (!DEFAULT_WORD.test(text)) return text;
  return editLines(text, (line) => {
    if (!DEFAULT_WORD.test(line)) return line;
    return mapSentences(removeDefaultBrackets(line, value), (sentence) => removeDefaultClause(sentence, value));
  });
}

function removeDefaultBrackets(line: string, value: DefaultValue): string {
  if (line.indexOf('(') === -1) return line;
  const firstText = line.search(/\S/);
  let out = '';
  let last = 0;
  let ticks = 0;
  let counted = 0;
  BRACKET.lastIndex = 0;
  for (let m = BRACKET.exec(line); m !== null; m = BRACKET.exec(line)) {
    const start = m.index;
    const end = start + m[0].length;
    ticks += count(line, counted, start, '`');
    counted = start;
    if (ticks % 2 === 1 || !DEFAULT_WORD.test(m[1]!)) continue;
    let after = end;
    while (line[after] === ' ' || line[after] === '\t') after++;
    const opensLine = start === firstText;
    // Only a bracket that closes a sentence, or opens the line: inside a sentence it may qualify a word
    // (`Used for create (defaults to 'Active') and required for update`).
    const closes = after === line.length || (after === end && /[.!?]/.test(line[end]!) && (end + 1 === line.length || line[end + 1] === ' ' || line[end + 1] === '\t'));
    if (!closes && !(opensLine && after > end)) continue;
    const kept = removeDefaultItems(m[1]!, value);
    if (kept === m[1]) continue;
    if (kept !== '') {
      out += line.slice(last, start) + '(' + kept + ')';
      last = end;
    } else if (opensLine) {
      // The bracket opens the line: the space after it goes.
      out += line.slice(last, start);
      last = after;
    } else {
      // The bracket goes with the space before it.
      let before = start;
      while (before > last && (line[before - 1] === ' ' || line[before - 1] === '\t')) before--;
      out += line.slice(last, before);
      last = end;
    }
  }
  return last === 0 ? line : out + line.slice(last);
}

/** A bracket's content without the items that state the default (`''` when every item does). */
function removeDefaultItems(content: string, value: DefaultValue): string {
  if (statesDefault(content.trim(), value)) return '';
  if (content.indexOf(',') === -1) return content;
  const kept = content.split(',').filter((item) => !statesDefault(item.trim(), value));
  if (kept.length === 0) return '';
  if (kept.length === content.split(',').length) return content;
  kept[0] = kept[0]!.trimStart();
  return kept.join(',');
}

/** `''` for a sentence that only states the default; a sentence that closes with such a clause loses it. */
function removeDefaultClause(sentence: string, value: DefaultValue): string {
  if (!DEFAULT_WORD.test(sentence)) return sentence;
  if (statesDefault(sentence, value)) return '';
  for (let i = sentence.length - 1; i > 0; i--) {
    const c = sentence[i];
    if (c !== ',' && c !== ';') continue;
    // A clause follows a comma and a space (`1,000` is a number); the nearest one that is about the default decides.
    CLAUSE_START.lastIndex = i + 1;
    const space = CLAUSE_START.exec(sentence);
    if (space === null || !/^(?:if|defaults?|the|default)[ \t:=]/i.test(sentence.slice(CLAUSE_START.lastIndex, CLAUSE_START.lastIndex + 9))) continue;
    const clause = sentence.slice(CLAUSE_START.lastIndex);
    if (!DEFAULT_LEAD.test(clause)) continue;
    const head = sentence.slice(0, i).trimEnd();
    if (head === '' || !statesDefault(clause, value)) return sentence;
    return head + (sentence.endsWith('.') ? '.' : '');
  }
  return sentence;
}

/** True when `text` is a default statement (see {@link DEFAULT_LEAD}) of exactly `value`. */
function statesDefault(text: string, value: DefaultValue): boolean {
  const lead = DEFAULT_LEAD.exec(text);
  if (lead === null) return false;
  const stated = text.slice(lead[0].length);
  return sameValue(stated.endsWith('.') ? stated.slice(0, -1) : stated, value);
}

function sameValue(stated: string, d: DefaultValue): boolean {
  const value = d.value;
  let s = stated;
  if (s.length > 2 && s[0] === '`' && s.indexOf('`', 1) === s.length - 1) s = s.slice(1, -1);
  if (s === '') return false;
  if (typeof value === 'string') {
    if (s === value || s === jsonOf(d)) return true;
    return s.length >= 2 && QUOTE_PAIRS.get(s[0]!) === s[s.length - 1] && s.slice(1, -1) === value;
  }
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return s === jsonOf(d);
  if (s[0] !== '[' && s[0] !== '{') return false;
  try {
    return JSON.stringify(JSON.parse(s)) === jsonOf(d);
  } catch {
    return false;
  }
}

/**
 * A schema's `default`, with its JSON computed at most once: every sentence of a description may be
 * compared with it, and a large `default` must not be serialised once per sentence.
 */
interface DefaultValue {
  readonly value: unknown;
  json?: string;
}

function defaultValue(value: unknown): DefaultValue {
  return { value };
}

function jsonOf(d: DefaultValue): string {
  return (d.json ??= JSON.stringify(d.value));
}

const LEADING_MARKER = { optional: /^(?:\(optional\)|optional[.:])(?:[ \t]+|[ \t]*\n[ \t]*)/i, required: /^(?:\(required\)|required[.:])(?:[ \t]+|[ \t]*\n[ \t]*)/i };
const MARKER_SENTENCE = { optional: /^optional\.?$/i, required: /^required\.?$/i };
/** `…, optional.` closing a sentence; the words before it must not be a list (`a, b, optional`). */
const MARKER_CLAUSE = { optional: /^([^,]*[^,\s])[ \t]*,[ \t]+optional(\.?)$/i, required: /^([^,]*[^,\s])[ \t]*,[ \t]+required(\.?)$/i };
const LIST_WORD = /(?:^|[\s(])(?:optional|required|mandatory|or|and)$/i;
/** Where a marker can be: at a line or sentence start, or after a comma; then a stop, a space or the line end. */
const MARKER_HINT = { optional: /(?:^|[.!?,][ \t]+)\(?optional\)?[.:]?(?:[ \t]|$)/im, required: /(?:^|[.!?,][ \t]+)\(?required\)?[.:]?(?:[ \t]|$)/im };
/** `Optional` as an adjective (`Optional target tab ID`): only before a word. */
const OPTIONAL_ADJECTIVE = /^Optional[ \t]+(?=[\p{L}`"'])/u;
/** Words after a marker that make it a condition (`Optional when…`, `Required: if…`): then it stays. */
const CONDITIONS = new Set(['when', 'if', 'unless', 'for', 'except', 'only', 'but', 'and', 'or', 'in', 'on', 'as', 'depending', 'since', 'because', 'until', 'otherwise', 'where', 'whether', 'provided', 'though', 'although', 'so', 'then', 'to', 'with', 'without', 'by', 'at', 'per', 'while', 'once', 'after', 'before']);

/**
 * Removes a bare marker that says the property is optional (`required` false) or required (`required`
 * true): at the start `Optional:` / `Optional.` / `(optional)` (or `Optional` as an adjective before a
 * word), at the end ` (optional)`, a sentence `Optional.` anywhere, or a clause `…, optional.` closing a
 * sentence without other commas; the same for `required` (no adjective). A marker followed by a condition (`Optional when…`, `Required: if…`) stays. The next word is
 * capitalised when it is a plain lowercase word.
 */
function removeMarkers(text: string, required: boolean): string {
  const word = required ? 'required' : 'optional';
  if (!MARKER_WORD[word].test(text)) return text;
  let t = removeTrailingMarker(text, word);
  if (!MARKER_HINT[word].test(t)) return t;
  const lead = LEADING_MARKER[word].exec(t) ?? (required ? null : OPTIONAL_ADJECTIVE.exec(t));
  if (lead !== null) {
    const rest = t.slice(lead[0].length);
    const next = /^\p{L}+/u.exec(rest);
    const period = lead[0][word.length] === '.';
    if (rest !== '' && (period || next === null || !CONDITIONS.has(next[0].toLowerCase()))) t = capitalise(rest);
  }
  return editLines(t, (line) => mapSentences(line, (sentence) => removeMarkerSentence(sentence, word)));
}

/** ` (optional)` or ` (optional).` ending the text goes (the period stays). */
function removeTrailingMarker(text: string, word: 'optional' | 'required'): string {
  const period = text.endsWith('.') ? 1 : 0;
  const close = text.length - 1 - period;
  const open = close - word.length - 1;
  if (open < 1 || text[close] !== ')' || text[open] !== '(' || text.slice(open + 1, close).toLowerCase() !== word) return text;
  let end = open;
  while (end > 0 && (text[end - 1] === ' ' || text[end - 1] === '\t')) end--;
  if (end === open || end === 0) return text;
  return text.slice(0, end) + (period ? '.' : '');
}

function removeMarkerSentence(sentence: string, word: 'optional' | 'required'): string {
  if (MARKER_SENTENCE[word].test(sentence)) return '';
  const clause = MARKER_CLAUSE[word].exec(sentence);
  if (clause === null || LIST_WORD.test(clause[1]!)) return sentence;
  return clause[1]! + clause[2]!;
}

/** A plain lowercase word (`filter`, `sheet/tab`) gets a capital; `iPhone`, `snake_case`, `e.g.` do not. */
function capitalise(text: string): string {
  if (!/^\p{Ll}+(?:-\p{Ll}+)*(?=$|[\s,;:!?)/]|\.(?:\s|$))/u.test(text)) return text;
  const first = String.fromCodePoint(text.codePointAt(0)!);
  return first.toUpperCase() + text.slice(first.length);
}

/**
 * Applies `edit` to every line outside code fences. A line the edit leaves blank goes, and so does a
 * blank line that would then double another blank line or stand at the start or end.
 */
function editLines(text: string, edit: (line: string) => string): string {
  const lines = text.split('\n');
  const out: string[] = [];
  let fence: string | undefined;
  let dropped = false;
  let changed = false;
  for (const line of lines) {
    const f = FENCE.exec(line);
    let edited = line;
    if (fence !== undefined) {
      if (f && f[1] === fence) fence = undefined;
    } else if (f) fence = f[1];
    else edited = edit(line);
    if (edited !== line) changed = true;
    const blank = line.trim() === '';
    if (!blank && edited.trim() === '') {
      dropped = true;
      continue;
    }
    if (dropped && blank && (out.length === 0 || out[out.length - 1]!.trim() === '')) continue;
    out.push(edited);
    dropped = false;
  }
  if (!changed) return text;
  while (dropped && out.length > 0 && out[out.length - 1]!.trim() === '') out.pop();
  return out.join('\n');
}

/**
 * Replaces each sentence of one line by `map(sentence)`: `''` removes it with the space that separated it
 * from the sentence before (or, for the first, after). Sentences inside an `inline code` span stay.
 */
function mapSentences(line: string, map: (sentence: string) => string): string {
  const indent = /^[ \t]*/.exec(line)![0];
  let out = indent;
  let pos = indent.length;
  let kept = false;
  let changed = false;
  let ticks = 0;
  for (let found = nextSentence(line, pos); found !== undefined; found = nextSentence(line, pos)) {
    const [start, end] = found;
    const space = line.slice(pos, start);
    const sentence = line.slice(start, end);
    pos = end;
    const inside = count(line, start, end, '`');
    const mapped = ticks % 2 === 1 || inside % 2 === 1 ? sentence : map(sentence);
    ticks += inside;
    if (mapped !== sentence) changed = true;
    if (mapped === '') continue;
    out += (kept ? space : '') + mapped;
    kept = true;
  }
  if (!changed) return line;
  return kept ? out + line.slice(pos) : '';
}

/**
 * The next sentence of `line` from `pos` (start and end), as /\S.*?(?:[.!?](?=[ \t]|$)|$)/g finds it: a
 * character other than whitespace, then up to a `.`, `!` or `?` before a space, a tab or the line end, or
 * to the line end. `.` does not cross a line separator (U+2028, U+2029, `\r`), so a stretch that meets one
 * first matches from none of its positions: the scan skips it whole instead of retrying from each.
 * @internal
 */
export function nextSentence(line: string, pos: number): [number, number] | undefined {
  let start = pos;
  for (;;) {
    while (start < line.length && isWhitespace(line.charCodeAt(start))) start++;
    if (start >= line.length) return undefined;
    let i = start + 1;
    for (; i < line.length; i++) {
      const c = line.charCodeAt(i);
      if (c === 0x0a || c === 0x0d || c === 0x2028 || c === 0x2029) break;
      if ((c === 0x2e || c === 0x21 || c === 0x3f) && (i + 1 === line.length || line[i + 1] === ' ' || line[i + 1] === '\t')) return [start, i + 1];
    }
    if (i === line.length) return [start, i];
    start = i + 1;
  }
}

/** What `\s` matches (ECMAScript WhiteSpace and LineTerminator). */
function isWhitespace(c: number): boolean {
  return (c >= 0x09 && c <= 0x0d) || c === 0x20 || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
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
