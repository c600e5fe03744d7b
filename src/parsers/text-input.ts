// What every whole-file parser does to its input and its problems: drop a byte-order mark,
// split lines (CRLF or LF), clip quoted text to one length, cap the problems of one file; and
// what the reader does first to every file: UTF-16 text (Windows tools write it) made UTF-8.
import type { ParseProblem } from './parsed.js';

/** Longest text a parser quotes from a file in a problem or a reason. */
export const MESSAGE_MAX = 300;

/** Problems reported per file at most: a garbage file must not flood the report. */
export const PROBLEMS_MAX = 20;

/** The text without a leading byte-order mark (Windows editors and PowerShell write one). */
export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** The lines of a file's text, BOM removed, split at LF or CRLF (a last empty line stays). */
export function splitLines(text: string): string[] {
  return stripBom(text).split(/\r?\n/);
}

/** The text cut at `MESSAGE_MAX` characters. */
export function clip(text: string): string {
  return text.length > MESSAGE_MAX ? text.slice(0, MESSAGE_MAX) : text;
}

function moreProblems(dropped: number): string {
  return `${dropped} more problems not listed`;
}

/** The first `PROBLEMS_MAX` problems, the rest counted in one closing problem. */
export function capProblems(problems: ParseProblem[]): ParseProblem[] {
  if (problems.length <= PROBLEMS_MAX) return problems;
  return [...problems.slice(0, PROBLEMS_MAX), { kind: 'unparseable', message: moreProblems(problems.length - PROBLEMS_MAX) }];
}

/** Problems collected one by one with the cap, the rest counted in one closing problem. */
export class ProblemList {
  private readonly list: ParseProblem[] = [];
  private dropped = 0;

  /** Adds a problem, or counts it once the cap is reached. */
  add(problem: ParseProblem): void {
    if (this.list.length < PROBLEMS_MAX) this.list.push(problem);
    else this.dropped++;
  }

  /** The problems, with `closing(dropped)` appended when some were dropped. */
  done(closing: (dropped: number) => string = moreProblems): ParseProblem[] {
    if (this.dropped > 0) this.list.push({ kind: 'unparseable', message: closing(this.dropped) });
    return this.list;
  }
}

/** How a file's text is encoded; everything that is not UTF-16 is read as UTF-8. */
export type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be';

/** Bytes looked at to tell UTF-16 without a byte-order mark. */
const SNIFF_PAIRS = 2048;

/**
 * The encoding of text starting with `head`: UTF-16 by its byte-order mark, or without one by
 * the zero high bytes of mostly-ASCII text (every other byte zero, the others not). Anything
 * else is UTF-8, whose decoding marks bytes it cannot read.
 */
export function sniffEncoding(head: Buffer): TextEncoding {
  if (head.length >= 2 && head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head.length >= 2 && head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  const pairs = Math.min(SNIFF_PAIRS, Math.floor(head.length / 2));
  if (pairs < 8) return 'utf-8';
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < pairs; i++) {
    if (head[2 * i] === 0) evenZeros++;
    if (head[2 * i + 1] === 0) oddZeros++;
  }
  const mostly = pairs * 0.9;
  const rarely = pairs * 0.1;
  if (oddZeros >= mostly && evenZeros <= rarely) return 'utf-16le';
  if (evenZeros >= mostly && oddZeros <= rarely) return 'utf-16be';
  return 'utf-8';
}

/** UTF-16 bytes as UTF-8, chunk by chunk (a character split across chunks is kept whole). */
export async function* utf16ToUtf8(body: AsyncIterable<Buffer>, encoding: 'utf-16le' | 'utf-16be'): AsyncIterable<Buffer> {
  // The decoder drops the byte-order mark.
  const decoder = new TextDecoder(encoding);
  for await (const chunk of body) {
    const text = decoder.decode(chunk, { stream: true });
    if (text.length > 0) yield Buffer.from(text, 'utf8');
  }
  const rest = decoder.decode();
  if (rest.length > 0) yield Buffer.from(rest, 'utf8');
}

/** A whole file's bytes as text, UTF-16 decoded, byte-order mark dropped. */
export function decodeText(bytes: Buffer): string {
  const encoding = sniffEncoding(bytes);
  return encoding === 'utf-8' ? stripBom(bytes.toString('utf8')) : new TextDecoder(encoding).decode(bytes);
}
