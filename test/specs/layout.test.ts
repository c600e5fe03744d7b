import { describe, expect, it } from 'vitest';
import { classifyPath, logRefOf, pathOf } from '../../src/specs/layout.js';
import { sourceHost, sourceKey, type SourceId } from '../../src/model/source-id.js';

const B = 'log-bundle-20261122111800';

describe('classifyPath', () => {
  it('maps the bootstrap host files of installer-gather.sh', () => {
    const { row, ...classified } = classifyPath(`${B}/bootstrap/journals/bootkube.log`);
    expect(row?.id).toBe('journal');
    expect(classified).toEqual({
      bootstrapInPlace: false,
      gatherId: '20261122111800',
      spec: { kind: 'journal', host: { role: 'bootstrap' }, unit: 'bootkube' },
      logicalPath: 'bootstrap/journals/bootkube.log',
    });
    // The same file one level deeper in a single node's bootstrap-phase gather has the same logical path.
    expect(classifyPath(`${B}/log-bundle-bootstrap/bootstrap/journals/bootkube.log`)).toMatchObject({ bootstrapInPlace: true, logicalPath: 'bootstrap/journals/bootkube.log' });
    expect(classifyPath(`${B}/bootstrap/services/release-image.json`).spec).toEqual({ kind: 'service-record', host: { role: 'bootstrap' }, service: 'release-image' });
    expect(classifyPath(`${B}/bootstrap/network/ip-addr.txt`).spec).toEqual({ kind: 'network', host: { role: 'bootstrap' }, file: 'ip-addr' });
    expect(classifyPath(`${B}/failed-units.txt`).spec).toEqual({ kind: 'failed-units', host: { role: 'bootstrap' } });
    expect(classifyPath(`${B}/unit-status/bootkube.service.txt`).spec).toEqual({ kind: 'unit-status', host: { role: 'bootstrap' }, unit: 'bootkube' });
    expect(classifyPath(`${B}/unit-status/bootkube.service.log`).spec).toEqual({ kind: 'unit-status-journal', host: { role: 'bootstrap' }, unit: 'bootkube' });
    expect(classifyPath(`${B}/gather.log`).spec).toEqual({ kind: 'gather-log' });
  });

  it('splits crictl file names into container name and id, and knows podman ids', () => {
    const id = 'a3f0c2d4e5b6a7980112233445566778899aabbccddeeff00112233445566778';
    expect(classifyPath(`${B}/bootstrap/containers/kube-apiserver-insecure-readyz-${id}.log`).spec).toEqual({
      kind: 'container-log',
      host: { role: 'bootstrap' },
      runtime: 'cri-o',
      name: 'kube-apiserver-insecure-readyz',
      id,
    });
    expect(classifyPath(`${B}/bootstrap/pods/0123456789ab.inspect`).spec).toEqual({ kind: 'container-inspect', host: { role: 'bootstrap' }, runtime: 'podman', id: '0123456789ab' });
    expect(classifyPath(`${B}/bootstrap/containers/bootstrap-control-plane/kube-apiserver.log`).spec).toEqual({ kind: 'control-plane-log', host: { role: 'bootstrap' } });
  });

  it('maps master folders, by address or by the single node literal name', () => {
    expect(classifyPath(`${B}/control-plane/10.0.0.5/journals/kubelet.log`).spec).toEqual({ kind: 'journal', host: { role: 'master', address: '10.0.0.5' }, unit: 'kubelet' });
    expect(classifyPath(`${B}/control-plane/fd00::5/failed-units.txt`).spec).toEqual({ kind: 'failed-units', host: { role: 'master', address: 'fd00::5' } });
    expect(classifyPath(`${B}/control-plane/master/journals/crio.log`).spec).toEqual({ kind: 'journal', host: { role: 'master', address: 'master' }, unit: 'crio' });
  });

  it('reads through nested per-master archives (archive name folded away)', () => {
    expect(classifyPath(`${B}/control-plane/10.0.0.6/${B}/journals/kubelet.log`).spec).toEqual({ kind: 'journal', host: { role: 'master', address: '10.0.0.6' }, unit: 'kubelet' });
    expect(classifyPath(`${B}/control-plane/10.0.0.6/artifacts-20261122111800/network/resolv.conf`).spec).toEqual({ kind: 'network', host: { role: 'master', address: '10.0.0.6' }, file: 'resolv.conf' });
  });

  it('handles the bootstrap-in-place layout one level deeper', () => {
    const c = classifyPath(`${B}/log-bundle-bootstrap/bootstrap/services/bootkube.json`);
    expect(c.bootstrapInPlace).toBe(true);
    expect(c.spec).toEqual({ kind: 'service-record', host: { role: 'bootstrap' }, service: 'bootkube' });
  });

  it('maps resources, rendered assets, serial and cluster-api parts', () => {
    expect(classifyPath(`${B}/resources/clusteroperators.json`).spec).toEqual({ kind: 'resource-json', name: 'clusteroperators' });
    expect(classifyPath(`${B}/resources/masters.list`).spec).toEqual({ kind: 'resource-list', name: 'masters' });
    expect(classifyPath(`${B}/resources/configmaps.json`).spec).toEqual({ kind: 'resource-other', name: 'configmaps.json' });
    expect(classifyPath(`${B}/rendered-assets/openshift/etcd-bootstrap/bootstrap-manifests/etcd-member-pod.yaml`).spec).toEqual({ kind: 'rendered-manifest' });
    expect(classifyPath(`${B}/rendered-assets/openshift/tls/root-ca.crt`).spec).toEqual({ kind: 'rendered-certificate' });
    expect(classifyPath(`${B}/serial-log-bundle-20261122111800/serial/ocp4-master-0.log`).spec).toEqual({ kind: 'serial-log', console: 'ocp4-master-0' });
    expect(classifyPath(`${B}/clusterapi/kube-apiserver.log`).spec).toEqual({ kind: 'clusterapi-log' });
  });

  it('finds the installer log anywhere and etcdctl output by name', () => {
    expect(classifyPath('case-0123/.openshift_install.log').spec).toEqual({ kind: 'installer-log' });
    expect(classifyPath(`${B}/bootstrap/etcd/etcd-member-list.txt`).spec).toEqual({ kind: 'etcd-output', host: { role: 'bootstrap' } });
  });

  it('leaves unknown paths unclassified, and finds bundles under a wrapper folder', () => {
    expect(classifyPath('README.txt').spec).toBeUndefined();
    expect(classifyPath(`${B}/bootstrap/journals/sub/x.log`).spec).toBeUndefined();
    expect(classifyPath(`case-0123/${B}/bootstrap/journals/crio.log`).spec).toEqual({ kind: 'journal', host: { role: 'bootstrap' }, unit: 'crio' });
  });
});

