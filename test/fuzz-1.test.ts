/** The fuzz harness (test/helpers/fuzz-harness.ts), shard 1 of 2: the samples `s` with `s % 2 === 0`. */
import { describeFuzz } from './helpers/fuzz-harness.js';

describeFuzz(0, 2);
