import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const CORPUS_DIR = join(import.meta.dirname, '..', '..', 'bench', 'corpus');

export interface CorpusFile {
  readonly file: string;
  readonly data: { server: { package: string; version: string }; toolsList: { tools: Record<string, unknown>[] } };
}

/** The validation set (issue 31): real servers the engine is not tuned on, read by the bench and the gate's oracle. */
export const VALIDATION_DIR = join(import.meta.dirname, '..', '..', 'bench', 'validation');

/** Every bundled corpus capture (or, given `dir`, every capture there), sorted by file name. */
export function loadCorpus(dir = CORPUS_DIR): CorpusFile[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => ({ file, data: JSON.parse(readFileSync(join(dir, file), 'utf8')) }));
}
