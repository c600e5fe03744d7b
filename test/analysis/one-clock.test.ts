// One clock: the year of year-less journal times and the gather time come from the gather id,
// never from a file's modification time: a note written today beside a bundle from 2024 changes
// nothing.
import { cpSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeBundle } from '../../src/analysis/analyze.js';
import { loadRules } from '../../src/rules/load-rules.js';
import { tempDir, writeTree } from '../support/fixture-bundle.js';

describe('the bundle keeps its own clock', () => {
  it('a notes file and an expected.json beside an unpacked 2024 bundle change neither times nor verdict', async () => {
    const rules = loadRules().rules;
    const sample = join(process.cwd(), 'samples/workers-csr-pending');
    const plain = await analyzeBundle(sample, { rules, version: 'test' });
    const gatherYear = new Date(plain.bundle.gatheredAt as number).getUTCFullYear();
    // A case folder: the bundle's folder, and today's notes written before it in name order.
    const dir = tempDir('bootlens-clock-');
    const caseDir = join(dir, 'case');
    mkdirSync(caseDir);
    writeFileSync(join(caseDir, 'a-notes.txt'), 'customer says it worked yesterday\n');
    writeFileSync(join(caseDir, 'expected.json'), '{}\n');
    const now = new Date();
    utimesSync(join(caseDir, 'a-notes.txt'), now, now);
    cpSync(sample, join(caseDir, 'bundle'), { recursive: true });
    const withNotes = await analyzeBundle(caseDir, { rules, version: 'test' });
    expect(withNotes.verdict).toMatchObject({ stage: plain.verdict.stage, category: plain.verdict.category });
    expect(withNotes.bundle.gatheredAt).toBe(plain.bundle.gatheredAt);
    const times = withNotes.findings.flatMap((f) => f.evidence.map((e) => e.time)).filter((t): t is number => t !== undefined);
    for (const t of times) expect(new Date(t).getUTCFullYear()).toBe(gatherYear);
  });
});

describe('without a gather id, the bundle\'s full dates give year-less times their year', () => {
  it.each([
    ['alone', {}],
    ['beside a damaged record dated 2099', { 'bootstrap/services/release-image.json': JSON.stringify([{ timestamp: '2099-01-01T00:00:00Z', phase: 'service start' }]) }],
  ])('a renamed 2019 bundle written to disk today reads its journals as 2019 (%s)', async (_name, extra: Record<string, string>) => {
    const H = 'bootstrap.example.com';
    const dir = writeTree(tempDir('bootlens-clock-'), 'customer-upload', {
      ...extra,
      'bootstrap/services/bootkube.json': JSON.stringify([
        { timestamp: '2019-06-19T16:10:00Z', phase: 'service start' },
        { timestamp: '2019-06-19T16:10:05Z', phase: 'stage start', stage: 'wait-for-etcd' },
      ]),
      'bootstrap/journals/bootkube.log': [
        `Jun 19 16:10:00 ${H} systemd[1]: Started Bootstrap a Kubernetes cluster.`,
        `Jun 19 16:10:05 ${H} bootkube.sh[1933]: Waiting for etcd cluster...`,
        `Jun 19 17:02:48 ${H} bootkube.sh[1933]: https://localhost:2379 is unhealthy: failed to commit proposal: context deadline exceeded`,
        `Jun 19 17:02:48 ${H} bootkube.sh[1933]: etcdctl failed. Retrying in 5 seconds...`,
      ].join('\n') + '\n',
    });
    const r = await analyzeBundle(dir, { rules: loadRules().rules, version: 'test' });
    expect(r.bundle.gatheredAt).toBeUndefined();
    const etcd = r.stages.find((s) => s.id === 'bootstrap-etcd');
    expect(etcd?.start).toBe(Date.parse('2019-06-19T16:10:05Z'));
    const times = r.findings.flatMap((f) => f.evidence.map((e) => e.time)).filter((t): t is number => t !== undefined);
    expect(times.length).toBeGreaterThan(0);
    for (const t of times) expect(new Date(t).toISOString().slice(0, 10)).toBe('2019-06-19');
  });
});
