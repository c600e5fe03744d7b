import { describe, expect, it } from 'vitest';
import { templateOf } from '../../src/text/template.js';

describe('templateOf', () => {
  it('gives the same template to one failure on different hosts, times and addresses', () => {
    const a = templateOf('Nov 22 10:15:20 master-0.ocp4.example.com kubelet.sh[2519]: E1122 10:15:20.001122    2519 kubelet_node_status.go:96] "Unable to register node with API server" err="Post \\"https://api-int.ocp4.example.com:6443/api/v1/nodes\\": dial tcp 10.0.0.5:6443: connect: connection refused"');
    const b = templateOf('Dec  3 04:01:59 ctrl-2.lab.local kubelet[1880]: E1203 04:01:59.998877    1880 kubelet_node_status.go:96] "Unable to register node with API server" err="Post \\"https://api-int.lab.local:6443/api/v1/nodes\\": dial tcp 192.168.50.12:6443: connect: connection refused"');
    expect(a).toBe(b);
    expect(a).toContain('Unable to register node with API server');
    expect(a).toContain('<IP>');
  });
  it('keeps different failures apart', () => {
    expect(templateOf('Nov 22 10:13:50 b podman[1980]: Error: unauthorized: authentication required')).not.toBe(
      templateOf('Nov 22 10:13:50 b podman[1980]: Error: manifest unknown: manifest unknown'),
    );
  });
  it('masks digests, uuids, numbers and paths', () => {
    expect(templateOf(`pulling quay.io/x@sha256:${'a'.repeat(64)} into /var/lib/containers/storage took 12.5s for 3f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0`)).toBe(
      'pulling <HOST>/x@<DIGEST> into <PATH> took <NUM> for <UUID>',
    );
  });
});
