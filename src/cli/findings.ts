/**
 * What `check` and `report` share about findings: the flags that tune the rules (`--rule`,
 * `--collision-threshold`, budgets, `--config`), merged over the config file (flags win), and the order
 * findings are shown in.
 */
import type { Severity } from '../core/report.js';
import { oneLine } from '../core/safe-text.js';
import { FINDING_SEVERITY, isKnownFindingCode, lintTools, PROFILE_RULE_CODES, SEVERITIES, type Finding, type LintOptions } from '../lint/index.js';
import type { FlagSpec, ParsedArgs } from './args.js';
import type { Context } from './command.js';
import { configSearchStart, loadConfig, type CliConfig } from './config.js';
import { CliError } from './errors.js';
import { budgetOptions, flagNumber, flagString, profileFindings } from './inputs.js';

export const RULE_FLAGS: readonly FlagSpec[] = [
  { name: 'rule', type: 'string', repeat: true },
  { name: 'collision-threshold', type: 'number' },
  { name: 'config', type: 'string' },
];

export const RULE_HELP = `  --rule <code>=<severity>  set a finding's severity: off, info, warning or error (repeatable;
                            e.g. --rule description-collision=off --rule missing-param-description=warning)
  --collision-threshold <x> tools whose name+description similarity to another is above x (0–1,
                            default 0.30) get a description-collision finding
  --config <file>           settings file (default: the nearest toolslim.config.json, or package.json
                            with a "toolslim" key, in the input's directory or above); flags win over it`;

/** Everything that decides which findings a run produces and how they count. */
export interface FindingSettings {
  /** For `lintTools` (no tokenizer yet: the command adds one when a token budget needs it). */
  readonly lint: LintOptions;
  /** Severity overrides (config rules, then `--rule`), also applied to profile findings. */
  readonly rules: Readonly<Record<string, Severity | 'off'>>;
  /** `--profile` or the config's `profile` (check only). */
  readonly profile: string | undefined;
  readonly failOn: Severity;
  readonly maxWarnings: number | undefined;
  /** Where settings came from besides the flags, for messages (`toolslim.config.json`). */
  readonly configSource: string | undefined;
}

/** What {@link configSeverities} found: the severities, and a note on what of the config it could not use. */
export interface ConfigSeverities {
  /** `rules` of the config, less the codes no check reports; undefined without a config or `rules`. */
  readonly severities: Record<string, Severity | 'off'> | undefined;
  /** One line for stderr when the config names unknown codes or cannot be read; undefined otherwise. */
  readonly note: string | undefined;
}

/**
 * The severities the configuration file `check` would find for a file in `dir` sets (`rules`), for commands
 * that summarize what `check` would find without taking its options (`optimize`): undefined without one.
 * A code no check reports, or a config that cannot be read, does not stop the command (its job is not to
 * validate the config) but is named in `note`, since `check` refuses it: before, `optimize` skipped it without
 * a word and the first the user heard of it was `check` failing.
 */
export function configSeverities(ctx: Context, files: readonly string[]): ConfigSeverities {
  const cwd = ctx.io.cwd ?? process.cwd();
  let loaded: ReturnType<typeof loadConfig>;
  try {
    loaded = loadConfig(cwd, undefined, configSearchStart(cwd, files));
  } catch (e) {
    return { severities: undefined, note: `note: ${oneLine((e as Error).message)}; the config was not used here, and toolslim check will refuse it` };
  }
  const rules = loaded?.config.rules;
  if (rules === undefined) return { severities: undefined, note: undefined };
  const severities: Record<string, Severity | 'off'> = {};
  const unknown: string[] = [];
  for (const [code, severity] of Object.entries(rules)) {
    if (isKnownFindingCode(code)) severities[code] = severity;
    else unknown.push(code);
  }
  const names = unknown.map((c) => `\`${oneLine(c)}\``).join(', ');
  const note = unknown.length === 0 ? undefined : `note: ${oneLine(loaded!.source)}: \`rules\` names ${unknown.length === 1 ? 'a code' : 'codes'} no check reports (${names}): ignored here, and toolslim check will refuse ${unknown.length === 1 ? 'it' : 'them'}`;
  return { severities, note };
}

