import { describe, expect, it } from 'vitest';
import { gatherIdTime, inferYear, monthFromToken, parseIsoPrefix, parseIsoTime } from '../../src/text/time.js';

describe('monthFromToken', () => {
  it('reads month abbreviations of the locales glibc prints', () => {
    expect(monthFromToken('Nov')).toBe(11);
    expect(monthFromToken('Okt')).toBe(10); // de_DE
    expect(monthFromToken('Dez')).toBe(12); // de_DE
    expect(monthFromToken('Mär')).toBe(3); // de_DE
    expect(monthFromToken('févr.')).toBe(2); // fr_FR
    expect(monthFromToken('déc.')).toBe(12); // fr_FR
    expect(monthFromToken('dic')).toBe(12); // es_ES / it_IT
    expect(monthFromToken('ноя')).toBe(11); // ru_RU
    expect(monthFromToken('11月')).toBe(11); // zh_CN / ja_JP
    expect(monthFromToken('3월')).toBe(3); // ko_KR
  });
  it('rejects what is not a month', () => {
    expect(monthFromToken('Sun')).toBeUndefined();
    expect(monthFromToken('13月')).toBeUndefined();
    expect(monthFromToken('bootstrap')).toBeUndefined();
    expect(monthFromToken('__proto__')).toBeUndefined();
  });
});

describe('inferYear', () => {
  const ref = Date.UTC(2026, 10, 22, 11, 18); // 2026-11-22
  it('takes the reference year for dates up to it', () => {
    expect(inferYear(11, 22, ref)).toBe(2026);
    expect(inferYear(1, 5, ref)).toBe(2026);
  });
  it('takes the year before for dates after the reference (December lines read in January)', () => {
    const jan = Date.UTC(2027, 0, 1, 2, 0);
    expect(inferYear(12, 31, jan)).toBe(2026);
    expect(inferYear(1, 1, jan)).toBe(2027);
  });
  it('allows a little clock skew past the reference', () => {
    expect(inferYear(11, 23, ref)).toBe(2026);
    expect(inferYear(11, 26, ref)).toBe(2025);
  });
});

describe('ISO timestamps', () => {
  it('parses zones, fractions and the space form', () => {
    expect(parseIsoPrefix('2026-11-22T10:15:04Z rest')).toEqual({ time: Date.UTC(2026, 10, 22, 10, 15, 4), length: 20 });
    expect(parseIsoTime('2026-11-22T10:15:04.987654321Z')).toBe(Date.UTC(2026, 10, 22, 10, 15, 4, 987));
    expect(parseIsoTime('2026-11-22T11:15:04+01:00')).toBe(Date.UTC(2026, 10, 22, 10, 15, 4));
    expect(parseIsoTime('2026-11-22T05:15:04-0500')).toBe(Date.UTC(2026, 10, 22, 10, 15, 4));
    expect(parseIsoTime('2026-11-22 10:15:04 UTC')).toBe(Date.UTC(2026, 10, 22, 10, 15, 4));
  });
  it('treats the zero time of Go and CRI as unset', () => {
    expect(parseIsoTime('0001-01-01T00:00:00Z')).toBeUndefined();
    expect(parseIsoTime('1970-01-01T00:00:00Z')).toBeUndefined();
    expect(parseIsoTime('')).toBeUndefined();
    expect(parseIsoTime('yesterday')).toBeUndefined();
  });
});

describe('gatherIdTime', () => {
  it('reads the installer gather id as a UTC time', () => {
    expect(gatherIdTime('20261122111800')).toBe(Date.UTC(2026, 10, 22, 11, 18, 0));
  });
  it('rejects ids that are not timestamps', () => {
    expect(gatherIdTime('bootstrap')).toBeUndefined();
    expect(gatherIdTime('20261322111800')).toBeUndefined();
  });
});
