import { describe, expect, it } from 'vitest';
import { lineTemplate } from '../../src/similarity/line-template.js';
import { embeddingText, ERROR_LITERALS, errorWeight, wordsOf } from '../../src/similarity/tokens.js';
import { emptyHits, LiteralSearch } from '../../src/text/literal-search.js';

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

describe('the one literal scan with the error words', () => {
  it('finds exactly the lines holding an error word or a rule literal, with their groups', () => {
    // Words that end like the error words (same last two or three bytes) and the words themselves.
    const words = ['called', 'failed', 'Failed', 'enabled', 'for', 'error', 'Error', 'mirror', 'attempt', 'tempt', 'timeout', 'layout',
      'not ready', 'already', 'unable', 'table', 'retry', 'entry', 'x509:', 'x509', 'denied', 'killed', 'skilled', 'crashloop', 'loop',
      'NetworkPluginNotReady', 'Ready', 'etcdserver: request timed out', 'timed', 'is unhealthy', 'healthy', '月', 'ünable'];
    const rules = ['NetworkPluginNotReady', 'etcdserver: request timed out', 'is unhealthy', 'x509: '];
    const search = new LiteralSearch([
      ...rules.map((text) => ({ text, groups: 2 })),
      ...ERROR_LITERALS.map((text) => ({ text, groups: 4 })),
    ]);
    let seed = 17;
    const next = (n: number): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    const lines: string[] = [];
    for (let i = 0; i < 3000; i++) {
      const n = 1 + next(8);
      lines.push(Array.from({ length: n }, () => words[next(words.length)]).join(next(3) === 0 ? '' : ' '));
    }
    const buf = Buffer.from(lines.join('\n') + '\n');
    const hits = emptyHits();
    search.scan(buf, 0, buf.length, hits);
    // Which line each hit falls in, and its groups, against includes() line by line.
    const starts: number[] = [];
    for (let at = 0, i = 0; i < lines.length; i++) {
      starts.push(at);
      at += Buffer.byteLength(lines[i]) + 1;
    }
    const found = new Map<number, number>();
    let li = 0;
    hits.positions.forEach((p, k) => {
      while (li + 1 < starts.length && starts[li + 1] <= p) li++;
      found.set(li, (found.get(li) ?? 0) | hits.found[k].groups);
    });
    const expected = new Map<number, number>();
    lines.forEach((l, i) => {
      const g = (rules.some((r) => l.includes(r)) ? 2 : 0) | (ERROR_LITERALS.some((e) => l.includes(e)) ? 4 : 0);
      if (g !== 0) expected.set(i, g);
    });
    expect(expected.size).toBeGreaterThan(1000);
    expect(expected.size).toBeLessThan(lines.length);
    expect([...found].sort((a, b) => a[0] - b[0])).toEqual([...expected].sort((a, b) => a[0] - b[0]));
  });
});
