/** The package version `toolslim --version` prints; test/cli/package.test.ts keeps it equal to package.json's. */
export const VERSION = '0.1.0';
