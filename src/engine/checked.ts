/**
 * The public entries of the schema and gate functions the engine also calls itself: each checks what the
 * caller hands it once (json/plain.ts `assertPlainJson`) and calls the function of the layer below. A schema
 * or tool built in code can contain itself (a reference cycle: impossible in parsed JSON), and these
 * functions walk what they are given, so without the check they would walk it forever; the check refuses it
 * with a {@link ToolslimError} (`invalid-input`) naming the pointer where the circle closes. Depth is not
 * bounded: these functions read every depth iteratively. The engine calls the unchecked functions directly: its input is checked once per
 * run (engine/input.ts), and a step's edits are JSON, so a second walk per call would only cost.
 *
 * `src/index.ts` exports these under the functions' own names; every module of toolslim imports the
 * functions themselves (schema/refs.ts, schema/dialect.ts, verify/instances.ts, verify/gate.ts).
 */
import type { ToolslimError } from '../core/errors.js';
import type { McpTool } from '../core/tool.js';
import { toolName } from '../core/tool.js';
import { hasOwn, isObject } from '../json/guards.js';
import { appendPointer } from '../json/pointer.js';
import { assertPlainJson } from '../json/plain.js';
import { findDialectContradictions as findDialectContradictionsOf, findToolsDialectContradictions as findToolsDialectContradictionsOf, type DialectContradiction, type FindDialectContradictionsOptions, type ToolDialectContradictions } from '../schema/dialect.js';
import type { Dialect } from '../schema/keywords.js';
import { collectRefInventory as collectRefInventoryOf, findUnresolvedRefs as findUnresolvedRefsOf, type RefInventory, type RefSite } from '../schema/refs.js';
import { generateInstances as generateInstancesOf, generateProbeInstances as generateProbeInstancesOf, type InstanceOptions, type ProbeOptions } from '../verify/instances.js';
import { verifyHistory as verifyHistoryOf, verifyTool as verifyToolOf, type AttributedFailure, type VerifyFailure, type VerifyStep, type VerifyToolOptions } from '../verify/gate.js';

/**
 * Collects references, anchors and embedded resources in one walk over every subschema position any
 * dialect knows, plus `$ref`-shaped objects inside data (conservatively, so nothing they might name is
 * ever removed). A schema that contains itself (a reference cycle) is refused: a {@link ToolslimError}
 * (`invalid-input`) whose `path` is the pointer where the circle closes.
 */
export function collectRefInventory(schema: unknown, dialect: Dialect): RefInventory {
  assertPlainJson(schema, 'collectRefInventory', 'the schema');
  return collectRefInventoryOf(schema, dialect);
}

/**
 * Local references (in schema positions) that resolve to nothing, with the reason for each. Without
 * `inventory`, the schema is walked for one, after the check {@link collectRefInventory} makes (a schema that
 * contains itself is a {@link ToolslimError}, `invalid-input`); with it, only the references' pointers are
 * followed.
 */
export function findUnresolvedRefs(schema: unknown, dialect: Dialect, inventory?: RefInventory): { site: RefSite; reason: string }[] {
  if (inventory === undefined) assertPlainJson(schema, 'findUnresolvedRefs', 'the schema');
  return findUnresolvedRefsOf(schema, dialect, inventory ?? collectRefInventoryOf(schema, dialect));
}

/**
 * Keywords whose meaning depends on the dialect and contradict the declared one (or, without `$schema`,
 * the assumed one): keywords of another dialect that change verdicts (`$defs`, `prefixItems`,
 * `dependentRequired` in draft-07; `dependencies`, `additionalItems`, `nullable` in 2020-12), forms another
 * dialect uses (array `items` or boolean `exclusiveMinimum` in 2020-12), and `definitions` where `$defs` is
 * the name. Annotations of other dialects (`deprecated`, `$comment`) are not contradictions. A subschema
 * with its own `$schema` is judged by it. Pure; a document with an unknown `$schema` has none. A schema that
 * contains itself is a {@link ToolslimError} (`invalid-input`) naming the pointer.
 */
export function findDialectContradictions(schema: unknown, options: FindDialectContradictionsOptions = {}): DialectContradiction[] {
  assertPlainJson(schema, 'findDialectContradictions', 'the schema');
  return findDialectContradictionsOf(schema, options);
}

/**
 * {@link findDialectContradictions} over every `inputSchema` and `outputSchema` of a tools array; only
 * schemas with at least one contradiction are listed. Pure: for benches and CI checks that count tools
 * whose declared dialect contradicts their keywords, before and after a pipeline. A schema that contains
 * itself is a {@link ToolslimError} (`invalid-input`) naming the tool and the pointer into the array (the
 * result has no place to list a tool it could not read).
 */
