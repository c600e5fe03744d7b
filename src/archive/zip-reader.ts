// Reads a zip entry by entry, in central-directory order, with bootlens's own checks: a bad
// entry (unsafe name, encryption, unknown method, sizes that disagree, data past the end,
// a CRC that does not hold) is a problem of that entry and the next one is still read. Only a
// damaged central directory ends the walk, at the damage. Nothing is written to disk.
import * as zlib from 'node:zlib';
import { ByteSource } from './byte-source.js';
import { emptyBody, normalizeEntryPath, unsafePath, type ArchiveEntry, type EntryHandler, type EntryType, type ProblemSink } from './entry.js';
import { inflateRaw } from './inflate.js';
import { bufferAccess, fileAccess, rangeOf, type RandomAccess } from './random-access.js';
import { describeStreamError } from './tar-reader.js';

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const MAX_COMMENT = 0xffff;
/** Central directory bytes read at once. */
const WINDOW = 1024 * 1024;
/** A link's target is its content: read this much of it at most. */
const MAX_LINK = 4096;

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;
const S_IFDIR = 0o040000;
const MADE_BY_UNIX = 3;

const crc32: ((data: Buffer, value?: number) => number) | undefined = (zlib as { crc32?: (data: Buffer, value?: number) => number }).crc32;

export interface ZipReadOptions {
  /** Stops the walk between entries (the walker's limits). */
  signal?: AbortSignal;
  /** Sees every byte read from disk (the bomb guard's bytes in). */
  onRead?: (bytes: number) => void;
}

/** Reads a zip file on disk. */
export async function readZipFile(path: string, handler: EntryHandler, report: ProblemSink, label: string, options: ZipReadOptions = {}): Promise<{ entries: number }> {
  let access: RandomAccess;
  try {
    access = await fileAccess(path, options.onRead);
  } catch (err) {
    report({ kind: 'corrupt-archive', file: label, message: `zip: ${(err as Error).message}` });
    return { entries: 0 };
  }
  try {
    return await readZip(access, handler, report, label, options.signal);
  } finally {
    await access.close();
  }
}

/** Reads a zip held in memory (a zip nested in a tar, bounded by the caller). */
export function readZipBuffer(buffer: Buffer, handler: EntryHandler, report: ProblemSink, label: string, options: ZipReadOptions = {}): Promise<{ entries: number }> {
  return readZip(bufferAccess(buffer), handler, report, label, options.signal);
}

interface Directory {
  offset: number;
  size: number;
  /** Bytes before the zip (a self-extractor stub, a careless concatenation): added to every offset. */
  shift: number;
}

/** Finds the central directory from the end record (zip64 when the fields overflow). */
async function findDirectory(access: RandomAccess): Promise<Directory | string> {
  const tailStart = Math.max(0, access.size - (22 + MAX_COMMENT));
  const tail = await access.read(tailStart, access.size - tailStart);
  let at = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (tail.readUInt32LE(i) !== EOCD) continue;
    // The comment must reach to the end (or short of it, when bytes were appended).
    if (i + 22 + tail.readUInt16LE(i + 20) <= tail.length) {
      at = i;
      break;
    }
  }
  if (at < 0) return 'no end of central directory record: the zip is truncated or damaged';
  const eocdPos = tailStart + at;
  let size = tail.readUInt32LE(at + 12);
  let offset = tail.readUInt32LE(at + 16);
  let zip64 = false;
  if (size === 0xffffffff || offset === 0xffffffff || tail.readUInt16LE(at + 10) === 0xffff) {
    const locator = eocdPos >= 20 ? await access.read(eocdPos - 20, 20) : Buffer.alloc(0);
    if (locator.length === 20 && locator.readUInt32LE(0) === ZIP64_LOCATOR) {
      const recordAt = Number(locator.readBigUInt64LE(8));
      const record = await access.read(recordAt, 56);
      if (record.length < 56 || record.readUInt32LE(0) !== ZIP64_EOCD) return 'zip64 end of central directory record is damaged';
      zip64 = true;
      size = Number(record.readBigUInt64LE(40));
      offset = Number(record.readBigUInt64LE(48));
    }
  }
  if (offset + size > eocdPos) return `central directory (${size} bytes at ${offset}) runs past its end record`;
  // The directory ends where the end record starts; when the offsets say otherwise, bytes were put before the zip.
  const shift = size > 0 && !zip64 ? eocdPos - size - offset : 0;
  if (shift > 0) {
    const stated = await access.read(offset, 4);
    if (stated.length === 4 && stated.readUInt32LE(0) === CENTRAL) return { offset, size, shift: 0 };
    return { offset: offset + shift, size, shift };
  }
  return { offset, size, shift: 0 };
}

/** Reads the central directory in windows, so a huge one is never held whole. */
class DirectoryCursor {
  private window: Buffer = Buffer.alloc(0);
  private windowAt: number;

