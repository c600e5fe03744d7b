// Reads a tar stream (already decompressed) with node-tar's parser, entry by entry, in
// archive order. Damage becomes problems; what lies before and after it is still read.
import { Parser, type ReadEntry } from 'tar';
import type { ReadProblemKind } from '../model/types.js';
import { emptyBody, normalizeEntryPath, unsafePath, type ArchiveEntry, type EntryHandler, type EntryType, type ProblemSink } from './entry.js';

function entryType(type: string): EntryType {
  switch (type) {
    case 'File':
    case 'OldFile':
    case 'ContiguousFile':
      return 'file';
    case 'Directory':
    case 'GNUDumpDir':
      return 'directory';
    case 'SymbolicLink':
      return 'symlink';
    case 'Link':
      return 'hardlink';
    default:
      return 'other';
  }
}

function problemKind(code: string, message: string): ReadProblemKind {
  if (/truncated/i.test(message)) return 'truncated-archive';
  if (code === 'TAR_ENTRY_INVALID' || code === 'TAR_BAD_ARCHIVE') return 'corrupt-archive';
  return 'corrupt-entry';
}

/**
 * Streams `bytes` (a plain tar) through node-tar, calling `handler` for each entry; resolves
 * when the archive and every handler are done. `label` names the archive in problems.
 * A failure of `bytes` (a truncated gzip below) is reported and ends the archive there.
 */
export async function readTar(
  bytes: AsyncIterable<Buffer>,
  handler: EntryHandler,
  report: ProblemSink,
  label: string,
  signal?: AbortSignal,
): Promise<{ entries: number }> {
  const parser = new Parser({ strict: false });
  let chain: Promise<void> = Promise.resolve();
  let entries = 0;
  let aborted = false;
  // Corrupt regions make node-tar warn once per 512-byte block: report each kind once, counted.
  const warnings = new Map<string, { kind: ReadProblemKind; message: string; count: number }>();

  parser.on('entry', (e: ReadEntry) => {
    entries++;
    chain = chain.then(() => deliver(e, handler, report, label));
  });
  parser.on('warn', (code: string, message: string | Error) => {
    const text = typeof message === 'string' ? message : message.message;
    const key = `${code}:${text.replace(/\d+/g, 'N')}`;
    const seen = warnings.get(key);
    if (seen) seen.count++;
    else warnings.set(key, { kind: problemKind(code, text), message: text, count: 1 });
  });
  const finished = new Promise<void>((resolve) => {
    parser.on('end', () => resolve());
    parser.on('close', () => resolve());
    parser.on('error', (err: Error) => {
      aborted = true;
      report({ kind: 'corrupt-archive', file: label, message: `tar: ${err.message}` });
      resolve();
    });
  });

  try {
    for await (const chunk of bytes) {
      if (aborted || signal?.aborted) break;
      if (!parser.write(chunk)) await drained(parser);
    }
  } catch (err) {
    report({ kind: 'truncated-archive', file: label, message: describeStreamError(err) });
  }
  parser.end();
  await finished;
  await chain;
  for (const w of warnings.values()) {
    const times = w.count > 1 ? ` (${w.count} times)` : '';
    report({ kind: w.kind, file: label, message: `tar: ${w.message}${times}` });
  }
  return { entries };
}

function drained(parser: Parser): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      parser.off('drain', done);
      parser.off('error', done);
      parser.off('close', done);
      resolve();
    };
    parser.on('drain', done);
    parser.on('error', done);
    parser.on('close', done);
  });
}

async function deliver(e: ReadEntry, handler: EntryHandler, report: ProblemSink, label: string): Promise<void> {
  const type = entryType(e.type);
  const unsafe = unsafePath(e.path);
  const entry: ArchiveEntry = {
    // An unsafe entry is never read: keep its path as written, to show it.
    path: unsafe ? e.path.replace(/\\/g, '/') : normalizeEntryPath(e.path),
    type,
    size: e.size,
    body: type === 'file' ? (e as AsyncIterable<Buffer>) : emptyBody(),
  };
  if (e.mtime) entry.mtime = e.mtime.getTime();
  if (unsafe) entry.unsafe = unsafe;
  if (e.linkpath) entry.linkTarget = e.linkpath;
  try {
    await handler(entry);
  } catch (err) {
    report({ kind: 'corrupt-entry', file: `${label}!/${entry.path}`, message: describeStreamError(err) });
  } finally {
    // Whatever the handler left unread must still flow, or the parser stalls.
    e.resume();
  }
}

/** One line for a stream failure: zlib's codes read better as words. */
export function describeStreamError(err: unknown): string {
  const e = err as { code?: string; message?: string };
  if (e?.code === 'Z_BUF_ERROR' || /unexpected end of file/i.test(e?.message ?? '')) {
    return 'gzip stream ends early: the archive is truncated';
  }
  if (e?.code === 'Z_DATA_ERROR') return `gzip data is corrupt (${e.message ?? 'bad data'})`;
  return e?.message ?? String(err);
}
