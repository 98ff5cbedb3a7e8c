/** Policies by name: `full`, `optimized`, `rerank-<k>`, `hot-0/<form>/<reveal>`, `hot-<k>/<chooser>/<form>/<reveal>`. */
import { fullPolicy, rerankPolicy, stablePolicy, type BenchPolicy, type PolicyContext, type Reveal } from './policies.js';
import { HOT_SEARCH, hotSearchPolicy, peerPolicy, PEERS, PROXY_DEFAULT, PROXY_POLICIES, PROXY_SEARCH, proxyDefaultPolicy, proxySearchPolicy, underClaudeCodePolicy, UNDER_CLAUDE_CODE, type HotSearchName, type PeerName } from './peers.js';
import { COLD_FORMS, type Chooser, type ColdForm } from './served.js';

const CHOOSERS = ['usage', 'recency', 'graph', 'prior', 'first'];

export function policyByName(ctx: PolicyContext, name: string): BenchPolicy {
  if (name === 'full') return fullPolicy(ctx, false);
  if (name === 'optimized') return fullPolicy(ctx, true);
  if ((PEERS as readonly string[]).includes(name)) return peerPolicy(ctx, name as PeerName);
  if (name === PROXY_DEFAULT) return proxyDefaultPolicy(ctx);
  const sweep = /^proxy\/names-(?:from-(\d+)|never)$/.exec(name);
  if (sweep) return proxyDefaultPolicy(ctx, sweep[1] === undefined ? Infinity : Number(sweep[1]));
  if (name === PROXY_SEARCH) return proxySearchPolicy(ctx);
  if (name === UNDER_CLAUDE_CODE) return underClaudeCodePolicy(ctx);
  if ((HOT_SEARCH as readonly string[]).includes(name)) return hotSearchPolicy(ctx, name as HotSearchName);
  const rerank = /^rerank-(\d+)$/.exec(name);
  if (rerank) return rerankPolicy(ctx, Number(rerank[1]));
  const parts = name.split('/');
  const k = /^hot-(\d+)$/.exec(parts[0] ?? '');
  if (k) {
    const n = Number(k[1]);
    const [chooser, form, reveal] = n === 0 && parts.length === 3 ? ['usage', parts[1], parts[2]] : [parts[1], parts[2], parts[3]];
    const okChooser = chooser !== undefined && (CHOOSERS.includes(chooser) || /^rate-\d+(\.\d+)?$/.test(chooser));
    if (okChooser && COLD_FORMS.includes(form as ColdForm) && (reveal === 'result' || reveal === 'list-changed')) {
      return stablePolicy(ctx, n, chooser as Chooser, form as ColdForm, reveal as Reveal);
    }
  }
  throw new Error(`unknown policy name \`${name}\` (full, optimized, rerank-<k>, hot-0/<form>/<reveal>, hot-<k>/<chooser>/<form>/<reveal>, ${[...PEERS, ...HOT_SEARCH, ...PROXY_POLICIES].join(', ')}, proxy/names-from-<bytes>, proxy/names-never)`);
}