  constructor(
    private readonly access: RandomAccess,
    private at: number,
    private readonly end: number,
  ) {
    this.windowAt = at;
  }

  get position(): number {
    return this.at;
  }

  get remaining(): number {
    return this.end - this.at;
  }

  /** The next `n` bytes, or undefined past the directory's end. */
  async take(n: number): Promise<Buffer | undefined> {
    if (this.at + n > this.end) return undefined;
    const from = this.at - this.windowAt;
    if (from + n > this.window.length) {
      this.window = await this.access.read(this.at, Math.min(this.end - this.at, Math.max(WINDOW, n)));
      this.windowAt = this.at;
      if (this.window.length < n) return undefined;
    }
    const start = this.at - this.windowAt;
    this.at += n;
    return this.window.subarray(start, start + n);
  }
}

/** One central-directory record, as bootlens needs it. */
interface ZipRecord {
  name: string;
  type: EntryType;
  flags: number;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  localOffset: number;
  mtime?: number;
  /** Why the entry cannot be read, known from its record alone. */
  damage?: string;
}

/** Names are UTF-8 when flagged or when they decode as UTF-8; otherwise read byte for byte. */
function decodeName(raw: Buffer, utf8Flag: boolean): string {
  if (utf8Flag) return raw.toString('utf8');
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    return raw.toString('latin1');
  }
}

/** MS-DOS date and time as epoch ms (local time, as zip tools write it). */
function dosTime(date: number, time: number): number | undefined {
  const d = new Date(((date >> 9) & 0x7f) + 1980, ((date >> 5) & 0xf) - 1, date & 0x1f, (time >> 11) & 0x1f, (time >> 5) & 0x3f, (time & 0x1f) * 2);
  const ms = d.getTime();
  return Number.isNaN(ms) ? undefined : ms;
}

/** Reads one record at the cursor; a string when the directory itself is damaged there. */
async function readRecord(cursor: DirectoryCursor): Promise<ZipRecord | string> {
  const fixed = await cursor.take(46);
  if (!fixed) return 'central directory ends inside a record';
  if (fixed.readUInt32LE(0) !== CENTRAL) return `central directory damaged at offset ${cursor.position - 46}`;
  const nameLength = fixed.readUInt16LE(28);
  const extraLength = fixed.readUInt16LE(30);
  const commentLength = fixed.readUInt16LE(32);
  const variable = await cursor.take(nameLength + extraLength + commentLength);
  if (!variable) return 'central directory ends inside a record';
  const madeBy = fixed.readUInt16LE(4) >> 8;
  const flags = fixed.readUInt16LE(8);
  const external = fixed.readUInt32LE(38);
  const rawName = variable.subarray(0, nameLength);
  const name = decodeName(rawName, (flags & 0x800) !== 0);
  const mode = madeBy === MADE_BY_UNIX ? (external >>> 16) & S_IFMT : 0;
  const isDir = /[/\\]$/.test(name) || mode === S_IFDIR || (madeBy !== MADE_BY_UNIX && (external & 0x10) !== 0);
  const record: ZipRecord = {
    name,
    type: isDir ? 'directory' : mode === S_IFLNK ? 'symlink' : 'file',
    flags,
    method: fixed.readUInt16LE(10),
    crc: fixed.readUInt32LE(16),
    compressedSize: fixed.readUInt32LE(20),
    size: fixed.readUInt32LE(24),
    localOffset: fixed.readUInt32LE(42),
  };
  const mtime = dosTime(fixed.readUInt16LE(14), fixed.readUInt16LE(12));
  if (mtime !== undefined) record.mtime = mtime;
  zip64Sizes(record, variable.subarray(nameLength, nameLength + extraLength));
  checkRecord(record);
  return record;
}

/** Marks what makes an entry unreadable from its fields alone. */
function checkRecord(record: ZipRecord): void {
  if (record.flags & 0x41) record.damage ??= 'the entry is encrypted: not read';
  if (record.method !== 0 && record.method !== 8) record.damage ??= `compression method ${record.method} is not supported: not read`;
  if (record.method === 0 && record.compressedSize !== record.size) {
    record.damage ??= `stored entry's sizes disagree (${record.compressedSize} stored, ${record.size} declared): not read`;
  }
}

