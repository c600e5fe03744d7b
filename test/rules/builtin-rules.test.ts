import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeBundle } from '../../src/analysis/analyze.js';
import { BUILTIN_RULES } from '../../src/rules/registry.js';
import type { Finding } from '../../src/rules/types.js';
import { bundleFiles, ROOT, tempDir, writeTree } from '../support/fixture-bundle.js';

const H = 'bootstrap.ocp4.example.com';

function writeLines(path: string, lines: string[]): void {
  writeFileSync(path, lines.join('\n') + '\n');
}

async function findings(files: Record<string, string>, ruleId: string, extra: { installLog?: string } = {}): Promise<Finding[]> {
  const result = await analyzeBundle(writeTree(tempDir(), ROOT, files), { rules: BUILTIN_RULES, version: 'test', ...extra });
  return result.findings.filter((f) => f.ruleId === ruleId);
}

function record(entries: object[]): string {
  return `[\n${entries.map((e) => JSON.stringify(e)).join(',\n')}\n]\n`;
}

describe('release-image-service-failed', () => {
  const failedRun = [
    { timestamp: '2026-11-22T10:00:00Z', phase: 'service start' },
    {
      timestamp: '2026-11-22T10:05:00Z',
      phase: 'service end',
      result: 'failure',
      errorLine: '27 main /usr/local/bin/release-image-download.sh',
      errorMessage: 'Pulling quay.io/openshift-release-dev/ocp-release@sha256:1111...\nError: initializing source docker://quay.io/openshift-release-dev/ocp-release@sha256:1111: reading manifest sha256:1111 in quay.io/openshift-release-dev/ocp-release: unauthorized: authentication required',
    },
  ];
  it('fires on a failed last run and reads the cause from the recorded error', async () => {
    const [f] = await findings({ 'bootstrap/services/release-image.json': record(failedRun) }, 'release-image-service-failed');
    expect(f).toMatchObject({ stage: 'release-image', category: 'registry-auth', severity: 'critical', confidence: 'high' });
    expect(f.evidence[f.evidence.length - 1].text).toContain('unauthorized: authentication required');
    expect(f.evidence[0]).toMatchObject({ file: `${ROOT}/bootstrap/services/release-image.json`, line: 3 });
  });
  it('stays quiet when a restart succeeded (judged by the last run)', async () => {
    const healed = [...failedRun, { timestamp: '2026-11-22T10:06:00Z', phase: 'service start' }, { timestamp: '2026-11-22T10:09:00Z', phase: 'service end', result: 'success' }];
    expect(await findings({ 'bootstrap/services/release-image.json': record(healed) }, 'release-image-service-failed')).toEqual([]);
  });
});

describe('bootkube-stage-failed', () => {
  it('maps the recorded stage onto the taxonomy and classifies its error', async () => {
    const [f] = await findings(bundleFiles(), 'bootkube-stage-failed');
    expect(f).toMatchObject({ stage: 'bootstrap-etcd', category: 'etcd-health', captures: { stage: 'wait-for-etcd' } });
  });
  it('stays quiet after a successful run', async () => {
    const ok = record([
      { timestamp: '2026-11-22T10:00:00Z', phase: 'service start' },
      { timestamp: '2026-11-22T10:50:00Z', phase: 'service end', result: 'success' },
    ]);
    expect(await findings({ 'bootstrap/services/bootkube.json': ok }, 'bootkube-stage-failed')).toEqual([]);
  });
});

