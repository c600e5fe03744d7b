// A pull source of bytes that can take bytes back: a format parser reads a header, hands the
// rest to a decoder, and gets back what the decoder did not use (the bytes after a gzip member).

export class ByteSource {
  private readonly iterator: AsyncIterator<Buffer>;
  /** Bytes given back, most recent last. */
  private readonly returned: Buffer[] = [];
  private done = false;
  /** Bytes handed out and not given back: where the reader stands in the source. */
  consumed = 0;

  constructor(source: AsyncIterable<Buffer>) {
    this.iterator = source[Symbol.asyncIterator]();
  }

  /** The next chunk, or undefined at the end. */
  async next(): Promise<Buffer | undefined> {
    const chunk = await this.pull();
    if (chunk) this.consumed += chunk.length;
    return chunk;
  }

  private async pull(): Promise<Buffer | undefined> {
    const back = this.returned.pop();
    if (back) return back;
    while (!this.done) {
      const r = await this.iterator.next();
      if (r.done) this.done = true;
      else if (r.value.length > 0) return r.value;
    }
    return undefined;
  }

  /** Gives bytes back: the next read starts with them. */
  unshift(bytes: Buffer): void {
    if (bytes.length === 0) return;
    this.returned.push(bytes);
    this.consumed -= bytes.length;
  }

  /** Exactly `n` bytes, or fewer when the source ends first. */
  async read(n: number): Promise<Buffer> {
    const parts: Buffer[] = [];
    let have = 0;
    while (have < n) {
      const chunk = await this.next();
      if (!chunk) break;
      const take = Math.min(chunk.length, n - have);
      parts.push(chunk.subarray(0, take));
      this.unshift(chunk.subarray(take));
      have += take;
    }
    return parts.length === 1 ? parts[0] : Buffer.concat(parts, have);
  }

  /** Bytes up to a zero byte (dropped), or undefined when none comes within `max` bytes. */
  async readZeroTerminated(max: number): Promise<Buffer | undefined> {
    const parts: Buffer[] = [];
    let have = 0;
    while (have <= max) {
      const chunk = await this.next();
      if (!chunk) return undefined;
      const zero = chunk.indexOf(0);
      if (zero >= 0) {
        parts.push(chunk.subarray(0, zero));
        this.unshift(chunk.subarray(zero + 1));
        return Buffer.concat(parts);
      }
      parts.push(chunk);
      have += chunk.length;
    }
    return undefined;
  }

  /** Ends the underlying source early (closes a file stream). */
  async close(): Promise<void> {
    this.done = true;
    await this.iterator.return?.();
  }
}
