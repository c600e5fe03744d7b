// The read: damage never makes a failed install look healthy, a bad zip entry costs
// only itself, limits stop every walk, the bomb guard counts real bytes, and UTF-16, duplicate
// entries and links are never lost in silence. Every archive is built here, from real bytes.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { constants, gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { analyzeModel } from '../../src/analysis/analyze.js';
import { DEFAULT_READ_LIMITS, walkBundle, type ReadLimits } from '../../src/archive/walk-bundle.js';
import { readBundle } from '../../src/ingest/read-bundle.js';
import type { ReadProblem } from '../../src/model/types.js';
import { BUILTIN_RULES } from '../../src/rules/registry.js';
import { bundleFiles, bootkubeJournal, packTar, packZip, ROOT, tempDir, writeTree } from '../support/fixture-bundle.js';
import { rawTar } from '../support/raw-tar.js';
import { buildZip, type ZipItem } from '../archive/raw-zip.js';

const CLI = join(process.cwd(), 'dist/src/cli/main.js');
const WORKERS_SAMPLE = join(process.cwd(), 'samples/workers-csr-pending/log-bundle-20240611103714.tar.gz');
const HEALTHY_SAMPLE = join(process.cwd(), 'samples/healthy-vsphere-416/log-bundle-20240716100054.tar.gz');
const J = `Nov 22 10:15:04 bootstrap bootkube.sh[2507]: Waiting for etcd cluster...\n`;

function file(name: string, content: Buffer | string): string {
  const path = join(tempDir('bootlens-round2-'), name);
  writeFileSync(path, content);
  return path;
}

async function walk(path: string, limits: Partial<ReadLimits> = {}): Promise<{ files: Map<string, Buffer>; problems: ReadProblem[]; entries: number; bytes: number }> {
  const files = new Map<string, Buffer>();
  const problems: ReadProblem[] = [];
  const r = await walkBundle(
    path,
    async (f) => {
      const chunks: Buffer[] = [];
      for await (const c of f.body) chunks.push(c);
      files.set(f.path, Buffer.concat(chunks));
    },
    (p) => problems.push(p),
    { ...DEFAULT_READ_LIMITS, ...limits },
  );
  return { files, problems, entries: r.entries, bytes: r.bytes };
}

async function verdictOf(path: string, limits: Partial<ReadLimits> = {}): Promise<{ status: string; stage: string | null; summary: string; entries: number; problems: ReadProblem[] }> {
  const bundle = await readBundle(path, { limits });
  const { verdict } = analyzeModel(bundle, { rules: BUILTIN_RULES, version: 'test' });
  return { status: verdict.status, stage: verdict.stage, summary: verdict.summary, entries: bundle.meta.entries, problems: [...bundle.problems] };
}

/** A deterministic run of hex text: compresses about 2:1, so compressed offsets map to content. */
function hexText(seed: number, bytes: number): string {
  let x = seed >>> 0 || 1;
  let out = '';
  while (out.length < bytes) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out += (x >>> 0).toString(16).padStart(8, '0');
    if (out.length % 72 === 0) out += '\n';
  }
  return out.slice(0, bytes);
}

