import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { InputError, walkBundle, type BundleFile } from '../../src/archive/walk-bundle.js';
import type { ReadProblem } from '../../src/model/types.js';
import { packTar, packZip, tempDir, writeTree } from '../support/fixture-bundle.js';

const FILES: Record<string, string> = {
  'gather.log': 'Gathering bootstrap systemd summary ...\n',
  'bootstrap/journals/bootkube.log': 'Nov 22 10:15:04 b bootkube.sh[2507]: Waiting for etcd cluster...\n',
  'control-plane/10.0.0.5/journals/kubelet.log': 'Nov 22 10:20:00 m0 kubelet.sh[2519]: I1122 10:20:00.000000 2519 x.go:1] ok\n',
};

async function collect(
  path: string,
  acceptFile?: (head: Buffer) => boolean,
): Promise<{ files: Record<string, string>; logical: Record<string, string>; problems: ReadProblem[]; format: string; nested: string[]; entries: number }> {
  const files: Record<string, string> = {};
  const logical: Record<string, string> = {};
  const problems: ReadProblem[] = [];
  const result = await walkBundle(
    path,
    async (f: BundleFile) => {
      const chunks: Buffer[] = [];
      for await (const c of f.body) chunks.push(c);
      files[f.path] = Buffer.concat(chunks).toString('utf8');
      logical[f.path] = f.logicalPath;
    },
    (p) => problems.push(p),
    undefined,
    undefined,
    acceptFile,
  );
  return { files, logical, problems, format: result.format, nested: result.nestedArchives, entries: result.entries };
}

let dir: string;
let bundleDir: string;
beforeAll(() => {
  dir = tempDir();
  bundleDir = writeTree(dir, 'log-bundle-1', FILES);
});

