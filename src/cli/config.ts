/**
 * The settings `check` and `report` read before their flags: `toolslim.config.json`, or else the
 * `toolslim` key of a `package.json`, in the input's directory or the nearest directory above it that has
 * one (found with lilconfig, as eslint and prettier find theirs), else from the working directory up; or the file given with `--config`.
 * Flags win over the file. Every key is validated against the shipped `toolslim.config.schema.json`
 * (editors can use it too), and an error names the file and the key.
 */
import { readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { lilconfigSync } from 'lilconfig';
import type { Severity } from '../core/report.js';
import { CliError } from './errors.js';
import { parseJsonText } from './json.js';
import { CONFIG_SCHEMA } from './config-schema.js';

/** What a config file may set (all optional). */
export interface CliConfig {
  /** Severity per finding code, or `off` (as `--rule code=severity`). */
  readonly rules?: Readonly<Record<string, Severity | 'off'>>;
  readonly collisionThreshold?: number;
  readonly collisionPartners?: number;
  readonly maxBytes?: number;
  readonly maxToolBytes?: number;
  readonly maxTokens?: number;
  readonly maxToolTokens?: number;
  readonly maxArguments?: number;
  /** `check` only. */
  readonly failOn?: Severity;
  /** `check` only. */
  readonly maxWarnings?: number;
  /** `check` only: also check against this client profile. */
  readonly profile?: string;
}

/** Where a config came from, for messages. */
export interface LoadedConfig {
  readonly config: CliConfig;
  /** The file's path as found (`sub/toolslim.config.json`, `../package.json#toolslim`) or the `--config` path. */
  readonly source: string;
}

export const CONFIG_FILE = 'toolslim.config.json';
const SEVERITY_VALUES = ['error', 'warning', 'info', 'off'] as const;
const NUMBER_KEYS = ['maxBytes', 'maxToolBytes', 'maxTokens', 'maxToolTokens', 'maxArguments', 'maxWarnings', 'collisionPartners'] as const;
/** The keys `toolslim.config.schema.json` allows: the one list of them. */
const KNOWN_KEYS: readonly string[] = Object.keys(CONFIG_SCHEMA.properties);
/** The client profiles `profile` may name (the schema's enum; a test keeps it equal to the built-in profiles). */
const PROFILE_NAMES: readonly string[] = CONFIG_SCHEMA.properties.profile.enum;

/**
 * Reads the config for a run in `cwd`: `explicit` (a `--config` path) if given, else the nearest
 * `toolslim.config.json` or `package.json` with a `toolslim` key, searched from `from` (the first input's
 * directory; default `cwd`) upward, then from `cwd` upward; undefined when there is none.
 */
export function loadConfig(cwd: string, explicit?: string, from?: string): LoadedConfig | undefined {
  if (explicit !== undefined) {
    const path = isAbsolute(explicit) ? explicit : join(cwd, explicit);
    const text = readText(path, explicit);
    if (text === undefined) throw new CliError(`--config ${explicit}: no such file`);
    return { config: validateConfig(parseJsonText(text, explicit), explicit), source: explicit };
  }
  const start = from === undefined ? cwd : resolve(cwd, from);
  const explorer = lilconfigSync('toolslim', {
    searchPlaces: [CONFIG_FILE, 'package.json'],
    packageProp: 'toolslim',
    loaders: {
      '.json': (path: string, text: string) => {
        if (!path.endsWith('package.json')) return parseJsonText(text, label(cwd, path));
        try {
          return JSON.parse(text.replace(/^\uFEFF/, '')) as unknown;
        } catch {
          return {}; // not ours to judge: npm reports a broken package.json
        }
      },
    },
  });
  let found: { config: unknown; filepath: string } | null;
  try {
    found = explorer.search(start);
    // Then the working directory, for inputs outside the project the command runs in.
    if (found === null && start !== resolve(cwd)) found = explorer.search(resolve(cwd));
  } catch (e) {
    if (e instanceof CliError) throw e;
    throw new CliError(`reading the config: ${(e as Error).message}`);
  }
  if (found === null) return undefined;
  const source = found.filepath.endsWith('package.json') ? `${label(cwd, found.filepath)}#toolslim` : label(cwd, found.filepath);
  return { config: validateConfig(found.config, source), source };
}

/** Where to search a run's config from: the first input's directory (a directory input itself), else undefined. */
export function configSearchStart(cwd: string, inputs: readonly string[]): string | undefined {
  const first = inputs.find((p) => p !== '-' && !/[*?[{]/.test(p));
  if (first === undefined) return undefined;
  const path = resolve(cwd, first);
  try {
    return statSync(path).isDirectory() ? path : dirname(path);
  } catch {
    return dirname(path);
  }
}

/** A path for messages: relative to `cwd` when under it (`toolslim.config.json`, `sub/package.json`). */
function label(cwd: string, path: string): string {
  const base = resolve(cwd);
  return path.startsWith(base + '/') ? path.slice(base.length + 1) : path;
}

/** Checks a parsed config object; throws a {@link CliError} naming `source` and the key. */
export function validateConfig(value: unknown, source: string): CliConfig {
  const fail = (message: string): never => {
    throw new CliError(`${source}: ${message}`);
  };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(`expected an object of settings, got ${describe(value)}`);
  const obj = value as Record<string, unknown>;
  for (const key of Object.keys(obj)) {
    if (!KNOWN_KEYS.includes(key)) fail(`unknown key \`${key}\` (known: ${KNOWN_KEYS.join(', ')}; see toolslim.config.schema.json)`);
  }
  for (const key of NUMBER_KEYS) {
    if (!Object.prototype.hasOwnProperty.call(obj, key)) continue;
    const v = obj[key];
    const integer = key === 'maxWarnings' || key === 'collisionPartners' || key === 'maxArguments';
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || (integer && !Number.isInteger(v)) || (key === 'collisionPartners' && v < 1)) {
      fail(`\`${key}\` must be a ${key === 'collisionPartners' ? 'positive integer' : integer ? 'non-negative integer' : 'non-negative number'}, got ${JSON.stringify(v) ?? describe(v)}`);
    }
  }
  if (Object.prototype.hasOwnProperty.call(obj, 'collisionThreshold')) {
    const v = obj.collisionThreshold;
    if (typeof v !== 'number' || !(v >= 0 && v <= 1)) fail(`\`collisionThreshold\` must be a number in [0, 1], got ${JSON.stringify(v) ?? describe(v)}`);
  }
  if (Object.prototype.hasOwnProperty.call(obj, 'failOn') && !['error', 'warning', 'info'].includes(obj.failOn as string)) {
    fail(`\`failOn\` must be error, warning or info, got ${JSON.stringify(obj.failOn) ?? describe(obj.failOn)}`);
  }
  if (Object.prototype.hasOwnProperty.call(obj, '$schema') && typeof obj.$schema !== 'string') fail(`\`$schema\` must be a string, got ${describe(obj.$schema)}`);
  if (Object.prototype.hasOwnProperty.call(obj, 'profile') && typeof obj.profile !== 'string') fail(`\`profile\` must be a string, got ${describe(obj.profile)}`);
  // Named here, with the file and the key: found later, an unknown name reads as if --profile had been given.
  if (typeof obj.profile === 'string' && !PROFILE_NAMES.includes(obj.profile)) fail(`\`profile\` must be one of ${PROFILE_NAMES.join(', ')}, got ${JSON.stringify(obj.profile)}`);
  if (Object.prototype.hasOwnProperty.call(obj, 'rules')) {
    const rules = obj.rules;
    if (typeof rules !== 'object' || rules === null || Array.isArray(rules)) fail(`\`rules\` must be an object of code: severity, got ${describe(rules)}`);
    for (const [code, severity] of Object.entries(rules as Record<string, unknown>)) {
      if (!(SEVERITY_VALUES as readonly unknown[]).includes(severity)) fail(`\`rules.${code}\` must be one of ${SEVERITY_VALUES.join(', ')}, got ${JSON.stringify(severity) ?? describe(severity)}`);
    }
  }
  return obj as CliConfig;
}

function readText(path: string, label: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === 'ENOENT') return undefined;
    throw new CliError(`${label}: ${code === 'EISDIR' ? 'is a directory' : (e as Error).message}`);
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
