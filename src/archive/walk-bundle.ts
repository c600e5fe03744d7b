// Opens a bundle in any form (tar.gz, tar, zip, folder, nested archives) and hands every
// regular file to the caller once, as a stream, in archive order. Nothing touches the disk.
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { BundleFormat, ReadProblem } from '../model/types.js';
import { detectFormat, hasZipEnd, isEmptyTar, peek } from './detect.js';
import { readDirectory } from './dir-reader.js';
import { drain, unsafePath, type ArchiveEntry, type ProblemSink } from './entry.js';
import { gunzip } from './gzip.js';
import { readTar } from './tar-reader.js';
import { readZipBuffer, readZipFile } from './zip-reader.js';

/** Input that cannot be read as a bundle at all: the CLI prints the message and exits 2. */
export class InputError extends Error {
  override readonly name = 'InputError';
}

export interface ReadLimits {
  /** Uncompressed bytes of all entries together. */
  maxTotalBytes: number;
  maxEntries: number;
  /** Bytes read from one entry; the rest is skipped. */
  maxEntryBytes: number;
  /** Archives inside archives. */
  maxDepth: number;
  /** A zip nested in a tar needs random access: it is held in memory up to this size. */
  maxNestedZipBytes: number;
  /**
   * Uncompressed bytes per byte read from disk (tar.gz, zip and folder alike), checked past
   * `ratioCheckFrom` (512 MiB by default): logs compress about
   * 10-30 times, a decompression bomb thousands of times.
   */
  maxRatio: number;
  /** Uncompressed bytes from which the ratio is checked (small bundles may compress well). */
  ratioCheckFrom: number;
}

export const DEFAULT_READ_LIMITS: ReadLimits = {
  maxTotalBytes: 32 * 1024 ** 3,
  maxEntries: 500_000,
  maxEntryBytes: 8 * 1024 ** 3,
  maxDepth: 4,
  maxNestedZipBytes: 128 * 1024 ** 2,
  maxRatio: 400,
  ratioCheckFrom: 512 * 1024 ** 2,
};

/** A regular file of the bundle, with nested archives resolved. */
export interface BundleFile {
  /** Path to cite: nested archives joined with `!/`. */
  path: string;
  /** Path for layout matching: a nested archive's entries sit under the archive's folder. */
  logicalPath: string;
  size?: number;
  mtime?: number;
  body: AsyncIterable<Buffer>;
}

export type FileHandler = (file: BundleFile) => Promise<void>;

export interface WalkResult {
  format: BundleFormat;
  entries: number;
  bytes: number;
  nestedArchives: string[];
  /** Set when a limit stopped the walk before the end: what was not read. */
  stopped?: string;
}

const ARCHIVE_EXT = /\.(tar\.gz|tgz|tar|zip|gz)$/i;

/** Whether a single file that is no archive is still worth reading (the caller knows which text it reads). */
export type FileSniffer = (head: Buffer) => boolean;

/** Bytes of a lone file shown to the sniffer. */
const FILE_SNIFF_BYTES = 16 * 1024;

class Walker {
  entries = 0;
  bytes = 0;
  /** Bytes read from disk, for the decompression ratio. */
  rawBytes = 0;
  readonly nested: string[] = [];
  /** Why the walk stopped before the end, when a limit stopped it. */
  stopped: string | undefined;
  /** Files and links, for the entry limit; folders have their own count and never use it up. */
  private files = 0;
  private folders = 0;
  /** Paths already read: a second entry with the same path would silently replace the first. */
  private readonly seen = new Set<string>();
  private readonly stop = new AbortController();

  constructor(
    private readonly onFile: FileHandler,
    private readonly report: ProblemSink,
    private readonly limits: ReadLimits,
  ) {}

  get signal(): AbortSignal {
    return this.stop.signal;
  }

