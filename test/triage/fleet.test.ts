// Triage as a fleet runs it: a tree of CI job artifact folders (a bundle beside the installer's
// log and notes), split into shards by the Indexed Job manifest's own command line, merged back;
// merge input with wrong-typed or very many records.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { runTriage, shardOf } from '../../src/cli/triage-command.js';
import { UsageError } from '../../src/cli/exit-codes.js';
import { collectCases, inShard } from '../../src/triage/collect.js';
import { analyzeMany } from '../../src/triage/pool.js';
import { parseRecords, type TriageRecord } from '../../src/triage/record.js';
import { bundleFiles, packTar, ROOT, tempDir, writeTree } from '../support/fixture-bundle.js';

// The installer's own log as CI jobs keep it beside the bundle: bootstrapping timed out.
const INSTALL_LOG = [
  'time="2026-11-22T10:40:00Z" level=info msg="Waiting up to 20m0s (until 11:00AM) for the Kubernetes API at https://api.ocp4.example.com:6443..."',
  'time="2026-11-22T10:45:00Z" level=info msg="API v1.27.6+f67aeb3 up"',
  'time="2026-11-22T10:45:00Z" level=info msg="Waiting up to 30m0s (until 11:15AM) for bootstrapping to complete..."',
  'time="2026-11-22T11:15:00Z" level=error msg="Bootstrap failed to complete: timed out waiting for the condition"',
  'time="2026-11-22T11:15:00Z" level=error msg="Failed to wait for bootstrapping to complete. This error usually happens when there is a problem with control plane hosts that prevents the control plane operators from creating the control plane."',
  'time="2026-11-22T11:15:00Z" level=fatal msg="Bootstrap failed to complete"',
  '',
].join('\n');

const RELEASE_FAILURE = {
  [`${ROOT}/bootstrap/services/release-image.json`]:
    '[\n{"timestamp":"2026-11-22T10:00:00Z","phase":"service start"},\n{"timestamp":"2026-11-22T10:05:00Z","phase":"service end","result":"failure","errorMessage":"Error: reading manifest sha256:1 in quay.io/openshift-release-dev/ocp-release: unauthorized: authentication required"}\n]\n',
};

let tree: string;
let bundle: string;
let releaseBundle: string;

/** A tree of CI job artifacts, as a fleet's storage holds them. */
async function makeTree(): Promise<string> {
  const src = tempDir();
  writeTree(join(src, 'etcd'), ROOT, bundleFiles());
  bundle = await packTar(join(src, 'etcd'), ROOT, join(src, `${ROOT}.tar.gz`), true);
  releaseBundle = await packTar(writeTreeDir(join(src, 'rel'), RELEASE_FAILURE), ROOT, join(src, 'release.tar.gz'), true);
  const dir = tempDir('bootlens-fleet-');
  const art = (job: string): string => join(job, 'artifacts', 'e2e-aws', 'ipi-install');
  writeTree(dir, '', {
    'README.md': '# Failed installs of week 47\n\nEach job folder holds its artifacts.\n',
    [join(art('job-101'), `${ROOT}.tar.gz`)]: readFileSync(bundle),
    [join(art('job-101'), '.openshift_install.log')]: INSTALL_LOG,
    [join(art('job-101'), 'build-log.txt')]: 'Running step e2e-aws-ipi-install\nstep failed after 45m\n',
    [join(art('job-102'), `${ROOT}.tar.gz`)]: readFileSync(bundle),
    [join(art('job-102'), 'junit_install.xml')]: '<testsuite name="install"/>\n',
    [join('job-103', 'a.tar.gz')]: readFileSync(bundle),
    [join('job-103', 'b.tar.gz')]: readFileSync(releaseBundle),
    [join('job-103', 'notes.txt')]: 'two attempts\n',
    [join('job-104', 'gather-failed', '.openshift_install.log')]: INSTALL_LOG,
    [join('job-105', 'release', 'log-bundle.tar.gz')]: readFileSync(releaseBundle),
    [join('job-106', 'upload', 'log-bundle-cut.tar.gz')]: 'the upload was cut off',
  });
  return dir;
}

function writeTreeDir(dir: string, files: Record<string, string>): string {
  writeTree(dir, '', files);
  return dir;
}

let wholeRun: string;
let wholeCode: number;

beforeAll(async () => {
  tree = await makeTree();
  // One whole run of the tree, as a single machine would make it.
  wholeRun = tempDir('bootlens-whole-');
  wholeCode = await runTriage([tree], { format: 'json', output: join(wholeRun, 'whole.json'), jsonl: join(wholeRun, 'whole.jsonl'), jobs: '2', similarity: 'off' });
}, 60_000);

