// The generic reading: a bundle holding one decisive error line no rule was written for is not
// inconclusive; the log it sits in names the stage, its words the category. Lines as posted in
// the threads named beside them; bundles laid out as installer-gather.sh writes them.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeBundle } from '../../src/analysis/analyze.js';
import { LAST_ERROR_ID } from '../../src/rules/builtin/last-error.js';
import { loadRules } from '../../src/rules/load-rules.js';
import { packTar, tempDir, writeTree } from '../support/fixture-bundle.js';

const ROOT = 'log-bundle-20231106120000';
const ID = 'a3f0c2d4e5b6a7980112233445566778899aabbccddeeff00112233445566778';

async function verdictOf(files: Record<string, string>) {
  const src = tempDir();
  writeTree(src, ROOT, files);
  const bundle = await packTar(src, ROOT, join(tempDir(), 'b.tar.gz'), true);
  const r = await analyzeBundle(bundle, { rules: loadRules().rules, version: 'test' });
  return { verdict: r.verdict, generic: r.findings.filter((f) => f.ruleId === LAST_ERROR_ID) };
}

describe('the last error of a unit that failed or never finished', () => {
  it('the last words of the CRI-O journal: the runtime on the bootstrap host', async () => {
    // okd-project/okd#2151: CRI-O refuses to start on a dangling /opt/cni symlink.
    const { verdict, generic } = await verdictOf({
      'bootstrap/journals/crio.log': [
        'Nov 06 11:58:01 bootstrap systemd[1]: Starting Container Runtime Interface for OCI (CRI-O)...',
        'Nov 06 11:58:01 bootstrap crio[1533]: /opt/cni already exists and is not a dir',
        'Nov 06 11:58:01 bootstrap systemd[1]: crio.service: Main process exited, code=exited, status=1/FAILURE',
        "Nov 06 11:58:01 bootstrap systemd[1]: crio.service: Failed with result 'exit-code'.",
      ].join('\n'),
    });
    expect(verdict).toMatchObject({ status: 'failed', stage: 'node-runtime', category: 'container-runtime' });
    expect(generic[0].message).toContain('crio on bootstrap failed: /opt/cni already exists and is not a dir');
    expect(generic[0].evidence[0]).toMatchObject({ file: `${ROOT}/bootstrap/journals/crio.log`, line: 2 });
  });

  it('a script bootkube runs: the step its last marker started', async () => {
    // okd-project/okd#1278: restoring the CVO overrides cannot resolve api-int.
    const { verdict } = await verdictOf({
      'bootstrap/journals/bootkube.log': [
        'Jul 07 20:20:11 bootstrap bootkube.sh[1751]: Starting cluster-bootstrap...',
        'Jul 07 20:27:42 bootstrap bootkube.sh[1751]: Trying again to restore CVO overrides',
        'Jul 07 20:27:43 bootstrap bootkube.sh[17197]: Unable to connect to the server: dial tcp: lookup api-int.okd4.fortin.pvt: no such host',
      ].join('\n'),
    });
    expect(verdict).toMatchObject({ status: 'failed', stage: 'bootstrap-complete', category: 'dns' });
  });

  it('a render container: its unknown flag is an installer and a release that do not fit', async () => {
    // openshift/installer#5081: the kube-apiserver render image is older than the installer.
    const { verdict } = await verdictOf({
      [`bootstrap/pods/kube-apiserver-render-${ID}.log`]: 'Error: unknown flag: --infra-config-file\n',
    });
    expect(verdict).toMatchObject({ status: 'failed', stage: 'render', category: 'install-config' });
  });

  it("a network plugin's start script on a master: the pod network", async () => {
    // okd-project/okd-scos#14: the sdn script aborts on an unbound variable.
    const { verdict } = await verdictOf({
      [`control-plane/10.0.0.5/containers/sdn-${ID}.log`]: '/bin/bash: line 49: "RHEL_VERSION:" unbound variable\n',
    });
    expect(verdict).toMatchObject({ status: 'failed', stage: 'production-control-plane', category: 'network-plugin' });
  });

  it('journalctl output of two units in one file: each line counts for the unit its identifier names', async () => {
    // `journalctl -b -f -u release-image.service -u bootkube.service`, kept as one file.
    const { verdict } = await verdictOf({
      'bootstrap/journals/bootkube.log': [
        'Dec 22 07:03:01 localhost systemd[1]: Starting Download the OpenShift Release Image...',
        'Dec 22 07:03:03 localhost release-image-download.sh[2406]: Error: error pulling image "registry.ocp.example.com:5000/ocp4/openshift4@sha256:6ddbf56b": unable to pull registry.ocp.example.com:5000/ocp4/openshift4@sha256:6ddbf56b: unable to pull image: Error initializing source docker://registry.ocp.example.com:5000/ocp4/openshift4@sha256:6ddbf56b: pinging docker registry returned: Get https://registry.ocp.example.com:5000/v2/: x509: certificate signed by unknown authority',
        'Dec 22 07:03:03 localhost release-image-download.sh[2270]: Pull failed. Retrying registry.ocp.example.com:5000/ocp4/openshift4@sha256:6ddbf56b...',
      ].join('\n'),
    });
    expect(verdict).toMatchObject({ status: 'failed', stage: 'release-image', category: 'registry-tls' });
  });

  it('leaves a bundle with no error-like line inconclusive', async () => {
    const { verdict, generic } = await verdictOf({
      'bootstrap/journals/release-image.log': 'Nov 06 11:58:01 bootstrap systemd[1]: Starting release-image.service...\n',
    });
    expect(verdict.status).toBe('inconclusive');
    expect(generic).toEqual([]);
  });

  it('a running unit that logged an error is a lead only: it decides nothing when a stage failed elsewhere, and is not shown', async () => {
    const { verdict, generic } = await verdictOf({
      'bootstrap/journals/kubelet.log':
        'Nov 06 11:59:01 bootstrap kubenswrapper[2519]: E1106 11:59:01.001122    2519 kubelet_node_status.go:96] "Unable to register node with API server" err="Post \\"https://api-int.ocp4.example.com:6443/api/v1/nodes\\": dial tcp 10.0.0.5:6443: connect: connection refused"\n',
      'bootstrap/services/release-image.json':
        '[\n{"timestamp":"2023-11-06T11:50:00Z","phase":"service start"},\n{"timestamp":"2023-11-06T11:55:00Z","phase":"service end","result":"failure","errorMessage":"Error: initializing source docker://quay.io/openshift-release-dev/ocp-release@sha256:1: reading manifest sha256:1 in quay.io/openshift-release-dev/ocp-release: unauthorized: authentication required"}\n]\n',
    });
    expect(verdict).toMatchObject({ status: 'failed', stage: 'release-image', category: 'registry-auth' });
    // A lead that decided nothing is not shown beside the cause a rule named.
    expect(generic.find((f) => f.stage === 'node-runtime')).toBeUndefined();
  });
});