  /** Handles one archive entry at nesting `depth`, under display/logical prefixes. */
  async entry(entry: ArchiveEntry, display: string, logical: string, depth: number): Promise<void> {
    const path = display ? `${display}!/${entry.path}` : entry.path;
    const logicalPath = logical ? `${logical}/${entry.path}` : entry.path;
    // An entry not read is left to its source, which skips its bytes (tar) or never reads them.
    if (this.stop.signal.aborted) return;
    this.entries++;
    const folder = entry.type === 'directory';
    if ((folder ? ++this.folders : ++this.files) > this.limits.maxEntries) {
      const what = folder ? 'folders' : 'entries';
      this.halt({ kind: 'limit', file: path, message: `more than ${this.limits.maxEntries} ${what}: the rest was not read`, leftOut: true });
      return;
    }
    const unsafe = entry.unsafe ?? unsafePath(entry.path);
    if (unsafe) {
      this.report({ kind: 'unsafe-path', file: path, message: `${unsafe}: recorded, not read` });
      return;
    }
    if (folder) return;
    if (this.seen.has(path)) {
      this.report({ kind: 'corrupt-entry', file: path, message: 'a second entry with the same path: not read (the first one was)' });
      return;
    }
    this.seen.add(path);
    if (entry.type === 'symlink' || entry.type === 'hardlink') {
      const target = entry.linkTarget ?? '';
      const escapes = target.startsWith('/') || /^[a-z]:/i.test(target) || target.replace(/\\/g, '/').split('/').includes('..');
      this.report({ kind: 'link-not-followed', file: path, message: `${entry.type} to ${target}${escapes ? '' : ' (inside the bundle)'}: not followed` });
      return;
    }
    if (entry.type !== 'file') return;
    const counted = this.count(entry.body, path);
    const { head, body } = await peek(counted);
    await this.content(head, body, { path, logicalPath, size: entry.size, mtime: entry.mtime }, depth);
  }

  /** Routes content by its bytes: a nested archive is read through, anything else is a file. */
  private async content(
    head: Buffer,
    body: AsyncIterable<Buffer>,
    file: Omit<BundleFile, 'body'>,
    depth: number,
  ): Promise<void> {
    const format = detectFormat(head);
    const nestedLogical = file.logicalPath.replace(ARCHIVE_EXT, '');
    if (format === 'gzip' || format === 'tar' || format === 'zip') {
      if (depth >= this.limits.maxDepth) {
        this.report({ kind: 'limit', file: file.path, message: `archive nested deeper than ${this.limits.maxDepth} levels: not read`, leftOut: true });
        return drain(body);
      }
    }
    if (format === 'gzip') {
      const inner = await peek(gunzip(body, this.report, file.path), 1024);
      if (isEmptyTar(inner.head)) {
        this.report({ kind: 'empty', file: file.path, message: 'an empty archive' });
        return;
      }
      if (detectFormat(inner.head) === 'tar') {
        this.nested.push(file.path);
        await this.tar(inner.body, file.path, nestedLogical, depth + 1);
      } else {
        // A single gzipped file (`kubelet.log.gz`): read it as the file without `.gz`, whose
        // size the archive does not tell.
        const { size: _compressed, ...rest } = file;
        const plain = { ...rest, logicalPath: file.logicalPath.replace(/\.gz$/i, '') };
        await this.deliverSafely(inner.head, inner.body, plain);
      }
      return;
    }
    if (format === 'tar') {
      this.nested.push(file.path);
      await this.tar(body, file.path, nestedLogical, depth + 1);
      return;
    }
    if (format === 'zip') {
      const buffer = await this.bounded(body, this.limits.maxNestedZipBytes);
      if (!buffer) {
        this.report({ kind: 'limit', file: file.path, message: `nested zip larger than ${this.limits.maxNestedZipBytes} bytes: not read`, leftOut: true });
        return;
      }
      this.nested.push(file.path);
      await readZipBuffer(buffer, (e) => this.entry(e, file.path, nestedLogical, depth + 1), this.report, file.path, { signal: this.signal });
      return;
    }
    await this.deliverSafely(head, body, file);
  }

