import type { Dialect } from './keywords.js';
import { formatPointer } from '../json/pointer.js';
import { parseRef } from './ref-syntax.js';
import { collectRefInventory, findAnchorsNamed, RefIndex, type RefInventory, type RefSite } from './refs.js';

/**
 * Every place in a document that some reference may land on, so that a rewrite can leave those places
 * (and everything on the way to them) where they are.
 */
export interface RefTargets {
  /** Pointers (from the document root) a reference may resolve to. */
  readonly exact: ReadonlySet<string>;
  /** Every proper ancestor of a target (`""` included once any target exists). */
  readonly ancestors: ReadonlySet<string>;
  /** The first reference in a schema position whose target cannot be decided, if any. */
  readonly undecidable?: { readonly site: RefSite; readonly reason: string };
  readonly inventory: RefInventory;
}

/**
 * Collects reference targets conservatively: the resolved target of every reference (in schemas and,
 * `$ref`-shaped, in data), the same pointer read against the document root (a reader that ignores an
 * embedded `$id` looks there), and every holder of an anchor a reference names.
 */
export function collectRefTargets(schema: unknown, dialect: Dialect, source?: RefInventory | RefIndex): RefTargets {
  const index = source instanceof RefIndex ? source : new RefIndex(schema, dialect, source ?? collectRefInventory(schema, dialect));
  const { inventory } = index;
  const resolutions = index.resolutions;
  const exact = new Set<string>();
  const ancestors = new Set<string>();
  let undecidable: RefTargets['undecidable'];
  const add = (path: string) => {
    if (exact.has(path)) return;
    exact.add(path);
    let end = path.lastIndexOf('/');
    while (end >= 0) {
      const prefix = path.slice(0, end);
      if (ancestors.has(prefix)) break;
      ancestors.add(prefix);
      end = prefix.lastIndexOf('/');
    }
  };
  inventory.refs.forEach((site, i) => {
    const parsed = parseRef(site.ref);
    if (parsed.kind === 'pointer') add(formatPointer(parsed.tokens));
    else if (parsed.kind === 'external' && parsed.fragment !== '') {
      const fragment = parseRef('#' + parsed.fragment);
      if (fragment.kind === 'pointer') add(formatPointer(fragment.tokens));
    }
    const anchorName = parsed.kind === 'anchor' ? parsed.name : undefined;
    if (anchorName !== undefined) for (const a of findAnchorsNamed(inventory, anchorName)) add(a.path);
    const resolution = resolutions[i]!;
    if (resolution.status === 'resolved') add(resolution.path);
    else if (resolution.status === 'undecidable' && site.inSchema && undecidable === undefined) undecidable = { site, reason: resolution.reason };
  });
  return undecidable === undefined ? { exact, ancestors, inventory } : { exact, ancestors, undecidable, inventory };
}

/** True when a reference may land on `path` or anywhere below it. */
export function holdsRefTarget(targets: RefTargets, path: string): boolean {
  return targets.exact.has(path) || targets.ancestors.has(path);
}

/** True when a reference may land strictly below `path`. */
export function holdsRefTargetBelow(targets: RefTargets, path: string): boolean {
  return targets.ancestors.has(path);
}
