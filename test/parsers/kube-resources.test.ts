import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { SourceRef } from '../../src/model/types.js';
import {
  classifyResourceText,
  parseClusterOperators,
  parseClusterVersion,
  parseCsrs,
  parseEvents,
  parseNameList,
  parseNodes,
  parsePods,
} from '../../src/parsers/kube-resources.js';

function fixture(name: string): string {
  return readFileSync(new URL(`../fixtures/parsers/${name}`, import.meta.url), 'utf8');
}

function fixtureJson(name: string): unknown {
  return JSON.parse(fixture(name)) as unknown;
}

const src = (file: string): SourceRef => ({ file: `log-bundle-20261122104041/resources/${file}` });
const t = (iso: string): number => Date.parse(iso);

describe('classifyResourceText', () => {
  const source = src('clusteroperators.json');

  it('reports an empty file (the API never answered, only stdout was redirected)', () => {
    expect(classifyResourceText('', source, 'clusteroperators')).toEqual({
      status: { source, name: 'clusteroperators', status: 'empty' },
    });
    expect(classifyResourceText('\n  \n\t\n', source, 'clusteroperators').status.status).toBe('empty');
  });

  it('keeps the first line of what oc printed instead of JSON', () => {
    const text =
      'The connection to the server localhost:6443 was refused - did you specify the right host or port?\n' +
      'second line that is not kept\n';
    const r = classifyResourceText(text, source, 'clusteroperators');
    expect(r.json).toBeUndefined();
    expect(r.status).toEqual({
      source,
      name: 'clusteroperators',
      status: 'error',
      message: 'The connection to the server localhost:6443 was refused - did you specify the right host or port?',
    });
  });

  it.each([
    ['error: the server doesn\'t have a resource type "clusteroperators"'],
    ['Unable to connect to the server: dial tcp 10.0.0.10:6443: i/o timeout'],
    ['Error from server (ServiceUnavailable): the server is currently unable to handle the request'],
  ])('classifies %s as an error', (line) => {
    const r = classifyResourceText(`\n\n${line}\r\n`, source, 'x');
    expect(r.status.status).toBe('error');
    expect(r.status.message).toBe(line);
  });

  it('cuts the message at 300 characters', () => {
    const r = classifyResourceText(`error: ${'x'.repeat(1000)}\n`, source, 'x');
    expect(r.status.message).toHaveLength(300);
    expect(r.status.message?.startsWith('error: xxx')).toBe(true);
  });

  it('parses a List and counts its items', () => {
    const text = fixture('kube-clusteroperators.json');
    const r = classifyResourceText(text, source, 'clusteroperators');
    expect(r.status).toEqual({ source, name: 'clusteroperators', status: 'ok', items: 6 });
    expect(r.json).toEqual(JSON.parse(text));
  });

  it('counts a single object as one item and an empty List as zero', () => {
    expect(classifyResourceText('{"kind":"ClusterVersion","metadata":{"name":"version"}}', source, 'cv').status.items).toBe(1);
    expect(
      classifyResourceText('{"apiVersion":"v1","items":[],"kind":"List","metadata":{"resourceVersion":""}}', source, 'csr')
        .status,
    ).toEqual({ source, name: 'csr', status: 'ok', items: 0 });
  });

  it('reads JSON behind a byte order mark', () => {
    expect(classifyResourceText('\ufeff{"items":[{}],"kind":"List"}', source, 'x').status.items).toBe(1);
  });

  it('reads the JSON when warnings or klog lines precede it (stderr redirected too)', () => {
    const text =
      'E1122 10:41:02.123456    8123 memcache.go:265] couldn\'t get current server API group list: the server is currently unable to handle the request\n' +
      'Warning: metrics.k8s.io/v1beta1 is not available\n' +
      fixture('kube-csr.json');
    const r = classifyResourceText(text, source, 'csr');
    expect(r.status.status).toBe('ok');
    expect(r.status.items).toBe(5);
    expect(r.status.message).toBeUndefined();
  });

  it('reports truncated JSON as unparseable', () => {
    const text = fixture('kube-nodes.json');
    const r = classifyResourceText(text.slice(0, Math.floor(text.length / 2)), source, 'nodes');
    expect(r.json).toBeUndefined();
    expect(r.status.status).toBe('unparseable');
    expect(r.status.message?.startsWith('invalid JSON: ')).toBe(true);
    expect(r.status.message!.length).toBeLessThanOrEqual(300);
  });

  it('reports bytes that are not text as unparseable, not as an oc message', () => {
    const r = classifyResourceText('\u001f\u008b\u0008\u0000\u0000\u0000garbage', source, 'openapi');
    expect(r.status).toEqual({ source, name: 'openapi', status: 'unparseable', message: 'not text' });
  });
});

