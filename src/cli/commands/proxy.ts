import { printable } from '../../core/safe-text.js';
import { readFileSync } from 'node:fs';
import { checkRegularFile } from '../../session/file-io.js';
import { transformTools } from '../../api.js';
import { ToolslimError } from '../../core/errors.js';
import { DEFAULT_HOT_SET } from '../../session/defaults.js';
import type { HotSetOptions } from '../../session/index.js';
import { mergePolicies, parsePolicyFlag, type ResponsePolicies } from '../../session/response-policy.js';
import type { ParsedArgs } from '../args.js';
import type { Command, Context } from '../command.js';
import { HELP, STEP_FLAGS, STEP_HELP } from '../command.js';
import { CliError } from '../errors.js';
import { flagNumber, flagString, liveTarget, stepsFrom } from '../inputs.js';
import { ALLOW_REJECTED_FLAG, ALLOW_REJECTED_HELP, profileGateHooks } from '../profile-verdict.js';
import { shellWord } from '../proxy/upstream.js';
import { redactArgs, redactUrl, targetRedactor } from '../redact.js';
import { NAMES_MIN_BYTES, SEARCH_MIN_TOOLS, searchToolNames } from '../../session/tool-search.js';
import { getProfile } from '../../profiles/profiles.js';
import { toolNameFinding } from '../../profiles/check.js';
import { DEFAULT_LIMITS, type ByteLimits } from '../proxy/limits.js';

