/**
 * The layers point one way (docs/architecture.md): every module under src/ belongs to a layer, imports
 * only from its own layer or a lower one, and no group of modules imports itself in a circle.
 *
 * The import graph is read with the TypeScript parser from the source itself (static imports and
 * re-exports, `import type`, `import('…')` types and dynamic `import()` calls alike), not from a list kept
 * by hand, so a new file or import is checked the moment it is written.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..', 'src');

/**
 * Low to high. A module's layer is the first entry whose path (relative to src/, without extension) it
 * equals or lies under. Modules of one layer may import each other (without cycles).
 */
const LAYERS: readonly (readonly string[])[] = [
  ['json'],
  ['schema'],
  // What a model reads: one renderer per reader (json, json-spaced, json-indent4, typescript).
  ['render'],
  // `tokens` is the `toolslim/tokens` entry: the tokenizers that implement core's `Tokenizer`, kept out of the
  // main entry so that importing toolslim never loads one; it depends on core only, and the CLI loads it.
  ['core', 'tokens'],
  ['verify'],
  ['engine'],
  ['profiles'],
  ['transforms'],
  ['presets'],
  ['lint'],
  ['api'],
  ['usage', 'response', 'testing'],
  ['session'],
  ['sdk', 'cli', 'mcp'],
  // The package entry: what users import.
  ['index'],
];

function layerOf(module: string): number {
  for (let i = 0; i < LAYERS.length; i++) {
    for (const prefix of LAYERS[i]!) if (module === prefix || module.startsWith(prefix + '/')) return i;
  }
  return -1;
}

function layerName(i: number): string {
  return LAYERS[i]?.join('|') ?? '(none)';
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(p));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(p);
  }
  return out.sort();
}

/** Every module specifier a file depends on, with the line it is on. */
function specifiersOf(file: string): { spec: string; line: number }[] {
  const text = readFileSync(file, 'utf8');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const out: { spec: string; line: number }[] = [];
  const add = (node: ts.Node, lit: ts.Expression | undefined) => {
    if (lit && ts.isStringLiteralLike(lit)) out.push({ spec: lit.text, line: sf.getLineAndCharacterOfPosition(node.getStart()).line + 1 });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) add(node, node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) add(node, node.moduleReference.expression);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node, node.argument.literal as ts.Expression);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) add(node, node.arguments[0]);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** src-relative module name without extension (`core/context`), or undefined for a package import. */
function resolveLocal(from: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const abs = resolve(dirname(from), spec).replace(/\.(js|ts|mjs|cjs)$/, '');
  return relative(SRC, abs).split('\\').join('/');
}

interface Edge {
  readonly from: string;
  readonly to: string;
  readonly line: number;
}

function readGraph(): { modules: string[]; edges: Edge[] } {
  const files = sourceFiles(SRC);
  const modules = files.map((f) => relative(SRC, f).replace(/\.ts$/, '').split('\\').join('/'));
  const edges: Edge[] = [];
  files.forEach((file, i) => {
    for (const { spec, line } of specifiersOf(file)) {
      const to = resolveLocal(file, spec);
      if (to !== undefined) edges.push({ from: modules[i]!, to, line });
    }
  });
  return { modules, edges };
}

/** Strongly connected components with more than one module, or a module importing itself (Tarjan, iterative). */
export function findCycles(modules: readonly string[], edges: readonly Edge[]): string[][] {
  const next = new Map<string, string[]>(modules.map((m) => [m, []]));
  for (const e of edges) next.get(e.from)?.push(e.to);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const out: string[][] = [];
  let counter = 0;
  for (const root of modules) {
    if (index.has(root)) continue;
    const work: [string, number][] = [[root, 0]];
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const [v, i] = frame;
      if (i === 0) {
        index.set(v, counter);
        low.set(v, counter);
        counter++;
        stack.push(v);
        onStack.add(v);
      }
      const succ = next.get(v) ?? [];
      if (i < succ.length) {
        frame[1] = i + 1;
        const w = succ[i]!;
        if (!next.has(w)) continue;
        if (!index.has(w)) work.push([w, 0]);
        else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1]![0];
        low.set(parent, Math.min(low.get(parent)!, low.get(v)!));
      }
      if (low.get(v) === index.get(v)) {
        const component: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          component.push(w);
        } while (w !== v);
        if (component.length > 1 || succ.includes(v)) out.push(component.sort());
      }
    }
  }
  return out;
}

const graph = readGraph();

describe('layers', () => {
  it('reads a real import graph (the walk is not vacuous)', () => {
    expect(graph.modules.length).toBeGreaterThan(40);
    expect(graph.edges.length).toBeGreaterThan(150);
    // A known edge of each kind the parser must see.
    expect(graph.edges.some((e) => e.from === 'index' && e.to.startsWith('core/'))).toBe(true);
  });

  it('puts every module in a layer', () => {
    expect(graph.modules.filter((m) => layerOf(m) < 0)).toEqual([]);
  });

  it('resolves every relative import to a module under src/', () => {
    const known = new Set(graph.modules);
    expect(graph.edges.filter((e) => !known.has(e.to)).map((e) => `${e.from}:${e.line} → ${e.to}`)).toEqual([]);
  });

  it('imports only from the same layer or below', () => {
    const upward = graph.edges
      .filter((e) => layerOf(e.to) > layerOf(e.from))
      .map((e) => `src/${e.from}.ts:${e.line} (${layerName(layerOf(e.from))}) imports ${e.to} (${layerName(layerOf(e.to))})`);
    expect(upward).toEqual([]);
  });

  it('has no import cycle', () => {
    expect(findCycles(graph.modules, graph.edges)).toEqual([]);
  });
});

describe('the checks themselves', () => {
  it('find a cycle and a self-import, and nothing in a chain', () => {
    const e = (from: string, to: string): Edge => ({ from, to, line: 1 });
    expect(findCycles(['a', 'b', 'c'], [e('a', 'b'), e('b', 'c'), e('c', 'a')])).toEqual([['a', 'b', 'c']]);
    expect(findCycles(['a'], [e('a', 'a')])).toEqual([['a']]);
    expect(findCycles(['a', 'b', 'c'], [e('a', 'b'), e('b', 'c')])).toEqual([]);
  });

  it('place modules by folder', () => {
    expect(layerName(layerOf('json/pointer'))).toBe('json');
    expect(layerOf('core/context')).toBeLessThan(layerOf('engine/run'));
    expect(layerOf('transforms/strip-noise/rules/x')).toBe(layerOf('transforms/index'));
    expect(layerOf('jsonx/y')).toBe(-1);
  });
});
