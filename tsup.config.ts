import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    tokens: 'src/tokens.ts',
    response: 'src/response/index.ts',
    'cli/bin': 'src/cli/bin.ts',
    mcp: 'src/sdk/index.ts',
    testing: 'src/testing/index.ts',
  },
  // Loaded by dynamic import on the CLI's live-server paths only; never bundled.
  external: [/^@modelcontextprotocol\/sdk(\/|$)/],
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  target: 'node20',
  platform: 'node',
  splitting: true,
  sourcemap: false,
  // Not rollup's tree-shaking (esbuild's own, when bundling, stays on): its output ran the default call 1.5×
  // slower in wall time and 2× in CPU than the same code unbundled, measured on the corpus (optimized code
  // thrown away at every GC, 'weak objects'), and the bench times the built package.
  treeshake: false,
  // `import.meta.url` in the CommonJS build (rollup's tree-shaking used to rewrite it).
  shims: true,
  // toolslim's version, for the overlays it writes (src/session/version.ts).
  define: { __TOOLSLIM_VERSION__: JSON.stringify(version) },
});
