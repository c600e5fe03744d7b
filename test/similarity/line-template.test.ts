import { describe, expect, it } from 'vitest';
import { lineTemplate, looksLikeJournal, maskMessage, splitLine, templateOf } from '../../src/similarity/line-template.js';

describe('splitLine', () => {
  it('removes the journal header and the klog header, keeping host and level', () => {
    const m = splitLine(
      'Nov 22 10:15:20 master-0.ocp4.example.com kubelet.sh[2519]: E1122 10:15:20.001122    2519 kubelet_node_status.go:96] "Unable to register node with API server"',
      true,
    );
    expect(m).toEqual({ message: '"Unable to register node with API server"', host: 'master-0.ocp4.example.com', level: 'error' });
  });

  it('reads logfmt and etcd JSON levels', () => {
    expect(splitLine('Nov 22 10:20:01 h crio[1490]: time="2026-11-22 10:20:01.000000000Z" level=fatal msg="validating network config"', true)).toMatchObject({
      message: 'level=fatal msg="validating network config"',
      level: 'error',
    });
    expect(splitLine('{"level":"warn","ts":"2026-11-22T10:15:40.100Z","msg":"slow fdatasync"}', false).level).toBe('warning');
  });

  it('keeps continuation lines whole', () => {
    expect(splitLine('      "error":"rpc error: code = DeadlineExceeded"}', true).message).toBe('"error":"rpc error: code = DeadlineExceeded"}');
  });
});

describe('maskMessage', () => {
  it('masks addresses, ports, hosts, times, digests, ids and paths but keeps URL paths', () => {
    expect(maskMessage('Post "https://api-int.ocp4.example.com:6443/api/v1/nodes": dial tcp 10.0.0.5:6443: connect: connection refused')).toBe(
      'Post "https://<HOST>/api/v1/nodes": dial tcp <IP>: connect: connection refused',
    );
    expect(maskMessage('Pulling quay.io/openshift-release-dev/ocp-release@sha256:3333333333333333333333333333333333333333333333333333333333333333...')).toBe(
      'Pulling <IMAGE>...',
    );
    expect(maskMessage('ts=2026-11-22T10:16:01.120Z pod 8b7c4d2e-5f6a-47b1-a9c3-d2e1f0a9b8c7 at /var/lib/etcd/member/wal took 1.2s')).toBe(
      'ts=<TIME> pod <UUID> at <PATH> took <NUM>',
    );
    expect(maskMessage('lookup api-int.c1.example.local on [::1]:53: no such host')).toBe('lookup <HOST> on [<IP>]:<NUM>: no such host');
  });

  it('keeps words with a few digits (x509, ocp4, v1beta1) and masks numbers inside identifiers', () => {
    expect(maskMessage('x509: certificate v1beta1 master-0 kubelet.go:2076')).toBe('x509: certificate v1beta1 master-<NUM> kubelet.go:<NUM>');
  });

  it('gives the same template for the same failure on other hosts and times', () => {
    const a = lineTemplate('Nov 22 10:15:20 master-0.a.example.com kubelet.sh[2519]: E1122 10:15:20.001122 2519 x.go:96] dial tcp 10.0.0.5:6443: i/o timeout');
    const b = lineTemplate('Dec 01 03:01:09 master-2.b.example.org kubelet.sh[1711]: E1201 03:01:09.000001 1711 x.go:96] dial tcp 192.168.4.7:6443: i/o timeout');
    expect(a.template).toBe(b.template);
  });
});

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
  it('masks images, uuids, numbers and paths', () => {
    expect(templateOf(`pulling quay.io/x@sha256:${'a'.repeat(64)} into /var/lib/containers/storage took 12.5s for 3f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0`)).toBe(
      'pulling <IMAGE> into <PATH> took <NUM> for <UUID>',
    );
  });

  it('is the template similarity gives the same line', () => {
    const line = 'Nov 22 10:13:50 bootstrap release-image-download.sh[1980]: Error: initializing source docker://quay.io/openshift-release-dev/ocp-release@sha256:aa: unauthorized';
    expect(templateOf(line)).toBe(lineTemplate(line, true).template);
    expect(templateOf(line)).toBe('Error: initializing source docker://<HOST>/openshift-release-dev/<*>: unauthorized');
  });
});

describe('looksLikeJournal', () => {
  it('needs a time, a host and an identifier, as the journal parser reads them', () => {
    expect(looksLikeJournal('Nov 22 10:15:04 bootstrap bootkube.sh[2507]: Waiting for etcd')).toBe(true);
    expect(looksLikeJournal('2026-11-22T10:15:04+0000 bootstrap kubelet[1]: x')).toBe(true);
    // An ISO time and a word start plain logs too.
    expect(looksLikeJournal('2026-11-22T10:15:04Z error: something broke')).toBe(false);
    // A serial console line has no host: the same template as the miner gives it in its log.
    const serial = '[    6.210014] ignition[706]: GET error: Get https://api-int.example.com:22623/config/master: EOF';
    expect(looksLikeJournal(serial)).toBe(false);
    expect(lineTemplate(serial).template).toBe(lineTemplate(serial, false).template);
  });
});
