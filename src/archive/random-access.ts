// Random access to a zip's bytes, on disk or in memory (a zip nested in a tar), counting the
// bytes read from disk for the decompression-ratio guard.
import { open, type FileHandle } from 'node:fs/promises';

export interface RandomAccess {
  readonly size: number;
  /** Up to `length` bytes at `position` (fewer at the end). */
  read(position: number, length: number): Promise<Buffer>;
  close(): Promise<void>;
}

const READ_CHUNK = 256 * 1024;

/** A file opened for reading; `onRead` sees every byte read from it. */
export async function fileAccess(path: string, onRead?: (bytes: number) => void): Promise<RandomAccess> {
  const handle: FileHandle = await open(path, 'r');
  const { size } = await handle.stat();
  return {
    size,
    async read(position, length) {
      const want = Math.max(0, Math.min(length, size - position));
      const buffer = Buffer.allocUnsafe(want);
      let got = 0;
      while (got < want) {
        const { bytesRead } = await handle.read(buffer, got, want - got, position + got);
        if (bytesRead === 0) break;
        got += bytesRead;
      }
      onRead?.(got);
      return got === want ? buffer : buffer.subarray(0, got);
    },
    close: () => handle.close(),
  };
}

/** Bytes held in memory. */
export function bufferAccess(buffer: Buffer): RandomAccess {
  return {
    size: buffer.length,
    read: async (position, length) => buffer.subarray(Math.min(position, buffer.length), Math.min(position + length, buffer.length)),
    close: async () => undefined,
  };
}

/** `length` bytes from `start`, in chunks; stops early at the end of the source. */
export async function* rangeOf(access: RandomAccess, start: number, length: number): AsyncGenerator<Buffer, void, undefined> {
  let at = start;
  const end = start + length;
  while (at < end) {
    const chunk = await access.read(at, Math.min(READ_CHUNK, end - at));
    if (chunk.length === 0) return;
    at += chunk.length;
    yield chunk;
  }
}
