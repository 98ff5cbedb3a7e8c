/**
 * The tool-list policies the bench compares. Each server (group) of a session sits behind its own proxy, as
 * `toolslim proxy` is deployed (one per server), so a cache-stable hot set of k is k tools *per server* and
 * a shared preamble is a server's own. The per-turn re-ranked hot set is the library as documented today:
 * the client ranks its whole list each turn with the user's text.
 */
import { transformTools, ToolUsageGraph, type McpTool } from '../../../src/index.js';
import type { Session, SessionData } from './data.js';
import { ALL_NAMES, type Policy, type PolicyRun, type ServedTools } from './replay.js';
import { chooserLabel, COLD_FORM_LABEL, conveyedSchema, hidesConstraints, invalidCallAnswer, PREAMBLE_OF_FORM, servedList, UsageHistory, type Chooser, type ColdForm } from './served.js';

export type Reveal = 'result' | 'list-changed';

/** What a policy is, in words and as fields (the JSON output carries them). */
export interface PolicySpec {
  readonly name: string;
  readonly kind: 'full' | 'optimized' | 'rerank' | 'stable' | 'search' | 'peer' | 'composed';
  readonly family: 'toolslim' | 'peer';
  readonly side: 'client' | 'proxy';
  readonly k?: number;
  readonly chooser?: Chooser;
  readonly coldForm?: ColdForm;
  readonly reveal?: Reveal;
  readonly description: string;
}

export interface BenchPolicy extends Policy {
  readonly spec: PolicySpec;
}

// Across data sets (the scenarios reuse the same group arrays): preset output and cold forms, per list.
const SAFE = new WeakMap<readonly McpTool[], readonly McpTool[]>();
const COLD = new WeakMap<readonly McpTool[], Map<ColdForm, readonly McpTool[]>>();

/** The lists, usage history and memos policies share over one data set. */
export class PolicyContext {
  readonly #raw = new Map<string, readonly McpTool[]>();
  readonly #safe = new Map<string, readonly McpTool[]>();
  readonly #served = new Map<string, ServedTools>();
  readonly #cold = new Map<string, readonly McpTool[]>();
  readonly #byName = new Map<string, Map<string, McpTool>>();
  readonly #hides = new Map<string, boolean>();
  readonly history = new UsageHistory();

  /**
   * `data`: the sessions replayed and every group they list. `recorded`: the sessions the usage files are built
   * from (default `data`; a scenario of chained or widened sessions passes the original ones, whose ids its
   * sessions name in `sources`).
   */
  constructor(readonly data: SessionData, recorded: SessionData = data) {
    for (const [g, tools] of data.groups) this.#raw.set(g, tools);
    for (const s of recorded.sessions) {
      const owner = new Map<string, string>();
      for (const g of s.groups) {
        this.history.list(s.id, g);
        for (const t of recorded.groups.get(g)!) owner.set(t.name, g);
      }
      for (const turn of s.turns) for (const c of turn.calls) this.history.add(s.id, owner.get(c.name)!, c.name);
    }
  }

  raw(group: string): readonly McpTool[] {
    return this.#raw.get(group)!;
  }

  /** The group's tools through the `safe` preset (what the proxy serves before any hot set). */
  safe(group: string): readonly McpTool[] {
    let tools = this.#safe.get(group);
    if (tools === undefined) {
      const raw = this.raw(group);
      tools = SAFE.get(raw);
      if (tools === undefined) SAFE.set(raw, (tools = transformTools(raw).tools as McpTool[]));
      this.#safe.set(group, tools);
    }
    return tools;
  }

  /**
   * Every tool of the group in `form` (the served list with nothing hot). Each served list is composed from
   * this and {@link PolicyContext.safe}, tool by tool: the cold forms depend on the tool and on its server's
   * list, never on which other tools are hot (test/bench-sessions.test.ts checks it against servedList).
   */
  coldList(group: string, form: ColdForm): readonly McpTool[] {
    const key = `${group}\u0000${form}`;
    let tools = this.#cold.get(key);
    if (tools === undefined) {
      const safe = this.safe(group);
      let byForm = COLD.get(safe);
      if (byForm === undefined) COLD.set(safe, (byForm = new Map()));
      tools = byForm.get(form);
      if (tools === undefined) byForm.set(form, (tools = servedList(safe, new Set(), form)));
      this.#cold.set(key, tools);
    }
    return tools;
  }

