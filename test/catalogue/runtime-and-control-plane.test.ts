// The catalogue's control-plane and container-runtime entries (etcd, the etcd operator, CRI-O,
// podman, containers/image, registries, kubelet) read real lines of the corpus: which message a
// line is, which error decides it, and the precedence rules a support engineer would sign.
import { describe, expect, it } from 'vitest';
import { classifierOf, type LineOrigin } from '../../src/catalogue/classify.js';
import { shippedCatalogue } from '../../src/catalogue/shipped.js';
import { loadCorpus } from '../corpus/real/cases.js';

const classifier = classifierOf(shippedCatalogue());
const corpus = loadCorpus().cases;

/** The one line of a corpus case's file that contains `words`, verbatim as posted. */
function corpusLine(caseId: string, words: string): string {
  const c = corpus.find((x) => x.id === caseId);
  if (!c) throw new Error(`no corpus case ${caseId}`);
  const lines = [...c.files.flatMap((f) => (f.lines ?? '').split('\n')), ...(c.installer?.lines ?? '').split('\n')].filter((l) => l.includes(words));
  if (lines.length === 0) throw new Error(`${caseId} has no line with ${words}`);
  return lines[0];
}

function read(line: string, where?: LineOrigin): { id?: string; category?: string; role?: string } {
  const r = classifier.classify(line, where);
  return { id: r?.decisive.entry.id, category: r?.category, role: r?.role };
}

describe('etcd and etcdctl', () => {
  it('reads etcd 3.3 slow-disk warnings and 3.5 heartbeat warnings as the disk', () => {
    expect(read(corpusLine('okd-269-etcd-slow-disk-mco-kube-cloud-config', 'wal: sync duration'))).toEqual({ id: 'etcd-wal-slow-fdatasync', category: 'etcd-health', role: 'cause' });
    expect(read(corpusLine('okd-2295-etcd-slow-disk', 'leader failed to send out heartbeat'))).toEqual({ id: 'etcd-wal-slow-fdatasync', category: 'etcd-health', role: 'cause' });
  });

  it('lets the target decide a failed connection inside etcdctl\'s unhealthy endpoint (a refusal on etcd\'s client port: the member does not run)', () => {
    const line = corpusLine('dev-scripts-631-master-resolv-dns', 'is unhealthy: failed to connect');
    const r = classifier.classify(line, { host: 'bootstrap', source: 'bootkube' });
    // bootkube's health-check message (a rule's) is there; the refused connection it carries decides.
    expect(r?.message?.entry.category).toBe('etcd-health');
    expect(r?.error?.entry.id).toBe('go-connection-refused');
    expect(r?.error?.target).toBe('etcd');
    expect(r?.category).toBe('etcd-health');
    expect(classifier.hits(line).map((h) => h.entry.id)).toContain('etcdctl-endpoint-unhealthy');
  });

  it('reads etcdctl\'s verdicts: unhealthy cluster a symptom, a healthy endpoint a success', () => {
    expect(read(corpusLine('dev-scripts-631-master-resolv-dns', 'Error: unhealthy cluster'))).toEqual({ id: 'etcdctl-endpoint-unhealthy', category: 'etcd-health', role: 'symptom' });
    expect(read(corpusLine('dev-scripts-631-master-resolv-dns', 'is healthy: successfully committed proposal'))).toEqual({ id: 'etcdctl-endpoint-healthy', category: 'unknown', role: 'success' });
  });
});

describe('the etcd operator\'s wait-for-ceo', () => {
  it('is a symptom healed by the operator bootstrapping while it waits on the bootstrap host\'s bootkube, and a success when etcd runs on the masters', () => {
    const waiting = corpusLine('healthy-yangchuansheng-ocp44-offline-bootkube-container-died', 'waiting on condition EtcdRunningInCluster');
    expect(read(waiting, { host: 'bootstrap', source: 'bootkube' }).role).toBe('symptom');
    expect(shippedCatalogue().byId.get('ceo-wait-for-ceo-waiting')?.healedBy).toEqual(['ceo-bootstrapped']);
    // The same words printed anywhere else are not vouched for.
    expect(classifier.classify(waiting, { host: 'master', source: 'kubelet' })).toBeUndefined();
    expect(read(corpusLine('healthy-yangchuansheng-ocp44-offline-bootkube-container-died', 'bootstrapped successfully'))).toEqual({ id: 'ceo-bootstrapped', category: 'unknown', role: 'success' });
  });
});

