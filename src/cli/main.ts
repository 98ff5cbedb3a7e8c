import { editDistance } from '../core/edit-distance.js';
import { printable } from '../core/safe-text.js';
import type { Writable } from 'node:stream';
import { ToolslimError } from '../core/errors.js';
import { parseArgs, type ParsedArgs } from './args.js';
import { TRANSFORMS_HELP, type CliIo, type Command, type Context } from './command.js';
import { captureCommand } from './commands/capture.js';
import { checkCommand } from './commands/check.js';
import { optimizeCommand } from './commands/optimize.js';
import { proxyCommand } from './commands/proxy.js';
import { reportCommand } from './commands/report.js';
import { CliError } from './errors.js';
import { makeStyle } from './format.js';
import { VERSION } from './version.js';

export type { CliIo } from './command.js';

/** Every command, in the order `--help` lists them. */
const COMMANDS: Record<string, Command> = {
  capture: captureCommand,
  report: reportCommand,
  optimize: optimizeCommand,
  check: checkCommand,
  proxy: proxyCommand,
};

function usage(name: string): string {
  const width = Math.max(...Object.keys(COMMANDS).map((c) => c.length));
  const list = Object.entries(COMMANDS)
    .map(([c, cmd]) => `  ${c.padEnd(width)}  ${cmd.summary}`)
    .join('\n');
  return `${name} — make MCP tools/list results smaller and correct

Usage: ${name} <command> [options]

Commands:
${list}

Run \`${name} <command> --help\` for a command’s options and examples; \`${name} --version\` prints the version.

Transforms (for --transform; docs/transforms/<name>.md):
${TRANSFORMS_HELP}

Examples:
  ${name} capture -o tools.json -- node server.mjs
  ${name} report tools.json
  ${name} optimize tools.json -o slim.json --report report.md
  ${name} check tools.json --max-tokens 20000
  ${name} proxy -- npx -y some-vendor-mcp
`;
}

/** Runs the CLI; resolves to the exit code (0 ok, 1 `check` found something, 2 bad usage or input). */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const name = 'toolslim';
  const env = io.env ?? process.env;
  const colour = (stream: Writable) => useColour(env, (stream as { isTTY?: boolean }).isTTY === true);
  const stderrTty = (io.stderr as { isTTY?: boolean }).isTTY === true;
  const ctx: Context = {
    io,
    name,
    style: makeStyle(colour(io.stdout)),
    errStyle: makeStyle(colour(io.stderr)),
    progress: (line) => {
      if (stderrTty) io.stderr.write(printable(line) + '\n');
    },
  };
  const [first, ...rest] = argv;
  if (first === undefined) {
    io.stderr.write(usage(name));
    return 2;
  }
  if (first === '--version' || first === '-v' || first === 'version') {
    io.stdout.write(`${VERSION}\n`);
    return 0;
  }
  if (first === '--help' || first === '-h' || first === 'help') {
    const topic = rest[0];
    if (topic !== undefined && Object.prototype.hasOwnProperty.call(COMMANDS, topic)) return printHelp(topic, ctx);
    io.stdout.write(usage(name));
    return 0;
  }
  if (!Object.prototype.hasOwnProperty.call(COMMANDS, first)) {
    const near = Object.keys(COMMANDS).find((c) => editDistance(c, first) <= 2);
    io.stderr.write(`${name}: unknown command \`${first}\`${near ? ` (did you mean \`${near}\`?)` : ''}; the commands are ${Object.keys(COMMANDS).join(', ')}\nRun \`${name} --help\` for usage.\n`);
    return 2;
  }
  const command = COMMANDS[first]!;
  let args: ParsedArgs;
  try {
    args = parseArgs(rest, command.flags);
  } catch (e) {
    io.stderr.write(`${name} ${first}: ${(e as Error).message}\nUsage: ${command.usage}\nRun \`${name} ${first} --help\` for more.\n`);
    return 2;
  }
  if (args.flags.help === true) return printHelp(first, ctx);
  try {
    return await command.run(args, ctx);
  } catch (e) {
    if (e instanceof CliError) {
      io.stderr.write(`${name} ${first}: ${printable(e.message)}\n${e.usage ? `Usage: ${command.usage}\n` : ''}`);
      return 2;
    }
    if (e instanceof ToolslimError) {
      io.stderr.write(`${name} ${first}: ${e.path ? `at ${printable(e.path)}: ` : ''}${printable(e.message)}\n`);
      return 2;
    }
    io.stderr.write(`${name} ${first}: unexpected failure (please report it): ${(e as Error)?.stack ?? String(e)}\n`);
    return 2;
  }
}

/**
 * Whether to colour a stream, as Node and no-color.org say: FORCE_COLOR `0` or `false` turns colour off and
 * any other value (also empty) on; else a non-empty NO_COLOR turns it off (an empty one is as if unset);
 * else colour on a terminal only.
 */
export function useColour(env: Readonly<Record<string, string | undefined>>, tty: boolean): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force !== 'false';
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return tty;
}

function printHelp(command: string, ctx: Context): number {
  const c = COMMANDS[command]!;
  ctx.io.stdout.write(`${ctx.name} ${command} — ${c.summary}\n\nUsage: ${c.usage}\n\n${c.help}\n`);
  return 0;
}

// ---------------------------------------------------------------------------------------------------
// Commands

