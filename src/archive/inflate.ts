// Inflates one raw deflate stream (a gzip member's body, a zip entry) so that every byte zlib
// produces is handed on, also when the data turns out corrupt later: a zlib stream that fails
// is destroyed with the output it had buffered, so output is taken as it comes ('data'), and
// input goes in small pieces so that one piece can never inflate to much (backpressure).
import { createInflateRaw } from 'node:zlib';
import type { ByteSource } from './byte-source.js';

/** Compressed bytes per write: at deflate's 1032:1 at most ~33 MB of output at once. */
const PIECE = 32 * 1024;
/** Output queued ahead of the consumer before more input goes in (zlib works while it reads). */
const AHEAD = 2 * 1024 * 1024;
/** zlib works on Node's thread pool: large output chunks mean fewer round trips to it. */
const CHUNK = 1024 * 1024;

/**
 * Yields the inflated bytes of the deflate stream at the head of `src`. Returns at the end of
 * that stream and leaves the bytes after it in `src`; throws (after handing on everything
 * inflated) when the data is corrupt or `src` ends first.
 */
export async function* inflateRaw(src: ByteSource): AsyncGenerator<Buffer, void, undefined> {
  const z = createInflateRaw({ chunkSize: CHUNK });
  const out: Buffer[] = [];
  let queued = 0;
  let failure: Error | undefined;
  let ended = false;
  let writing = false;
  let inputDone = false;
  let fed = 0;
  let wake: (() => void) | undefined;
  const poke = (): void => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  z.on('data', (b: Buffer) => {
    out.push(b);
    queued += b.length;
    poke();
  });
  z.on('error', (e: Error) => {
    failure = e;
    poke();
  });
  z.on('end', () => {
    ended = true;
    poke();
  });

  const feed = async (): Promise<void> => {
    let piece = await src.next();
    if (!piece) {
      inputDone = true;
      z.end();
      return;
    }
    if (piece.length > PIECE) {
      src.unshift(piece.subarray(PIECE));
      piece = piece.subarray(0, PIECE);
    }
    const last = piece;
    writing = true;
    fed += last.length;
    z.write(last, () => {
      writing = false;
      // zlib stops taking input at the end of the deflate stream: what it left is not ours.
      const unused = fed - z.bytesWritten;
      if (unused > 0 && !inputDone) {
        src.unshift(last.subarray(last.length - unused));
        fed -= unused;
        inputDone = true;
        z.end();
      }
      poke();
    });
  };

  try {
    for (;;) {
      if (!writing && !inputDone && failure === undefined && queued < AHEAD) {
        await feed();
        continue;
      }
      const b = out.shift();
      if (b) {
        queued -= b.length;
        yield b;
        continue;
      }
      if (failure) throw failure;
      if (ended && !writing) return;
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    z.destroy();
  }
}
