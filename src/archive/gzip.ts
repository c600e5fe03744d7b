// Gunzips a byte stream as a stream; concatenated gzip members are read as one.
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';

/** Decompressed bytes of `compressed`; iteration throws on a truncated or corrupt gzip. */
export function gunzip(compressed: AsyncIterable<Buffer>): AsyncIterable<Buffer> {
  const source = Readable.from(compressed, { objectMode: false });
  // Large output chunks: each one is a round trip to zlib's thread, and fewer trips overlap
  // decompression with scanning better.
  const inflater = createGunzip({ chunkSize: 1024 * 1024 });
  source.on('error', (err) => inflater.destroy(err));
  return source.pipe(inflater);
}
