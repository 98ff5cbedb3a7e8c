/**
 * `npm run bench`: the corpus, speed and scaling benchmark (bench/run.ts), then `check` and `report` on a
 * 31,560-tool list (bench/check-scale.ts), then what each reader pays (bench/rendered.ts). Flags
 * (`--no-write`, `--quick`) reach all three.
 */
await import('./run.js');
await import('./check-scale.js');
await import('./rendered.js');
