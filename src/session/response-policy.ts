/**
 * Response policies: per tool, which fields of each record a `tools/call` result keeps (`project`) and how
 * many bytes one page of records may take (`budget`). This module reads and checks policies (from flags,
 * from an overlay's `responses` member) and writes the contract into the served tool definition; the
 * pages themselves are response-pages.ts. Transport-free: the proxy and the SDK hook apply the same rules.
 */
import { ToolslimError } from '../core/errors.js';
import type { McpTool } from '../core/tool.js';
import { hasOwn, isObject } from '../json/guards.js';
import { describeValue } from './hot-set.js';

/** What toolslim does to the results of one tool. */
export interface ResponsePolicy {
  /** Keep only these fields of each record (dotted paths for nested fields: `owner.login`). */
  readonly project?: readonly string[];
  /** Page the records on record boundaries, at most this many bytes of records text per page. */
  readonly budget?: number;
}

/** Policies by the server's tool name. */
export type ResponsePolicies = Readonly<Record<string, ResponsePolicy>>;

/** The paging argument's names: `page`, or `toolslim_page` when the tool has a `page` of its own. */
export const PAGE_ARGUMENTS = ['page', 'toolslim_page'] as const;

/**
 * Reads one `--project TOOL=field,field…` or `--response-budget TOOL=BYTES` flag value.
 *
 * @throws ToolslimError (`invalid-option`) naming the flag and what is wrong
 */
export function parsePolicyFlag(flag: 'project' | 'response-budget', value: string): [tool: string, policy: ResponsePolicy] {
  const eq = typeof value === 'string' ? value.lastIndexOf('=') : -1;
  const example = flag === 'project' ? 'list_issues=id,title,user.login' : 'list_issues=8000';
  if (eq <= 0 || eq === value.length - 1) throw new ToolslimError('invalid-option', `--${flag} ${JSON.stringify(value)}: expected TOOL=${flag === 'project' ? 'field,field…' : 'BYTES'}, e.g. --${flag} ${example}`);
  const tool = value.slice(0, eq);
  const rest = value.slice(eq + 1);
  if (flag === 'project') return [tool, checkPolicy({ project: rest.split(',').map((f) => f.trim()) }, `--project ${value}`)];
  const bytes = Number(rest);
  return [tool, checkPolicy({ budget: bytes }, `--response-budget ${value}`)];
}

/** Merges policies: a later one's members replace an earlier one's, tool by tool (flags after the overlay). */
export function mergePolicies(...sources: readonly (ResponsePolicies | readonly (readonly [string, ResponsePolicy])[] | undefined)[]): ResponsePolicies {
  const out: Record<string, ResponsePolicy> = Object.create(null) as Record<string, ResponsePolicy>;
  for (const source of sources) {
    if (source === undefined) continue;
    const entries = Array.isArray(source) ? (source as readonly (readonly [string, ResponsePolicy])[]) : Object.entries(source as ResponsePolicies);
    for (const [tool, policy] of entries) out[tool] = { ...(out[tool] ?? {}), ...policy };
  }
  return out;
}

/**
 * Checks an overlay's `responses` member: `{ "<tool>": { "project": ["id", "owner.login"], "budget": 8000 } }`.
 *
 * @throws ToolslimError (`invalid-input`) naming the file and the JSON pointer of what is wrong
 */
export function parseResponsePolicies(json: unknown, file = 'the overlay', at = '/responses'): ResponsePolicies {
  if (!isObject(json)) throw new ToolslimError('invalid-input', `${file}: expected an object of tool name → { "project": [fields], "budget": bytes } at \`${at}\`, got ${describeValue(json)}`, { path: at });
  const out: Record<string, ResponsePolicy> = Object.create(null) as Record<string, ResponsePolicy>;
  for (const tool of Object.keys(json)) {
    const where = `${at}/${tool.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    const p = json[tool];
    if (!isObject(p) || Object.keys(p).some((k) => k !== 'project' && k !== 'budget')) {
      throw new ToolslimError('invalid-input', `${file}: expected { "project": [fields], "budget": bytes } at \`${where}\`, got ${describeValue(p)}`, { path: where });
    }
    try {
      out[tool] = checkPolicy({ ...(hasOwn(p, 'project') ? { project: p.project as string[] } : {}), ...(hasOwn(p, 'budget') ? { budget: p.budget as number } : {}) }, `${file} at \`${where}\``);
    } catch (e) {
      throw new ToolslimError('invalid-input', (e as Error).message, { path: where });
    }
  }
  return out;
}

