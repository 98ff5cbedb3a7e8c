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
  'ref-cycle': ['A $ref that leads back to itself without reading the value', 'Validating the schema never ends (validators run out of stack): make one schema on the cycle say what the value is instead of referring on.'],
  'external-ref': ['A $ref to another document', 'Clients never fetch other documents: copy the referenced schema into `$defs`.'],
  'contradicted-dialect': ['Keywords of another JSON Schema dialect than the one the schema is read as', 'Run `toolslim optimize` (reconcile-dialect), or fix or add the `$schema` stamp.'],
  'unreachable-def': ['A definition no $ref uses', 'Remove it (`toolslim optimize` prunes it): it costs bytes and tokens in every request.'],
  'missing-description': ['A tool without a description', 'Say in one sentence what the tool does: models choose tools by their descriptions.'],
  'missing-param-description': ['A parameter without a description, or with one that says no more than its name', 'Describe each parameter so a model fills it correctly.'],
  'indirect-mcp-header': ['An x-mcp-header parameter behind $ref or composition', 'Declare `x-mcp-header` parameters directly in `properties`.'],
  'invalid-mcp-header': ['An invalid x-mcp-header parameter', 'Use an HTTP token as the header name and a string, integer or boolean parameter.'],
  'many-arguments': ['A tool with many arguments', 'Tools with many arguments get called wrong more often: split or group them.'],
  'description-collision': ['Tools whose name and description read alike', 'Say in each description what sets the tool apart, or merge the tools.'],
  'over-budget': ['A list or tool over its byte or token budget', 'Run `toolslim optimize`, or trim descriptions and schemas.'],
  'empty-list': ['An empty tools list', 'A server that lists no tools may be misconfigured.'],
  'lint-failed': ['A check that failed', 'Please report this to toolslim, with the tool.'],
};

const LEVEL: Readonly<Record<Finding['severity'], 'error' | 'warning' | 'note'>> = { error: 'error', warning: 'warning', info: 'note' };

/** An input `check` could not read (not JSON, no such file): its label and the error said on stderr. */
export interface UnreadableInput {
  readonly source: string;
  readonly error: string;
  /** False for stdin or a live server (no file to point at). */
  readonly file: boolean;
}

/**
 * The SARIF 2.1.0 log of a `check` run: one run, one result per finding, and one invocation that says
 * whether every input was read (each unreadable one is a tool execution notification, so a viewer shows a
 * failed run, not a clean one).
 */
export function sarifLog(inputs: readonly CheckedInput[], unreadable: readonly UnreadableInput[] = []): Record<string, unknown> {
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
    const positions = positionsIn(input, base);
    for (const f of input.findings) {
      const pointer = base + f.path;
      const pos = positions?.get(pointer);
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
    runs: [{ tool: { driver: { name: 'toolslim', version: VERSION, informationUri: 'https://www.npmjs.com/package/toolslim', rules } }, invocations: [invocationOf(unreadable)], results }],
  };
}

function invocationOf(unreadable: readonly UnreadableInput[]): Record<string, unknown> {
  const notifications = unreadable.map((u) => ({
    level: 'error',
    message: { text: u.error },
    ...(u.file ? { locations: [{ physicalLocation: { artifactLocation: { uri: fileUri(u.source) } } }] } : {}),
  }));
  return { executionSuccessful: unreadable.length === 0, ...(notifications.length > 0 ? { toolExecutionNotifications: notifications } : {}) };
}

/** GitHub Actions workflow commands: `::error file=…,line=…,col=…,title=…::message`, one line per finding. */
export function githubLines(inputs: readonly CheckedInput[], unreadable: readonly UnreadableInput[] = []): string {
  // An input that could not be read fails the run: an annotation on it says why, where the findings would be.
  const lines: string[] = unreadable.map((u) => `::error ${[...(u.file ? [`file=${property(u.source)}`] : []), `title=${property('toolslim: input not read')}`].join(',')}::${data(u.error)}`);
  for (const input of inputs) {
    const base = toolsPointer(input.value);
    const positions = positionsIn(input, base);
    for (const f of input.findings) {
      const pointer = base + f.path;
      const pos = positions?.get(pointer);
      const props = [...(input.file ? [`file=${property(input.source)}`] : []), ...(pos ? [`line=${pos.line}`, `col=${pos.column}`] : []), `title=${property(`toolslim ${f.code}`)}`];
      const where = `${f.tool || (f.toolIndex < 0 ? '(list)' : `#${f.toolIndex}`)} ${pointer || '/'}`;
      lines.push(`::${f.severity === 'info' ? 'notice' : f.severity} ${props.join(',')}::${data(`${where}: ${f.message}`)}`);
    }
  }
  return lines.length === 0 ? '' : lines.join('\n') + '\n';
}

