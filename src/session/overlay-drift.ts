/**
 * How the server's live tools differ from an overlay's pin (tools added, removed, changed, renamed), and the
 * message that names each difference and the command that rebuilds the overlay (given by the caller, never
 * read from the overlay: a tampered file must not choose the command a user is told to run).
 */
import { ToolslimError } from '../core/errors.js';
import { oneLine } from '../core/safe-text.js';
import { describeValue } from './hot-set.js';
import { pinTool, type Overlay, type OverlayPinEntry } from './overlay.js';

/** How the live list differs from an overlay's pin. */
export interface OverlayDrift {
  /** True when anything below is non-empty (the order of tools alone is not drift). */
  readonly drifted: boolean;
  /** Live tools the pin does not know, by name. */
  readonly added: readonly string[];
  /** Pinned tools the server no longer lists. */
  readonly removed: readonly string[];
  /** Tools listed under the same name with other bytes. */
  readonly changed: readonly string[];
  /** A pinned tool that is listed under another name, and otherwise the same. */
  readonly renamed: readonly { readonly from: string; readonly to: string }[];
  /** One message naming each difference and the command that rebuilds the overlay (empty when none). */
  readonly message: string;
}

/** Options of {@link findDrift}. */
export interface FindDriftOptions {
  /** The overlay's path, for the message. */
  readonly file?: string;
  /** The rebuild command for the message (default: a template; never the overlay's own `rebuild`). */
  readonly rebuild?: string;
}

/**
 * Compares the server's live tools with the overlay's pin: tools added, removed, changed (same name,
 * other bytes) and renamed (a removed and an added tool that are the same but for the name). The order
 * of the tools is not compared. Duplicate names are compared occurrence by occurrence.
 */
export function findDrift(overlay: Overlay, liveTools: readonly unknown[], options: FindDriftOptions = {}): OverlayDrift {
  if (!Array.isArray(liveTools)) throw new ToolslimError('invalid-input', `findDrift: the live tools must be an array, got ${describeValue(liveTools)}`);
  const live = liveTools.map(pinTool);
  const pinnedByName = groupByName(overlay.pin.tools);
  const liveByName = groupByName(live);
  const changed: string[] = [];
  let removed: OverlayPinEntry[] = [];
  let added: OverlayPinEntry[] = [];
  for (const [name, entries] of pinnedByName) {
    const now = liveByName.get(name) ?? [];
    for (let i = 0; i < entries.length; i++) {
      if (i >= now.length) removed.push(entries[i]!);
      else if (now[i]!.sha256 !== entries[i]!.sha256) changed.push(name);
    }
  }
  for (const [name, entries] of liveByName) {
    const before = pinnedByName.get(name) ?? [];
    for (let i = before.length; i < entries.length; i++) added.push(entries[i]!);
  }
  const renamed: { from: string; to: string }[] = [];
  if (removed.length > 0 && added.length > 0) {
    const takenAdded = new Set<number>();
    const takenRemoved = new Set<number>();
    for (const [r, gone] of removed.entries()) {
      const a = added.findIndex((x, k) => !takenAdded.has(k) && x.bodySha256 === gone.bodySha256);
      if (a < 0) continue;
      takenAdded.add(a);
      takenRemoved.add(r);
      renamed.push({ from: gone.name, to: added[a]!.name });
    }
    removed = removed.filter((_, k) => !takenRemoved.has(k));
    added = added.filter((_, k) => !takenAdded.has(k));
  }
  const result = { added: added.map((e) => e.name), removed: removed.map((e) => e.name), changed: [...new Set(changed)], renamed };
  const drifted = result.added.length + result.removed.length + result.changed.length + result.renamed.length > 0;
  return { drifted, ...result, message: drifted ? driftMessage(overlay, result, options) : '' };
}

function driftMessage(overlay: Overlay, d: Pick<OverlayDrift, 'added' | 'removed' | 'changed' | 'renamed'>, options: FindDriftOptions): string {
  const file = options.file ?? 'the overlay';
  // A name is the live server's: one line each (a newline in it would write a line of the server's choosing).
  const list = (names: readonly string[]) => names.map((n) => (n === '' ? '(unnamed)' : `\`${oneLine(n)}\``)).join(', ');
  const lines = [`toolslim: the server's tools differ from ${file} (pinned by toolslim ${overlay.toolslimVersion}${overlay.server?.name ? ` for ${overlay.server.name}${overlay.server.version ? ' ' + overlay.server.version : ''}` : ''}):`];
  if (d.changed.length > 0) lines.push(`  changed: ${list(d.changed)}`);
  if (d.added.length > 0) lines.push(`  added: ${list(d.added)}`);
  if (d.removed.length > 0) lines.push(`  removed: ${list(d.removed)}`);
  if (d.renamed.length > 0) lines.push(`  renamed: ${d.renamed.map((r) => `${list([r.from])} → ${list([r.to])}`).join(', ')}`);
  const rebuild = options.rebuild ?? `toolslim optimize --overlay ${options.file ?? 'overlay.json'} … -- <server command>`;
  lines.push(`Review what changed, then rebuild the overlay: ${rebuild}`);
  return lines.join('\n');
}

function groupByName(entries: readonly OverlayPinEntry[]): Map<string, OverlayPinEntry[]> {
  const out = new Map<string, OverlayPinEntry[]>();
  for (const e of entries) {
    const list = out.get(e.name);
    if (list) list.push(e);
    else out.set(e.name, [e]);
  }
  return out;
}
