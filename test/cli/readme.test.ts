/**
 * The README says what is so. Its claims are checked against the code they describe, not against a copy:
 * - the "Use it in CI" list names every finding code under the severity FINDING_SEVERITY gives it;
 * - every `npx toolslim …` command line (and the proxy's `args` in the client configuration) names a
 *   command and parses with that command's flags;
 * - the config file example is a config `check` accepts;
 * - every ```ts block type-checks against the sources (the names it uses from `toolslim`, as written).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { parseArgs } from '../../src/cli/args.js';
import type { Command } from '../../src/cli/command.js';
import { captureCommand } from '../../src/cli/commands/capture.js';
import { checkCommand } from '../../src/cli/commands/check.js';
import { optimizeCommand } from '../../src/cli/commands/optimize.js';
import { proxyCommand } from '../../src/cli/commands/proxy.js';
import { reportCommand } from '../../src/cli/commands/report.js';
import { validateConfig } from '../../src/cli/config.js';
import { FINDING_SEVERITY } from '../../src/lint/lint.js';

const ROOT = join(import.meta.dirname, '..', '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const COMMANDS: Readonly<Record<string, Command>> = { capture: captureCommand, check: checkCommand, optimize: optimizeCommand, proxy: proxyCommand, report: reportCommand };

function section(title: string): string {
  const start = README.indexOf(`\n## ${title}\n`);
  expect(start, `README has a "## ${title}" section`).toBeGreaterThan(-1);
  const end = README.indexOf('\n## ', start + 1);
  return README.slice(start, end === -1 ? undefined : end);
}

function fenced(markdown: string, lang: string): { code: string; line: number }[] {
  const out: { code: string; line: number }[] = [];
  const re = new RegExp('^```' + lang + '\\n([\\s\\S]*?)^```$', 'gm');
  for (let m = re.exec(markdown); m !== null; m = re.exec(markdown)) out.push({ code: m[1]!, line: markdown.slice(0, m.index).split('\n').length + 1 });
  return out;
}

/** Splits a shell line into words: '…' and "…" quoting, a `#` outside quotes starts a comment. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quote: string | undefined;
  for (const c of line) {
    if (quote) {
      if (c === quote) quote = undefined;
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      word ??= '';
    } else if (c === '#' && word === undefined) break;
    else if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else word = (word ?? '') + c;
  }
  if (word !== undefined) words.push(word);
  return words;
}

describe('README: Use it in CI', () => {
  const ci = section('Use it in CI');
  const parts = {
    error: ci.slice(ci.indexOf('Errors:'), ci.indexOf('Warnings:')),
    warning: ci.slice(ci.indexOf('Warnings:'), ci.indexOf('Info:')),
    info: ci.slice(ci.indexOf('Info:'), ci.indexOf('Findings come')),
  };

  it('lists errors, then warnings, then info', () => {
    expect(ci.indexOf('Errors:')).toBeGreaterThan(-1);
    expect(ci.indexOf('Errors:')).toBeLessThan(ci.indexOf('Warnings:'));
    expect(ci.indexOf('Warnings:')).toBeLessThan(ci.indexOf('Info:'));
    expect(ci.indexOf('Info:')).toBeLessThan(ci.indexOf('Findings come'));
  });

  it.each(Object.entries(FINDING_SEVERITY))('names `%s` under its severity (%s) and nowhere else', (code, severity) => {
    for (const [s, text] of Object.entries(parts)) expect(text.includes('`' + code + '`'), `\`${code}\` in the ${s} list`).toBe(s === severity);
  });

  it('the config example is a config check accepts', () => {
    const blocks = fenced(ci, 'json');
    expect(blocks).toHaveLength(1);
    const config = validateConfig(JSON.parse(blocks[0]!.code), 'README');
    expect(config.rules).toEqual({ 'missing-param-description': 'warning', 'description-collision': 'off' });
    expect(config.failOn).toBe('warning');
  });
});

describe('README: command lines', () => {
  const lines: { words: string[]; where: string }[] = [];
  for (const block of fenced(README, 'sh')) {
    block.code.split('\n').forEach((line, i) => {
      if (line.startsWith('npx toolslim ')) lines.push({ words: shellWords(line).slice(2), where: `line ${block.line + i}: ${line}` });
    });
  }
  for (const block of fenced(README, 'json')) {
    const value = JSON.parse(block.code) as { mcpServers?: Record<string, { args?: string[] }> };
    for (const [name, server] of Object.entries(value.mcpServers ?? {})) {
      const args = server.args ?? [];
      const at = args.indexOf('toolslim');
      if (at !== -1) lines.push({ words: args.slice(at + 1), where: `mcpServers.${name}` });
    }
  }

  it('finds the examples', () => expect(lines.length).toBeGreaterThanOrEqual(12));

  it.each(lines.map((l) => [l.where, l.words] as const))('%s parses', (_where, words) => {
    const command = COMMANDS[words[0]!];
    expect(command, `toolslim ${words[0]} is a command`).toBeDefined();
    expect(() => parseArgs(words.slice(1), command!.flags)).not.toThrow();
  });

  it('a line with a flag the command does not take fails (the check bites)', () => {
    expect(() => parseArgs(shellWords('tools.json --max-tokenz 3'), checkCommand.flags)).toThrow(/unknown option --max-tokenz/);
  });
});

describe('README: TypeScript examples', () => {
  it('every ts block type-checks against the sources', async () => {
    const blocks = fenced(README, 'ts');
    expect(blocks.length).toBeGreaterThanOrEqual(8);
    // Names a block uses without importing them come from the block before (the README reads as one
    // session): import them from the entry point that exports them.
    const entries: Record<string, string[]> = {
      toolslim: Object.keys(await import('../../src/index.js')),
      'toolslim/mcp': Object.keys(await import('../../src/sdk/index.js')),
      'toolslim/tokens': Object.keys(await import('../../src/tokens.js')),
    };
    const files = new Map<string, string>();
    // What the README's blocks take as given: the user's tools, an SDK server and client, a test runner.
    files.set(
      join(ROOT, 'test', 'readme-given.d.ts'),
      [
        "declare const myTools: import('../src/index.js').McpTool[];",
        "declare const server: import('@modelcontextprotocol/sdk/server/mcp.js').McpServer;",
        "declare const client: import('@modelcontextprotocol/sdk/client/index.js').Client;",
        'declare function it(name: string, body: () => void): void;',
      ].join('\n'),
    );
    blocks.forEach((block, i) => {
      const imported = new Set([...block.code.matchAll(/import\s*\{([^}]*)\}/g)].flatMap((m) => m[1]!.split(',').map((s) => s.trim())));
      const declared = new Set([...block.code.matchAll(/(?:const|let)\s*\{([^}]*)\}/g)].flatMap((m) => m[1]!.split(',').map((s) => s.trim())));
      const added: string[] = [];
      for (const [spec, names] of Object.entries(entries)) {
        const used = names.filter((n) => !imported.has(n) && !declared.has(n) && new RegExp(`\\b${n}\\b`).test(block.code));
        for (const n of used) imported.add(n);
        if (used.length > 0) added.push(`import { ${used.join(', ')} } from '${spec}';`);
      }
      files.set(join(ROOT, 'test', `readme-block-${i}.ts`), `${added.join(' ')}${added.length ? '' : 'export {};'}\n${block.code}`);
    });
    const parsed = ts.parseJsonConfigFileContent(ts.readConfigFile(join(ROOT, 'tsconfig.json'), ts.sys.readFile).config, ts.sys, ROOT);
    const options: ts.CompilerOptions = { ...parsed.options, noEmit: true, noUnusedLocals: false };
    const host = ts.createCompilerHost(options);
    const { getSourceFile, fileExists, readFile } = host;
    host.getSourceFile = (name, lang, ...rest) => (files.has(name) ? ts.createSourceFile(name, files.get(name)!, lang) : getSourceFile.call(host, name, lang, ...rest));
    host.fileExists = (name) => files.has(name) || fileExists.call(host, name);
    host.readFile = (name) => files.get(name) ?? readFile.call(host, name);
    const program = ts.createProgram([...files.keys()], options, host);
    const problems = [...files.keys()].flatMap((name) =>
      [...program.getSyntacticDiagnostics(program.getSourceFile(name)), ...program.getSemanticDiagnostics(program.getSourceFile(name))].map((d) => {
        const at = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line : 0;
        const i = Number(/readme-block-(\d+)/.exec(name)?.[1] ?? -1);
        return `README line ${i >= 0 ? blocks[i]!.line + at - 1 : '?'}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
      }),
    );
    expect(problems).toEqual([]);
  }, 120_000);
});
