// Writes zip bytes by hand, for zips no zip library would write: names that climb out,
// encryption flags, sizes that lie, local headers that are not there, links, zip64 fields.
import { crc32, deflateRawSync } from 'node:zlib';

export interface ZipItem {
  name: string;
  content?: string | Buffer;
  method?: 0 | 8;
  flags?: number;
  /** Declared uncompressed size, when it should lie. */
  declaredSize?: number;
  /** Local header offset, when it should point at garbage. */
  localOffset?: number;
  /** Unix mode (S_IFLNK | 0777 for a symlink). */
  unixMode?: number;
  /** A CRC that does not hold. */
  crc?: number;
  /** The name's bytes as written (not UTF-8), with the UTF-8 flag off. */
  rawName?: Buffer;
  /** The compression method field, when it should name one bootlens does not read. */
  methodField?: number;
  /** MS-DOS attributes (0x10: a folder). */
  dosAttributes?: number;
  /** Sizes in a zip64 extra field, the 32-bit fields set to 0xffffffff. */
  zip64?: boolean;
}

/** A zip written byte by byte, so it can hold what no zip library writes. */
export function buildZip(items: ZipItem[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const item of items) {
    const name = item.rawName ?? Buffer.from(item.name, 'utf8');
    const flags = item.flags ?? (item.rawName ? 0 : 0x800);
    const content = Buffer.from(item.content ?? '');
    const method = item.method ?? 0;
    const data = method === 8 ? deflateRawSync(content) : content;
    const crc = item.crc ?? crc32(content);
    const size = item.declaredSize ?? content.length;
    const extra = Buffer.alloc(item.zip64 ? 20 : 0);
    if (item.zip64) {
      extra.writeUInt16LE(0x0001, 0);
      extra.writeUInt16LE(16, 2);
      extra.writeBigUInt64LE(BigInt(size), 4);
      extra.writeBigUInt64LE(BigInt(data.length), 12);
    }
    const field = (n: number): number => (item.zip64 ? 0xffffffff : n);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(item.methodField ?? method, 8);
    local.writeUInt16LE(0x5a00, 10);
    local.writeUInt16LE(0x5b76, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(field(data.length), 18);
    local.writeUInt32LE(field(size), 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(extra.length, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(item.unixMode !== undefined ? (3 << 8) | 20 : 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(flags, 8);
    central.writeUInt16LE(item.methodField ?? method, 10);
    central.writeUInt16LE(0x5a00, 12);
    central.writeUInt16LE(0x5b76, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(field(data.length), 20);
    central.writeUInt32LE(field(size), 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt16LE(extra.length, 30);
    central.writeUInt32LE(item.unixMode !== undefined ? (item.unixMode << 16) >>> 0 : (item.dosAttributes ?? 0), 38);
    central.writeUInt32LE(item.localOffset ?? offset, 42);
    locals.push(local, name, extra, data);
    centrals.push(central, name, extra);
    offset += local.length + name.length + extra.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Math.min(items.length, 0xffff), 8);
  end.writeUInt16LE(Math.min(items.length, 0xffff), 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

