/**
 * The overlay's content hash (issue 26 item 11): `pin.contentSha256` ties what the overlay serves to its
 * pin, so an overlay edited after `toolslim optimize --overlay` wrote it is refused as tampered instead of
 * served (a changed description or schema), or blamed on the server (a changed pin entry).
 *
 * The hash input, precisely: `sha256` (node:crypto) of the UTF-8 bytes of `JSON.stringify` of
 * `{ toolslimVersion, server, steps, pin, instructions, dropped, renamed, tools }` in that member order,
 * where `pin` is the pin's `tools` array, each value is as `JSON.parse` gives it from the file (member
 * order inside kept: the same compact JSON the pin's tool hashes use, `stringifyJson`), and an absent
 * member is left out. Not covered: `rebuild` (the proxy never reads it; it builds its own hint), `responses`
 * (response policies are added to an overlay by hand, see docs/response.md) and the hash itself.
 * Numbers are covered as values: two lexemes of one double (`9223372036854775807` and `…806`) hash alike.
 *
 * The hash is not a signature: someone who can rewrite the file can rewrite the hash. It makes an edit of
 * the served tools (by hand, by a merge, by a tool that reformats JSON and loses nothing) visible as what it
 * is, and it stops a pin edited to match a drifted server from passing as the server's fault.
 */
import { ToolslimError } from '../core/errors.js';
import { stringifyJson } from '../json/stringify.js';
import { sha256Hex } from './sha256.js';

/** The members the content hash covers, in the order it writes them. */
const COVERED = ['toolslimVersion', 'server', 'steps', 'pin', 'instructions', 'dropped', 'renamed', 'tools'] as const;

/** `pin.contentSha256` of an overlay (parsed JSON or the object createOverlay builds). */
export function overlayContentSha256(overlay: Readonly<Record<string, unknown>>): string {
  const input: Record<string, unknown> = {};
  for (const key of COVERED) {
    const value = key === 'pin' ? (overlay.pin as { tools?: unknown } | undefined)?.tools : overlay[key];
    if (value !== undefined) input[key] = value;
  }
  return sha256Hex(stringifyJson(input));
}

/**
 * Refuses an overlay whose content hash is missing (written by a toolslim before the hash) or differs from
 * what the file holds (edited since). `rebuild` is the command the message suggests (never the file's own).
 *
 * @throws ToolslimError (`invalid-input`)
 */
export function checkOverlayContent(json: Readonly<Record<string, unknown>>, file: string, rebuild: string): void {
  const stored = (json.pin as { contentSha256?: unknown }).contentSha256;
  if (stored === undefined) {
    throw new ToolslimError('invalid-input', `${file} has no \`pin.contentSha256\`: it was written by a toolslim that did not tie the served tools to the pin, so an edit of them could not be told from the original; rebuild it with this toolslim: ${rebuild}`);
  }
  if (typeof stored !== 'string' || !/^[0-9a-f]{64}$/.test(stored)) {
    throw new ToolslimError('invalid-input', `${file}: expected 64 hex digits at \`/pin/contentSha256\``, { path: '/pin/contentSha256' });
  }
  if (overlayContentSha256(json) !== stored) {
    throw new ToolslimError(
      'invalid-input',
      `${file} was modified after toolslim optimize wrote it: its tools, instructions, steps or pin no longer match its \`pin.contentSha256\`, so it is refused as a tampered overlay (the server was not asked and is not at fault). Review the file (git diff), then rebuild it: ${rebuild}`,
    );
  }
}
