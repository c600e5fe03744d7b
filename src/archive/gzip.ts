// Gunzips a byte stream member by member. bootlens reads the gzip framing itself (zlib only
// inflates) so that the bytes after the last member are seen for what they are: concatenated
// members are read as one stream; anything else after a complete member is listed as a problem
// and never costs what came before it (zlib's own gunzip fails on it and drops its buffer).
import * as zlib from 'node:zlib';
import { ByteSource } from './byte-source.js';
import type { ProblemSink } from './entry.js';
import { inflateRaw } from './inflate.js';

const FTEXT_HCRC = 0x02;
const FEXTRA = 0x04;
const FNAME = 0x08;
const FCOMMENT = 0x10;
/** Longest file name or comment read from a gzip header. */
const MAX_HEADER_STRING = 64 * 1024;

/** zlib.crc32 came with Node 20.15; without it the trailer's length is still checked. */
const crc32: ((data: Buffer, value?: number) => number) | undefined = (zlib as { crc32?: (data: Buffer, value?: number) => number }).crc32;

/** An error worded like zlib's, so describeStreamError words it the same way. */
function zError(code: 'Z_BUF_ERROR' | 'Z_DATA_ERROR', message: string): Error {
  return Object.assign(new Error(message), { code });
}

const truncated = (): Error => zError('Z_BUF_ERROR', 'unexpected end of file');

/** Reads one member header; throws when it is cut short or not gzip. */
async function readHeader(src: ByteSource, fixed: Buffer): Promise<void> {
  if (fixed.length < 10) throw truncated();
  if (fixed[0] !== 0x1f || fixed[1] !== 0x8b) throw zError('Z_DATA_ERROR', 'incorrect header check');
  if (fixed[2] !== 8) throw zError('Z_DATA_ERROR', `unknown compression method ${fixed[2]}`);
  const flags = fixed[3];
  if (flags & FEXTRA) {
    const len = await src.read(2);
    if (len.length < 2) throw truncated();
    const extra = await src.read(len.readUInt16LE(0));
    if (extra.length < len.readUInt16LE(0)) throw truncated();
  }
  for (const flag of [FNAME, FCOMMENT]) {
    if (flags & flag && !(await src.readZeroTerminated(MAX_HEADER_STRING))) throw zError('Z_DATA_ERROR', 'invalid gzip header');
  }
  if (flags & FTEXT_HCRC && (await src.read(2)).length < 2) throw truncated();
}

/** Counts what is left; true when it is all zero bytes (padding, which gzip itself accepts). */
async function measureRest(src: ByteSource, first: Buffer): Promise<{ bytes: number; zeros: boolean }> {
  let bytes = 0;
  let zeros = true;
  for (let chunk: Buffer | undefined = first; chunk; chunk = await src.next()) {
    bytes += chunk.length;
    if (zeros && chunk.some((b) => b !== 0)) zeros = false;
  }
  return { bytes, zeros };
}

/**
 * Decompressed bytes of `compressed`. Iteration throws on a truncated or corrupt member, after
 * yielding every byte inflated before the damage; bytes after a complete member that start no
 * new member are reported to `report` under `label` and ignored.
 */
export function gunzip(compressed: AsyncIterable<Buffer>, report?: ProblemSink, label = 'gzip'): AsyncIterable<Buffer> {
  return members(new ByteSource(compressed), report, label);
}

async function* members(src: ByteSource, report: ProblemSink | undefined, label: string): AsyncGenerator<Buffer, void, undefined> {
  try {
    for (let member = 0; ; member++) {
      const fixed = await src.read(10);
      if (member > 0) {
        if (fixed.length === 0) return;
        if (fixed[0] !== 0x1f || (fixed.length > 1 && fixed[1] !== 0x8b)) {
          const rest = await measureRest(src, fixed);
          if (!rest.zeros) {
            report?.({
              kind: 'unparseable',
              file: label,
              message: `gzip: ${rest.bytes} byte(s) after the end of the compressed data (trailing garbage): ignored`,
            });
          }
          return;
        }
      }
      await readHeader(src, fixed);
      let crc = 0;
      let size = 0;
      for await (const out of inflateRaw(src)) {
        if (crc32) crc = crc32(out, crc);
        size += out.length;
        yield out;
      }
      const trailer = await src.read(8);
      if (trailer.length < 8) throw truncated();
      if ((crc32 && trailer.readUInt32LE(0) !== crc >>> 0) || trailer.readUInt32LE(4) !== size % 2 ** 32) {
        throw zError('Z_DATA_ERROR', 'incorrect data check');
      }
    }
  } finally {
    await src.close();
  }
}