describe('parseClusterOperators', () => {
  const source = src('clusteroperators.json');
  const { value, problems } = parseClusterOperators(fixtureJson('kube-clusteroperators.json'), source);

  it('reads every operator', () => {
    expect(problems).toEqual([]);
    expect(value.map((o) => o.name)).toEqual([
      'authentication',
      'etcd',
      'kube-apiserver',
      'machine-config',
      'network',
      'ingress',
    ]);
    expect(value.every((o) => o.source === source)).toBe(true);
  });

  it('reads conditions with reason, message and transition time', () => {
    const auth = value[0];
    expect(auth.conditions).toEqual([
      {
        type: 'Degraded',
        status: 'True',
        reason: 'APIServerDeployment_UnavailablePod::OAuthServerDeployment_PreconditionNotFulfilled',
        message:
          'APIServerDeploymentDegraded: 1 of 1 requested instances are unavailable for apiserver.openshift-oauth-apiserver ()\n' +
          'OAuthServerDeploymentDegraded: waiting for the oauth-openshift route to contain an admitted ingress: no admitted ingress for route oauth-openshift in namespace openshift-authentication',
        lastTransitionTime: t('2026-11-22T10:05:12Z'),
      },
      { type: 'Progressing', status: 'Unknown', reason: 'NoData', lastTransitionTime: t('2026-11-22T10:02:11Z') },
      {
        type: 'Available',
        status: 'False',
        reason: 'APIServices_Error',
        message:
          'APIServicesAvailable: "oauth.openshift.io.v1" is not ready: an attempt failed with statusCode = 503, err = the server is currently unable to handle the request',
        lastTransitionTime: t('2026-11-22T10:04:30Z'),
      },
      { type: 'Upgradeable', status: 'True', reason: 'AsExpected', message: 'All is well', lastTransitionTime: t('2026-11-22T10:02:11Z') },
      { type: 'EvaluationConditionsDetected', status: 'Unknown', reason: 'NoData', lastTransitionTime: t('2026-11-22T10:02:11Z') },
    ]);
    expect(auth.versions).toEqual([{ name: 'operator', version: '4.14.3' }]);
  });

  it('reads operand versions in order', () => {
    expect(value[1].versions).toEqual([
      { name: 'raw-internal', version: '4.14.3' },
      { name: 'etcd', version: '4.14.3' },
      { name: 'operator', version: '4.14.3' },
    ]);
    expect(value[1].conditions.find((c) => c.type === 'Progressing')).toEqual({
      type: 'Progressing',
      status: 'True',
      reason: 'NodeInstaller',
      message: 'NodeInstallerProgressing: 2 nodes are at revision 0; 1 node is at revision 3',
      lastTransitionTime: t('2026-11-22T10:03:40Z'),
    });
  });

  it('leaves out a missing or empty reason instead of inventing one', () => {
    const mco = value[3];
    expect(mco.conditions[0]).toEqual({
      type: 'Progressing',
      status: 'True',
      message: 'Working towards 4.14.3',
      lastTransitionTime: t('2026-11-22T10:02:11Z'),
    });
    expect('reason' in mco.conditions[0]).toBe(false);
    expect(mco.versions).toEqual([]);
    const network = value[4];
    expect(network.conditions[0]).toEqual({
      type: 'ManagementStateDegraded',
      status: 'False',
      lastTransitionTime: t('2026-11-22T10:02:11Z'),
    });
  });

  it('reads an operator without status as having no conditions', () => {
    expect(value[5]).toEqual({ source, name: 'ingress', conditions: [], versions: [] });
  });

  it('keeps no annotations, owner references or related objects', () => {
    const text = JSON.stringify(value);
    expect(text).not.toContain('include.release.openshift.io');
    expect(text).not.toContain('ownerReferences');
    expect(text).not.toContain('relatedObjects');
  });
});

