/**
 * `check --format sarif` (SARIF 2.1.0, for GitHub code scanning and other viewers) and `--format github`
 * (GitHub Actions workflow commands, `::error file=…,line=…::…`): one result per finding, the finding's
 * JSON Pointer as a logical location and, for a file input, the line and column of that pointer's value.
 */
import { locateTools } from '../engine/input.js';
import { FINDING_SEVERITY, type Finding } from '../lint/index.js';
import { VERSION } from './version.js';

/** The findings of one input, with the text it was read from (a file or stdin) when there is one. */
export interface CheckedInput {
  readonly source: string;
  readonly value: unknown;
  readonly text?: string;
  /** False for a live server (no file to point into). */
  readonly file: boolean;
  readonly findings: readonly Finding[];
}

/** What each finding code means and what to do: SARIF rule metadata (shortDescription, help). */
const RULE_HELP: Readonly<Record<string, readonly [string, string]>> = {
  'invalid-tool': ['A tool that cannot be checked', 'Fix the tool’s JSON: it is not an object, too deep, or holds a value JSON cannot hold.'],
  'missing-name': ['A tool without a name', 'Give every tool a unique `name` of 1–128 characters of A–Z a–z 0–9 _ - .'],
  'invalid-name': ['A tool name outside the MCP rule', 'Use 1–128 characters of A–Z a–z 0–9 _ - . in tool names.'],
  'duplicate-name': ['Two tools with the same name', 'Rename one: clients call tools by name.'],
  'missing-input-schema': ['A tool without an inputSchema', 'Give the tool an `inputSchema` object (`{ "type": "object" }` for no arguments).'],
  'root-not-object': ['An inputSchema whose root is not type object', 'MCP requires `type: "object"` at the root of `inputSchema`.'],
  'unresolved-ref': ['A $ref that resolves to nothing', 'Point the `$ref` at a definition the schema holds, or add the definition.'],
  'external-ref': ['A $ref to another document', 'Clients never fetch other documents: copy the referenced schema into `$defs`.'],
  'contradicted-dialect': ['Keywords of another JSON Schema dialect than the one the schema is read as', 'Run `toolslim optimize` (reconcile-dialect), or fix or add the `$schema` stamp.'],
  'unreachable-def': ['A definition no $ref uses', 'Remove it (`toolslim optimize` prunes it): it costs bytes and tokens in every request.'],
  'missing-description': ['A tool without a description', 'Say in one sentence what the tool does: models choose tools by their descriptions.'],
  'missing-param-description': ['A parameter without a description', 'Describe each parameter so a model fills it correctly.'],
  'indirect-mcp-header': ['An x-mcp-header parameter behind $ref or composition', 'Declare `x-mcp-header` parameters directly in `properties`.'],
  'invalid-mcp-header': ['An invalid x-mcp-header parameter', 'Use an HTTP token as the header name and a string, integer or boolean parameter.'],
  'many-arguments': ['A tool with many arguments', 'Tools with many arguments get called wrong more often: split or group them.'],
  'description-collision': ['Tools whose name and description read alike', 'Say in each description what sets the tool apart, or merge the tools.'],
  'over-budget': ['A list or tool over its byte or token budget', 'Run `toolslim optimize`, or trim descriptions and schemas.'],
  'empty-list': ['An empty tools list', 'A server that lists no tools may be misconfigured.'],
  'lint-failed': ['A check that failed', 'Please report this to toolslim, with the tool.'],
};

const LEVEL: Readonly<Record<Finding['severity'], 'error' | 'warning' | 'note'>> = { error: 'error', warning: 'warning', info: 'note' };

/** The SARIF 2.1.0 log of a `check` run: one run, one result per finding. */
export function sarifLog(inputs: readonly CheckedInput[]): Record<string, unknown> {
  const codes: string[] = [];
  for (const input of inputs) for (const f of input.findings) if (!codes.includes(f.code)) codes.push(f.code);
  const rules = codes.map((id) => {
    const [short, help] = RULE_HELP[id] ?? (id.startsWith('profile-') ? [`What the client profile rejects (${id.slice(8)})`, 'Run `toolslim optimize --profile <client>`, which makes the tools acceptable to that client.'] : [id, id]);
    const level = Object.prototype.hasOwnProperty.call(FINDING_SEVERITY, id) ? LEVEL[FINDING_SEVERITY[id as keyof typeof FINDING_SEVERITY]] : 'error';
    return { id, shortDescription: { text: short }, help: { text: help }, defaultConfiguration: { level } };
  });
  const results: Record<string, unknown>[] = [];
  for (const input of inputs) {
    const base = toolsPointer(input.value);
    for (const f of input.findings) {
      const pointer = base + f.path;
      const pos = input.file && input.text !== undefined ? pointerPosition(input.text, pointer) : undefined;
      const location: Record<string, unknown> = {
        ...(input.file ? { physicalLocation: { artifactLocation: { uri: fileUri(input.source) }, ...(pos ? { region: { startLine: pos.line, startColumn: pos.column } } : {}) } } : {}),
        logicalLocations: [{ fullyQualifiedName: pointer || '/', kind: 'object', ...(f.tool ? { name: f.tool } : {}) }],
      };
      results.push({ ruleId: f.code, ruleIndex: codes.indexOf(f.code), level: LEVEL[f.severity], message: { text: f.message }, locations: [location] });
    }
  }
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [{ tool: { driver: { name: 'toolslim', version: VERSION, informationUri: 'https://www.npmjs.com/package/toolslim', rules } }, results }],
  };
}

