import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JournalCollector } from '../../src/ingest/journal-collector.js';
import { ActiveFilters, type LineFilter } from '../../src/ingest/line-filter.js';
import { DEFAULT_LOG_LIMITS, LogCollector, plainLineParser, type LogLimits } from '../../src/ingest/log-collector.js';
import { LogStream } from '../../src/ingest/log-stream.js';
import type { SourceId } from '../../src/model/source-id.js';

const REF = Date.UTC(2026, 10, 22, 11, 18);

const JOURNAL = [
  '-- Logs begin at Sun 2026-11-22 10:12:00 UTC, end at Sun 2026-11-22 11:18:00 UTC. --',
  'Nov 22 10:14:58 bootstrap.ocp4.example.com systemd[1]: Started Bootstrap a Kubernetes cluster.',
  'Nov 22 10:15:04 bootstrap.ocp4.example.com bootkube.sh[2507]: Waiting for etcd cluster...',
  'Nov 22 10:16:01 bootstrap.ocp4.example.com bootkube.sh[2507]: {"level":"warn","msg":"retrying of unary invoker failed",',
  '                                                  "error":"rpc error: code = DeadlineExceeded desc = context deadline exceeded"}',
  '-- Boot 0f1e2d3c4b5a69788796a5b4c3d2e1f0 --',
  'Nov 22 11:16:01 bootstrap.ocp4.example.com bootkube.sh[2507]: etcdctl failed. Retrying in 5 seconds...',
  'Nov 22 11:16:02 bootstrap.ocp4.example.com systemd[1]: bootkube.service: Main process exited, code=exited, status=1/FAILURE',
  "Nov 22 11:16:02 bootstrap.ocp4.example.com systemd[1]: bootkube.service: Failed with result 'exit-code'.",
].join('\n');

const deadline: LineFilter = {
  id: 'deadline',
  appliesTo: (t) => t.unit === 'bootkube',
  literals: ['DeadlineExceeded', 'deadline exceeded'],
  pattern: /context deadline exceeded/,
};
const BOOTKUBE: SourceId = { kind: 'journal', host: { role: 'bootstrap' }, unit: 'bootkube' };
const etcdctl: LineFilter = { id: 'etcdctl', appliesTo: (s) => s.kind === 'journal', literals: ['etcdctl failed'] };
const other: LineFilter = { id: 'kubelet-only', appliesTo: (s) => s.unit === 'kubelet', literals: ['etcdctl'] };

function collect(text: string, limits: Partial<LogLimits> = {}, chunk = 7, everyLine = false) {
  const filters = new ActiveFilters([deadline, etcdctl, other], BOOTKUBE);
  const c = new JournalCollector({ file: 'b/journals/bootkube.log' }, BOOTKUBE, filters, { ...DEFAULT_LOG_LIMITS, ...limits }, REF);
  // An observer of every line makes the scanner hand over all lines: the reference reading.
  const s = new LogStream(c, 4096, everyLine ? [() => undefined] : []);
  const bytes = Buffer.from(text);
  for (let i = 0; i < bytes.length; i += chunk) s.push(bytes.subarray(i, i + chunk));
  s.end();
  return c.journal();
}

