import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as tar from 'tar';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/cli/exit-codes.js';
import { formatKbCheck, kbCheckFailed, runKbAdd, runKbCheck } from '../../src/cli/kb-command.js';
import { REDACTED } from '../../src/redact/redact.js';
import { loadKnownIssueFile } from '../../src/similarity/knowledge-base.js';
import { templateOf } from '../../src/similarity/line-template.js';
import { bundleFiles, ROOT, tempDir, writeTree } from '../support/fixture-bundle.js';

const H = 'bootstrap.ocp4.example.com';
const TOKEN = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJib290bGVucy10ZXN0In0.c2lnbmF0dXJlLXZhbHVlLTEyMzQ1Njc4';

/** The fixture bundle, failing at wait-for-etcd, with a token in one of its etcd error lines. */
function failedBundle(): string {
  const files = bundleFiles();
  files['bootstrap/journals/bootkube.log'] += `Nov 22 11:15:30 ${H} bootkube.sh[2507]: Error: etcd health probe of https://localhost:2379 with header Authorization: Bearer ${TOKEN}: etcdserver: request timed out\n`;
  return writeTree(tempDir(), ROOT, files);
}

/** The fixture bundle of an install that went through: bootkube completed. */
function healthyBundle(): string {
  const files = bundleFiles();
  files['bootstrap/services/bootkube.json'] =
    '[\n{"timestamp":"2026-11-22T10:14:58Z","phase":"service start"},\n{"timestamp":"2026-11-22T10:50:00Z","phase":"service end","result":"success"}\n]\n';
  files['bootstrap/journals/bootkube.log'] = [
    `Nov 22 10:15:04 ${H} bootkube.sh[2507]: Waiting for etcd cluster...`,
    `Nov 22 10:16:04 ${H} bootkube.sh[2507]: Starting cluster-bootstrap...`,
    `Nov 22 10:50:00 ${H} bootkube.sh[2507]: bootkube.service complete`,
  ].join('\n');
  delete files['unit-status/bootkube.service.log'];
  delete files['unit-status/bootkube.service.txt'];
  return writeTree(tempDir(), ROOT, files);
}

const BASE = {
  id: 'bootstrap-etcd-never-healthy',
  title: 'The bootstrap etcd never becomes healthy',
  stage: 'bootstrap-etcd',
  category: 'etcd-health',
  fix: ['Read the etcd container log on the bootstrap host.'],
  references: ['https://github.com/openshift/installer/issues/5646'],
};

/** A catalogue file holding one known failure known by one line. */
function entryYaml(id: string, line: string): string {
  return `program: failures reported with bootlens kb add\nrepository: openshift/installer\nentries:\n  - id: ${id}\n    title: Entry ${id}\n    role: cause\n    stage: bootstrap-etcd\n    category: etcd-health\n    severity: error\n    fix:\n      - Fix it.\n    references:\n      - https://github.com/openshift/installer/issues/5646\n    seenWith:\n      - '${line.replace(/'/g, "''")}'\n`;
}

