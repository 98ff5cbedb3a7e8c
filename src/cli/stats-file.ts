/**
 * `proxy --stats FILE`: the file the stats lines are appended to. A stats file is recognised by its
 * lines — each one JSON object of the stats shape (`{"v":1,"tool":…,"requestBytes":…}`, the format
 * `toolslim report --responses` reads) — so the proxy appends only to a missing or empty file or to one
 * whose first line is a stats line; anything else (a capture JSON, a config, a log) is refused before it
 * is touched, and so is a path that is not a regular file (a FIFO would block the start).
 */
import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import { ToolslimError } from '../core/errors.js';
import { checkRegularFile } from '../session/file-io.js';
import { parseStatsLines } from '../session/stats.js';
import { CliError } from './errors.js';

/** A stats line is far below this; a first line without its end within it is not a stats line. */
const FIRST_LINE_MAX = 64 * 1024;

/** Checks `file` and opens it for appending; returns the function that appends one line. */
export function openStatsFile(file: string): (line: string) => void {
  const flag = `--stats ${file}`;
  let exists: boolean;
  try {
    exists = checkRegularFile(file, flag);
  } catch (e) {
    throw new CliError((e as Error).message);
  }
  let fd: number;
  try {
    fd = openSync(file, 'a+');
  } catch (e) {
    throw new CliError(`${flag}: cannot open it for appending: ${(e as Error).message}`);
  }
  if (exists) {
    const why = notStats(fd, file);
    if (why !== undefined) {
      closeSync(fd);
      throw new CliError(`${flag} is not a stats file (${why}); the proxy appends only to a stats file (one JSON line per tools/call, as it writes them) or a new one: give another path`);
    }
  }
  // One write per line, to a file opened for appending: lines of two proxies never interleave.
  return (line) => void writeSync(fd, line + '\n');
}

/** Why the open file is not a stats file, or undefined when it is one (or empty). */
function notStats(fd: number, file: string): string | undefined {
  const buf = Buffer.alloc(FIRST_LINE_MAX);
  const n = readSync(fd, buf, 0, buf.length, 0);
  const head = buf.subarray(0, n).toString('utf8');
  if (head.trim() === '') return n === 0 ? undefined : 'it holds only blanks';
  const nl = head.indexOf('\n');
  if (nl === -1) return n === FIRST_LINE_MAX ? `its first line is longer than ${FIRST_LINE_MAX} bytes` : 'its first line has no end';
  const first = head.slice(0, nl);
  if (first.trim() === '') return 'its first line is blank';
  try {
    parseStatsLines(first, file);
  } catch (e) {
    if (e instanceof ToolslimError) return `first line: ${e.message.replace(`${file}:1: `, '')}`;
    throw e;
  }
  return undefined;
}