  private async deliverSafely(_head: Buffer, body: AsyncIterable<Buffer>, file: Omit<BundleFile, 'body'>): Promise<void> {
    try {
      await this.onFile({ ...file, body });
    } finally {
      await drain(body).catch(() => undefined);
    }
  }

  async tar(bytes: AsyncIterable<Buffer>, display: string, logical: string, depth: number): Promise<number> {
    const { entries } = await readTar(bytes, (e) => this.entry(e, display, logical, depth), this.report, display || 'bundle', this.signal);
    return entries;
  }

  /** Counts bytes against the limits; an entry over its limit is cut, the bundle over its limit stops. */
  private async *count(body: AsyncIterable<Buffer>, path: string): AsyncIterable<Buffer> {
    let entryBytes = 0;
    let cut = false;
    for await (const chunk of body) {
      if (cut || this.stop.signal.aborted) continue;
      entryBytes += chunk.length;
      this.bytes += chunk.length;
      if (this.rawBytes > 0 && this.bytes > this.limits.ratioCheckFrom && this.bytes / this.rawBytes > this.limits.maxRatio) {
        this.halt({
          kind: 'limit',
          file: path,
          message: `${Math.round(this.bytes / this.rawBytes)} bytes out per byte in: a decompression bomb, reading stopped here`,
          leftOut: true,
        });
        continue;
      }
      if (this.bytes > this.limits.maxTotalBytes) {
        this.halt({ kind: 'limit', file: path, message: `bundle larger than ${this.limits.maxTotalBytes} bytes uncompressed: reading stopped here`, leftOut: true });
        continue;
      }
      if (entryBytes > this.limits.maxEntryBytes) {
        cut = true;
        this.report({ kind: 'limit', file: path, message: `entry larger than ${this.limits.maxEntryBytes} bytes: the rest was skipped`, leftOut: true });
        continue;
      }
      yield chunk;
    }
  }

  private async bounded(body: AsyncIterable<Buffer>, max: number): Promise<Buffer | undefined> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const c of body) {
      size += c.length;
      if (size <= max) chunks.push(c);
    }
    return size <= max ? Buffer.concat(chunks) : undefined;
  }

  private halt(problem: ReadProblem): void {
    if (!this.stop.signal.aborted) {
      this.report(problem);
      this.stopped = problem.message;
    }
    this.stop.abort();
  }
}