describe('case folders', () => {
  it('finds cases at any depth, names each by its folder, and reads no README, notes or build log as a bundle', async () => {
    const { cases, ignored } = await collectCases([tree]);
    expect(cases.map((c) => c.name)).toEqual([
      'job-101/artifacts/e2e-aws/ipi-install',
      'job-102/artifacts/e2e-aws/ipi-install',
      'job-103/a.tar.gz',
      'job-103/b.tar.gz',
      'job-104/gather-failed',
      'job-105/release',
      'job-106/upload',
    ]);
    expect(cases[0]).toMatchObject({ path: join(tree, 'job-101/artifacts/e2e-aws/ipi-install'), ignored: ['build-log.txt'] });
    expect(cases[1].ignored).toEqual(['junit_install.xml']);
    expect(ignored.sort()).toEqual(['README.md', 'job-103/notes.txt']);
  });

  it('analyzes the bundle with the installer log beside it, and lists the other files with the record', async () => {
    const jsonl = join(wholeRun, 'whole.jsonl');
    expect(wholeCode).toBe(1);
    const { records } = parseRecords(readFileSync(jsonl, 'utf8'), jsonl);
    const by = new Map(records.map((r) => [r.bundle, r]));
    const withLog = by.get('job-101/artifacts/e2e-aws/ipi-install')!;
    const without = by.get('job-102/artifacts/e2e-aws/ipi-install')!;
    // Same bundle; only the first folder has the installer's log, and its rule fired on it.
    expect(withLog.findings).toContain('installer-wait-failed');
    expect(without.findings).not.toContain('installer-wait-failed');
    expect(withLog.ignored).toEqual(['build-log.txt']);
    expect(by.get('job-104/gather-failed')).toMatchObject({ status: 'analyzed', verdict: { status: 'failed' } });
    expect(by.get('job-105/release')?.verdict).toMatchObject({ stage: 'release-image', category: 'registry-auth' });
    expect(by.get('job-106/upload')).toMatchObject({ status: 'unreadable' });
    expect(records).toHaveLength(7);
    expect(by.has('README.md')).toBe(false);
  });
});

/** The bootlens arguments of the manifest's command, for pod `index`, with its volumes moved. */
function manifestCommand(index: number, bundles: string, results: string): { args: string[]; count: number } {
  const job = yaml.load(readFileSync(join(process.cwd(), 'deploy/k8s/triage-indexed-job.yaml'), 'utf8')) as {
    kind: string;
    spec: { completionMode: string; completions: number; parallelism: number; template: { spec: { containers: { command?: string[]; args: string[]; env: { name: string }[] }[] } } };
  };
  expect(job.kind).toBe('Job');
  expect(job.spec.completionMode).toBe('Indexed');
  const c = job.spec.template.spec.containers[0];
  expect(c.env.map((e) => e.name)).toContain('JOB_COMPLETION_INDEX');
  const script = [...(c.command ?? []), ...c.args].join(' ');
  const n = job.spec.completions;
  expect(script).toContain(`--shard $(JOB_COMPLETION_INDEX)/${n}`);
  const line = /bootlens (triage [^;]+);/.exec(script)?.[1];
  expect(line).toBeDefined();
  const args = line!
    .replaceAll('$(JOB_COMPLETION_INDEX)', String(index))
    .replaceAll('/bundles', bundles)
    .replaceAll('/results', results)
    .split(/\s+/)
    .filter(Boolean);
  return { args, count: n };
}

/** Runs `triage` with the arguments as the CLI would read them (the options the manifest uses). */
async function triageCli(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  expect(command).toBe('triage');
  const paths: string[] = [];
  const opts: Record<string, string> = {};
  for (let i = 0; i < rest.length; i++) {
    if (rest[i].startsWith('--')) opts[rest[i].slice(2)] = rest[++i];
    else paths.push(rest[i]);
  }
  expect(Object.keys(opts).sort()).toEqual(['jobs', 'jsonl', 'output', 'shard']);
  return runTriage(paths, { format: 'text', jobs: opts.jobs, jsonl: opts.jsonl, output: opts.output, shard: opts.shard, similarity: 'off' });
}

