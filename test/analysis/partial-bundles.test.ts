// Bundles that reach support are often partial: the verdict must come from whatever exists.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeBundle } from '../../src/analysis/analyze.js';
import { loadRules } from '../../src/rules/load-rules.js';
import { bundleFiles, ROOT, tempDir, writeTree } from '../support/fixture-bundle.js';

const { rules } = loadRules();

function pick(filter: (path: string) => boolean): Record<string, string> {
  return Object.fromEntries(Object.entries(bundleFiles()).filter(([p]) => filter(p)));
}

describe('partial bundles', () => {
  it('only the bootstrap host: names the failed stage, and skips what needs the masters', async () => {
    const r = await analyzeBundle(writeTree(tempDir(), ROOT, pick((p) => p.startsWith('bootstrap/') || p === 'gather.log')), { rules, version: 't' });
    expect(r.verdict).toMatchObject({ status: 'failed', stage: 'bootstrap-etcd' });
    expect(r.stages.find((s) => s.id === 'masters-provision')?.status).not.toBe('ok');
    expect(r.rules.skipped.map((s) => s.ruleId)).toEqual(expect.arrayContaining(['csr-pending-nodes-missing', 'cluster-operator-conditions']));
  });

  it('masters but no cluster resources: the same verdict, resource rules skipped', async () => {
    const r = await analyzeBundle(writeTree(tempDir(), ROOT, pick((p) => !p.startsWith('resources/'))), { rules, version: 't' });
    expect(r.verdict).toMatchObject({ status: 'failed', stage: 'bootstrap-etcd' });
    expect(r.bundle.hosts).toHaveLength(4);
    expect(r.rules.skipped.find((s) => s.ruleId === 'csr-pending-nodes-missing')?.missing).toEqual(['resources csr']);
  });

  it('only the installer log: the wait that failed places the failure', async () => {
    const log = join(tempDir(), '.openshift_install.log');
    writeFileSync(
      log,
      [
        'time="2026-11-22T10:20:00Z" level=info msg="Waiting up to 20m0s (until 10:40AM UTC) for the Kubernetes API at https://api.ocp4.example.com:6443..."',
        'time="2026-11-22T10:40:00Z" level=error msg="Attempted to gather ClusterOperator status after installation failure: listing ClusterOperator objects: Get \\"https://api.ocp4.example.com:6443/apis/config.openshift.io/v1/clusteroperators\\": dial tcp 10.0.0.10:6443: connect: connection refused"',
        'time="2026-11-22T10:40:00Z" level=error msg="Bootstrap failed to complete: Get \\"https://api.ocp4.example.com:6443/version\\": dial tcp 10.0.0.10:6443: connect: connection refused"',
        'time="2026-11-22T10:40:00Z" level=error msg="Failed waiting for Kubernetes API. This error usually happens when there is a problem on the bootstrap host that prevents creating a temporary control plane."',
      ].join('\n') + '\n',
    );
    const r = await analyzeBundle(log, { rules, version: 't' });
    expect(r.bundle.format).toBe('file');
    expect(r.verdict.status).toBe('failed');
    expect(['bootstrap-control-plane', 'bootstrap-complete']).toContain(r.verdict.stage);
    expect(r.findings.map((f) => f.ruleId)).toContain('installer-wait-failed');
  });
});
