import { describe, expect, it } from 'vitest';
import { embeddingText, ERROR_LITERALS, errorWeight, lineTemplate, maskMessage, splitLine, wordsOf } from '../../src/similarity/tokens.js';

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

describe('words and error weight', () => {
  it('reduces a template to its words for matching', () => {
    expect(wordsOf('Error: initializing source docker://<HOST>/<*>: unauthorized: authentication required')).toEqual([
      'error',
      'initializing',
      'source',
      'docker',
      'unauthorized',
      'authentication',
      'required',
    ]);
    expect(embeddingText('level=error msg="x509: certificate signed by unknown authority"')).toBe('error x509 certificate signed unknown authority');
  });

  it('weighs stated levels, error words and retry loops', () => {
    expect(errorWeight('anything', 'error')).toBe(1);
    expect(errorWeight('connection refused', undefined)).toBe(0.75);
    expect(errorWeight('Trying again to restore CVO overrides', undefined)).toBe(0.55);
    expect(errorWeight('Waiting for etcd cluster...', 'info')).toBe(0);
  });
});

describe('ERROR_LITERALS', () => {
  // One phrase per alternative of the error and retry words; each in three spellings.
  const phrases = [
    'error', 'errors', 'failed', 'fails', 'failure', 'failing', 'fail to start', 'fatal', 'panic', 'refused', 'timed out', 'timeout', 'time out',
    'deadline exceeded', 'denied', 'unauthorized', 'unauthorised', 'forbidden', 'unable', 'cannot', "can't", 'could not', "couldn't",
    'invalid', 'x509: bad', 'no such host', 'not found', 'unknown authority', 'unreachable', 'no route', 'out of memory', 'killed',
    'exceeded', 'degraded', 'no space', 'mismatch', 'expired', 'not yet valid', 'reset by peer', 'crashloop', 'back-off', 'backoff',
    'rejected', 'unhealthy', 'not ready', 'missing', 'broken', 'abort', 'aborted', 'corrupt', 'corrupted', 'misbehaving', 'i/o timeout',
    'took too long', 'too long', 'slow disk', 'retry', 'retrying', 'retries', 'trying again', 'try again', 'still waiting', 'giving up',
    'gave up', 'reattempt', 're-attempt', 'reattempting',
  ];
  it('are all long enough for the scan to skip well', () => {
    for (const l of ERROR_LITERALS) expect(Buffer.byteLength(l), l).toBeGreaterThanOrEqual(5);
  });
  it('catch every line whose template reads like a failure', () => {
    for (const p of phrases) {
      for (const spelled of [p, p[0].toUpperCase() + p.slice(1), p.toUpperCase()]) {
        const line = `Nov 22 10:15:04 host bootkube.sh[1]: step ${spelled} now`;
        expect(errorWeight(lineTemplate(line).template, undefined), spelled).toBeGreaterThanOrEqual(0.5);
        expect(ERROR_LITERALS.some((l) => line.includes(l)), spelled).toBe(true);
      }
    }
    // Stated levels: JSON, logfmt, klog with its err= field.
    for (const line of ['{"level":"error","msg":"x"}', 'time="t" level=fatal msg="x"', 'E1122 10:00:00.1 1 a.go:1] "x" err="y"', 'level=crit msg=x']) {
      expect(ERROR_LITERALS.some((l) => line.includes(l)), line).toBe(true);
    }
  });
});
