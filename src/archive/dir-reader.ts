// Reads an unpacked bundle folder as entries, in sorted order so output is deterministic.
// Symlinks are recorded with their target and never followed. A file is opened once, without
// following a link or waiting on a FIFO, and read only if what was opened is a regular file: a
// FIFO or a link swapped in after the listing is never read (a FIFO hung the read).
import { constants } from 'node:fs';
import { lstat, open, opendir, readlink, type FileHandle } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { emptyBody, type ArchiveEntry, type EntryHandler, type ProblemSink } from './entry.js';

export interface DirReadOptions {
  /** Stops the walk between entries (the walker's limits). */
  signal?: AbortSignal;
  /** Sees every byte read from disk (the bomb guard's bytes in). */
  onRead?: (bytes: number) => void;
}

/** Counts a file's bytes as they are read from disk. */
async function* counted(stream: AsyncIterable<Buffer>, onRead: (bytes: number) => void): AsyncIterable<Buffer> {
  for await (const chunk of stream) {
    onRead(chunk.length);
    yield chunk;
  }
}

/** Opens without following a link and without blocking on a FIFO. */
const OPEN_FILE = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * The file at `path`, opened once, if what was opened is a regular file; else why not. What is
 * read is what was checked: a FIFO, device or link put in the file's place after the listing is
 * closed unread.
 */
export async function openRegularFile(path: string): Promise<FileHandle | string> {
  let handle: FileHandle;
  try {
    handle = await open(path, OPEN_FILE);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ELOOP' ? 'replaced by a link while the folder was read: not followed' : `cannot open: ${code ?? (err as Error).message}`;
  }
  const st = await handle.stat().catch(() => undefined);
  if (st?.isFile()) return handle;
  await handle.close().catch(() => undefined);
  return 'no longer a regular file when opened (a FIFO, a device or a folder took its place): not read';
}

/** Walks `root`; entry paths start with the folder's own name (`log-bundle-<ID>/...`). */
export async function readDirectory(root: string, handler: EntryHandler, report: ProblemSink, options: DirReadOptions = {}): Promise<{ entries: number }> {
  let entries = 0;
  const { signal, onRead } = options;
  async function walk(dir: string, rel: string): Promise<void> {
    let names: string[];
    try {
      const handle = await opendir(dir);
      names = [];
      for await (const d of handle) names.push(d.name);
    } catch (err) {
      report({ kind: 'corrupt-entry', file: rel, message: `cannot read folder: ${(err as Error).message}` });
      return;
    }
    names.sort();
    for (const name of names) {
      if (signal?.aborted) return;
      const full = join(dir, name);
      const path = `${rel}/${name}`;
      let st;
      try {
        st = await lstat(full);
      } catch (err) {
        report({ kind: 'corrupt-entry', file: path, message: (err as Error).message });
        continue;
      }
      entries++;
      if (st.isDirectory()) {
        await handler({ path, type: 'directory', body: emptyBody(), mtime: st.mtimeMs });
        await walk(full, path);
      } else if (st.isSymbolicLink()) {
        const target = await readlink(full).catch(() => '');
        await handler({ path, type: 'symlink', linkTarget: target, body: emptyBody(), mtime: st.mtimeMs });
      } else if (st.isFile()) {
        const handle = await openRegularFile(full);
        if (typeof handle === 'string') {
          report({ kind: 'corrupt-entry', file: path, message: handle });
          continue;
        }
        const stream = handle.createReadStream({ highWaterMark: 256 * 1024 });
        const entry: ArchiveEntry = { path, type: 'file', size: st.size, mtime: st.mtimeMs, body: onRead ? counted(stream, onRead) : stream };
        try {
          await handler(entry);
        } catch (err) {
          report({ kind: 'corrupt-entry', file: path, message: (err as Error).message });
        } finally {
          stream.destroy();
          await handle.close().catch(() => undefined);
        }
      } else {
        await handler({ path, type: 'other', body: emptyBody() });
      }
    }
  }
  await walk(root, basename(root));
  return { entries };
}
