/**
 * `--profile` keeps its word: what `optimize --profile P` writes and `proxy --profile P` serves is checked
 * with the very findings `check --profile P` reports (`profileFindings`), and a result the client would
 * still reject fails (exit 1, the findings on stderr) unless `--allow-rejected` accepts it, said so on
 * stderr.
 */
import { oneLine } from '../core/safe-text.js';
import type { Finding } from '../lint/index.js';
import type { FlagSpec } from './args.js';
import { profileFindings } from './inputs.js';
import { Refusal, type ListHooks } from './proxy/hooks.js';

export const ALLOW_REJECTED_FLAG: FlagSpec = { name: 'allow-rejected', type: 'boolean' };

export const ALLOW_REJECTED_HELP = `  --allow-rejected          with --profile: go on when the client would still reject some tools
                            (they are named on stderr); without it that fails with exit 1`;

/** Findings listed in a message before the rest are summed up. */
const SHOWN = 20;

/**
 * What `profile` would still reject in `value` (toolslim's output for it, in any envelope): the error findings
 * of `check --profile`, with the hints for what toolslim left (they do not name the command that has just run).
 */
export function rejectionsOf(value: unknown, profile: string): Finding[] {
  return profileFindings(value, profile, true).filter((f) => f.severity === 'error');
}

/** The count of rejected tools (a whole-list finding such as `tool-count` counts as none). */
export function rejectedToolCount(findings: readonly Finding[]): number {
  return new Set(findings.filter((f) => f.toolIndex >= 0).map((f) => f.toolIndex)).size;
}

/**
 * The findings as lines for stderr: a head line, then one line per finding (tool, pointer, rule, message
 * with its fix), at most {@link SHOWN} of them.
 */
export function formatRejections(findings: readonly Finding[], profile: string): string {
  const tools = rejectedToolCount(findings);
  const whole = findings.some((f) => f.toolIndex < 0);
  const what = [tools > 0 ? plural(tools, 'tool') : '', whole ? 'the list as a whole' : ''].filter((s) => s !== '').join(' and ');
  const lines = [`\`${profile}\` would still reject ${what} (${plural(findings.length, 'finding')}):`];
  for (const f of findings.slice(0, SHOWN)) lines.push(`  ${f.tool === '' ? '(list)' : oneLine(f.tool)} ${f.path === '' ? '/' : oneLine(f.path)}  ${f.code}: ${oneLine(f.message)}`);
  if (findings.length > SHOWN) lines.push(`  … and ${plural(findings.length - SHOWN, 'more finding')} (toolslim check <file> --profile ${profile} lists every one)`);
  return lines.join('\n');
}

/** Options of {@link profileGateHooks}. */
export interface ProfileGateOptions {
  readonly profile: string;
  readonly allowRejected: boolean;
  readonly log: (line: string) => void;
}

/**
 * The proxy's hooks with every served list checked against `profile` before the client sees it: the list
 * is fetched before the client's `initialize` is answered (so a rejected list ends the run at start, exit
 * 1, the findings on stderr and in the error the client gets), and again after each
 * `notifications/tools/list_changed`. With `allowRejected` the list is served anyway, and stderr names
 * the findings once per list.
 */
export function profileGateHooks(inner: ListHooks, o: ProfileGateOptions): ListHooks {
  let reported = '';
  const gate: ListHooks = {
    prefetch: true,
    prefetchWhy: inner.prefetch && inner.prefetchWhy ? inner.prefetchWhy : `to check the tools against \`${o.profile}\` before the client sees them`,
    serve(raw, when) {
      const served = inner.serve(raw, when);
      const findings = rejectionsOf(JSON.parse(served.resultText) as unknown, o.profile);
      if (findings.length === 0) return served;
      const message = formatRejections(findings, o.profile);
      if (!o.allowRejected) throw new Refusal(`${message}\nnot serving it (--allow-rejected serves it anyway)`);
      if (message !== reported) {
        reported = message;
        o.log(`${message}\nserving it anyway (--allow-rejected)`);
      }
      return served;
    },
  };
  // The other hooks, as the inner hooks have them (absent stays absent: the router asks with `?.`).
  const keys = ['initialized', 'instructions', 'changed', 'call', 'answer', 'called', 'close'] as const;
  for (const key of keys) {
    const f = inner[key] as ((...a: unknown[]) => unknown) | undefined;
    if (typeof f === 'function') (gate as unknown as Record<string, unknown>)[key] = (...a: unknown[]) => f.apply(inner, a);
  }
  return gate;
}

function plural(n: number, word: string): string {
  return `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;
}
