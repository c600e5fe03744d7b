// Healed waits: an error a later success line resolves is no cause. One `Still waiting for the
// Kubernetes API ... connection refused`, then `API is up` 40 s later: the API stage is complete
// and the refused connection is not blamed for what comes after.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeBundle } from '../../src/analysis/analyze.js';
import { loadRules } from '../../src/rules/load-rules.js';
import { packTar, ROOT, tempDir, writeTree } from '../support/fixture-bundle.js';

const H = 'bootstrap.ocp4.example.com';
const WAIT = `Nov 22 10:20:04 ${H} bootkube.sh[2507]: Still waiting for the Kubernetes API: Get "https://localhost:6443/readyz": dial tcp [::1]:6443: connect: connection refused`;

async function analyze(lines: string[]) {
  const src = tempDir();
  writeTree(src, ROOT, { 'bootstrap/journals/bootkube.log': `${lines.join('\n')}\n` });
  return analyzeBundle(await packTar(src, ROOT, join(tempDir(), 'b.tar.gz'), true), { rules: loadRules().rules, version: 'test' });
}

describe('healed waits', () => {
  it('a refused API wait that the API coming up resolves is healed', async () => {
    const r = await analyze([
      `Nov 22 10:20:01 ${H} bootkube.sh[2507]: Starting cluster-bootstrap...`,
      WAIT,
      `Nov 22 10:20:44 ${H} bootkube.sh[2507]: API is up`,
      `Nov 22 10:20:45 ${H} bootkube.sh[2507]: Created "0000_00_cluster-version-operator_00_namespace.yaml" namespaces.v1./openshift-cluster-version -n `,
      `Nov 22 10:41:10 ${H} bootkube.sh[2507]: All self-hosted control plane components successfully started`,
      `Nov 22 10:41:12 ${H} bootkube.sh[2507]: bootkube.service complete`,
    ]);
    expect(r.stages.find((s) => s.id === 'bootstrap-control-plane')?.status).toBe('ok');
    expect(r.verdict.status).toBe('healthy');
  });

  it('while the wait never resolves, it is the cause', async () => {
    const r = await analyze([`Nov 22 10:20:01 ${H} bootkube.sh[2507]: Starting cluster-bootstrap...`, WAIT, WAIT.replace('10:20:04', '10:40:04')]);
    expect(r.verdict).toMatchObject({ status: 'failed', stage: 'bootstrap-control-plane' });
  });

  it('a healed wait is never the named cause of a later stage that did not complete', async () => {
    const r = await analyze([
      `Nov 22 10:20:01 ${H} bootkube.sh[2507]: Starting cluster-bootstrap...`,
      WAIT,
      `Nov 22 10:20:44 ${H} bootkube.sh[2507]: API is up`,
      `Nov 22 10:20:45 ${H} bootkube.sh[2507]: Created "0000_00_cluster-version-operator_00_namespace.yaml" namespaces.v1./openshift-cluster-version -n `,
    ]);
    expect(r.verdict).toMatchObject({ status: 'failed', stage: 'production-control-plane', rootCause: null });
  });
});
