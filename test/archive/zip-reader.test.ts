// bootlens's own zip reader, entry by entry: what it reads, what it lists, and where it stops.
import { describe, expect, it } from 'vitest';
import type { ArchiveEntry } from '../../src/archive/entry.js';
import { readZipBuffer } from '../../src/archive/zip-reader.js';
import type { ReadProblem } from '../../src/model/types.js';
import { buildZip } from './raw-zip.js';

async function read(zip: Buffer): Promise<{ entries: { path: string; type: string; text: string; unsafe?: string; link?: string }[]; problems: ReadProblem[] }> {
  const entries: { path: string; type: string; text: string; unsafe?: string; link?: string }[] = [];
  const problems: ReadProblem[] = [];
  await readZipBuffer(
    zip,
    async (e: ArchiveEntry) => {
      const parts: Buffer[] = [];
      const got: (typeof entries)[number] = { path: e.path, type: e.type, text: '' };
      entries.push(got);
      if (e.unsafe) got.unsafe = e.unsafe;
      if (e.linkTarget !== undefined) got.link = e.linkTarget;
      // Kept chunk by chunk: what came before a failure counts.
      for await (const c of e.body) {
        parts.push(c);
        got.text = Buffer.concat(parts).toString('utf8');
      }
    },
    (p) => problems.push(p),
    'z.zip',
  );
  return { entries, problems };
}

describe('readZipBuffer', () => {
  it('reads stored, deflated and zip64-sized entries, folders (Unix and DOS) and links', async () => {
    const got = await read(
      buildZip([
        { name: 'b/stored.log', content: 'stored\n' },
        { name: 'b/deflated.log', content: 'deflated\n'.repeat(100), method: 8 },
        { name: 'b/zip64.log', content: 'sixty-four\n', method: 8, zip64: true },
        { name: 'b/dir/', content: '' },
        { name: 'b/dos-dir', content: '', dosAttributes: 0x10 },
        { name: 'b/link', content: 'stored.log', unixMode: 0o120777 },
      ]),
    );
    expect(got.problems).toEqual([]);
    expect(got.entries).toEqual([
      { path: 'b/stored.log', type: 'file', text: 'stored\n' },
      { path: 'b/deflated.log', type: 'file', text: 'deflated\n'.repeat(100) },
      { path: 'b/zip64.log', type: 'file', text: 'sixty-four\n' },
      { path: 'b/dir', type: 'directory', text: '' },
      { path: 'b/dos-dir', type: 'directory', text: '' },
      { path: 'b/link', type: 'symlink', text: '', link: 'stored.log' },
    ]);
  });

  it('reads a name that is not UTF-8 byte for byte', async () => {
    const got = await read(buildZip([{ name: '', rawName: Buffer.from([0x62, 0x2f, 0x63, 0x61, 0x66, 0xe9, 0x2e, 0x6c, 0x6f, 0x67]), content: 'x' }]));
    expect(got.entries.map((e) => e.path)).toEqual(['b/café.log']);
  });

  it('lists an entry it cannot read and goes on: an unknown method, a declared size that lies (cut there)', async () => {
    const got = await read(
      buildZip([
        { name: 'b/bzip2.log', content: 'x', methodField: 12 },
        { name: 'b/lies.log', content: Buffer.alloc(100_000), method: 8, declaredSize: 10 },
        { name: 'b/ok.log', content: 'ok\n' },
      ]),
    );
    expect(got.entries.map((e) => [e.path, e.text.length])).toEqual([
      ['b/bzip2.log', 0],
      ['b/lies.log', 10],
      ['b/ok.log', 3],
    ]);
    expect(got.problems).toEqual([
      { kind: 'corrupt-entry', file: 'z.zip!/b/bzip2.log', message: 'zip: compression method 12 is not supported: not read' },
      { kind: 'corrupt-entry', file: 'z.zip!/b/lies.log', message: 'zip: inflates past its declared size of 10 bytes: the rest was not read' },
    ]);
  });

  it('keeps an unsafe name as written and marks it, for the walker to refuse', async () => {
    const got = await read(buildZip([{ name: '..\\..\\evil.log', content: 'x' }]));
    expect(got.entries).toEqual([{ path: '../../evil.log', type: 'file', text: 'x', unsafe: "path climbs out with '..'" }]);
  });

  it('stops at a damaged central directory, after the entries before the damage', async () => {
    const zip = buildZip([{ name: 'b/one.log', content: '1' }, { name: 'b/two.log', content: '2' }]);
    // Break the second central record's signature.
    const second = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    zip[second] = 0;
    const got = await read(zip);
    expect(got.entries.map((e) => e.path)).toEqual(['b/one.log']);
    expect(got.problems).toEqual([expect.objectContaining({ kind: 'corrupt-archive', message: expect.stringContaining('the entries after it were not read') })]);
  });
});