describe('kb add', () => {
  it('writes a valid entry from the lines that explain the verdict, root cause first, redacted', async () => {
    const out = tempDir();
    const { file, entry, yaml, sources } = await runKbAdd({ ...BASE, bundle: failedBundle(), out, lines: 6, rule: 'bootstrap-etcd-unhealthy' });
    expect(file).toBe(join(out, 'kb-bootstrap-etcd-never-healthy.yaml'));
    expect(readFileSync(file, 'utf8')).toBe(yaml);
    const loaded = loadKnownIssueFile(file);
    expect(loaded).toMatchObject({ id: BASE.id, stage: 'bootstrap-etcd', category: 'etcd-health', references: BASE.references });
    expect(yaml).toContain('(the rule bootstrap-etcd-unhealthy reports the same failure)');
    expect(loaded.lines).toEqual(entry.lines);
    expect(sources[0]).toBe('root-cause');
    expect(loaded.lines.length).toBeGreaterThanOrEqual(2);
    expect(loaded.lines.some((l) => l.includes('etcdctl failed. Retrying in 5 seconds...'))).toBe(true);
    // The token never reaches the file.
    expect(yaml).not.toContain(TOKEN);
    expect(loaded.lines.some((l) => l.includes(`Bearer ${REDACTED}`))).toBe(true);
  });

  it('refuses bad options and existing files', async () => {
    const out = tempDir();
    const bundle = failedBundle();
    await expect(runKbAdd({ ...BASE, bundle, out, stage: 'bootstrap' })).rejects.toThrow(UsageError);
    await expect(runKbAdd({ ...BASE, bundle, out, id: 'Not Kebab' })).rejects.toThrow(/--id 'Not Kebab'/);
    await expect(runKbAdd({ ...BASE, bundle, out, references: ['see the forum'] })).rejects.toThrow(/--reference/);
    writeFileSync(join(out, `kb-${BASE.id}.yaml`), 'old');
    await expect(runKbAdd({ ...BASE, bundle, out })).rejects.toThrow(/exists \(use --force/);
    await runKbAdd({ ...BASE, bundle, out, force: true });
    expect(readFileSync(join(out, `kb-${BASE.id}.yaml`), 'utf8')).toContain('etcdctl failed');
  });
});

/** The committed sample's bundle. */
function sample(name: string): string {
  const dir = join(process.cwd(), 'samples', name);
  return join(dir, readdirSync(dir).find((f) => f.endsWith('.tar.gz'))!);
}

/** The template of every line of every file of a bundle, read straight from its archive. */
async function templatesOfArchive(archive: string): Promise<Set<string>> {
  const out = new Set<string>();
  const pending: Promise<void>[] = [];
  await tar.t({
    file: archive,
    onReadEntry: (entry) => {
      const chunks: Buffer[] = [];
      entry.on('data', (c: Buffer) => chunks.push(c));
      pending.push(new Promise((resolve) => entry.on('end', () => {
        for (const line of Buffer.concat(chunks).toString('utf8').split('\n')) if (line) out.add(templateOf(line));
        resolve();
      })));
    },
  });
  await Promise.all(pending);
  return out;
}

describe('kb add on the samples', () => {
  const etcd = { ...BASE, id: 'bootstrap-etcd-slow-disk', title: 'The bootstrap etcd is too slow on its disk' };

  it("takes the etcd failure's own lines, the root cause's evidence first", async () => {
    const { entry, sources } = await runKbAdd({ ...etcd, bundle: sample('legacy-etcd-slow-disk'), out: tempDir(), lines: 4 });
    expect(sources[0]).toBe('root-cause');
    expect(entry.lines[0]).toMatch(/https:\/\/localhost:2379 is unhealthy: failed to commit proposal/);
    for (const l of entry.lines) expect(l).toMatch(/etcd|2379|fdatasync|took too long|heartbeat/);
  });

  it('never takes a line the healthy sample also logs, nor the noise an etcd failure shows beside it', async () => {
    const healthy = sample('healthy-vsphere-416');
    const { entry } = await runKbAdd({ ...etcd, bundle: sample('legacy-etcd-slow-disk'), out: tempDir(), lines: 4, healthy: [healthy] });
    const good = await templatesOfArchive(healthy);
    expect(entry.lines.length).toBeGreaterThanOrEqual(2);
    for (const l of entry.lines) {
      expect(good.has(templateOf(l)), l).toBe(false);
      expect(l).not.toMatch(/CNI|NetworkPluginNotReady|OpenAPI|503/);
      expect(l).toMatch(/etcd|fdatasync|took too long|heartbeat/);
    }
    // The healthy install also logs the bootstrap etcd's health checks failing while it starts.
    expect(good.has(templateOf('Jul 14 10:35:43 bootstrap.ocp47.lab.example.com bootkube.sh[2863]: etcdctl failed. Retrying in 5 seconds...'))).toBe(true);
  });
});

describe('kb check', () => {
  it('flags entries that match healthy bundles and reports entries that match no failed bundle', async () => {
    const kbDir = tempDir();
    // Noise: kubelets log this while the API is still coming up, also on good installs.
    writeFileSync(
      join(kbDir, 'kb-noisy-register-refused.yaml'),
      entryYaml('noisy-register-refused', 'E1122 10:15:20.001122    2519 kubelet_node_status.go:96] "Unable to register node with API server" err="Post \\"https://api-int.x.example.com:6443/api/v1/nodes\\": dial tcp 10.0.0.9:6443: connect: connection refused"'),
    );
    writeFileSync(join(kbDir, 'kb-etcdctl-loop.yaml'), entryYaml('etcdctl-loop', 'Feb 12 22:00:51 localhost bootkube.sh[501188]: etcdctl failed. Retrying in 5 seconds...'));
    writeFileSync(join(kbDir, 'kb-disk-full.yaml'), entryYaml('disk-full', 'Mar 24 14:20:41 localhost bootkube.sh[3604]: Error: writing blob: no space left on device'));
    const healthy = healthyBundle();
    const failed = failedBundle();
    const result = await runKbCheck({ healthy: [healthy], against: [failed], kbDir });
    expect(result.entries).toBe(3);
    expect(result.noisy.map((m) => [m.id, m.bundle])).toEqual([['noisy-register-refused', healthy]]);
    expect(result.noisy[0].lines[0].text).toContain('Unable to register node with API server');
    expect(result.matched.map((m) => m.id)).toEqual(['etcdctl-loop', 'noisy-register-refused']);
    expect(result.unmatched).toEqual(['disk-full']);
    expect(kbCheckFailed(result)).toBe(true);
    const text = formatKbCheck(result);
    expect(text).toContain('Entries matching healthy bundles');
    expect(text).toMatch(/noisy-register-refused {2}score \d\.\d\d {2}/);
    expect(text).toContain('Entries matching none of the failed bundles:\n  disk-full');
  });

  it('lists bundles it cannot read and goes on', async () => {
    const kbDir = tempDir();
    writeFileSync(join(kbDir, 'kb-disk-full.yaml'), entryYaml('disk-full', 'Mar 24 14:20:41 localhost bootkube.sh[3604]: Error: writing blob: no space left on device'));
    const notABundle = join(tempDir(), 'notes.txt');
    writeFileSync(notABundle, 'just some text\n');
    const result = await runKbCheck({ healthy: [notABundle, healthyBundle()], kbDir });
    expect(result.unreadable.map((u) => u.bundle)).toEqual([notABundle]);
    expect(result.noisy).toEqual([]);
    expect(kbCheckFailed(result)).toBe(false);
    expect(existsSync(notABundle)).toBe(true);
  });
});
