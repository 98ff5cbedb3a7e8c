import { defineTransform } from '../engine/define-transform.js';
import { utf8Length } from '../core/measure.js';
import type { McpTool } from '../core/tool.js';
import type { Dialect } from '../schema/keywords.js';
import { appendPointer } from '../json/pointer.js';
import { hasOwn, isObject } from '../json/guards.js';
import { isComplete, removeSentences, sentencePieces, standsAlone, type KeepReason, type SentenceRemoval } from './promote-common-params/sentences.js';

/** Options of {@link promoteCommonParams}. */
export interface PromoteCommonParamsOptions {
  /** How many tools must share a parameter's name and description before it is promoted (at least 2). */
  readonly minTools?: number;
  /** The dialect of a schema without `$schema` (MCP: 2020-12). */
  readonly assume?: Dialect;
  /**
   * Also move a sentence that the description of every tool of the list holds (at least 3 tools) into
   * the instructions, where removing it leaves each description whole (off by default; on in `max`).
   */
  readonly sentences?: boolean;
}

/** What `prepare` found: the description promoted for each parameter name, and the shared sentences. */
export interface PromotedParams {
  /** Parameter name → the description written once into the instructions. */
  readonly descriptions: ReadonlyMap<string, string>;
  /** Sentences every tool's description holds, written once into the instructions, in text order. */
  readonly sentences: readonly string[];
  /** A tool description → what removing those sentences makes of it. */
  readonly rewrites: ReadonlyMap<string, SentenceRemoval>;
}

/**
 * Writes the description of a parameter that many tools share (same name, same description) once into a
 * dictionary returned as `result.instructions`, and removes it from each tool. Only names whose every
 * occurrence has a description are promoted, so "a parameter of this name without a description of its
 * own means …" reads back exactly. With `sentences`, a sentence present in every tool's description
 * goes there too (see `promote-common-params/sentences.ts` for when a description keeps it). Opt-in: the
 * information survives only for clients that show the server's `instructions` to the model.
 */
export const promoteCommonParams = defineTransform<PromoteCommonParamsOptions, PromotedParams>({
  name: 'promote-common-params',
  description: 'Move descriptions of parameters shared by many tools into one dictionary for the server instructions',
  safety: 'annotation',
  writesInstructions: true,
  defaultOptions: { minTools: 3, assume: '2020-12', sentences: false },
  messages: {
    promoted: 'Removed the description of `{name}`: it is written once in the server instructions',
    'promoted-sentences': 'Removed {count} sentence(s) that every tool’s description holds: written once in the server instructions',
    'kept-sentence': 'Kept the shared sentence {sentence} in this description: {reason}',
  },
  validateOptions(options) {
    if (!Number.isInteger(options.minTools) || (options.minTools as number) < 2) throw new Error('`minTools` must be an integer of at least 2');
    if (typeof options.sentences !== 'boolean') throw new Error('`sentences` must be a boolean');
  },
  prepare(tools, options) {
    return { descriptions: choosePromotions(tools, options.minTools ?? 3), ...(options.sentences === true ? chooseSentences(tools) : NO_SENTENCES) };
  },
  apply(doc, ctx) {
    const { descriptions, sentences, rewrites } = doc.state;
    const description = (doc.tool as Record<string, unknown>).description;
    if (sentences.length > 0 && typeof description === 'string' && hasOwn(doc.tool, 'description')) {
      const plan = rewrites.get(description) ?? removeSentences(description, new Set(sentences));
      if (plan.removed.length > 0) ctx.replace('/description', plan.text, 'promoted-sentences', { count: plan.removed.length });
      for (const k of plan.kept) ctx.report('info', 'kept-sentence', '/description', { sentence: JSON.stringify(k.sentence), reason: KEEP_REASONS[k.reason] });
    }
    if (descriptions.size === 0) return;
    for (const d of doc.documents) {
      if (d.slot !== 'inputSchema') continue;
      const properties = hasOwn(d.schema, 'properties') ? d.schema.properties : undefined;
      if (!isObject(properties) || !d.table.has('description')) continue;
      for (const name of Object.keys(properties)) {
        const param = properties[name];
        if (!descriptions.has(name) || !isObject(param) || !hasOwn(param, 'description') || param.description !== descriptions.get(name)) continue;
        ctx.remove(appendPointer(appendPointer(appendPointer(d.base, 'properties'), name), 'description'), 'promoted', { name });
      }
    }
  },
  finish(state, tools) {
    // Only names and sentences some tool now relies on (a tool that failed keeps its own text).
    const used = [...state.descriptions.keys()].filter((name) => tools.some((t) => lacksDescription(t, name)));
    const sentences = state.sentences.filter((s) => tools.some((t) => isObject(t) && typeof t.description === 'string' && !t.description.includes(s)));
    const parts: string[] = [];
    if (sentences.length > 0) parts.push(formatSentences(sentences));
    if (used.length > 0) parts.push(formatDictionary(used.sort(compareCodeUnits).map((name) => [name, state.descriptions.get(name)!] as const)));
    return parts.length === 0 ? undefined : { instructions: parts.join('\n\n') };
  },
});

