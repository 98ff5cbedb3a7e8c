/** What every CLI command shares: its shape, the context it runs in, and the common flags. */
import type { Readable, Writable } from 'node:stream';
import type { FlagSpec, ParsedArgs } from './args.js';
import type { Style } from './format.js';
import { builtinPresets } from '../presets/index.js';
import { builtinTransforms } from '../transforms/index.js';

/** The streams (and environment) the CLI talks through, injected so `main` is unit-testable. */
export interface CliIo {
  readonly stdin: Readable;
  readonly stdout: Writable;
  readonly stderr: Writable;
  /** Environment variables (default `process.env`): `NO_COLOR`, `FORCE_COLOR`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The working directory: relative paths, globs and `toolslim.config.json` (default `process.cwd()`). */
  readonly cwd?: string;
}

/** One CLI command: its flags, help text and what it does. */
export interface Command {
  readonly summary: string;
  readonly usage: string;
  readonly flags: readonly FlagSpec[];
  readonly help: string;
  run(args: ParsedArgs, ctx: Context): Promise<number>;
}

/** What a command runs with. */
export interface Context {
  readonly io: CliIo;
  readonly name: string;
  /** Styling for stdout (colours only when stdout is a terminal). */
  readonly style: Style;
  /** Styling for stderr. */
  readonly errStyle: Style;
  /** A progress line on stderr, shown only when stderr is a terminal. */
  progress(line: string): void;
}

export const HELP: FlagSpec = { name: 'help', short: 'h', type: 'boolean' };
export const INPUT_FLAGS: readonly FlagSpec[] = [
  { name: 'url', type: 'string' },
  { name: 'header', short: 'H', type: 'string', repeat: true },
  { name: 'timeout', type: 'number' },
];
export const PROFILE_FLAG: FlagSpec = { name: 'profile', type: 'string' };
/** With `--profile`: the tuned preset without its lossy steps (`--no-lossy`), or without renames only (`--keep-names`). */
export const LOSSY_FLAGS: readonly FlagSpec[] = [
  { name: 'no-lossy', type: 'boolean' },
  { name: 'keep-names', type: 'boolean' },
];
export const STEP_FLAGS: readonly FlagSpec[] = [{ name: 'preset', type: 'string' }, { name: 'transform', short: 't', type: 'string', repeat: true }, PROFILE_FLAG, ...LOSSY_FLAGS];
export const BUDGET_FLAGS: readonly FlagSpec[] = [
  { name: 'max-bytes', type: 'number' },
  { name: 'max-tool-bytes', type: 'number' },
  { name: 'max-tokens', type: 'number' },
  { name: 'max-tool-tokens', type: 'number' },
  { name: 'max-arguments', type: 'number' },
];

/** The live-server part of {@link INPUT_HELP}: all `capture` takes. */
export const LIVE_INPUT_HELP = `  -- <command> [args…]      a live server over stdio, started and stopped by toolslim
  --url <http(s)://…/mcp>   a live server over streamable HTTP
  -H, --header "K: V"       an HTTP header for --url (repeatable), e.g. an Authorization header
  --timeout <seconds>       limit for a live server to answer initialize and tools/list (default 30)
Live servers are read with the official @modelcontextprotocol/sdk client (initialize, then
tools/list following nextCursor).`;

export const INPUT_HELP = `Input (one of):
  <file>                    a JSON file: a tools array, a ListToolsResult, a JSON-RPC response or a
                            capture file (a leading BOM is fine)
  -                         the same, from stdin
${LIVE_INPUT_HELP}`;

/**
 * The built-in transforms, one per line with its safety, as `--help` lists them: read from
 * `builtinTransforms`, so a new transform is listed without touching the CLI.
 */
export const TRANSFORMS_HELP = builtinTransforms.map((t) => `  ${t.name.padEnd(26)}${t.safety}${builtinPresets.some((p) => p.steps.includes(t)) ? '' : ', in no preset'}`).join('\n');

export const STEP_HELP = `  --preset <name>           ${builtinPresets.map((p) => (p.name === 'safe' ? 'safe (default)' : p.name)).join(', ')}
  -t, --transform <name>[=<json-options>]
                            run this transform (repeatable, in order; after --preset if both given):
${wrap(builtinTransforms.map((t) => t.name).join(', '), 28, 100)}
  --profile <client>        then make the tools acceptable to one client (adapt-to-client): mcp,
                            claude, openai, openai-strict, gemini, kimi, ref-free, claude-code,
                            qwen, llama; with a preset
                            alone, also its lossy steps: assertions and formats the client rejects
                            relaxed (gemini, openai-strict), objects closed (openai-strict), and
                            tools renamed whose names it refuses (calls then name the new name:
                            toolslim proxy maps them back; a written file needs a caller that does)
  --no-lossy                with --profile: no lossy step (verdicts and names kept; what the client
                            rejects is reported instead)
  --keep-names              with --profile: every lossy step but the renames`;


/** `text` broken at spaces into lines of at most `width` columns, each indented by `indent`. */
function wrap(text: string, indent: number, width: number): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && indent + line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines.map((l) => ' '.repeat(indent) + l).join('\n');
}
