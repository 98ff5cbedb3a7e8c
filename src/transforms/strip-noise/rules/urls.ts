/**
 * The `urls` rule: URLs go, a markdown link keeps its text, and a sentence that only points at a link goes
 * with it. Each step is a linear scan standing for one leftmost-first pattern (spelled out in its comment),
 * so a hostile description costs time in proportion to its length.
 */
import type { TextRule } from '../rule.js';
import { count, FENCE, isAsciiWordChar, isBlank } from '../text.js';

/** The `urls` rule (option `urls`). */
export const urlsRule: TextRule<true> = {
  id: 'urls',
  key: 'urls',
  option: 'urls',
  what: 'URLs',
  setup: (rules) => (rules.urls ? true : undefined),
  apply: (text) => removeUrls(text),
  mayApply: (text) => mayHaveUrls(text),
};

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
/**
 * A bare URL, matched where it starts (sticky): {@link markBareUrls} finds each `://` and tries the five and
 * the four characters before it, so the pattern is not tried at every position of the text (with `u` and
 * `i` it was half the rule's time on bench/validation).
 */
const BARE_URL_AT = /\bhttps?:\/\/[\p{L}\p{N}[][^\s<>"'`]*/iuy;
const TRAILING_PUNCTUATION = '.,;:!?\'"*_';
/** Words that introduce a URL as a value's shape (`e.g. https://…`): such URLs stay. */
const VALUE_LEAD = /(?:\be\.g\.|\beg\.|\bfor example|\bsuch as|\blike|\bformat)[\s,:]*$|['"\u201C\u2018]$/i;
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
 * A word every match of {@link LINK_TEXT_LEAD} holds (each of its lead-ins has `see`, `more` or `refer`), and
 * of {@link LINK_LEAD} (those, `doc` or `details`), in any case (`i` without `u` folds no other character to
 * these letters). The lead patterns start at every line break and sentence stop and are tried there; a text
 * without such a word is passed over by this one look (the two were a tenth of cleaning the tool
 * descriptions of bench/validation).
 */
const TEXT_LEAD_WORD = /[sS][eE][eE]|[mM][oO][rR][eE]|[rR][eE][fF][eE][rR]/;
const LEAD_WORD = /[sS][eE][eE]|[mM][oO][rR][eE]|[rR][eE][fF][eE][rR]|[dD][oO][cC]|[dD][eE][tT][aA][iI][lL][sS]/;

/** False when {@link removeUrls} leaves `text` as it is: no markdown link tail and no `http(s)://` (or a text holding the rule's own marks). */
function mayHaveUrls(text: string): boolean {
  return text.indexOf(MARK) === -1 && text.indexOf(LINK_MARK) === -1 && (text.indexOf('](') !== -1 || /https?:\/\//i.test(text));
}

/**
 * Markdown links and images keep their text; autolinks and bare `http(s)` URLs are removed, except URLs
 * that show a value's shape: templates (`https://{vault}.vault.azure.net`), quoted URLs, and URLs
 * introduced by `e.g.`, `for example`, `such as`, `like` or `format`. Code (fenced blocks, `inline
 * spans`) is never touched.
 */
function removeUrls(text: string): string {
  if (!mayHaveUrls(text)) return text;
  // Without a fence marker no line is inside a fence: only the lines that hold `](` or `://` are looked at,
  // found from those, and the text is not split into all its lines (most of a long description has none).
  if (text.indexOf('```') === -1 && text.indexOf('~~~') === -1) {
    let out = '';
    let last = 0;
    // The next `](` and the next `://`, each looked for again only once the scan has passed it: every search
    // starts where the one before it ended (one per line with a URL searching to the end for the other kind
    // was quadratic in the number of such lines: bench/lib/hostile-text.ts, `url-lines`).
    let link = text.indexOf('](');
    let scheme = text.indexOf('://');
    for (;;) {
      if (link !== -1 && link < last) link = text.indexOf('](', last);
      if (scheme !== -1 && scheme < last) scheme = text.indexOf('://', last);
      const at = link === -1 ? scheme : scheme === -1 ? link : Math.min(link, scheme);
      if (at === -1) break;
      const start = text.lastIndexOf('\n', at) + 1;
      let end = text.indexOf('\n', at);
      if (end === -1) end = text.length;
      out += text.slice(last, start) + removeUrlsInLine(text.slice(start, end));
      last = end;
    }
    return removeMarks(out + text.slice(last));
  }
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
    // Every link and URL holds `](` or `://`: a line with neither (most lines) stays as it is.
    if (line.indexOf('](') === -1 && line.indexOf('://') === -1) continue;
    lines[i] = removeUrlsInLine(line);
  }
  return removeMarks(lines.join('\n'));
}

/** One line outside fences with its links replaced and its URLs marked, code spans untouched. */
function removeUrlsInLine(line: string): string {
  const parts = line.split(/(`[^`\n]*`)/);
  for (let j = 0; j < parts.length; j += 2) {
    let part = replaceMarkdownLinks(parts[j]!);
    part = part.replace(AUTOLINK, MARK);
    parts[j] = markBareUrls(part);
  }
  return parts.join('');
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
  // Where the next URL may start: the end of the one before, as a global pattern's `lastIndex` would be.
  let from = 0;
  for (let colon = text.indexOf('://'); colon !== -1; colon = text.indexOf('://', colon + 3)) {
    // Every URL holds `://` right after its scheme (`https` or `http`): its match starts 5 or 4 characters
    // before. `://` never overlaps itself, so taking each in turn finds the URLs leftmost-first.
    let start = -1;
    if (colon - 5 >= from && matchesAt(text, colon - 5)) start = colon - 5;
    else if (colon - 4 >= from && matchesAt(text, colon - 4)) start = colon - 4;
    if (start === -1) continue;
    let end = BARE_URL_AT.lastIndex;
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
    from = end;
    const url = text.slice(start, end);
    if (url.includes('{') || VALUE_LEAD.test(text.slice(Math.max(0, start - 24), start))) continue;
    out += text.slice(last, start) + MARK;
    last = end;
  }
  return out + text.slice(last);
}

/** Whether a bare URL starts at `at` (then `BARE_URL_AT.lastIndex` is its end). */
function matchesAt(text: string, at: number): boolean {
  BARE_URL_AT.lastIndex = at;
  return BARE_URL_AT.test(text);
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
  let text = marked;
  if (text.indexOf(LINK_MARK) !== -1) {
    if (TEXT_LEAD_WORD.test(text)) text = text.replace(LINK_TEXT_LEAD, '$1');
    text = text.replace(/\u0001/g, '');
  }
  if (text.indexOf(MARK) === -1) return text;
  let t = LEAD_WORD.test(text) ? text.replace(LINK_LEAD, '$1') : text;
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