/** Replaces overflowed 32-bit fields by the zip64 extra field's; marks the record when it lacks them. */
function zip64Sizes(record: ZipRecord, extra: Buffer): void {
  const wanted = [record.size, record.compressedSize, record.localOffset].filter((v) => v === 0xffffffff).length;
  if (wanted === 0) return;
  for (let i = 0; i + 4 <= extra.length; ) {
    const id = extra.readUInt16LE(i);
    const length = extra.readUInt16LE(i + 2);
    const data = extra.subarray(i + 4, i + 4 + length);
    i += 4 + length;
    if (id !== 0x0001) continue;
    let at = 0;
    const next = (): number | undefined => {
      if (at + 8 > data.length) return undefined;
      at += 8;
      return Number(data.readBigUInt64LE(at - 8));
    };
    if (record.size === 0xffffffff) record.size = next() ?? NaN;
    if (record.compressedSize === 0xffffffff) record.compressedSize = next() ?? NaN;
    if (record.localOffset === 0xffffffff) record.localOffset = next() ?? NaN;
    if ([record.size, record.compressedSize, record.localOffset].some(Number.isNaN)) record.damage = 'zip64 sizes missing from the entry: not read';
    return;
  }
  record.damage = 'zip64 sizes missing from the entry: not read';
}

function entryError(message: string): Error {
  return new Error(message);
}

/**
 * The entry's content, checked as it is read: the local header must be there, the data must lie
 * inside the file, the output must match the declared size and the CRC. Throws at the damage,
 * after handing on what came before it.
 */
async function* contentOf(access: RandomAccess, record: ZipRecord): AsyncGenerator<Buffer, void, undefined> {
  if (record.damage) throw entryError(record.damage);
  const local = await access.read(record.localOffset, 30);
  if (local.length < 30 || local.readUInt32LE(0) !== LOCAL) throw entryError(`no local header at offset ${record.localOffset}: not read`);
  const dataAt = record.localOffset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
  // A zip cut short still gives what its last entry holds before the cut.
  const cut = dataAt + record.compressedSize > access.size;
  const raw = rangeOf(access, dataAt, record.compressedSize);
  const body = record.method === 8 ? inflateRaw(new ByteSource(raw)) : raw;
  let size = 0;
  let crc = 0;
  try {
    for await (const chunk of body) {
      const room = record.size - size;
      const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
      size += part.length;
      if (crc32) crc = crc32(part, crc);
      if (part.length > 0) yield part;
      if (chunk.length > room) throw entryError(`inflates past its declared size of ${record.size} bytes: the rest was not read`);
    }
  } catch (err) {
    throw cut ? entryError('the entry runs past the end of the zip: truncated') : err;
  }
  if (cut) throw entryError('the entry runs past the end of the zip: truncated');
  if (size < record.size) throw entryError(`${size} of ${record.size} declared bytes: the entry is damaged`);
  if (crc32 && crc >>> 0 !== record.crc) throw entryError('CRC does not match: the content is damaged');
}

async function readLink(access: RandomAccess, record: ZipRecord): Promise<string> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const c of contentOf(access, { ...record, size: Math.min(record.size, MAX_LINK) })) {
    parts.push(c);
    size += c.length;
    if (size >= MAX_LINK) break;
  }
  return Buffer.concat(parts).toString('utf8');
}

async function readZip(access: RandomAccess, handler: EntryHandler, report: ProblemSink, label: string, signal?: AbortSignal): Promise<{ entries: number }> {
  let entries = 0;
  const found = await findDirectory(access).catch((err: Error) => err.message);
  if (typeof found === 'string') {
    report({ kind: 'corrupt-archive', file: label, message: `zip: ${found}; entries read one by one from the start` });
    return { entries: await scanLocalHeaders(access, handler, report, label, signal) };
  }
  const cursor = new DirectoryCursor(access, found.offset, found.offset + found.size);
  while (cursor.remaining > 0 && !signal?.aborted) {
    const record = await readRecord(cursor).catch((err: Error) => err.message);
    if (typeof record === 'string') {
      report({ kind: 'corrupt-archive', file: label, message: `zip: ${record}; the entries after it were not read` });
      break;
    }
    entries++;
    record.localOffset += found.shift;
    await deliver(access, record, handler, report, label);
  }
  return { entries };
}

/** Where the data of an entry read without its directory record ended, once it has been read. */
interface ScanState {
  end?: number;
}

/** Inflates to the end of the deflate stream at `dataAt`, noting where it ended. */
async function* inflateToEnd(access: RandomAccess, dataAt: number, state: ScanState): AsyncGenerator<Buffer, void, undefined> {
  const src = new ByteSource(rangeOf(access, dataAt, access.size - dataAt));
  yield* inflateRaw(src);
  state.end = dataAt + src.consumed;
}

/**
 * Without a central directory (a zip cut short, most often), entries are read from their local
 * headers in file order until the data ends. An entry whose sizes follow its data (bit 3) is
 * found by inflating it; a stored one of that kind cannot be, and ends the walk.
 */
