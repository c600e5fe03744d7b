import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildServiceRuns, parseRecordTimestamp, parseServiceRecords } from '../../src/parsers/service-records.js';

const FILE = 'log-bundle-20261122111800/bootstrap/services/bootkube.json';
const src = { file: FILE };
const fixture = (name: string): string =>
  readFileSync(new URL(`../fixtures/parsers/${name}`, import.meta.url), 'utf8');

const T = (iso: string): number => Date.parse(iso);

describe('parseServiceRecords', () => {
  it('reads the jq-pretty-printed file of a restarted bootkube, entry by entry, with lines', () => {
    const { value, problems } = parseServiceRecords(fixture('service-bootkube-restarted.json'), src, 'bootkube');
    expect(problems).toEqual([]);
    expect(value.service).toBe('bootkube');
    expect(value.source).toEqual(src);
    expect(value.entries).toHaveLength(12);
    expect(value.entries.map((e) => e.source.line)).toEqual([2, 6, 11, 17, 22, 30, 37, 41, 46, 52, 57, 65]);
    expect(value.entries[0]).toEqual({ source: { file: FILE, line: 2 }, phase: 'service start', timestamp: T('2026-11-22T10:14:58Z') });
    expect(value.entries[4]).toMatchObject({
      phase: 'stage end',
      stage: 'etcd-bootstrap',
      result: 'failure',
      errorLine: '93 main /usr/local/bin/bootkube.sh',
    });
    expect(value.entries[4].errorMessage?.split('\n')).toHaveLength(2);
  });

  it('builds one run per service start and judges each run by its service end', () => {
    const { value } = parseServiceRecords(fixture('service-bootkube-restarted.json'), src, 'bootkube');
    expect(value.runs).toHaveLength(2);
    const [first, last] = value.runs;
    expect(first.start).toBe(T('2026-11-22T10:14:58Z'));
    expect(first.end).toBe(T('2026-11-22T10:15:40Z'));
    expect(first.result).toBe('failure');
    expect(first.source).toEqual({ file: FILE, line: 2 });
    expect(first.stages.map((s) => [s.name, s.result])).toEqual([
      ['cvo-bootstrap', 'success'],
      ['etcd-bootstrap', 'failure'],
    ]);
    expect(first.stages[0]).toEqual({
      name: 'cvo-bootstrap',
      start: T('2026-11-22T10:14:59Z'),
      end: T('2026-11-22T10:15:20Z'),
      result: 'success',
      source: { file: FILE, line: 11 },
    });

    expect(last.start).toBe(T('2026-11-22T10:15:46Z'));
    expect(last.result).toBe('failure');
    expect(last.errorLine).toBe('370 main /usr/local/bin/bootkube.sh');
    expect(last.errorMessage).toContain('etcdctl failed.');
    expect(last.source.line).toBe(37);
    const failed = last.stages.find((s) => s.result === 'failure');
    expect(failed).toMatchObject({ name: 'wait-for-etcd', start: T('2026-11-22T10:16:01Z'), end: T('2026-11-22T11:16:01Z') });
    expect(failed?.source.line).toBe(57);
  });

  it('reads the one-entry-per-line form of the bundle documentation', () => {
    const text = [
      '[',
      ' {"timestamp":"2026-11-22T10:16:00Z","phase":"service start"},',
      ' {"timestamp":"2026-11-22T10:16:01Z","phase":"stage start","stage":"wait-for-etcd"},',
      ' {"timestamp":"2026-11-22T11:16:01Z","phase":"stage end","stage":"wait-for-etcd","result":"failure",',
      '  "errorLine":"370 main /usr/local/bin/bootkube.sh","errorMessage":"etcdctl failed. Retrying in 5 seconds..."},',
      ' {"timestamp":"2026-11-22T11:16:02Z","phase":"service end","result":"failure"}',
      ']',
    ].join('\n');
    const { value, problems } = parseServiceRecords(text, src, 'bootkube');
    expect(problems).toEqual([]);
    expect(value.entries.map((e) => e.source.line)).toEqual([2, 3, 4, 6]);
    expect(value.runs).toHaveLength(1);
    expect(value.runs[0].end).toBe(T('2026-11-22T11:16:02Z'));
    expect(value.runs[0].stages).toEqual([
      {
        name: 'wait-for-etcd',
        start: T('2026-11-22T10:16:01Z'),
        end: T('2026-11-22T11:16:01Z'),
        result: 'failure',
        errorLine: '370 main /usr/local/bin/bootkube.sh',
        errorMessage: 'etcdctl failed. Retrying in 5 seconds...',
        source: { file: FILE, line: 4 },
      },
    ]);
  });

  it('keeps pre- and post-command phases as entries, not stages', () => {
    const text = JSON.stringify(
      [
        { timestamp: '2026-11-22T10:10:00Z', preCommand: 'release-image-download', phase: 'pre-command start' },
        { timestamp: '2026-11-22T10:10:05Z', preCommand: 'release-image-download', phase: 'pre-command end', result: 'success' },
        { timestamp: '2026-11-22T10:10:06Z', phase: 'service start' },
        { timestamp: '2026-11-22T10:10:07Z', stage: 'pull-release-image', phase: 'stage start' },
        { timestamp: '2026-11-22T10:11:00Z', stage: 'pull-release-image', phase: 'stage end', result: 'success' },
        { timestamp: '2026-11-22T10:11:00Z', phase: 'service end', result: 'success' },
        { timestamp: '2026-11-22T10:11:01Z', postCommand: 'report-progress', phase: 'post-command start' },
        { timestamp: '2026-11-22T10:11:02Z', postCommand: 'report-progress', phase: 'post-command end', result: 'success' },
      ],
      null,
      2,
    );
    const { value, problems } = parseServiceRecords(text, { file: 'x/bootstrap/services/release-image.json' }, 'release-image');
    expect(problems).toEqual([]);
    expect(value.entries).toHaveLength(8);
    expect(value.entries[0]).toMatchObject({ phase: 'pre-command start', preCommand: 'release-image-download' });
    expect(value.entries[7]).toMatchObject({ phase: 'post-command end', postCommand: 'report-progress', result: 'success' });
    expect(value.runs).toHaveLength(1);
    expect(value.runs[0].stages.map((s) => s.name)).toEqual(['pull-release-image']);
    expect(value.runs[0].result).toBe('success');
  });

  it('yields every complete entry of a file cut off mid-write, plus a problem at the cut', () => {
    const text = [
      '[',
      '  {',
      '    "timestamp": "2026-11-22T10:16:00Z",',
      '    "phase": "service start"',
      '  },',
      '  {',
      '    "timestamp": "2026-11-22T10:16:01Z",',
      '    "stage": "wait-for-etcd",',
      '    "phase": "stage start"',
      '  },',
      '  {',
      '    "timestamp": "2026-11-22T11:16:01Z",',
      '    "stage": "wait-for-e',
    ].join('\n');
    const { value, problems } = parseServiceRecords(text, src, 'bootkube');
    expect(value.entries.map((e) => e.phase)).toEqual(['service start', 'stage start']);
    expect(value.runs).toHaveLength(1);
    expect(value.runs[0].result).toBeUndefined();
    expect(value.runs[0].stages).toEqual([{ name: 'wait-for-etcd', start: T('2026-11-22T10:16:01Z'), source: { file: FILE, line: 6 } }]);
    expect(problems.map((p) => p.kind)).toEqual(['unparseable', 'unparseable']);
    expect(problems[0].message).toMatch(/not valid JSON/);
    expect(problems[1]).toMatchObject({ line: 11, message: expect.stringMatching(/cut off/) });
  });

  it('does not let braces or quotes inside strings end an entry early', () => {
    const text = [
      '[',
      '{"timestamp":"2026-11-22T10:16:00Z","phase":"service start"},',
      '{"timestamp":"2026-11-22T10:17:00Z","phase":"service end","result":"failure","errorMessage":"unexpected \\"}\\" in {input} \\\\"}',
      ']',
    ].join('\n');
    const { value, problems } = parseServiceRecords(text, src, 'bootkube');
    expect(problems).toEqual([]);
    expect(value.entries).toHaveLength(2);
    expect(value.runs[0].errorMessage).toBe('unexpected "}" in {input} \\');
  });

  it('skips garbage between entries and reports each broken entry at its line', () => {
    const text = '[\n{"phase":"service start","timestamp":"2026-11-22T10:16:00Z"},\n@@ " garbage\n{"phase": oops},\n{"phase":"service end","result":"success"}\n';
    const { value, problems } = parseServiceRecords(text, src, 'bootkube');
    expect(value.entries.map((e) => [e.phase, e.source.line])).toEqual([
      ['service start', 2],
      ['service end', 5],
    ]);
    expect(value.runs[0].result).toBe('success');
    expect(problems).toContainEqual({ kind: 'unparseable', message: 'service record entry is not valid JSON', line: 4 });
    expect(problems[0].message).toMatch(/not valid JSON \(truncated or damaged\)/);
  });

  it('reports an empty file as empty and returns an empty record', () => {
    for (const text of ['', '\n', '  \r\n']) {
      const { value, problems } = parseServiceRecords(text, src, 'bootkube');
      expect(value).toEqual({ service: 'bootkube', source: src, entries: [], runs: [] });
      expect(problems).toEqual([{ kind: 'empty', message: 'service record file is empty' }]);
    }
  });

  it('reads an empty array (service never started) without a problem', () => {
    const { value, problems } = parseServiceRecords('[]\n', src, 'release-image');
    expect(problems).toEqual([]);
    expect(value.entries).toEqual([]);
    expect(value.runs).toEqual([]);
  });

  it('reports a file that holds an object instead of an array', () => {
    const { value, problems } = parseServiceRecords('{}', src, 'release-image');
    expect(value.entries).toEqual([]);
    expect(problems).toEqual([
      { kind: 'unparseable', message: 'service record file does not hold a JSON array' },
      { kind: 'unparseable', message: 'service record entry without a phase', line: 1 },
    ]);
  });

  it('handles CRLF line endings and a byte order mark', () => {
    const text = '\ufeff[\r\n  {\r\n    "timestamp": "2026-11-22T10:16:00Z",\r\n    "phase": "service start"\r\n  },\r\n  {\r\n    "phase": "service end",\r\n    "result": "success"\r\n  }\r\n]\r\n';
    const { value, problems } = parseServiceRecords(text, src, 'bootkube');
    expect(problems).toEqual([]);
    expect(value.entries.map((e) => e.source.line)).toEqual([2, 6]);
    expect(value.runs[0]).toMatchObject({ start: T('2026-11-22T10:16:00Z'), result: 'success' });
    expect(value.runs[0].end).toBeUndefined();
  });

  it('keeps an entry with an unreadable timestamp, without the time, and reports it', () => {
    const text = '[{"timestamp":"Sun Nov 22 10:16:00 UTC 2026","phase":"service start"}]';
    const { value, problems } = parseServiceRecords(text, src, 'bootkube');
    expect(value.entries).toEqual([{ source: { file: FILE, line: 1 }, phase: 'service start' }]);
    expect(problems).toEqual([{ kind: 'unparseable', message: 'unreadable timestamp "Sun Nov 22 10:16:00 UTC 2026"', line: 1 }]);
  });

  it('keeps unknown phases but drops fields it does not know', () => {
    const text = '[{"phase":"service start"},{"phase":"checkpoint","secret":"hunter2","result":"success"}]';
    const { value } = parseServiceRecords(text, src, 'bootkube');
    expect(value.entries[1]).toEqual({ source: { file: FILE, line: 1 }, phase: 'checkpoint', result: 'success' });
    expect(JSON.stringify(value)).not.toContain('hunter2');
    expect(value.runs).toHaveLength(1);
    expect(value.runs[0].stages).toEqual([]);
  });

  it('caps the problems of a file full of broken entries', () => {
    const text = '[' + Array.from({ length: 50 }, () => '{"phase": x}').join(',\n') + ']';
    const { problems } = parseServiceRecords(text, src, 'bootkube');
    expect(problems).toHaveLength(21);
    expect(problems[20].message).toBe('31 more problems not listed');
  });
});

