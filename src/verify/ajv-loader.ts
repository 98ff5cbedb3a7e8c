/**
 * ajv, loaded the first time the gate compiles something, so that importing toolslim (and any run with
 * `verify: false`, or with nothing changed) costs no ajv at all. The gate is synchronous, so the
 * classes are `require`d, through `process.getBuiltinModule('module').createRequire` (Node ≥ 20.16,
 * Deno, Bun; ESM and CommonJS), else the CommonJS module's own `require`. Elsewhere (ESM on Node
 * 20.0–20.15, browsers), hand them over once with {@link registerAjv}.
 */
import type { Ajv as AjvDraft07 } from 'ajv';
import type { Ajv2019 } from 'ajv/dist/2019.js';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { ToolslimError } from '../core/errors.js';

/**
 * The ajv classes the gate uses: draft-07 (also for draft-06), 2019-09 and 2020-12, and ajv's own
 * draft-04 class from the `ajv-draft-04` package (for draft-04 and OpenAPI 3.0 schemas; loaded only the
 * first time one is compiled).
 */
export interface AjvClasses {
  readonly Ajv: typeof AjvDraft07;
  readonly Ajv2019: typeof Ajv2019;
  readonly Ajv2020: typeof Ajv2020;
  /** The default export of `ajv-draft-04`; optional here, required once a draft-04 schema is compiled. */
  readonly AjvDraft04?: typeof AjvDraft07;
}

let loaded: AjvClasses | undefined;
let draft04: typeof AjvDraft07 | undefined;

/**
 * Hands toolslim the ajv classes, for runtimes where it cannot `require` them itself:
 * `registerAjv({ Ajv, Ajv2019, Ajv2020, AjvDraft04 })` with the classes imported from `ajv`,
 * `ajv/dist/2019`, `ajv/dist/2020` and (the default export of) `ajv-draft-04`.
 */
export function registerAjv(classes: AjvClasses): void {
  loaded = classes;
  draft04 = classes.AjvDraft04;
}

/** ajv's draft-04 class (`ajv-draft-04`), loaded the first time a draft-04 schema is compiled. */
export function loadAjvDraft04(): typeof AjvDraft07 {
  if (draft04) return draft04;
  const req = nodeRequire();
  if (!req) {
    throw new ToolslimError(
      'invalid-option',
      'the equivalence gate reads draft-04 schemas with ajv-draft-04, and this runtime cannot load it synchronously: pass `AjvDraft04` (the default export of `ajv-draft-04`) to `registerAjv`, or pass `verify: false`',
    );
  }
  const mod = req('ajv-draft-04') as Record<string, unknown> & (new (...args: never[]) => unknown);
  draft04 = ((mod as { default?: unknown }).default ?? mod) as typeof AjvDraft07;
  return draft04;
}

/** The ajv classes, loaded on first use. */
export function loadAjv(): AjvClasses {
  if (loaded) return loaded;
  const req = nodeRequire();
  if (!req) {
    throw new ToolslimError(
      'invalid-option',
      'the equivalence gate needs ajv, and this runtime cannot load it synchronously: call `registerAjv({ Ajv, Ajv2019, Ajv2020 })` once, or pass `verify: false`',
    );
  }
  const pick = <T>(mod: Record<string, unknown>, name: string): T => (mod[name] ?? mod.default) as T;
  loaded = {
    Ajv: pick(req('ajv') as Record<string, unknown>, 'Ajv'),
    Ajv2019: pick(req('ajv/dist/2019') as Record<string, unknown>, 'Ajv2019'),
    Ajv2020: pick(req('ajv/dist/2020') as Record<string, unknown>, 'Ajv2020'),
  };
  return loaded;
}

type Require = (id: string) => unknown;

function nodeRequire(): Require | undefined {
  // Not `typeof require`: bundlers replace a bare `require` with a shim that throws under ESM.
  const getBuiltin = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule;
  if (typeof getBuiltin === 'function') {
    const mod = getBuiltin('module') as { createRequire?: (from: string) => Require } | undefined;
    if (mod?.createRequire) return mod.createRequire(import.meta.url);
  }
  // CommonJS on a Node without getBuiltinModule: the module's own require.
  const cjs = typeof module === 'object' && module !== null ? (module as { require?: Require }).require : undefined;
  return typeof cjs === 'function' ? cjs.bind(module) : undefined;
}
