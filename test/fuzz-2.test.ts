/** The fuzz harness (test/helpers/fuzz-harness.ts), shard 2 of 2: the samples `s` with `s % 2 === 1`. */
import { describeFuzz } from './helpers/fuzz-harness.js';

describeFuzz(1, 2);
