// A truncated bundle still gives the whole bundle's verdict when the failing evidence lies
// before the cut.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeBundle } from '../../src/analysis/analyze.js';
import { loadRules } from '../../src/rules/load-rules.js';
import { tempDir } from '../support/fixture-bundle.js';

const { rules } = loadRules();

function sample(name: string): string {
  const dir = join(process.cwd(), 'samples', name);
  return join(dir, readdirSync(dir).find((f) => f.endsWith('.tar.gz')) as string);
}

describe('a truncated sample', () => {
  for (const name of ['release-pull-secret-rejected', 'bootstrap-disk-full']) {
    it(`${name}: same stage and category when cut after the evidence`, async () => {
      const path = sample(name);
      const whole = await analyzeBundle(path, { rules, version: 't' });
      const bytes = readFileSync(path);
      let compared = 0;
      for (const fraction of [0.95, 0.85, 0.75]) {
        const cut = join(tempDir('bootlens-cut-'), 'cut.tar.gz');
        writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length * fraction)));
        const part = await analyzeBundle(cut, { rules, version: 't' });
        expect(part.problems.some((p) => p.kind === 'truncated-archive')).toBe(true);
        // Only cuts that kept the evidence the whole bundle's verdict rests on are comparable.
        const root = whole.findings.find((f) => f.ruleId === whole.verdict.rootCause);
        const kept = root?.evidence.every((e) => part.findings.some((f) => f.evidence.some((x) => x.file === e.file && x.line === e.line)));
        if (!kept) continue;
        compared++;
        expect({ stage: part.verdict.stage, category: part.verdict.category }, `cut at ${fraction}`).toEqual({ stage: whole.verdict.stage, category: whole.verdict.category });
      }
      expect(compared).toBeGreaterThan(0);
    });
  }
});
