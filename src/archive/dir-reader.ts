// Reads an unpacked bundle folder as entries, in sorted order so output is deterministic.
// Symlinks are recorded with their target and never followed.
import { createReadStream } from 'node:fs';
import { lstat, opendir, readlink } from 'node:fs/promises';
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
        const stream = createReadStream(full, { highWaterMark: 256 * 1024 });
        const entry: ArchiveEntry = { path, type: 'file', size: st.size, mtime: st.mtimeMs, body: onRead ? counted(stream, onRead) : stream };
        try {
          await handler(entry);
        } catch (err) {
          report({ kind: 'corrupt-entry', file: path, message: (err as Error).message });
        } finally {
          stream.destroy();
        }
      } else {
        await handler({ path, type: 'other', body: emptyBody() });
      }
    }
  }
  await walk(root, basename(root));
  return { entries };
}