/** GitHub Actions workflow commands: `::error file=…,line=…,col=…,title=…::message`, one line per finding. */
export function githubLines(inputs: readonly CheckedInput[]): string {
  const lines: string[] = [];
  for (const input of inputs) {
    const base = toolsPointer(input.value);
    for (const f of input.findings) {
      const pointer = base + f.path;
      const pos = input.file && input.text !== undefined ? pointerPosition(input.text, pointer) : undefined;
      const props = [...(input.file ? [`file=${property(input.source)}`] : []), ...(pos ? [`line=${pos.line}`, `col=${pos.column}`] : []), `title=${property(`toolslim ${f.code}`)}`];
      const where = `${f.tool || (f.toolIndex < 0 ? '(list)' : `#${f.toolIndex}`)} ${pointer || '/'}`;
      lines.push(`::${f.severity === 'info' ? 'notice' : f.severity} ${props.join(',')}::${data(`${where}: ${f.message}`)}`);
    }
  }
  return lines.length === 0 ? '' : lines.join('\n') + '\n';
}

function toolsPointer(value: unknown): string {
  try {
    return locateTools(value).pointer;
  } catch {
    return '';
  }
}

/** A relative file path as a URI reference (forward slashes, each segment percent-encoded). */
function fileUri(path: string): string {
  return path.split(/[\\/]/).map((s) => encodeURIComponent(s)).join('/');
}

// Workflow-command escaping, as @actions/core does it.
function data(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}
function property(s: string): string {
  return data(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/**
 * The 1-based line and column (in UTF-16 code units, as SARIF's default) where the value at `pointer`
 * starts in the JSON text `text` (for a member, where its name starts); undefined when the text has no
 * such value. One linear scan with a stack of the containers on the way.
 */
export function pointerPosition(text: string, pointer: string): { line: number; column: number } | undefined {
  const want = pointer === '' ? [] : pointer.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const n = text.length;
  // Per open container on the pointer's path: its kind and the index or key of the value being read.
  let depth = 0; // how many segments of `want` the containers entered so far match
  const stack: { array: boolean; index: number; onPath: boolean }[] = [];
  let key: string | undefined;
  let memberStart = -1;
  const at = (offset: number) => {
    let line = 1;
    let last = -1;
    for (let k = text.indexOf('\n'); k >= 0 && k < offset; k = text.indexOf('\n', k + 1)) {
      line++;
      last = k;
    }
    return { line, column: offset - last };
  };
  const matches = () => {
    const top = stack[stack.length - 1];
    if (!top || !top.onPath || stack.length - 1 !== depth) return false;
    const seg = want[depth];
    return top.array ? seg === String(top.index) : seg === key;
  };
  if (want.length === 0) {
    while (i < n && /\s/.test(text[i]!)) i++;
    return i < n ? at(i) : undefined;
  }
  while (i < n) {
    const c = text[i]!;
    if (c === ' ' || c === '\n' || c === '\r' || c === '\t' || c === ':') {
      i++;
      continue;
    }
    const top = stack[stack.length - 1];
    if (c === ',') {
      if (top?.array) top.index++;
      else key = undefined;
      i++;
      continue;
    }
    if (c === '}' || c === ']') {
      const closed = stack.pop();
      if (closed?.onPath && stack.length === depth && depth > 0) return undefined; // left the path's container
      i++;
      continue;
    }
    if (c === '"' && top && !top.array && key === undefined) {
      const end = stringEnd(text, i);
      key = JSON.parse(text.slice(i, end)) as string;
      memberStart = i;
      i = end;
      continue;
    }
    // A value starts at i.
    const onPath = stack.length === 0 || matches();
    if (stack.length > 0 && onPath) {
      depth++;
      if (depth === want.length) return at(top && !top.array ? memberStart : i);
    }
    if (c === '{' || c === '[') {
      stack.push({ array: c === '[', index: 0, onPath: stack.length === 0 || onPath });
      key = undefined;
      i++;
      continue;
    }
    i = c === '"' ? stringEnd(text, i) : scalarEnd(text, i);
  }
  return undefined;
}

function stringEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 92) i += 2;
    else if (c === 34) return i + 1;
    else i++;
  }
  return i;
}

function scalarEnd(text: string, start: number): number {
  let i = start;
  while (i < text.length && !/[\s,\]}]/.test(text[i]!)) i++;
  return i;
}
