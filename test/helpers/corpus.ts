import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const CORPUS_DIR = join(import.meta.dirname, '..', '..', 'bench', 'corpus');

export interface CorpusFile {
  readonly file: string;
  readonly data: { server: { package: string; version: string }; toolsList: { tools: Record<string, unknown>[] } };
}

/** Every bundled corpus capture, sorted by file name. */
export function loadCorpus(): CorpusFile[] {
  return readdirSync(CORPUS_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => ({ file, data: JSON.parse(readFileSync(join(CORPUS_DIR, file), 'utf8')) }));
}
