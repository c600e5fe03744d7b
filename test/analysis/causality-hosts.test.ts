// Causality across hosts: a cause on a master (its etcd cannot reach its peers on 2380) explains
// the symptom on the bootstrap host (cluster-bootstrap times out waiting for the pods); the
// stages agree with each other and with the headline; evidence shows the part of a long line
// the finding is about, once, with how often it occurred.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeBundle } from '../../src/analysis/analyze.js';
import { loadRules } from '../../src/rules/load-rules.js';
import { packTar, ROOT, tempDir, writeTree } from '../support/fixture-bundle.js';

const B = 'bootstrap.ocp4.example.com';
const MASTERS = ['10.0.0.5', '10.0.0.6', '10.0.0.7'];
const ID = 'c0ffee00112233445566778899aabbccddeeff00112233445566778899aabbcc';

function bootkube(): string {
  return [
    `Nov 22 10:14:58 ${B} systemd[1]: Started Bootstrap a Kubernetes cluster.`,
    `Nov 22 10:15:04 ${B} bootkube.sh[2507]: Starting etcd...`,
    `Nov 22 10:15:30 ${B} bootkube.sh[2507]: https://localhost:2379 is healthy: successfully committed proposal: took = 9.2ms`,
    `Nov 22 10:15:31 ${B} bootkube.sh[2507]: Starting cluster-bootstrap...`,
    `Nov 22 10:15:40 ${B} bootkube.sh[2507]: Starting temporary bootstrap control plane...`,
    `Nov 22 10:15:40 ${B} bootkube.sh[2507]: Waiting up to 20m0s for the Kubernetes API`,
    `Nov 22 10:17:02 ${B} bootkube.sh[2507]: API is up`,
    `Nov 22 10:17:03 ${B} bootkube.sh[2507]: Created "0000_00_cluster-version-operator_00_namespace.yaml" namespaces.v1./openshift-cluster-version -n `,
    `Nov 22 10:25:00 ${B} bootkube.sh[2507]: \tPod Status:openshift-kube-apiserver/kube-apiserver\tPending`,
    `Nov 22 10:25:00 ${B} bootkube.sh[2507]: \tPod Status:openshift-kube-scheduler/openshift-kube-scheduler\tReady`,
    `Nov 22 10:37:03 ${B} bootkube.sh[2507]: Error: error while checking pod status: timed out waiting for the condition`,
    `Nov 22 10:37:03 ${B} bootkube.sh[2507]: Tearing down temporary bootstrap control plane...`,
    `Nov 22 10:37:04 ${B} bootkube.sh[2507]: Error: error while checking pod status: timed out waiting for the condition`,
    `Nov 22 10:37:04 ${B} systemd[1]: bootkube.service: Main process exited, code=exited, status=1/FAILURE`,
    `Nov 22 10:37:04 ${B} systemd[1]: bootkube.service: Failed with result 'exit-code'.`,
  ].join('\n') + '\n';
}

function records(): string {
  return JSON.stringify([
    { timestamp: '2026-11-22T10:14:58Z', phase: 'service start' },
    { timestamp: '2026-11-22T10:15:04Z', phase: 'stage start', stage: 'wait-for-etcd' },
    { timestamp: '2026-11-22T10:15:30Z', phase: 'stage end', stage: 'wait-for-etcd', result: 'success' },
    { timestamp: '2026-11-22T10:15:31Z', phase: 'stage start', stage: 'cb-bootstrap' },
    { timestamp: '2026-11-22T10:37:04Z', phase: 'stage end', stage: 'cb-bootstrap', result: 'failure', errorLine: '437 main /usr/local/bin/bootkube.sh', errorMessage: '' },
    { timestamp: '2026-11-22T10:37:04Z', phase: 'service end', result: 'failure' },
  ], null, 1);
}

/** etcd's JSON log on a master: it joined, then its peers stayed unreachable on 2380. */
function mastersEtcd(self: string, padding: number): string {
  const peer = MASTERS.find((m) => m !== self) as string;
  const lines = [`{"level":"info","ts":"2026-11-22T10:20:01.100Z","caller":"etcdserver/server.go:1460","msg":"added member","cluster-id":"9e6395fd2b7a1c5f","local-member-id":"574495eef1b06886","added-peer-id":"f73dbd56eea24556","added-peer-peer-urls":["https://${peer}:2380"]}`];
  for (let i = 0; i < 12; i++) {
    const ts = `2026-11-22T10:${String(21 + i).padStart(2, '0')}:13.288010Z`;
    // Lengthened with a list field to make the 2,000-character line of the issue.
    const extra = padding > 0 ? `,"remote-peer-urls":[${Array.from({ length: padding }, (_, k) => `"https://${peer}:${2380 + k}"`).join(',')}]` : '';
    lines.push(`{"level":"warn","ts":"${ts}","caller":"rafthttp/probing_status.go:68","msg":"prober detected unhealthy status","round-tripper-name":"ROUND_TRIPPER_RAFT_MESSAGE","remote-peer-id":"f73dbd56eea24556"${extra},"rtt":"0s","error":"dial tcp ${peer}:2380: i/o timeout"}`);
  }
  return lines.join('\n') + '\n';
}

async function bundle(padding = 0) {
  const files: Record<string, string> = {
    'bootstrap/journals/bootkube.log': bootkube(),
    'unit-status/bootkube.service.log': bootkube(),
    'bootstrap/services/bootkube.json': records(),
  };
  for (const ip of MASTERS) {
    files[`control-plane/${ip}/containers/etcd-${ID}.log`] = mastersEtcd(ip, padding);
    files[`control-plane/${ip}/journals/kubelet.log`] = `Nov 22 10:19:00 master-${MASTERS.indexOf(ip)} systemd[1]: Started Kubernetes Kubelet.\n`;
  }
  const src = tempDir();
  writeTree(src, ROOT, files);
  return analyzeBundle(await packTar(src, ROOT, join(tempDir(), 'b.tar.gz'), true), { rules: loadRules().rules, version: 'test' });
}

