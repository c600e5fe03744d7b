// The one interface every bundle source (tar, zip, directory) gives: entries in archive order,
// each with a body to stream once.
import type { ReadProblem } from '../model/types.js';

export type EntryType = 'file' | 'directory' | 'symlink' | 'hardlink' | 'other';

export interface ArchiveEntry {
  /** Path as written in its archive, normalised to `/` separators, no leading `./`. */
  path: string;
  type: EntryType;
  /** Declared size in bytes, when the source states it. */
  size?: number;
  /** Modification time, epoch ms. */
  mtime?: number;
  /** Target of a symlink or hard link: recorded, never followed. */
  linkTarget?: string;
  /** Why the entry's path as written may not be read (absolute, `..`); see unsafePath. */
  unsafe?: string;
  /**
   * Content of a file entry. Must be read to the end or the source stalls; the reader
   * that routes entries drains what no parser wants.
   */
  body: AsyncIterable<Buffer>;
}

/** Receives each entry; the next entry is not delivered before this resolves. */
export type EntryHandler = (entry: ArchiveEntry) => Promise<void>;

/** Where a source reports damage it could read past. */
export type ProblemSink = (problem: ReadProblem) => void;

/** An empty body, for entries without content. */
export async function* emptyBody(): AsyncIterable<Buffer> {}

/** Reads a body to its end, discarding it. */
export async function drain(body: AsyncIterable<Buffer>): Promise<void> {
  for await (const _chunk of body) {
    // discard
  }
}

/** Why a path as written in an archive leaves the bundle: absolute, or climbing with `..`. */
export function unsafePath(raw: string): string | undefined {
  const p = raw.replace(/\\/g, '/');
  if (p.startsWith('/') || /^[a-z]:/i.test(p)) return 'absolute path';
  if (p.split('/').includes('..')) return "path climbs out with '..'";
  return undefined;
}

/**
 * Normalises an archive path: `\` to `/`, no leading `./` or `/`, no empty or `.` segments.
 * `..` segments are kept so the caller can see and refuse them.
 */
export function normalizeEntryPath(raw: string): string {
  return raw
    .replace(/\\/g, '/')
    .split('/')
    .filter((seg) => seg !== '' && seg !== '.')
    .join('/');
}