  /** The safe form of one tool of a group. */
  tool(group: string, name: string): McpTool {
    let map = this.#byName.get(group);
    if (map === undefined) this.#byName.set(group, (map = new Map(this.safe(group).map((t) => [t.name, t]))));
    return map.get(name)!;
  }

  /** One ServedTools object per distinct list, so replays compute its blocks once. */
  served(key: string, build: () => ServedTools): ServedTools {
    let s = this.#served.get(key);
    if (s === undefined) this.#served.set(key, (s = build()));
    return s;
  }

  /**
   * Every tool of the group served hot in `form`: the `safe` output, or, where the form says the shared
   * preamble once (`preamble: 'once'`), without it except on its first tool (the served list with everything hot).
   */
  hotList(group: string, form: ColdForm): readonly McpTool[] {
    if (PREAMBLE_OF_FORM[form] === 'each') return this.safe(group);
    const key = `H\u0000${group}\u0000${form}`;
    let tools = this.#cold.get(key);
    if (tools === undefined) this.#cold.set(key, (tools = servedList(this.safe(group), new Set(this.safe(group).map((t) => t.name)), form)));
    return tools;
  }

  /** A server's served list for a hot set. */
  serverList(group: string, hot: ReadonlySet<string>, form: ColdForm): ServedTools {
    const key = `S\u0000${group}\u0000${form}\u0000${[...hot].sort().join('\u0000')}`;
    return this.served(key, () => {
      const full = this.hotList(group, form);
      const cold = this.coldList(group, form);
      return { tools: full.map((t, i) => (hot.has(t.name) ? t : cold[i]!)), hot };
    });
  }

  /** Whether the cold form of a group's tool hides a constraint of its real input schema. */
  coldHides(group: string, name: string, form: ColdForm): boolean {
    const key = `${group}\u0000${name}\u0000${form}`;
    let v = this.#hides.get(key);
    if (v === undefined) {
      const real = this.tool(group, name);
      const cold = this.coldList(group, form).find((t) => t.name === name)!;
      const conveyed = conveyedSchema(real, cold, form);
      this.#hides.set(key, (v = conveyed === undefined || hidesConstraints(real.inputSchema, conveyed)));
    }
    return v;
  }

  /** The usage data a session must not see: itself (and, for a chained session, every session it was built from). */
  static exclusion(session: Session): ReadonlySet<string> {
    return new Set(session.sources ?? [session.id]);
  }
}

/** Sends every tool as given. */
export function fullPolicy(ctx: PolicyContext, optimized: boolean): BenchPolicy {
  const spec: PolicySpec = optimized
    ? { name: 'optimized', kind: 'optimized', family: 'toolslim', side: 'proxy', description: 'every tool in full, through the `safe` preset' }
    : { name: 'full', kind: 'full', family: 'peer', side: 'client', description: 'every tool in full, as the servers list them' };
  return {
    name: spec.name,
    spec,
    start(session) {
      const served = ctx.served(`${spec.name}\u0000${session.groups.join('\u0000')}`, () => ({
        tools: session.groups.flatMap((g) => (optimized ? ctx.safe(g) : ctx.raw(g))),
        hot: ALL_NAMES,
      }));
      return { beforeTurn() {}, served: () => served, invalidAnswer: () => '', coldHides: () => false, coldCalled() {}, executed() {} };
    },
  };
}

/**
 * Today's library use: before each turn the client ranks its whole list with a ToolUsageGraph (fresh per
 * session, fed the session's calls) and the user's text, and sends the top k in full, the rest through
 * compress-cold-tools. Cold calls are answered as with reveal in the result (its kindest reveal: the list
 * does not change for it).
 */