describe('buildServiceRuns', () => {
  const e = (phase: string, extra: Record<string, string | number> = {}, line = 1) => ({
    source: { file: FILE, line },
    phase,
    ...extra,
  });

  it('leaves a stage open (no result) when the service was killed mid-stage, and starts a new run', () => {
    const runs = buildServiceRuns([
      e('service start', { timestamp: 1 }, 1),
      e('stage start', { stage: 'cb-bootstrap', timestamp: 2 }, 2),
      e('service start', { timestamp: 10 }, 3),
      e('stage start', { stage: 'cb-bootstrap', timestamp: 11 }, 4),
      e('stage end', { stage: 'cb-bootstrap', result: 'success', timestamp: 12 }, 5),
    ]);
    expect(runs).toHaveLength(2);
    expect(runs[0].stages).toEqual([{ name: 'cb-bootstrap', start: 2, source: { file: FILE, line: 2 } }]);
    expect(runs[0].result).toBeUndefined();
    expect(runs[1].stages).toEqual([{ name: 'cb-bootstrap', start: 11, end: 12, result: 'success', source: { file: FILE, line: 5 } }]);
  });

  it('opens a run without a start for entries before any service start, and keeps a lone stage end', () => {
    const runs = buildServiceRuns([
      e('stage end', { stage: 'pull-release-image', result: 'failure', errorMessage: 'Line 1\nLine 2' }, 7),
    ]);
    expect(runs).toEqual([
      {
        stages: [{ name: 'pull-release-image', result: 'failure', errorMessage: 'Line 1\nLine 2', source: { file: FILE, line: 7 } }],
        source: { file: FILE, line: 7 },
      },
    ]);
  });
});

