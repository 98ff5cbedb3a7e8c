/**
 * strip-noise: the transform (options, messages, the walk over each description). Its rules are rule
 * objects, one module each: the text rules in rules/ run by clean.ts, the restated-name rule in
 * rules/restated-names.ts; text.ts holds the line and sentence helpers they share.
 */
import { SCHEMA_SLOTS, type SchemaSlot } from '../../core/tool.js';
import { defineTransform } from '../../engine/define-transform.js';
import { hasOwn } from '../../json/guards.js';
import { appendPointer } from '../../json/pointer.js';
import { anchorShape } from '../../json/shapes.js';
import type { Dialect } from '../../schema/keywords.js';
import { placePointer, visitSchemaObjects, type SchemaPlace } from '../../schema/walk.js';
import type { EditContext } from '../../core/context.js';
import { cleanDescription, cleanMayChange, cleanText, mayClean, TEXT_RULES, type CleanedText, type DescriptionFacts, type NoiseRules } from './clean.js';
import { MARKER_ANY, MARKER_WORD, removeMarkers } from './rules/optional-markers.js';
import { defaultValue, DEFAULT_WORD, removeDefaultStatements } from './rules/restated-defaults.js';
import { mayRestateName, restatesName, type NameWordsCache } from './rules/restated-names.js';

export { cleanDescription, TEXT_RULES, type CleanedText, type DescriptionFacts, type NoiseRules, type RuleKey, type TextRule } from './clean.js';
export { restatesName } from './rules/restated-names.js';
export { LINK_LEAD, LINK_TAIL, LINK_TEXT_LEAD, markBareUrls, removeMarksBeforeStops, removeSeeClauses, removeUrlBrackets, replaceMarkdownLinks } from './rules/urls.js';
export { trimBlanksEnd } from './rules/whitespace.js';
export { nextSentence } from './text.js';

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
export const stripNoise = defineTransform<StripNoiseOptions, Map<string, CleanedText>>({
  name: 'strip-noise',
  description: 'Remove URLs, Example: blocks, extra whitespace, name-restating parameter descriptions, restated defaults and optional/required markers',
  safety: 'annotation',
  parts: [...TEXT_RULES.map((r) => ({ id: r.id, option: r.option })), { id: 'restated-names', option: 'restatedNames' }],
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
  },
  // Each text cleaned once per run, whichever tools repeat it (the rules are the same for every tool), and
  // each property name split into words once.
  prepare: (): Map<string, CleanedText> => new RunMemo(),
  apply(doc, ctx, options) {
    const memo = doc.state;
    const names = (memo as Partial<RunMemo> | undefined)?.names;
    const rules: NoiseRules = { urls: options.urls !== false, examples: options.examples !== false, whitespace: options.whitespace !== false };
    const tool = doc.tool as Record<string, unknown>;
    if (hasOwn(tool, 'description') && typeof tool.description === 'string') {
      // Not through the memo: a tool's own description is its own (the lists repeat parameter descriptions,
      // not tool descriptions), and looking a long text up hashed all of it for nothing (about 1.5% of
      // `safe` on the validation set).
      const cleaned = cleanText(ctx, '/description', tool.description, rules);
      if (cleaned !== undefined) ctx.replace('/description', cleaned.text, 'cleaned-description', { what: cleaned.what });
    }
    const defaults = options.restatedDefaults !== false;
    const markers = options.optionalMarkers !== false;
    const restatedNames = options.restatedNames !== false;
    for (const u of doc.unknownDialects) ctx.report('info', 'unknown-dialect', u.base + '/$schema', { uri: String(u.uri) });
    for (const d of doc.documents) {
      if (!d.table.has('description')) continue;
      const visit = new DescriptionVisit(ctx, d.base, rules, memo as RunMemo | undefined, names, defaults, markers, restatedNames);
      visitSchemaObjects(d.schema, d.table, visitDescription, visit);
      for (const e of visit.edits) {
        if (e.text === undefined) ctx.remove(e.path, e.code, e.data);
        else ctx.replace(e.path, e.text, e.code, e.data);
      }
    }
  },
});

/**
 * One document's look at its descriptions: the run's rules and memo, and the edits found so far. A class, and
 * its visitor {@link visitDescription} a module function, not a closure made per document: V8 keeps a
 * function's optimised code only while one of its closures lives, so a per-document closure was compiled
 * again after every full GC (see json/shapes.ts).
 */
class DescriptionVisit {
  readonly edits: Edit[] = [];
  /** Each parent's `required` as a set, built the first time one of its properties asks (and the map with it). */
  requiredSets: WeakMap<readonly unknown[], ReadonlySet<unknown>> | undefined = undefined;
  constructor(
    readonly ctx: EditContext,
    readonly base: string,
    readonly rules: NoiseRules,
    readonly memo: RunMemo | undefined,
    readonly names: NameWordsCache | undefined,
    readonly defaults: boolean,
    readonly markers: boolean,
    readonly restatedNames: boolean,
  ) {}
}

