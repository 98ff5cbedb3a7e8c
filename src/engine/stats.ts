/**
 * Sizes as a run measures them: every tool's compact JSON before the run (counted by the input check's
 * walk; serialized, with a tokenizer), then after each step that changed it. Without a tokenizer a step's new size is the old one plus the bytes its
 * edits added or removed (`EditContext` counts them from the edited values), so no tool is serialized
 * twice; with one, tokens need the text, and a changed tool is serialized again. With a tokenizer that counts
 * an edited text from its windows (COUNT_EDITED: toolslim/tokens), the tool as it was before the step is
 * serialized too and only where the two texts differ is counted (src/core/token-edit.ts): on the 31,560-tool
 * list of bench/check-scale.ts the steps' changed tools are 58 M characters, which the memo scanned (~0.9 s),
 * and where they differ 1.9 M (finding that: ~0.1 s; serializing the tools before the steps ~0.25 s). Keeping
 * each tool's last text instead of serializing it again held the list's size (52 MB there) through the run
 * and cost as much in collections as it saved (peak RSS +80 MB, CPU within noise).
 */
import { AFTER_TEXT, arrayElementKeeper, BEFORE_TEXT, countArray, editedCounter, utf8Length, type CountEdited, type Size, type Tokenizer } from '../core/measure.js';
import { editWindows } from '../core/token-edit.js';
import type { ToolStats } from '../core/report.js';
import { stringifyJson } from '../json/stringify.js';
import { anchorShape } from '../json/shapes.js';

export class ToolSizes {
  readonly #tokenizer: Tokenizer | undefined;
  /** What is kept of each tool's text, only with a tokenizer (the whole list's tokens are counted from them). */
  readonly #keep: ((text: string) => string) | undefined;
  readonly #beforeTexts: (string | undefined)[];
  readonly #texts: (string | undefined)[];
  readonly before: readonly Size[];
  readonly #current: Size[];
  /** The tokenizer's AFTER_TEXT function, if it has one. */
  readonly #afterTap: AfterTap | undefined;
  /** The tokenizer's COUNT_EDITED function, if it has one. */
  readonly #countEdited: CountEdited | undefined;
  /** 1 where a tool's current count is that of `JSON.stringify` of the tool as it stands (only with {@link #countEdited}). */
  readonly #exact: Uint8Array;

