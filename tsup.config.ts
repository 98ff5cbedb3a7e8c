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
  treeshake: true,
  // toolslim's version, for the overlays it writes (src/session/version.ts).
  define: { __TOOLSLIM_VERSION__: JSON.stringify(version) },
});