describe('parseCsrs', () => {
  const source = src('csr.json');
  const { value, problems } = parseCsrs(fixtureJson('kube-csr.json'), source);

  it('derives the state of each request', () => {
    expect(problems).toEqual([]);
    expect(value.map((c) => [c.name, c.state])).toEqual([
      ['csr-2xk4p', 'Pending'],
      ['csr-8vmtd', 'Issued'],
      ['csr-bq9zl', 'Approved'],
      ['csr-dd7nq', 'Denied'],
      ['csr-f2k9x', 'Failed'],
    ]);
  });

  it('reads requestor, signer, creation time and conditions', () => {
    expect(value[0]).toEqual({
      source,
      name: 'csr-2xk4p',
      requestor: 'system:node:master-0.ocp.example.com',
      signerName: 'kubernetes.io/kubelet-serving',
      created: t('2026-11-22T10:12:44Z'),
      state: 'Pending',
      conditions: [],
    });
    expect(value[1]).toEqual({
      source,
      name: 'csr-8vmtd',
      requestor: 'system:serviceaccount:openshift-machine-config-operator:node-bootstrapper',
      signerName: 'kubernetes.io/kube-apiserver-client-kubelet',
      created: t('2026-11-22T10:01:02Z'),
      state: 'Issued',
      conditions: [
        {
          type: 'Approved',
          status: 'True',
          reason: 'NodeCSRApprove',
          message: 'This CSR was approved by the Node CSR Approver (cluster-machine-approver)',
          lastTransitionTime: t('2026-11-22T10:01:05Z'),
        },
      ],
    });
    expect(value[4].conditions.map((c) => `${c.type}=${c.status}:${c.reason}`)).toEqual([
      'Approved=True:NodeCSRApprove',
      'Failed=True:SignerValidationFailure',
    ]);
  });

  it('never keeps the request PEM or the issued certificate', () => {
    const text = JSON.stringify(value);
    expect(text).not.toContain('LS0tLS1CRUdJTi');
    expect(text).not.toContain('"request"');
    expect(text).not.toContain('certificate"');
    expect(text).not.toContain('usages');
  });

  it('reads v1beta1 conditions without status as true, and False conditions as not set', () => {
    const list = {
      kind: 'List',
      items: [
        { metadata: { name: 'old' }, status: { conditions: [{ type: 'Approved', reason: 'AutoApproved' }] } },
        { metadata: { name: 'undone' }, status: { conditions: [{ type: 'Approved', status: 'False' }], certificate: 'x' } },
        { metadata: { name: 'denied' }, status: { conditions: [{ type: 'Denied', status: 'True' }] } },
      ],
    };
    const r = parseCsrs(list, source);
    expect(r.value.map((c) => c.state)).toEqual(['Approved', 'Pending', 'Denied']);
    expect(r.value[0].conditions).toEqual([{ type: 'Approved', status: 'True', reason: 'AutoApproved' }]);
  });
});

describe('parseNodes', () => {
  const source = src('nodes.json');
  const { value, problems } = parseNodes(fixtureJson('kube-nodes.json'), source);

  it('reads names, roles and readiness', () => {
    expect(problems).toEqual([]);
    expect(value.map((n) => [n.name, n.roles, n.ready])).toEqual([
      ['master-0.ocp.example.com', ['control-plane', 'master'], 'True'],
      ['master-1.ocp.example.com', ['control-plane', 'master'], 'False'],
      ['master-2.ocp.example.com', ['control-plane', 'master'], 'Unknown'],
      // `kubernetes.io/role: worker` and `node-role.kubernetes.io/worker` name one role.
      ['worker-0.ocp.example.com', ['worker'], 'True'],
    ]);
  });

  it('reads addresses, kubelet version, creation time and taints', () => {
    const n = value[0];
    expect(n.source).toBe(source);
    expect(n.addresses).toEqual([
      { type: 'InternalIP', address: '10.0.0.5' },
      { type: 'Hostname', address: 'master-0.ocp.example.com' },
    ]);
    expect(n.kubeletVersion).toBe('v1.27.6+f67aeb3');
    expect(n.created).toBe(t('2026-11-22T10:01:20Z'));
    expect(n.taints).toEqual(['node-role.kubernetes.io/master:NoSchedule']);
    expect(value[1].taints).toEqual([
      'node-role.kubernetes.io/master:NoSchedule',
      'node.kubernetes.io/not-ready:NoSchedule',
      'node.kubernetes.io/not-ready:NoExecute',
    ]);
    expect(value[2].taints).toEqual(['node.kubernetes.io/unreachable:NoSchedule', 'example.com/dedicated=infra:NoSchedule']);
    expect(value[3].taints).toEqual([]);
  });

  it('reads all node conditions', () => {
    const conds = value[1].conditions;
    expect(conds.map((c) => `${c.type}=${c.status}`)).toEqual([
      'MemoryPressure=False',
      'DiskPressure=False',
      'PIDPressure=False',
      'Ready=False',
    ]);
    expect(conds[3]).toEqual({
      type: 'Ready',
      status: 'False',
      reason: 'KubeletNotReady',
      message:
        'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: No CNI configuration file in /etc/kubernetes/cni/net.d/. Has your network provider started?',
      lastTransitionTime: t('2026-11-22T10:02:55Z'),
    });
  });

  it('keeps no annotations, images or capacity', () => {
    const text = JSON.stringify(value);
    expect(text).not.toContain('machineconfiguration.openshift.io');
    expect(text).not.toContain('sizeBytes');
    expect(text).not.toContain('allocatable');
  });
});

