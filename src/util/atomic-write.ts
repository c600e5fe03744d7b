// Files written whole or not at all: the text goes to a new file beside the target, is flushed,
// then renamed over it, so a full disk or a killed run leaves the old file (or none), never half.
import { closeSync, constants, fsyncSync, lstatSync, openSync, realpathSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** A temporary name beside `file`, hidden, unique to this process and call. */
function tempNameFor(file: string): string {
  return join(dirname(file), `.${basename(file)}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`);
}

/**
 * Where the bytes must go: a symlink's target (the link the user made stays), or undefined when
 * the target exists and is no regular file (`/dev/null`, `/dev/stdout`, a FIFO): those are
 * written in place, since renaming over them would replace the device with a file.
 */
function renameTarget(file: string): string | undefined {
  let st;
  try {
    st = lstatSync(file);
  } catch {
    return file;
  }
  if (st.isSymbolicLink()) {
    let real: string;
    try {
      real = realpathSync(file);
    } catch {
      return file; // a dangling link: replaced by the file, as a plain write would not do, but whole
    }
    return statSync(real).isFile() ? real : undefined;
  }
  return st.isFile() ? file : undefined;
}

/** Writes all of `data` to an open file. */
function writeAll(fd: number, data: Buffer): void {
  let at = 0;
  while (at < data.length) at += writeSync(fd, data, at, data.length - at);
}

export interface AtomicWriteOptions {
  /** The new file's mode (default: the old file's, else 0o666 less the umask). */
  mode?: number;
  /**
   * Always rename over the name, whatever is there (a link, a FIFO): for files only bootlens
   * writes (the cache). By default a link is written through to its target and a device in place.
   */
  replace?: boolean;
}

/**
 * Writes `data` to `file` whole or not at all. Throws the write's error (ENOSPC, EACCES...)
 * after removing what it wrote; the old file is then untouched.
 */
export function writeFileAtomicSync(file: string, data: string | Buffer, options: AtomicWriteOptions = {}): void {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const target = options.replace ? file : renameTarget(file);
  if (target === undefined) {
    const fd = openSync(file, constants.O_WRONLY | constants.O_TRUNC);
    try {
      writeAll(fd, bytes);
    } finally {
      closeSync(fd);
    }
    return;
  }
  let fileMode = options.mode;
  if (fileMode === undefined) {
    try {
      fileMode = statSync(target).mode & 0o777;
    } catch {
      fileMode = 0o666;
    }
  }
  const tmp = tempNameFor(target);
  // O_EXCL: a name planted where the temporary file goes is never written through.
  const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, fileMode);
  try {
    try {
      writeAll(fd, bytes);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, target);
  } catch (err) {
    try {
      unlinkSync(tmp);
    } catch {
      // already gone
    }
    throw err;
  }
}
