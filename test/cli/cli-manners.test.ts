// Plain CLI manners: a closed or full stdout, the terminal's width, several bundles where one is
// unreadable, unknown rule ids and merge input that is no triage JSON lines.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundleFiles, packTar, ROOT, tempDir, writeTree } from '../support/fixture-bundle.js';

const CLI = join(process.cwd(), 'dist/src/cli/main.js');
const ENV: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
delete ENV.COLUMNS;

function run(args: string[], env: NodeJS.ProcessEnv = ENV): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Runs the CLI with its stdout's reader gone before it writes (`| head` that already quit). */
function runClosedPipe(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: ENV, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

function widest(text: string): number {
  return Math.max(...text.split('\n').map((l) => l.length));
}

let bundle: string;
let dir: string;
/** An etcd line wider than any terminal, its error at the end. */
const ETCD_ERROR = '"error":"dial tcp 10.0.0.6:2380: i/o timeout"';
beforeAll(async () => {
  dir = tempDir();
  const files = bundleFiles();
  writeTree(dir, ROOT, files);
  bundle = await packTar(dir, ROOT, join(dir, 'b.tar.gz'), true);
});

describe('a closed or full stdout', () => {
  it('ends quietly when the reader has gone, with the exit code the result deserves', async () => {
    const inspect = await runClosedPipe(['inspect', bundle, '--format', 'json']);
    expect(inspect.stderr).toBe('');
    expect(inspect.code).toBe(0);
    // analyze diagnoses a failure in this bundle: 1, whether or not anyone read the report.
    const analyze = await runClosedPipe(['analyze', bundle]);
    expect(analyze.stderr).toBe('');
    expect(analyze.code).toBe(1);
  });

  it.skipIf(!existsSync('/dev/full'))('says in one line that stdout could not be written, and exits 2', () => {
    const fd = openSync('/dev/full', 'w');
    try {
      const r = spawnSync(process.execPath, [CLI, 'inspect', bundle, '--format', 'json'], { env: ENV, stdio: ['ignore', fd, 'pipe'], encoding: 'utf8' });
      expect(r.status).toBe(2);
      expect(r.stderr).toBe('bootlens: cannot write to stdout: ENOSPC\n');
    } finally {
      closeSync(fd);
    }
  });
});

describe("text follows the terminal's width", () => {
  let wideBundle: string;
  beforeAll(async () => {
    // The etcd container's log holds a line of 300+ characters whose error is at its end.
    const files = bundleFiles();
    const key = Object.keys(files).find((k) => k.startsWith('bootstrap/containers/etcd-') && k.endsWith('.log'));
    if (!key) throw new Error('fixture has no etcd container log');
    const long = `{"level":"warn","ts":"2026-11-22T10:16:41.675186Z","caller":"rafthttp/probing_status.go:68","msg":"prober detected unhealthy status","round-tripper-name":"ROUND_TRIPPER_RAFT_MESSAGE","remote-peer-id":"7a1f0c9e0d2b3c4d","rtt":"0s",${ETCD_ERROR}}`;
    files[key] = `${files[key]}${long}\n`;
    const d = tempDir();
    writeTree(d, ROOT, files);
    wideBundle = await packTar(d, ROOT, join(d, 'wide.tar.gz'), true);
  });

  it('keeps every line of analyze and inspect within COLUMNS or --width', () => {
    for (const [args, env, width] of [
      [['analyze', bundle], { ...ENV, COLUMNS: '72' }, 72],
      [['inspect', bundle], { ...ENV, COLUMNS: '72' }, 72],
      [['analyze', bundle, '--width', '90'], ENV, 90],
      [['inspect', wideBundle, '--width', '64'], ENV, 64],
    ] as const) {
      const r = run([...args], env);
      expect(r.stdout.length, args.join(' ')).toBeGreaterThan(200);
      expect(widest(r.stdout), args.join(' ')).toBeLessThanOrEqual(width);
    }
  });

  it('prints full lines with --wide', () => {
    const narrow = run(['inspect', bundle], { ...ENV, COLUMNS: '72' });
    const wide = run(['inspect', bundle, '--wide'], { ...ENV, COLUMNS: '72' });
    expect(widest(wide.stdout)).toBeGreaterThan(72);
    expect(wide.stdout).toContain('master 10.0.0.7 (master-2.ocp4.example.com)');
    expect(narrow.stdout).not.toContain('master 10.0.0.7 (master-2.ocp4.example.com)');
  });

  it('refuses a --width that is no number of columns', () => {
    const r = run(['analyze', bundle, '--width', 'wide']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('keeps triage text within COLUMNS or --width, full with --wide, and refuses a bad width before reading', () => {
    const narrow = run(['triage', '--jobs', '1', bundle], { ...ENV, COLUMNS: '40' });
    expect(narrow.stdout.length).toBeGreaterThan(80);
    expect(widest(narrow.stdout)).toBeLessThanOrEqual(40);
    const wide = run(['triage', '--jobs', '1', '--wide', bundle], { ...ENV, COLUMNS: '40' });
    expect(widest(wide.stdout)).toBeGreaterThan(40);
    const bad = run(['triage', '--width', '0', bundle]);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split('\n')).toEqual(["bootlens: --width must be a whole number of columns, not '0'"]);
  });
});

describe('several bundles where one is unreadable', () => {
  it('gives the reports that could be made, one line for the unreadable one, and exits 2', () => {
    const random = join(dir, 'random.txt');
    // Bytes that are no archive and no text.
    writeFileSync(random, Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7919 + 13) % 256)));
    const r = run(['analyze', bundle, random, '--format', 'json']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('random.txt');
    const report = JSON.parse(r.stdout) as { verdict: { status: string; stage: string } };
    expect(report.verdict).toMatchObject({ status: 'failed', stage: 'bootstrap-etcd' });
    const text = run(['analyze', random, bundle]);
    expect(text.code).toBe(2);
    expect(text.stdout).toMatch(/^bootlens b\.tar\.gz/);
  });
});

describe('usage errors', () => {
  it('an unknown rule id for rules test is a usage error (exit 2, one line)', () => {
    const r = run(['rules', 'test', 'no-such-rule']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("bootlens: unknown rule 'no-such-rule' (see bootlens rules list)\n");
  });

  it('triage --merge of a file that holds no JSON lines is a usage error: one line, exit 2', () => {
    const r = run(['triage', '--merge', bundle]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/holds no triage records/);
    expect(r.stdout).toBe('');
  });

  it('triage --merge redacts what it passes on', () => {
    const jsonl = join(dir, 'shard.jsonl');
    const t = run(['triage', bundle, '--jobs', '1', '--jsonl', jsonl, '--format', 'json']);
    expect(t.code).toBe(1);
    const record = JSON.parse(readFileSync(jsonl, 'utf8').split('\n')[0]) as { bundle: string };
    record.bundle = 'case password=hunter2 https://ghp_AbCdEf0123456789xyzToken@github.com/x';
    writeFileSync(jsonl, `${JSON.stringify(record)}\n`);
    for (const format of ['json', 'text', 'md', 'html']) {
      const m = run(['triage', '--merge', jsonl, '--format', format]);
      expect(m.code, m.stderr).toBe(1);
      expect(m.stdout).toContain('password=');
      expect(m.stdout, format).not.toMatch(/hunter2|AbCdEf0123456789xyzToken/);
    }
  });
});
