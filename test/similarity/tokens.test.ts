import { describe, expect, it } from 'vitest';
import { lineTemplate } from '../../src/similarity/line-template.js';
import { embeddingText, ERROR_LITERALS, errorWeight, wordsOf } from '../../src/similarity/tokens.js';

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