describe('parseClusterVersion', () => {
  const source = src('clusterversion.json');

  it('reads desired release, history and conditions', () => {
    const { value, problems } = parseClusterVersion(fixtureJson('kube-clusterversion.json'), source);
    expect(problems).toEqual([]);
    expect(value).toHaveLength(1);
    const image = 'quay.io/openshift-release-dev/ocp-release@sha256:e73ab4b33a9c3ff00c9f800a38d69853ca0c4dfa5a88e3df331f66df8f18ec55';
    expect(value[0].source).toBe(source);
    expect(value[0].desiredVersion).toBe('4.14.3');
    expect(value[0].desiredImage).toBe(image);
    // completionTime is null while the first install is still Partial.
    expect(value[0].history).toEqual([{ state: 'Partial', version: '4.14.3', image, started: t('2026-11-22T09:58:45Z') }]);
    expect(value[0].conditions.map((c) => `${c.type}=${c.status}`)).toEqual([
      'ReleaseAccepted=True',
      'Available=False',
      'Failing=True',
      'Progressing=True',
      'RetrievedUpdates=False',
    ]);
    expect(value[0].conditions[1]).toEqual({ type: 'Available', status: 'False', lastTransitionTime: t('2026-11-22T09:58:45Z') });
    expect(value[0].conditions[2]).toEqual({
      type: 'Failing',
      status: 'True',
      reason: 'ClusterOperatorNotAvailable',
      message: 'Cluster operator authentication is not available',
      lastTransitionTime: t('2026-11-22T10:20:00Z'),
    });
  });

  it('falls back to spec.desiredUpdate before the CVO reported status', () => {
    const cv = {
      kind: 'ClusterVersion',
      metadata: { name: 'version' },
      spec: { desiredUpdate: { version: '4.14.4', image: 'quay.io/x/release@sha256:1' } },
    };
    expect(parseClusterVersion(cv, source).value).toEqual([
      { source, desiredVersion: '4.14.4', desiredImage: 'quay.io/x/release@sha256:1', history: [], conditions: [] },
    ]);
  });

  it('reads a completed history entry', () => {
    const list = {
      kind: 'List',
      items: [
        {
          status: {
            history: [
              { state: 'Completed', version: '4.14.3', startedTime: '2026-11-22T09:58:45Z', completionTime: '2026-11-22T10:40:00Z' },
              { version: 'no state: skipped' },
            ],
          },
        },
      ],
    };
    expect(parseClusterVersion(list, source).value[0].history).toEqual([
      { state: 'Completed', version: '4.14.3', started: t('2026-11-22T09:58:45Z'), completed: t('2026-11-22T10:40:00Z') },
    ]);
  });
});