function visitDescription(node: Record<string, unknown>, place: SchemaPlace | undefined, v: DescriptionVisit): void {
  if (!hasOwn(node, 'description') || typeof node.description !== 'string') return;
  const { ctx, rules, memo, names, defaults, markers, restatedNames, edits } = v;
  const original = node.description;
  const isProperty = place !== undefined && place.keyword === 'properties';
  const parent = place?.parent;
  // Most descriptions are clean and restate nothing: one look for what any rule starts from, and
  // the description is passed over without building its pointer, its property name or a memo key.
  // Each test below is implied by the step it guards (a text the text rules leave as it is stays
  // `original` for the default, marker and name rules).
  const dirty = mayClean(original);
  if (
    !dirty &&
    // (What the schema says first: a pattern test only where its rule could act on what it finds.)
    !(defaults && hasOwn(node, 'default') && DEFAULT_WORD.test(original)) &&
    !(markers && isProperty && parent !== undefined && hasOwn(parent, 'required') && Array.isArray(parent.required) && MARKER_ANY.test(original))
  ) {
    // Only the name rule can act, on the text as it is (the other rules leave it so): asked directly, and the
    // pointer built only for an edit (about 600 of bench/validation's short property descriptions a pass,
    // which the path below took through the default and marker rules to find nothing).
    if (restatedNames && isProperty && mayRestateName(original) && restatesName(place.entry as string, original, names)) {
      edits.push({ path: descriptionPath(v.base, place), code: 'removed-restated-description', data: { text: JSON.stringify(original), name: place.entry as string } });
    }
    return;
  }
  const at = descriptionPath(v.base, place);
  const cleaned = dirty ? cleanMayChange(ctx, at, original, rules, memo) : undefined;
  let text = cleaned?.text ?? original;
  // One description can take up to three edits, one per kind of rule, each with its own code.
  const first = edits.length;
  if (cleaned !== undefined) edits.push({ path: at, code: 'cleaned-description', text, data: { what: cleaned.what } });
  const name = isProperty ? (place.entry as string) : '';
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
    const required = requiredHas(v, parent.required, name);
    if (MARKER_WORD[required ? 'required' : 'optional'].test(text) && removeMarkers(text, required) !== text) {
      const next = cleanDescription(text, rules, { hasDefault: facts?.hasDefault, default: facts?.default, required }).text;
      const marker = required ? 'required' : 'optional';
      if (next === '') kept = `the \`${marker}\` marker`;
      else if (next !== text) {
        edits.push({ path: at, code: 'removed-optional-marker', text: next, data: { marker, name } });
        text = next;
      }
    }
  }
  if (restatedNames && isProperty && restatesName(name, text, names)) {
    edits.length = first;
    edits.push({ path: at, code: 'removed-restated-description', data: { text: JSON.stringify(original), name } });
  } else if (kept !== undefined) ctx.report('info', 'kept-statement', at, { what: kept });
}

/**
 * What one run remembers across its tools: {@link cleanDescription}'s result by text (the map itself, for
 * the texts some rule may change) and property names split into words (see {@link restatesName}).
 */
class RunMemo extends Map<string, CleanedText> {
  readonly names: NameWordsCache = new Map();
}

// Keeps RunMemo's shape (and the code optimised for it) alive between runs.
anchorShape(new RunMemo());
anchorShape(new DescriptionVisit(undefined as unknown as EditContext, '', { urls: true, examples: true, whitespace: true }, undefined, undefined, true, true, true));

/**
 * Whether a parent's `required` lists `name`: a short list (most) is read as it is; a long one is made a set
 * the first time one of its properties asks.
 */
function requiredHas(v: DescriptionVisit, required: readonly unknown[], name: string): boolean {
  if (required.length <= 16) {
    for (let i = 0; i < required.length; i++) if (required[i] === name) return true;
    return false;
  }
  const cache = (v.requiredSets ??= new WeakMap());
  let set = cache.get(required);
  if (set === undefined) {
    set = new Set(required);
    cache.set(required, set);
  }
  return set.has(name);
}

/** The pointer of the `description` of the schema at `place` (built only for a description a rule acts on). */
function descriptionPath(base: string, place: SchemaPlace | undefined): string {
  return base + appendPointer(placePointer(place), 'description');
}

interface Edit {
  readonly path: string;
  readonly code: string;
  /** The new text; undefined removes the description. */
  readonly text?: string;
  readonly data: Readonly<Record<string, string>>;
}
