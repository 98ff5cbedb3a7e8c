/**
 * `npm run bench`: the corpus, speed and scaling benchmark (bench/run.ts), then `check` and `report` on a
 * 31,560-tool list (bench/check-scale.ts), then what each reader pays (bench/rendered.ts), then the `typescript` renderer against the
 * independent harmony reference (bench/harmony-check.ts). Flags
 * (`--no-write`, `--quick`) reach all four.
 */
await import('./run.js');
await import('./check-scale.js');
await import('./rendered.js');
await import('./harmony-check.js');