/** The policy as given, checked: fields are non-empty dotted paths, the budget a whole number of bytes ≥ 2. */
export function checkPolicy(policy: ResponsePolicy, where: string): ResponsePolicy {
  const { project, budget } = policy;
  if (project === undefined && budget === undefined) throw new ToolslimError('invalid-option', `${where}: a policy needs \`project\`, \`budget\` or both`);
  if (project !== undefined) {
    if (!Array.isArray(project) || project.length === 0) throw new ToolslimError('invalid-option', `${where}: \`project\` must be a non-empty list of fields, got ${describeValue(project)}`);
    for (const f of project) {
      if (typeof f !== 'string' || f === '' || f.split('.').some((k) => k === '')) throw new ToolslimError('invalid-option', `${where}: field ${JSON.stringify(f)} is not a field name or a dotted path (\`owner.login\`)`);
    }
  }
  if (budget !== undefined && (typeof budget !== 'number' || !Number.isSafeInteger(budget) || budget < 2)) {
    throw new ToolslimError('invalid-option', `${where}: the budget must be a whole number of bytes, at least 2 (the empty page \`[]\`), got ${describeValue(budget)}`);
  }
  return { ...(project !== undefined ? { project: [...project] } : {}), ...(budget !== undefined ? { budget } : {}) };
}

/** The name of the paging argument of a tool whose `inputSchema` is `schema` (undefined: it cannot have one). */
export function pageArgumentOf(schema: unknown): string | undefined {
  if (!isObject(schema)) return undefined;
  const props = schema.properties;
  if (props !== undefined && !isObject(props)) return undefined;
  return PAGE_ARGUMENTS.find((name) => props === undefined || !hasOwn(props, name));
}

/** The contract sentence for a tool's description: what its results hold, and how to page. */
export function contractText(policy: ResponsePolicy, pageArgument: string | undefined): string {
  const parts: string[] = [];
  if (policy.project) parts.push(`Returns only ${policy.project.join(', ')} of each record`);
  if (policy.budget !== undefined) {
    parts.push(`at most ${formatBudget(policy.budget)} of records per page${pageArgument ? ` (pass \`${pageArgument}\`: 2, 3, … for the next pages; each page says how many there are)` : ''}`);
  }
  const text = parts.join('; ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

/** `8 KB` for whole thousands, otherwise the bytes rounded up to a tenth of a KB (so "at most" holds). */
export function formatBudget(bytes: number): string {
  if (bytes < 1000) return `${bytes} bytes`;
  return `${Math.ceil(bytes / 100) / 10} KB`;
}

/**
 * The tool as served under a policy: the contract appended to its description (after a blank line), an
 * optional integer paging argument added to its `inputSchema` when it is paged, and no `outputSchema`
 * (pages and projections no longer match it: the description states what comes back). A new object;
 * `tool` is not changed. `pageArgument` defaults to {@link pageArgumentOf} the tool's `inputSchema`.
 */
export function withContract(tool: McpTool, policy: ResponsePolicy, pageArgument: string | undefined = policy.budget !== undefined ? pageArgumentOf(tool.inputSchema) : undefined): McpTool {
  const page = policy.budget !== undefined && isObject(tool.inputSchema) ? pageArgument : undefined;
  const contract = contractText(policy, page);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(tool)) {
    if (key === 'outputSchema') continue;
    const value = (tool as Record<string, unknown>)[key];
    if (key === 'description') out[key] = typeof value === 'string' && value !== '' ? `${value}\n\n${contract}` : contract;
    else if (key === 'inputSchema' && page !== undefined) out[key] = withPageArgument(value as Record<string, unknown>, page);
    else Object.defineProperty(out, key, { value, writable: true, enumerable: true, configurable: true });
  }
  if (!hasOwn(out, 'description')) out.description = contract;
  return out as unknown as McpTool;
}

function withPageArgument(schema: Record<string, unknown>, name: string): Record<string, unknown> {
  const property = { type: 'integer', minimum: 1, description: 'Which page of the result to return (default 1). Added by toolslim: pages come from the first call’s result.' };
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(schema)) Object.defineProperty(out, key, { value: schema[key], writable: true, enumerable: true, configurable: true });
  const props = isObject(schema.properties) ? schema.properties : {};
  const next: Record<string, unknown> = {};
  for (const key of Object.keys(props)) Object.defineProperty(next, key, { value: props[key], writable: true, enumerable: true, configurable: true });
  next[name] = property;
  out.properties = next;
  return out;
}
