import { describe, expect, it } from 'vitest';
import { LineSplitter } from '../../src/text/lines.js';

function split(chunks: (string | Buffer)[], max = 1000): [string, boolean][] {
  const out: [string, boolean][] = [];
  const s = new LineSplitter(max, (l, t) => out.push([l, t]));
  for (const c of chunks) s.push(typeof c === 'string' ? Buffer.from(c) : c);
  s.end();
  return out;
}

describe('LineSplitter', () => {
  it('splits across chunk boundaries and strips CR', () => {
    expect(split(['ab', 'c\r\nde', 'f\n', 'g'])).toEqual([
      ['abc', false],
      ['def', false],
      ['g', false],
    ]);
  });
  it('keeps empty lines and has no phantom last line', () => {
    expect(split(['a\n\nb\n'])).toEqual([
      ['a', false],
      ['', false],
      ['b', false],
    ]);
  });
  it('decodes a UTF-8 character split between chunks', () => {
    const bytes = Buffer.from('月x\n');
    expect(split([bytes.subarray(0, 1), bytes.subarray(1)])).toEqual([['月x', false]]);
  });
  it('cuts a line longer than the limit, within one chunk and across chunks', () => {
    expect(split(['x'.repeat(25) + '\nok\n'], 10)).toEqual([
      ['x'.repeat(10), true],
      ['ok', false],
    ]);
    expect(split(['y'.repeat(6), 'y'.repeat(6), 'y'.repeat(6), '\nok'], 10)).toEqual([
      ['y'.repeat(10), true],
      ['ok', false],
    ]);
  });
  it('cuts an endless line with no newline at all', () => {
    const out = split(Array.from({ length: 100 }, () => 'z'.repeat(1000)), 64);
    expect(out).toEqual([['z'.repeat(64), true]]);
  });
  it('replaces invalid UTF-8 instead of failing', () => {
    const out = split([Buffer.from([0x66, 0xff, 0xfe, 0x0a])]);
    expect(out[0][0]).toBe('f\ufffd\ufffd');
  });
});