/** Where each file's data ends in a plain tar: name → end offset. */
function tarFileEnds(tar: Buffer): Map<string, number> {
  const ends = new Map<string, number>();
  for (let at = 0; at + 512 <= tar.length; ) {
    const name = tar.toString('utf8', at, at + 100).replace(/\0.*$/s, '');
    if (!name) break;
    const size = parseInt(tar.toString('latin1', at + 124, at + 136).replace(/\0.*$/s, '').trim() || '0', 8);
    if (tar[at + 156] === 0x30 || tar[at + 156] === 0) ends.set(name, at + 512 + size);
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return ends;
}

/** The fixture bundle's files as zip items under ROOT. */
function bundleItems(): ZipItem[] {
  return Object.entries(bundleFiles()).map(([path, content]) => ({ name: `${ROOT}/${path}`, content, method: 8 as const }));
}

// ---------------------------------------------------------------- bullet 1

describe('a read that stops early or skips data is never healthy', () => {
  it('reads every entry of a bundle with 8 bytes appended after its gzip stream, lists the bytes, and keeps its failure', async () => {
    const clean = await verdictOf(WORKERS_SAMPLE);
    const damaged = await verdictOf(file('log-bundle-20240611103714.tar.gz', Buffer.concat([readFileSync(WORKERS_SAMPLE), Buffer.from('GARBAGE!')])));
    expect(clean.status).toBe('failed');
    expect(damaged.entries).toBe(clean.entries);
    expect({ status: damaged.status, stage: damaged.stage }).toEqual({ status: clean.status, stage: clean.stage });
    expect(damaged.problems).toEqual([expect.objectContaining({ kind: 'unparseable', message: expect.stringContaining('8 byte(s) after the end of the compressed data') })]);
  });

  it('hands on every byte inflated before a gzip stream is cut, to the last whole file', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 48; i++) files[`bootstrap/journals/part-${String(i).padStart(2, '0')}.log`] = hexText(i + 1, 96 * 1024);
    const dir = tempDir();
    writeTree(dir, ROOT, files);
    const gz = readFileSync(await packTar(dir, ROOT, join(dir, 'b.tar.gz'), true));
    const cut = gz.subarray(0, Math.floor(gz.length * 0.7));
    // What any gunzip can get out of the cut stream, and the files wholly inside it.
    const inflatable = gunzipSync(cut, { finishFlush: constants.Z_SYNC_FLUSH }).length;
    const ends = tarFileEnds(gunzipSync(gz));
    const whole = [...ends].filter(([, end]) => end <= inflatable).map(([name]) => name);
    expect(whole.length).toBeGreaterThan(20);
    const got = await walk(file('cut.tar.gz', cut));
    for (const name of whole) expect(got.files.get(name)?.toString('utf8'), name).toBe(files[name.slice(ROOT.length + 1)]);
    expect(got.problems).toContainEqual(expect.objectContaining({ kind: 'truncated-archive' }));
  });

  it('calls a cut healthy bundle inconclusive and says what was not read', async () => {
    const bytes = readFileSync(HEALTHY_SAMPLE);
    expect((await verdictOf(HEALTHY_SAMPLE)).status).toBe('healthy');
    const cut = await verdictOf(file('log-bundle-20240716100054.tar.gz', bytes.subarray(0, Math.floor(bytes.length * 0.8))));
    expect(cut.status).toBe('inconclusive');
    expect(cut.summary).toMatch(/part of the bundle was not read \(truncated-archive/);
  });

  it('calls a healthy bundle stopped by a limit inconclusive, never healthy', async () => {
    const stopped = await verdictOf(HEALTHY_SAMPLE, { maxEntries: 40 });
    expect(stopped.problems).toContainEqual(expect.objectContaining({ kind: 'limit', message: expect.stringContaining('more than 40') }));
    expect(stopped.status).toBe('inconclusive');
  });
});

// ---------------------------------------------------------------- bullet 2

