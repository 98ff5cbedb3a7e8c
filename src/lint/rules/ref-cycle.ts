/**
 * `ref-cycle`: a `$ref` that leads back to itself without reading any part of the instance
 * (`A: {"$ref": "#/$defs/B"}`, `B: {"$ref": "#/$defs/A"}`), through `$ref`s and the applicators that apply
 * their subschemas where they stand (`allOf`, `anyOf`, `oneOf`, `not`). Validating such a schema never ends
 * for some value: ajv runs out of stack compiling or running it, so no client can check a call against it.
 * `if`, `then`, `else` and `dependentSchemas` apply only on a condition (ajv skips an `if` without `then` or
 * `else`, and `if: false` never runs its `then`), so a cycle through them is not reported: a finding here
 * always loops for some value.
 */
import { hasOwn, isObject } from '../../json/guards.js';
import { appendPointer, parsePointer } from '../../json/pointer.js';
import type { RefSite } from '../../schema/refs.js';

/** One cycle: its `$ref` sites in the order they lead to each other, the first in document order first. */
export type RefCycle = readonly RefSite[];

/** Applicators whose subschemas apply to the instance where they stand, always. */
const IN_PLACE: ReadonlySet<string> = new Set(['allOf', 'anyOf', 'oneOf', 'not']);
/** Keywords whose value maps names to subschemas (the next pointer token is a name, then a subschema). */
const SCHEMA_MAPS: ReadonlySet<string> = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'dependencies']);

/** A `$ref` of the schema that resolves inside the document, and the pointer of its target. */
export interface ResolvedRef {
  readonly site: RefSite;
  readonly target: string;
}

/**
 * The cycles of `schema`'s `$ref`s (each once, in document order of their first site). `resolved`: its
 * in-schema `$ref` sites that resolve inside the document, in document order, with their targets (the caller
 * has resolved them already). Linear in the sites and their pointers' lengths, plus Tarjan's walk.
 */
export function findRefCycles(schema: Record<string, unknown>, resolved: readonly ResolvedRef[]): RefCycle[] {
  // Nodes: the schema objects holding such a `$ref` (one `$ref` per object), with its target.
  const nodes: ResolvedRef[] = [];
  const seen = new Set<string>();
  for (const n of resolved) {
    if (n.site.keyword !== '$ref' || seen.has(n.site.schemaPath)) continue;
    seen.add(n.site.schemaPath);
    nodes.push(n);
  }
  if (nodes.length === 0) return [];
  // Each node under every schema it is reached from in place: itself, and each schema that holds it through
  // in-place applicators only (`/$defs/A/allOf/0` under `/$defs/A/allOf/0` and `/$defs/A`).
  const reachedFrom = new Map<string, number[]>();
  nodes.forEach((n, i) => {
    for (const at of inPlaceHolders(schema, n.site.schemaPath)) {
      const list = reachedFrom.get(at);
      if (list) list.push(i);
      else reachedFrom.set(at, [i]);
    }
  });
  const next = nodes.map((n) => reachedFrom.get(n.target) ?? []);
  return stronglyConnected(next)
    .filter((c) => c.length > 1 || next[c[0]!]!.includes(c[0]!))
    .map((c) => orderCycle(c, next).map((i) => nodes[i]!.site));
}

/**
 * The pointers of the schemas that hold the schema at `path` through in-place applicators alone, itself
 * first. The pointer is read from the root against the schema itself: a token after `properties` is a name
 * (`/properties/not` is a property called `not`), after an array-valued keyword an index.
 */
function inPlaceHolders(schema: Record<string, unknown>, path: string): string[] {
  const tokens = parsePointer(path);
  // The token index where each schema along the path starts, and whether the step into it was in place.
  const starts: number[] = [0];
  const inPlace: boolean[] = [];
  let node: unknown = schema;
  let i = 0;
  while (i < tokens.length) {
    if (!isObject(node)) return [path];
    const keyword = tokens[i]!;
    const value = hasOwn(node, keyword) ? node[keyword] : undefined;
    let step = 1;
    let child: unknown = value;
    if (Array.isArray(value) || SCHEMA_MAPS.has(keyword)) {
      const entry = tokens[i + 1];
      if (entry === undefined) return [path];
      child = Array.isArray(value) ? value[Number(entry)] : isObject(value) && hasOwn(value, entry) ? value[entry] : undefined;
      step = 2;
    }
    inPlace.push(IN_PLACE.has(keyword));
    i += step;
    starts.push(i);
    node = child;
  }
  const out = [path];
  let tokenEnd = tokens.length;
  for (let s = inPlace.length - 1; s >= 0 && inPlace[s]; s--) {
    tokenEnd = starts[s]!;
    let p = '';
    for (let t = 0; t < tokenEnd; t++) p = appendPointer(p, tokens[t]!);
    out.push(p);
  }
  return out;
}

/** Tarjan's strongly connected components of the graph `next`, iterative; each component's nodes in no set order. */
function stronglyConnected(next: readonly (readonly number[])[]): number[][] {
  const n = next.length;
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const stack: number[] = [];
  const out: number[][] = [];
  let counter = 0;
  for (let root = 0; root < n; root++) {
    if (index[root] !== -1) continue;
    const frames: [number, number][] = [[root, 0]];
    index[root] = low[root] = counter++;
    stack.push(root);
    onStack[root] = 1;
    while (frames.length > 0) {
      const frame = frames[frames.length - 1]!;
      const [v, k] = frame;
      if (k < next[v]!.length) {
        frame[1]++;
        const w = next[v]![k]!;
        if (index[w] === -1) {
          index[w] = low[w] = counter++;
          stack.push(w);
          onStack[w] = 1;
          frames.push([w, 0]);
        } else if (onStack[w]) low[v] = Math.min(low[v]!, index[w]!);
        continue;
      }
      frames.pop();
      if (frames.length > 0) {
        const u = frames[frames.length - 1]![0];
        low[u] = Math.min(low[u]!, low[v]!);
      }
      if (low[v] === index[v]) {
        const component: number[] = [];
        let w: number;
        do {
          w = stack.pop()!;
          onStack[w] = 0;
          component.push(w);
        } while (w !== v);
        out.push(component);
      }
    }
  }
  return out.sort((a, b) => least(a) - least(b));
}

/** The smallest of a non-empty list (a loop: a spread of a long list runs out of stack). */
function least(list: readonly number[]): number {
  let m = list[0]!;
  for (const x of list) if (x < m) m = x;
  return m;
}

/** A cycle through the component's nodes from its first (in document order), following `next` within it. */
function orderCycle(component: readonly number[], next: readonly (readonly number[])[]): number[] {
  const inside = new Set(component);
  const first = least(component);
  // The shortest way back to the first node, breadth first within the component.
  const previous = new Map<number, number>();
  const queue = [first];
  for (let q = 0; q < queue.length; q++) {
    const v = queue[q]!;
    for (const w of next[v]!) {
      if (w === first) {
        const back = [v];
        while (back[back.length - 1] !== first) back.push(previous.get(back[back.length - 1]!)!);
        return back.reverse();
      }
      if (!inside.has(w) || previous.has(w)) continue;
      previous.set(w, v);
      queue.push(w);
    }
  }
  return [first];
}
