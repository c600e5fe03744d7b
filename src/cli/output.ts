// Writes a command's output to stdout or to `--output FILE`, and only there; says how wide text
// may be. A reader that went away (`| head`) ends the output quietly; a failed write is one line,
// and leaves the file as it was (written aside and renamed: whole or absent, never cut).
import { writeFileAtomicSync } from '../util/atomic-write.js';
import { UsageError } from './exit-codes.js';

/** Set once stdout's reader has gone (EPIPE): later output is dropped, the exit code stays the result's. */
let stdoutClosed = false;
let guarded = false;

function isClosedPipe(err: unknown): boolean {
  return (err as NodeJS.ErrnoException | null)?.code === 'EPIPE';
}

/**
 * Listens for stdout's 'error' event, which would otherwise be thrown as an uncaught exception
 * (a stack trace and exit 1, read as "failure found"). The write that failed reports the
 * error to its caller; this only keeps the event from being fatal.
 */
export function guardStdout(): void {
  if (guarded) return;
  guarded = true;
  process.stdout.on('error', (err: unknown) => {
    if (isClosedPipe(err)) stdoutClosed = true;
  });
}

/** Writes to stdout: quietly nothing once the reader has gone, a `UsageError` (one line, exit 2) when the write fails otherwise. */
export async function writeStdout(text: string): Promise<void> {
  guardStdout();
  if (stdoutClosed || text.length === 0) return;
  try {
    await new Promise<void>((resolve, reject) => {
      process.stdout.write(text, (err) => (err ? reject(err) : resolve()));
    });
  } catch (err) {
    if (isClosedPipe(err)) {
      stdoutClosed = true;
      return;
    }
    throw new UsageError(`cannot write to stdout: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

/** Writes `text` to `file`, or to stdout when no file is given. */
export async function emit(text: string, file: string | undefined): Promise<void> {
  if (!file || file === '-') {
    await writeStdout(text);
    return;
  }
  try {
    writeFileAtomicSync(file, text);
  } catch (err) {
    throw new UsageError(`cannot write ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

/** `--width N` and `--wide`, as commander gives them. */
export interface WidthFlags {
  width?: string;
  wide?: boolean;
}

/** Used when no width is given and stdout is no terminal (a file, a pipe, CI). */
const FALLBACK_WIDTH = 100;

/**
 * How many columns text output may use: `--wide` none (Infinity: full lines), else `--width`,
 * else `COLUMNS`, else the terminal's width, else 100.
 */
export function textWidth(flags: WidthFlags, stream: NodeJS.WriteStream = process.stdout): number {
  if (flags.wide) return Infinity;
  if (flags.width !== undefined) {
    const n = Number(flags.width);
    if (!Number.isInteger(n) || n < 1 || n > 100000) throw new UsageError(`--width must be a whole number of columns, not '${flags.width}'`);
    return n;
  }
  const env = Number(process.env.COLUMNS);
  if (Number.isInteger(env) && env > 0) return env;
  if (stream.isTTY && stream.columns > 0) return stream.columns;
  return FALLBACK_WIDTH;
}
