import { writeFileSync } from 'node:fs';
import { format } from 'node:util';

/** The lines a docs code block says it prints: each `// → text` comment, in order. */
export function expectedOutput(code: string): string[] {
  return code.split('\n').filter((l) => /^\s*\/\/ → /.test(l)).map((l) => l.replace(/^\s*\/\/ → /, ''));
}

/** Writes `code` to `file`, imports it, and returns what it printed with console.log, line by line. */
export async function runPrinting(file: string, code: string): Promise<string[]> {
  writeFileSync(file, code);
  const printed: string[] = [];
  const original = console.log;
  console.log = (...args: unknown[]) => void printed.push(...format(...args).split('\n'));
  try {
    await import(file);
  } finally {
    console.log = original;
  }
  return printed;
}
