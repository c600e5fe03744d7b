// Splits a byte stream into text lines without ever holding more than one line (cut at a
// length limit) and one chunk: `readline` would keep an endless line in memory.
import { StringDecoder } from 'node:string_decoder';

/**
 * Receives each line; `start` is where it begins in the text last given to `onText`, or -1
 * when it began in an earlier piece (a line spanning chunks).
 */
export type LineSink = (line: string, truncated: boolean, start: number) => void;

/** Sees each decoded piece of text before its lines are emitted (chunk-level searches). */
export type TextSink = (text: string) => void;

/** Incremental splitter: push chunks, then end(). Handles `\n` and `\r\n`; decodes UTF-8 leniently. */
export class LineSplitter {
  private readonly decoder = new StringDecoder('utf8');
  private carry = '';
  /** The current line hit the limit: drop its bytes until the next newline. */
  private skipping = false;
  private lines = 0;

  constructor(
    private readonly maxLineLength: number,
    private readonly sink: LineSink,
    private readonly onText?: TextSink,
  ) {}

  get lineCount(): number {
    return this.lines;
  }

  push(chunk: Buffer): void {
    this.feed(this.decoder.write(chunk));
  }

  end(): void {
    this.feed(this.decoder.end());
    if (this.carry.length > 0 || this.skipping) this.emit(this.carry, this.skipping, -1);
    this.carry = '';
    this.skipping = false;
  }

  private feed(text: string): void {
    if (text.length === 0) return;
    this.onText?.(text);
    let start = 0;
    const max = this.maxLineLength;
    for (;;) {
      const nl = text.indexOf('\n', start);
      if (nl < 0) break;
      if (this.skipping) {
        this.emit(this.carry, true, -1);
        this.carry = '';
        this.skipping = false;
      } else if (this.carry.length > 0) {
        const line = this.carry + text.slice(start, nl);
        this.carry = '';
        if (line.length > max) this.emit(line.slice(0, max), true, -1);
        else this.emit(line, false, -1);
      } else if (nl - start > max) {
        this.emit(text.slice(start, start + max), true, start);
      } else {
        this.emit(text.slice(start, nl), false, start);
      }
      start = nl + 1;
    }
    if (start >= text.length || this.skipping) return;
    const rest = text.slice(start);
    if (this.carry.length + rest.length > max) {
      this.carry = (this.carry + rest).slice(0, max);
      this.skipping = true;
    } else {
      this.carry += rest;
    }
  }

  private emit(line: string, truncated: boolean, start: number): void {
    this.lines++;
    const end = line.length - 1;
    this.sink(end >= 0 && line.charCodeAt(end) === 13 ? line.slice(0, end) : line, truncated, start);
  }
}

/**
 * Copies a string so it no longer shares memory with the chunk it was sliced from;
 * needed for lines the model keeps, or each would pin a whole decoded chunk.
 */
export function detach(text: string): string {
  return text.length < 13 ? text : Buffer.from(text, 'utf8').toString('utf8');
}
