// Reads a zip with yauzl, lazily, one entry at a time in central-directory order. Every
// yauzl error callback is handled: a malformed zip is a problem, never a crash.
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import { emptyBody, normalizeEntryPath, unsafePath, type ArchiveEntry, type EntryHandler, type ProblemSink } from './entry.js';
import { describeStreamError } from './tar-reader.js';

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;
const S_IFDIR = 0o040000;

const OPTIONS: yauzl.Options = {
  lazyEntries: true,
  autoClose: true,
  decodeStrings: true,
  validateEntrySizes: true,
  strictFileNames: false,
};

type ZipOpener = (cb: (err: Error | null, zip?: yauzl.ZipFile) => void) => void;

/** Reads a zip file on disk. */
export function readZipFile(path: string, handler: EntryHandler, report: ProblemSink, label: string): Promise<{ entries: number }> {
  return readZip((cb) => yauzl.open(path, OPTIONS, (err, zip) => cb(err, zip)), handler, report, label);
}

/** Reads a zip held in memory (a zip nested in a tar, bounded by the caller). */
export function readZipBuffer(buffer: Buffer, handler: EntryHandler, report: ProblemSink, label: string): Promise<{ entries: number }> {
  return readZip((cb) => yauzl.fromBuffer(buffer, OPTIONS, (err, zip) => cb(err, zip)), handler, report, label);
}

function readZip(open: ZipOpener, handler: EntryHandler, report: ProblemSink, label: string): Promise<{ entries: number }> {
  return new Promise((resolve) => {
    let entries = 0;
    open((err, zip) => {
      if (err || !zip) {
        report({ kind: 'corrupt-archive', file: label, message: `zip: ${err?.message ?? 'cannot be opened'}` });
        resolve({ entries });
        return;
      }
      let settled = false;
      const finish = (): void => {
        if (settled) return;
        settled = true;
        zip.close();
        resolve({ entries });
      };
      zip.on('error', (e: Error) => {
        report({ kind: 'corrupt-archive', file: label, message: `zip: ${e.message}` });
        finish();
      });
      zip.on('end', finish);
      zip.on('entry', (raw: yauzl.Entry) => {
        entries++;
        void deliver(zip, raw, handler, report, label).then(() => {
          if (!settled) zip.readEntry();
        });
      });
      zip.readEntry();
    });
  });
}

function openStream(zip: yauzl.ZipFile, raw: yauzl.Entry): Promise<Readable> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(raw, (err, stream) => (err || !stream ? reject(err ?? new Error('no stream')) : resolve(stream)));
  });
}

async function deliver(zip: yauzl.ZipFile, raw: yauzl.Entry, handler: EntryHandler, report: ProblemSink, label: string): Promise<void> {
  const mode = (raw.externalFileAttributes >>> 16) & S_IFMT;
  const isDir = raw.fileName.endsWith('/') || mode === S_IFDIR;
  const isLink = mode === S_IFLNK;
  const unsafe = unsafePath(raw.fileName);
  // An unsafe entry is never read: keep its path as written, to show it.
  const path = unsafe ? raw.fileName.replace(/\\/g, '/') : normalizeEntryPath(raw.fileName);
  const entry: ArchiveEntry = {
    path,
    type: isDir ? 'directory' : isLink ? 'symlink' : 'file',
    size: raw.uncompressedSize,
    body: emptyBody(),
  };
  if (unsafe) entry.unsafe = unsafe;
  const mtime = raw.getLastModDate?.();
  if (mtime && !Number.isNaN(mtime.getTime())) entry.mtime = mtime.getTime();
  try {
    if (isLink) {
      // A link's target is its content: read it (small, capped) to record it, never follow it.
      const stream = await openStream(zip, raw);
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const c of stream as AsyncIterable<Buffer>) {
        size += c.length;
        if (size <= 4096) chunks.push(c);
      }
      entry.linkTarget = Buffer.concat(chunks).toString('utf8');
    } else if (!isDir) {
      const stream = await openStream(zip, raw);
      entry.body = stream as AsyncIterable<Buffer>;
      stream.on('error', () => {
        // surfaced through the iterator; the listener keeps an unread stream from crashing
      });
    }
    await handler(entry);
  } catch (err) {
    report({ kind: 'corrupt-entry', file: `${label}!/${path}`, message: `zip: ${describeStreamError(err)}` });
  }
}