export const proxyCommand: Command = {
  summary: 'a stdio MCP proxy that serves the optimized tools/list for a server you cannot change',
  usage: 'toolslim proxy [--preset …] [--transform …] [--overlay o.json] [--hot-set <k> | --search <k>] (-- <command> [args…] | --url <http(s)://…/mcp> [-H "K: V"]…)',
  flags: [
    HELP,
    ...STEP_FLAGS,
    ALLOW_REJECTED_FLAG,
    { name: 'url', type: 'string' },
    { name: 'header', short: 'H', type: 'string', repeat: true },
    { name: 'timeout', type: 'number' },
    { name: 'drop-unreadable', type: 'boolean' },
    { name: 'overlay', type: 'string' },
    { name: 'on-drift', type: 'string', choices: ['refuse', 'reoptimize', 'passthrough'] },
    { name: 'hot-set', type: 'number', optionalValue: String(DEFAULT_HOT_SET.k) },
    { name: 'search', type: 'number', optionalValue: String(DEFAULT_HOT_SET.k) },
    { name: 'full', type: 'boolean' },
    { name: 'search-prefix', type: 'string' },
    { name: 'usage', type: 'string' },
    { name: 'reveal', type: 'string', choices: ['result', 'list-changed'] },
    { name: 'stats', type: 'string' },
    { name: 'project', type: 'string', repeat: true },
    { name: 'response-budget', type: 'string', repeat: true },
    { name: 'max-line-bytes', type: 'number' },
    { name: 'max-page-bytes', type: 'number' },
    { name: 'max-list-bytes', type: 'number' },
    { name: 'max-result-bytes', type: 'number' },
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
  --url <http(s)://…/mcp>   a streamable HTTP server (the session is ended with DELETE on exit);
                            user:password@ in it is sent as HTTP Basic authentication, as curl does
  -H, --header "K: V"       an HTTP header for --url (repeatable), e.g. an Authorization header

Options:
${STEP_HELP}
                            (the list is then checked before the client gets it: one the client
                            would still reject ends the proxy with exit 1, the findings on stderr)
${ALLOW_REJECTED_HELP}
  --drop-unreadable         leave out (and name on stderr) each tool whose inputSchema or
                            outputSchema a strict 2020-12 reader cannot read, instead of serving it
                            (an SDK Client's listTools() then fails for the whole list)
  --timeout <seconds>       limit for each request the proxy itself sends (tools/list pages),
                            and with --url for the status line of every POST (a notification's
                            whole answer); default 30
  -v, --verbose             one stderr line per optimization

Limits (what a server or client can make the proxy hold; over one: an error naming it and its flag):
  --max-line-bytes <n>      one message line (stdio, either side), HTTP JSON body or SSE event
                            (default ${DEFAULT_LIMITS.line}, 128 MiB); the line is dropped and the
                            request it answers (its id read from its first or last bytes) gets the error
  --max-page-bytes <n>      one page of the server's tools/list (default ${DEFAULT_LIMITS.page}, 64 MiB)
  --max-list-bytes <n>      all pages of the server's tools/list together (default ${DEFAULT_LIMITS.list},
                            128 MiB): a cursor that never ends stops here
  --max-result-bytes <n>    one tools/call answer (default ${DEFAULT_LIMITS.result}, 64 MiB); the client
                            gets an error instead
  With --url, the server's event stream is reconnected after its retry (at least 1 s), doubling
  for each reconnection in a row that brought nothing, at most 30 s, given up after 8.

Overlay (review first, then serve):
  --overlay <file>          serve the tools of an overlay written by toolslim optimize --overlay
                            (its steps, not --preset/--transform); at start and after every
                            notifications/tools/list_changed the live list is compared with its pin
  --on-drift <mode>         when the server's tools differ from the pin: refuse (default: exit 1,
                            naming each changed tool and the command that rebuilds the overlay),
                            reoptimize (serve the live list through the overlay's steps) or
                            passthrough (serve the server's list unchanged); both say so on stderr

Sessions (the list keeps its bytes all session, so the client's prompt cache keeps hitting):
  --hot-set [k]             serve at most k tools in full (default ${DEFAULT_HOT_SET.k}) and the rest in a
                            compressed cold form, chosen once at start (the defaults of the session
                            bench: bench/sessions.md); a cold call's arguments are checked against the
                            tool's real inputSchema: valid → forwarded untouched, invalid → answered
                            with the schema (isError), never forwarded
  --search [k]              serve at most k tools in full (default ${DEFAULT_HOT_SET.k}, chosen as --hot-set chooses)
                            and, instead of the others, <server>_search_tools (keywords → the best
                            matches' full definitions, BM25 over names and descriptions) and
                            <server>_call_tool (name + arguments), <server> the server's name from its
                            initialize result (toolslim without one); a found tool's call is checked
                            against its real inputSchema as a cold call is. Below ${SEARCH_MIN_TOOLS} tools the
                            search tool's description lists the other tools' names, and a name loads
                            that tool alone. The list stays small and keeps its bytes however many
                            tools the server has.
  --search-prefix <p>       name the two tools <p>search_tools and <p>call_tool instead (tool-name
                            characters, at most 100): for two servers of the same name
  --full                    serve every tool in full (as optimized), whatever the list's size
                            None of the three (the default): from ${SEARCH_MIN_TOOLS} tools --search; below that,
                            a list of ${NAMES_MIN_BYTES} bytes or more (compact JSON, ~750 tokens) as --search
                            with the names listed, a smaller one in full; with --profile of a client
                            that defers schemas itself (claude-code), or one that accepts only closed
                            objects (openai-strict), every tool at any size. Stderr
                            says which and why. Each first call of a tool not served in full then
                            costs the model one load round trip (the session bench, bench/sessions.md:
                            0.41x of the full list's cost with 27% more requests on BFCL's servers)
  --usage <file>            the usage file the hot set is chosen from (the tools earlier sessions
                            called most), updated from the calls that pass through; without it no
                            tool has earned a place and every tool is served cold. A regular file
                            (a FIFO, device or directory is refused); a symlink's target is written,
                            its mode kept; a lock another process holds is tried again later
  --reveal <mode>           result (default): the list never changes; list-changed: a called cold
                            tool becomes hot, announced with notifications/tools/list_changed only if
                            the server declared tools.listChanged
  --stats <file>            append one JSON line per tools/call (tool, request and result bytes, the
                            tool's definition bytes as served and as sent, milliseconds); read them
                            with toolslim report --responses <file>. Only to a new or empty file or a
                            stats file (its first line a stats line): any other file is refused

Responses (per tool, by the server's tool name; repeatable; after an overlay's "responses"):
  --project TOOL=f,g.h      keep only these fields of each record of TOOL's results (dotted paths
                            for nested fields); the tool's description says so
  --response-budget TOOL=N  serve TOOL's records in pages of at most N bytes, cut on record
                            boundaries; an optional page argument is added to its inputSchema and
                            later pages come from the first call's result (a record over the budget:
                            an isError result naming it). Records are found in one text item holding
                            a JSON array (or an object with one array member) or in structuredContent;
                            any other result passes through untouched (--stats names why)

Examples:
  toolslim proxy -- npx -y some-vendor-mcp
  toolslim proxy --preset lossless -- node server.mjs
  toolslim proxy --preset max -- node server.mjs
  toolslim proxy --url https://example.com/mcp -H "Authorization: Bearer $TOKEN"
  toolslim optimize --overlay overlay.json --preset max -- node server.mjs
  toolslim proxy --overlay overlay.json -- node server.mjs
  toolslim proxy --hot-set 5 --usage usage.json --reveal list-changed -- node server.mjs
  toolslim proxy --search --usage usage.json -- node server.mjs
  toolslim proxy --stats calls.jsonl -- node server.mjs
  toolslim proxy --project list_issues=id,title,user.login --response-budget list_issues=8000 -- node server.mjs

In an MCP client's configuration (Claude Desktop's mcpServers entry, or any client that starts a command):
  { "command": "npx", "args": ["-y", "toolslim", "proxy", "--", "npx", "-y", "some-vendor-mcp"] }`,
  run: runProxyCommand,
};

async function runProxyCommand(args: ParsedArgs, ctx: Context): Promise<number> {
  if (args.positional.length > 0) throw new CliError(`unexpected argument ${JSON.stringify(args.positional[0])} (the server command goes after --)`, { usage: true });
  const target = liveTarget(args);
  if (!target) throw new CliError('proxy needs the server command after -- (or --url)', { usage: true });
  const limits = limitsFrom(args);
  const timeout = flagNumber(args, 'timeout');
  if (timeout !== undefined && timeout <= 0) throw new CliError('--timeout must be more than 0 seconds', { usage: true });
  const overlayPath = flagString(args, 'overlay');
  const onDrift = flagString(args, 'on-drift') as 'refuse' | 'reoptimize' | 'passthrough' | undefined;
  if (onDrift !== undefined && overlayPath === undefined) throw new CliError('--on-drift goes with --overlay <file>', { usage: true });
  if (overlayPath !== undefined && (args.flags.preset !== undefined || args.flags.transform !== undefined || args.flags.profile !== undefined)) {
    throw new CliError('--overlay serves the overlay as it was built (its steps are in the file); give --preset/--transform/--profile to `toolslim optimize --overlay` instead', { usage: true });
  }
  const steps = stepsFrom(args);
  // Names and options are checked now, not on the first tools/list.
  try {
    transformTools([], { transforms: steps, measure: false });
  } catch (e) {
    if (e instanceof ToolslimError && (e.code === 'unknown-transform' || e.code === 'invalid-option')) throw e;
  }
  const [{ runProxy }, { optimizingHooks }, { sessionHooks }, session, { checkHotSetOptions }] = await Promise.all([
    import('../proxy/index.js'),
    import('../proxy/served.js'),
    import('../proxy/session.js'),
    import('../../session/index.js'),
    import('../../session/tool-session.js'),
  ]);
  // Every stderr line passes the target's redactor: URL userinfo and query values, header values, secret-looking arguments.
  const redact = targetRedactor(target);
  const log = (line: string) => ctx.io.stderr.write(`toolslim proxy: ${printable(redact(line))}\n`);
  const verbose = args.flags.verbose === true;
  const dropUnreadable = args.flags['drop-unreadable'] === true;

  // Everything that can be refused is refused before the server starts.
  let inner;
  let overlayPolicies: ResponsePolicies | undefined;
  if (overlayPath !== undefined) {
    let text: string;
    // A FIFO would block the start, a device or directory is no overlay: refused before it is opened.
    const exists = checkRegularFile(overlayPath, `--overlay ${overlayPath}`);
    try {
      if (!exists) throw Object.assign(new Error('missing'), { code: 'ENOENT' });
      text = readFileSync(overlayPath, 'utf8');
    } catch (e) {
      throw new CliError(`--overlay ${overlayPath}: ${(e as { code?: string }).code === 'ENOENT' ? 'no such file; build it with toolslim optimize --overlay' : (e as Error).message}`);
    }
    // The rebuild hint comes from the file in use and this command (redacted), never from the file's own `rebuild`.
    const liveSource = target.kind === 'http'
      ? [`--url ${shellWord(redactUrl(target.url))}`, ...Object.keys(target.headers ?? {}).map((k) => `-H ${shellWord(`${k}: ***`)}`)].join(' ')
      : ['--', ...redactArgs([target.command, ...target.args])].map(shellWord).join(' ');
    const rebuild = redact(`toolslim optimize --overlay ${shellWord(overlayPath)} --preset … ${liveSource}`);
    const overlay = session.readOverlay(text, overlayPath, { rebuild });
    overlayPolicies = overlay.responses;
    const { overlayHooks } = await import('../proxy/overlay.js');
    inner = overlayHooks({ overlay, text, file: overlayPath, onDrift: onDrift ?? 'refuse', dropUnreadable, verbose, log, liveSource, rebuild });
  } else {
    inner = optimizingHooks({ steps, dropUnreadable, verbose, log });
  }
  const usagePath = flagString(args, 'usage');
  const usage = usagePath === undefined ? undefined : session.UsageStore.open(usagePath);
  const hotSet = hotSetFrom(args, usage?.graph, checkHotSetOptions);
  const statsPath = flagString(args, 'stats');
  // Refused before the server starts: a file that is not a stats file, or not a regular file.
  const stats = statsPath === undefined ? undefined : (await import('../stats-file.js')).openStatsFile(statsPath);

  const responses = await responsesFrom(args, overlayPolicies, log);
  // Neither --hot-set, --search nor --full: the session library picks by the first list's size.
  const auto = hotSet === undefined && args.flags.full !== true ? { hotSet: { k: DEFAULT_HOT_SET.k, ...(usage?.graph ? { graph: usage.graph } : {}) }, verbose } : undefined;
  const profile = flagString(args, 'profile');
  if (profile !== undefined && hotSet !== undefined && args.flags['allow-rejected'] !== true && profileClosesObjects(profile)) {
    // Found as a user: the served list's check then refused every such list at the first tools/list.
    throw new CliError(`--profile ${profile} accepts only closed objects, which ${hotSet.search === true ? "--search's call tool (its `arguments` are any tool's arguments)" : "--hot-set's cold stubs (`{\"type\": \"object\"}`)"} cannot be: drop ${hotSet.search === true ? '--search' : '--hot-set'} (with this profile every tool is served in full, converted for it), or give --allow-rejected to serve it so anyway`, { usage: true });
  }
  const searchPrefix = flagString(args, 'search-prefix');
  if (searchPrefix !== undefined) {
    let names: ReturnType<typeof searchToolNames>;
    try {
      names = searchToolNames(searchPrefix, '--search-prefix');
    } catch (e) {
      throw new CliError((e as Error).message, { usage: true });
    }
    // The search mode's own two tools are never renamed by the profile: a prefix that makes names the client
    // refuses would refuse every list (found as a user: "rename the tool on the server" was the only hint).
    const p = profile === undefined || args.flags['allow-rejected'] === true ? undefined : knownProfile(profile);
    if (p !== undefined) {
      const refused = [names.search, names.call].map((n) => toolNameFinding(n, p)).find((f) => f?.severity === 'error');
      if (refused !== undefined) throw new CliError(`--search-prefix ${JSON.stringify(searchPrefix)}: ${refused.message}, and the proxy's own search tools are not renamed: give a prefix that makes names it accepts`, { usage: true });
    }
  }
  const hooks = sessionHooks(inner, { ...(hotSet ? { hotSet } : {}), ...(searchPrefix !== undefined ? { searchPrefix } : {}), ...(auto ? { auto } : {}), ...(usage ? { usage } : {}), ...(stats ? { stats } : {}), ...(responses ? { responses } : {}), ...(profile !== undefined ? { profile } : {}), ...(limits.result !== undefined ? { maxResultBytes: limits.result } : {}), log });
  // --profile: what is served (hot and cold forms alike) is checked as `check --profile` would (profile-verdict.ts).
  if (profile === undefined && args.flags['allow-rejected'] === true) throw new CliError('--allow-rejected goes with --profile <client>', { usage: true });
  return runProxy({
    target,
    input: ctx.io.stdin,
    output: ctx.io.stdout,
    errors: ctx.io.stderr,
    requestTimeoutMs: timeout === undefined ? undefined : Math.round(timeout * 1000),
    limits,
    hooks: profile === undefined ? hooks : profileGateHooks(hooks, { profile, allowRejected: args.flags['allow-rejected'] === true, log }),
  });
}