describe('certificate-validity', () => {
  const kubelet = (lines: string[]): Record<string, string> => ({ 'control-plane/10.0.0.5/journals/kubelet.log': lines.join('\n') + '\n' });
  it('reports an expired certificate when the host clock agrees with the log time', async () => {
    const [f] = await findings(
      kubelet([
        `Nov 22 10:20:00 master-0 kubelet.sh[2519]: E1122 10:20:00.000000    2519 bootstrap.go:266] part of the existing bootstrap client certificate in /etc/kubernetes/kubeconfig is expired: 2026-11-21 09:00:00 +0000 UTC`,
        `Nov 22 10:20:01 master-0 kubelet.sh[2519]: E1122 10:20:01.000000    2519 reflector.go:138] failed to list: Get "https://api-int.ocp4.example.com:6443/api/v1/nodes": x509: certificate has expired or is not yet valid: current time 2026-11-22T10:20:01Z is after 2026-11-21T09:00:00Z`,
      ]),
      'certificate-validity',
    );
    expect(f).toMatchObject({ category: 'certificate-expired', stage: 'masters-provision' });
    expect(f.evidence[0]).toMatchObject({ line: 2, host: '10.0.0.5' });
  });
  it('calls it clock skew when the process clock is far from the journal time', async () => {
    const [f] = await findings(
      kubelet([
        `Nov 22 10:20:01 master-0 kubelet.sh[2519]: E1122 10:20:01.000000    2519 reflector.go:138] x509: certificate has expired or is not yet valid: current time 2026-11-20T03:00:00Z is before 2026-11-22T09:55:00Z`,
      ]),
      'certificate-validity',
    );
    expect(f).toMatchObject({ category: 'clock-skew' });
  });
  it('ignores other x509 errors (the same words in a different failure)', async () => {
    const out = await findings(
      kubelet([`Nov 22 10:20:01 master-0 crio[1490]: time="2026-11-22 10:20:01Z" level=error msg="pull failed: x509: certificate signed by unknown authority"`]),
      'certificate-validity',
    );
    expect(out).toEqual([]);
  });
  it('compares rendered certificates with the bootstrap host clock', async () => {
    const dir = tempDir('bootlens-cert-');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=system:machine-config-server', '-keyout', join(dir, 'k.pem'), '-out', join(dir, 'c.pem')], { stdio: 'ignore' });
    const pem = readFileSync(join(dir, 'c.pem'), 'utf8');
    const now = new Date();
    const later = new Date(now.getTime() + 3 * 86_400_000);
    const stamp = (d: Date): string => `${d.toLocaleString('en-US', { month: 'short', timeZone: 'UTC' })} ${String(d.getUTCDate()).padStart(2, ' ')} ${d.toISOString().slice(11, 19)}`;
    const files = {
      'rendered-assets/openshift/tls/machine-config-server.crt': pem,
      'bootstrap/journals/kubelet.log': `${stamp(now)} ${H} kubelet.sh[1]: start\n${stamp(later)} ${H} kubelet.sh[1]: still running\n`,
    };
    const [f] = await analyzeBundle(writeTree(tempDir(), `log-bundle-${later.toISOString().replace(/\D/g, '').slice(0, 14)}`, files), { rules: BUILTIN_RULES, version: 't' }).then((r) =>
      r.findings.filter((x) => x.ruleId === 'certificate-validity'),
    );
    expect(f).toMatchObject({ category: 'certificate-expired', stage: 'masters-provision' });
    expect(f.message).toContain('system:machine-config-server');
  });
});

describe('etcd-quorum', () => {
  const members = `+------------------+---------+----------+--------------------------+--------------------------+------------+
|        ID        | STATUS  |   NAME   |        PEER ADDRS        |       CLIENT ADDRS       | IS LEARNER |
+------------------+---------+----------+--------------------------+--------------------------+------------+
| 2fc0c0e0a1b2c3d4 | started | master-0 | https://10.0.0.5:2380    | https://10.0.0.5:2379    |      false |
| 3fc0c0e0a1b2c3d4 | started | master-1 | https://10.0.0.6:2380    | https://10.0.0.6:2379    |      false |
| 4fc0c0e0a1b2c3d4 | started | master-2 | https://10.0.0.7:2380    | https://10.0.0.7:2379    |      false |
+------------------+---------+----------+--------------------------+--------------------------+------------+
`;
  const health = (bad: number): string =>
    ['10.0.0.5', '10.0.0.6', '10.0.0.7']
      .map((ip, i) => (i < bad ? `https://${ip}:2379 is unhealthy: failed to commit proposal: context deadline exceeded` : `https://${ip}:2379 is healthy: successfully committed proposal: took = 9.81ms`))
      .join('\n') + '\n';
  it('fires critical when fewer than a quorum of members are healthy', async () => {
    const [f] = await findings({ 'control-plane/10.0.0.5/etcd-member-list.txt': members, 'control-plane/10.0.0.5/etcd-endpoint-health.txt': health(2) }, 'etcd-quorum');
    expect(f).toMatchObject({ severity: 'critical', category: 'etcd-health', stage: 'etcd-scaling' });
    expect(f.message).toContain('Only 1 of 3 etcd members are healthy; quorum needs 2');
  });
  it('only warns when one member of three is down (quorum kept)', async () => {
    const [f] = await findings({ 'control-plane/10.0.0.5/etcd-member-list.txt': members, 'control-plane/10.0.0.5/etcd-endpoint-health.txt': health(1) }, 'etcd-quorum');
    expect(f).toMatchObject({ severity: 'warning' });
  });
  it('stays quiet when every member is healthy', async () => {
    expect(await findings({ 'control-plane/10.0.0.5/etcd-member-list.txt': members, 'control-plane/10.0.0.5/etcd-endpoint-health.txt': health(0) }, 'etcd-quorum')).toEqual([]);
  });
});

