/** The capture files of one bench set (bench/corpus, bench/validation, or a folder given on the command line). */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { McpTool } from '../../src/index.js';

/** One capture: its file name, its path (readers that need the server's own text read it there) and its tools. */
export interface CaptureFile {
  readonly file: string;
  readonly path: string;
  readonly tools: McpTool[];
}

/** Every `*.json` capture in `dir`, by file name; a missing folder is an empty set. */
export function loadCaptures(dir: string): CaptureFile[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => {
      const data = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { toolsList?: { tools?: McpTool[] }; tools?: McpTool[] };
      return { file, path: join(dir, file), tools: data.toolsList?.tools ?? data.tools ?? [] };
    });
}
