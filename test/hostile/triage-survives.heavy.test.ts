// Triage results that survive: a bundle over its time limit is a failed-to-analyze record and the
// run goes on; records are appended as they are made, so a killed run keeps them and --resume
// finishes it; one run writes a --jsonl file at a time; --merge counts each case once; gather ids
// give dates the record schema takes; the order is the same in every locale.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gatherIdProblem, gatherIdTime } from '../../src/text/time.js';
import { isTriageRecord, type TriageRecord } from '../../src/triage/record.js';
import { bundleFiles, ROOT, tempDir, writeTree } from '../support/fixture-bundle.js';
import { bundleWithGatherId, hangingBundle, hangingRulesDir } from './crafted-bundles.js';

const CLI = join(process.cwd(), 'dist/src/cli/main.js');

function triage(args: string[], env: Record<string, string> = {}): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [CLI, 'triage', ...args], { encoding: 'utf8', timeout: 120_000, env: { ...process.env, ...env } });
}

function recordsOf(file: string): TriageRecord[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as TriageRecord);
}

function lines(file: string): number {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).length : 0;
}

/** Four cases in name order: two good, one that hangs the user rule, one good after it. */
function caseFolder(): string {
  const dir = tempDir('bootlens-cases-');
  writeTree(join(dir, 'a-good'), ROOT, bundleFiles());
  writeTree(join(dir, 'b-good'), ROOT, bundleFiles());
  hangingBundle(join(dir, 'c-hangs'));
  writeTree(join(dir, 'd-good'), ROOT, bundleFiles());
  return dir;
}

describe('a triage run that is killed', () => {
  it('keeps every record it finished in <jsonl>.partial, and --resume analyzes only the rest, the hanging bundle over its time limit', async () => {
    const dir = caseFolder();
    const rules = hangingRulesDir(tempDir());
    const out = join(tempDir(), 'week.jsonl');
    const child = spawn(process.execPath, [CLI, 'triage', dir, '--rules', rules, '--jobs', '1', '--jsonl', out], { stdio: 'ignore' });
    try {
      // The first two cases finish; the third hangs in the user rule until the run is killed.
      for (let waited = 0; lines(`${out}.partial`) < 2 && waited < 60_000; waited += 100) await new Promise((r) => setTimeout(r, 100));
    } finally {
      // Killed whatever happens here: a run left behind would hang in the user rule for ten minutes.
      child.kill('SIGKILL');
    }
    await new Promise((r) => child.once('exit', r));
    expect(existsSync(out)).toBe(false);
    const kept = recordsOf(`${out}.partial`);
    expect(kept.map((r) => r.bundle)).toEqual(['a-good', 'b-good']);
    expect(kept.every(isTriageRecord)).toBe(true);
    // The killed run's lock stays behind; its process is gone, so the next run takes it over.
    expect(existsSync(`${out}.lock`)).toBe(true);

    // A time limit well above a good bundle's analysis on a loaded machine; the hanging one never ends.
    const resumed = triage([dir, '--rules', rules, '--jobs', '1', '--jsonl', out, '--resume', '--bundle-timeout', '8']);
    expect(resumed.status).toBe(1);
    expect(resumed.stderr).toContain('resuming: 2 of 4 case(s) were analyzed by the run that stopped');
    const all = recordsOf(out);
    expect(all.map((r) => r.bundle)).toEqual(['a-good', 'b-good', 'c-hangs', 'd-good']);
    expect(all.every(isTriageRecord)).toBe(true);
    expect(all[2]).toMatchObject({ status: 'failed-to-analyze', error: 'over the time limit: the analysis took longer than 8 s (--bundle-timeout)' });
    expect(all[3]).toMatchObject({ status: 'analyzed', verdict: { status: 'failed', stage: 'bootstrap-etcd' } });
    // The kept records are the killed run's, not analyzed again.
    expect(all.slice(0, 2)).toEqual(kept);
    expect(existsSync(`${out}.partial`)).toBe(false);
    expect(existsSync(`${out}.lock`)).toBe(false);
  });

  it('--resume needs the --jsonl file it continues', () => {
    const r = triage([tempDir(), '--resume']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^bootlens: --resume continues the --jsonl file of a run that stopped/);
  });
});

