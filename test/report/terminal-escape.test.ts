// Terminal text is escaped in one place (termText): control characters from bundle names reach
// no terminal raw, in any text command or the progress line, and are shown visibly instead.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { termText } from '../../src/report/escape.js';
import { fitLine, oneLine, renderTable, repeatsNote } from '../../src/report/format.js';
import { bundleFiles, packTar, ROOT, tempDir, writeTree } from '../support/fixture-bundle.js';

const CLI = join(process.cwd(), 'dist/src/cli/main.js');

/** Any character a terminal acts on, but the line breaks a report is made of. */
// eslint-disable-next-line no-control-regex
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** An OSC sequence that retitles the terminal, and one that clears the screen. */
const RETITLE = '\u001b]0;pwned\u0007';
const CLEAR = '\u001b[2J';

function run(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', COLUMNS: '120' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('termText', () => {
  it('shows ESC, BEL and other C0 controls as their control pictures, so a sequence is seen, not obeyed', () => {
    expect(termText(`a${RETITLE}b`)).toBe('a␛]0;pwned␇b');
    expect(termText(`x${CLEAR}\u0000\u007fy`)).toBe('x␛[2J␀␡y');
  });

  it('names C1 controls (8-bit CSI) and bidirectional overrides instead of passing them on', () => {
    expect(termText('a\u009b31mb')).toBe('a<U+009B>31mb');
    expect(termText('file\u202eexe.txt')).toBe('file<U+202E>exe.txt');
  });

  it('drops colour sequences, which only style a log line (or hide it), and makes line breaks and tabs spaces', () => {
    expect(termText('\u001b[31mERROR\u001b[0m\tx\r\ny')).toBe('ERROR x  y');
    expect(termText('\u001b[8mhidden\u001b[0m')).toBe('hidden');
  });

  it('is what oneLine, fitLine and renderTable give the terminal', () => {
    expect(oneLine(`host${RETITLE}`, 100)).toBe('host␛]0;pwned␇');
    expect(fitLine(`line${RETITLE}`, 100)).toBe('line␛]0;pwned␇');
    const table = renderTable(['Host'], [[`m${CLEAR}`]], 80);
    expect(table).toContain('m␛[2J');
    expect(table).not.toMatch(RAW_CONTROL);
  });
});

describe('fitLine: a long line is cut around the part that matters', () => {
  const etcd =
    '{"level":"warn","ts":"2026-11-22T10:16:41.675186Z","caller":"rafthttp/probing_status.go:68","msg":"prober detected unhealthy status","round-tripper-name":"ROUND_TRIPPER_RAFT_MESSAGE","remote-peer-id":"7a1f0c9e0d2b3c4d","rtt":"0s","error":"dial tcp 10.0.0.6:2380: i/o timeout"}';
  const start = etcd.indexOf('"error"');
  const match = { start, end: etcd.length - 1 };

  it('keeps the match whole with … at the cut ends, within the width', () => {
    const out = fitLine(etcd, 80, match);
    expect(out.length).toBeLessThanOrEqual(80);
    expect(out).toContain('"error":"dial tcp 10.0.0.6:2380: i/o timeout"');
    expect(out.startsWith('…')).toBe(true);
  });

  it('centres a match in the middle of a line and marks both cut ends', () => {
    const text = `${'a'.repeat(200)}NEEDLE${'b'.repeat(200)}`;
    const out = fitLine(text, 60, { start: 200, end: 206 });
    expect(out).toHaveLength(60);
    expect(out).toMatch(/^…a+NEEDLEb+…$/);
  });

  it('keeps the start of a line without a match, and the whole line at Infinity (--wide)', () => {
    // Cut at a word: the line's first 59 characters end inside `"caller"`, the cut ends where its word does.
    expect(fitLine(etcd, 60)).toBe(`${etcd.slice(0, etcd.indexOf('caller') + 'caller'.length)}…`);
    expect(fitLine(etcd, Infinity, match)).toBe(etcd);
  });

  it('keeps its offsets right when escaping changes the length before the match', () => {
    const text = `${'\u009b'.repeat(30)}${'x'.repeat(100)}TARGET${'y'.repeat(100)}`;
    const s = text.indexOf('TARGET');
    expect(fitLine(text, 50, { start: s, end: s + 6 })).toContain('TARGET');
  });

  it('shows how often a line occurred only when more than once', () => {
    expect(repeatsNote(37)).toBe(' (×37)');
    expect(repeatsNote(1)).toBe('');
    expect(repeatsNote(undefined)).toBe('');
  });
});

describe('hostile names through the real CLI', () => {
  let good: string;
  let bad: string;
  let folder: string;
  beforeAll(async () => {
    const dir = tempDir();
    const files = bundleFiles();
    writeTree(join(dir, 'good'), ROOT, files);
    const operators = JSON.parse(files['resources/clusteroperators.json']) as { items: { metadata: { name: string } }[] };
    operators.items[0].metadata.name = `etcd${RETITLE}`;
    const hostile = {
      ...files,
      'bootstrap/network/hostname.txt': `boot${RETITLE}strap${CLEAR}\n`,
      'resources/clusteroperators.json': JSON.stringify(operators),
    };
    writeTree(join(dir, 'bad'), ROOT, hostile);
    good = await packTar(join(dir, 'good'), ROOT, join(dir, 'good.tar.gz'), true);
    // The bundle's own file name carries the sequence too.
    folder = join(dir, 'cases');
    const packed = await packTar(join(dir, 'bad'), ROOT, join(dir, 'bad.tar.gz'), true);
    mkdirSync(folder, { recursive: true });
    bad = join(folder, `log-bundle${RETITLE}.tar.gz`);
    copyFileSync(packed, bad);
  });

  it('inspect text shows the host, operator and bundle names visibly and writes no control character', () => {
    const r = run(['inspect', bad]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(RAW_CONTROL);
    expect(r.stdout).toContain('␛]0;pwned␇');
    expect(r.stdout).toContain('␛[2J');
  });

  it('diff text writes no control character from operator or bundle names', () => {
    const r = run(['diff', good, bad]);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(RAW_CONTROL);
    // The renamed operator's conditions are in one bundle only: counted, not listed; the bundle's name shows.
    expect(r.stdout).toContain('log-bundle␛]0;pwned␇.tar.gz');
    expect(r.stdout).toMatch(/conditions are present in one bundle only/);
    const json = run(['diff', good, bad, '--format', 'json']);
    expect(json.stdout).not.toMatch(RAW_CONTROL);
  });

  it('triage text and its progress lines write no control character from bundle names', () => {
    const r = run(['triage', bad, '--jobs', '1']);
    expect(r.code).toBe(1);
    expect(r.stdout).not.toMatch(RAW_CONTROL);
    expect(r.stderr).not.toMatch(RAW_CONTROL);
    expect(r.stdout).toContain('␛]0;pwned␇');
    expect(r.stderr).toContain('␛]0;pwned␇');
  });

  it('analyze text and its error lines write no control character', () => {
    const r = run(['analyze', bad]);
    expect(r.code).toBe(1);
    expect(r.stdout).not.toMatch(RAW_CONTROL);
    const missing = run(['analyze', join(folder, `missing${RETITLE}.tar.gz`)]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).not.toMatch(RAW_CONTROL);
    expect(missing.stderr).toContain('missing␛]0;pwned␇');
  });
});
