/**
 * Where `optimize` puts the text that steps such as promote-common-params write for the server's
 * `instructions`: into the output envelope when it has a place for it (a capture file's
 * `initialize.instructions`), into `--instructions FILE` when given; otherwise the run fails naming the
 * step, because the optimized tools would have lost descriptions that then reach no one.
 */
import type { TransformResult } from '../core/run-types.js';
import type { Step } from '../core/transform.js';
import { isObject } from '../json/guards.js';
import { locateTools } from '../engine/input.js';
import { CliError } from './errors.js';
import { memberSpans, setMemberStyled } from './proxy/json-text.js';
import { stepsWritingInstructions } from '../session/serve.js';
import type { TransformStepInput } from '../core/preset.js';

/** What {@link placeInstructions} decided: the text to write, and a line for stderr. */
export interface PlacedInstructions {
  readonly text: string;
  readonly note?: string;
}

const ENVELOPES: Readonly<Record<string, string>> = { array: 'bare tools array', 'list-result': 'ListToolsResult', jsonrpc: 'JSON-RPC response', capture: 'capture file without an initialize result' };

/**
 * @param written - the output text as rendered (the input's layout)
 * @param value - the parsed input
 * @param steps - the resolved steps (to name the ones that wrote instructions)
 * @param instructionsPath - `--instructions FILE`, when given (the caller writes the file)
 * @param out - where the output goes (for messages)
 */
export function placeInstructions(written: string, value: unknown, result: TransformResult, steps: readonly Step[], instructionsPath: string | undefined, out: string | undefined): PlacedInstructions {
  const text = result.instructions;
  if (text === undefined || text === '') return { text: written };
  const names = [...new Set(stepsWritingInstructions(steps))].join(', ') || 'a step';
  if (instructionsPath !== undefined) {
    return { text: written, note: `${names} moved text into the server's instructions: written to ${instructionsPath}; the server must send it in its initialize result (toolslim proxy does that itself)` };
  }
  const envelope = locateTools(value).envelope;
  if (envelope === 'capture' && isObject(value) && isObject(value.initialize)) {
    const init = memberSpans(written).get('initialize');
    if (init !== undefined) {
      const initText = written.slice(init.start, init.end);
      const current = value.initialize.instructions;
      const merged = typeof current === 'string' && current !== '' ? `${current}\n\n${text}` : text;
      const colon = /"[^"]*"\s*:\s/.test(initText) ? ': ' : ':';
      const spliced = setMemberStyled(initText, 'instructions', JSON.stringify(merged), colon);
      return {
        text: written.slice(0, init.start) + spliced + written.slice(init.end),
        note: `${names} moved text into the server's instructions: appended to initialize.instructions in ${out ?? 'the output'}; a server serving these tools must send it in its initialize result (toolslim proxy --preset max does)`,
      };
    }
  }
  throw new CliError(
    `${names} moved parameter descriptions into text for the server's instructions, and a ${ENVELOPES[envelope] ?? envelope} on ${out ?? 'stdout'} has no place for it: ` +
      `give --instructions <file> (and have the server send that text in its initialize result), optimize a capture file (its initialize.instructions gets the text), or leave ${names} out`,
  );
}

/**
 * Before the work: when a step of the plan writes text for the server's instructions and the output
 * has no place for it (no `--instructions FILE`, not a capture file with an `initialize` result), the
 * run is refused now, naming the step — not after the whole pipeline ran over a large list only to be
 * refused for its envelope. Decided from the plan, not the result: such a step may find nothing to move
 * on one list and move text on the next version of it.
 */
export function checkInstructionsPlace(value: unknown, steps: readonly TransformStepInput[], instructionsPath: string | undefined, out: string | undefined): void {
  if (instructionsPath !== undefined) return;
  const writers = [...new Set(stepsWritingInstructions(steps))];
  if (writers.length === 0) return;
  const envelope = locateTools(value).envelope;
  if (envelope === 'capture' && isObject(value) && isObject(value.initialize)) return;
  const names = writers.join(', ');
  throw new CliError(
    `${names} moves parameter descriptions into text for the server's instructions, and a ${ENVELOPES[envelope] ?? envelope} on ${out ?? 'stdout'} has no place for it: ` +
      `give --instructions <file> (and have the server send that text in its initialize result), optimize a capture file (its initialize.instructions gets the text), or leave ${names} out`,
  );
}
