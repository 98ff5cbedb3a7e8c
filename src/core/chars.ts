/** Character tests the text rules of several transforms share (a character code in, a boolean out). */

/** Whether a character is one `String.prototype.trim` takes (JavaScript's `\s`). @internal */
export function isWhiteSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}
