/**
 * Go's `strconv.Quote` (what klog's `%q` writes): double quotes; `\a \b \f \n \r \t \v \\ \"`
 * escaped; other ASCII control characters and DEL as `\xNN`; characters Go does not consider
 * printable (`unicode.IsPrint`: letters, marks, numbers, punctuation, symbols and the ASCII
 * space) as `\uNNNN` or `\UNNNNNNNN`; everything else as is. A lone UTF-16 surrogate becomes
 * U+FFFD, as it does once the string is UTF-8 (Go strings are bytes).
 */
const SHORT_ESCAPES: Readonly<Record<string, string>> = {
  '\u0007': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
  '\\': '\\\\',
  '"': '\\"',
};

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;
const NEEDS_ESCAPE = /[\u0000-\u001f"\\\u007f-\u00a0\u00ad\u0300-\u{10ffff}]/u;

export function goQuote(value: string): string {
  // Fast path: plain ASCII (and Latin-1 letters) without anything to escape.
  if (!NEEDS_ESCAPE.test(value)) return `"${value}"`;
  let quoted = '"';
  for (const character of value) {
    const short = SHORT_ESCAPES[character];
    if (short !== undefined) {
      quoted += short;
      continue;
    }
    const codePoint = character.codePointAt(0) as number;
    if (codePoint >= 0xd800 && codePoint <= 0xdfff) {
      quoted += '\ufffd';
    } else if (codePoint < 0x20 || codePoint === 0x7f) {
      quoted += `\\x${codePoint.toString(16).padStart(2, '0')}`;
    } else if (PRINTABLE.test(character)) {
      quoted += character;
    } else if (codePoint <= 0xffff) {
      quoted += `\\u${codePoint.toString(16).padStart(4, '0')}`;
    } else {
      quoted += `\\U${codePoint.toString(16).padStart(8, '0')}`;
    }
  }
  return `${quoted}"`;
}
