// A minimal DER encoder: the ASN.1 pieces an X.509 certificate needs, nothing more.

function lengthBytes(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  while (n > 0) {
    bytes.unshift(n & 0xff);
    n = Math.floor(n / 256);
  }
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

export function tlv(tag: number, content: Buffer): Buffer {
  return Buffer.concat([Buffer.from([tag]), lengthBytes(content.length), content]);
}

export function sequence(...items: Buffer[]): Buffer {
  return tlv(0x30, Buffer.concat(items));
}

export function set(...items: Buffer[]): Buffer {
  return tlv(0x31, Buffer.concat(items));
}

/** Big-endian unsigned bytes of a non-negative bigint. */
export function bigintBytes(v: bigint): Buffer {
  let hex = v.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  return Buffer.from(hex, 'hex');
}

export function integer(v: bigint | Buffer): Buffer {
  let bytes = typeof v === 'bigint' ? bigintBytes(v) : v;
  while (bytes.length > 1 && bytes[0] === 0 && bytes[1] < 0x80) bytes = bytes.subarray(1);
  if (bytes.length === 0) bytes = Buffer.from([0]);
  if (bytes[0] >= 0x80) bytes = Buffer.concat([Buffer.from([0]), bytes]);
  return tlv(0x02, bytes);
}

export function oid(dotted: string): Buffer {
  const parts = dotted.split('.').map(Number);
  const out: number[] = [parts[0] * 40 + parts[1]];
  for (const p of parts.slice(2)) {
    const chunk: number[] = [p & 0x7f];
    let v = Math.floor(p / 128);
    while (v > 0) {
      chunk.unshift((v & 0x7f) | 0x80);
      v = Math.floor(v / 128);
    }
    out.push(...chunk);
  }
  return tlv(0x06, Buffer.from(out));
}

export function nullValue(): Buffer {
  return Buffer.from([0x05, 0x00]);
}

export function boolean(v: boolean): Buffer {
  return tlv(0x01, Buffer.from([v ? 0xff : 0x00]));
}

export function octetString(b: Buffer): Buffer {
  return tlv(0x04, b);
}

export function bitString(b: Buffer, unusedBits = 0): Buffer {
  return tlv(0x03, Buffer.concat([Buffer.from([unusedBits]), b]));
}

const PRINTABLE = /^[A-Za-z0-9 '()+,\-./:=?]*$/;

/** PrintableString when the text allows it, else UTF8String (as Go's encoding/asn1 does). */
export function directoryString(s: string): Buffer {
  return PRINTABLE.test(s) ? tlv(0x13, Buffer.from(s, 'ascii')) : tlv(0x0c, Buffer.from(s, 'utf8'));
}

export function utcTime(text: string): Buffer {
  return tlv(0x17, Buffer.from(text, 'ascii'));
}

/** Context-specific constructed `[n]`. */
export function explicit(n: number, content: Buffer): Buffer {
  return tlv(0xa0 + n, content);
}

/** Context-specific primitive `[n]` (SAN entries, key ids). */
export function implicitPrimitive(n: number, content: Buffer): Buffer {
  return tlv(0x80 + n, content);
}

/** A named-bit BIT STRING (key usage), minimal encoding. */
export function namedBits(bits: number[]): Buffer {
  const high = Math.max(...bits);
  const bytes = Buffer.alloc(Math.floor(high / 8) + 1);
  for (const b of bits) bytes[Math.floor(b / 8)] |= 0x80 >> b % 8;
  return bitString(bytes, 7 - (high % 8));
}

export function toPem(label: string, der: Buffer): string {
  const b64 = der.toString('base64').replace(/(.{64})/g, '$1\n').replace(/\n$/, '');
  return `-----BEGIN ${label}-----\n${b64}\n-----END ${label}-----\n`;
}