describe('CRI-O and crio-wipe', () => {
  it('reads the first-boot wipe as benign only where crio-wipe prints it', () => {
    const wiping = corpusLine('installer-2104-crio-wipe-busy', 'Wiping storage');
    expect(read(wiping, { host: 'bootstrap', source: 'crio-wipe' }).role).toBe('benign');
    expect(classifier.classify(wiping, { host: 'bootstrap', source: 'bootkube' })).toBeUndefined();
  });

  it('reads a wipe that cannot remove busy storage as the runtime\'s cause', () => {
    const busy = corpusLine('installer-2104-crio-wipe-busy', 'Device or resource busy');
    expect(read(busy, { host: 'bootstrap', source: 'crio-wipe' })).toEqual({ id: 'crio-wipe-failed', category: 'container-runtime', role: 'cause' });
  });

  it('reads CRI-O refusing its configuration and the missing crio.conf', () => {
    expect(read(corpusLine('installer-2978-fcos-crio-hooks-dir', 'invalid hooks_dir'), { host: 'master', source: 'crio' }).id).toBe('crio-config-invalid');
    expect(read(corpusLine('okd-446-crio-configure-no-conf', "can't read /etc/crio/crio.conf"))).toEqual({ id: 'crio-configure-crio-conf-missing', category: 'container-runtime', role: 'cause' });
  });

  it('no longer reads systemd\'s CGroup line of a unit status as a runtime failure', () => {
    expect(classifier.classify(corpusLine('machine-config-operator-3378-firstboot-rpm-ostreed-proxy', 'CGroup: /system.slice/'))).toBeUndefined();
  });
});

describe('podman', () => {
  it('lets the name conflict, a cause, decide over the storage step that wraps it', () => {
    const line = corpusLine('okd-1204-etcdctl-name-in-use', 'is already in use by');
    const r = classifier.classify(line);
    expect(r?.decisive.entry.id).toBe('podman-container-name-in-use');
    expect(r?.category).toBe('container-runtime');
    expect(classifier.hits(line).map((h) => h.entry.id)).toContain('podman-container-storage-failed');
    expect(read(corpusLine('okd-1726-wait-for-ceo-container', 'is in use: container already exists')).id).toBe('podman-container-name-in-use');
  });

  it('lets the disk, not the storage step, decide a full /run', () => {
    const line = corpusLine('snc-453-bootstrap-run-tmpfs-full', 'no space left on device');
    expect(read(line)).toEqual({ id: 'enospc', category: 'resource-exhaustion', role: 'cause' });
    expect(classifier.hits(line).map((h) => h.entry.id)).toContain('podman-container-storage-failed');
  });

  it('reads "Trying to pull ...Failed" as progress where the bootstrap scripts print it', () => {
    const line = corpusLine('installer-775-release-unauthorized', 'Trying to pull');
    expect(read(line, { host: 'bootstrap', source: 'bootkube' }).role).toBe('benign');
  });
});

describe('the pull error chain (containers/image and the registry\'s answer)', () => {
  it('lets the registry\'s answer decide over every wrapper around it', () => {
    const missing = corpusLine('okd-2231-default-release-missing', 'manifest unknown');
    const r = classifier.classify(missing);
    expect(r?.decisive.entry.id).toBe('registry-manifest-unknown');
    expect(r?.category).toBe('image-missing');
    expect(classifier.hits(missing).map((h) => h.entry.id)).toEqual(expect.arrayContaining(['containers-image-source-failed', 'containers-image-reading-manifest']));
    for (const [id, words] of [
      ['installer-4663-ci-release-unauthorized', 'Error initializing source'],
      ['okd-549-ceo-render-unauthorized', 'Error initializing source'],
    ] as const) {
      expect(read(corpusLine(id, words)).category, id).toBe('registry-auth');
    }
  });

  it('lets the target of a timed-out ping decide: the registry', () => {
    const line = corpusLine('hetzner-ocp4-35-quay-timeout', 'pinging');
    const r = classifier.classify(line);
    expect(r?.error?.target).toBe('registry');
    expect(r?.category).toBe('registry-unreachable');
  });

  it('reads a pull secret whose auth is not base64 as the secret', () => {
    expect(read(corpusLine('okd-1786-pull-secret-base64', 'illegal base64 data'))).toEqual({ id: 'containers-image-authfile-invalid', category: 'registry-auth', role: 'cause' });
  });
});

describe('kubelet', () => {
  it('reads the kubelet failing to start as the runtime\'s, from its own words', () => {
    expect(read(corpusLine('installer-4628-kubelet-no-auth-method', 'failed to run Kubelet'))).toEqual({ id: 'kubelet-start-failed', category: 'container-runtime', role: 'symptom' });
  });

  it('carries the registry\'s answer when it quotes a failed pull (the kubelet wrapper is a chain)', () => {
    // A real pull error of the corpus, quoted the way the kubelet's image manager words the event.
    const pullError = corpusLine('okd-549-ceo-render-unauthorized', 'Error initializing source').replace(/^.*?Error: /, '');
    const line = `Warning  Failed  2m  kubelet  Failed to pull image "quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:359d": rpc error: code = Unknown desc = ${pullError}`;
    const r = classifier.classify(line, { host: 'master', source: 'kubelet' });
    expect(r?.category).toBe('registry-auth');
    expect(r?.error?.entry.id).toBe('registry-unauthorized');
    expect(classifier.hits(line).map((h) => h.entry.id)).toContain('kubelet-image-pull-failed');
    // Without an error the chain can read, the wrapper alone names nothing.
    expect(read('Warning  Failed  2m  kubelet  Failed to pull image "quay.io/x/y@sha256:359d": rpc error: code = Unknown desc = something new').category).toBe('unknown');
  });
});
