// Test helper: reads a sample archive (tar.gz, possibly truncated) with node-tar into a map of
// path → bytes, following nested .tar.gz parts as `outer!/inner` paths, and records damage.
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { Parser, type ReadEntry } from 'tar';

export interface ReadResult {
  files: Map<string, Buffer>;
  dirs: Set<string>;
  errors: string[];
}

function parse(source: NodeJS.ReadableStream, prefix: string, out: ReadResult): Promise<void> {
  return new Promise((resolve) => {
    const pending: Promise<void>[] = [];
    const parser = new Parser({
      strict: false,
      onwarn: (_code: string, message: string | Error) => out.errors.push(`${prefix}${String(message)}`),
      onReadEntry: (entry: ReadEntry) => {
        const path = `${prefix}${entry.path.replace(/^(\.\/)+/, '')}`;
        if (entry.type === 'Directory') {
          if (path !== prefix) out.dirs.add(path.replace(/\/$/, ''));
          entry.resume();
          return;
        }
        const chunks: Buffer[] = [];
        entry.on('data', (c: Buffer) => chunks.push(c));
        entry.on('end', () => {
          const body = Buffer.concat(chunks);
          out.files.set(path, body);
          if (/\.tar\.gz$/.test(path) && body.length > 2 && body[0] === 0x1f && body[1] === 0x8b) {
            pending.push(parse(Readable.from([body]), `${path}!/`, out));
          }
        });
      },
    });
    let settled = false;
    const settle = (): void => {
      if (settled) return;
      settled = true;
      void Promise.all(pending).then(() => resolve());
    };
    // A truncated gzip stream ends in an error and no 'close': either ends the read.
    parser.on('error', (e: Error) => {
      out.errors.push(`${prefix}${e.message}`);
      settle();
    });
    parser.on('close', settle);
    source.on('error', (e: Error) => {
      out.errors.push(`${prefix}${e.message}`);
      parser.end();
    });
    source.pipe(parser as unknown as NodeJS.WritableStream);
  });
}

/** Reads every entry of a bundle archive. */
export async function readBundle(file: string): Promise<ReadResult> {
  const out: ReadResult = { files: new Map(), dirs: new Set(), errors: [] };
  await parse(createReadStream(file), '', out);
  return out;
}