describe('a cause on a master, symptoms on the bootstrap host', () => {
  it('the masters\' etcd failing its peers explains cluster-bootstrap timing out on the bootstrap host', async () => {
    const r = await bundle();
    expect(r.verdict).toMatchObject({ status: 'failed', stage: 'production-control-plane', category: 'network-connectivity', rootCause: 'etcd-peer-unreachable' });
    // The headline, the stage table and the JSON say the same thing.
    expect(r.verdict.summary).toContain('failed at stage production-control-plane');
    const status = Object.fromEntries(r.stages.map((s) => [s.id, s.status]));
    expect(status).toMatchObject({ 'bootstrap-control-plane': 'ok', 'masters-provision': 'ok', 'production-control-plane': 'failed' });
    // A stage a serious finding speaks of was reached.
    expect(status['etcd-scaling']).toBe('in-progress');
    expect(r.stages.find((s) => s.id === 'masters-provision')?.decidedBy).toBe("masters' containers");
  });

  it('cluster-bootstrap failing after the API answered is production-control-plane\'s failure, not the bootstrap API\'s', async () => {
    const r = await bundle();
    for (const id of ['bootkube-stage-failed', 'cb-required-pods-timeout']) expect(r.findings.find((f) => f.ruleId === id)?.stage).toBe('production-control-plane');
    expect(r.findings.some((f) => f.stage === 'bootstrap-control-plane')).toBe(false);
  });

  it('counts attempts on every master, cites each message once with how often it occurred, and no line twice', async () => {
    const r = await bundle();
    const peers = r.findings.find((f) => f.ruleId === 'etcd-peer-unreachable');
    expect(peers?.message).toContain('(36 probes');
    expect(peers?.evidence.map((e) => [e.file.split('/')[2], e.repeats])).toEqual(MASTERS.map((ip) => [ip, 12]));
    for (const f of r.findings) {
      const keys = f.evidence.map((e) => `${e.host}|${e.time}|${e.text}`);
      expect(new Set(keys).size, f.ruleId).toBe(keys.length);
    }
    // bootkube.log and its copy under unit-status/ hold the same two error lines: one citation, twice.
    const cb = r.findings.find((f) => f.ruleId === 'cb-required-pods-timeout');
    const errors = cb?.evidence.filter((e) => e.text.includes('error while checking pod status')) ?? [];
    expect(errors).toHaveLength(1);
    expect(errors[0].repeats).toBe(2);
  });

  it('a 2,000-character etcd line keeps its whole text and says where its error is', async () => {
    const r = await bundle(75);
    const e = r.findings.find((f) => f.ruleId === 'etcd-peer-unreachable')?.evidence[0];
    expect(e?.text.length).toBeGreaterThan(2000);
    expect(e?.match).toBeDefined();
    const { start, end } = e?.match ?? { start: 0, end: 0 };
    expect(e?.text.slice(start, end)).toBe('i/o timeout');
    expect(start).toBeGreaterThan(1900);
  });
});

describe('a 4.3-style etcd wait: bootkube checks the masters\' members', () => {
  // 4.1-4.3: wait_for_etcd_cluster asked etcd-0/1/2 on the masters, every 5 s, three endpoints a try.
  function etcdWait(tries: number): string {
    const lines = [`Jan 10 08:00:00 ${B} bootkube.sh[1614]: Waiting for etcd cluster...`];
    for (let i = 0; i < tries; i++) {
      const at = new Date(Date.UTC(2020, 0, 10, 8, 0, 5 + i * 6)).toISOString().slice(11, 19);
      for (const n of [0, 1, 2]) lines.push(`Jan 10 ${at} ${B} bootkube.sh[1614]: https://etcd-${n}.ocp4.example.com:2379 is unhealthy: failed to connect: dial tcp 10.0.0.${5 + n}:2379: connect: connection refused`);
      lines.push(`Jan 10 ${at} ${B} bootkube.sh[1614]: Error: unhealthy cluster`);
      lines.push(`Jan 10 ${at} ${B} bootkube.sh[1614]: etcdctl failed. Retrying in 5 seconds...`);
    }
    return lines.join('\n') + '\n';
  }

  it('speaks of the masters\' etcd, counts tries not lines, and sends the user to the masters', async () => {
    const src = tempDir();
    writeTree(src, 'log-bundle-20200110090000', { 'bootstrap/journals/bootkube.log': etcdWait(200) });
    const r = await analyzeBundle(await packTar(src, 'log-bundle-20200110090000', join(tempDir(), 'b.tar.gz'), true), { rules: loadRules().rules, version: 'test' });
    expect(r.verdict).toMatchObject({ status: 'failed', stage: 'bootstrap-etcd', category: 'etcd-health', rootCause: 'masters-etcd-unhealthy' });
    expect(r.findings.some((f) => f.ruleId === 'bootstrap-etcd-unhealthy')).toBe(false);
    const f = r.findings.find((x) => x.ruleId === 'masters-etcd-unhealthy');
    expect(f?.message).toContain("the masters' etcd members");
    expect(f?.message).toContain('(200 failed checks)');
    expect(f?.fix[0]).toContain('etcd-member');
    // Each endpoint's line once, with its 200 repeats; not 1,000 lines.
    expect(f?.evidence.filter((e) => e.text.includes('etcd-0.')).map((e) => e.repeats)).toEqual([200]);
  });
});
