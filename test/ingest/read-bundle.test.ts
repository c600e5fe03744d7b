import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readBundle } from '../../src/ingest/read-bundle.js';
import type { Bundle } from '../../src/model/types.js';
import { bundleFiles, GATHER_ID, MASTERS, packTar, packZip, ROOT, tempDir, writeTree } from '../support/fixture-bundle.js';

const T = (h: number, m: number, s: number): number => Date.UTC(2026, 10, 22, h, m, s);

let dir: string;
let folder: string;
const forms: Record<string, string> = {};

beforeAll(async () => {
  dir = tempDir();
  folder = writeTree(dir, ROOT, bundleFiles());
  forms.directory = folder;
  forms.tar = await packTar(dir, ROOT, join(dir, 'bundle.tar'), false);
  forms['tar.gz'] = await packTar(dir, ROOT, join(dir, 'bundle.tar.gz'), true);
  forms.zip = await packZip(dir, ROOT, join(dir, 'bundle.zip'));
});

/** Checks the model field by field: the same whatever form the bundle came in. */
function checkModel(b: Bundle): void {
  expect(b.meta.gatherId).toBe(GATHER_ID);
  expect(b.meta.referenceTime).toBe(T(11, 18, 0));
  expect(b.meta.layout.mastersMissing).toBe(false);
  expect(b.meta.layout.bootstrapInPlace).toBe(false);

  const boot = b.bootstrap;
  expect(boot?.role).toBe('bootstrap');
  expect(boot?.hostname).toBe('bootstrap.ocp4.example.com');

  // journals
  expect(Object.keys(boot?.journals ?? {}).sort()).toEqual(['bootkube', 'ironic', 'kubelet', 'release-image']);
  const bk = boot!.journals.bootkube;
  expect(bk.source.file).toBe(`${ROOT}/bootstrap/journals/bootkube.log`);
  expect(bk.lineCount).toBe(10);
  expect(bk.firstTime).toBe(T(10, 14, 58));
  expect(bk.lastTime).toBe(T(11, 16, 2));
  expect(bk.systemdLines.map((l) => l.line)).toEqual([1, 9, 10]);
  expect(bk.tail[4].continuation?.[0]).toContain('DeadlineExceeded');
  expect(boot!.journals.ironic.noEntries).toBe(true);
  expect(boot!.journals.kubelet.boots).toEqual([{ line: 1, id: '8b7c4d2e5f6a47b1a9c3d2e1f0a9b8c7' }]);
  expect(boot!.unitJournals.bootkube.lineCount).toBe(10);

  // service records
  const rec = boot!.serviceRecords.bootkube;
  expect(rec.runs).toHaveLength(1);
  expect(rec.runs[0].result).toBe('failure');
  const failed = rec.runs[0].stages.find((s) => s.result === 'failure');
  expect(failed?.name).toBe('wait-for-etcd');
  expect(failed?.errorMessage).toBe('etcdctl failed. Retrying in 5 seconds...');
  expect(failed?.source).toEqual({ file: `${ROOT}/bootstrap/services/bootkube.json`, line: 6 });
  expect(boot!.serviceRecords['release-image'].runs[0].result).toBe('success');

  // systemd
  expect(boot!.failedUnitsListed).toBe(true);
  expect(boot!.failedUnits.map((u) => [u.unit, u.active, u.sub])).toEqual([['bootkube.service', 'failed', 'failed']]);
  expect(boot!.unitStatus.bootkube.result).toBe('exit-code');
  expect(boot!.unitStatus.bootkube.journal.length).toBe(2);

  // network
  expect(boot!.network?.nameservers).toEqual(['10.0.0.1']);
  expect(boot!.network?.searchDomains).toEqual(['ocp4.example.com']);
  expect(boot!.network?.routes[0]).toMatchObject({ destination: 'default', via: '10.0.0.1', dev: 'ens3' });
  expect(boot!.network?.interfaces.find((i) => i.name === 'ens3')?.addresses[0]).toMatchObject({ family: 'inet', address: '10.0.0.4', prefix: 24 });

  // containers: crictl log and inspect joined by id; env from the runtime spec is not kept
  expect(boot!.containers).toHaveLength(1);
  const etcd = boot!.containers[0];
  expect(etcd).toMatchObject({ runtime: 'cri-o', name: 'etcd', state: 'exited', exitCode: 1, restartCount: 3, podNamespace: 'openshift-etcd' });
  expect(etcd.log?.lineCount).toBe(3);
  expect(etcd.log?.format).toBe('json');
  expect(etcd.log?.lastTime).toBe(T(10, 16, 0));
  expect(JSON.stringify(etcd)).not.toContain('ETCDCTL_API');

  // etcd member list
  expect(boot!.etcd?.memberLists[0].members.map((m) => [m.id, m.name])).toEqual([
    ['8e9e05c52164694d', 'etcd-bootstrap'],
    ['91bc3c398fb3c146', 'master-0.ocp4.example.com'],
  ]);

  // static pods from the rendered assets
  expect(boot!.staticPods).toHaveLength(1);
  expect(boot!.staticPods[0]).toMatchObject({ name: 'etcd-bootstrap-member', namespace: 'openshift-etcd', hostNetwork: true });
  expect(boot!.staticPods[0].hostPaths.map((h) => h.path)).toEqual(['/var/lib/etcd', '/etc/kubernetes/static-pod-resources/etcd-member']);
  expect(b.renderedAssets?.files.length).toBe(3);

  // masters
  expect(b.masters.map((m) => m.address)).toEqual(MASTERS);
  for (const [i, m] of b.masters.entries()) {
    expect(m.role).toBe('master');
    expect(m.hostname).toBe(`master-${i}.ocp4.example.com`);
    expect(Object.keys(m.journals).sort()).toEqual(['crio', 'kubelet', 'pivot']);
    expect(m.journals.kubelet.hostnames).toEqual([`master-${i}.ocp4.example.com`]);
    expect(m.journals.crio.lineCount).toBe(2);
    expect(m.failedUnitsListed).toBe(true);
    expect(m.failedUnits).toEqual([]);
  }

  // cluster resources
  const c = b.cluster!;
  expect(c.nodes?.map((n) => [n.name, n.ready, [...n.roles].sort()])).toEqual([
    ['master-0.ocp4.example.com', 'True', ['control-plane', 'master']],
    ['master-1.ocp4.example.com', 'False', ['control-plane', 'master']],
  ]);
  expect(c.csrs?.map((r) => [r.name, r.state])).toEqual([['csr-8vx2k', 'Pending']]);
  expect(c.clusterOperators?.[0].conditions.find((x) => x.type === 'Degraded')?.reason).toBe('EtcdMembers_UnhealthyMembers');
  expect(c.masterNames).toEqual(['master-0.ocp4.example.com', 'master-1.ocp4.example.com', 'master-2.ocp4.example.com']);
  expect(c.files.find((f) => f.name === 'clusterversion')?.status).toBe('empty');
  expect(c.clusterVersion).toBeUndefined();

  // gather log
  expect(b.gatherLog?.mastersAttempted).toEqual(MASTERS);
  expect(b.gatherLog?.noMasters).toBe(false);
}