describe('parsePods', () => {
  const source = src('pods.json');
  const { value, problems } = parsePods(fixtureJson('kube-pods.json'), source);

  it('reads namespace, name, node, phase and conditions', () => {
    expect(problems).toEqual([]);
    expect(value.map((p) => [p.namespace, p.name, p.node, p.phase])).toEqual([
      ['openshift-etcd', 'etcd-master-0.ocp.example.com', 'master-0.ocp.example.com', 'Running'],
      ['openshift-kube-apiserver', 'kube-apiserver-master-1.ocp.example.com', 'master-1.ocp.example.com', 'Running'],
      ['openshift-machine-config-operator', 'machine-config-daemon-7xq2k', 'master-2.ocp.example.com', 'Pending'],
      ['openshift-ingress', 'router-default-6d8f9c7b5-x2m4p', undefined, 'Pending'],
    ]);
    expect(value[3].conditions).toEqual([
      {
        type: 'PodScheduled',
        status: 'False',
        reason: 'Unschedulable',
        message:
          '0/3 nodes are available: 3 node(s) had untolerated taint {node-role.kubernetes.io/master: }. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling..',
        lastTransitionTime: t('2026-11-22T10:05:02Z'),
      },
    ]);
    expect(value[3].containers).toEqual([]);
    expect('node' in value[3]).toBe(false);
  });

  it('reads running containers, and not init containers', () => {
    expect(value[0].containers).toEqual([
      { name: 'etcd', ready: true, restartCount: 0, image: expect.stringContaining('ocp-v4.0-art-dev@sha256:2f4b') as unknown },
      { name: 'etcdctl', ready: true, restartCount: 0, image: expect.stringContaining('ocp-v4.0-art-dev@sha256:2f4b') as unknown },
    ]);
  });

  it('reads waiting, terminated and last-terminated states', () => {
    expect(value[1].containers).toEqual([
      {
        name: 'kube-apiserver',
        ready: false,
        restartCount: 7,
        image: 'quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b',
        waitingReason: 'CrashLoopBackOff',
        waitingMessage:
          'back-off 5m0s restarting failed container=kube-apiserver pod=kube-apiserver-master-1.ocp.example.com_openshift-kube-apiserver(0f1e2d3c)',
        lastTerminatedReason: 'Error',
        lastExitCode: 1,
      },
    ]);
    expect(value[2].containers).toEqual([
      {
        name: 'machine-config-daemon',
        ready: false,
        restartCount: 0,
        image: 'quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:deadbeef',
        waitingReason: 'ImagePullBackOff',
        waitingMessage: 'Back-off pulling image "quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:deadbeef"',
      },
      {
        name: 'oauth-proxy',
        ready: false,
        restartCount: 0,
        image: 'registry.example.com/oauth-proxy:latest',
        terminatedReason: 'OOMKilled',
      },
    ]);
  });

  it('never keeps the pod spec (env, args) or annotations', () => {
    const text = JSON.stringify(value);
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('SUPER_SECRET_TOKEN');
    expect(text).not.toContain('--openshift-config');
    expect(text).not.toContain('openshift.io/scc');
  });
});

describe('parseEvents', () => {
  const source = src('events.json');
  const { value, problems } = parseEvents(fixtureJson('kube-events.json'), source);

  it('reads classic events with count and first/last timestamps', () => {
    expect(problems).toEqual([]);
    expect(value[0]).toEqual({
      source,
      namespace: 'openshift-machine-config-operator',
      kind: 'Pod',
      object: 'machine-config-daemon-7xq2k',
      reason: 'Failed',
      message:
        'Failed to pull image "quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:deadbeef": rpc error: code = Unknown desc = reading manifest sha256:deadbeef in quay.io/openshift-release-dev/ocp-v4.0-art-dev: unauthorized: access to the requested resource is not authorized',
      type: 'Warning',
      count: 14,
      firstTime: t('2026-11-22T10:06:01Z'),
      lastTime: t('2026-11-22T10:36:40Z'),
    });
  });

  it('reads eventTime/series events (microsecond times, series count)', () => {
    expect(value[1]).toMatchObject({
      namespace: 'openshift-ingress',
      kind: 'Pod',
      object: 'router-default-6d8f9c7b5-x2m4p',
      reason: 'FailedScheduling',
      type: 'Warning',
      count: 9,
      firstTime: Date.UTC(2026, 10, 22, 10, 5, 2, 412),
      lastTime: Date.UTC(2026, 10, 22, 10, 35, 2, 998),
    });
  });

  it('counts an event without count once, with last time = first time', () => {
    expect(value[2]).toEqual({
      source,
      namespace: 'kube-system',
      kind: 'ConfigMap',
      object: 'bootstrap',
      reason: 'BootstrapComplete',
      message: 'cluster-bootstrap is complete',
      type: 'Normal',
      count: 1,
      firstTime: t('2026-11-22T10:25:51Z'),
      lastTime: t('2026-11-22T10:25:51Z'),
    });
  });

  it('reads events.k8s.io/v1 objects (regarding, note, deprecated fields)', () => {
    const list = {
      kind: 'EventList',
      items: [
        {
          metadata: { name: 'e1', namespace: 'openshift-etcd', creationTimestamp: '2026-11-22T10:00:00Z' },
          regarding: { kind: 'Pod', name: 'etcd-master-0', namespace: 'openshift-etcd' },
          note: 'Readiness probe failed',
          reason: 'Unhealthy',
          type: 'Warning',
          deprecatedCount: 3,
          deprecatedFirstTimestamp: '2026-11-22T10:00:01Z',
          deprecatedLastTimestamp: '2026-11-22T10:00:09Z',
        },
      ],
    };
    expect(parseEvents(list, source).value).toEqual([
      {
        source,
        namespace: 'openshift-etcd',
        kind: 'Pod',
        object: 'etcd-master-0',
        reason: 'Unhealthy',
        message: 'Readiness probe failed',
        type: 'Warning',
        count: 3,
        firstTime: t('2026-11-22T10:00:01Z'),
        lastTime: t('2026-11-22T10:00:09Z'),
      },
    ]);
  });
});

