// One clock: the year of year-less journal times and the gather time come from the gather id,
// never from a file's modification time: a note written today beside a bundle from 2024 changes
// nothing.
import { cpSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeBundle } from '../../src/analysis/analyze.js';
import { loadRules } from '../../src/rules/load-rules.js';
import { tempDir } from '../support/fixture-bundle.js';

describe('the bundle keeps its own clock', () => {
  it('a notes file and an expected.json beside an unpacked 2024 bundle change neither times nor verdict', async () => {
    const rules = loadRules().rules;
    const sample = join(process.cwd(), 'samples/workers-csr-pending');
    const plain = await analyzeBundle(sample, { rules, version: 'test' });
    const gatherYear = new Date(plain.bundle.gatheredAt as number).getUTCFullYear();
    // A case folder: the bundle's folder, and today's notes written before it in name order.
    const dir = tempDir('bootlens-clock-');
    const caseDir = join(dir, 'case');
    mkdirSync(caseDir);
    writeFileSync(join(caseDir, 'a-notes.txt'), 'customer says it worked yesterday\n');
    writeFileSync(join(caseDir, 'expected.json'), '{}\n');
    const now = new Date();
    utimesSync(join(caseDir, 'a-notes.txt'), now, now);
    cpSync(sample, join(caseDir, 'bundle'), { recursive: true });
    const withNotes = await analyzeBundle(caseDir, { rules, version: 'test' });
    expect(withNotes.verdict).toMatchObject({ stage: plain.verdict.stage, category: plain.verdict.category });
    expect(withNotes.bundle.gatheredAt).toBe(plain.bundle.gatheredAt);
    const times = withNotes.findings.flatMap((f) => f.evidence.map((e) => e.time)).filter((t): t is number => t !== undefined);
    for (const t of times) expect(new Date(t).getUTCFullYear()).toBe(gatherYear);
  });
});
