// Which filters a line matches: the collector takes the literals the scan found in the line's
// bytes instead of looking for each filter's literals in its text. Both readings must agree,
// line by line, and the text decides where they could differ (cut lines, a literal with `\r`).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ActiveFilters, type LineFilter } from '../../src/ingest/line-filter.js';
import { DEFAULT_LOG_LIMITS, LogCollector, plainLineParser } from '../../src/ingest/log-collector.js';
import { LogStream } from '../../src/ingest/log-stream.js';
import type { SourceId } from '../../src/model/source-id.js';

const SOURCE: SourceId = { kind: 'container', host: { role: 'bootstrap' }, container: 'etcd' };

/** Each matched line's number and filter ids, as the collector recorded them from the stream. */
function streamed(filters: LineFilter[], text: string, maxLineLength = 4096, chunk = 64): [number, string[]][] {
  const active = new ActiveFilters(filters, SOURCE);
  const limits = { ...DEFAULT_LOG_LIMITS, matchedLines: 100_000 };
  const c = new LogCollector({ file: 'etcd.log' }, SOURCE, active, limits, plainLineParser(undefined));
  const s = new LogStream(c, maxLineLength, []);
  const bytes = Buffer.from(text);
  for (let i = 0; i < bytes.length; i += chunk) s.push(bytes.subarray(i, i + chunk));
  s.end();
  return c.summary().matched.map((m) => [m.entry.line as number, m.filterIds]);
}

/** The same from each line's text alone. */
function byText(filters: LineFilter[], text: string): [number, string[]][] {
  const active = new ActiveFilters(filters, SOURCE);
  const out: [number, string[]][] = [];
  text.split('\n').forEach((raw, i) => {
    const ids = active.match(raw.endsWith('\r') ? raw.slice(0, -1) : raw);
    if (ids) out.push([i + 1, ids]);
  });
  return out;
}

const filter = (id: string, literals: string[], pattern?: RegExp): LineFilter => ({ id, appliesTo: () => true, literals, ...(pattern ? { pattern } : {}) });

describe('filters matched from the scan', () => {
  it('match the same lines with the same filters as the lines\' text (property)', () => {
    const word = fc.constantFrom('etcd', 'took too long', 'slow', 'fdatasync', 'ok', 'leader', 'lost', 'x', 'é', 'apply', 'request');
    const line = fc.array(word, { maxLength: 10 }).map((w) => w.join(' '));
    const literal = fc.constantFrom('took too long', 'fdatasync', 'leader lost', 'lost', 'apply request', 'é a', 'slow f');
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 200 }), fc.array(fc.array(literal, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 5 }), (lines, sets) => {
        const filters = sets.map((literals, i) => filter(`f${i}`, literals, i % 2 === 1 ? /o/ : undefined));
        const text = lines.join('\n') + '\n';
        expect(streamed(filters, text)).toEqual(byText(filters, text));
      }),
      { numRuns: 300 },
    );
  });

  it('a literal past the cut of a long line does not match: the text stops there', () => {
    const text = `short line\n${'a'.repeat(100)} fdatasync\nfdatasync here\n`;
    expect(streamed([filter('f', ['fdatasync'])], text, 50)).toEqual([[3, ['f']]]);
  });

  it('a literal holding a carriage return never matches a line ending in one (the reader drops it)', () => {
    const text = 'leader lost\r\nleader lost\r\n';
    expect(streamed([filter('cr', ['lost\r']), filter('plain', ['lost'])], text)).toEqual([
      [1, ['plain']],
      [2, ['plain']],
    ]);
  });
});
