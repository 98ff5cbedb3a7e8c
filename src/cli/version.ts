/**
 * The package version `toolslim --version` prints: the one the build writes in from package.json
 * (src/session/version.ts), so there is one source; test/cli/publish.test.ts checks it equals package.json's.
 */
export { TOOLSLIM_VERSION as VERSION } from '../session/version.js';
