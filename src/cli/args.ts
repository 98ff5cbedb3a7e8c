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
  const flags: Record<string, string | number | boolean | string[]> = {};
  const positional: string[] = [];
  let rest: string[] | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') {
      rest = argv.slice(i + 1);
      break;
    }
    if (a === '-' || !a.startsWith('-')) {
      positional.push(a);
      continue;
    }
    let name: string;
    let inline: string | undefined;
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      name = eq === -1 ? a.slice(2) : a.slice(2, eq);
      inline = eq === -1 ? undefined : a.slice(eq + 1);
    } else {
      const short = a.slice(1);
      const spec = specs.find((s) => s.short === short);
      if (!spec) throw new CliError(`unknown option ${a}`, { usage: true });
      name = spec.name;
    }
    const spec = specs.find((s) => s.name === name);
    if (!spec) throw new CliError(`unknown option --${name}`, { usage: true });
    let value: string | number | boolean;
    if (spec.type === 'boolean') {
      if (inline !== undefined) throw new CliError(`--${name} takes no value`, { usage: true });
      value = true;
    } else {
      const next = argv[i + 1];
      const raw = inline ?? (spec.optionalValue !== undefined && (next === undefined || next.startsWith('-')) ? spec.optionalValue : argv[++i]);
      if (raw === undefined) throw new CliError(`--${name} needs a value`, { usage: true });
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