/** `--project` and `--response-budget` (after the overlay's `responses`), checked now; undefined when none. */
async function responsesFrom(args: ParsedArgs, fromOverlay: ResponsePolicies | undefined, log: (line: string) => void) {
  const flags = (['project', 'response-budget'] as const).flatMap((flag) => ((args.flags[flag] as string[] | undefined) ?? []).map((v) => parsePolicyFlag(flag, v)));
  const policies = mergePolicies(fromOverlay, flags);
  if (Object.keys(policies).length === 0) return undefined;
  const [{ ProxyResponses }, { ResponsePager }] = await Promise.all([import('../proxy/responses.js'), import('../../session/response-pages.js')]);
  return new ProxyResponses(new ResponsePager({ policies }), log);
}

/** The profile named `name`; undefined for an unknown name (it is refused where profiles are read). */
function knownProfile(name: string): ReturnType<typeof getProfile> | undefined {
  try {
    return getProfile(name);
  } catch {
    return undefined;
  }
}

/** Whether the profile named `name` accepts only closed objects (an unknown name: false). */
function profileClosesObjects(name: string): boolean {
  return knownProfile(name)?.strict?.closedObjects === true;
}

/** `--hot-set <k>`, `--usage` and `--reveal`, checked now. */
function hotSetFrom(args: ParsedArgs, graph: HotSetOptions['graph'], check: (hotSet: HotSetOptions, where: string) => void): HotSetOptions | undefined {
  const hot = flagNumber(args, 'hot-set');
  const search = flagNumber(args, 'search');
  if (hot !== undefined && search !== undefined) throw new CliError('--hot-set and --search are two ways to serve the list: give one', { usage: true });
  if (args.flags.full === true && (hot !== undefined || search !== undefined)) throw new CliError(`--full serves every tool in full; ${hot !== undefined ? '--hot-set' : '--search'} serves a hot set: give one`, { usage: true });
  const flag = search !== undefined ? '--search' : '--hot-set';
  const k = search ?? hot;
  const reveal = flagString(args, 'reveal') as HotSetOptions['reveal'] | undefined;
  if (k === undefined) {
    if (reveal !== undefined) throw new CliError('--reveal goes with --hot-set <k> or --search <k>', { usage: true });
    return undefined;
  }
  if (!Number.isInteger(k)) throw new CliError(`${flag} must be a whole number of tools (got ${k})`, { usage: true });
  const hotSet: HotSetOptions = { k, ...(reveal ? { reveal } : {}), ...(graph ? { graph } : {}), ...(search !== undefined ? { search: true } : {}) };
  check(hotSet, flag);
  return hotSet;
}

/** `--max-line-bytes` and the other caps (limits.ts), checked now: whole numbers of bytes, at least 1024. */
function limitsFrom(args: ParsedArgs): Partial<ByteLimits> {
  const out: { -readonly [K in keyof ByteLimits]?: number } = {};
  for (const cap of ['line', 'page', 'list', 'result'] as const) {
    const flag = `max-${cap}-bytes`;
    const n = flagNumber(args, flag);
    if (n === undefined) continue;
    if (!Number.isSafeInteger(n) || n < 1024) throw new CliError(`--${flag} must be a whole number of bytes, at least 1024 (got ${n})`, { usage: true });
    out[cap] = n;
  }
  return out;
}
