import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { collectBundles } from '../../src/triage/collect.js';
import { analyzeMany } from '../../src/triage/pool.js';
import { parseRecords, type TriageRecord } from '../../src/triage/record.js';
import { summarize } from '../../src/triage/summary.js';
import { bundleFiles, packTar, ROOT, tempDir, writeTree } from '../support/fixture-bundle.js';


let dir: string;
let records: TriageRecord[];

function rewrite(files: Record<string, string>, map: [RegExp, string][]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [p, c] of Object.entries(files)) {
    let path = p;
    let content = c;
    for (const [re, to] of map) {
      path = path.replace(re, to);
      content = content.replace(re, to);
    }
    out[path] = content;
  }
  return out;
}

beforeAll(async () => {
  dir = tempDir('bootlens-triage-');
  const src = tempDir();
  // Two bundles failing the same way on different clusters: other hosts, addresses and times.
  writeTree(join(src, 'a'), ROOT, bundleFiles());
  await packTar(join(src, 'a'), ROOT, join(dir, 'ci-run-1.tar.gz'), true);
  const other = rewrite(bundleFiles(), [
    [/10\.0\.0\./g, '192.168.50.'],
    [/ocp4\.example\.com/g, 'lab.internal'],
    [/Nov 22 1/g, 'Nov 21 0'],
    [/2026-11-22T1/g, '2026-11-21T0'],
  ]);
  const otherRoot = 'log-bundle-20261121091800';
  writeTree(join(src, 'b'), otherRoot, other);
  await packTar(join(src, 'b'), otherRoot, join(dir, 'ci-run-2.tar.gz'), true);
  // A different failure: the release image could not be pulled.
  writeTree(dir, 'ci-run-3', {
    [`${ROOT}/bootstrap/services/release-image.json`]:
      '[\n{"timestamp":"2026-11-22T10:00:00Z","phase":"service start"},\n{"timestamp":"2026-11-22T10:05:00Z","phase":"service end","result":"failure","errorMessage":"Error: reading manifest sha256:1 in quay.io/openshift-release-dev/ocp-release: unauthorized: authentication required"}\n]\n',
  });
  // Not a bundle at all.
  writeFileSync(join(dir, 'ci-run-4.tar.gz'), 'this upload was cut off');
  const paths = await collectBundles([dir]);
  records = await analyzeMany(paths, { jobs: 2, version: 'test' });
});

describe('triage', () => {
  it('analyzes every bundle on worker threads, one record each, a bad one included', () => {
    expect(records.map((r) => r.bundle).sort()).toEqual(['ci-run-1.tar.gz', 'ci-run-2.tar.gz', 'ci-run-3', 'ci-run-4.tar.gz']);
    const bad = records.find((r) => r.bundle === 'ci-run-4.tar.gz');
    expect(bad).toMatchObject({ status: 'unreadable', error: expect.stringContaining('not a log bundle') });
  });

  it('groups the same failure across hosts, times and IPs, and keeps different failures apart', () => {
    const s = summarize(records);
    const one = records.find((r) => r.bundle === 'ci-run-1.tar.gz')!;
    const two = records.find((r) => r.bundle === 'ci-run-2.tar.gz')!;
    const three = records.find((r) => r.bundle === 'ci-run-3')!;
    expect(one.signature?.id).toBe(two.signature?.id);
    expect(three.signature?.id).not.toBe(one.signature?.id);
    expect(s.groups.map((g) => [g.count, g.signature.stage, g.signature.category])).toEqual([
      [2, 'bootstrap-etcd', 'etcd-health'],
      [1, 'release-image', 'registry-auth'],
    ]);
    expect(s.groups[0].firstSeen).toBeLessThan(s.groups[0].lastSeen!);
    expect(s.unreadable).toEqual([expect.objectContaining({ bundle: 'ci-run-4.tar.gz' })]);
    expect(s).toMatchObject({ total: 4, analyzed: 3, failed: 3, unclassified: 0, unclassifiedShare: 0 });
  });

  it('with --similarity lexical, records the known issues each bundle looked like and groups the same', async () => {
    const lexical = await analyzeMany(await collectBundles([dir]), { jobs: 2, version: 'test', similarity: { mode: 'lexical' } });
    const byName = (rs: typeof records, n: string) => rs.find((r) => r.bundle === n)!;
    expect(byName(lexical, 'ci-run-1.tar.gz').similar?.length ?? 0).toBeGreaterThan(0);
    expect(records.every((r) => r.similar === null)).toBe(true);
    expect(summarize(lexical).groups.map((g) => [g.count, g.signature.stage, g.signature.category])).toEqual(
      summarize(records).groups.map((g) => [g.count, g.signature.stage, g.signature.category]),
    );
  });

  it('gives the same signature ids on a second run', async () => {
    const again = await analyzeMany(await collectBundles([dir]), { jobs: 1, version: 'test' });
    const ids = (rs: TriageRecord[]): string[] => rs.map((r) => `${r.bundle}=${r.signature?.id ?? '-'}`).sort();
    expect(ids(again)).toEqual(ids(records));
  });

  it('merges shards of JSON lines into the same summary as one run', () => {
    const sorted = [...records].sort((a, b) => a.path.localeCompare(b.path));
    const shardA = join(dir, '..', 'shard-a.jsonl');
    const shardB = join(dir, '..', 'shard-b.jsonl');
    writeFileSync(shardA, sorted.slice(0, 2).map((r) => JSON.stringify(r)).join('\n') + '\n');
    writeFileSync(shardB, sorted.slice(2).map((r) => JSON.stringify(r)).join('\n') + '\nnot json\n');
    const a = parseRecords(readFileSync(shardA, 'utf8'), shardA);
    const b = parseRecords(readFileSync(shardB, 'utf8'), shardB);
    expect(b.errors).toEqual([`${shardB}:3: not JSON`]);
    expect(summarize([...a.records, ...b.records])).toEqual(summarize(records));
  });
});
