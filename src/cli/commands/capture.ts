import type { ParsedArgs } from '../args.js';
import type { Command, Context } from '../command.js';
import { HELP, INPUT_FLAGS, LIVE_INPUT_HELP } from '../command.js';
import { CliError } from '../errors.js';
import { countTools, flagString, liveTarget, outputJson, readLive, writeOutput } from '../inputs.js';

export const captureCommand: Command = {
  summary: 'save a live server’s initialize result and exact tools/list result',
  usage: 'toolslim capture [-o tools.json] (-- <command> [args…] | --url <url>)',
  flags: [HELP, { name: 'out', short: 'o', type: 'string' }, ...INPUT_FLAGS],
  help: `Starts the server (or connects to --url), initializes, lists every page of tools, and closes it.
Writes { server, initialize, toolsList }: the results as the server sent them (pages merged).
The child process never outlives the command, also on timeout or failure.

Options:
  -o, --out <file>          where to write (default stdout)

Server (one of; capture reads a live server only: to look at a saved file, use report):
${LIVE_INPUT_HELP}

Examples:
  toolslim capture -o tools.json -- node server.mjs
  toolslim capture -o tools.json -- npx -y @modelcontextprotocol/server-memory
  toolslim capture --url http://localhost:3000/mcp -H "Authorization: Bearer $TOKEN" -o tools.json`,
  run: runCapture,
};

async function runCapture(args: ParsedArgs, ctx: Context): Promise<number> {
  const target = liveTarget(args);
  const given = args.positional[0];
  if (!target && given !== undefined) throw new CliError(`capture reads a live server (-- <command> [args…] or --url <url>), not ${given === '-' ? 'stdin' : `a file (${JSON.stringify(given)})`}: to look at saved tools, run toolslim report ${given}`, { usage: true });
  if (!target) throw new CliError('capture needs a live server: -- <command> [args…] or --url <url>', { usage: true });
  if (args.positional.length > 0) throw new CliError(`unexpected argument ${JSON.stringify(args.positional[0])} (the server command goes after --)`, { usage: true });
  const capture = await readLive(target, args, ctx);
  const text = outputJson(capture);
  const out = flagString(args, 'out');
  await writeOutput(out, text, ctx);
  const n = countTools(capture);
  ctx.io.stderr.write(`${ctx.name}: captured ${n} tool${n === 1 ? '' : 's'}${out ? ` to ${out}` : ''}\n`);
  return 0;
}

