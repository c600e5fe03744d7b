import { describe, expect, it } from 'vitest';
import { isJournalContinuation, isJournalMarker, parseJournalLine, parseJournalMarker } from '../../src/parsers/journal-text.js';

const REF = Date.UTC(2026, 10, 22, 11, 18);
const T = Date.UTC(2026, 10, 22, 10, 15, 4);

describe('parseJournalLine', () => {
  it('parses --output=short with identifier and pid', () => {
    const raw = 'Nov 22 10:15:04 bootstrap.example.com bootkube.sh[2507]: Waiting for etcd cluster...';
    expect(parseJournalLine(raw, 7, REF)).toEqual({
      line: 7,
      time: T,
      hostname: 'bootstrap.example.com',
      identifier: 'bootkube.sh',
      pid: 2507,
      text: 'Waiting for etcd cluster...',
      raw,
    });
  });

  it('parses systemd lines and lines without a pid', () => {
    const sd = parseJournalLine("Nov 22 11:16:02 bootstrap systemd[1]: bootkube.service: Failed with result 'exit-code'.", 1, REF);
    expect(sd?.identifier).toBe('systemd');
    expect(sd?.pid).toBe(1);
    expect(sd?.text).toBe("bootkube.service: Failed with result 'exit-code'.");
    const kernel = parseJournalLine('Nov 22 10:15:04 bootstrap kernel: EXT4-fs (sda4): mounted filesystem', 2, REF);
    expect(kernel?.identifier).toBe('kernel');
    expect(kernel?.pid).toBeUndefined();
    expect(kernel?.text).toBe('EXT4-fs (sda4): mounted filesystem');
  });

  it('keeps ": " inside the message and an empty message', () => {
    const e = parseJournalLine('Nov 22 10:15:04 h crio[1490]: time="x" level=error msg="a: b"', 3, REF);
    expect(e?.identifier).toBe('crio');
    expect(e?.text).toBe('time="x" level=error msg="a: b"');
    expect(parseJournalLine('Nov 22 10:15:04 h bootkube.sh[2507]:', 4, REF)?.text).toBe('');
  });

  it('pads nothing: single-digit days as journalctl prints them', () => {
    expect(parseJournalLine('Jan  5 01:02:03 h x[1]: y', 1, REF)?.time).toBe(Date.UTC(2026, 0, 5, 1, 2, 3));
  });

  it('reads month names in the host locale (de, fr, zh, ja)', () => {
    expect(parseJournalLine('Okt 22 10:15:04 h x[1]: y', 1, REF)?.time).toBe(Date.UTC(2026, 9, 22, 10, 15, 4));
    expect(parseJournalLine('nov. 22 10:15:04 h x[1]: y', 1, REF)?.time).toBe(T);
    expect(parseJournalLine('11月 22 10:15:04 h x[1]: y', 1, REF)?.time).toBe(T);
    const ja = parseJournalLine(' 3月 02 10:15:04 h x[1]: y', 1, REF);
    expect(ja?.time).toBe(Date.UTC(2026, 2, 2, 10, 15, 4));
    expect(ja?.hostname).toBe('h');
  });

  it('infers the year from the reference time across New Year', () => {
    const jan = Date.UTC(2027, 0, 1, 3, 0);
    expect(parseJournalLine('Dec 31 23:59:58 h x[1]: y', 1, jan)?.time).toBe(Date.UTC(2026, 11, 31, 23, 59, 58));
  });

  it('parses short-precise, short-iso, short-iso-precise, short-full and short-unix', () => {
    expect(parseJournalLine('Nov 22 10:15:04.123456 h x[1]: y', 1, REF)?.time).toBe(T + 123);
    expect(parseJournalLine('2026-11-22T10:15:04+0000 h x[1]: y', 1, REF)?.time).toBe(T);
    expect(parseJournalLine('2026-11-22T11:15:04.500000+01:00 h x[1]: y', 1, REF)?.time).toBe(T + 500);
    expect(parseJournalLine('Sun 2026-11-22 10:15:04 UTC h x[1]: y', 1, REF)?.time).toBe(T);
    const unix = parseJournalLine(`${T / 1000}.250000 h x[1]: y`, 1, REF);
    expect(unix?.time).toBe(T + 250);
    expect(unix?.hostname).toBe('h');
  });

  it('parses short-monotonic without a wall time', () => {
    const e = parseJournalLine('[   12.345678] h kernel: Linux version 5.14.0', 1, REF);
    expect(e?.time).toBeUndefined();
    expect(e?.identifier).toBe('kernel');
    expect(e?.text).toBe('Linux version 5.14.0');
  });

  it('returns undefined for continuation lines, markers and garbage', () => {
    expect(parseJournalLine('                  "error":"rpc error"}', 1, REF)).toBeUndefined();
    expect(parseJournalLine('\tat foo', 1, REF)).toBeUndefined();
    expect(parseJournalLine('-- No entries --', 1, REF)).toBeUndefined();
    expect(parseJournalLine('', 1, REF)).toBeUndefined();
    expect(parseJournalLine('\u0000\u0001binary', 1, REF)).toBeUndefined();
    expect(parseJournalLine('Nov 99 10:15:04 h x: y', 1, REF)).toBeUndefined();
  });
});

describe('parseJournalMarker', () => {
  it('recognises boot, reboot, no-entries and range notes', () => {
    expect(parseJournalMarker('-- Boot 8b7c4d2e5f6a47b1a9c3d2e1f0a9b8c7 --')).toEqual({ type: 'boot', id: '8b7c4d2e5f6a47b1a9c3d2e1f0a9b8c7' });
    expect(parseJournalMarker('-- Reboot --')).toEqual({ type: 'boot' });
    expect(parseJournalMarker('-- No entries --')).toEqual({ type: 'no-entries' });
    expect(parseJournalMarker('-- Logs begin at Sun 2026-11-22 10:12:00 UTC, end at Sun 2026-11-22 11:18:00 UTC. --')?.type).toBe('note');
    expect(parseJournalMarker('-- not a marker')).toBeUndefined();
  });
});

describe('continuation lines and markers', () => {
  it('tells indented further lines of an entry from padded one-digit months', () => {
    expect(isJournalContinuation('    at main.go:12')).toBe(true);
    expect(isJournalContinuation('\tgoroutine 1 [running]:')).toBe(true);
    expect(isJournalContinuation(' 1月 22 10:15:04 bootstrap bootkube.sh[2507]: x')).toBe(false);
    expect(isJournalContinuation('Nov 22 10:15:04 bootstrap bootkube.sh[2507]: x')).toBe(false);
  });

  it('finds markers by their first bytes', () => {
    expect(isJournalMarker('-- Boot 8b7c4d2e5f6a47b1a9c3d2e1f0a9b8c7 --')).toBe(true);
    expect(isJournalMarker('--- not a marker')).toBe(false);
    expect(isJournalMarker('Nov 22 10:15:04 h x: -- Boot --')).toBe(false);
  });
});
