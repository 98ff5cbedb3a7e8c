/**
 * Command-line arguments: `node:util` `parseArgs` does the splitting (`--name value`, `--name=value`,
 * `-o value`, short groups, `--` then a command); this thin layer adds what it lacks — value types
 * (non-negative numbers), allowed values, "given twice" for single flags — and messages that say what to
 * fix. It parses non-strictly and checks each token itself, so every error names the flag as typed.
 */
import { editDistance } from '../core/edit-distance.js';
import { parseArgs as parseNodeArgs, type ParseArgsConfig } from 'node:util';
import { CliError } from './errors.js';

/** One option a command accepts. */
export interface FlagSpec {
  /** Long name without dashes (`max-bytes`). */
  readonly name: string;
  /** One-letter alias without the dash (`o`). */
  readonly short?: string;
  /** `boolean` flags take no value; `number` values must be non-negative numbers. */
  readonly type: 'boolean' | 'string' | 'number';
  /** May be given more than once (values are collected in order). */
  readonly repeat?: boolean;
  /** Allowed values of a string flag. */
  readonly choices?: readonly string[];
  /** The value when the flag is given without one (at the end, or before another option or `--`). */
  readonly optionalValue?: string;
}

/** What the parser found. */
export interface ParsedArgs {
  readonly flags: Readonly<Record<string, string | number | boolean | readonly string[]>>;
  readonly positional: readonly string[];
  /** The words after `--` (a server command), or undefined when there is no `--`. */
  readonly rest: readonly string[] | undefined;
}

/** Parses `argv` against `specs`: `--name value`, `--name=value`, `-o value`, `--` then a command. */
export function parseArgs(argv: readonly string[], specs: readonly FlagSpec[]): ParsedArgs {
  const options: NonNullable<ParseArgsConfig['options']> = {};
  for (const spec of specs) {
    options[spec.name] = { type: spec.type === 'boolean' ? 'boolean' : 'string', ...(spec.short !== undefined ? { short: spec.short } : {}), ...(spec.repeat ? { multiple: true } : {}) };
  }
  const { tokens } = parseNodeArgs({ args: withOptionalValues(argv, specs), options, strict: false, allowPositionals: true, tokens: true });
  const byName = new Map(specs.map((s) => [s.name, s]));
  const flags: Record<string, string | number | boolean | string[]> = {};
  const positional: string[] = [];
  let rest: string[] | undefined;
  for (const token of tokens) {
    if (token.kind === 'option-terminator') {
      rest = argv.slice(token.index + 1);
      break;
    }
    if (token.kind === 'positional') {
      positional.push(token.value);
      continue;
    }
    const spec = byName.get(token.name);
    // Non-strict parsing keeps unknown options as tokens (an unknown short one named by its letter).
    if (!spec || (!token.rawName.startsWith('--') && spec.short === undefined)) {
      // A long option one or two edits from a known one is most likely that one misspelt (as eslint and git say).
      const near = token.rawName.startsWith('--') ? specs.map((s) => s.name).find((n) => editDistance(n, token.name) <= 2) : undefined;
      throw new CliError(`unknown option ${token.rawName}${near !== undefined ? ` (did you mean --${near}?)` : ''}`, { usage: true });
    }
    const name = spec.name;
    let value: string | number | boolean;
    if (spec.type === 'boolean') {
      if (token.inlineValue) throw new CliError(`--${name} takes no value`, { usage: true });
      value = true;
    } else {
      const raw = token.value;
      if (raw === undefined) throw new CliError(`--${name} needs a value`, { usage: true });
      // `--overlay -- server`: the parser takes `--` as the value; it starts the server command instead.
      if (raw === '--' && token.inlineValue !== true) throw new CliError(`--${name} needs a value before \`--\` (which starts the server command), e.g. --${name} out.json -- <command>`, { usage: true });
      if (spec.choices && !spec.choices.includes(raw)) throw new CliError(`--${name} must be one of ${spec.choices.join(', ')} (got ${JSON.stringify(raw)})`, { usage: true });
      if (spec.type === 'number') {
        const n = Number(raw);
        if (raw.trim() === '' || !Number.isFinite(n) || n < 0) throw new CliError(`--${name} must be a non-negative number (got ${JSON.stringify(raw)})`, { usage: true });
        value = n;
      } else value = raw;
    }
    if (spec.repeat) ((flags[name] ??= []) as string[]).push(String(value));
    else if (Object.prototype.hasOwnProperty.call(flags, name)) throw new CliError(`--${name} given twice`, { usage: true });
    else flags[name] = value;
  }
  return { flags, positional, rest };
}

/**
 * `argv` with each flag that has an `optionalValue` and is given bare (at the end, or before another
 * option or `--`) written as `--name=<optionalValue>`, so the parser does not take the next word as its
 * value. One word for one, so token positions still index `argv`.
 */
function withOptionalValues(argv: readonly string[], specs: readonly FlagSpec[]): string[] {
  const out = [...argv];
  const optional = specs.filter((s) => s.optionalValue !== undefined);
  if (optional.length === 0) return out;
  for (let i = 0; i < out.length; i++) {
    const a = out[i]!;
    if (a === '--') break;
    const spec = optional.find((s) => a === `--${s.name}` || (s.short !== undefined && a === `-${s.short}`));
    if (!spec) continue;
    const next = out[i + 1];
    if (next === undefined || next.startsWith('-')) out[i] = `--${spec.name}=${spec.optionalValue}`;
  }
  return out;
}
