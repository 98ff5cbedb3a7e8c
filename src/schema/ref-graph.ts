/**
 * Questions about the references of one schema as a whole, answered in about linear time: which definitions
 * lie on a cycle of references, and whether a reference lies in, at or around a given place. inline-small-refs
 * asked both by reading every definition or reference once per definition or place, quadratic in them (a chain
 * of 50,000 definitions, or 8,000 properties referencing a first one, took minutes); test/unit/
 * inline-small-refs-cycles.test.ts checks each against that reading.
 */
import type { RefSite } from './refs.js';

/**
 * Which of `nodes` lie on a cycle of `edges`: those whose strongly connected component has more than one
 * member, or that have an edge to themselves. Tarjan's algorithm, without recursion (a chain of 50,000
 * definitions is 50,000 deep): linear in nodes and edges. It replaced a search from each definition for a way
 * back to itself, quadratic on a chain of references (8,000 definitions, each referencing the next: 4 s;
 * 50,000: more than 120 s).
 */
export function onCycles(edges: ReadonlyMap<string, readonly string[]>, nodes: Iterable<string>): Set<string> {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const out = new Set<string>();
  let next = 0;
  const NONE: readonly string[] = [];
  for (const root of nodes) {
    if (index.has(root)) continue;
    // The depth-first search's own stack: a node and how many of its edges it has followed.
    const work: { node: string; edge: number }[] = [{ node: root, edge: 0 }];
    index.set(root, next);
    low.set(root, next++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const out_ = edges.get(frame.node) ?? NONE;
      if (frame.edge < out_.length) {
        const to = out_[frame.edge++]!;
        if (to === frame.node) out.add(to); // a reference to itself
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, edge: 0 });
        } else if (onStack.has(to)) low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1]!.node;
        low.set(parent, Math.min(low.get(parent)!, low.get(frame.node)!));
      }
      if (low.get(frame.node) === index.get(frame.node)) {
        // A component: pop it; more than one member means each lies on a cycle.
        const members: string[] = [];
        let m: string;
        do {
          m = stack.pop()!;
          onStack.delete(m);
          members.push(m);
        } while (m !== frame.node);
        if (members.length > 1) for (const x of members) out.add(x);
      }
    }
  }
  return out;
}

/**
 * A test of whether some reference (of a schema position) lies inside the place at `path`, is that place, or
 * holds it: what `refs.some((s) => s.inSchema && (within(path, s.schemaPath) || within(s.schemaPath, path)))`
 * answers, without reading every reference for each place (a tool with 8,000 properties referencing a first
 * one asked it 8,000 times over 8,000 references: 30 s). The references' places as a set (a place holding
 * `path` is one of its prefixes) and sorted (those inside it are one run of the sorted list); each answer is
 * remembered.
 */
export function refNearness(refs: readonly RefSite[]): (path: string) => boolean {
  const places = new Set<string>();
  for (const r of refs) if (r.inSchema) places.add(r.schemaPath);
  const sorted = [...places].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const known = new Map<string, boolean>();
  return (path: string): boolean => {
    let near = known.get(path);
    if (near !== undefined) return near;
    near = places.has('') || places.has(path);
    // A place holding it: one of its prefixes that ends where a token does.
    for (let k = path.indexOf('/', 1); !near && k > 0; k = path.indexOf('/', k + 1)) near = places.has(path.slice(0, k));
    if (!near) {
      // A place inside it: the first place sorted after `path + '/'` starts with it, if any does.
      const inside = path + '/';
      let lo = 0;
      let hi = sorted.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (sorted[mid]! < inside) lo = mid + 1;
        else hi = mid;
      }
      near = lo < sorted.length && sorted[lo]!.startsWith(inside);
    }
    known.set(path, near);
    return near;
  };
}
