import { describe, expect, it } from 'vitest';
import { klogHeader, logfmtTimeField, parseLogLine } from '../../src/parsers/log-line.js';

const REF = Date.UTC(2026, 10, 22, 11, 18);

describe('parseLogLine', () => {
  it('reads klog, logfmt, JSON, monotonic and ISO-prefixed lines', () => {
    expect(parseLogLine('E1122 10:15:20.001122    2519 kubelet_node_status.go:96] "Unable to register node"', 1, REF)).toMatchObject({
      format: 'klog',
      level: 'error',
      time: Date.UTC(2026, 10, 22, 10, 15, 20, 1),
      text: '"Unable to register node"',
    });
    expect(parseLogLine('time="2026-11-22T10:20:01Z" level=fatal msg="validating \\"network\\" config"', 2, REF)).toMatchObject({
      format: 'logfmt',
      level: 'fatal',
      time: Date.UTC(2026, 10, 22, 10, 20, 1),
      text: 'validating "network" config',
    });
    expect(parseLogLine('{"level":"warn","ts":"2026-11-22T10:15:40.100Z","msg":"slow fdatasync"}', 3, REF)).toMatchObject({ format: 'json', level: 'warning', text: 'slow fdatasync' });
    expect(parseLogLine('[  591.204871] ignition[812]: GET error', 4, REF)).toMatchObject({ format: 'plain', monotonic: 591.204871, text: 'ignition[812]: GET error' });
    expect(parseLogLine('2026-11-22T10:15:04Z starting', 5, REF)).toMatchObject({ format: 'plain', time: Date.UTC(2026, 10, 22, 10, 15, 4), text: 'starting' });
    expect(parseLogLine('just text', 6, REF)).toEqual({ line: 6, text: 'just text', format: 'plain' });
  });
});

describe('line headers', () => {
  it('finds klog’s header and where its message starts', () => {
    const raw = 'W1122 10:15:20.5 1 x.go:1] msg';
    expect(klogHeader(raw)).toMatchObject({ level: 'W', month: 11, day: 22, hour: 10, second: 20, fraction: '5' });
    expect(raw.slice(klogHeader(raw)?.length)).toBe('msg');
    expect(klogHeader('Error: x')).toBeUndefined();
  });

  it('finds logfmt’s leading time field', () => {
    const raw = 'time="2026-11-22T10:20:01Z" level=info msg=x';
    expect(logfmtTimeField(raw)).toEqual({ value: '2026-11-22T10:20:01Z', end: 27 });
    expect(logfmtTimeField('level=info time="x"')).toBeUndefined();
  });
});
