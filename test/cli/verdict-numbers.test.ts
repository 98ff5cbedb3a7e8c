/**
 * `check`'s summary line writes every count the same way: on a 21,000-tool list it said
 * "1,407 errors, 5,345 warnings, 33,235 info (38580 not shown: --quiet): failed: 1407 at or above error",
 * the last two without the thousands separator the others have. Expected lines written by hand.
 */
import { describe, expect, it } from 'vitest';
import { renderVerdict, type Style } from '../../src/cli/format.js';

const same = (s: string) => s;
const plain: Style = { bold: same, dim: same, red: same, yellow: same, green: same };

describe('check summary line', () => {
  it('groups thousands in every count', () => {
    const line = renderVerdict({ counts: { error: 1407, warning: 5345, info: 33235 }, failing: 1407, failOn: 'error', maxWarnings: undefined, inputs: 1, unreadable: 0, hidden: 38580 }, plain);
    expect(line).toBe('1,407 errors, 5,345 warnings, 33,235 info (38,580 not shown: --quiet): failed: 1,407 at or above error\n');
  });

  it('small counts read as before', () => {
    const line = renderVerdict({ counts: { error: 1, warning: 0, info: 2 }, failing: 1, failOn: 'error', maxWarnings: undefined, inputs: 1, unreadable: 0, hidden: 2 }, plain);
    expect(line).toBe('1 error, 0 warnings, 2 info (2 not shown: --quiet): failed: 1 at or above error\n');
  });
});
