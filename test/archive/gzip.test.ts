// The gzip framing bootlens reads itself: members, padding, trailing bytes, header fields,
// checksums, and member ends that fall anywhere in the input's chunks.
import { crc32, createGzip, deflateRawSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { gunzip } from '../../src/archive/gzip.js';
import type { ReadProblem } from '../../src/model/types.js';

async function* chunks(bytes: Buffer, size: number): AsyncIterable<Buffer> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

async function inflate(bytes: Buffer, size = 64 * 1024): Promise<{ out: Buffer; problems: ReadProblem[]; error?: string }> {
  const parts: Buffer[] = [];
  const problems: ReadProblem[] = [];
  try {
    for await (const c of gunzip(chunks(bytes, size), (p) => problems.push(p), 'x.gz')) parts.push(c);
  } catch (err) {
    return { out: Buffer.concat(parts), problems, error: (err as Error).message };
  }
  return { out: Buffer.concat(parts), problems };
}

const TEXT = Buffer.from('Nov 22 10:15:04 bootstrap bootkube.sh[2507]: Waiting for etcd cluster...\n'.repeat(5000));

describe('gunzip', () => {
  it('reads concatenated members as one stream, wherever the chunks fall', async () => {
    const a = gzipSync(TEXT.subarray(0, 100_000));
    const b = gzipSync(TEXT.subarray(100_000));
    for (const size of [1, 7, 512, a.length, 1 << 20]) {
      const got = await inflate(Buffer.concat([a, b]), size);
      expect(got.error, `chunks of ${size}`).toBeUndefined();
      expect(got.out.equals(TEXT), `chunks of ${size}`).toBe(true);
      expect(got.problems).toEqual([]);
    }
  });

  it('accepts zero padding after the last member and lists any other trailing bytes', async () => {
    const gz = gzipSync(TEXT);
    const padded = await inflate(Buffer.concat([gz, Buffer.alloc(4096)]));
    expect(padded.out.equals(TEXT)).toBe(true);
    expect(padded.problems).toEqual([]);
    const junk = await inflate(Buffer.concat([gz, Buffer.from('\r\n-- transfer tool footer --\r\n')]));
    expect(junk.out.equals(TEXT)).toBe(true);
    expect(junk.problems).toEqual([
      { kind: 'unparseable', file: 'x.gz', message: 'gzip: 30 byte(s) after the end of the compressed data (trailing garbage): ignored' },
    ]);
  });

  it('reads a header with every optional field (extra, name, comment, header CRC)', async () => {
    const header = Buffer.from([0x1f, 0x8b, 8, 0x02 | 0x04 | 0x08 | 0x10, 0, 0, 0, 0, 0, 3]);
    const extra = Buffer.from([4, 0, 1, 2, 3, 4]);
    const trailer = Buffer.alloc(8);
    trailer.writeUInt32LE(crc32(TEXT), 0);
    trailer.writeUInt32LE(TEXT.length, 4);
    const gz = Buffer.concat([header, extra, Buffer.from('kubelet.log\0a comment\0'), Buffer.from([0xab, 0xcd]), deflateRawSync(TEXT), trailer]);
    const got = await inflate(gz, 3);
    expect(got.error).toBeUndefined();
    expect(got.out.equals(TEXT)).toBe(true);
  });

  it('hands on everything and then fails when the checksum or the length does not hold', async () => {
    const gz = gzipSync(TEXT);
    const badCrc = Buffer.from(gz);
    badCrc[badCrc.length - 8] ^= 0xff;
    const got = await inflate(badCrc);
    expect(got.out.equals(TEXT)).toBe(true);
    expect(got.error).toBe('incorrect data check');
    const badLength = Buffer.from(gz);
    badLength[badLength.length - 1] ^= 0x01;
    expect((await inflate(badLength)).error).toBe('incorrect data check');
  });

  it('fails with "unexpected end of file" when cut inside a header, the data or the trailer', async () => {
    const gz = gzipSync(TEXT);
    for (const cut of [5, Math.floor(gz.length / 2), gz.length - 3]) {
      const got = await inflate(gz.subarray(0, cut));
      expect(got.error, `cut at ${cut}`).toBe('unexpected end of file');
      expect(TEXT.subarray(0, got.out.length).equals(got.out)).toBe(true);
    }
  });

  it('stops reading its input when the reader stops early', async () => {
    let pulled = 0;
    async function* source(): AsyncIterable<Buffer> {
      const gz = gzipSync(Buffer.concat(Array.from({ length: 64 }, () => TEXT)));
      for (let at = 0; at < gz.length; at += 1024) {
        pulled++;
        yield gz.subarray(at, at + 1024);
      }
    }
    for await (const _c of gunzip(source())) break;
    // The first output chunk needs only the first few pieces of input, never the whole file.
    expect(pulled).toBeLessThan(200);
  });
});

describe('inflation ahead of a slow reader', () => {
  it('pauses zlib once a few megabytes wait unread, however far the input would inflate', async () => {
    // 512 MiB of zeros deflate to about half a megabyte: fed unchecked, zlib would fill memory.
    // Compressed piece by piece from one buffer of zeros, so no 512 MiB buffer is ever made.
    const zeros = Buffer.alloc(16 * 1024 * 1024);
    const gzip = createGzip({ level: 9 });
    const out: Buffer[] = [];
    gzip.on('data', (b: Buffer) => out.push(b));
    const ended = new Promise((resolve) => gzip.on('end', resolve));
    for (let i = 0; i < 32; i++) gzip.write(zeros);
    gzip.end();
    await ended;
    const gz = Buffer.concat(out);
    const before = process.memoryUsage().arrayBuffers;
    const it = gunzip(chunks(gz, 64 * 1024))[Symbol.asyncIterator]();
    const first = await it.next();
    expect(first.done).toBe(false);
    // The reader stops: zlib keeps running on its own pump until the queue is full, then waits.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const grown = process.memoryUsage().arrayBuffers - before;
    expect(grown).toBeLessThan(64 * 1024 * 1024);
    let total = (first.value as Buffer).length;
    for (let r = await it.next(); !r.done; r = await it.next()) total += r.value.length;
    expect(total).toBe(512 * 1024 * 1024);
  });
});
