// Done when: a triage run over a folder with each of this round's hostile bundles among good ones
// keeps every good bundle's record, gives each hostile one a verdict or a failed-to-analyze
// record, and exits as the README says (1: failures found).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isTriageRecord, type TriageRecord } from '../../src/triage/record.js';
import { tempDir } from '../support/fixture-bundle.js';
import { hangingRulesDir, hostileFolder, KEY_BODY, TYPED_SECRETS } from './crafted-bundles.js';

const CLI = join(process.cwd(), 'dist/src/cli/main.js');

describe('triage of hostile bundles among good ones', () => {
  it('gives every case a record: the good ones their verdict, the hostile ones a verdict or failed-to-analyze', () => {
    const dir = tempDir('bootlens-hostile-folder-');
    const cases = hostileFolder(dir);
    // The shipped rules and one user rule that hangs on one bundle's line.
    const rules = hangingRulesDir(tempDir());
    const jsonl = join(tempDir(), 'hostile.jsonl');
    const r = spawnSync(process.execPath, [CLI, 'triage', dir, '--rules', rules, '--jobs', '2', '--bundle-timeout', '6', '--jsonl', jsonl, '-f', 'md'], { encoding: 'utf8', timeout: 300_000 });
    expect(r.status, r.stderr).toBe(1);
    const records = readFileSync(jsonl, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as TriageRecord);
    expect(records.every(isTriageRecord)).toBe(true);
    expect(records.map((x) => x.bundle)).toEqual(cases.map((c) => c.name));
    for (const c of cases) {
      const record = records.find((x) => x.bundle === c.name) as TriageRecord;
      if (c.good) expect(record, c.name).toMatchObject({ status: 'analyzed', verdict: { status: 'failed', stage: 'bootstrap-etcd' } });
      else expect(['analyzed', 'failed-to-analyze'], `${c.name}: ${record.status} ${record.error ?? ''}`).toContain(record.status);
    }
    expect(records.find((x) => x.bundle === 'j-hangs-user-rule')).toMatchObject({ status: 'failed-to-analyze', error: expect.stringMatching(/over the time limit/) });
    expect(records.find((x) => x.bundle === 'g-year-0099')?.gatheredAt).toBeNull();
    for (const text of [readFileSync(jsonl, 'utf8'), r.stdout]) {
      for (const secret of [...TYPED_SECRETS.map((t) => t.secret), ...KEY_BODY]) expect(text).not.toContain(secret);
      expect(text).not.toMatch(/[\u001b\u0007\u202e\u2066\u2069]|native code/);
    }
  });
});
