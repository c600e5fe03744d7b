import { describe, expect, it } from 'vitest';
import { capProblems, clip, MESSAGE_MAX, ProblemList, PROBLEMS_MAX, splitLines, stripBom } from '../../src/parsers/text-input.js';
import type { ParseProblem } from '../../src/parsers/parsed.js';

describe('text input', () => {
  it('drops one leading byte-order mark and splits CRLF and LF lines alike', () => {
    expect(stripBom('\ufeffa')).toBe('a');
    expect(stripBom('a\ufeff')).toBe('a\ufeff');
    expect(splitLines('\ufeffone\r\ntwo\nthree\n')).toEqual(['one', 'two', 'three', '']);
  });

  it('clips quoted text at one length', () => {
    expect(clip('x'.repeat(MESSAGE_MAX + 5))).toHaveLength(MESSAGE_MAX);
    expect(clip('short')).toBe('short');
  });

  it('caps the problems of a file and counts the rest in one closing problem', () => {
    const many: ParseProblem[] = Array.from({ length: PROBLEMS_MAX + 3 }, (_, i) => ({ kind: 'unparseable', message: `p${i}`, line: i + 1 }));
    const capped = capProblems(many);
    expect(capped).toHaveLength(PROBLEMS_MAX + 1);
    expect(capped[PROBLEMS_MAX]).toEqual({ kind: 'unparseable', message: '3 more problems not listed' });

    const list = new ProblemList();
    for (const p of many) list.add(p);
    expect(list.done((n) => `${n} more lines`)).toEqual([...many.slice(0, PROBLEMS_MAX), { kind: 'unparseable', message: '3 more lines' }]);
    expect(capProblems(many.slice(0, 2))).toHaveLength(2);
  });
});