describe('zip entries are checked one by one', () => {
  const bad: [string, ZipItem, string][] = [
    ['a ../ name', { name: '../../etc/cron.d/evil', content: 'x' }, 'unsafe-path'],
    ['an absolute name', { name: '/etc/passwd', content: 'x' }, 'unsafe-path'],
    ['a drive-letter name', { name: 'C:\\Windows\\evil.log', content: 'x' }, 'unsafe-path'],
    ['a backslash name climbing out', { name: '..\\..\\evil.log', content: 'x' }, 'unsafe-path'],
    ['the strong-encryption flag', { name: `${ROOT}/secret.log`, content: 'x', flags: 0x41 }, 'corrupt-entry'],
    ['a stored size that disagrees', { name: `${ROOT}/sizes.log`, content: 'twelve bytes', declaredSize: 99 }, 'corrupt-entry'],
    ['a local header that is not there', { name: `${ROOT}/moved.log`, content: 'x', localOffset: 3 }, 'corrupt-entry'],
    ['a CRC that does not hold', { name: `${ROOT}/flipped.log`, content: 'x', method: 8, crc: 12345 }, 'corrupt-entry'],
  ];
  for (const [what, first, kind] of bad) {
    it(`reads the rest of a zip whose first entry has ${what}, listing that entry as ${kind}`, async () => {
      const items = bundleItems();
      const zip = buildZip([first, ...items]);
      const got = await walk(file('bundle.zip', zip));
      expect(got.files.size).toBe(items.length);
      expect(got.files.get(`${ROOT}/bootstrap/journals/bootkube.log`)?.toString('utf8')).toBe(bootkubeJournal());
      expect(got.problems).toEqual([expect.objectContaining({ kind })]);
    });
  }

  it('reads a zip cut short entry by entry from its local headers, up to the cut', async () => {
    const dir = tempDir();
    writeTree(dir, ROOT, bundleFiles());
    // yazl writes sizes after the data (bit 3), the hand-built zip before it: both are found.
    const zips = [readFileSync(await packZip(dir, ROOT, join(dir, 'b.zip'))), buildZip(bundleItems())];
    for (const zip of zips) {
      const whole = await walk(file('whole.zip', zip));
      const got = await walk(file('cut.zip', zip.subarray(0, Math.floor(zip.length * 0.6))));
      expect(got.problems[0]).toMatchObject({ kind: 'corrupt-archive', message: expect.stringContaining('entries read one by one') });
      expect(got.problems.some((p) => p.kind === 'truncated-archive' || /truncated/.test(p.message))).toBe(true);
      expect(got.files.size).toBeGreaterThan(whole.files.size / 3);
      for (const [path, content] of got.files) {
        // Every file read whole is the same; the one the cut went through is a prefix.
        expect(whole.files.get(path)?.subarray(0, content.length).equals(content), path).toBe(true);
      }
    }
  });

  it('reads a zip with bytes put before it (a stub, a careless concatenation)', async () => {
    const items = bundleItems();
    const got = await walk(file('prefixed.zip', Buffer.concat([Buffer.alloc(100, 0x41), buildZip(items)])));
    expect(got.files.size).toBe(items.length);
    expect(got.problems).toEqual([]);
  });

  it('stops a zip walk at --max-entries: no entry past the limit is opened', async () => {
    const items: ZipItem[] = [];
    for (let i = 0; i < 3000; i++) {
      // Entries past the first ten point at no local header: opening one would be a problem.
      items.push({ name: `${ROOT}/f/${i}.log`, content: 'x\n', ...(i >= 10 ? { localOffset: 1 } : {}) });
    }
    const got = await walk(file('many.zip', buildZip(items)), { maxEntries: 10 });
    expect(got.files.size).toBe(10);
    expect(got.problems).toEqual([expect.objectContaining({ kind: 'limit', message: 'more than 10 entries: the rest was not read' })]);
  });

  it('does not let folder entries use up the entry limit, and a limit never makes a bundle "not a bundle"', async () => {
    // Ten folders and four files under a limit of 12: the files are all read.
    const dirs = Array.from({ length: 10 }, (_, i) => ({ path: `${ROOT}/d${i}/`, type: '5' as const }));
    const files = [
      { path: `${ROOT}/gather.log`, content: 'Gather remote logs\n' },
      { path: `${ROOT}/bootstrap/journals/bootkube.log`, content: J },
      { path: `${ROOT}/bootstrap/journals/kubelet.log`, content: J },
      { path: `${ROOT}/bootstrap/journals/crio.log`, content: J },
    ];
    const few = await walk(file('dirs.tar', rawTar([...dirs, ...files])), { maxEntries: 12 });
    expect([...few.files.keys()]).toEqual(files.map((f) => f.path));
    expect(few.problems).toEqual([]);
    const many = Array.from({ length: 40 }, (_, i) => ({ path: `${ROOT}/e${i}/`, type: '5' as const }));
    // Forty folders before any file: the read stops at the limit and says so, as a partial bundle.
    const b = await readBundle(file('folders.tar', rawTar([...many, ...files])), { limits: { maxEntries: 12 } });
    expect(b.problems).toEqual([expect.objectContaining({ kind: 'limit', message: 'more than 12 folders: the rest was not read' })]);
    expect(analyzeModel(b, { rules: BUILTIN_RULES, version: 'test' }).verdict.status).toBe('inconclusive');
  });

  it('measures real bytes in and out for zips: a stored zip is read whole, a deflated bomb is stopped', async () => {
    const limits = { ratioCheckFrom: 1024 * 1024, maxRatio: 50 };
    const text = hexText(7, 3 * 1024 * 1024);
    const stored = await walk(file('stored.zip', buildZip([{ name: `${ROOT}/bootstrap/journals/big.log`, content: text }])), limits);
    expect(stored.files.get(`${ROOT}/bootstrap/journals/big.log`)?.length).toBe(text.length);
    expect(stored.problems).toEqual([]);
    const zeros = Buffer.alloc(16 * 1024 * 1024);
    const bomb = await walk(file('bomb.zip', buildZip([{ name: `${ROOT}/bootstrap/journals/big.log`, content: zeros, method: 8 }])), limits);
    expect(bomb.problems).toContainEqual(expect.objectContaining({ kind: 'limit', message: expect.stringContaining('decompression bomb') }));
    expect(bomb.bytes).toBeLessThan(8 * 1024 * 1024);
  });

  it('stops a bomb nested inside a folder bundle', async () => {
    const zeros = rawTar([{ path: 'kubelet.log', content: Buffer.alloc(16 * 1024 * 1024) }]);
    const dir = writeTree(tempDir(), ROOT, { 'gather.log': 'Gather remote logs\n', 'control-plane/10.0.0.5/m.tar.gz': gzipSync(zeros, { level: 9 }) });
    const got = await walk(dir, { ratioCheckFrom: 1024 * 1024, maxRatio: 50 });
    expect(got.problems).toContainEqual(expect.objectContaining({ kind: 'limit', message: expect.stringContaining('decompression bomb') }));
    expect(got.bytes).toBeLessThan(8 * 1024 * 1024);
  });

  it('refuses --jobs past what the machine can use, with one line and exit 2', () => {
    const r = spawnSync(process.execPath, [CLI, 'triage', '--jobs', '256', tempDir()], { encoding: 'utf8', timeout: 60_000 });
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/--jobs must be a whole number from 1 to \d+ \(\d+ cores? here/);
  });
});

