/**
 * Strings that likely match a regular expression, for the instance generator: `^AC[0-9a-f]{32}$` gives
 * `AC000…0`. Handles the common subset (literals, escapes, classes, groups, alternation, quantifiers) and
 * gives up (returns no sample) on anything else: backreferences, lookarounds, long or deeply nested
 * patterns. The caller tests every sample against the real `RegExp`, so a wrong guess costs nothing.
 */

type Node =
  | { readonly kind: 'text'; readonly chars: readonly string[] }
  | { readonly kind: 'seq'; readonly items: readonly Node[] }
  | { readonly kind: 'alt'; readonly options: readonly Node[] }
  | { readonly kind: 'repeat'; readonly node: Node; readonly min: number; readonly max: number };

const MAX_PATTERN = 500;
const MAX_NESTING = 32;
const MAX_REPEAT = 256;

class GiveUp extends Error {}

/**
 * Up to four strings built from `pattern`: each quantifier at its minimum and at one more, and (where
 * the pattern has alternatives or classes) with the other choices. Empty when the pattern is not
 * understood.
 */
export function samplePattern(pattern: string): string[] {
  if (pattern.length > MAX_PATTERN) return [];
  let ast: Node;
  try {
    const parser = new Parser(pattern);
    ast = parser.parseAlt(0);
    if (parser.pos < pattern.length) return [];
  } catch (e) {
    if (e instanceof GiveUp) return [];
    throw e;
  }
  const out = new Set<string>();
  for (const extra of [0, 1]) {
    for (const choice of [0, 1]) {
      const s = build(ast, extra, choice);
      if (s !== undefined) out.add(s);
    }
  }
  return [...out];
}

/** Builds a string: every quantifier repeats `min + extra` times (at least once when `extra`), choice `choice` of each alternative/class. */
function build(ast: Node, extra: number, choice: number): string | undefined {
  const parts: string[] = [];
  // Iterative: a stack of nodes to emit, in reverse.
  const stack: Node[] = [ast];
  let budget = 10_000;
  while (stack.length > 0) {
    if (--budget < 0) return undefined;
    const n = stack.pop()!;
    switch (n.kind) {
      case 'text':
        parts.push(n.chars[Math.min(choice, n.chars.length - 1)]!);
        break;
      case 'seq':
        for (let i = n.items.length - 1; i >= 0; i--) stack.push(n.items[i]!);
        break;
      case 'alt':
        stack.push(n.options[Math.min(choice, n.options.length - 1)]!);
        break;
      case 'repeat': {
        const times = Math.min(n.max, n.min + extra, MAX_REPEAT);
        for (let i = 0; i < times; i++) stack.push(n.node);
        break;
      }
    }
  }
  return parts.join('');
}

class Parser {
  pos = 0;
  readonly #src: string;

  constructor(src: string) {
    this.#src = src;
  }

