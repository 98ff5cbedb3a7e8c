/**
 * The `restatedNames` rule: a parameter description of three words or fewer that only restates the
 * parameter's name goes whole (not a text rule: it decides about the description, it does not edit it).
 */

const WORD = /[\p{L}\p{N}]+/gu;
const FILLER = new Set(['a', 'an', 'the', 'of', 'this', 'that', 'its', 'your', 'given', 'specified']);

/**
 * True when `description` has one to three words and every word other than filler (`the`, `a`, `of`, …)
 * is a word of `name` (split at `_`, `-`, `.`, spaces and camelCase; case and a plural `s` ignored), or
 * the words run together spell the name.
 */
export function restatesName(name: string, description: string): boolean {
  // A description with more than three words says more: tell without splitting all of it.
  if (hasFourWords(description)) return false;
  const words = description.match(/[\p{L}\p{N}]+/gu);
  if (!words || words.length > 3) return false;
  // Anything beside words, spaces and closing punctuation (`ID (UUID)`, `≥ 0`) says more than the name.
  if (/[^\p{L}\p{N}\s.,:;'’-]/u.test(description)) return false;
  const nameWords = splitName(name).map(normalizeWord);
  if (nameWords.length === 0) return false;
  const content = words.map(normalizeWord).filter((w) => !FILLER.has(w));
  if (content.length === 0) return false;
  const set = new Set(nameWords);
  if (content.every((w) => set.has(w))) return true;
  return content.join('') === nameWords.join('');
}

/**
 * True when `text` has at least four words (runs of letters and digits). ASCII text is counted by
 * character codes (its letters and digits are exactly `\p{L}` and `\p{N}` there); other text by {@link WORD}.
 */
function hasFourWords(text: string): boolean {
  let words = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 128) return hasFourWordsUnicode(text);
    const word = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
    if (word && !inWord && ++words === 4) return true;
    inWord = word;
  }
  return false;
}

function hasFourWordsUnicode(text: string): boolean {
  WORD.lastIndex = 0;
  for (let n = 0; n < 4; n++) if (WORD.exec(text) === null) break;
  return WORD.lastIndex !== 0;
}

function splitName(name: string): string[] {
  return name
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '');
}

function normalizeWord(word: string): string {
  const w = word.toLowerCase();
  return w.length > 2 && w.endsWith('s') ? w.slice(0, -1) : w;
}