const NO_SENTENCES = { sentences: [], rewrites: new Map() } as const;
/** Fewest tools a list must have before a sentence in every description is server-level. */
const MIN_SENTENCE_TOOLS = 3;
const SENTENCE_HEADER = 'Each tool’s description also says:';
const KEEP_REASONS: Readonly<Record<KeepReason, string>> = {
  'not-prose': 'it is part of a list item, code, a table, a heading or a quote here',
  'next-leans': 'the text after it does not stand alone (it starts in lowercase, with a conjunction or with a word such as `It`, `This`, `Also` that refers back)',
  introduces: 'it may introduce the list, table, code or quote after it',
  introduced: 'the text before it (ending with `:`) introduces it',
  'would-empty': 'removing the shared sentences would leave the description empty',
};

const HEADER = 'Parameters shared by several tools. A parameter with one of these names and no description of its own means:';

/** Each parameter name's promoted description: shared by `minTools` tools, and worth the bytes. */
function choosePromotions(tools: readonly McpTool[], minTools: number): Map<string, string> {
  // name → description → number of tools; names with an undescribed occurrence are ruled out.
  const counts = new Map<string, Map<string, number>>();
  const ruledOut = new Set<string>();
  for (const tool of tools) {
    const properties = rootProperties(tool);
    if (!properties) continue;
    for (const name of Object.keys(properties)) {
      const param = properties[name];
      const description = isObject(param) && hasOwn(param, 'description') ? param.description : undefined;
      if (typeof description !== 'string' || description === '') {
        ruledOut.add(name);
        continue;
      }
      let byText = counts.get(name);
      if (!byText) counts.set(name, (byText = new Map()));
      byText.set(description, (byText.get(description) ?? 0) + 1);
    }
  }
  const chosen: [string, string, number][] = [];
  for (const [name, byText] of counts) {
    if (ruledOut.has(name)) continue;
    let best: string | undefined;
    let bestCount = 0;
    for (const [text, n] of byText) {
      if (n > bestCount || (n === bestCount && best !== undefined && compareCodeUnits(text, best) < 0)) {
        best = text;
        bestCount = n;
      }
    }
    if (best === undefined || bestCount < minTools) continue;
    // Bytes removed from the tools against the bytes of its line in the dictionary.
    const saved = bestCount * utf8Length(`"description":${JSON.stringify(best)}`);
    const cost = utf8Length(formatLine(name, best)) + 1;
    if (saved > cost) chosen.push([name, best, saved - cost]);
  }
  const net = chosen.reduce((sum, [, , gain]) => sum + gain, 0);
  if (net <= utf8Length(HEADER) + 1) return new Map();
  return new Map(chosen.map(([name, text]) => [name, text]));
}

