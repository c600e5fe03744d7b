// The `--jsonl` file of a triage run, kept so that results survive: one writer at a time (a lock
// file beside it), each record appended to `<file>.partial` as it is made, in one write, so a
// killed run keeps every record it finished (`--resume` picks them up), and the whole file
// written aside and renamed at the end, in byte order, so readers see the old file or the new one.
import { closeSync, constants, existsSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { writeFileAtomicSync } from '../util/atomic-write.js';
import { byCodeUnits } from '../util/byte-order.js';
import { parseRecords, type ParsedRecords, type TriageRecord } from './record.js';

/** A `--jsonl` file that cannot be taken or written: one line for the user. */
export class JsonlError extends Error {
  override readonly name = 'JsonlError';
}

/** The lock beside a `--jsonl` file: who writes it. */
export function lockPath(file: string): string {
  return `${file}.lock`;
}

/** Where a run appends its records as it makes them. */
export function partialPath(file: string): string {
  return `${file}.partial`;
}

/** Whether a process of this machine is alive (a lock left by a killed run is not). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the lock of `file`, or throws a JsonlError naming who holds it. A lock whose process
 * is gone (same machine, pid not alive) is taken over; one held on another machine is not.
 */
function takeLock(file: string): string {
  const lock = lockPath(file);
  const mine = `${process.pid} ${hostname()}\n`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lock, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o644);
      writeSync(fd, mine);
      closeSync(fd);
      return lock;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw new JsonlError(`cannot lock ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
    let holder = '';
    try {
      holder = readFileSync(lock, 'utf8');
    } catch {
      continue; // released in between: try again
    }
    const [pidText, host] = holder.trim().split(' ');
    const pid = Number(pidText);
    const stale = host === hostname() && Number.isInteger(pid) && pid > 0 && !alive(pid);
    if (!stale) {
      throw new JsonlError(`${file} is being written by another triage run (pid ${pidText || '?'} on ${host || 'an unknown host'}): one run per --jsonl file; if none is running, remove ${lock}`);
    }
    try {
      unlinkSync(lock);
    } catch {
      // Another run took it over first: the next attempt says who.
    }
  }
  throw new JsonlError(`cannot lock ${file}: ${lock} keeps coming back`);
}

/** The records of a file that may not exist; skipped lines are counted, never trusted. */
function recordsIn(file: string): ParsedRecords {
  if (!existsSync(file)) return { records: [], skipped: 0, errors: [] };
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new JsonlError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  return parseRecords(text, file);
}

/** Records in byte order of their path (never the locale's), then of their name. */
export function sortRecords(records: TriageRecord[]): TriageRecord[] {
  return records.sort((a, b) => byCodeUnits(a.path, b.path) || byCodeUnits(a.bundle, b.bundle));
}

/** One `--jsonl` file being written by this run. */
export class JsonlOutput {
  private fd: number | undefined;
  private released = false;

  private constructor(
    readonly file: string,
    private readonly lock: string,
    /** With `--resume`: the records the file and then its `.partial` already held, in that order. */
    readonly previous: ParsedRecords,
  ) {}

  /**
   * Locks `file` and opens its `.partial` for appending: emptied for a new run, or, with
   * `resume`, rewritten with the records of the stopped run that `keep` accepts.
   */
  static open(file: string, options: { resume: boolean; keep?: (r: TriageRecord) => boolean }): JsonlOutput {
    const lock = takeLock(file);
    try {
      const partial = partialPath(file);
      let previous: ParsedRecords = { records: [], skipped: 0, errors: [] };
      if (options.resume) {
        const whole = recordsIn(file);
        const stopped = recordsIn(partial);
        previous = { records: [...whole.records, ...stopped.records].filter(options.keep ?? (() => true)), skipped: whole.skipped + stopped.skipped, errors: [...whole.errors, ...stopped.errors] };
      }
      writeFileAtomicSync(partial, previous.records.map((r) => `${JSON.stringify(r)}\n`).join(''));
      const out = new JsonlOutput(file, lock, previous);
      out.fd = openSync(partial, constants.O_WRONLY | constants.O_APPEND | constants.O_NOFOLLOW);
      return out;
    } catch (err) {
      unlinkSync(lock);
      if (err instanceof JsonlError) throw err;
      throw new JsonlError(`cannot write ${partialPath(file)}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
  }

  /** Appends one record as one line in one write: a run killed between records keeps them whole. */
  append(record: TriageRecord): void {
    if (this.fd === undefined) return;
    const line = Buffer.from(`${JSON.stringify(record)}\n`, 'utf8');
    let at = 0;
    while (at < line.length) at += writeSync(this.fd, line, at, line.length - at);
  }

  /** Writes the whole file (all `records`, in byte order) aside and renames it over the old one; removes `.partial` and the lock. */
  finish(records: TriageRecord[]): void {
    const text = sortRecords([...records])
      .map((r) => `${JSON.stringify(r)}\n`)
      .join('');
    try {
      writeFileAtomicSync(this.file, text);
    } catch (err) {
      this.release();
      throw new JsonlError(`cannot write ${this.file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message} (the records are in ${partialPath(this.file)})`);
    }
    this.closePartial();
    try {
      unlinkSync(partialPath(this.file));
    } catch {
      // already gone
    }
    this.release();
  }

  private closePartial(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
  }

  /** Gives the file up (the `.partial` stays, for `--resume`). */
  release(): void {
    this.closePartial();
    if (this.released) return;
    this.released = true;
    try {
      unlinkSync(this.lock);
    } catch {
      // removed by hand
    }
  }
}
