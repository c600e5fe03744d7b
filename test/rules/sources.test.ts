import { describe, expect, it } from 'vitest';
import type { LogSummary, MatchedLine } from '../../src/model/types.js';
import { matchedLines, matchedLinesOf } from '../../src/rules/sources.js';

/** A journal summary whose matched lines were kept by the given filters, in order. */
function journal(kept: [text: string, filterIds: string[]][]): LogSummary {
  const matched: MatchedLine[] = kept.map(([text, filterIds], i) => ({ entry: { line: 10 * (i + 1), text, raw: `Nov 22 10:15:0${i} b kubelet.sh[1]: ${text}`, time: 1000 * i }, filterIds, before: [], after: [] }));
  return {
    source: { file: 'log-bundle/bootstrap/journals/kubelet.log' },
    sourceId: { kind: 'journal', host: { role: 'bootstrap' }, unit: 'kubelet' },
    kind: 'journal',
    format: 'plain',
    bytes: 100,
    lineCount: 10 * kept.length,
    truncatedLines: 0,
    head: [],
    tail: [],
    matched,
    matchedDropped: 0,
  };
}

describe('the matched lines a rule reads', () => {
  const log = journal([
    ['first, kept by a', ['rule-a:m0']],
    ['kept by b', ['rule-b:m0']],
    ['kept by both', ['rule-b:x0', 'rule-a:m0']],
    ['kept by a again', ['rule-a:m0']],
  ]);

  it('are the lines its own filters kept, in the order of the log', () => {
    expect(matchedLinesOf(log, 'bootstrap', ['rule-a:m0']).map((l) => l.line)).toEqual([10, 30, 40]);
    expect(matchedLinesOf(log, 'bootstrap', ['rule-b:x0', 'rule-b:m0']).map((l) => l.line)).toEqual([20, 30]);
    expect(matchedLinesOf(log, 'bootstrap', ['rule-c:m0'])).toEqual([]);
  });

  it('are what the whole list holds for them, made once per log and host and frozen', () => {
    const all = matchedLines(log, 'bootstrap');
    const a = matchedLinesOf(log, 'bootstrap', ['rule-a:m0']);
    expect(a).toEqual(all.filter((l) => l.filterIds?.includes('rule-a:m0')));
    expect(a[0]).toMatchObject({ file: 'log-bundle/bootstrap/journals/kubelet.log', host: 'bootstrap', time: 0, text: 'Nov 22 10:15:00 b kubelet.sh[1]: first, kept by a' });
    // The line kept by both rules is one object, shared and read-only.
    expect(matchedLinesOf(log, 'bootstrap', ['rule-b:x0'])[0]).toBe(a[1]);
    expect(Object.isFrozen(a[1])).toBe(true);
    // Another host label makes other lines (the host is part of each).
    expect(matchedLinesOf(log, 'master-0', ['rule-a:m0'])[0].host).toBe('master-0');
  });
});
