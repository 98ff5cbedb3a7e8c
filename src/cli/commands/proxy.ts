import { ToolslimError } from '../../core/errors.js';
import { transformTools } from '../../api.js';
import type { ParsedArgs } from '../args.js';
import type { Command, Context } from '../command.js';
import { HELP, STEP_FLAGS, STEP_HELP } from '../command.js';
import { CliError } from '../errors.js';
import { stepsFrom } from '../inputs.js';

export const proxyCommand: Command = {
  summary: 'a stdio MCP proxy that serves the optimized tools/list for a server you cannot change',
  usage: 'toolslim proxy [--preset …] [--transform …] -- <command> [args…]',
  flags: [HELP, ...STEP_FLAGS, { name: 'verbose', short: 'v', type: 'boolean' }],
  help: `Put it where the client would start the server. tools/list is answered from the optimized list
(fetched from the server, optimized once, cached until the server sends
notifications/tools/list_changed). Everything else, tools/call included, passes through byte for
byte; initialize is forwarded untouched, so capabilities are exactly the server’s. The proxy exits
when the server does, with its exit code.

Options:
${STEP_HELP}
  -v, --verbose             one stderr line per optimization

Example (an MCP client configuration):
  { "command": "npx", "args": ["-y", "toolslim", "proxy", "--", "npx", "-y", "some-vendor-mcp"] }
  toolslim proxy --preset lossless -- node server.mjs`,
  run: runProxyCommand,
};

async function runProxyCommand(args: ParsedArgs, ctx: Context): Promise<number> {
  const rest = args.rest;
  if (!rest || rest.length === 0) throw new CliError('proxy needs the server command after --', { usage: true });
  if (args.positional.length > 0) throw new CliError(`unexpected argument ${JSON.stringify(args.positional[0])} (the server command goes after --)`, { usage: true });
  const steps = stepsFrom(args);
  // Names and options are checked now, not on the first tools/list.
  try {
    transformTools([], { transforms: steps, measure: false });
  } catch (e) {
    if (e instanceof ToolslimError && (e.code === 'unknown-transform' || e.code === 'invalid-option')) throw e;
  }
  const { runProxy } = await import('../proxy.js');
  return runProxy({
    command: rest[0]!,
    args: rest.slice(1),
    input: ctx.io.stdin,
    output: ctx.io.stdout,
    errors: ctx.io.stderr,
    verbose: args.flags.verbose === true,
    optimize: (list) => {
      const r = transformTools(list, { transforms: steps });
      const { before, after } = r.report.stats;
      return { result: r.output, summary: `optimized ${r.tools.length} tools: ${before.bytes} → ${after.bytes} bytes, ${r.report.changes.length} changes, ${r.report.skipped.length} skipped` };
    },
  });
}