/** Whether a file ends with a zip's end record (its comment may follow it). */
async function endsLikeZip(path: string, size: number): Promise<boolean> {
  const span = Math.min(size, 22 + 0xffff);
  const handle = await open(path, 'r');
  try {
    const tail = Buffer.alloc(span);
    const { bytesRead } = await handle.read(tail, 0, span, size - span);
    return hasZipEnd(tail.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

/** Counts the bytes read from disk as they pass. */
async function* countRaw(source: AsyncIterable<Buffer>, walker: Walker, total: number, onProgress?: ProgressSink): AsyncIterable<Buffer> {
  let reported = 0;
  for await (const chunk of source) {
    walker.rawBytes += chunk.length;
    if (onProgress && walker.rawBytes - reported >= PROGRESS_STEP) {
      reported = walker.rawBytes;
      onProgress(walker.rawBytes, total);
    }
    yield chunk;
  }
  onProgress?.(walker.rawBytes, total);
}

/** Bytes read from disk of the bundle's size; called every few megabytes. */
export type ProgressSink = (read: number, total: number) => void;

const PROGRESS_STEP = 8 * 1024 * 1024;

/**
 * Reads the bundle at `inputPath` and calls `onFile` for every regular file, once, in order.
 * Throws InputError when the input is missing or is not a bundle in any supported form.
 */
export async function walkBundle(
  inputPath: string,
  onFile: FileHandler,
  report: ProblemSink,
  limits: ReadLimits = DEFAULT_READ_LIMITS,
  onProgress?: ProgressSink,
  acceptFile?: FileSniffer,
): Promise<WalkResult> {
  const st = await stat(inputPath).catch((err: NodeJS.ErrnoException) => {
    throw new InputError(err.code === 'ENOENT' ? `no such file or folder: ${inputPath}` : `cannot read ${inputPath}: ${err.message}`);
  });
  const walker = new Walker(onFile, report, limits);
  const name = basename(inputPath);
  const result = (format: BundleFormat): WalkResult => ({
    format,
    entries: walker.entries,
    bytes: walker.bytes,
    nestedArchives: walker.nested,
    ...(walker.stopped ? { stopped: walker.stopped } : {}),
  });
  if (st.isDirectory()) {
    const onRead = (n: number): void => {
      walker.rawBytes += n;
    };
    await readDirectory(inputPath, (e) => walker.entry(e, '', '', 0), report, { signal: walker.signal, onRead });
    return result('directory');
  }
  if (!st.isFile()) throw new InputError(`not a file or folder: ${inputPath}`);
  if (st.size === 0) throw new InputError(`${inputPath} is empty`);

  // Reads as large as the inflater's pieces (see inflate.ts): each read is a round trip too.
  const stream = createReadStream(inputPath, { highWaterMark: 1024 * 1024 });
  const { head, body } = await peek(countRaw(stream, walker, st.size, onProgress));
  const format = detectFormat(head);
  // A zip is read from its end by its own reader: bytes in are the ones it reads, not the head.
  const readZip = async (): Promise<WalkResult> => {
    stream.destroy();
    walker.rawBytes = 0;
    await readZipFile(inputPath, (e) => walker.entry(e, '', '', 0), report, name, {
      signal: walker.signal,
      onRead: (n) => {
        walker.rawBytes += n;
      },
    });
    return result('zip');
  };
  try {
    switch (format) {
      case 'gzip': {
        const inner = await peek(gunzip(body, report, name), FILE_SNIFF_BYTES).catch(() => undefined);
        if (!inner || inner.head.length === 0) throw new InputError(`${inputPath} is a gzip file that cannot be decompressed`);
        if (isEmptyTar(inner.head)) return result('tar.gz');
        if (detectFormat(inner.head) === 'tar') {
          await walker.tar(inner.body, '', '', 0);
          return result('tar.gz');
        }
        if (acceptFile?.(inner.head)) {
          await walker.entry({ path: name.replace(/\.gz$/i, ''), type: 'file', body: inner.body }, '', '', 0);
          return result('file');
        }
        throw new InputError(`${inputPath} is gzip-compressed but holds no tar archive: not a log bundle`);
      }
      case 'tar':
        await walker.tar(body, '', '', 0);
        return result('tar');
      case 'zip':
        return readZip();
      case 'bzip2':
      case 'xz':
      case 'zstd':
        throw new InputError(`${inputPath} is ${format}-compressed: decompress it first (bootlens reads tar.gz, tar, zip and folders)`);
      default: {
        if (isEmptyTar(head)) return result('tar');
        const more = await peek(body, FILE_SNIFF_BYTES);
        if (acceptFile?.(more.head)) {
          await walker.entry({ path: name, type: 'file', body: more.body }, '', '', 0);
          return result('file');
        }
        if (await endsLikeZip(inputPath, st.size)) {
          // Bytes before a zip (a self-extractor stub, a concatenation): the zip is found from its end.
          return readZip();
        }
        throw new InputError(`${inputPath} is not a log bundle: expected a tar.gz, tar, zip or folder, or text bootlens reads (the installer's output, a journalctl journal, a serial console capture)`);
      }
    }
  } finally {
    stream.destroy();
  }
}