describe('readBundle', () => {
  for (const form of ['directory', 'tar', 'tar.gz', 'zip']) {
    it(`reads a bootstrap host and three masters from a ${form}`, async () => {
      const b = await readBundle(forms[form]);
      expect(b.meta.format).toBe(form);
      checkModel(b);
      expect(b.problems).toEqual([]);
    });
  }

  it('reads the masters from nested per-master archives', async () => {
    const files = bundleFiles();
    const outer: Record<string, string | Buffer> = {};
    for (const [p, c] of Object.entries(files)) if (!p.startsWith('control-plane/')) outer[p] = c;
    for (const ip of MASTERS) {
      const inner = tempDir();
      const masterFiles: Record<string, string> = {};
      for (const [p, c] of Object.entries(files)) if (p.startsWith(`control-plane/${ip}/`)) masterFiles[p.slice(`control-plane/${ip}/`.length)] = c;
      writeTree(inner, ROOT, masterFiles);
      outer[`control-plane/${ip}/${ROOT}.tar.gz`] = readFileSync(await packTar(inner, ROOT, join(inner, 'm.tgz'), true));
    }
    const root = tempDir();
    writeTree(root, ROOT, outer);
    const b = await readBundle(await packTar(root, ROOT, join(root, 'nested.tar.gz'), true));
    checkModel(b);
    expect(b.meta.layout.nestedArchives).toHaveLength(3);
    expect(b.masters[0].journals.kubelet.source.file).toBe(`${ROOT}/control-plane/10.0.0.5/${ROOT}.tar.gz!/${ROOT}/journals/kubelet.log`);
  });

  it('reads the single-node (bootstrap-in-place) layout', async () => {
    const files: Record<string, string> = {};
    for (const [p, c] of Object.entries(bundleFiles())) {
      if (p.startsWith('bootstrap/')) files[`log-bundle-bootstrap/${p}`] = c;
      else if (p.startsWith('control-plane/10.0.0.5/')) files[p.replace('control-plane/10.0.0.5/', 'control-plane/master/')] = c;
    }
    const root = tempDir();
    const b = await readBundle(writeTree(root, ROOT, files));
    expect(b.meta.layout.bootstrapInPlace).toBe(true);
    expect(b.bootstrap?.serviceRecords.bootkube.runs[0].result).toBe('failure');
    expect(b.masters.map((m) => m.address)).toEqual(['master']);
  });

  it('reads a bundle whose masters could not be reached', async () => {
    const files: Record<string, string> = {};
    for (const [p, c] of Object.entries(bundleFiles())) if (!p.startsWith('control-plane/')) files[p] = c;
    files['gather.log'] = 'Gather remote logs\nCollecting info from 10.0.0.5\nssh: connect to host 10.0.0.5 port 22: Connection timed out\n';
    const root = tempDir();
    const b = await readBundle(writeTree(root, ROOT, files));
    expect(b.masters).toEqual([]);
    expect(b.meta.layout.mastersMissing).toBe(true);
    expect(b.gatherLog?.errors[0].text).toContain('Connection timed out');
  });

  it('keeps reading past damage and says what it could not read', async () => {
    const files: Record<string, string> = { ...bundleFiles() };
    files['bootstrap/services/bootkube.json'] = files['bootstrap/services/bootkube.json'].slice(0, 300);
    files['resources/nodes.json'] = 'The connection to the server localhost:6443 was refused - did you specify the right host or port?\n';
    const root = tempDir();
    const b = await readBundle(writeTree(root, ROOT, files));
    expect(b.problems.map((p) => [p.kind, p.file])).toEqual(
      expect.arrayContaining([['unparseable', `${ROOT}/bootstrap/services/bootkube.json`]]),
    );
    expect(b.bootstrap?.serviceRecords.bootkube.entries.length).toBeGreaterThan(0);
    expect(b.cluster?.files.find((f) => f.name === 'nodes')).toMatchObject({ status: 'error' });
    expect(b.cluster?.nodes).toBeUndefined();
    expect(b.bootstrap?.journals.bootkube.lineCount).toBe(10);
  });

  it('reads the installer log given beside the bundle', async () => {
    const log = join(dir, 'openshift_install.log');
    writeFileSync(
      log,
      [
        'time="2026-11-22T10:10:00Z" level=info msg="Waiting up to 20m0s (until 10:30AM UTC) for the Kubernetes API at https://api.ocp4.example.com:6443..."',
        'time="2026-11-22T11:10:00Z" level=error msg="Bootstrap failed to complete: timed out waiting for the condition"',
      ].join('\n') + '\n',
    );
    const b = await readBundle(forms['tar.gz'], { installLog: log });
    expect(b.installerLog?.lineCount).toBe(2);
    expect(b.installerLog?.waits[0]).toMatchObject({ timeout: '20m0s' });
    expect(b.installerLog?.bootstrapComplete).toBe(false);
    expect(b.installerLog?.failures.length).toBeGreaterThan(0);
  });

  it('returns a frozen model', async () => {
    const b = await readBundle(folder);
    expect(Object.isFrozen(b)).toBe(true);
    expect(Object.isFrozen(b.bootstrap?.journals.bootkube.tail)).toBe(true);
  });
});