/** Where every finding of a file input points, found in one scan of its text (undefined: no file to point into). */
function positionsIn(input: CheckedInput, base: string): Map<string, TextPosition> | undefined {
  return input.file && input.text !== undefined ? pointerPositions(input.text, input.findings.map((f) => base + f.path)) : undefined;
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

/** A 1-based line and column (in UTF-16 code units, SARIF's default; a leading BOM not counted) in a JSON text. */
export interface TextPosition {
  readonly line: number;
  readonly column: number;
}

/**
 * The 1-based line and column where the value at `pointer` starts in the JSON text `text` (for a member,
 * where its name starts); undefined when the text has no such value. See {@link pointerPositions}.
 */
export function pointerPosition(text: string, pointer: string): TextPosition | undefined {
  return pointerPositions(text, [pointer]).get(pointer);
}

/**
 * The positions of many pointers' values in one JSON text, in one scan of it: each pointer (as findings
 * spell them, `~0` and `~1` escaped) maps to where its value starts (for a member, where its name starts; the
 * first such member when a key repeats), and a pointer the text has no value for is absent. Only the
 * containers on the way to some pointer are read member by member; any other is skipped to its closing
 * bracket. Lines come from one list of the text's line breaks, searched per position.
 *
 * Why one scan for all: `check --format sarif` and `--format github` located each finding by scanning the
 * text from its start, and counted lines from the start again; on 5,000 numbered tools without descriptions
 * (5,001 findings, 0.4 MB) that took 12 s, on 20,000 of them 190 s.
 */
export function pointerPositions(text: string, pointers: readonly string[]): Map<string, TextPosition> {
  const wanted = new Set(pointers);
  // Every proper prefix of a wanted pointer: the containers whose members are read one by one.
  const prefixes = new Set<string>();
  for (const p of wanted) {
    for (let k = p.indexOf('/', 1); k > 0; k = p.indexOf('/', k + 1)) prefixes.add(p.slice(0, k));
    if (p !== '') prefixes.add('');
  }
  const found = new Map<string, number>();
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const n = text.length;
  while (i < n && isSpace(text.charCodeAt(i))) i++;
  if (i >= n) return new Map();
  if (wanted.has('')) found.set('', i);
  // The containers open on the way: their pointer, and the index (arrays) or key (objects) being read.
  const stack: { array: boolean; index: number; pointer: string }[] = [];
  let key: string | undefined;
  let memberStart = -1;
  const open = (at: number, pointer: string): number => {
    stack.push({ array: text.charCodeAt(at) === 91 /* [ */, index: 0, pointer });
    key = undefined;
    return at + 1;
  };
  const first = text.charCodeAt(i);
  if (first !== 123 /* { */ && first !== 91 /* [ */) return positionsOf(text, found);
  i = prefixes.has('') ? open(i, '') : n;
  while (i < n && stack.length > 0) {
    const c = text.charCodeAt(i);
    if (isSpace(c) || c === 58 /* : */) {
      i++;
      continue;
    }
    const top = stack[stack.length - 1]!;
    if (c === 44 /* , */) {
      if (top.array) top.index++;
      else key = undefined;
      i++;
      continue;
    }
    if (c === 125 /* } */ || c === 93 /* ] */) {
      stack.pop();
      key = undefined;
      i++;
      continue;
    }
    if (c === 34 /* " */ && !top.array && key === undefined) {
      const end = stringEnd(text, i);
      key = JSON.parse(text.slice(i, end)) as string;
      memberStart = i;
      i = end;
      continue;
    }
    // A value starts at i: its pointer, where it is asked for; a container on the way to some pointer is
    // entered, any other value skipped whole.
    const pointer = top.pointer + '/' + (top.array ? String(top.index) : escapeToken(key ?? ''));
    if (wanted.has(pointer) && !found.has(pointer)) found.set(pointer, top.array ? i : memberStart);
    if (c === 123 /* { */ || c === 91 /* [ */) {
      i = prefixes.has(pointer) ? open(i, pointer) : containerEnd(text, i);
      continue;
    }
    i = c === 34 /* " */ ? stringEnd(text, i) : scalarEnd(text, i);
  }
  return positionsOf(text, found);
}

function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}

function escapeToken(token: string): string {
  return token.indexOf('~') === -1 && token.indexOf('/') === -1 ? token : token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Lines and columns of the offsets found: the line breaks listed once, each offset's line found by binary search. */
function positionsOf(text: string, found: ReadonlyMap<string, number>): Map<string, TextPosition> {
  const out = new Map<string, TextPosition>();
  if (found.size === 0) return out;
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const breaks: number[] = [];
  for (let k = text.indexOf('\n'); k >= 0; k = text.indexOf('\n', k + 1)) breaks.push(k);
  for (const [pointer, offset] of found) {
    // How many line breaks lie before the offset.
    let lo = 0;
    let hi = breaks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (breaks[mid]! < offset) lo = mid + 1;
      else hi = mid;
    }
    // A leading byte-order mark is no column: editors do not show it, and parse errors do not count it.
    out.set(pointer, { line: lo + 1, column: offset - (lo > 0 ? breaks[lo - 1]! : bom - 1) });
  }
  return out;
}

/** Where the container opening at `start` ends (past its closing bracket), strings skipped whole. */
function containerEnd(text: string, start: number): number {
  let depth = 0;
  let i = start;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      i = stringEnd(text, i);
      continue;
    }
    if (c === 123 || c === 91) depth++;
    else if (c === 125 || c === 93) {
      depth--;
      if (depth === 0) return i + 1;
    }
    i++;
  }
  return i;
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
