import { readFile, writeFile } from 'node:fs/promises';
import type { Readable, Writable } from 'node:stream';
import { formatReport, type ReportFormat } from '../core/format.js';
import { ToolslimError } from '../core/errors.js';
import { transformTools, type TransformStepInput } from '../core/pipeline.js';
import { parseJsonText } from './json.js';

/** The streams the CLI talks through (injected so `main` is unit-testable). */
export interface CliIo {
  readonly stdin: Readable;
  readonly stdout: Writable;
  readonly stderr: Writable;
}

const USAGE = `toolslim — make MCP tools/list results smaller and correct

Usage:
  toolslim optimize <file|-> [-o out.json] [--preset safe|lossless] [--transform name[=json-options]]... [--report report.md|report.json]
  toolslim report <file|-> [--format text|markdown|json]

Input: a tools array, a ListToolsResult, a JSON-RPC response or a capture file; the output keeps its envelope.

Examples:
  toolslim report tools.json
  toolslim optimize tools.json -o slim.json --report report.md
  cat tools.json | toolslim optimize - --transform prune-unreachable-defs > slim.json

Exit codes: 0 ok, 2 bad usage or bad input.
`;

/** Runs the CLI; resolves to the exit code. */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const err = (s: string) => io.stderr.write(s.endsWith('\n') ? s : s + '\n');
  let args: ParsedArgs;
  try {
    args = parseArgs(argv);
  } catch (e) {
    err(`toolslim: ${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (args.help || args.command === undefined) {
    (args.help ? io.stdout : io.stderr).write(USAGE);
    return args.help ? 0 : 2;
  }
  const source = args.positional[0];
  if (source === undefined) {
    err(`toolslim ${args.command}: missing input (a file, or - for stdin)`);
    return 2;
  }
  let input: unknown;
  try {
    const text = source === '-' ? await readStream(io.stdin) : await readFile(source, 'utf8');
    input = parseJsonText(text, source === '-' ? '<stdin>' : source);
  } catch (e) {
    err(`toolslim: ${(e as Error).message}`);
    return 2;
  }
  try {
    switch (args.command) {
      case 'optimize':
        return await optimize(input, args, io);
      case 'report':
        return await report(input, args, io);
      default:
        err(`toolslim: unknown command \`${args.command}\`\n\n${USAGE}`);
        return 2;
    }
  } catch (e) {
    if (e instanceof ToolslimError) {
      err(`toolslim: ${source === '-' ? '<stdin>' : source}${e.path ? ` at ${e.path}` : ''}: ${e.message}`);
      return 2;
    }
    throw e;
  }
}

async function optimize(input: unknown, args: ParsedArgs, io: CliIo): Promise<number> {
  const result = transformTools(input, { transforms: stepsFrom(args) });
  const text = JSON.stringify(result.output, null, 2) + '\n';
  if (args.out) await writeFile(args.out, text);
  else io.stdout.write(text);
  if (args.report) {
    const fmt: ReportFormat = args.report.endsWith('.json') ? 'json' : args.report.endsWith('.md') ? 'markdown' : 'text';
    await writeFile(args.report, formatReport(result.report, fmt));
  }
  const { before, after } = result.report.stats;
  io.stderr.write(`toolslim: ${before.bytes} → ${after.bytes} bytes; ${result.report.changes.length} changes; ${result.report.skipped.length} skipped\n`);
  return 0;
}

async function report(input: unknown, args: ParsedArgs, io: CliIo): Promise<number> {
  const { o200k } = await import('../tokens.js');
  const result = transformTools(input, { transforms: stepsFrom(args), tokenizer: o200k });
  io.stdout.write(formatReport(result.report, (args.format ?? 'text') as ReportFormat));
  return 0;
}

function stepsFrom(args: ParsedArgs): TransformStepInput[] {
  if (args.transforms.length === 0) return [args.preset ?? 'safe'];
  const steps: TransformStepInput[] = args.preset ? [args.preset] : [];
  for (const spec of args.transforms) {
    const eq = spec.indexOf('=');
    if (eq === -1) steps.push(spec);
    else {
      let options: unknown;
      try {
        options = JSON.parse(spec.slice(eq + 1));
      } catch (e) {
        throw new ToolslimError('invalid-option', `--transform ${spec}: options are not JSON (${(e as Error).message})`);
      }
      steps.push([spec.slice(0, eq), options as object]);
    }
  }
  return steps;
}

interface ParsedArgs {
  command?: string;
  positional: string[];
  out?: string;
  report?: string;
  preset?: string;
  format?: string;
  transforms: string[];
  help: boolean;
}

function parseArgs(argv: readonly string[]): ParsedArgs {
  const out: ParsedArgs = { positional: [], transforms: [], help: false };
  const value = (i: number, flag: string): string => {
    const v = argv[i + 1];
    if (v === undefined) throw new Error(`${flag} needs a value`);
    return v;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    switch (a) {
      case '-h':
      case '--help':
        out.help = true;
        break;
      case '-o':
      case '--out':
        out.out = value(i++, a);
        break;
      case '--report':
        out.report = value(i++, a);
        break;
      case '--preset':
        out.preset = value(i++, a);
        break;
      case '--format':
        out.format = value(i++, a);
        if (!['text', 'markdown', 'json'].includes(out.format)) throw new Error(`--format must be text, markdown or json`);
        break;
      case '--transform':
        out.transforms.push(value(i++, a));
        break;
      default:
        if (a.startsWith('-') && a !== '-') throw new Error(`unknown option ${a}`);
        if (out.command === undefined) out.command = a;
        else out.positional.push(a);
    }
  }
  return out;
}

async function readStream(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(typeof c === 'string' ? Buffer.from(c) : (c as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
