// Double-quoted strings inside log lines (logrus and klog `key="..."` values, JSON fields, Go's
// `%q`): where one ends, its text unescaped, and whether a place in a line lies inside one.

const SIMPLE_ESCAPES: Record<string, string> = Object.assign(Object.create(null) as Record<string, string>, {
  a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\', '"': '"', "'": "'", '/': '/',
});

const HEX = /^[0-9a-fA-F]+$/;
const OCTAL = /^[0-7]{3}$/;

/** A piece unescaped, and (when tracked) where each of its characters came from: `from[i]`, and `from[text.length]` = the piece's length. */
interface Decoded {
  text: string;
  from: number[];
}

/** Undoes the escapes of a piece; with `track`, records where each character came from. */
function decode(piece: string, track: boolean): Decoded {
  const from: number[] = [];
  let out = '';
  const put = (text: string, at: number): void => {
    out += text;
    if (track) for (let k = 0; k < text.length; k++) from.push(at);
  };
  let i = 0;
  while (i < piece.length) {
    const c = piece[i];
    if (c !== '\\') {
      put(c, i);
      i++;
      continue;
    }
    // A lone backslash at the end: the piece was cut inside an escape.
    if (i + 1 >= piece.length) break;
    const e = piece[i + 1];
    const simple = SIMPLE_ESCAPES[e];
    if (simple !== undefined) {
      put(simple, i);
      i += 2;
      continue;
    }
    const hexLen = e === 'x' ? 2 : e === 'u' ? 4 : e === 'U' ? 8 : 0;
    if (hexLen > 0) {
      const digits = piece.slice(i + 2, i + 2 + hexLen);
      if (digits.length === hexLen && HEX.test(digits)) {
        const code = parseInt(digits, 16);
        // `\xNN` above 0x7f is one byte of invalid UTF-8: it has no character of its own.
        put(e === 'x' && code > 0x7f ? '\ufffd' : code <= 0x10ffff ? String.fromCodePoint(code) : '\ufffd', i);
        i += 2 + hexLen;
        continue;
      }
      // Hex digits up to the end and too few of them: cut inside the escape.
      if (i + 2 + digits.length >= piece.length && (digits === '' || HEX.test(digits))) break;
    }
    const octal = piece.slice(i + 1, i + 4);
    if (OCTAL.test(octal)) {
      const code = parseInt(octal, 8);
      put(code > 0x7f ? '\ufffd' : String.fromCharCode(code), i);
      i += 4;
      continue;
    }
    if (/^[0-7]{1,2}$/.test(octal) && i + 1 + octal.length >= piece.length) break;
    // An unknown escape is kept as written.
    put(c + e, i);
    i += 2;
  }
  if (track) from.push(piece.length);
  return { text: out, from };
}

/**
 * The text of a piece of a quoted string (without its quotes) with its escapes undone: Go's
 * (`strconv.Quote`: `\"`, `\n`, `\u00e9`, `\x41`, `\101`, `\U0001F600`) and JSON's (`\/`, UTF-16
 * pairs as two `\u`). An unknown escape stays as written; an escape the piece ends inside (a
 * line cut at its length limit) is dropped, never shown half.
 */
export function unescapeQuoted(piece: string): string {
  return piece.includes('\\') ? decode(piece, false).text : piece;
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
 * The quoted string of a line that holds `pos` (its opening quote and the quote that closes it,
 * or the line's length when none does), or undefined when `pos` lies outside every quoted string.
 * The line is read from its start: quotes open and close, a backslash inside a string escapes
 * the character after it.
 */
export function quotedStringAt(line: string, pos: number): { open: number; close: number } | undefined {
  let i = 0;
  while (i < line.length && i <= pos) {
    if (line[i] !== '"') {
      i++;
      continue;
    }
    const close = closingQuote(line, i);
    if (pos > i && pos < close) return { open: i, close };
    i = close + 1;
  }
  return undefined;
}

/** Quoted strings inside quoted strings read this deep (a Go `%q` error inside a klog value inside the installer's logfmt). */
const MAX_DEPTH = 4;

/**
 * The part `[start, end)` of a line as it reads: inside a quoted string it ends at that string's
 * closing quote and is unescaped, and so again inside a quoted string of that text (a `%q`
 * error quoted in a logfmt value: `err="... \"unauthorized: ...\""`). Returns the text and where
 * it ends in the line.
 */
export function quotedValue(line: string, start: number, end: number): { value: string; end: number } {
  let text = line;
  let s = start;
  let e = end;
  // Each layer maps an index of its text back to the text around it.
  const back: ((i: number) => number)[] = [];
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    const q = quotedStringAt(text, s);
    if (!q) break;
    e = Math.min(e, q.close);
    const d = decode(text.slice(q.open + 1, q.close), true);
    const from = d.from;
    const open = q.open + 1;
    // The first decoded character at or after a position, for start and end alike.
    const into = (pos: number): number => {
      let lo = 0;
      let hi = from.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (from[mid] < pos - open) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    };
    s = into(s);
    e = Math.max(s, into(e));
    back.push((i) => open + from[i]);
    text = d.text;
  }
  let raw = e;
  for (let k = back.length - 1; k >= 0; k--) raw = back[k](raw);
  return { value: text.slice(s, e), end: raw };
}
