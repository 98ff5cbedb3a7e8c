/**
 * The vocabulary of the session layer, in a module of its own so that the defaults and the modules
 * that use them do not import each other.
 */
import type { CompressColdToolsOptions } from '../transforms/compress-cold-tools.js';

/**
 * How a session's hot set is ranked at its start:
 * - `frequency` (the default): the tools earlier sessions called most, each called at least
 *   `minCallsPerSession` times per session;
 * - `recency`: the tools called most recently, whatever their count;
 * - `graph`: the graph's own score with no conversation text (transition from the last recorded call,
 *   alternation and recency, weighted as the graph says). The "last call" is the previous session's, a
 *   weak signal at a new session's start (the bench measured 42% of calls hot at k = 5, against 63% for
 *   `frequency`); kept for measurement;
 * - `list-order`: the first `k` tools of the list, whatever the graph says.
 *
 * Every policy but `list-order` makes a tool hot only on evidence: a tool never called (or unknown to
 * the graph, or with no graph at all) is never hot, so without usage every tool is served cold. Ties
 * go to the tool listed first.
 */
export type HotSetPolicy = 'frequency' | 'recency' | 'graph' | 'list-order';

/** Every {@link HotSetPolicy}, in the order the docs list them. */
export const HOT_SET_POLICIES: readonly HotSetPolicy[] = Object.freeze(['frequency', 'recency', 'graph', 'list-order']);


/**
 * What happens when the model calls a cold tool:
 * - `result` (default): its arguments are checked against the tool's full input schema; valid calls are
 *   forwarded untouched, invalid ones answered with an error that names each problem and carries the
 *   full schema, so the model can retry in the same turn. The served list never changes.
 * - `list-changed`: the same check, and the tool becomes hot: it is served in full from then on, and the
 *   client is told with `notifications/tools/list_changed` when the server declared that capability
 *   (else it sees the tool on its next own `tools/list`).
 */
export type RevealMode = 'result' | 'list-changed';

/** Every {@link RevealMode}. */
export const REVEAL_MODES: readonly RevealMode[] = Object.freeze(['result', 'list-changed']);


/**
 * Where a preamble the server's descriptions share (the one `dropSharedPreamble` finds) is served:
 * - `each`: hot tools keep it, as the pipeline produced them (cold tools drop it with `dropSharedPreamble`);
 * - `once`: it stays on the first tool that has it, in list order, whether that tool is hot or cold (a cold
 *   one gets it back in front of its cold description), and every other tool, hot ones included, is served
 *   without it. The list says it once instead of once per hot tool. Needs `cold.dropSharedPreamble`.
 */
export type PreambleMode = 'each' | 'once';

/** Every {@link PreambleMode}. */
export const PREAMBLE_MODES: readonly PreambleMode[] = Object.freeze(['each', 'once']);

/**
 * How cold tools are served: the options of `compress-cold-tools` without `keep` (the hot set is given
 * separately). The defaults are compress-cold-tools' own (first sentence, `{"type":"object"}`).
 */
export type ColdFormOptions = Omit<CompressColdToolsOptions, 'keep'>;