// ---------------------------------------------------------------- bullet 3

/** Text in one of the three ways Windows tools write UTF-16. */
function utf16(text: string, how: number): Buffer {
  const le = Buffer.from(text, 'utf16le');
  if (how === 0) return Buffer.concat([Buffer.from([0xff, 0xfe]), le]);
  if (how === 1) return le;
  return Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(le).swap16()]);
}

describe('nothing is lost in silence', () => {
  it('reads a bundle written in UTF-16 (with and without a byte-order mark) as its UTF-8 twin', async () => {
    const files = bundleFiles();
    const plain = await readBundle(writeTree(tempDir(), ROOT, files));
    const wide = Object.fromEntries(Object.entries(files).map(([path, text], i) => [path, utf16(text, i % 3)]));
    const decoded = await readBundle(writeTree(tempDir(), ROOT, wide));
    expect(plain.bootstrap?.journals.bootkube.lineCount).toBeGreaterThan(5);
    expect(JSON.stringify(decoded.bootstrap)).toBe(JSON.stringify(plain.bootstrap));
    expect(JSON.stringify(decoded.masters)).toBe(JSON.stringify(plain.masters));
    expect(decoded.problems).toEqual(plain.problems);
  });

  it('lists a second entry with the same path and keeps the first', async () => {
    const second = J.replace('Waiting for etcd cluster', 'a later copy');
    const b = await readBundle(
      file(
        'dup.tar',
        rawTar([
          { path: `${ROOT}/bootstrap/journals/bootkube.log`, content: J },
          { path: `${ROOT}/bootstrap/journals/bootkube.log`, content: second },
        ]),
      ),
    );
    expect(b.bootstrap?.journals.bootkube.head[0].text).toBe('Waiting for etcd cluster...');
    expect(b.problems).toEqual([
      { kind: 'corrupt-entry', file: `${ROOT}/bootstrap/journals/bootkube.log`, message: 'a second entry with the same path: not read (the first one was)' },
    ]);
  });

  it('lists a link inside the bundle, from a tar and from a zip, without following it', async () => {
    const tar = await walk(
      file('links.tar', rawTar([{ path: `${ROOT}/gather.log`, content: 'ok\n' }, { path: `${ROOT}/latest.log`, type: '2', linkname: 'gather.log' }])),
    );
    const zip = await walk(file('links.zip', buildZip([{ name: `${ROOT}/gather.log`, content: 'ok\n' }, { name: `${ROOT}/latest.log`, content: 'gather.log', unixMode: 0o120777 }])));
    for (const got of [tar, zip]) {
      expect([...got.files.keys()]).toEqual([`${ROOT}/gather.log`]);
      expect(got.problems).toEqual([{ kind: 'link-not-followed', file: `${ROOT}/latest.log`, message: 'symlink to gather.log (inside the bundle): not followed' }]);
    }
  });
});
