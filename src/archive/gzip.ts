// Gunzips a byte stream as a stream; concatenated gzip members are read as one.
import { Readable, type TransformOptions } from 'node:stream';
import { createGunzip, type ZlibOptions } from 'node:zlib';

/**
 * zlib inflates on Node's thread pool. Large output chunks mean fewer round trips to it; a
 * buffer of two chunks lets it inflate the next ones while the main thread scans this one
 * (the tar parser downstream waits for each entry's reader, so without it the two take turns).
 * The Transform behind createGunzip takes `highWaterMark`, which ZlibOptions does not declare.
 */
const INFLATE: ZlibOptions & Pick<TransformOptions, 'highWaterMark'> = { chunkSize: 1024 * 1024, highWaterMark: 2 * 1024 * 1024 };

/** Decompressed bytes of `compressed`; iteration throws on a truncated or corrupt gzip. */
export function gunzip(compressed: AsyncIterable<Buffer>): AsyncIterable<Buffer> {
  const source = Readable.from(compressed, { objectMode: false });
  const inflater = createGunzip(INFLATE);
  source.on('error', (err) => inflater.destroy(err));
  return source.pipe(inflater);
}