describe('JournalCollector', () => {
  it('summarises a journal: counts, time range, boots, hostnames, systemd lines', () => {
    const j = collect(JOURNAL);
    expect(j.unit).toBe('bootkube');
    expect(j.lineCount).toBe(9);
    expect(j.bytes).toBe(Buffer.byteLength(JOURNAL));
    expect(j.firstTime).toBe(Date.UTC(2026, 10, 22, 10, 14, 58));
    expect(j.lastTime).toBe(Date.UTC(2026, 10, 22, 11, 16, 2));
    expect(j.boots).toEqual([{ line: 6, id: '0f1e2d3c4b5a69788796a5b4c3d2e1f0' }]);
    expect(j.hostnames).toEqual(['bootstrap.ocp4.example.com']);
    expect(j.noEntries).toBe(false);
    expect(j.systemdLines.map((l) => [l.line, l.text])).toEqual([
      [2, 'Started Bootstrap a Kubernetes cluster.'],
      [8, 'bootkube.service: Main process exited, code=exited, status=1/FAILURE'],
      [9, "bootkube.service: Failed with result 'exit-code'."],
    ]);
  });

  it('keeps matched lines with their filter ids; a continuation line is dated by its entry', () => {
    const j = collect(JOURNAL);
    expect(j.matched.map((m) => [m.entry.line, m.filterIds])).toEqual([
      [5, ['deadline']],
      [7, ['etcdctl']],
    ]);
    const cont = j.matched[0].entry;
    expect(cont.time).toBe(Date.UTC(2026, 10, 22, 10, 16, 1));
    expect(cont.identifier).toBe('bootkube.sh');
    expect(cont.pid).toBe(2507);
    expect(cont.text).toContain('context deadline exceeded');
    expect(j.matched[1].entry.boot).toBe(0);
  });

  it('keeps two lines of context around each match', () => {
    const j = collect(JOURNAL);
    const lines = JOURNAL.split('\n');
    expect(j.matched[1].before).toEqual([lines[4], lines[5]]);
    expect(j.matched[1].after).toEqual([lines[7], lines[8]]);
    expect(j.matched[0].after).toEqual([lines[5], lines[6]]);
  });

  it('folds continuation lines into their entry in the tail and skips markers', () => {
    const j = collect(JOURNAL);
    expect(j.tail.map((l) => l.line)).toEqual([2, 3, 4, 7, 8, 9]);
    expect(j.tail[2].continuation).toEqual(['"error":"rpc error: code = DeadlineExceeded desc = context deadline exceeded"}']);
    expect(j.head[0].line).toBe(2);
  });

  it('bounds the tail and the matches, counting what it dropped', () => {
    const many = Array.from({ length: 500 }, (_, i) => `Nov 22 10:${String(Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')} h bootkube.sh[1]: etcdctl failed. Retrying in 5 seconds... ${i}`).join('\n');
    const j = collect(many, { tailLines: 10, matchedLines: 50, headLines: 3 });
    expect(j.lineCount).toBe(500);
    expect(j.head).toHaveLength(3);
    expect(j.tail.map((l) => l.line)).toEqual([491, 492, 493, 494, 495, 496, 497, 498, 499, 500]);
    expect(j.matched).toHaveLength(50);
    expect(j.matchedDropped).toBe(450);
    expect(j.lastTime).toBe(Date.UTC(2026, 10, 22, 10, 8, 19));
  });

  it('keeps the same summary whether it passes over lines or reads them all (property)', () => {
    const entries = [
      'Nov 22 10:16:01 bootstrap.ocp4.example.com bootkube.sh[2507]: Waiting for etcd cluster...',
      'Nov 22 10:16:02 bootstrap.ocp4.example.com bootkube.sh[2507]: etcdctl failed. Retrying in 5 seconds...',
      'Nov 22 10:16:03 bootstrap.ocp4.example.com bootkube.sh[2507]: {"level":"warn","msg":"retrying",',
      '                                                  "error":"context deadline exceeded"}',
      '    more continuation',
      'Nov 22 10:16:04 bootstrap.ocp4.example.com systemd[1]: bootkube.service: Failed.',
      '-- Boot 0f1e2d3c4b5a69788796a5b4c3d2e1f0 --',
      'Nov 22 10:16:05 master-0 bootkube.sh[2507]: plain line',
      'x'.repeat(5000),
    ];
    fc.assert(
      fc.property(
        fc.array(fc.nat(entries.length - 1), { maxLength: 120 }),
        fc.integer({ min: 1, max: 300 }),
        fc.record({
          tailLines: fc.integer({ min: 0, max: 12 }),
          headLines: fc.integer({ min: 0, max: 5 }),
          contextLines: fc.integer({ min: 0, max: 3 }),
          matchedLines: fc.integer({ min: 0, max: 4 }),
        }),
        (picks, chunk, limits) => {
          const text = picks.map((i) => entries[i]).join('\n');
          const { hostnames: _h1, ...passed } = collect(text, limits, chunk);
          const { hostnames: _h2, ...all } = collect(text, limits, chunk, true);
          expect(passed).toEqual(all);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('recognises an empty unit', () => {
    const j = collect('-- No entries --\n');
    expect(j.noEntries).toBe(true);
    expect(j.lineCount).toBe(1);
    expect(j.head).toEqual([]);
    expect(j.tail).toEqual([]);
    expect(j.firstTime).toBeUndefined();
  });
});

describe('LogCollector on container logs', () => {
  it('reads klog and etcd JSON lines with their times and levels', () => {
    const text = [
      '{"level":"info","ts":"2026-11-22T10:15:05.100Z","caller":"embed/etcd.go:124","msg":"configuring peer listeners"}',
      '{"level":"warn","ts":"2026-11-22T10:15:40.100Z","caller":"wal/wal.go:805","msg":"slow fdatasync","took":"1.2s"}',
      'I1122 10:16:00.000001       1 main.go:10] shutting down',
    ].join('\n');
    const filters = new ActiveFilters([{ id: 'slow', appliesTo: (s) => s.container === 'etcd', literals: ['slow fdatasync'] }], { kind: 'container', container: 'etcd' });
    const c = new LogCollector({ file: 'etcd.log' }, { kind: 'container', container: 'etcd' }, filters, DEFAULT_LOG_LIMITS, plainLineParser(REF));
    const s = new LogStream(c, 4096);
    s.push(Buffer.from(text));
    s.end();
    const sum = c.summary();
    expect(sum.format).toBe('json');
    expect(sum.firstTime).toBe(Date.UTC(2026, 10, 22, 10, 15, 5, 100));
    expect(sum.lastTime).toBe(Date.UTC(2026, 10, 22, 10, 16, 0));
    expect(sum.matched).toHaveLength(1);
    expect(sum.matched[0].entry).toMatchObject({ line: 2, text: 'slow fdatasync', level: 'warning' });
    expect(sum.tail[2]).toMatchObject({ text: 'shutting down', level: 'info' });
  });
});

describe('LogStream taps', () => {
  it('shows each tap only the lines holding its own literals, with their line numbers', () => {
    const filters = new ActiveFilters([], { kind: 'container', container: 'x' });
    const c = new LogCollector({ file: 'x.log' }, { kind: 'container', container: 'x' }, filters, { ...DEFAULT_LOG_LIMITS, headLines: 0 }, plainLineParser(REF));
    const seen: Record<string, [string, number][]> = { a: [], b: [], all: [] };
    const s = new LogStream(c, 4096, [
      { literals: ['alpha-x'], observe: (raw, n) => seen.a.push([raw, n]) },
      { literals: ['beta-yy'], observe: (raw, n) => seen.b.push([raw, n]) },
    ]);
    const text = Array.from({ length: 50 }, (_, i) => (i === 10 ? 'has alpha-x' : i === 30 ? 'has beta-yy and alpha-x' : `plain ${i}`)).join('\n');
    for (let i = 0; i < text.length; i += 64) s.push(Buffer.from(text.slice(i, i + 64)));
    s.end();
    expect(seen.a).toEqual([
      ['has alpha-x', 11],
      ['has beta-yy and alpha-x', 31],
    ]);
    expect(seen.b).toEqual([['has beta-yy and alpha-x', 31]]);
    expect(c.summary().lineCount).toBe(50);
  });
});