describe('damaged input', () => {
  const source = src('nodes.json');

  it('reports input that is not a List', () => {
    for (const json of [null, 42, 'text', { kind: 'List' }, { items: 'nope' }, { kind: 'Pod' }]) {
      const r = parseNodes(json, source);
      expect(r.value).toEqual([]);
      expect(r.problems).toEqual([{ kind: 'unparseable', message: 'expected a List of Node objects with items[]' }]);
    }
  });

  it('skips items that are not objects or have no name, and says which', () => {
    const r = parseNodes({ kind: 'List', items: [42, null, { metadata: { name: 5 } }, { metadata: { name: 'ok' } }, []] }, source);
    expect(r.value.map((n) => n.name)).toEqual(['ok']);
    expect(r.problems).toEqual([
      { kind: 'unparseable', message: 'items[0] is not an object' },
      { kind: 'unparseable', message: 'items[1] is not an object' },
      { kind: 'unparseable', message: 'items[2]: node without metadata.name' },
      { kind: 'unparseable', message: 'items[4] is not an object' },
    ]);
  });

  it('skips fields of the wrong type without throwing', () => {
    const node = {
      metadata: { name: 'n1', labels: ['node-role.kubernetes.io/master'], creationTimestamp: 12345 },
      spec: { taints: 'NoSchedule' },
      status: {
        conditions: { type: 'Ready', status: 'True' },
        addresses: [{ type: 'InternalIP', address: 10 }, 'x', { type: 'Hostname', address: 'n1' }],
        nodeInfo: { kubeletVersion: 1.27 },
      },
    };
    expect(parseNodes({ kind: 'List', items: [node] }, source).value).toEqual([
      { source, name: 'n1', roles: [], ready: 'Unknown', conditions: [], addresses: [{ type: 'Hostname', address: 'n1' }], taints: [] },
    ]);

    const pod = {
      metadata: { name: 'p', namespace: 7 },
      spec: { nodeName: ['x'] },
      status: {
        phase: 1,
        conditions: [{ type: 3, status: 'True' }, { type: 'Ready', status: 'False', lastTransitionTime: 'not a time' }],
        containerStatuses: [{ name: 'c', ready: 'true', restartCount: '7', state: { waiting: 'x' }, lastState: { terminated: { exitCode: '1' } } }, { ready: true }],
      },
    };
    expect(parsePods({ kind: 'List', items: [pod] }, src('pods.json')).value).toEqual([
      {
        source: src('pods.json'),
        namespace: '',
        name: 'p',
        conditions: [{ type: 'Ready', status: 'False' }],
        containers: [{ name: 'c', ready: false, restartCount: 0 }],
      },
    ]);

    const events = parseEvents({ kind: 'List', items: [{ count: '14', series: 'x', eventTime: 5, involvedObject: 'Pod/x' }] }, src('events.json'));
    expect(events.value).toEqual([{ source: src('events.json'), count: 1 }]);

    const csrs = parseCsrs({ items: [{ metadata: { name: 'c' }, spec: { username: 9, request: 'PEM' }, status: { conditions: 'Approved', certificate: 1 } }] }, source);
    expect(csrs.value).toEqual([{ source, name: 'c', state: 'Pending', conditions: [] }]);

    const cos = parseClusterOperators({ items: [{ metadata: { name: 'co' }, status: { versions: [{ name: 'operator' }, 'x', { name: 'op', version: '1' }] } }] }, source);
    expect(cos.value[0].versions).toEqual([{ name: 'op', version: '1' }]);
  });

  it('caps the problems of one file', () => {
    const r = parseEvents({ kind: 'List', items: Array.from({ length: 30 }, () => 'x') }, src('events.json'));
    expect(r.value).toEqual([]);
    expect(r.problems).toHaveLength(21);
    expect(r.problems[20]).toEqual({ kind: 'unparseable', message: '10 more problems not listed' });
  });

  it('is not fooled by __proto__ and constructor keys', () => {
    const text = `{
      "kind": "List",
      "__proto__": { "items": [ { "metadata": { "name": "from-proto-list" } } ] },
      "items": [
        { "__proto__": { "metadata": { "name": "evil" } } },
        { "constructor": { "prototype": { "polluted": true } },
          "metadata": { "__proto__": { "polluted": true }, "name": "good",
                        "labels": { "__proto__": "", "node-role.kubernetes.io/master": "" } },
          "status": { "__proto__": { "conditions": [ { "type": "Ready", "status": "True" } ] },
                      "conditions": [ { "__proto__": { "type": "Ready" }, "status": "True" } ] } }
      ]
    }`;
    const json = JSON.parse(text) as unknown;
    const r = parseNodes(json, source);
    expect(r.value).toEqual([
      { source, name: 'good', roles: ['master'], ready: 'Unknown', conditions: [], addresses: [], taints: [] },
    ]);
    expect(r.problems).toEqual([{ kind: 'unparseable', message: 'items[0]: node without metadata.name' }]);
    expect(JSON.stringify(r.value)).not.toContain('evil');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted')).toBe(false);

    // A List whose only items sit under __proto__ has none.
    const protoOnly = JSON.parse('{"kind":"List","__proto__":{"items":[{"metadata":{"name":"x"}}]}}') as unknown;
    expect(parseCsrs(protoOnly, source).value).toEqual([]);
    expect(classifyResourceText('{"__proto__":{"items":[1,2]}}', source, 'x').status.items).toBeUndefined();
  });

  it('reads own fields only, never inherited ones', () => {
    // JSON.parse makes `__proto__` an own key; objects from other loaders may really inherit.
    const inheritedItem = Object.create({ metadata: { name: 'inherited' } }) as object;
    const ownName = Object.assign(Object.create({ status: { conditions: [{ type: 'Ready', status: 'True' }] } }) as object, {
      metadata: { name: 'own' },
    });
    const list = Object.assign(Object.create({ items: [{ metadata: { name: 'from-prototype' } }] }) as object, { kind: 'List' });
    expect(parseNodes({ kind: 'List', items: [inheritedItem, ownName] }, source).value).toEqual([
      { source, name: 'own', roles: [], ready: 'Unknown', conditions: [], addresses: [], taints: [] },
    ]);
    expect(parseNodes(list, source).value).toEqual([]);
  });
});

