// The source registry is the one list of what a bundle holds: every row's files classify back to
// it, the paths the gather scripts write land on the rows that read them, and the rule schema
// names exactly the sources the registry lets rules read.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUNDLE_SOURCES, LOG_NAMES, RESOURCE_ROWS, RULE_ROWS } from '../../src/specs/bundle-sources.js';
import { classifyPath, madeUpId, pathFor } from '../../src/specs/layout.js';

const B = 'log-bundle-20261122111800';
const ID = 'a3f0c2d4e5b6a7980112233445566778899aabbccddeeff00112233445566778';

describe('the source registry', () => {
  it('names every row once', () => {
    const ids = BUNDLE_SOURCES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("classifies the file it writes for each row back to that row, on the bootstrap host and on a master", () => {
    const names = { unit: 'kubelet', service: 'bootkube', name: 'etcd', id: madeUpId('etcd'), console: 'master-0', runtime: 'cri-o' };
    for (const row of BUNDLE_SOURCES) {
      const hosts = row.hostScoped ? [{ role: 'bootstrap' as const }, { role: 'master' as const, address: '10.0.0.5' }] : [undefined];
      for (const host of hosts) {
        const path = pathFor(row, names, host);
        const cls = classifyPath(`${B}/${path}`);
        expect(cls.row?.id, path).toBe(row.id);
        if (host) expect(cls.spec?.host, path).toEqual(host);
      }
    }
  });

  it('reads the files installer-gather.sh and installer-masters-gather.sh write with the rows that parse them', () => {
    // Paths as the scripts write them (`openshift/installer`: data/data/bootstrap/files/usr/local/bin/).
    const written: [string, string][] = [
      ['gather.log', 'gather-log'],
      ['failed-units.txt', 'failed-units'],
      ['unit-status/bootkube.service.txt', 'unit-status'],
      ['unit-status/bootkube.service.log', 'unit-status-journal'],
      ['bootstrap/services/bootkube.json', 'service-record'],
      ['bootstrap/journals/release-image.log', 'journal'],
      ['bootstrap/network/ip-addr.txt', 'network.ip-addr'],
      ['bootstrap/network/ip-route.txt', 'network.ip-route'],
      ['bootstrap/network/hostname.txt', 'network.hostname'],
      ['bootstrap/network/resolv.conf', 'network.resolv.conf'],
      [`bootstrap/containers/etcd-${ID}.log`, 'container-log'],
      [`bootstrap/containers/etcd-${ID}.inspect`, 'container-inspect'],
      ['bootstrap/containers/bootstrap-control-plane/kube-apiserver.log', 'control-plane-log'],
      [`bootstrap/pods/${ID.slice(0, 12)}.log`, 'container-log'],
      [`bootstrap/pods/${ID.slice(0, 12)}.inspect`, 'container-inspect'],
      ['rendered-assets/openshift/etcd-bootstrap/bootstrap-manifests/etcd-member-pod.yaml', 'rendered-manifest'],
      ['rendered-assets/openshift/tls/root-ca.crt', 'rendered-certificate'],
      ['resources/nodes.list', 'resource-list.nodes'],
      ['resources/masters.list', 'resource-list.masters'],
      ['resources/clusteroperators.json', 'resource.clusteroperators'],
      ['resources/csr.json', 'resource.csrs'],
      ['resources/configmaps.json', 'resource-other'],
      ['control-plane/10.0.0.5/failed-units.txt', 'failed-units'],
      ['control-plane/10.0.0.5/unit-status/kubelet.service.txt', 'unit-status'],
      ['control-plane/10.0.0.5/journals/machine-config-daemon-host.log', 'journal'],
      ['control-plane/10.0.0.5/network/resolv.conf', 'network.resolv.conf'],
      [`control-plane/10.0.0.5/containers/ovnkube-node-${ID}.log`, 'container-log'],
      [`control-plane/10.0.0.5/containers/keepalived-${ID.slice(0, 12)}.inspect`, 'container-inspect'],
    ];
    for (const [path, row] of written) expect(classifyPath(`${B}/${path}`).row?.id, path).toBe(row);
  });
});

describe('line forms', () => {
  it("write a condition as `name Type=Status Reason: message`, closing the colon when the reason is empty", () => {
    const row = RESOURCE_ROWS.find((r) => r.rule.values[0] === 'clusteroperators');
    const op = (reason: string | undefined) => ({ source: { file: 'resources/clusteroperators.json' }, name: 'network', versions: [], conditions: [{ type: 'Degraded', status: 'True', reason, message: 'x' }] });
    const text = (reason: string | undefined): string | undefined => row?.rule.instance?.([op(reason)], { value: 'clusteroperators' }).lines?.[0]?.text;
    expect(text('RolloutHung')).toBe('network Degraded=True RolloutHung: x');
    expect(text(undefined)).toBe('network Degraded=True: x');
    // A reason of a million spaces is read in one pass.
    expect(text(' '.repeat(1_000_000))).toBe('network Degraded=True: x');
  });
});

describe('the rule schema', () => {
  const schema = JSON.parse(readFileSync(join(resolve(import.meta.dirname, '..', '..'), 'schema', 'rule.schema.json'), 'utf8')) as {
    definitions: {
      source: { properties: Record<string, { enum?: string[] }> };
      example: { properties: { source: { enum: string[] }; resource: { enum: string[] } } };
    };
  };
  // What a YAML rule can read: streamed logs (as their filters' matches) and rows with a line form.
  const readable = RULE_ROWS.filter((r) => r.read === 'stream' || r.rule.instance !== undefined);
  const lineResources = readable.filter((r) => r.rule.key === 'resource').flatMap((r) => r.rule.values ?? []);

  it('names the sources a YAML rule can read, and no other', () => {
    const keys = Object.keys(schema.definitions.source.properties).filter((k) => k !== 'host' && k !== 'stage');
    expect(keys.sort()).toEqual([...new Set(readable.map((r) => r.rule.key))].sort());
    expect(schema.definitions.source.properties.log.enum).toEqual([...LOG_NAMES]);
    expect(schema.definitions.source.properties.resource.enum).toEqual(lineResources);
  });

  it('lets examples be written for exactly those sources', () => {
    const kinds = [...new Set(readable.map((r) => r.rule.key))].flatMap((k) => (k === 'log' ? [...LOG_NAMES] : [k]));
    expect([...schema.definitions.example.properties.source.enum].sort()).toEqual(kinds.sort());
    expect(schema.definitions.example.properties.resource.enum).toEqual(lineResources);
  });
});
