// Writes a tree of entries as a .tar.gz, streaming (zlib.createGzip piped to the file), and
// makes nested .tar.gz archives as re-runnable producers. Gzip headers carry no time or name.
import { createWriteStream, readFileSync, truncateSync, statSync } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { producer, type Producer } from './content.js';
import { tarStream, type TarEntry } from './tar.js';

const GZIP_OPTIONS = { level: 6, memLevel: 8 } as const;

/** Streams `entries` as a gzipped tar into `file`. */
export async function writeTarGz(entries: () => Iterable<TarEntry>, file: string): Promise<number> {
  await pipeline(Readable.from(tarStream(entries())), createGzip(GZIP_OPTIONS), createWriteStream(file));
  return statSync(file).size;
}

/** A nested `.tar.gz` (a master's part) as content of an outer entry. */
export function tarGzProducer(entries: () => Iterable<TarEntry>): Producer {
  return producer(async function* () {
    const gz = Readable.from(tarStream(entries())).pipe(createGzip(GZIP_OPTIONS));
    for await (const chunk of gz) yield chunk as Buffer;
  });
}

/** Cuts a file to a fraction of its length, as an interrupted copy leaves it. */
export function truncateFile(file: string, fraction: number): number {
  const size = statSync(file).size;
  const keep = Math.max(64, Math.floor(size * fraction));
  truncateSync(file, keep);
  return keep;
}

/** Reads a whole file (tests and small checks). */
export function readAll(file: string): Buffer {
  return readFileSync(file);
}