async function scanLocalHeaders(access: RandomAccess, handler: EntryHandler, report: ProblemSink, label: string, signal?: AbortSignal): Promise<number> {
  let entries = 0;
  let at = 0;
  while (!signal?.aborted) {
    const fixed = await access.read(at, 30);
    if (fixed.length >= 4 && fixed.readUInt32LE(0) === CENTRAL) break;
    if (fixed.length < 30 || fixed.readUInt32LE(0) !== LOCAL) {
      if (at > 0 || fixed.length > 0) report({ kind: 'truncated-archive', file: label, message: `zip: no entry at offset ${at} (after ${entries} entries): the rest is missing` });
      break;
    }
    const nameLength = fixed.readUInt16LE(26);
    const extraLength = fixed.readUInt16LE(28);
    const variable = await access.read(at + 30, nameLength + extraLength);
    if (variable.length < nameLength + extraLength) {
      report({ kind: 'truncated-archive', file: label, message: `zip: the zip ends inside the header at offset ${at}` });
      break;
    }
    const flags = fixed.readUInt16LE(6);
    const name = decodeName(variable.subarray(0, nameLength), (flags & 0x800) !== 0);
    const record: ZipRecord = {
      name,
      type: /[/\\]$/.test(name) ? 'directory' : 'file',
      flags,
      method: fixed.readUInt16LE(8),
      crc: fixed.readUInt32LE(14),
      compressedSize: fixed.readUInt32LE(18),
      size: fixed.readUInt32LE(22),
      localOffset: at,
    };
    const mtime = dosTime(fixed.readUInt16LE(12), fixed.readUInt16LE(10));
    if (mtime !== undefined) record.mtime = mtime;
    const dataAt = at + 30 + nameLength + extraLength;
    const state: ScanState = {};
    let body: AsyncGenerator<Buffer, void, undefined>;
    if (flags & 0x08) {
      if (record.method !== 8 || flags & 0x41) {
        report({ kind: 'corrupt-archive', file: label, message: `zip: entry ${name} gives no sizes and cannot be measured: the entries after it were not read` });
        break;
      }
      body = inflateToEnd(access, dataAt, state);
    } else {
      zip64Sizes(record, variable.subarray(nameLength));
      checkRecord(record);
      body = contentOf(access, record);
      if (Number.isFinite(record.compressedSize)) state.end = dataAt + record.compressedSize;
    }
    entries++;
    await deliverScanned(record, body, handler, report, label, state.end === undefined);
    if (state.end === undefined) break;
    at = (flags & 0x08) !== 0 ? await afterDescriptor(access, state.end) : state.end;
  }
  return entries;
}

/** The offset of the next header after a data descriptor (its signature is optional, zip64 makes it longer). */
async function afterDescriptor(access: RandomAccess, end: number): Promise<number> {
  const probe = await access.read(end, 32);
  for (const skip of [16, 12, 24, 20]) {
    if (skip + 4 <= probe.length && [LOCAL, CENTRAL].includes(probe.readUInt32LE(skip))) return end + skip;
  }
  return end + 16;
}

async function deliverScanned(
  record: ZipRecord,
  body: AsyncGenerator<Buffer, void, undefined>,
  handler: EntryHandler,
  report: ProblemSink,
  label: string,
  readToEnd: boolean,
): Promise<void> {
  const unsafe = unsafePath(record.name);
  const path = unsafe ? record.name.replace(/\\/g, '/') : normalizeEntryPath(record.name);
  const entry: ArchiveEntry = { path, type: record.type, body: record.type === 'file' ? body : emptyBody() };
  if (!(record.flags & 0x08)) entry.size = record.size;
  if (unsafe) entry.unsafe = unsafe;
  if (record.mtime !== undefined) entry.mtime = record.mtime;
  try {
    await handler(entry);
    // The next header lies after this entry's data, found by reading it: read what the walker left.
    if (readToEnd) {
      for await (const _chunk of body) {
        // skipped
      }
    }
  } catch (err) {
    report({ kind: 'corrupt-entry', file: `${label}!/${path}`, message: `zip: ${describeStreamError(err)}` });
  }
}

async function deliver(access: RandomAccess, record: ZipRecord, handler: EntryHandler, report: ProblemSink, label: string): Promise<void> {
  const unsafe = unsafePath(record.name);
  // An unsafe entry is never read: keep its path as written, to show it.
  const path = unsafe ? record.name.replace(/\\/g, '/') : normalizeEntryPath(record.name);
  const entry: ArchiveEntry = { path, type: record.type, size: record.size, body: emptyBody() };
  if (unsafe) entry.unsafe = unsafe;
  if (record.mtime !== undefined) entry.mtime = record.mtime;
  try {
    if (record.type === 'symlink' && !unsafe) entry.linkTarget = await readLink(access, record);
    else if (record.type === 'file') entry.body = contentOf(access, record);
    await handler(entry);
  } catch (err) {
    report({ kind: 'corrupt-entry', file: `${label}!/${path}`, message: `zip: ${describeStreamError(err)}` });
  }
}