/** The settings of one run: the config file (if any) under the flags. */
export function findingSettings(args: ParsedArgs, ctx: Context, command: 'check' | 'report'): FindingSettings {
  const cwd = ctx.io.cwd ?? process.cwd();
  const loaded = loadConfig(cwd, flagString(args, 'config'), args.rest === undefined ? configSearchStart(cwd, args.positional) : undefined);
  const config: CliConfig = loaded?.config ?? {};
  const source = loaded?.source ?? 'config';
  const rules: Record<string, Severity | 'off'> = {};
  for (const [code, severity] of Object.entries(config.rules ?? {})) {
    checkRuleCode(code, `${source}: \`rules.${code}\``);
    rules[code] = severity;
  }
  for (const spec of (args.flags.rule as readonly string[] | undefined) ?? []) {
    const eq = spec.lastIndexOf('=');
    if (eq <= 0) throw new CliError(`--rule ${spec}: expected <code>=<severity>, e.g. description-collision=off`, { usage: true });
    const code = spec.slice(0, eq);
    const severity = spec.slice(eq + 1);
    checkRuleCode(code, `--rule ${spec}`);
    if (severity !== 'off' && !(SEVERITIES as readonly string[]).includes(severity)) throw new CliError(`--rule ${spec}: the severity must be off, info, warning or error`, { usage: true });
    rules[code] = severity as Severity | 'off';
  }
  const threshold = flagNumber(args, 'collision-threshold') ?? config.collisionThreshold;
  if (threshold !== undefined && threshold > 1) throw new CliError(`--collision-threshold must be between 0 and 1 (got ${threshold})`, { usage: true });
  const fromConfig: Record<string, number> = {};
  for (const key of ['maxBytes', 'maxToolBytes', 'maxTokens', 'maxToolTokens', 'maxArguments', 'collisionPartners'] as const) {
    if (config[key] !== undefined) fromConfig[key] = config[key]!;
  }
  const lint: LintOptions = {
    ...fromConfig,
    ...budgetOptions(args),
    ...(threshold !== undefined ? { collisionThreshold: threshold } : {}),
    ...(Object.keys(rules).length > 0 ? { severity: rules } : {}),
  };
  const maxWarnings = flagNumber(args, 'max-warnings') ?? (command === 'check' ? config.maxWarnings : undefined);
  if (maxWarnings !== undefined && !Number.isInteger(maxWarnings)) throw new CliError(`--max-warnings must be a whole number (got ${maxWarnings})`, { usage: true });
  return {
    lint,
    rules,
    profile: flagString(args, 'profile') ?? (command === 'check' ? config.profile : undefined),
    failOn: (flagString(args, 'fail-on') as Severity | undefined) ?? (command === 'check' ? config.failOn : undefined) ?? 'error',
    maxWarnings,
    configSource: loaded?.source,
  };
}

/**
 * The findings of one input, most severe first: `lintTools` with `lint`, then (with a profile) what that
 * client would reject, under the same severity overrides. The one code path of `check` and of the
 * findings `report` lists, so that `report --profile P` lists exactly what `check --profile P` does.
 */
export function findingsOf(value: unknown, settings: Pick<FindingSettings, 'profile' | 'rules'>, lint: LintOptions): Finding[] {
  return bySeverity([...lintTools(value, lint), ...(settings.profile ? applyRules(profileFindings(value, settings.profile), settings.rules) : [])]);
}

/** Applies severity overrides to findings made outside `lintTools` (client profiles). */
export function applyRules(findings: readonly Finding[], rules: Readonly<Record<string, Severity | 'off'>>): Finding[] {
  const out: Finding[] = [];
  for (const f of findings) {
    const o = Object.prototype.hasOwnProperty.call(rules, f.code) ? rules[f.code] : undefined;
    if (o === 'off') continue;
    out.push(o === undefined ? f : { ...f, severity: o });
  }
  return out;
}

/** Most severe first; within a severity, the order they were found in (tool order, list findings last). */
export function bySeverity(findings: readonly Finding[]): Finding[] {
  const rank = (s: Severity) => SEVERITIES.indexOf(s);
  return findings
    .map((f, i) => [f, i] as const)
    .sort((a, b) => rank(a[0].severity) - rank(b[0].severity) || a[1] - b[1])
    .map(([f]) => f);
}

/** Counts by severity. */
export function countBySeverity(findings: readonly Finding[]): Record<Severity, number> {
  const counts = { error: 0, warning: 0, info: 0 };
  for (const f of findings) counts[f.severity]++;
  return counts;
}

/** Refuses a rule no check reports, naming where it came from; a `profile-…` one is checked against the profile checker's codes. */
function checkRuleCode(code: string, where: string): void {
  if (isKnownFindingCode(code)) return;
  if (code.startsWith('profile-')) throw new CliError(`${where}: unknown rule \`${code}\` (known for --profile findings: ${PROFILE_RULE_CODES.join(', ')})`, { usage: true });
  const known = Object.keys(FINDING_SEVERITY).join(', ');
  throw new CliError(`${where}: unknown rule \`${code}\` (known: ${known}, and profile-… for --profile findings)`, { usage: true });
}
