// The hostile folder of triage-hostile-folder.test.ts with a bundle that needs more memory than
// its worker may have (100 000 container logs under --bundle-memory 64): that one is a
// failed-to-analyze record naming the limit, and the run goes on (`npm run test:hostile`).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isTriageRecord, type TriageRecord } from '../../src/triage/record.js';
import { tempDir } from '../support/fixture-bundle.js';
import { hostileFolder, manyContainersBundle } from './crafted-bundles.js';

const CLI = join(process.cwd(), 'dist/src/cli/main.js');

describe('triage of a bundle over its memory limit among good and hostile ones', () => {
  it('records it as failed-to-analyze with the limit, and every other case as before', () => {
    const dir = tempDir('bootlens-hostile-heavy-');
    const cases = hostileFolder(dir);
    mkdirSync(join(dir, 'm-100k-containers'));
    writeFileSync(join(dir, 'm-100k-containers', 'bundle.tar.gz'), manyContainersBundle(100_000));
    const jsonl = join(tempDir(), 'heavy.jsonl');
    const r = spawnSync(process.execPath, [CLI, 'triage', dir, '--jobs', '2', '--bundle-memory', '64', '--jsonl', jsonl], { encoding: 'utf8', timeout: 590_000 });
    expect(r.status, r.stderr).toBe(1);
    const records = readFileSync(jsonl, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as TriageRecord);
    expect(records.every(isTriageRecord)).toBe(true);
    expect(records.map((x) => x.bundle)).toEqual([...cases.map((c) => c.name), 'm-100k-containers'].sort());
    for (const c of cases.filter((x) => x.good)) expect(records.find((x) => x.bundle === c.name)).toMatchObject({ status: 'analyzed', verdict: { stage: 'bootstrap-etcd' } });
    expect(records.find((x) => x.bundle === 'm-100k-containers')).toEqual(
      expect.objectContaining({ status: 'failed-to-analyze', error: 'over the memory limit: the analysis needed more than 64 MB of heap (--bundle-memory)' }),
    );
  });
});
