// What every whole-file parser does to its input and its problems: drop a byte-order mark,
// split lines (CRLF or LF), clip quoted text to one length, cap the problems of one file.
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