  parseAlt(depth: number): Node {
    if (depth > MAX_NESTING) throw new GiveUp();
    const options: Node[] = [this.#parseSeq(depth)];
    while (this.#src[this.pos] === '|') {
      this.pos++;
      options.push(this.#parseSeq(depth));
    }
    return options.length === 1 ? options[0]! : { kind: 'alt', options };
  }

  #parseSeq(depth: number): Node {
    const items: Node[] = [];
    while (this.pos < this.#src.length) {
      const c = this.#src[this.pos]!;
      if (c === '|' || c === ')') break;
      let atom: Node | undefined;
      if (c === '^' || c === '$') {
        this.pos++;
        continue;
      } else if (c === '(') {
        this.pos++;
        if (this.#src[this.pos] === '?') {
          const next = this.#src[this.pos + 1];
          if (next === ':') this.pos += 2;
          else if (next === '<' && this.#src[this.pos + 2] !== '=' && this.#src[this.pos + 2] !== '!') {
            const close = this.#src.indexOf('>', this.pos);
            if (close === -1) throw new GiveUp();
            this.pos = close + 1;
          } else throw new GiveUp(); // lookarounds, flags
        }
        atom = this.parseAlt(depth + 1);
        if (this.#src[this.pos] !== ')') throw new GiveUp();
        this.pos++;
      } else if (c === '[') {
        atom = this.#parseClass();
      } else if (c === '.') {
        this.pos++;
        atom = { kind: 'text', chars: ['a', 'b'] };
      } else if (c === '\\') {
        const chars = this.#parseEscape(false);
        if (chars === null) continue; // \b, \B
        atom = { kind: 'text', chars };
      } else if (c === '*' || c === '+' || c === '?' || c === '{') {
        if (c === '{' && !/^\{\d+(,\d*)?\}/.test(this.#src.slice(this.pos))) {
          this.pos++;
          atom = { kind: 'text', chars: ['{'] };
        } else throw new GiveUp(); // a quantifier with nothing to repeat
      } else {
        this.pos++;
        atom = { kind: 'text', chars: [c] };
      }
      items.push(this.#parseQuantifier(atom));
    }
    return items.length === 1 ? items[0]! : { kind: 'seq', items };
  }

  #parseQuantifier(atom: Node): Node {
    const c = this.#src[this.pos];
    let min: number;
    let max: number;
    if (c === '*') [min, max] = [0, Infinity];
    else if (c === '+') [min, max] = [1, Infinity];
    else if (c === '?') [min, max] = [0, 1];
    else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.#src.slice(this.pos));
      if (!m) return atom;
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
      if (min > MAX_REPEAT) throw new GiveUp();
      this.pos += m[0].length - 1;
    } else return atom;
    this.pos++;
    if (this.#src[this.pos] === '?') this.pos++; // lazy
    return { kind: 'repeat', node: atom, min, max };
  }

  /** A character class: the first member and another one, or for a negated class characters outside it. */
  #parseClass(): Node {
    this.pos++;
    const negated = this.#src[this.pos] === '^';
    if (negated) this.pos++;
    const members: string[] = [];
    const ranges: [string, string][] = [];
    let first = true;
    while (this.pos < this.#src.length && (this.#src[this.pos] !== ']' || first)) {
      first = false;
      let lo: string;
      if (this.#src[this.pos] === '\\') {
        const chars = this.#parseEscape(true);
        if (chars === null) continue;
        if (chars.length > 1 || this.#src[this.pos] !== '-') {
          members.push(...chars);
          continue;
        }
        lo = chars[0]!;
      } else lo = this.#src[this.pos++]!;
      if (this.#src[this.pos] === '-' && this.#src[this.pos + 1] !== ']' && this.pos + 1 < this.#src.length) {
        this.pos++;
        let hi: string;
        if (this.#src[this.pos] === '\\') {
          const chars = this.#parseEscape(true);
          if (chars === null || chars.length !== 1) throw new GiveUp();
          hi = chars[0]!;
        } else hi = this.#src[this.pos++]!;
        ranges.push([lo, hi]);
      } else members.push(lo);
    }
    if (this.#src[this.pos] !== ']') throw new GiveUp();
    this.pos++;
    const inClass = (ch: string) => members.includes(ch) || ranges.some(([a, b]) => ch >= a && ch <= b);
    if (negated) {
      const outside = ['a', 'Z', '0', '_', 'x', 'q', '7', '.', ' '].filter((ch) => !inClass(ch));
      if (outside.length === 0) throw new GiveUp();
      return { kind: 'text', chars: outside.slice(0, 2) };
    }
    const chars = [...ranges.map(([a]) => a), ...members];
    if (chars.length === 0) throw new GiveUp();
    if (ranges.length > 0 && chars.length === 1) {
      const [a, b] = ranges[0]!;
      if (b > a) chars.push(String.fromCharCode(a.charCodeAt(0) + 1));
    }
    return { kind: 'text', chars: chars.slice(0, 2) };
  }

  /** An escape at `pos` (which holds `\`): the characters it can stand for, or null for a zero-width one. */
  #parseEscape(inClass: boolean): string[] | null {
    const c = this.#src[this.pos + 1];
    if (c === undefined) throw new GiveUp();
    this.pos += 2;
    switch (c) {
      case 'd':
        return ['0', '1'];
      case 'D':
        return ['a', 'b'];
      case 'w':
        return ['a', 'b'];
      case 'W':
        return ['-', '.'];
      case 's':
        return [' '];
      case 'S':
        return ['a', 'b'];
      case 'n':
        return ['\n'];
      case 't':
        return ['\t'];
      case 'r':
        return ['\r'];
      case 'f':
        return ['\f'];
      case 'v':
        return ['\v'];
      case '0':
        return ['\0'];
      case 'b':
        if (inClass) return ['\b'];
        return null;
      case 'B':
        return null;
      case 'x': {
        const m = /^[0-9a-fA-F]{2}/.exec(this.#src.slice(this.pos));
        if (!m) throw new GiveUp();
        this.pos += 2;
        return [String.fromCharCode(parseInt(m[0], 16))];
      }
      case 'u': {
        const m = /^[0-9a-fA-F]{4}/.exec(this.#src.slice(this.pos));
        if (!m) throw new GiveUp();
        this.pos += 4;
        return [String.fromCharCode(parseInt(m[0], 16))];
      }
      case 'p':
      case 'P':
      case 'k':
      case 'c':
        throw new GiveUp();
      default:
        if (c >= '1' && c <= '9') throw new GiveUp(); // backreference
        return [c];
    }
  }
}