  /** `bytes`: what the input check counted for each usable tool (the tools are not serialized again for it). */
  constructor(tools: readonly unknown[], usable: readonly boolean[], tokenizer: Tokenizer | undefined, bytes: readonly number[]) {
    this.#tokenizer = tokenizer;
    const afterTap = tokenizer ? (tokenizer as { [AFTER_TEXT]?: unknown })[AFTER_TEXT] : undefined;
    this.#afterTap = typeof afterTap === 'function' ? (afterTap as AfterTap) : undefined;
    this.#countEdited = tokenizer ? editedCounter(tokenizer) : undefined;
    this.#exact = new Uint8Array(this.#countEdited !== undefined ? tools.length : 0);
    if (tokenizer) {
      // Each tool's text is counted, then only what the list's count needs of it is kept (its stand-in,
      // a few dozen characters with toolslim/tokens; the text itself with another tokenizer).
      const keep = arrayElementKeeper(tokenizer);
      this.#keep = keep;
      const tap = (tokenizer as { [BEFORE_TEXT]?: unknown })[BEFORE_TEXT];
      const before: Size[] = new Array(tools.length);
      const kept: (string | undefined)[] = new Array(tools.length);
      for (let i = 0; i < tools.length; i++) {
        const text = usable[i] ? JSON.stringify(tools[i]) : safeStringify(tools[i]);
        before[i] = this.#size(text);
        kept[i] = text === undefined ? undefined : keep(text);
        if (this.#countEdited !== undefined && usable[i] && text !== undefined) this.#exact[i] = 1;
        if (text !== undefined && typeof tap === 'function') (tap as (index: number, text: string) => void)(i, text);
      }
      this.before = before;
      this.#beforeTexts = kept;
      this.#texts = kept.slice();
    } else {
      this.#keep = undefined;
      const before: Size[] = new Array(tools.length);
      for (let i = 0; i < tools.length; i++) before[i] = usable[i] ? { bytes: bytes[i]! } : this.#size(safeStringify(tools[i]));
      this.before = before;
      this.#beforeTexts = [];
      this.#texts = [];
    }
    this.#current = this.before.slice();
  }

  /**
   * Records tool `i` after a step that changed it (`bytesDelta`: what the step's edits added; `previous`: the
   * tool before the step, the one last measured); returns what the step saved.
   */
  update(i: number, tool: unknown, bytesDelta: number, previous?: unknown): { readonly bytes: number; readonly tokens: number } {
    const was = this.#current[i]!;
    let size: Size;
    if (this.#tokenizer) {
      const text = JSON.stringify(tool) as string | undefined;
      if (this.#exact[i] === 1 && text !== undefined && was.tokens !== undefined && previous !== undefined) {
        // Only where the text changed is counted (COUNT_EDITED); the windows go to the tap too.
        const before = JSON.stringify(previous) as string;
        const windows = editWindows(before, text);
        size = { bytes: utf8Length(text), tokens: this.#countEdited!(before, was.tokens, text, windows) };
        this.#texts[i] = this.#keep!(text);
        if (this.#afterTap !== undefined) this.#afterTap(i, text, tool, before, windows);
      } else {
        size = this.#size(text);
        if (this.#countEdited !== undefined) this.#exact[i] = text === undefined ? 0 : 1;
        this.#texts[i] = text === undefined ? undefined : this.#keep!(text);
        if (text !== undefined && this.#afterTap !== undefined) this.#afterTap(i, text, tool);
      }
    } else size = { bytes: was.bytes + bytesDelta };
    this.#current[i] = size;
    return { bytes: was.bytes - size.bytes, tokens: this.#tokenizer ? (was.tokens ?? 0) - (size.tokens ?? 0) : 0 };
  }

  /** Tool `i` is back as it was before the run. */
  revert(i: number): void {
    this.#current[i] = this.before[i]!;
    if (this.#tokenizer) this.#texts[i] = this.#beforeTexts[i];
    if (this.#countEdited !== undefined) this.#exact[i] = 0;
  }

  toolStats(names: readonly string[]): ToolStats[] {
    // Loops, not closures made per run, in this file and the engine's: see docs/architecture.md, "Shape anchors".
    const out: ToolStats[] = new Array(this.before.length);
    for (let i = 0; i < out.length; i++) out[i] = { index: i, name: names[i]!, before: this.before[i]!, after: this.#current[i]! };
    return out;
  }

  /** The whole tools array before and after: brackets, commas and every tool. */
  totals(): { readonly before: Size; readonly after: Size } {
    return { before: this.#total(this.before, this.#beforeTexts), after: this.#total(this.#current, this.#texts) };
  }

  #size(text: string | undefined): Size {
    const t = text ?? '';
    return this.#tokenizer ? { bytes: utf8Length(t), tokens: this.#tokenizer.count(t) } : { bytes: utf8Length(t) };
  }

  #total(sizes: readonly Size[], texts: readonly (string | undefined)[]): Size {
    let bytes = sizes.length === 0 ? 2 : 1 + sizes.length;
    for (const s of sizes) bytes += s.bytes;
    if (!this.#tokenizer) return { bytes };
    // The array's text is never built, nor each tool counted again: countArray adds up the tools' counts
    // and the stretches at the joins (the same count). A tool without text reads `null` there.
    const elements = new Array<string>(texts.length);
    const counts = new Array<number | undefined>(texts.length);
    for (let i = 0; i < texts.length; i++) {
      const t = texts[i];
      elements[i] = t ?? 'null';
      counts[i] = t === undefined ? undefined : sizes[i]!.tokens;
    }
    return { bytes, tokens: countArray(this.#tokenizer, elements, counts) };
  }
}

type AfterTap = (index: number, text: string, tool: unknown, previous?: string, windows?: readonly number[]) => void;

/** Compact JSON of a tool that may be too deep for `JSON.stringify`, or undefined when it is not JSON at all. */
function safeStringify(value: unknown): string | undefined {
  try {
    return stringifyJson(value);
  } catch {
    return undefined;
  }
}

// Keeps ToolSizes's shape (and the code optimised for it) alive between runs.
anchorShape(new ToolSizes([], [], undefined, []));
