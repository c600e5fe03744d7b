// Case folders found by one rule at every depth, and input with no case at all refused.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/cli/exit-codes.js';
import { runTriage } from '../../src/cli/triage-command.js';
import { collectCases, NoCasesError } from '../../src/triage/collect.js';
import { tempDir, writeTree } from '../support/fixture-bundle.js';

const SAMPLE = join(process.cwd(), 'samples', 'release-pull-secret-rejected', 'log-bundle-20240227150856.tar.gz');
// The installer's output as a CI build log holds it.
const BUILD_LOG = [
  'level=info msg="Waiting up to 20m0s (until 3:20PM UTC) for the Kubernetes API at https://api.ci-op-1.example.com:6443..."',
  'level=error msg="Attempted to gather debug logs after installation failure: must provide bootstrap host address"',
  'level=fatal msg="Bootstrap failed to complete: waiting for Kubernetes API: context deadline exceeded"',
  '',
].join('\n');

describe('case folders at every depth', () => {
  it('a build log one folder above its bundle belongs to the same case, as it does beside it', async () => {
    const bundle = readFileSync(SAMPLE);
    const tree = writeTree(tempDir(), 'ci', {
      'job-1/build-log.txt': BUILD_LOG,
      'job-1/artifacts/log-bundle-20240227150856.tar.gz': bundle,
      'job-2/build-log.txt': BUILD_LOG,
      'job-2/log-bundle-20240227150856.tar.gz': bundle,
      'job-3/build-log.txt': BUILD_LOG,
      'job-4/a/log-bundle-1.tar.gz': bundle,
      'job-4/b/log-bundle-2.tar.gz': bundle,
      'job-4/build-log.txt': BUILD_LOG,
      'README.md': 'week 47\n',
    });
    const { cases, ignored } = await collectCases([tree]);
    expect(cases.map((c) => c.name)).toEqual(['job-1', 'job-2', 'job-3', 'job-4/a', 'job-4/b']);
    // Two bundles below job-4: each is a case, and the log beside them belongs to neither.
    expect(ignored.sort()).toEqual(['README.md', 'job-4/build-log.txt']);
    const jsonl = join(tempDir(), 'r.jsonl');
    expect(await runTriage([join(tree, 'job-1'), join(tree, 'job-2')], { format: 'json', output: join(tempDir(), 's.json'), jsonl, jobs: '2', similarity: 'off' })).toBe(1);
    const records = readFileSync(jsonl, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { findings: string[] });
    // The installer's output was read with the bundle in both layouts.
    expect(records.map((r) => r.findings.includes('installer-wait-failed'))).toEqual([true, true]);
  });

  it('an empty folder, or one with no bundle and no installer output, is an error naming what was looked for', async () => {
    const empty = tempDir();
    await expect(collectCases([empty])).rejects.toThrow(NoCasesError);
    await expect(collectCases([empty])).rejects.toThrow(/no case to triage in an empty folder \(looked for log bundles .*, installer output, journals and serial console captures, at any depth\)/);
    const notes = writeTree(tempDir(), 'notes', { 'README.md': 'nothing here\n', 'sub/run.sh': 'echo hi\n' });
    await expect(runTriage([notes], { format: 'text', similarity: 'off' })).rejects.toThrow(UsageError);
    await expect(runTriage([notes], { format: 'text', similarity: 'off' })).rejects.toThrow(/2 file\(s\), none a bundle/);
  });

  it('analyze of an empty folder exits 2 with one line, never "inconclusive" and 0', () => {
    const r = spawnSync(process.execPath, [join(process.cwd(), 'dist/src/cli/main.js'), 'analyze', tempDir()], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/is an empty folder: no log bundle in it \(looked for /);
    // With the installer's log named beside it, there is something to read.
    const log = join(writeTree(tempDir(), 'logs', { 'install.log': BUILD_LOG }), 'install.log');
    const withLog = spawnSync(process.execPath, [join(process.cwd(), 'dist/src/cli/main.js'), 'analyze', tempDir(), '--install-log', log], { encoding: 'utf8' });
    expect(withLog.stderr).toBe('');
    expect(withLog.status).toBe(1);
  });
});
