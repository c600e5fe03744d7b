// A table of tens of thousands of rows (a hostile bundle's operators or containers) is drawn in
// chunks: cli-table3's layout is quadratic in rows. The chunks read as one table.
import { describe, expect, it } from 'vitest';
import { renderTable } from '../../src/report/format.js';

describe('long tables', () => {
  it('draw 20,000 rows as one table: one top and one bottom border, every row once and in order, one width', () => {
    const rows = Array.from({ length: 20_000 }, (_, i) => [`op-${i}`, i % 7 === 0 ? 'Degraded' : 'Available', 'x'.repeat(i % 13)]);
    const lines = renderTable(['Name', 'State', 'Note'], rows, 100).split('\n');
    expect(lines).toHaveLength(20_000 + 1 + 2);
    expect(lines[0].startsWith('┌')).toBe(true);
    expect(lines.at(-1)?.startsWith('└')).toBe(true);
    expect(lines.filter((l) => l.startsWith('┌') || l.startsWith('└'))).toHaveLength(2);
    expect(new Set(lines.map((l) => l.length)).size).toBe(1);
    expect(lines[1]).toContain('Name');
    expect(lines[2]).toContain('op-0 ');
    expect(lines[20_001]).toContain('op-19999 ');
  });

  it('draw a short table as before', () => {
    const out = renderTable(['A', 'B'], [['1', 'two']], 100);
    expect(out.split('\n')).toHaveLength(4);
  });
});
