// Gunzips a byte stream as a stream; concatenated gzip members are read as one.
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';

/** Decompressed bytes of `compressed`; iteration throws on a truncated or corrupt gzip. */
export function gunzip(compressed: AsyncIterable<Buffer>): AsyncIterable<Buffer> {
  const source = Readable.from(compressed, { objectMode: false });
  // zlib inflates on the thread pool; a deep output buffer lets it run ahead while the main
  // thread scans what came before, so the two overlap instead of taking turns.
  const inflater = createGunzip({ chunkSize: 64 * 1024 });
  source.on('error', (err) => inflater.destroy(err));
  return source.pipe(inflater);
}
