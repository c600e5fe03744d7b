// Writes tar bytes by hand, for archives no well-behaved tool would make: `..` and absolute
// paths, link loops, corrupt headers.

export interface RawEntry {
  path: string;
  content?: string | Buffer;
  /** '0' file, '2' symlink, '1' hard link, '5' directory. */
  type?: '0' | '1' | '2' | '5';
  linkname?: string;
}

function octal(n: number, width: number): string {
  return n.toString(8).padStart(width - 1, '0') + '\0';
}

function header(e: RawEntry, size: number): Buffer {
  const h = Buffer.alloc(512);
  h.write(e.path.slice(0, 100), 0, 'utf8');
  h.write(octal(0o644, 8), 100);
  h.write(octal(0, 8), 108);
  h.write(octal(0, 8), 116);
  h.write(octal(size, 12), 124);
  h.write(octal(1795342500, 12), 136);
  h.write('        ', 148);
  h.write(e.type ?? '0', 156);
  if (e.linkname) h.write(e.linkname.slice(0, 100), 157);
  h.write('ustar\u000000', 257, 'latin1');
  let sum = 0;
  for (let i = 0; i < 512; i++) sum += h[i];
  h.write(octal(sum, 7) + ' ', 148, 'latin1');
  return h;
}

/** A plain tar of the entries, with the two zero blocks at the end. */
export function rawTar(entries: RawEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const e of entries) {
    const body = e.type && e.type !== '0' ? Buffer.alloc(0) : Buffer.from(e.content ?? '');
    parts.push(header(e, body.length), body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  parts.push(Buffer.alloc(1024));
  return Buffer.concat(parts);
}