describe('csr-pending-nodes-missing', () => {
  it('fires when CSRs are pending and masters are missing', async () => {
    const [f] = await findings(bundleFiles(), 'csr-pending-nodes-missing');
    expect(f).toMatchObject({ category: 'csr-pending', stage: 'masters-provision' });
  });
  it('stays quiet when the pending CSR is stale but every master is Ready', async () => {
    const files = bundleFiles();
    const nodes = JSON.parse(files['resources/nodes.json']);
    const third = JSON.parse(JSON.stringify(nodes.items[0]));
    third.metadata.name = 'master-2.ocp4.example.com';
    nodes.items.push(third);
    for (const n of nodes.items) n.status.conditions[0].status = 'True';
    files['resources/nodes.json'] = JSON.stringify(nodes);
    expect(await findings(files, 'csr-pending-nodes-missing')).toEqual([]);
  });
});

describe('release-digest-mismatch', () => {
  const a = 'a'.repeat(64);
  const b = 'b'.repeat(64);
  const files = (masterDigest: string): Record<string, string> => ({
    'bootstrap/journals/release-image.log': `Nov 22 10:13:50 ${H} release-image-download.sh[1980]: Pulling quay.io/openshift-release-dev/ocp-release@sha256:${a}...\n`,
    'control-plane/10.0.0.5/journals/machine-config-daemon-host.log': `Nov 22 10:30:00 master-0 machine-config-daemon[2201]: I1122 10:30:00.000000 2201 rpm-ostree.go:1] Pulling release image quay.io/openshift-release-dev/ocp-release@sha256:${masterDigest}\n`,
  });
  it('fires when a master references another release digest', async () => {
    const [f] = await findings(files(b), 'release-digest-mismatch');
    expect(f.message).toContain('sha256:aaaaaaaaaaaa');
    expect(f.message).toContain('10.0.0.5');
    expect(f.evidence).toHaveLength(2);
  });
  it('stays quiet when the digests agree', async () => {
    expect(await findings(files(a), 'release-digest-mismatch')).toEqual([]);
  });
});

describe('cluster-operator-conditions', () => {
  it('reports a degraded operator with the category its name implies', async () => {
    const [f] = await findings(bundleFiles(), 'cluster-operator-conditions');
    expect(f).toMatchObject({ category: 'etcd-health', stage: 'etcd-scaling', title: 'Cluster operator etcd is Degraded=True' });
  });
  it('reads conditions from the installer log when resources are missing, last report wins', async () => {
    const log = join(tempDir(), '.openshift_install.log');
    const lines = [
      'time="2026-11-22T11:00:00Z" level=error msg="Cluster operator network Degraded is True with RolloutHung: DaemonSet \\"/openshift-ovn-kubernetes/ovnkube-node\\" rollout is not making progress"',
      'time="2026-11-22T11:00:00Z" level=info msg="Cluster operator dns Available is False with DNSUnavailable: DNS \\"default\\" is unavailable."',
      'time="2026-11-22T11:05:00Z" level=info msg="Cluster operator dns Available is True with AsExpected: All is well"',
    ];
    writeLines(log, lines);
    const out = await findings({ 'gather.log': 'x\n' }, 'cluster-operator-conditions', { installLog: log });
    expect(out.map((f) => [f.captures.operator, f.category])).toEqual([['network', 'network-plugin']]);
  });
});

describe('installer-wait-failed', () => {
  it('places a failed wait for the Kubernetes API at the bootstrap control plane', async () => {
    const log = join(tempDir(), 'openshift_install.log');
    writeLines(log, ['time="2026-11-22T10:40:00Z" level=error msg="failed waiting for Kubernetes API: Get \\"https://api.ocp4.example.com:6443/version\\": dial tcp 10.0.0.10:6443: i/o timeout"']);
    const [f] = await findings({ 'gather.log': 'x\n' }, 'installer-wait-failed', { installLog: log });
    expect(f).toMatchObject({ stage: 'bootstrap-control-plane', category: 'network-connectivity' });
  });
  it('stays quiet when the install completed despite an earlier wait message', async () => {
    const log = join(tempDir(), 'openshift_install.log');
    writeLines(log, ['time="2026-11-22T10:40:00Z" level=info msg="Waiting up to 40m0s (until 11:20AM UTC) for the cluster at https://api.ocp4.example.com:6443 to initialize..."', 'time="2026-11-22T11:02:00Z" level=info msg="Install complete!"']);
    expect(await findings({ 'gather.log': 'x\n' }, 'installer-wait-failed', { installLog: log })).toEqual([]);
  });
});

describe('masters-unreachable', () => {
  it('fires when SSH to the masters failed and no master part was gathered', async () => {
    const [f] = await findings({ 'gather.log': 'Gather remote logs\nCollecting info from 10.0.0.5\nssh: connect to host 10.0.0.5 port 22: Connection timed out\n' }, 'masters-unreachable');
    expect(f.message).toContain('10.0.0.5');
  });
  it('stays quiet when the masters were gathered', async () => {
    expect(await findings(bundleFiles(), 'masters-unreachable')).toEqual([]);
  });
});
