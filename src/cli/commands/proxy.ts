import { ToolslimError } from '../../core/errors.js';
import { transformTools } from '../../api.js';
import type { ParsedArgs } from '../args.js';
import type { Command, Context } from '../command.js';
import { HELP, STEP_FLAGS, STEP_HELP } from '../command.js';
import { CliError } from '../errors.js';
import { flagNumber, liveTarget, stepsFrom } from '../inputs.js';

export const proxyCommand: Command = {
  summary: 'a stdio MCP proxy that serves the optimized tools/list for a server you cannot change',
  usage: 'toolslim proxy [--preset …] [--transform …] (-- <command> [args…] | --url <http(s)://…/mcp> [-H "K: V"]…)',
  flags: [
    HELP,
    ...STEP_FLAGS,
    { name: 'url', type: 'string' },
    { name: 'header', short: 'H', type: 'string', repeat: true },
    { name: 'timeout', type: 'number' },
    { name: 'verbose', short: 'v', type: 'boolean' },
  ],
  help: `Put it where the client would start the server. tools/list is answered from the optimized list
(fetched from the server, every page, optimized once, cached until the server sends
notifications/tools/list_changed), whatever form the request takes (alone or in a batch). Everything
else, tools/call included, passes through byte for byte; the initialize result is forwarded untouched
except that text a step moved out of the tools (promote-common-params, --preset max) is appended to
its instructions. The proxy exits when the server does, with its status; when the client closes stdin
it stops the server (its whole process group) and exits 0.

Server (one of):
  -- <command> [args…]      a server over stdio, started in a process group of its own
  --url <http(s)://…/mcp>   a streamable HTTP server (the session is ended with DELETE on exit)
  -H, --header "K: V"       an HTTP header for --url (repeatable), e.g. an Authorization header

Options:
${STEP_HELP}
  --timeout <seconds>       limit for each request the proxy itself sends (tools/list pages;
                            default 30)
  -v, --verbose             one stderr line per optimization

Examples:
  toolslim proxy -- npx -y some-vendor-mcp
  toolslim proxy --preset lossless -- node server.mjs
  toolslim proxy --preset max -- node server.mjs
  toolslim proxy --url https://example.com/mcp -H "Authorization: Bearer $TOKEN"

In an MCP client's configuration (Claude Desktop's mcpServers entry, or any client that starts a command):
  { "command": "npx", "args": ["-y", "toolslim", "proxy", "--", "npx", "-y", "some-vendor-mcp"] }`,
  run: runProxyCommand,
};

async function runProxyCommand(args: ParsedArgs, ctx: Context): Promise<number> {
  if (args.positional.length > 0) throw new CliError(`unexpected argument ${JSON.stringify(args.positional[0])} (the server command goes after --)`, { usage: true });
  const target = liveTarget(args);
  if (!target) throw new CliError('proxy needs the server command after -- (or --url)', { usage: true });
  const steps = stepsFrom(args);
  // Names and options are checked now, not on the first tools/list.
  try {
    transformTools([], { transforms: steps, measure: false });
  } catch (e) {
    if (e instanceof ToolslimError && (e.code === 'unknown-transform' || e.code === 'invalid-option')) throw e;
  }
  const timeout = flagNumber(args, 'timeout');
  if (timeout !== undefined && timeout <= 0) throw new CliError('--timeout must be more than 0 seconds', { usage: true });
  const [{ runProxy }, { optimizingHooks }] = await Promise.all([import('../proxy/index.js'), import('../proxy/served.js')]);
  const log = (line: string) => ctx.io.stderr.write(`toolslim proxy: ${line}\n`);
  return runProxy({
    target,
    input: ctx.io.stdin,
    output: ctx.io.stdout,
    errors: ctx.io.stderr,
    requestTimeoutMs: timeout === undefined ? undefined : Math.round(timeout * 1000),
    hooks: optimizingHooks({ steps, verbose: args.flags.verbose === true, log }),
  });
}
