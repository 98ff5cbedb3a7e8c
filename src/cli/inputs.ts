/** Reading a command's input (a file, stdin or a live server), writing its output, and reading its flags. */
import { ToolslimError } from '../core/errors.js';
import { locateTools } from '../engine/input.js';
import type { TransformStepInput } from '../core/preset.js';
import type { Finding, LintOptions } from '../lint/index.js';
import { checkOptimizedForProfile, checkToolsForProfile } from '../profiles/check.js';
import { presetForProfile } from '../presets/for-profile.js';
import { builtinProfiles } from '../profiles/profiles.js';
import type { ParsedArgs } from './args.js';
import type { Context } from './command.js';
import { oneLine } from '../core/safe-text.js';
import { CliError } from './errors.js';
import { parseJsonText } from './json.js';
import type { LiveTarget } from './live.js';
import { readInputFile, readInputStream } from './read-input.js';
import { expandSources, type Source } from './sources.js';
export function liveTarget(args: ParsedArgs): LiveTarget | undefined {
  const url = flagString(args, 'url');
  const headers = (args.flags.header as readonly string[] | undefined) ?? [];
  if (url !== undefined && args.rest !== undefined) throw new CliError('give either --url or -- <command>, not both', { usage: true });
  if (headers.length > 0 && url === undefined) throw new CliError('--header goes with --url', { usage: true });
  if (url !== undefined) return { kind: 'http', url, headers: parseHeaders(headers) };
  if (args.rest !== undefined) {
    if (args.rest.length === 0) throw new CliError('-- must be followed by the server command', { usage: true });
    return { kind: 'stdio', command: args.rest[0]!, args: args.rest.slice(1) };
  }
  return undefined;
}

export async function readLive(target: LiveTarget, args: ParsedArgs, ctx: Context) {
  const { captureServer } = await import('./live.js');
  const { echoedSecrets, targetRedactor } = await import('./redact.js');
  const timeout = flagNumber(args, 'timeout') ?? 30;
  if (timeout <= 0) throw new CliError('--timeout must be more than 0 seconds', { usage: true });
  const capture = await captureServer(target, { timeoutMs: Math.round(timeout * 1000), progress: ctx.progress, warn: (line) => ctx.io.stderr.write(`${ctx.name}: warning: ${line}\n`) });
  // The file `capture` writes is meant to be committed: a server that sends a secret of its command line or
  // URL back (a base URL with its token in `instructions`) would put it there unseen. The server's text is
  // kept as it came, so say where it is (names escaped and redacted; the secret itself never printed).
  const redact = targetRedactor(target);
  const places = echoedSecrets(capture, redact.secrets);
  if (places.length > 0) {
    ctx.io.stderr.write(
      `${ctx.name}: warning: the server sends back a secret given on its command line or URL (in ${oneLine(redact(places.join('; ')))}); every client of it gets the secret, and what toolslim writes from this read holds it as the server sent it: remove it before you commit or share that output\n`,
    );
  }
  return capture;
}

/** The input: its parsed value, a label for messages, and its text when it came from a file or stdin. */
export async function loadInput(args: ParsedArgs, ctx: Context): Promise<{ value: unknown; label: string; text?: string }> {
  const target = liveTarget(args);
  if (target) {
    if (args.positional.length > 0) throw new CliError(`give either an input file or a live server, not both (got ${JSON.stringify(args.positional[0])})`, { usage: true });
    const { describeTarget } = await import('./live.js');
    return { value: await readLive(target, args, ctx), label: describeTarget(target) };
  }
  if (flagNumber(args, 'timeout') !== undefined) throw new CliError('--timeout goes with a live server (-- <command> or --url)', { usage: true });
  const source = args.positional[0];
  if (source === undefined) throw new CliError('missing input: a file, - for stdin, -- <command> or --url <url>', { usage: true });
  if (args.positional.length > 1) throw new CliError(`one input at a time (got ${args.positional.map((p) => JSON.stringify(p)).join(', ')})`, { usage: true });
  return readSource(source === '-' ? { kind: 'stdin' } : { kind: 'file', path: source, label: source }, ctx);
}

/** One input of a command that takes several: its tools, or why it could not be read. */
export type LoadedInput = { readonly label: string; readonly value: unknown } | { readonly label: string; readonly error: string };

/**
 * The inputs of `check` and `report`: one live server, or files, directories and glob patterns (see
 * {@link expandSources}), read one at a time as they are iterated. A file that cannot be read or holds no
 * tools comes with its error, so the others are still checked; usage errors throw.
 */
export function openInputs(args: ParsedArgs, ctx: Context): { readonly count: number; readonly inputs: AsyncIterable<LoadedInput> } {
  if (liveTarget(args) !== undefined || args.positional.length === 0) {
    return {
      count: 1,
      inputs: (async function* () {
        yield await loadInput(args, ctx);
      })(),
    };
  }
  if (flagNumber(args, 'timeout') !== undefined) throw new CliError('--timeout goes with a live server (-- <command> or --url)', { usage: true });
  const sources = expandSources(args.positional, ctx.io.cwd ?? process.cwd());
  return {
    count: sources.length,
    inputs: (async function* () {
      for (const source of sources) {
        try {
          yield await readSource(source, ctx);
        } catch (e) {
          if (!(e instanceof CliError) || e.usage) throw e;
          yield { label: source.kind === 'stdin' ? '<stdin>' : source.label, error: e.message };
        }
      }
    })(),
  };
}

