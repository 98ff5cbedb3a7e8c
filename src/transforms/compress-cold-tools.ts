import { defineTransform } from '../engine/define-transform.js';
import { ToolslimError } from '../core/errors.js';
import { appendPointer } from '../json/pointer.js';
import { hasOwn, isObject } from '../json/guards.js';

/** Options of {@link compressColdTools}. */
export interface CompressColdToolsOptions {
  /** Names of the hot tools, left exactly as they are. Every other tool is compressed. */
  readonly keep?: readonly string[];
  /** Longest compressed description in characters (code points), the closing "…" included (default 80). */
  readonly maxDescriptionLength?: number;
  /** Keep a cold tool's `title` (default true). */
  readonly keepTitle?: boolean;
  /** Keep a cold tool's `annotations` (default true): clients use the hints to decide on confirmations. */
  readonly keepAnnotations?: boolean;
  /** Keep a cold tool's `_meta` (default true): it can carry protocol-level data a client relies on. */
  readonly keepMeta?: boolean;
}

/**
 * Lossy and opt-in (never in a preset): every tool whose name is not in `keep` becomes its name, the first
 * sentence of its description (or its first characters, ending in "…") and `inputSchema: {"type":"object"}`,
 * plus `title`, `annotations` and `_meta` unless told otherwise. Every other field (`outputSchema`, `icons`,
 * unknown fields) is removed. Tools stay where they are, and none is removed; members keep their order.
 *
 * Same `keep`, same bytes: the output depends only on the input and the set of names kept (not on their
 * order), so a client that recomputes its hot set each turn sends byte-identical lists whenever the set
 * is unchanged, and prompt caches keyed on the prefix keep hitting.
 */
export const compressColdTools = defineTransform<CompressColdToolsOptions, ReadonlySet<string>>({
  name: 'compress-cold-tools',
  description: 'Replace every tool outside the hot set with its name, first sentence and an open input schema',
  safety: 'lossy',
  defaultOptions: { keep: [], maxDescriptionLength: 80, keepTitle: true, keepAnnotations: true, keepMeta: true },
  messages: {
    'shortened-description': 'Shortened the description of cold tool `{tool}` from {before} to {after} characters',
    'replaced-schema': 'Replaced the input schema of cold tool `{tool}` with `{"type":"object"}`',
    'added-schema': 'Added `{"type":"object"}` as the missing input schema of cold tool `{tool}`',
    'removed-field': 'Removed `{field}` from cold tool `{tool}`',
  },
  validateOptions(options) {
    if (!Array.isArray(options.keep) || options.keep.some((k) => typeof k !== 'string')) throw new Error('`keep` must be an array of tool names');
    const max = options.maxDescriptionLength;
    if (!Number.isSafeInteger(max) || (max as number) < 1) throw new Error(`\`maxDescriptionLength\` must be a positive integer, got ${String(max)}`);
    for (const key of ['keepTitle', 'keepAnnotations', 'keepMeta'] as const) {
      if (typeof options[key] !== 'boolean') throw new Error(`\`${key}\` must be true or false`);
    }
  },
  prepare(_tools, options) {
    return new Set(options.keep ?? []);
  },
  apply(doc, ctx, options) {
    if (doc.state.has(doc.name)) return;
    const tool = doc.tool as Record<string, unknown>;
    const label = { tool: doc.name || `#${doc.index}` };
    const kept: Readonly<Record<string, boolean>> = {
      name: true,
      description: true,
      inputSchema: true,
      title: options.keepTitle !== false,
      annotations: options.keepAnnotations !== false,
      _meta: options.keepMeta !== false,
    };
    for (const key of Object.keys(tool)) {
      const path = appendPointer('', key);
      if (!hasOwn(kept, key) || !kept[key]) {
        ctx.remove(path, 'removed-field', { ...label, field: key });
        continue;
      }
      const value = tool[key];
      if (key === 'description') {
        if (typeof value !== 'string') {
          ctx.remove(path, 'removed-field', { ...label, field: key });
          continue;
        }
        const short = shortenDescription(value, options.maxDescriptionLength ?? 80);
        if (short !== value) ctx.replace(path, short, 'shortened-description', { ...label, before: codePoints(value), after: codePoints(short) });
      } else if (key === 'inputSchema' && !isOpenObjectSchema(value)) {
        ctx.replace(path, { type: 'object' }, 'replaced-schema', label);
      }
    }
    if (!hasOwn(tool, 'inputSchema')) ctx.add('/inputSchema', { type: 'object' }, 'added-schema', label);
  },
});

/**
 * The compressed form of a description: its first sentence, or, when that is longer than `max`
 * characters, its first characters up to a word boundary followed by "…" (at most `max` in all).
 * Whitespace runs become one space. A fixed point: shortening a shortened description changes nothing.
 * One pass that stops after `max + 1` characters, so a 50 KB description costs no more than a short one.
 */
export function shortenDescription(text: string, max: number): string {
  if (!Number.isSafeInteger(max) || max < 1) throw new ToolslimError('invalid-option', `shortenDescription: \`max\` must be a positive integer, got ${String(max)}`);
  const sentence = firstSentence(text, max + 1);
  if (sentence.length <= max) return sentence.join('');
  let keep = sentence.slice(0, max - 1).join('');
  const space = keep.lastIndexOf(' ');
  if (space > 0 && space >= keep.length / 2) keep = keep.slice(0, space);
  keep = keep.replace(/[\s,;:(\[{\-–—]+$/u, '');
  return keep + '…';
}

// ---------------------------------------------------------------------------------------------------

/** Abbreviations whose period does not end a sentence (matched against the last few characters). */
const ABBREVIATION = /(?:^|[\s(])(?:e\.g|i\.e|etc|vs|cf|approx|incl|esp|resp|no)\.$/i;
const SPACE = /\s/;
const BLANK = /[ \t\r\f\v]/;

/**
 * The first sentence of the first paragraph, whitespace collapsed and trimmed, as code points; at most
 * `limit` of them (a longer sentence is cut there). A sentence ends at `.`, `!` or `?` followed by
 * whitespace or the end (not after an abbreviation), at `。`, `！`, `？`, or at a blank line.
 */
function firstSentence(text: string, limit: number): string[] {
  const out: string[] = [];
  let pendingSpace = false;
  for (let i = 0; i < text.length && out.length < limit; ) {
    const ch = String.fromCodePoint(text.codePointAt(i)!);
    i += ch.length;
    if (SPACE.test(ch)) {
      if (out.length === 0) continue;
      if (ch === '\n') {
        let j = i;
        while (j < text.length && BLANK.test(text[j]!)) j++;
        if (text[j] === '\n') break; // a blank line ends the paragraph
      }
      pendingSpace = true;
      continue;
    }
    if (pendingSpace) {
      out.push(' ');
      pendingSpace = false;
      if (out.length >= limit) break;
    }
    out.push(ch);
    if (ch === '。' || ch === '！' || ch === '？') break;
    if ((ch === '.' || ch === '!' || ch === '?') && (i >= text.length || SPACE.test(text[i]!))) {
      if (ch !== '.' || !ABBREVIATION.test(tail(out))) break;
    }
  }
  return out;
}

/** The last characters of `out`, enough for the longest abbreviation and the character before it. */
function tail(out: readonly string[]): string {
  const from = Math.max(0, out.length - 9);
  // A leading non-space stands in for the cut-off text, so `^` only matches at the real start.
  return (from > 0 ? 'x' : '') + out.slice(from).join('');
}

function isOpenObjectSchema(value: unknown): boolean {
  if (!isObject(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === 'type' && value.type === 'object';
}

function codePoints(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}
