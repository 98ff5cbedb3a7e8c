/**
 * rename-tools (lossy): a tool whose name the client refuses (Gemini and Kimi want a letter or `_` first,
 * OpenAI at most 64 characters) gets a name the client accepts. Unlike the other steps it edits the tool,
 * not a schema, and it reads the whole list (a new name never collides with another tool's).
 *
 * Why lossy: a tool's name is how it is called. The client calls the new name, and the server knows only
 * the old one, so whatever sits between them must map the call back: `toolslim proxy` does (it reads the
 * map from the report, {@link toolRenamesOf}); a list written to a file is usable only by a caller that
 * does the same. Off unless its option (`renameTools`) is on; `presetForProfile` turns it on for a
 * profile whose name rule is an error, unless `lossy: false` or `renameTools: false`.
 *
 * The new name is deterministic and depends on the old name alone, unless it would collide: the first form
 * the profile's rule accepts, trying the least change first — every character outside `A-Z a-z 0-9 _ . -`
 * replaced by `_`; then also `.`; then also `-`; each as it is and, when it does not start with a letter
 * or `_`, with `_` in front. A form longer than the rule allows is cut, ending in `_` and a hash of the
 * old name (8 hex digits of FNV-1a 32 over its UTF-8 bytes); for a rule with a minimum length the forms
 * are tried once more with that suffix added. A new name another tool already has (or another rename took
 * first, in list order) ends in the hash of `<old name>#<n>` instead, n = 1, 2, ….
 * A name no step makes acceptable (a custom profile's rule) is kept, and the report says so.
 */
import type { Change, Report } from '../../../core/report.js';
import type { ClientProfile, ToolNameRule } from '../../../profiles/profiles.js';

/** A step of adapt-to-client that works on the whole list's tool names (not on one schema). */
export interface AdaptNameStep {
  readonly id: string;
  readonly option: string;
  readonly safety: 'lossy';
  readonly applies: (p: ClientProfile) => boolean;
  /** The renames for a list's names under `p`: see {@link planToolRenames}. */
  readonly plan: (names: readonly string[], p: ClientProfile) => ToolRenamePlan;
}

/** What {@link planToolRenames} decided for a list. */
export interface ToolRenamePlan {
  /** Old name → new name, for each refused name a rename fixes. */
  readonly renames: ReadonlyMap<string, string>;
  /** Refused names no rename makes acceptable (kept as they are; the profile check still reports them). */
  readonly kept: ReadonlySet<string>;
}

/** One rename in a report: tool `toolIndex` was `from` and is served as `to`. */
export interface ToolRename {
  readonly toolIndex: number;
  readonly from: string;
  readonly to: string;
}

export const renameTools: AdaptNameStep = {
  id: 'rename-tools',
  option: 'renameTools',
  safety: 'lossy',
  applies: (p) => p.toolName !== undefined && p.toolName.severity === 'error',
  plan: (names, p) => planToolRenames(names, p.toolName!),
};

/** The change code a rename is reported with (`adapt-to-client/renamed-tool`, path `/<i>/name`). */
export const RENAMED_TOOL = 'renamed-tool';

/**
 * The renames that make every name of `names` (a list's tool names, in order) acceptable to `rule`,
 * without two tools ending with the same name. Names `rule` accepts, and empty names, are left alone.
 */
export function planToolRenames(names: readonly string[], rule: ToolNameRule): ToolRenamePlan {
  const re = new RegExp(rule.pattern, 'u');
  const ok = (name: string) => name.length > 0 && name.length <= rule.maxLength && re.test(name);
  const taken = new Set(names);
  const renames = new Map<string, string>();
  const kept = new Set<string>();
  for (const name of names) {
    if (name === '' || ok(name) || renames.has(name) || kept.has(name)) continue;
    let next = candidate(name, rule.maxLength, ok);
    if (next !== undefined && taken.has(next)) next = untaken(name, next, rule.maxLength, ok, taken);
    if (next === undefined) {
      kept.add(name);
      continue;
    }
    taken.add(next);
    renames.set(name, next);
  }
  return { renames, kept };
}

/**
 * Every rename a run made (`adapt-to-client/renamed-tool` changes), in tool order: what a caller that
 * serves the output needs to call the server by the names it knows (client name `to` → server name `from`).
 */
export function toolRenamesOf(report: Pick<Report, 'changes'>): ToolRename[] {
  const out: ToolRename[] = [];
  for (const c of report.changes) if (isRename(c)) out.push({ toolIndex: c.toolIndex, from: c.oldValue as string, to: c.value as string });
  return out;
}

function isRename(c: Change): boolean {
  return c.transform === 'adapt-to-client' && c.code === RENAMED_TOOL && c.op === 'replace' && typeof c.value === 'string' && typeof c.oldValue === 'string';
}

/** The first acceptable form of `name` (see the module comment), or undefined. */
function candidate(name: string, max: number, ok: (s: string) => boolean): string | undefined {
  const s1 = name.replace(/[^A-Za-z0-9_.-]/gu, '_');
  const s2 = s1.replace(/\./g, '_');
  const s3 = s2.replace(/-/g, '_');
  const forms: string[] = [];
  for (const f of [s1, s2, s3]) {
    if (forms.includes(f)) continue;
    forms.push(f);
    if (!/^[A-Za-z_]/.test(f)) forms.push('_' + f);
  }
  const suffix = hash(name);
  // Each form as it is (cut to the rule's length when longer), then, for a rule with a minimum length, with the suffix.
  for (const f of forms) {
    const s = f.length > max ? withSuffix(f, suffix, max) : f;
    if (ok(s)) return s;
  }
  for (const f of forms) {
    const s = withSuffix(f, suffix, max);
    if (ok(s)) return s;
  }
  return undefined;
}

/** `base` with a hash suffix that no tool has, trying `<name>#1`, `<name>#2`, … (list order decides). */
function untaken(name: string, base: string, max: number, ok: (s: string) => boolean, taken: ReadonlySet<string>): string | undefined {
  // Bounded: each try is a fresh 32-bit hash, so a free one comes after a handful at most.
  for (let n = 1; n <= 1000; n++) {
    const s = withSuffix(base, hash(`${name}#${n}`), max);
    if (!taken.has(s)) return ok(s) ? s : undefined;
  }
  return undefined;
}

/** `s` cut so that `_<suffix>` fits in `max` characters, then `_<suffix>`. */
function withSuffix(s: string, suffix: string, max: number): string {
  const room = Math.max(0, max - suffix.length - 1);
  // Cut at a code point, never inside a surrogate pair (the result is ASCII by then, but stay safe).
  const head = Array.from(s).slice(0, room).join('').slice(0, room);
  return `${head}_${suffix}`;
}

/** FNV-1a 32 of the UTF-8 bytes of `s`, as 8 lowercase hex digits. */
function hash(s: string): string {
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(s)) {
    h ^= byte;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}