async function readSource(source: Source, ctx: Context): Promise<{ value: unknown; label: string; text: string }> {
  const label = source.kind === 'stdin' ? '<stdin>' : source.label;
  let text: string;
  try {
    // A file is read in one call, not streamed: `fs/promises` `readFile` with an encoding decodes chunk by chunk
    // into a string of pieces that is copied flat again when parsed: on the 52 MB list of bench/check-scale.ts,
    // reading and parsing peaked at 347 MB of RSS that way and at 243 MB this way, for the same CPU.
    text = source.kind === 'stdin' ? await readInputStream(ctx.io.stdin) : readInputFile(source.path);
  } catch (e) {
    const code = (e as { code?: string }).code;
    throw new CliError(code === 'ENOENT' ? `${label}: no such file` : code === 'EISDIR' ? `${label}: is a directory` : `${label}: ${(e as Error).message}`);
  }
  const value = parseJsonText(text, label);
  try {
    locateTools(value);
  } catch (e) {
    if (e instanceof ToolslimError) throw new CliError(`${label}: ${e.message}`);
    throw e;
  }
  return { value, label, text };
}

// Writing outputs lives in output.ts (atomic writes, the input's layout); re-exported for the commands.
export { outputJson, writeFileOrFail, writeOutput } from './output.js';

export function stepsFrom(args: ParsedArgs): TransformStepInput[] {
  const profile = flagString(args, 'profile');
  const steps = baseSteps(args);
  const noLossy = args.flags['no-lossy'] === true;
  const keepNames = args.flags['keep-names'] === true;
  if (profile === undefined && (noLossy || keepNames)) throw new CliError(`--${noLossy ? 'no-lossy' : 'keep-names'} goes with --profile <client>`, { usage: true });
  if (profile === undefined) return steps;
  checkProfileName(profile);
  const transforms = (args.flags.transform as readonly string[] | undefined) ?? [];
  // A preset alone is tuned for the client (no ref-creating steps for ref-free clients, …) then adapted.
  if (transforms.length === 0) return presetForProfile(flagString(args, 'preset') ?? 'safe', profile, { ...(noLossy ? { lossy: false } : {}), ...(keepNames ? { renameTools: false } : {}) });
  return [...steps, ['adapt-to-client', { profile }]];
}

/**
 * What a client profile would reject, as check findings. `optimized`: `value` is toolslim's own output for
 * the profile (optimize's, the proxy's), so the hints say why it was left rather than name the command that
 * has just run.
 */
export function profileFindings(value: unknown, profile: string, optimized = false): Finding[] {
  checkProfileName(profile);
  return (optimized ? checkOptimizedForProfile : checkToolsForProfile)(value, profile).map((f) => ({ ...f, code: `profile-${f.code}` }));
}

export function checkProfileName(profile: string): void {
  if (!builtinProfiles.some((p) => p.name === profile)) {
    throw new CliError(`unknown profile \`${profile}\` (known: ${builtinProfiles.map((p) => p.name).join(', ')})`, { usage: true });
  }
}

export function baseSteps(args: ParsedArgs): TransformStepInput[] {
  const preset = flagString(args, 'preset');
  const transforms = (args.flags.transform as readonly string[] | undefined) ?? [];
  if (transforms.length === 0) return [preset ?? 'safe'];
  const steps: TransformStepInput[] = preset ? [preset] : [];
  for (const spec of transforms) {
    const eq = spec.indexOf('=');
    if (eq === -1) {
      steps.push(spec);
      continue;
    }
    let options: unknown;
    try {
      options = JSON.parse(spec.slice(eq + 1));
    } catch (e) {
      throw new CliError(`--transform ${spec}: the options after = are not JSON (${(e as Error).message})`, { usage: true });
    }
    if (typeof options !== 'object' || options === null || Array.isArray(options)) throw new CliError(`--transform ${spec}: the options after = must be a JSON object`, { usage: true });
    steps.push([spec.slice(0, eq), options]);
  }
  return steps;
}

export function describeSteps(args: ParsedArgs): string {
  const preset = flagString(args, 'preset');
  const profile = flagString(args, 'profile');
  const transforms = (args.flags.transform as readonly string[] | undefined) ?? [];
  // With a profile the steps are presetForProfile's plan (which may add steps for the reader and leave some out).
  const tail = profile ? ` for ${profile} (presetForProfile${args.flags['no-lossy'] === true ? ', no lossy steps' : args.flags['keep-names'] === true ? ', names kept' : ''})` : '';
  if (transforms.length === 0) return `preset ${preset ?? 'safe'}${tail}`;
  const names = transforms.map((t) => (t.includes('=') ? t.slice(0, t.indexOf('=')) : t));
  return [...(preset ? [`preset ${preset}`] : []), ...names].join(' + ') + tail;
}

export function budgetOptions(args: ParsedArgs): LintOptions {
  const pick = (flag: string) => flagNumber(args, flag);
  const out: Record<string, number> = {};
  const map: Record<string, string> = { 'max-bytes': 'maxBytes', 'max-tool-bytes': 'maxToolBytes', 'max-tokens': 'maxTokens', 'max-tool-tokens': 'maxToolTokens', 'max-arguments': 'maxArguments' };
  for (const [flag, key] of Object.entries(map)) {
    const v = pick(flag);
    if (v !== undefined) out[key] = v;
  }
  return out;
}

export function parseHeaders(lines: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw new CliError(`--header ${JSON.stringify(line)}: expected "Name: value"`, { usage: true });
    out[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return out;
}

export function flagString(args: ParsedArgs, name: string): string | undefined {
  const v = args.flags[name];
  return typeof v === 'string' ? v : undefined;
}

export function flagNumber(args: ParsedArgs, name: string): number | undefined {
  const v = args.flags[name];
  return typeof v === 'number' ? v : undefined;
}

export function countTools(capture: { toolsList: unknown }): number {
  const list = capture.toolsList as { tools?: unknown[] } | undefined;
  return Array.isArray(list?.tools) ? list.tools.length : 0;
}