describe('parseNameList', () => {
  it('reads one name per line', () => {
    expect(parseNameList(fixture('kube-masters.list'))).toEqual({
      value: ['master-0.ocp.example.com', 'master-1.ocp.example.com', 'master-2.ocp.example.com'],
      problems: [],
    });
    expect(parseNameList(fixture('kube-nodes.list')).value).toHaveLength(4);
  });

  it('handles CRLF, blanks, duplicates and addresses', () => {
    expect(parseNameList('master-0\r\n\r\n  master-1  \nmaster-0\n10.0.0.5\nfd00:1101::5\n').value).toEqual([
      'master-0',
      'master-1',
      '10.0.0.5',
      'fd00:1101::5',
    ]);
    expect(parseNameList('')).toEqual({ value: [], problems: [] });
  });

  it('leaves out lines that are not names and reports them', () => {
    const text =
      'master-0\n' +
      'The connection to the server localhost:6443 was refused - did you specify the right host or port?\n' +
      '<html>oops</html>\n';
    expect(parseNameList(text)).toEqual({
      value: ['master-0'],
      problems: [
        {
          kind: 'api-unavailable',
          message: 'The connection to the server localhost:6443 was refused - did you specify the right host or port?',
          line: 2,
        },
        { kind: 'unparseable', message: '<html>oops</html>', line: 3 },
      ],
    });
  });
});