describe('the source vocabulary', () => {
  const sources: SourceId[] = [
    { kind: 'journal', host: { role: 'bootstrap' }, unit: 'bootkube' },
    { kind: 'journal', host: { role: 'master', address: '10.0.0.5' }, unit: 'kubelet' },
    { kind: 'unit-status-journal', host: { role: 'bootstrap' }, unit: 'crio-configure' },
    { kind: 'container', host: { role: 'bootstrap' }, runtime: 'cri-o', container: 'etcd-member' },
    { kind: 'container', host: { role: 'bootstrap' }, runtime: 'podman', container: 'cvo-render' },
    { kind: 'container', host: { role: 'master', address: 'master' }, runtime: 'cri-o', container: 'ovnkube-node' },
    { kind: 'container', host: { role: 'bootstrap' }, runtime: 'cri-o', container: 'bootstrap-control-plane' },
    { kind: 'serial', console: 'master-0' },
    { kind: 'installer' },
    { kind: 'gather' },
  ];

  it('maps every source to the path the gather scripts write and back', () => {
    for (const source of sources) {
      const ref = logRefOf(`${B}/${pathOf(source)}`);
      expect(ref?.source, pathOf(source)).toEqual(source);
      expect(ref?.referenceTime).toBe(Date.UTC(2026, 10, 22, 11, 18, 0));
    }
  });

  it('gives one key and one host label per source', () => {
    const keys = sources.map(sourceKey);
    expect(new Set(keys).size).toBe(keys.length);
    expect(sourceKey(sources[1])).toBe('master:10.0.0.5/journal/kubelet');
    expect(sourceHost(sources[1])).toBe('10.0.0.5');
    expect(sourceHost(sources[7])).toBe('serial:master-0');
    expect(sourceHost(sources[8])).toBe('installer');
  });

  it('reads the 4.1-4.3 `etcd-member` container log as a container, not as etcdctl output', () => {
    expect(classifyPath(`${B}/bootstrap/containers/etcd-member-3f9a0c1d2e3f.log`).spec).toMatchObject({ kind: 'container-log', name: 'etcd-member' });
    expect(classifyPath(`${B}/bootstrap/containers/etcd-member-list.txt`).spec).toEqual({ kind: 'etcd-output', host: { role: 'bootstrap' } });
  });
});
