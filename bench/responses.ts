/**
 * Response policies on recorded results of real servers (`npm run bench:responses`): for each recorded
 * `tools/call` (bench/responses/recorded/, made by bench/responses/record.ts; sources in
 * bench/responses/SOURCES.md), what the client receives without a policy and with the policies below, run
 * through the session library's ResponsePager (the code the proxy runs). Writes bench/responses.md and
 * bench/responses.json. Deterministic: no clock, no randomness.
 *
 * - bytes: UTF-8 of the compact JSON of the `result` the client receives.
 * - "first page": a session where the caller reads page 1 of each call; "all pages": it reads every page.
 * - fill rate: a page's records text over the budget, averaged over the pages that are not the last.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ResponsePager } from '../src/session/response-pages.js';
import type { ResponsePolicy } from '../src/session/response-policy.js';

const DIR = join(import.meta.dirname, 'responses', 'recorded');

/** The policies benched, per tool: what a user of each server would plausibly write. */
const POLICIES: Record<string, Record<string, ResponsePolicy>> = {
  'budget 10 KB': { list_items: { budget: 10_000 }, directory_tree: { budget: 10_000 }, search_files: { budget: 10_000 }, list_directory: { budget: 10_000 }, read_graph: { budget: 10_000 }, search_nodes: { budget: 10_000 }, 'get-resource-links': { budget: 10_000 } },
  'budget 4 KB': { directory_tree: { budget: 4_000 }, read_graph: { budget: 4_000 }, search_nodes: { budget: 4_000 } },
  'project name,type + 4 KB': { directory_tree: { project: ['name', 'type'], budget: 4_000 }, read_graph: { project: ['name', 'entityType'], budget: 4_000 } },
  'project id,title,category + 8 KB (the article\'s policy, on the synthetic list)': { list_items: { project: ['id', 'title', 'category'], budget: 8_000 } },
};

interface Recorded {
  readonly server: string;
  readonly tool?: string;
  readonly method?: string;
  readonly uri?: string;
  readonly definition?: unknown;
  readonly arguments?: Record<string, unknown>;
  readonly result: Record<string, unknown>;
}

const bytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v), 'utf8');
const files = readdirSync(DIR).filter((f) => f.endsWith('.json')).sort();
const recorded = files.map((f) => ({ file: f.replace(/\.json$/, ''), ...(JSON.parse(readFileSync(join(DIR, f), 'utf8')) as Recorded) }));

interface Row {
  readonly policy: string;
  readonly file: string;
  readonly tool: string;
  readonly definitionBytes: number;
  readonly originalBytes: number;
  readonly outcome: string;
  readonly firstPageBytes: number;
  readonly allPagesBytes: number;
  readonly pages: number;
  readonly fill: number | null;
}

const rows: Row[] = [];
for (const [name, policies] of Object.entries(POLICIES)) {
  for (const r of recorded) {
    const originalBytes = bytes(r.result);
    const tool = r.tool ?? `${r.method} ${r.uri}`;
    const base = { policy: name, file: r.file, tool, definitionBytes: r.definition === undefined ? 0 : bytes(r.definition), originalBytes };
    const policy = r.tool === undefined ? undefined : policies[r.tool];
    if (r.tool === undefined || !policy) {
      rows.push({ ...base, outcome: r.tool === undefined ? 'not a tools/call (resources/read): no policy applies' : 'no policy', firstPageBytes: originalBytes, allPagesBytes: originalBytes, pages: 1, fill: null });
      continue;
    }
    const pager = new ResponsePager({ policies: { [r.tool]: policy } });
    pager.learn(r.tool, (r.definition as { inputSchema?: unknown } | undefined)?.inputSchema);
    const first = pager.onResult(r.tool, r.arguments ?? {}, r.result);
    if (first.result === undefined) {
      rows.push({ ...base, outcome: `passed through: ${first.uncovered ?? 'not covered'}`, firstPageBytes: originalBytes, allPagesBytes: originalBytes, pages: 1, fill: null });
      continue;
    }
    if (first.error) {
      const text = (first.result.content as { text: string }[])[0]!.text;
      rows.push({ ...base, outcome: `isError: ${text.slice(text.indexOf('record'), text.indexOf(' bytes of') + 6)}`, firstPageBytes: bytes(first.result), allPagesBytes: bytes(first.result), pages: 0, fill: null });
      continue;
    }
    const pages = first.pages ?? 1;
    let all = bytes(first.result);
    const fills: number[] = [];
    const fillOf = (result: Record<string, unknown>) => Buffer.byteLength((result.content as { text: string }[])[0]!.text, 'utf8') / policy.budget!;
    if (pages > 1) fills.push(fillOf(first.result));
    for (let p = 2; p <= pages; p++) {
      const d = pager.onCall(r.tool, { ...(r.arguments ?? {}), page: p });
      if (d.action !== 'answer') throw new Error(`${r.file}: page ${p} was not served from the stored result`);
      all += bytes(d.result);
      if (p < pages) fills.push(fillOf(d.result));
    }
    const fill = fills.length === 0 ? null : fills.reduce((a, b) => a + b, 0) / fills.length;
    rows.push({ ...base, outcome: policy.budget === undefined ? 'projected' : `${pages} page${pages === 1 ? '' : 's'}`, firstPageBytes: bytes(first.result), allPagesBytes: all, pages, fill });
  }
}

const int = (n: number) => Math.round(n).toLocaleString('en-US');
const md: string[] = [
  '# Response policies on recorded results of real servers',
  '',
  '`npm run bench:responses` (bench/responses.ts) on the recordings in bench/responses/recorded/ (bench/responses/SOURCES.md says where each comes from). Bytes are UTF-8 of the compact JSON of the `result` the client receives; "first page" is a session that reads page 1 of each call, "all pages" one that reads every page; fill is a page\'s records text over the budget, averaged over pages that are not the last.',
  '',
];
for (const name of Object.keys(POLICIES)) {
  const these = rows.filter((r) => r.policy === name);
  const without = these.reduce((a, r) => a + r.originalBytes, 0);
  const first = these.reduce((a, r) => a + r.firstPageBytes, 0);
  const all = these.reduce((a, r) => a + r.allPagesBytes, 0);
  md.push(`## ${name}`, '', `Session of ${these.length} calls: ${int(without)} bytes without policies; with them ${int(first)} reading first pages (${((100 * first) / without).toFixed(1)}%), ${int(all)} reading every page (${((100 * all) / without).toFixed(1)}%).`, '');
  md.push('| recording | tool | definition | result | outcome | first page | all pages | pages | fill |', '|---|---|---:|---:|---|---:|---:|---:|---:|');
  for (const r of these) md.push(`| ${r.file} | ${r.tool} | ${int(r.definitionBytes)} | ${int(r.originalBytes)} | ${r.outcome.replace(/\|/g, '\\|')} | ${int(r.firstPageBytes)} | ${int(r.allPagesBytes)} | ${r.pages} | ${r.fill === null ? '–' : `${(100 * r.fill).toFixed(1)}%`} |`);
  md.push('');
}
writeFileSync(join(import.meta.dirname, 'responses.md'), md.join('\n'));
writeFileSync(join(import.meta.dirname, 'responses.json'), JSON.stringify(rows, null, 2) + '\n');
console.log(md.join('\n'));
