import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseStaticPods } from '../../src/parsers/static-pod.js';

const fixture = (name: string): string =>
  readFileSync(new URL(`../fixtures/parsers/${name}`, import.meta.url), 'utf8');

const ETCD_FILE = 'log-bundle-20261122111800/rendered-assets/openshift/etcd-bootstrap/bootstrap-manifests/etcd-member-pod.yaml';
const KAS_FILE = 'log-bundle-20261122111800/rendered-assets/openshift/kube-apiserver-bootstrap/bootstrap-manifests/kube-apiserver-pod.yaml';
const ETCD_IMAGE = 'quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:5c1b7d3f8a9e2d4c6b0a1f3e5d7c9b2a4f6e8d0c1b3a5f7e9d2c4b6a8f0e1d3c';

describe('parseStaticPods', () => {
  it('reads the rendered bootstrap etcd member pod', () => {
    const { value, problems } = parseStaticPods(fixture('static-pod-etcd-member.yaml'), { file: ETCD_FILE });
    expect(problems).toEqual([]);
    expect(value).toHaveLength(1);
    const pod = value[0];
    expect(pod.source).toEqual({ file: ETCD_FILE, line: 1 });
    expect(pod.name).toBe('etcd-bootstrap-member');
    expect(pod.namespace).toBe('openshift-etcd');
    expect(pod.hostNetwork).toBe(true);
    expect(pod.initContainers).toHaveLength(1);
    expect(pod.initContainers[0].name).toBe('setup');
    expect(pod.initContainers[0].command.slice(0, 2)).toEqual(['/bin/sh', '-c']);
    expect(pod.containers.map((c) => c.name)).toEqual(['etcdctl', 'etcd-member']);
    expect(pod.containers[0]).toEqual({
      name: 'etcdctl',
      image: ETCD_IMAGE,
      command: ['/bin/bash', '-c', 'trap TERM INT; sleep infinity & wait'],
      args: [],
    });
    const script = pod.containers[1].command[2];
    expect(script).toContain('--advertise-client-urls=https://10.0.0.4:2379');
    expect(script.startsWith('#!/bin/sh\nset -euo pipefail\n')).toBe(true);
    expect(pod.hostPaths).toEqual([
      { name: 'certs', path: '/etc/kubernetes/static-pod-resources/etcd-member' },
      { name: 'kubeconfig', path: '/etc/kubernetes/kubeconfig' },
      { name: 'data-dir', path: '/var/lib/etcd' },
      { name: 'log-dir', path: '/var/log/etcd' },
    ]);
  });

  it('keeps no env, mounts, probes or annotations', () => {
    const { value } = parseStaticPods(fixture('static-pod-etcd-member.yaml'), { file: ETCD_FILE });
    const json = JSON.stringify(value);
    expect(json).not.toContain('ETCD_INITIAL_CLUSTER');
    expect(json).not.toContain('ETCDCTL_CERT');
    expect(json).not.toContain('mountPath');
    expect(Object.keys(value[0].containers[0]).sort()).toEqual(['args', 'command', 'image', 'name']);
  });

  it('reads the bootstrap kube-apiserver pod with flow-style commands and folded args', () => {
    const { value, problems } = parseStaticPods(fixture('static-pod-kube-apiserver.yaml'), { file: KAS_FILE });
    expect(problems).toEqual([]);
    const [pod] = value;
    expect(pod.name).toBe('bootstrap-kube-apiserver');
    expect(pod.namespace).toBe('openshift-kube-apiserver');
    expect(pod.initContainers[0].command).toEqual(['/bin/bash', '-ec']);
    expect(pod.containers[0].command).toEqual(['/bin/bash', '-ec']);
    expect(pod.containers[0].args).toEqual([
      'hyperkube kube-apiserver --openshift-config=/etc/kubernetes/config/config.yaml --v=2 --advertise-address=${HOST_IP}\n',
    ]);
    expect(pod.containers[1]).toMatchObject({
      name: 'kube-apiserver-insecure-readyz',
      command: ['cluster-kube-apiserver-operator', 'insecure-readyz'],
      args: ['--insecure-port=6080', '--delegate-url=https://localhost:6443/readyz'],
    });
    // hostPath before name in the volume entries; emptyDir is not a host path.
    expect(pod.hostPaths.map((h) => h.name)).toEqual(['secrets', 'etc-kubernetes-cloud', 'config', 'ssl-certs-host', 'logs', 'audit-dir']);
    expect(pod.hostPaths[2]).toEqual({ name: 'config', path: '/etc/kubernetes/bootstrap-configs' });
  });

  it('reads every Pod of a multi-document file, ignores other kinds, and gives each its line', () => {
    const text = [
      '# rendered by bootkube',
      '---',
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata: {name: etcd-scripts}',
      'data: {a: b}',
      '---',
      'apiVersion: v1',
      'kind: Pod',
      'metadata:',
      '  name: bootstrap-kube-scheduler',
      'spec:',
      '  containers:',
      '  - name: kube-scheduler',
      '    image: quay.io/x/y:1',
      '    args: [--v=2, 10, true]',
      '...',
      '--- # second pod',
      'kind: Pod',
      'metadata: {name: bootstrap-cluster-version-operator, namespace: openshift-cluster-version}',
      'spec: {containers: [{name: cluster-version-operator, image: quay.io/x/cvo}]}',
    ].join('\n');
    const { value, problems } = parseStaticPods(text, { file: 'm.yaml' });
    expect(problems).toEqual([]);
    expect(value.map((p) => [p.name, p.source.line])).toEqual([
      ['bootstrap-kube-scheduler', 8],
      ['bootstrap-cluster-version-operator', 19],
    ]);
    expect(value[0].containers[0].args).toEqual(['--v=2', '10', 'true']);
    expect(value[0].namespace).toBeUndefined();
    expect(value[0].hostNetwork).toBe(false);
    expect(value[0].hostPaths).toEqual([]);
    expect(value[0].initContainers).toEqual([]);
    expect(value[1].namespace).toBe('openshift-cluster-version');
  });

  it('keeps the good documents when one is broken, and reports the broken one at its line', () => {
    const text = [
      'kind: Pod',
      'metadata: {name: good-one}',
      '---',
      'kind: Pod',
      'metadata:',
      '  name: broken',
      ' bad-indent: [',
      '---',
      'kind: Pod',
      'metadata: {name: good-two}',
    ].join('\n');
    const { value, problems } = parseStaticPods(text, { file: 'm.yaml' });
    expect(value.map((p) => p.name)).toEqual(['good-one', 'good-two']);
    expect(problems).toEqual([{ kind: 'unparseable', message: 'invalid YAML: bad indentation of a mapping entry', line: 7 }]);
  });

  it('reads CRLF files', () => {
    const text = 'kind: Pod\r\nmetadata:\r\n  name: p\r\nspec:\r\n  hostNetwork: true\r\n  containers:\r\n  - name: c\r\n    command: ["/bin/true"]\r\n';
    const { value, problems } = parseStaticPods(text, { file: 'm.yaml' });
    expect(problems).toEqual([]);
    expect(value).toEqual([
      {
        source: { file: 'm.yaml', line: 1 },
        name: 'p',
        containers: [{ name: 'c', command: ['/bin/true'], args: [] }],
        initContainers: [],
        hostPaths: [],
        hostNetwork: true,
      },
    ]);
  });

  it('refuses YAML tags that the safe schema does not know', () => {
    const { value, problems } = parseStaticPods('kind: Pod\nmetadata: {name: !!js/function "function () {}"}\n', { file: 'm.yaml' });
    expect(value).toEqual([]);
    expect(problems).toEqual([{ kind: 'unparseable', message: 'invalid YAML: unknown tag !<tag:yaml.org,2002:js/function>', line: 2 }]);
  });

  it('reports an empty file, and ignores a file of non-Pod documents without a problem', () => {
    expect(parseStaticPods('', { file: 'm.yaml' })).toEqual({ value: [], problems: [{ kind: 'empty', message: 'manifest file is empty' }] });
    expect(parseStaticPods('apiVersion: v1\nkind: Service\nmetadata: {name: s}\n', { file: 's.yaml' })).toEqual({ value: [], problems: [] });
    expect(parseStaticPods('just a string', { file: 's.yaml' })).toEqual({ value: [], problems: [] });
  });

  it('keeps a Pod without a name but reports it', () => {
    const { value, problems } = parseStaticPods('kind: Pod\nspec: {containers: [{image: x}]}\n', { file: 'm.yaml' });
    expect(value[0].name).toBe('');
    expect(value[0].containers).toEqual([{ name: '', image: 'x', command: [], args: [] }]);
    expect(problems).toEqual([{ kind: 'unparseable', message: 'Pod without metadata.name', line: 1 }]);
  });
});
