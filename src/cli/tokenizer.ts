/**
 * The tokenizer, loaded when a command counts tokens. `gpt-tokenizer` (30 MB installed) is an optional
 * peer dependency, so a server that only uses the hook does not install it; a command that needs it and
 * finds it missing says what to install.
 */
import { CliError } from './errors.js';

export type Tokenizers = typeof import('../tokens.js');

/** The npm command that installs the tokenizer toolslim is built against. */
export const INSTALL_TOKENIZER = 'npm install gpt-tokenizer@^4';

/**
 * `toolslim/tokens`, or a {@link CliError} naming the package to install when `gpt-tokenizer` is missing.
 * `why` says what needs the counts (`report counts tokens`); `instead` what runs without them.
 */
export async function loadTokenizers(why: string, instead: string, load: () => Promise<Tokenizers> = () => import('../tokens.js')): Promise<Tokenizers> {
  try {
    return await load();
  } catch (e) {
    if (!isMissingTokenizer(e)) throw e;
    throw new CliError(`${why} with gpt-tokenizer, which is not installed (an optional peer dependency of toolslim): run \`${INSTALL_TOKENIZER}\` in this project, or ${instead}`);
  }
}

function isMissingTokenizer(e: unknown): boolean {
  const code = (e as { code?: unknown } | undefined)?.code;
  return (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && /gpt-tokenizer/.test(String((e as Error).message));
}