describe('one writer per --jsonl file', () => {
  it('refuses while another run holds it, and takes over a lock whose run is gone', () => {
    const dir = tempDir('bootlens-lock-');
    writeTree(dir, ROOT, bundleFiles());
    const out = join(tempDir(), 'shared.jsonl');
    writeFileSync(out, 'the last run\'s records\n');
    // A run alive on this machine (this test's own process) holds the lock.
    writeFileSync(`${out}.lock`, `${process.pid} ${hostname()}\n`);
    const refused = triage([dir, '--jsonl', out]);
    expect(refused.status).toBe(2);
    expect(refused.stderr.trim().split('\n')).toEqual([`bootlens: ${out} is being written by another triage run (pid ${process.pid} on ${hostname()}): one run per --jsonl file; if none is running, remove ${out}.lock`]);
    expect(readFileSync(out, 'utf8')).toBe('the last run\'s records\n');
    // A run that is gone (a pid that exited) holds it no longer.
    const gone = spawnSync('true').pid;
    writeFileSync(`${out}.lock`, `${gone} ${hostname()}\n`);
    const taken = triage([dir, '--jsonl', out]);
    expect(taken.status).toBe(1);
    expect(recordsOf(out)).toHaveLength(1);
    expect(existsSync(`${out}.lock`)).toBe(false);
  });
});

describe('gather ids and merge', () => {
  it('reads a gather id year as four digits; a date before 1970 is a read problem, never a record the schema rejects; merging the same file twice counts each case once', () => {
    expect(gatherIdTime('20261122111800')).toBe(Date.UTC(2026, 10, 22, 11, 18, 0));
    expect(gatherIdTime('19700101000000')).toBe(0);
    expect(gatherIdTime('00991122111800')).toBeUndefined();
    expect(gatherIdTime('20230229000000')).toBeUndefined();
    expect(gatherIdTime('20240229000000')).toBe(Date.UTC(2024, 1, 29));
    expect(gatherIdProblem('00991122111800')).toMatch(/before 1970/);
    expect(gatherIdProblem('20261122111800')).toBeUndefined();
    expect(gatherIdProblem('not-a-timestamp')).toBeUndefined();

    const dir = tempDir('bootlens-years-');
    for (const id of ['00991122111800', '00001231235959', '19691231235959', '20261122111800']) bundleWithGatherId(join(dir, `case-${id}`), id);
    const out = join(tempDir(), 'years.jsonl');
    expect(triage([dir, '--jsonl', out, '--jobs', '2']).status).toBe(1);
    const records = recordsOf(out);
    expect(records).toHaveLength(4);
    expect(records.every(isTriageRecord)).toBe(true);
    expect(records.map((r) => r.gatheredAt)).toEqual([null, null, null, Date.UTC(2026, 10, 22, 11, 18, 0)]);
    const analyzed = spawnSync(process.execPath, [CLI, 'analyze', join(dir, 'case-00991122111800', 'log-bundle-00991122111800'), '-f', 'json'], { encoding: 'utf8' });
    expect((JSON.parse(analyzed.stdout) as { problems: { message: string }[] }).problems.map((p) => p.message)).toContain(
      'gather id 00991122111800 names a date before 1970 (or after 9999): not used as the time the bundle was gathered',
    );
    const merged = join(tempDir(), 'merged.json');
    const merge = triage(['--merge', out, out, '-f', 'json', '-o', merged]);
    expect(merge.status).toBe(1);
    expect(merge.stderr).toContain('4 record(s) repeated a case (same name and path) and were counted once');
    expect(JSON.parse(readFileSync(merged, 'utf8'))).toMatchObject({ total: 4, failed: 4 });
  });
});

describe('order', () => {
  it('is the same in every locale: records and summary by bytes (Estonian sorts z before t, Czech ch after h)', () => {
    const dir = tempDir('bootlens-locale-');
    for (const name of ['t', 'z', 'h', 'ch', 'Z']) writeTree(join(dir, name), ROOT, bundleFiles());
    const runs = ['C.UTF-8', 'et_EE.UTF-8', 'cs_CZ.UTF-8'].map((locale) => {
      const out = join(tempDir(), 'locale.jsonl');
      const r = triage([dir, '--jsonl', out, '-f', 'json', '--jobs', '2'], { LC_ALL: locale, LANG: locale });
      expect(r.status).toBe(1);
      return { jsonl: readFileSync(out, 'utf8'), summary: r.stdout };
    });
    const names = runs[0].jsonl.trim().split('\n').map((l) => (JSON.parse(l) as TriageRecord).bundle);
    expect(names).toEqual(['Z', 'ch', 'h', 't', 'z']);
    for (const run of runs.slice(1)) {
      expect(run.jsonl).toBe(runs[0].jsonl);
      expect(run.summary).toBe(runs[0].summary);
    }
  });
});

describe('a rules folder that does not load', () => {
  it('stops triage before any bundle with one line and exit 2', () => {
    const rules = writeTree(tempDir(), 'rules', { 'bad.yaml': 'id: bad\ntitle: [\n' });
    const dir = tempDir('bootlens-badrules-');
    copyFileSync(join(process.cwd(), 'samples/workers-csr-pending/log-bundle-20240611103714.tar.gz'), join(dir, 'a.tar.gz'));
    const r = triage([dir, '--rules', rules]);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^bootlens: a triage worker could not start: .*bad\.yaml:\d+: YAML/);
  });
});