function rootProperties(tool: unknown): Record<string, unknown> | undefined {
  if (!isObject(tool) || !hasOwn(tool, 'inputSchema')) return undefined;
  const schema = tool.inputSchema;
  if (!isObject(schema) || !hasOwn(schema, 'properties') || !isObject(schema.properties)) return undefined;
  return schema.properties;
}

function lacksDescription(tool: unknown, name: string): boolean {
  const properties = rootProperties(tool);
  if (!properties || !hasOwn(properties, name)) return false;
  const param = properties[name];
  return isObject(param) && !hasOwn(param, 'description');
}

function formatDictionary(entries: readonly (readonly [string, string])[]): string {
  return [HEADER, ...entries.map(([name, text]) => formatLine(name, text))].join('\n');
}

/** `- "name": description`, continuation lines indented so the list stays a list. */
function formatLine(name: string, text: string): string {
  return `- ${JSON.stringify(name)}: ${text.replace(/\r\n?/g, '\n').replace(/\n/g, '\n  ')}`;
}

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Sentences every tool's description holds (at least {@link MIN_SENTENCE_TOOLS} tools): complete
 * sentences of the first tool's description that stand alone (see `standsAlone`), found in every other
 * description, and worth the bytes once what each description can actually lose is known.
 */
function chooseSentences(tools: readonly McpTool[]): Pick<PromotedParams, 'sentences' | 'rewrites'> {
  if (tools.length < MIN_SENTENCE_TOOLS) return NO_SENTENCES;
  const texts: string[] = [];
  for (const tool of tools) {
    const d = isObject(tool) && hasOwn(tool, 'description') ? tool.description : undefined;
    if (typeof d !== 'string' || d === '') return NO_SENTENCES;
    texts.push(d);
  }
  // The first tool's pieces, in text order (a prose sentence there, or one on a line of its own).
  let candidates = [...sentencePieces(texts[0]!)].filter((s) => isComplete(s) && standsAlone(s));
  const distinct = [...new Set(texts)];
  for (const text of distinct.slice(1)) {
    if (candidates.length === 0) return NO_SENTENCES;
    const pieces = sentencePieces(text);
    candidates = candidates.filter((c) => pieces.has(c));
  }
  // Each description loses only what it safely can; a sentence stays promoted while that pays for its
  // line, and the block while it pays for its header. Fewer sentences can only change the plan once
  // more, so this settles within as many rounds as there are candidates.
  for (;;) {
    if (candidates.length === 0) return NO_SENTENCES;
    const set = new Set(candidates);
    const rewrites = new Map(distinct.map((t) => [t, removeSentences(t, set)] as const));
    const removedCount = new Map<string, number>();
    for (const text of texts) for (const s of rewrites.get(text)!.removed) removedCount.set(s, (removedCount.get(s) ?? 0) + 1);
    const gains = candidates.map((s) => (removedCount.get(s) ?? 0) * (utf8Length(JSON.stringify(s)) - 1) - (utf8Length(formatSentenceLine(s)) + 1));
    const kept = candidates.filter((_, k) => gains[k]! > 0);
    if (kept.length === candidates.length) {
      const net = gains.reduce((a, g) => a + g, 0);
      return net > utf8Length(SENTENCE_HEADER) + 2 ? { sentences: candidates, rewrites } : NO_SENTENCES;
    }
    candidates = kept;
  }
}

function formatSentences(sentences: readonly string[]): string {
  return [SENTENCE_HEADER, ...sentences.map(formatSentenceLine)].join('\n');
}

/** `- sentence`, continuation lines indented so the list stays a list. */
function formatSentenceLine(sentence: string): string {
  return `- ${sentence.replace(/\r\n?/g, '\n').replace(/\n[ \t]*/g, '\n  ')}`;
}
