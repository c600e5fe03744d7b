import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSuppressions, SuppressionError } from '../../src/analysis/suppressions.js';
import { tempDir } from '../support/fixture-bundle.js';

function file(text: string): string {
  const path = join(tempDir(), 'ignore.yaml');
  writeFileSync(path, text);
  return path;
}

describe('loadSuppressions', () => {
  it('reads a list or a suppressions key', () => {
    expect(loadSuppressions(file('- rule: a\n  reason: lab\n  host: "10.0.0.*"\n'))).toEqual([{ rule: 'a', reason: 'lab', host: '10.0.0.*' }]);
    expect(loadSuppressions(file('suppressions:\n  - rule: b\n    reason: known\n    message: x+\n'))).toEqual([{ rule: 'b', reason: 'known', message: 'x+' }]);
  });

  it('names the file and the line of a mistake', () => {
    const bad = file('- rule: a\n  reason: lab\n- rule: b\n');
    expect(() => loadSuppressions(bad)).toThrow(SuppressionError);
    expect(() => loadSuppressions(bad)).toThrow(`${bad}:3: entry 2 needs a rule id and a reason`);
    const regex = file('suppressions:\n  - rule: b\n    reason: r\n    message: "("\n');
    expect(() => loadSuppressions(regex)).toThrow(new RegExp(`^${regex.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:2: entry 1: bad message regex`));
    const yaml = file('- rule: a\n  reason: [lab\n');
    expect(() => loadSuppressions(yaml)).toThrow(new RegExp(`^${yaml.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:\\d+: `));
    expect(() => loadSuppressions(file('rule: a\n'))).toThrow(/expected a list of/);
  });
});