describe('walkBundle', () => {
  it('reads a folder, a tar, a tar.gz and a zip into the same files, detected by their bytes', async () => {
    const tarPath = await packTar(dir, 'log-bundle-1', join(dir, 'bundle.bin1'), false);
    const tgzPath = await packTar(dir, 'log-bundle-1', join(dir, 'bundle.bin2'), true);
    const zipPath = await packZip(dir, 'log-bundle-1', join(dir, 'bundle.bin3'));
    const expected = Object.fromEntries(Object.entries(FILES).map(([p, c]) => [`log-bundle-1/${p}`, c]));
    for (const [path, format] of [
      [bundleDir, 'directory'],
      [tarPath, 'tar'],
      [tgzPath, 'tar.gz'],
      [zipPath, 'zip'],
    ] as const) {
      const got = await collect(path);
      expect(got.format, path).toBe(format);
      expect(got.files, path).toEqual(expected);
      expect(got.problems, path).toEqual([]);
    }
  });

  it('reads through nested archives: a master tar.gz inside the bundle, and a tarball inside a zip', async () => {
    const inner = tempDir();
    writeTree(inner, 'log-bundle-1', { 'journals/crio.log': 'Nov 22 10:20:00 m1 crio[1490]: hello\n' });
    const innerTgz = readFileSync(await packTar(inner, 'log-bundle-1', join(inner, 'm.tar.gz'), true));
    const outer = tempDir();
    writeTree(outer, 'log-bundle-1', { 'gather.log': 'x\n', 'control-plane/10.0.0.6/log-bundle-1.tar.gz': innerTgz });
    const outerTgz = await packTar(outer, 'log-bundle-1', join(outer, 'outer.tar.gz'), true);
    const got = await collect(outerTgz);
    const nestedPath = 'log-bundle-1/control-plane/10.0.0.6/log-bundle-1.tar.gz!/log-bundle-1/journals/crio.log';
    expect(got.files[nestedPath]).toBe('Nov 22 10:20:00 m1 crio[1490]: hello\n');
    expect(got.logical[nestedPath]).toBe('log-bundle-1/control-plane/10.0.0.6/log-bundle-1/log-bundle-1/journals/crio.log');
    expect(got.nested).toEqual(['log-bundle-1/control-plane/10.0.0.6/log-bundle-1.tar.gz']);

    const zipDir = tempDir();
    writeTree(zipDir, 'case', { 'notes.txt': 'customer notes\n' });
    const zip = await packZip(zipDir, 'case', join(zipDir, 'case.zip'), { 'case/log-bundle-1.tar.gz': readFileSync(outerTgz) });
    const viaZip = await collect(zip);
    expect(viaZip.format).toBe('zip');
    expect(viaZip.files['case/log-bundle-1.tar.gz!/log-bundle-1/gather.log']).toBe('x\n');
    expect(viaZip.files[`case/log-bundle-1.tar.gz!/${nestedPath}`]).toBe('Nov 22 10:20:00 m1 crio[1490]: hello\n');
  });

  it('reports a truncated tar.gz and keeps every entry before the cut', async () => {
    const big: Record<string, string> = { 'gather.log': 'first\n' };
    for (let i = 0; i < 40; i++) big[`bootstrap/journals/unit${String(i).padStart(2, '0')}.log`] = `${'line '.repeat(2000)}${i}\n`;
    const src = tempDir();
    writeTree(src, 'log-bundle-1', big);
    const whole = readFileSync(await packTar(src, 'log-bundle-1', join(src, 'b.tgz'), true));
    const cut = join(src, 'cut.tgz');
    writeFileSync(cut, whole.subarray(0, Math.floor(whole.length * 0.6)));
    const got = await collect(cut);
    expect(got.files['log-bundle-1/gather.log']).toBe('first\n');
    expect(Object.keys(got.files).length).toBeGreaterThan(5);
    expect(Object.keys(got.files).length).toBeLessThan(41);
    expect(got.problems.some((p) => p.kind === 'truncated-archive' && /truncated/.test(p.message))).toBe(true);
  });

  it('records links and unsafe paths without following them', async () => {
    const src = tempDir();
    const root = writeTree(src, 'log-bundle-1', { 'gather.log': 'ok\n' });
    symlinkSync('/etc/passwd', join(root, 'escape'));
    symlinkSync('gather.log', join(root, 'inner-link'));
    const got = await collect(root);
    expect(Object.keys(got.files)).toEqual(['log-bundle-1/gather.log']);
    // Every link is listed, the one that escapes and the one inside the bundle alike.
    expect(got.problems).toEqual([
      { kind: 'link-not-followed', file: 'log-bundle-1/escape', message: 'symlink to /etc/passwd: not followed' },
      { kind: 'link-not-followed', file: 'log-bundle-1/inner-link', message: 'symlink to gather.log (inside the bundle): not followed' },
    ]);
    const tarPath = await packTar(src, 'log-bundle-1', join(src, 'l.tar'), false);
    const viaTar = await collect(tarPath);
    expect(Object.keys(viaTar.files)).toEqual(['log-bundle-1/gather.log']);
    expect(viaTar.problems.map((p) => p.kind)).toEqual(['link-not-followed', 'link-not-followed']);
  });

  it('refuses what is not a bundle with an InputError', async () => {
    const src = tempDir();
    const text = join(src, 'notes.txt');
    writeFileSync(text, 'just some notes\n');
    await expect(walkBundle(text, async () => {}, () => {})).rejects.toThrow(InputError);
    await expect(walkBundle(text, async () => {}, () => {})).rejects.toThrow(/not a log bundle/);
    const gz = join(src, 'x.gz');
    writeFileSync(gz, gzipSync(Buffer.from('plain text, no tar\n')));
    await expect(walkBundle(gz, async () => {}, () => {})).rejects.toThrow(/holds no tar/);
    await expect(walkBundle(join(src, 'missing.tar.gz'), async () => {}, () => {})).rejects.toThrow(/no such file/);
    const empty = join(src, 'empty.tar.gz');
    writeFileSync(empty, '');
    await expect(walkBundle(empty, async () => {}, () => {})).rejects.toThrow(/empty/);
    const xz = join(src, 'b.tar.xz');
    writeFileSync(xz, Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00, 1, 2, 3]));
    await expect(walkBundle(xz, async () => {}, () => {})).rejects.toThrow(/xz-compressed/);
  });

  it('hands a lone file that is no archive to the caller when its sniffer accepts it, and refuses it otherwise', async () => {
    const src = tempDir();
    const log = join(src, 'install.log');
    writeFileSync(log, 'time="2026-11-22T10:00:00Z" level=info msg="Consuming Install Config from target directory"\n');
    const got = await collect(log, (head) => head.toString().startsWith('time='));
    expect(got.format).toBe('file');
    expect(Object.keys(got.files)).toEqual(['install.log']);
    await expect(collect(log)).rejects.toThrow(/not a log bundle/);
    const gz = join(src, 'install.log.gz');
    writeFileSync(gz, gzipSync(readFileSync(log)));
    const unzipped = await collect(gz, (head) => head.toString().startsWith('time='));
    expect(Object.keys(unzipped.files)).toEqual(['install.log']);
  });

  it('reads an empty tar as a bundle of nothing, without reading past its end marker', async () => {
    const src = tempDir();
    const empty = join(src, 'empty.tar.gz');
    // An end-of-archive marker followed by 64 MiB of zeros: nothing past the marker is inflated.
    writeFileSync(empty, gzipSync(Buffer.alloc(64 * 1024 * 1024)));
    const got = await collect(empty);
    expect(got).toMatchObject({ format: 'tar.gz', entries: 0, files: {} });
    const plain = join(src, 'empty.tar');
    writeFileSync(plain, Buffer.alloc(10240));
    expect(await collect(plain)).toMatchObject({ format: 'tar', entries: 0 });
  });

  it('reports a zip with a damaged central directory instead of crashing', async () => {
    const src = tempDir();
    writeTree(src, 'b', { 'gather.log': 'ok\n' });
    const zip = readFileSync(await packZip(src, 'b', join(src, 'b.zip')));
    const broken = join(src, 'broken.zip');
    writeFileSync(broken, zip.subarray(0, zip.length - 30));
    const got = await collect(broken);
    expect(got.problems[0]?.kind).toBe('corrupt-archive');
    expect(got.problems[0]?.message).toMatch(/^zip: /);
  });
});
