import { resolveSteps, transformTools, type McpTool, type TransformStepInput } from '../../src/index.js';

/**
 * Every version of each tool's inputSchema along `steps`, each step run alone (`verify: false`) on the
 * previous output: the versions the gate is handed for a run of those steps, oldest first.
 */
export function schemaVersions(tools: readonly McpTool[], steps: readonly TransformStepInput[]): unknown[][] {
  const out: unknown[][] = tools.map((t) => [t.inputSchema]);
  let current: readonly unknown[] = tools;
  for (const step of resolveSteps(steps)) {
    current = transformTools(current, { transforms: [step], verify: false, measure: false }).tools;
    current.forEach((t, i) => {
      const s = (t as McpTool).inputSchema;
      if (s !== out[i]!.at(-1)) out[i]!.push(s);
    });
  }
  return out;
}

/** Every object of `root` (schema or not), from a stack walk: the order both gate tests pick edit targets by. */
export function objectsOf(root: unknown): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const v = stack.pop();
    if (Array.isArray(v)) stack.push(...v);
    else if (typeof v === 'object' && v !== null) {
      out.push(v as Record<string, unknown>);
      stack.push(...Object.values(v));
    }
  }
  return out;
}
