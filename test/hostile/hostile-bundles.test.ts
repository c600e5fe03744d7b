// The fuzz corpus of issue 8: damaged and crafted bundles, each with its exact outcome.
import { spawnSync } from 'node:child_process';
import { createWriteStream, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { createGzip, gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { InputError } from '../../src/archive/walk-bundle.js';
import { readBundle } from '../../src/ingest/read-bundle.js';
import { bundleFiles, packTar, ROOT, tempDir, writeTree } from '../support/fixture-bundle.js';
import { rawTar } from '../support/raw-tar.js';

const CLI = join(process.cwd(), 'dist/src/cli/main.js');
const J = `Nov 22 10:15:04 bootstrap bootkube.sh[2507]: Waiting for etcd cluster...\n`;

function cli(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function file(name: string, content: Buffer | string): string {
  const path = join(tempDir('bootlens-hostile-'), name);
  writeFileSync(path, content);
  return path;
}

let whole: Buffer;
let plainTar: Buffer;
beforeAll(async () => {
  const dir = tempDir();
  writeTree(dir, ROOT, bundleFiles());
  whole = readFileSync(await packTar(dir, ROOT, join(dir, 'b.tar.gz'), true));
  plainTar = readFileSync(await packTar(dir, ROOT, join(dir, 'b.tar'), false));
});

describe('damaged archives', () => {
  it('a gzip truncated at any offset yields what precedes the cut, never a crash', async () => {
    for (const fraction of [0.02, 0.1, 0.25, 0.4, 0.55, 0.7, 0.85, 0.95, 0.99]) {
      const cut = file('cut.tar.gz', whole.subarray(0, Math.floor(whole.length * fraction)));
      try {
        const b = await readBundle(cut);
        expect(b.problems.some((p) => p.kind === 'truncated-archive'), `cut at ${fraction}`).toBe(true);
      } catch (err) {
        // A cut inside the very first entries leaves nothing to read: a clear input error.
        expect(err, `cut at ${fraction}`).toBeInstanceOf(InputError);
      }
    }
  });

  it('a corrupt tar header is skipped and the entries after it are still read', async () => {
    const tar = Buffer.from(plainTar);
    // Find the header of the bootkube journal and break its checksum.
    const at = tar.indexOf(Buffer.from(`${ROOT}/bootstrap/journals/bootkube.log`));
    expect(at % 512).toBe(0);
    tar.write('XXXXXXX', at + 148, 'latin1');
    const b = await readBundle(file('broken.tar', tar));
    expect(b.problems).toContainEqual(expect.objectContaining({ kind: 'corrupt-archive', message: expect.stringContaining('checksum') }));
    expect(b.bootstrap?.journals.bootkube).toBeUndefined();
    expect(b.bootstrap?.journals.kubelet.lineCount).toBe(8);
    expect(b.masters).toHaveLength(3);
  });

  it('an empty archive is a bundle of nothing (a problem, inconclusive); an empty file is an input error (exit 2)', () => {
    const empty = cli(['analyze', file('empty.tar.gz', gzipSync(Buffer.alloc(1024))), '--format', 'json']);
    expect(empty.code).toBe(0);
    const report = JSON.parse(empty.stdout) as { verdict: { status: string }; problems: { kind: string }[] };
    expect(report.verdict.status).toBe('inconclusive');
    expect(report.problems).toContainEqual(expect.objectContaining({ kind: 'empty' }));
    const zero = cli(['analyze', file('zero.tar.gz', '')]);
    expect(zero.code).toBe(2);
    expect(zero.stderr).toMatch(/is empty/);
  });
});

describe('crafted archives', () => {
  it('records `..`, absolute paths and link escapes without reading or following them', async () => {
    const tar = rawTar([
      { path: `${ROOT}/gather.log`, content: 'Gather remote logs\n' },
      { path: `${ROOT}/../../etc/cron.d/evil`, content: '* * * * * root rm -rf /\n' },
      { path: '/etc/passwd', content: 'root:x:0:0\n' },
      { path: `${ROOT}/bootstrap/journals/kubelet.log`, type: '2', linkname: '/var/log/journal' },
      { path: `${ROOT}/bootstrap/journals/crio.log`, type: '1', linkname: '../../../../etc/shadow' },
      { path: `${ROOT}/loop-a`, type: '2', linkname: 'loop-b' },
      { path: `${ROOT}/loop-b`, type: '2', linkname: 'loop-a' },
      { path: `${ROOT}/bootstrap/journals/bootkube.log`, content: J },
    ]);
    const b = await readBundle(file('crafted.tar', tar));
    expect(b.problems.map((p) => [p.kind, p.file])).toEqual([
      ['unsafe-path', `${ROOT}/../../etc/cron.d/evil`],
      ['unsafe-path', '/etc/passwd'],
      ['link-not-followed', `${ROOT}/bootstrap/journals/kubelet.log`],
      ['link-not-followed', `${ROOT}/bootstrap/journals/crio.log`],
      // Links inside the bundle are listed too (issue 18): recorded, never followed.
      ['link-not-followed', `${ROOT}/loop-a`],
      ['link-not-followed', `${ROOT}/loop-b`],
    ]);
    expect(Object.keys(b.bootstrap?.journals ?? {})).toEqual(['bootkube']);
    expect(b.gatherLog?.lineCount).toBe(1);
  });

  it('stops a gzip bomb at the decompression ratio, in bounded time', async () => {
    const path = join(tempDir('bootlens-bomb-'), 'bomb.tar.gz');
    const size = 1024 ** 3;
    async function* tarOfZeros(): AsyncIterable<Buffer> {
      const head = rawTar([{ path: `${ROOT}/bootstrap/journals/kubelet.log`, content: '' }]).subarray(0, 512);
      head.write((size).toString(8).padStart(11, '0') + '\0', 124, 'latin1');
      let sum = 0;
      head.write('        ', 148);
      for (let i = 0; i < 512; i++) sum += head[i];
      head.write(sum.toString(8).padStart(6, '0') + '\0 ', 148, 'latin1');
      yield head;
      const zeros = Buffer.alloc(1024 * 1024);
      for (let i = 0; i < size / zeros.length; i++) yield zeros;
      yield Buffer.alloc(1024);
    }
    await pipeline(Readable.from(tarOfZeros()), createGzip({ level: 6 }), createWriteStream(path));
    const start = Date.now();
    const b = await readBundle(path);
    expect(Date.now() - start).toBeLessThan(30_000);
    expect(b.problems).toContainEqual(expect.objectContaining({ kind: 'limit', message: expect.stringContaining('decompression bomb') }));
  }, 60_000);

  it('cuts a 500 MB line with no newline and keeps memory bounded', async () => {
    const path = join(tempDir('bootlens-line-'), 'line.tar.gz');
    const size = 500 * 1024 * 1024;
    async function* tarOfOneLine(): AsyncIterable<Buffer> {
      const head = rawTar([{ path: `${ROOT}/bootstrap/journals/bootkube.log`, content: '' }]).subarray(0, 512);
      head.write(size.toString(8).padStart(11, '0') + '\0', 124, 'latin1');
      head.write('        ', 148);
      let sum = 0;
      for (let i = 0; i < 512; i++) sum += head[i];
      head.write(sum.toString(8).padStart(6, '0') + '\0 ', 148, 'latin1');
      yield head;
      const chunk = Buffer.alloc(1024 * 1024, 'A');
      for (let i = 0; i < size / chunk.length; i++) yield chunk;
      yield Buffer.alloc(1024);
    }
    await pipeline(Readable.from(tarOfOneLine()), createGzip({ level: 1 }), createWriteStream(path));
    const before = process.memoryUsage().rss;
    const b = await readBundle(path);
    const j = b.bootstrap?.journals.bootkube;
    expect(j?.lineCount).toBe(1);
    expect(j?.truncatedLines).toBe(1);
    expect(j?.head[0].truncated).toBe(true);
    expect(b.problems).toContainEqual(expect.objectContaining({ kind: 'limit', message: expect.stringContaining('were cut') }));
    expect(process.memoryUsage().rss - before).toBeLessThan(200 * 1024 * 1024);
  }, 60_000);

  it('refuses a YAML alias bomb and over-deep JSON, reading the rest', async () => {
    const laughs = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 10; i++) laughs.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9).fill(`*${String.fromCharCode(96 + i)}`).join(',')}]`);
    laughs.push('kind: Pod', 'metadata:', '  name: bomb', 'spec:', '  containers: *j');
    const files = {
      'rendered-assets/openshift/bootstrap-manifests/bomb-pod.yaml': laughs.join('\n'),
      'bootstrap/services/bootkube.json': '['.repeat(10_000) + ']'.repeat(10_000),
      'bootstrap/journals/bootkube.log': J,
    };
    const b = await readBundle(writeTree(tempDir(), ROOT, files));
    expect(b.problems).toEqual([
      expect.objectContaining({ kind: 'limit', file: `${ROOT}/bootstrap/services/bootkube.json`, message: 'JSON nested deeper than 64 levels: not parsed' }),
      expect.objectContaining({ kind: 'limit', file: `${ROOT}/rendered-assets/openshift/bootstrap-manifests/bomb-pod.yaml`, message: 'YAML with 82 aliases (limit 64): not parsed' }),
    ]);
    expect(b.bootstrap?.journals.bootkube.lineCount).toBe(1);
  });

  it('reads binary and non-UTF-8 journals, and empty files, without failing', async () => {
    const binary = Buffer.alloc(4096);
    for (let i = 0; i < binary.length; i++) binary[i] = (i * 7919) % 256;
    const files = {
      'bootstrap/journals/kubelet.log': binary,
      'bootstrap/journals/crio.log': Buffer.concat([Buffer.from('Nov 22 10:15:04 h crio[1]: caf'), Buffer.from([0xe9, 0xff]), Buffer.from(' level=error\n')]),
      'bootstrap/journals/bootkube.log': '',
      'bootstrap/services/release-image.json': '',
      'resources/nodes.json': '',
    };
    const b = await readBundle(writeTree(tempDir(), ROOT, files));
    expect(b.bootstrap?.journals.kubelet.lineCount).toBeGreaterThan(0);
    expect(b.bootstrap?.journals.crio.head[0].text).toBe('caf\ufffd\ufffd level=error');
    expect(b.bootstrap?.journals.bootkube.lineCount).toBe(0);
    expect(b.cluster?.files[0]).toMatchObject({ name: 'nodes', status: 'empty' });
    expect(b.problems).toContainEqual(expect.objectContaining({ kind: 'empty', file: `${ROOT}/bootstrap/services/release-image.json` }));
  });
});

describe('the wrong kind of input', () => {
  it('names a must-gather for what it is', () => {
    const dir = writeTree(tempDir(), 'must-gather.local.123', {
      'quay-io-openshift-release-dev/cluster-scoped-resources/config.openshift.io/clusteroperators.yaml': 'kind: ClusterOperatorList\n',
      'quay-io-openshift-release-dev/namespaces/openshift-etcd/pods/etcd-0/etcd-0.yaml': 'kind: Pod\n',
    });
    const r = cli(['analyze', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/must-gather/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('refuses a random tarball and a random file with one line', async () => {
    const dir = writeTree(tempDir(), 'project', { 'src/main.c': 'int main(){}\n', 'README': 'hello\n' });
    const tgz = await packTar(dir, '.', join(dir, '..', 'random.tgz'), true);
    for (const path of [tgz, file('photo.jpg', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]))]) {
      const r = cli(['inspect', path]);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });
});
