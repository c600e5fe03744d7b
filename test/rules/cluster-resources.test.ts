// Cluster resources the API gave the gather: MachineConfigPools and Machines, written as
// `oc get -o json` prints them, read by the real parsers and judged by their rules.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeBundle } from '../../src/analysis/analyze.js';
import { loadRules } from '../../src/rules/load-rules.js';
import { packTar, tempDir, writeTree } from '../support/fixture-bundle.js';

const ROOT = 'log-bundle-20210601120000';

async function analyzeResources(files: Record<string, unknown>) {
  const src = tempDir();
  writeTree(src, ROOT, Object.fromEntries(Object.entries(files).map(([k, v]) => [k, `${JSON.stringify(v, null, 2)}\n`])));
  const bundle = await packTar(src, ROOT, join(tempDir(), 'b.tar.gz'), true);
  return analyzeBundle(bundle, { rules: loadRules().rules, version: 'test' });
}

const list = (items: unknown[]): unknown => ({ apiVersion: 'v1', kind: 'List', metadata: { resourceVersion: '' }, items });

describe('machine config pools', () => {
  // okd-project/okd#893: the master pool degraded with no rendered configuration.
  const pools = list([
    {
      apiVersion: 'machineconfiguration.openshift.io/v1',
      kind: 'MachineConfigPool',
      metadata: { name: 'master' },
      status: {
        machineCount: 3,
        readyMachineCount: 0,
        degradedMachineCount: 3,
        conditions: [
          { type: 'Updated', status: 'False' },
          { type: 'RenderDegraded', status: 'True', reason: 'RenderDegraded', message: 'Failed to render configuration for pool master: machineconfig.machineconfiguration.openshift.io "99-okd-master-disable-mitigations" not found' },
          { type: 'Degraded', status: 'True' },
        ],
      },
    },
    { apiVersion: 'machineconfiguration.openshift.io/v1', kind: 'MachineConfigPool', metadata: { name: 'worker' }, status: { configuration: { name: 'rendered-worker-2ab0' }, machineCount: 0, conditions: [{ type: 'Degraded', status: 'False' }] } },
  ]);

  it('a degraded pool is a machine-config finding naming the pool and its message', async () => {
    const r = await analyzeResources({ 'resources/machineconfigpools.json': pools });
    const f = r.findings.find((x) => x.ruleId === 'machine-config-pool-degraded');
    expect(f).toMatchObject({ stage: 'cluster-operators', category: 'machine-config', captures: { pool: 'master' } });
    expect(f?.message).toContain('3 of 3 machines degraded, no rendered configuration');
    expect(r.findings.filter((x) => x.ruleId === 'machine-config-pool-degraded')).toHaveLength(1);
    expect(r.verdict).toMatchObject({ status: 'failed', stage: 'cluster-operators', category: 'machine-config' });
  });

  it('healthy pools say nothing', async () => {
    const healthy = list([{ apiVersion: 'machineconfiguration.openshift.io/v1', kind: 'MachineConfigPool', metadata: { name: 'master' }, status: { configuration: { name: 'rendered-master-1' }, machineCount: 3, degradedMachineCount: 0, conditions: [{ type: 'Degraded', status: 'False' }, { type: 'Updated', status: 'True' }] } }]);
    const r = await analyzeResources({ 'resources/machineconfigpools.json': healthy });
    expect(r.findings.filter((x) => x.ruleId === 'machine-config-pool-degraded')).toEqual([]);
  });
});

describe('machines', () => {
  const machine = (name: string, phase: string, extra: Record<string, unknown> = {}): unknown => ({
    apiVersion: 'machine.openshift.io/v1beta1',
    kind: 'Machine',
    metadata: { name, namespace: 'openshift-machine-api', labels: { 'machine.openshift.io/cluster-api-machine-role': name.includes('master') ? 'master' : 'worker' } },
    status: { phase, ...extra },
  });

  it('compute machines stuck in Provisioning are the workers stage; the recorded error names the category', async () => {
    const r = await analyzeResources({
      'resources/machines.json': list([
        machine('test1-xpjr5-master-0', 'Running'),
        machine('test1-xpjr5-worker-0-5z7mt', 'Provisioning'),
        machine('test1-xpjr5-worker-0-bm4cl', 'Failed', { errorReason: 'InvalidConfiguration', errorMessage: 'error launching instance: error creating EC2 instance: VcpuLimitExceeded: You have requested more vCPU capacity than your current vCPU limit of 32 allows' }),
      ]),
    });
    const f = r.findings.find((x) => x.ruleId === 'machines-not-running');
    expect(f).toMatchObject({ stage: 'workers', category: 'cloud-provider', captures: { role: 'worker' } });
    expect(f?.message).toMatch(/^2 of 2 worker machines are Provisioning\/Failed: error launching instance/);
    expect(r.findings.filter((x) => x.ruleId === 'machines-not-running')).toHaveLength(1);
  });

  it('running machines say nothing', async () => {
    const r = await analyzeResources({ 'resources/machines.json': list([machine('a-master-0', 'Running'), machine('a-worker-0-x', 'Running')]) });
    expect(r.findings.filter((x) => x.ruleId === 'machines-not-running')).toEqual([]);
  });
});
