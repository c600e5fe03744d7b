// File content as the bundle tree holds it: bytes in memory, or a re-runnable producer that
// yields the same chunks every time it runs (journals at --scale N are produced twice: once
// to learn the size the tar header needs, once to stream), so memory stays flat.

export interface Producer {
  readonly kind: 'producer';
  /** Yields the content; every call yields the same bytes. */
  chunks(): AsyncIterable<Buffer> | Iterable<Buffer>;
}

export type Content = Buffer | Producer;

export function producer(chunks: () => AsyncIterable<Buffer> | Iterable<Buffer>): Producer {
  return { kind: 'producer', chunks };
}

export function isProducer(c: Content): c is Producer {
  return !Buffer.isBuffer(c);
}

/** Iterates a content's chunks. */
export async function* contentChunks(c: Content): AsyncIterable<Buffer> {
  if (!isProducer(c)) {
    yield c;
    return;
  }
  for await (const chunk of c.chunks()) yield chunk;
}

/** The content's size in bytes (runs a producer once). */
export async function contentSize(c: Content): Promise<number> {
  if (!isProducer(c)) return c.length;
  let n = 0;
  for await (const chunk of c.chunks()) n += chunk.length;
  return n;
}

/** Collects a content into memory (small files only). */
export async function contentBuffer(c: Content): Promise<Buffer> {
  if (!isProducer(c)) return c;
  const parts: Buffer[] = [];
  for await (const chunk of c.chunks()) parts.push(chunk);
  return Buffer.concat(parts);
}

/** Groups many small strings into chunks of about `size` bytes. */
export function* batchLines(lines: Iterable<string>, size = 64 * 1024): Iterable<Buffer> {
  let parts: string[] = [];
  let n = 0;
  for (const l of lines) {
    parts.push(l);
    n += l.length;
    if (n >= size) {
      yield Buffer.from(parts.join(''), 'utf8');
      parts = [];
      n = 0;
    }
  }
  if (parts.length > 0) yield Buffer.from(parts.join(''), 'utf8');
}
