// rules lint refuses a user regex its checker cannot decide within its step limits: not a note, a
// problem, as for a shipped rule (`npm run test:hostile`: the checker spends its whole budget).
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/fixture-bundle.js';
import { userCatalogue, userEntry, userRule } from './crafted-bundles.js';

const CLI = join(process.cwd(), 'dist/src/cli/main.js');

describe('rules lint on a regex the checker cannot decide', () => {
  it('is a problem naming the entry, not a note', () => {
    const dir = join(tempDir('bootlens-undecided-'), 'rules');
    mkdirSync(join(dir, 'catalogue'), { recursive: true });
    writeFileSync(join(dir, 'user-undecided.yaml'), userRule('user-undecided'));
    // A lookahead that captures under a star (no back-reference, no nested quantifier the load
    // guard sees): recheck's checkers spend their whole budget on it without a verdict.
    writeFileSync(join(dir, 'catalogue', 'user.yaml'), userCatalogue(userEntry('user-undecided', 'etcdctl (?:(?=(a+))a)*b', 'etcdctl failed', undefined, 'etcdctl ab')));
    const r = spawnSync(process.execPath, [CLI, 'rules', 'lint', '--rules', dir], { encoding: 'utf8', timeout: 590_000, env: { ...process.env, BOOTLENS_CACHE_DIR: 'off' } });
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/catalogue entry user-undecided: regex \/etcdctl \(\?:\(\?=\(a\+\)\)a\)\*b\/ could not be (?:proven linear|checked for backtracking) .*: only regexes proven linear are allowed/);
    expect(r.stdout).not.toMatch(/^note:/m);
  });
});
