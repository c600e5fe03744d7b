// Tells archive formats apart by their bytes (magic numbers), never by file names.

export type ByteFormat = 'gzip' | 'tar' | 'zip' | 'bzip2' | 'xz' | 'zstd' | 'unknown';

/** Bytes needed to decide: a tar header block. */
export const SNIFF_BYTES = 512;

/** Whether a 512-byte block is a tar header whose checksum holds (old v7 tars lack `ustar`). */
function tarChecksumHolds(block: Buffer): boolean {
  if (block.length < 512) return false;
  const field = block.subarray(148, 156).toString('latin1').replace(/\0.*$/s, '').trim();
  if (!/^[0-7]+$/.test(field)) return false;
  const stored = parseInt(field, 8);
  let sum = 0;
  for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 32 : block[i];
  return sum === stored && block[0] !== 0;
}

/** Detects the format from the first bytes of a stream (at least SNIFF_BYTES when available). */
export function detectFormat(head: Buffer): ByteFormat {
  if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) return 'gzip';
  if (head.length >= 4 && head[0] === 0x50 && head[1] === 0x4b && (head[2] === 3 || head[2] === 5) && (head[3] === 4 || head[3] === 6)) {
    return 'zip';
  }
  if (head.length >= 262 && head.subarray(257, 262).toString('latin1') === 'ustar') return 'tar';
  if (tarChecksumHolds(head)) return 'tar';
  if (head.length >= 3 && head.subarray(0, 3).toString('latin1') === 'BZh') return 'bzip2';
  if (head.length >= 6 && head.subarray(0, 6).equals(Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]))) return 'xz';
  if (head.length >= 4 && head.readUInt32LE(0) === 0xfd2fb528) return 'zstd';
  return 'unknown';
}

/** Whether the bytes (a file's tail) hold a zip end-of-central-directory record whose comment fits. */
export function hasZipEnd(tail: Buffer): boolean {
  for (let i = tail.length - 22; i >= 0; i--) {
    if (tail[i] === 0x50 && tail.readUInt32LE(i) === 0x06054b50 && i + 22 + tail.readUInt16LE(i + 20) <= tail.length) return true;
  }
  return false;
}

/**
 * Whether the bytes start with a tar's end-of-archive marker (two zero blocks): an empty tar.
 * Nothing after the marker belongs to the archive, so it is never read (a stream of zeros is
 * also what a decompression bomb looks like).
 */
export function isEmptyTar(head: Buffer): boolean {
  if (head.length < 1024) return false;
  for (let i = 0; i < 1024; i++) if (head[i] !== 0) return false;
  return true;
}

/**
 * Reads the first `bytes` of a body without losing them: returns the head and a body that
 * yields everything, head included.
 */
export async function peek(
  body: AsyncIterable<Buffer>,
  bytes: number = SNIFF_BYTES,
): Promise<{ head: Buffer; body: AsyncIterable<Buffer> }> {
  const iterator = body[Symbol.asyncIterator]();
  const chunks: Buffer[] = [];
  let have = 0;
  let done = false;
  while (have < bytes) {
    const next = await iterator.next();
    if (next.done) {
      done = true;
      break;
    }
    chunks.push(next.value);
    have += next.value.length;
  }
  const head = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
  async function* replay(): AsyncIterable<Buffer> {
    for (const c of chunks) yield c;
    if (done) return;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      yield next.value;
    }
  }
  return { head, body: replay() };
}
