// Files are whole or absent: a report or a knowledge-base entry that cannot be written in full
// (a full disk, here a file-size limit, which fails a write the same way) leaves no cut file and
// the old one as it was; a knowledge-base entry that does not parse is named and skipped.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileAtomicSync } from '../../src/util/atomic-write.js';
import { tempDir } from '../support/fixture-bundle.js';

const ROOT = process.cwd();
const CLI = join(ROOT, 'dist/src/cli/main.js');
const SAMPLE = join(ROOT, 'samples/workers-csr-pending/log-bundle-20240611103714.tar.gz');

/** The CLI under a file-size limit of `kb` KiB: a write past it fails with EFBIG, as one on a full disk with ENOSPC. */
function cliLimited(kb: number, args: string[], cwd = tempDir()): { status: number | null; stdout: string; stderr: string } {
  const quoted = [process.execPath, CLI, ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(' ');
  return spawnSync('bash', ['-c', `ulimit -f ${kb}; exec ${quoted}`], { encoding: 'utf8', cwd, timeout: 120_000 });
}

describe('a report that cannot be written in full', () => {
  it('is absent, or the old one is kept; the error is one line and exit 2', () => {
    const dir = tempDir('bootlens-full-');
    const report = join(dir, 'report.html');
    const r = cliLimited(16, ['analyze', SAMPLE, '-f', 'html', '-o', report]);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^bootlens: cannot write .*report\.html: EFBIG$/)]);
    expect(existsSync(report)).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
    writeFileSync(report, 'the report of yesterday\n');
    expect(cliLimited(16, ['analyze', SAMPLE, '-f', 'html', '-o', report]).status).toBe(2);
    expect(readFileSync(report, 'utf8')).toBe('the report of yesterday\n');
    expect(readdirSync(dir)).toEqual(['report.html']);
    // With room, the same command writes it whole.
    expect(cliLimited(4096, ['analyze', SAMPLE, '-f', 'html', '-o', report]).status).toBe(1);
    expect(readFileSync(report, 'utf8')).toMatch(/<\/html>\s*$/);
  });

  it('a link is written through to its file, and a device in place (never replaced by a file)', () => {
    const dir = tempDir('bootlens-link-');
    const target = join(dir, 'target.txt');
    writeFileSync(target, 'old\n');
    symlinkSync(target, join(dir, 'link.txt'));
    writeFileAtomicSync(join(dir, 'link.txt'), 'new\n');
    expect(readFileSync(target, 'utf8')).toBe('new\n');
    expect(readdirSync(dir).sort()).toEqual(['link.txt', 'target.txt']);
    writeFileAtomicSync('/dev/null', 'nothing\n');
    expect(existsSync('/dev/null') && readFileSync('/dev/null', 'utf8')).toBe('');
  });
});

describe('kb add on a full disk', () => {
  it('leaves no entry, and an empty or cut entry in the knowledge base is named and skipped by analyze', () => {
    const out = tempDir('bootlens-kb-full-');
    const r = cliLimited(0, ['kb', 'add', SAMPLE, '--id', 'csr-left-pending', '--title', 'CSRs left pending', '--stage', 'workers', '--category', 'csr-pending', '--fix', 'Approve them', '--reference', 'https://example.com/x', '--out', out]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/csr-left-pending\.yaml: cannot write: EFBIG/);
    expect(readdirSync(out)).toEqual([]);

    // A copy of bootlens whose catalogue holds what a full disk left of two kb add entries before this round: an empty file and a cut one.
    const pkg = tempDir('bootlens-pkg-');
    for (const part of ['package.json', 'schema', 'rules', 'dist/src']) cpSync(join(ROOT, part), join(pkg, part), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(pkg, 'node_modules'));
    const kb = join(pkg, 'rules', 'catalogue');
    writeFileSync(join(kb, 'kb-left-empty.yaml'), '');
    writeFileSync(join(kb, 'kb-left-cut.yaml'), 'program: failures reported with bootlens kb add\nrepository: openshift/installer\nentries:\n  - id: left-cut\n    title: A cut entr');
    const analyzed = spawnSync(process.execPath, [join(pkg, 'dist/src/cli/main.js'), 'analyze', SAMPLE, '-f', 'json'], { encoding: 'utf8', timeout: 120_000, env: { ...process.env, BOOTLENS_CACHE_DIR: 'off' } });
    expect(analyzed.status).toBe(1);
    expect((JSON.parse(analyzed.stdout) as { verdict: { stage: string } }).verdict.stage).toBe('workers');
    const skipped = analyzed.stderr.trim().split('\n');
    expect(skipped).toHaveLength(2);
    expect(skipped.join('\n')).toMatch(/knowledge-base entry skipped: .*kb-left-cut\.yaml/);
    expect(skipped.join('\n')).toMatch(/knowledge-base entry skipped: .*kb-left-empty\.yaml/);
  });
});
