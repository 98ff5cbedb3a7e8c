/**
 * The recommended hot-set settings: one constant, so the proxy, the SDK hook, the docs and the session
 * bench (which checks its `recommended` policy against it) agree.
 */
import type { ColdFormOptions, HotSetPolicy, PreambleMode, RevealMode } from './types.js';

/** The shape of {@link DEFAULT_HOT_SET}. */
export interface HotSetDefaults {
  /** Most tools served in full. */
  readonly k: number;
  /** How they are ranked at session start. */
  readonly policy: HotSetPolicy;
  /** `frequency`: only tools called at least this often per recorded session are hot. */
  readonly minCallsPerSession: number;
  /** What a call of a cold tool does. */
  readonly reveal: RevealMode;
  /** How cold tools are served. */
  readonly cold: Readonly<ColdFormOptions>;
  /** Where the server's shared preamble is served: once, on the first tool that has it (with a cold form that drops it). */
  readonly preamble: PreambleMode;
}

/**
 * The defaults of every hot-set option, chosen by the BFCL session bench (bench/sessions.md: prompt-cache
 * cost of tool definitions over 100 real multi-turn sessions): up to 5 tools hot, the ones earlier
 * sessions called most, and only those called at least 0.35 times per session (so with no usage file,
 * or a fresh one, no tool is hot and every tool is served cold); cold tools keep the sentence that is
 * their own (the server's shared preamble dropped) and a signature of their parameters, and the preamble
 * is said once, on the first tool that has it, hot tools included (`preamble: 'once'`); a cold call is
 * checked and, when invalid, answered with the schema (`result`), so the list, and the prompt cache,
 * never change within a session.
 */
export const DEFAULT_HOT_SET: HotSetDefaults = Object.freeze({
  k: 5,
  policy: 'frequency',
  minCallsPerSession: 0.35,
  reveal: 'result',
  cold: Object.freeze({ dropSharedPreamble: true, parameters: 'signature' }),
  preamble: 'once',
});