describe('parseRecordTimestamp', () => {
  it('reads the script format as UTC and rejects others', () => {
    expect(parseRecordTimestamp('2026-11-22T10:16:00Z')).toBe(Date.UTC(2026, 10, 22, 10, 16, 0));
    expect(parseRecordTimestamp('2026-11-22T10:16:00+01:00')).toBeUndefined();
    expect(parseRecordTimestamp('2026-13-22T10:16:00Z')).toBeUndefined();
    expect(parseRecordTimestamp('')).toBeUndefined();
  });
});

describe('a damaged record', () => {
  it('reads an entry that lost its phase but kept its error as the failed end of the service', () => {
    // okd-project/okd#1873: the record as quoted in the thread, cut after its error fields.
    const text = JSON.stringify([
      {
        errorLine: '24 main /usr/local/bin/bootstrap-pivot.sh',
        errorMessage: 'Error: initializing source docker://quay.io/openshift/okd-content@sha256:b3a9: (Mirrors also failed: [registry.example.lab:5000/ocp4/okd@sha256:b3a9: reading manifest sha256:b3a9 in registry.example.lab:5000/ocp4/okd: manifest unknown])',
      },
    ]);
    const { value, problems } = parseServiceRecords(text, { file: 'x/bootstrap/services/release-image-pivot.json' }, 'release-image-pivot');
    expect(problems).toEqual([expect.objectContaining({ kind: 'unparseable', message: 'service record entry without a phase: read as the failed end of the service' })]);
    expect(value.runs).toHaveLength(1);
    expect(value.runs[0]).toMatchObject({ result: 'failure', errorLine: '24 main /usr/local/bin/bootstrap-pivot.sh' });
    expect(value.runs[0].errorMessage).toContain('manifest unknown');
  });

  it('still drops an entry with neither a phase nor an error', () => {
    const { value, problems } = parseServiceRecords('[{"timestamp":"2024-01-29T13:08:44Z"}]', { file: 'x/bootstrap/services/bootkube.json' }, 'bootkube');
    expect(value.entries).toEqual([]);
    expect(problems[0]?.message).toBe('service record entry without a phase');
  });
});
