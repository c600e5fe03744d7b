// Double-quoted strings inside log lines (logrus and klog `key="..."` values, JSON fields, Go's
// `%q`): where one ends, its text unescaped, and whether a place in a line lies inside one.

const SIMPLE_ESCAPES: Record<string, string> = Object.assign(Object.create(null) as Record<string, string>, {
  a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\', '"': '"', "'": "'", '/': '/',
});

const HEX = /^[0-9a-fA-F]+$/;
const OCTAL = /^[0-7]{3}$/;

/**
 * The text of a piece of a quoted string (without its quotes) with its escapes undone: Go's
 * (`strconv.Quote`: `\"`, `\n`, `\u00e9`, `\x41`, `\101`, `\U0001F600`) and JSON's (`\/`, UTF-16
 * pairs as two `\u`). An unknown escape stays as written; an escape the piece ends inside (a
 * line cut at its length limit) is dropped, never shown half.
 */
export function unescapeQuoted(piece: string): string {
  if (!piece.includes('\\')) return piece;
  let out = '';
  let i = 0;
  while (i < piece.length) {
    const c = piece[i];
    if (c !== '\\') {
      out += c;
      i++;
      continue;
    }
    // A lone backslash at the end: the piece was cut inside an escape.
    if (i + 1 >= piece.length) break;
    const e = piece[i + 1];
    const simple = SIMPLE_ESCAPES[e];
    if (simple !== undefined) {
      out += simple;
      i += 2;
      continue;
    }
    const hexLen = e === 'x' ? 2 : e === 'u' ? 4 : e === 'U' ? 8 : 0;
    if (hexLen > 0) {
      const digits = piece.slice(i + 2, i + 2 + hexLen);
      if (digits.length === hexLen && HEX.test(digits)) {
        const code = parseInt(digits, 16);
        // `\xNN` above 0x7f is one byte of invalid UTF-8: it has no character of its own.
        out += e === 'x' && code > 0x7f ? '\ufffd' : code <= 0x10ffff ? String.fromCodePoint(code) : '\ufffd';
        i += 2 + hexLen;
        continue;
      }
      // Hex digits up to the end and too few of them: cut inside the escape.
      if (i + 2 + digits.length >= piece.length && (digits === '' || HEX.test(digits))) break;
    }
    const octal = piece.slice(i + 1, i + 4);
    if (OCTAL.test(octal)) {
      const code = parseInt(octal, 8);
      out += code > 0x7f ? '\ufffd' : String.fromCharCode(code);
      i += 4;
      continue;
    }
    if (/^[0-7]{1,2}$/.test(octal) && i + 1 + octal.length >= piece.length) break;
    // An unknown escape is kept as written.
    out += c + e;
    i += 2;
  }
  return out;
}

/** The index of the quote that closes the string opened at `raw[open]`, or the line's length when none does. */
export function closingQuote(raw: string, open: number): number {
  for (let i = open + 1; i < raw.length; i++) {
    if (raw[i] === '\\') i++;
    else if (raw[i] === '"') return i;
  }
  return raw.length;
}

/**
 * Reads a quoted string starting at its opening quote `raw[start]`. Returns the unquoted text
 * and the index after the closing quote; an unterminated string runs to the end of the line.
 */
export function readQuoted(raw: string, start: number): { value: string; end: number } {
  const close = closingQuote(raw, start);
  return { value: unescapeQuoted(raw.slice(start + 1, close)), end: Math.min(raw.length, close + 1) };
}

/**
 * Where the quoted string that holds `pos` closes (the index of its closing quote, or the
 * line's length when it never closes), or undefined when `pos` lies outside every quoted string
 * of the line. The line is read from its start: quotes open and close, a backslash inside a
 * string escapes the character after it.
 */
export function quotedStringEnd(line: string, pos: number): number | undefined {
  let i = 0;
  while (i < line.length && i <= pos) {
    if (line[i] !== '"') {
      i++;
      continue;
    }
    const close = closingQuote(line, i);
    if (pos > i && pos < close) return close;
    i = close + 1;
  }
  return undefined;
}
