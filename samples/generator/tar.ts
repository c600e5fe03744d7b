// A deterministic tar writer in GNU format, as `tar cz` on the hosts writes it: GNU magic,
// `././@LongLink` records for names over 100 bytes, octal fields, the archive padded to a
// 10240-byte record. Entries come out in the order given; nothing is read from the clock.
import { contentChunks, contentSize, type Content } from './content.js';

export interface TarEntry {
  path: string;
  type: 'file' | 'dir';
  mode: number;
  uid: number;
  gid: number;
  uname: string;
  gname: string;
  /** Seconds since the epoch. */
  mtime: number;
  content?: Content;
}

const BLOCK = 512;
const RECORD = 20 * BLOCK;

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, '0') + '\0';
}

function header(name: string, type: string, size: number, e: Pick<TarEntry, 'mode' | 'uid' | 'gid' | 'uname' | 'gname' | 'mtime'>): Buffer {
  const h = Buffer.alloc(BLOCK);
  h.write(name, 0, 100, 'utf8');
  h.write(octal(e.mode, 8), 100, 8, 'ascii');
  h.write(octal(e.uid, 8), 108, 8, 'ascii');
  h.write(octal(e.gid, 8), 116, 8, 'ascii');
  h.write(octal(size, 12), 124, 12, 'ascii');
  h.write(octal(e.mtime, 12), 136, 12, 'ascii');
  h.write('        ', 148, 8, 'ascii');
  h.write(type, 156, 1, 'ascii');
  h.write('ustar  \0', 257, 8, 'ascii');
  h.write(e.uname, 265, 32, 'utf8');
  h.write(e.gname, 297, 32, 'utf8');
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += h[i];
  h.write(sum.toString(8).padStart(6, '0') + '\0 ', 148, 8, 'ascii');
  return h;
}

function padding(size: number): Buffer {
  const rest = size % BLOCK;
  return Buffer.alloc(rest === 0 ? 0 : BLOCK - rest);
}

function* nameHeaders(name: string, type: string, size: number, e: TarEntry): Iterable<Buffer> {
  const bytes = Buffer.from(name, 'utf8');
  if (bytes.length > 100) {
    const long = Buffer.concat([bytes, Buffer.from([0])]);
    yield header('././@LongLink', 'L', long.length, { mode: 0o644, uid: 0, gid: 0, uname: 'root', gname: 'root', mtime: 0 });
    yield long;
    yield padding(long.length);
  }
  yield header(name, type, size, e);
}

/** Streams a tar archive of the entries. */
export async function* tarStream(entries: Iterable<TarEntry>): AsyncIterable<Buffer> {
  let written = 0;
  for (const e of entries) {
    if (e.type === 'dir') {
      const name = e.path.endsWith('/') ? e.path : `${e.path}/`;
      for (const b of nameHeaders(name, '5', 0, e)) {
        written += b.length;
        yield b;
      }
      continue;
    }
    const content = e.content ?? Buffer.alloc(0);
    const size = await contentSize(content);
    for (const b of nameHeaders(e.path, '0', size, e)) {
      written += b.length;
      yield b;
    }
    let n = 0;
    for await (const chunk of contentChunks(content)) {
      n += chunk.length;
      written += chunk.length;
      yield chunk;
    }
    if (n !== size) throw new Error(`${e.path}: producer yielded ${n} bytes, expected ${size}`);
    const pad = padding(size);
    written += pad.length;
    yield pad;
  }
  const end = Buffer.alloc(2 * BLOCK);
  written += end.length;
  yield end;
  const rest = written % RECORD;
  if (rest !== 0) yield Buffer.alloc(RECORD - rest);
}