export function findToolsDialectContradictions(tools: readonly unknown[], options: FindDialectContradictionsOptions = {}): ToolDialectContradictions[] {
  if (Array.isArray(tools)) {
    for (let i = 0; i < tools.length; i++) {
      const tool = tools[i];
      if (!isObject(tool)) continue;
      const name = toolName(tool);
      // Only the schemas it reads.
      for (const slot of ['inputSchema', 'outputSchema'] as const) {
        if (!hasOwn(tool, slot)) continue;
        const at = appendPointer(appendPointer('', i), slot);
        assertPlainJson(tool[slot], 'findToolsDialectContradictions', `\`${slot}\` of tool ${name === '' ? '' : `\`${name}\` `}(index ${i})`, name === '' ? { at } : { at, tool: name });
      }
    }
  }
  return findToolsDialectContradictionsOf(tools, options);
}

/**
 * Instances for `schema`: at least `count` distinct JSON values (fewer only if the work budget runs out),
 * at most `max`, the same ones on every call. Never throws on a malformed schema (unknown shapes are
 * treated as unconstrained), but a schema that contains itself is not JSON at all: a {@link ToolslimError}
 * (`invalid-input`) naming the pointer.
 */
export function generateInstances(schema: unknown, options: InstanceOptions = {}): unknown[] {
  assertPlainJson(schema, 'generateInstances', 'the schema');
  return generateInstancesOf(schema, options);
}

/**
 * Instances aimed at given subschemas: for each site, the instance position it validates is found (through
 * `properties`, `items`, `prefixItems`, `additionalProperties`, `allOf`/`anyOf`/`oneOf`, and the `$ref`s
 * that lead into definitions), candidate values for that subschema (and the site's own `values`, and
 * `null`) are placed there, and every level around them gets the value its schema most likely accepts
 * (required members present), so that the candidate decides the verdict. A site no route reaches is
 * skipped. Deterministic and bounded like {@link generateInstances}; a schema (or a site's `values`) that
 * contains itself is a {@link ToolslimError} (`invalid-input`) naming the pointer.
 */
export function generateProbeInstances(schema: unknown, options: ProbeOptions): { values: unknown[]; keys: string[] } {
  assertPlainJson(schema, 'generateProbeInstances', 'the schema');
  const sites = isObject(options) && Array.isArray(options.sites) ? options.sites : [];
  for (let i = 0; i < sites.length; i++) {
    const values = isObject(sites[i]) ? (sites[i] as { values?: unknown }).values : undefined;
    if (values !== undefined) assertPlainJson(values, 'generateProbeInstances', `\`sites[${i}].values\``);
  }
  return generateProbeInstancesOf(schema, options);
}

/**
 * Checks one rewrite of one tool. Returns undefined when `after` is equivalent to `before` at the given
 * level, else the first failure found. Neither tool is changed. A tool that
 * contains itself (anywhere: the gate compares the fields outside the schemas too) is a
 * {@link ToolslimError} (`invalid-input`) naming the argument, the tool and the pointer inside it.
 */
export function verifyTool(before: McpTool, after: McpTool, options: VerifyToolOptions): VerifyFailure | undefined {
  checkTool(before, 'verifyTool', '`before`');
  checkTool(after, 'verifyTool', '`after`');
  return verifyToolOf(before, after, options);
}

/**
 * Checks a tool's whole rewrite history against its original and names the first step to blame.
 * Document checks (fields, annotations) run per step, by that step's safety. The ajv checks run once per
 * stretch of non-lossy steps (original → last version; a lossy step starts a new stretch and is itself
 * held to `structural`); only when a stretch fails are its prefixes checked, to find the first step after
 * which the tool stops being equivalent. A tool that contains itself (the original or a step's) is a
 * {@link ToolslimError} (`invalid-input`) naming which, the tool and the pointer inside it.
 */
export function verifyHistory(original: McpTool, steps: readonly VerifyStep[], options: Omit<VerifyToolOptions, 'safety'>): AttributedFailure | undefined {
  checkTool(original, 'verifyHistory', '`original`');
  if (Array.isArray(steps)) {
    for (let k = 0; k < steps.length; k++) checkTool(isObject(steps[k]) ? steps[k]!.tool : undefined, 'verifyHistory', `\`steps[${k}].tool\``);
  }
  return verifyHistoryOf(original, steps, options);
}

function checkTool(tool: unknown, who: string, which: string): void {
  const name = toolName(tool);
  assertPlainJson(tool, who, name === '' ? which : `${which} (tool \`${name}\`)`, name === '' ? {} : { tool: name });
}