export function rerankPolicy(ctx: PolicyContext, k: number): BenchPolicy {
  const spec: PolicySpec = { name: `rerank-${k}`, kind: 'rerank', family: 'toolslim', side: 'client', k, coldForm: 'sentence', reveal: 'result', description: `hot set of ${k} over the whole list, re-ranked every turn with the user's text (ToolUsageGraph, compress-cold-tools)` };
  return {
    name: spec.name,
    spec,
    start(session) {
      const tools = session.groups.flatMap((g) => ctx.safe(g));
      const cold = session.groups.flatMap((g) => ctx.coldList(g, 'sentence'));
      const owner = new Map<string, string>();
      for (const g of session.groups) for (const t of ctx.safe(g)) owner.set(t.name, g);
      const graph = new ToolUsageGraph(tools);
      let current: ServedTools | undefined;
      const run: PolicyRun = {
        beforeTurn(_turn, text) {
          const hot = new Set(graph.hotSet(Math.min(k, tools.length), { text }));
          const key = `R\u0000${session.groups.join('\u0000')}\u0000${[...hot].sort().join('\u0000')}`;
          // compress-cold-tools works tool by tool, so this is compressColdTools(tools, { keep: [...hot] }).
          current = ctx.served(key, () => ({ tools: tools.map((t, i) => (hot.has(t.name) ? t : cold[i]!)), hot }));
        },
        served: () => current!,
        invalidAnswer: (name) => invalidCallAnswer(ctx.tool(owner.get(name)!, name)),
        coldHides: (name) => ctx.coldHides(owner.get(name)!, name, 'sentence'),
        coldCalled() {},
        executed(call) {
          graph.record(call.name);
        },
      };
      return run;
    },
  };
}

/**
 * A hot set of k per server, chosen once at session start, the rest in `coldForm`; the list is byte-stable
 * unless `reveal` is `list-changed`, where a called cold tool becomes hot from then on.
 */
export function stablePolicy(ctx: PolicyContext, k: number, chooser: Chooser, coldForm: ColdForm, reveal: Reveal): BenchPolicy {
  const name = k === 0 ? `hot-0/${coldForm}/${reveal}` : `hot-${k}/${chooser}/${coldForm}/${reveal}`;
  const spec: PolicySpec = {
    name,
    kind: 'stable',
    family: 'toolslim',
    side: 'proxy',
    k,
    chooser,
    coldForm,
    reveal,
    description: `${k} hot per server${k > 0 ? ` (${chooserLabel(chooser)})` : ''}; cold: ${COLD_FORM_LABEL[coldForm]}; reveal ${reveal === 'result' ? 'in the call result' : 'by tools/list_changed'}`,
  };
  return {
    name,
    spec,
    start(session) {
      const exclude = PolicyContext.exclusion(session);
      const owner = new Map<string, string>();
      for (const g of session.groups) for (const t of ctx.safe(g)) owner.set(t.name, g);
      const hot = new Map(session.groups.map((g) => [g, ctx.history.choose(chooser, g, ctx.safe(g), k, exclude)]));
      const build = (): ServedTools => {
        const parts = session.groups.map((g) => ctx.serverList(g, hot.get(g)!, coldForm));
        if (parts.length === 1) return parts[0]!;
        const key = `C\u0000${coldForm}\u0000${session.groups.map((g) => `${g}\u0001${[...hot.get(g)!].sort().join('\u0001')}`).join('\u0000')}`;
        return ctx.served(key, () => {
          const all = new Set<string>();
          for (const p of parts) for (const n of p.hot) all.add(n);
          return { tools: parts.flatMap((p) => p.tools), hot: all };
        });
      };
      let current = build();
      return {
        beforeTurn() {},
        served: () => current,
        // The session layer's answer; with list-changed it also says the tool is now in the list.
        invalidAnswer: (name) => invalidCallAnswer(ctx.tool(owner.get(name)!, name), reveal === 'list-changed'),
        coldHides: (name) => ctx.coldHides(owner.get(name)!, name, coldForm),
        coldCalled(name) {
          if (reveal !== 'list-changed') return;
          const g = owner.get(name)!;
          hot.set(g, new Set([...hot.get(g)!, name]));
          current = build();
        },
        executed() {},
      };
    },
  };
}