describe('shards', () => {
  it("the Indexed Job manifest's shards, merged, equal one whole run", async () => {
    const results = tempDir('bootlens-shards-');
    const { count } = manifestCommand(0, tree, results);
    const shards: string[] = [];
    for (let i = 0; i < count; i++) {
      const { args } = manifestCommand(i, tree, results);
      expect(await triageCli(args)).toBeLessThanOrEqual(1);
      shards.push(join(results, `shard-${i}.jsonl`));
    }
    const whole = join(wholeRun, 'whole.jsonl');
    await runTriage(shards, { format: 'json', output: join(results, 'merged.json'), merge: true, similarity: 'off' });
    expect(readFileSync(join(results, 'merged.json'), 'utf8')).toBe(readFileSync(join(wholeRun, 'whole.json'), 'utf8'));
    // Every case in exactly one shard.
    const perShard = shards.map((f) => parseRecords(readFileSync(f, 'utf8'), f).records.map((r) => r.bundle));
    const all = perShard.flat().sort();
    expect(all).toEqual(parseRecords(readFileSync(whole, 'utf8'), whole).records.map((r) => r.bundle).sort());
    expect(new Set(all).size).toBe(all.length);
    expect(perShard.filter((s) => s.length > 0).length).toBeGreaterThan(1);
  }, 60_000);

  it('assigns a case by its name, wherever the tree is mounted', async () => {
    const names = (await collectCases([tree])).cases.map((c) => c.name);
    const assignment = (n: number): number[] => names.map((name) => [...Array(n).keys()].find((i) => inShard(name, i, n))!);
    expect(assignment(3)).toEqual(assignment(3));
    for (const name of names) expect([0, 1, 2].filter((i) => inShard(name, i, 3))).toHaveLength(1);
    expect(names.every((name) => inShard(name, 0, 1))).toBe(true);
  });

  it('--shard outside 0 <= i < n is a usage error', () => {
    expect(shardOf('2/3')).toEqual({ index: 2, count: 3 });
    for (const bad of ['3/3', '1/0', '-1/2', 'a/b', '1', '']) expect(() => shardOf(bad), bad).toThrow(UsageError);
  });
});

describe('merge input', () => {
  let good: TriageRecord[];

  beforeAll(async () => {
    good = await analyzeMany([bundle, releaseBundle], { jobs: 2, version: 'test' });
  });

  it('skips and counts records with a wrong-typed field, and keeps the rest', async () => {
    const dir = tempDir();
    const file = join(dir, 'shard.jsonl');
    const [a, b] = good.map((r) => JSON.parse(JSON.stringify(r)) as Record<string, unknown>);
    const lines = [
      JSON.stringify(a),
      JSON.stringify({ ...b, problems: 'many' }),
      JSON.stringify({ ...a, signature: { ...(a.signature as object), template: { nested: true } } }),
      JSON.stringify({ ...a, verdict: null }),
      JSON.stringify(b),
    ];
    writeFileSync(file, `${lines.join('\n')}\n`);
    const parsed = parseRecords(readFileSync(file, 'utf8'), file);
    expect(parsed.records).toHaveLength(2);
    expect(parsed.skipped).toBe(3);
    expect(parsed.errors.map((e) => e.split(': ')[0])).toEqual([`${file}:2`, `${file}:3`, `${file}:4`]);
    expect(parsed.errors.every((e) => e.includes('not a bootlens triage record'))).toBe(true);
    const out = join(dir, 'merged.json');
    expect(await runTriage([file], { format: 'json', output: out, merge: true, similarity: 'off' })).toBe(1);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toMatchObject({ total: 2, failed: 2 });
  });

  it('merges 130k records from one file', async () => {
    const dir = tempDir();
    const file = join(dir, 'big.jsonl');
    // 130k cases of the same failure, each its own bundle (records of one case count once).
    const line = (i: number): string => JSON.stringify({ ...good[0], bundle: `case-${i}`, path: `/bundles/case-${i}` });
    const bad = JSON.stringify({ ...good[0], gatheredAt: 'yesterday' });
    const n = 130_000;
    writeFileSync(file, `${Array.from({ length: n }, (_, i) => (i % 1000 === 999 ? bad : line(i))).join('\n')}\n`);
    const out = join(dir, 'merged.json');
    expect(await runTriage([file], { format: 'json', output: out, merge: true, similarity: 'off' })).toBe(1);
    const summary = JSON.parse(readFileSync(out, 'utf8')) as { total: number; groups: { count: number }[] };
    expect(summary.total).toBe(n - n / 1000);
    expect(summary.groups[0].count).toBe(n - n / 1000);
  }, 60_000);
});
