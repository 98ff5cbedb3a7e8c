/**
 * `npm run bench`: the corpus, speed and scaling benchmark (bench/run.ts), then `check` and `report` on a
 * 31,560-tool list (bench/check-scale.ts). Flags (`--no-write`, `--quick`) reach both.
 */
await import('./run.js');
await import('./check-scale.js');
