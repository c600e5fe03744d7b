import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findSamples, makeReports } from '../../scripts/make-reports.js';
import { bundleFiles, GATHER_ID, packTar, ROOT, tempDir, writeTree } from '../support/fixture-bundle.js';
import { rulesDir } from './results.js';

/** A samples folder shaped like `npm run samples` output: `<scenario>/log-bundle-<id>.tar.gz`. */
async function samples(names: string[]): Promise<string> {
  const dir = tempDir('bootlens-samples-');
  for (const name of names) {
    const work = tempDir();
    writeTree(work, ROOT, bundleFiles());
    writeTree(dir, name, { 'README.md': `# ${name}\n` });
    await packTar(work, ROOT, join(dir, name, `log-bundle-${GATHER_ID}.tar.gz`), true);
  }
  return dir;
}

describe('npm run reports', () => {
  it('reports on the first samples, sorted, and writes an index', async () => {
    const dir = await samples(['c-etcd', 'a-dns', 'b-pull-secret', 'd-csr']);
    expect(findSamples(dir).map((s) => s.scenario)).toEqual(['a-dns', 'b-pull-secret', 'c-etcd', 'd-csr']);
    const out = join(tempDir(), 'reports');
    await makeReports({ samplesDir: dir, outDir: out, rulesDir: rulesDir(), version: '0.0.0-test' });
    expect(readdirSync(out).sort()).toEqual(['README.md', 'a-dns.html', 'a-dns.md', 'b-pull-secret.html', 'b-pull-secret.md', 'c-etcd.html', 'c-etcd.md']);
    expect(readFileSync(join(out, 'a-dns.md'), 'utf8')).toMatch(/^# bootlens: log-bundle-20261122111800\.tar\.gz\n/);
    expect(readFileSync(join(out, 'a-dns.html'), 'utf8')).toContain('FAILED at bootstrap-etcd');
    const index = readFileSync(join(out, 'README.md'), 'utf8');
    expect(index).toContain('| a-dns | `log-bundle-20261122111800.tar.gz` | FAILED at bootstrap-etcd');
    expect(index).toContain('[c-etcd.html](c-etcd.html)');
  });

  it('writes the same bytes every time and removes only its own stale reports', async () => {
    const dir = await samples(['one', 'two']);
    const out = join(tempDir(), 'reports');
    const opts = { samplesDir: dir, outDir: out, rulesDir: rulesDir(), version: '0.0.0-test' };
    await makeReports(opts);
    const first = Object.fromEntries(readdirSync(out).map((f) => [f, readFileSync(join(out, f), 'utf8')]));
    writeFileSync(join(out, 'notes.md'), 'kept: not written by bootlens\n');
    writeFileSync(join(out, 'gone.md'), '# bootlens: old.tar.gz\n');
    await makeReports(opts);
    for (const [f, text] of Object.entries(first)) expect(readFileSync(join(out, f), 'utf8'), f).toBe(text);
    expect(readdirSync(out).sort()).toEqual(['README.md', 'notes.md', 'one.html', 'one.md', 'two.html', 'two.md']);
  });

  it('names the samples it has when asked for one it does not', async () => {
    const dir = await samples(['one']);
    await expect(makeReports({ samplesDir: dir, outDir: join(tempDir(), 'r'), scenarios: ['nope'], rulesDir: rulesDir() })).rejects.toThrow(/no sample 'nope'; there are: one/);
  });
});
