// The start-up cache holds data, never code, and trusts nothing it reads back: entries are
// checksummed and validated again, read only from a folder of the user's own that no one else can
// write, never through a link, a FIFO or a device; without a home it is off; pruning deletes only
// what bootlens can prove it wrote.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, chownSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defaultRulesDir, loadRules } from '../../src/rules/load-rules.js';
import { RuleError } from '../../src/rules/yaml-rule.js';
import { cacheRead, cacheWrite, configuredCacheDir } from '../../src/util/disk-cache.js';
import { tempDir } from '../support/fixture-bundle.js';

const CLI = join(process.cwd(), 'dist/src/cli/main.js');
const SAMPLE = join(process.cwd(), 'samples/workers-csr-pending');
const isRoot = process.getuid?.() === 0;

/** `analyze` of a sample as a child process with the given environment (nothing of ours inherited but PATH). */
function analyze(env: Record<string, string | undefined>, options: { cwd?: string; uid?: number } = {}): ReturnType<typeof spawnSync> & { stdout: string; stderr: string } {
  const clean: Record<string, string> = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
  for (const [k, v] of Object.entries(env)) if (v !== undefined) clean[k] = v;
  return spawnSync(process.execPath, [CLI, 'analyze', SAMPLE, '-f', 'json', '--similarity', 'lexical'], {
    encoding: 'utf8',
    timeout: 60_000,
    env: clean,
    cwd: options.cwd ?? process.cwd(),
    ...(options.uid !== undefined ? { uid: options.uid, gid: options.uid } : {}),
  }) as ReturnType<typeof spawnSync> & { stdout: string; stderr: string };
}

function verdictOf(r: { stdout: string }): string {
  const v = (JSON.parse(r.stdout) as { verdict: { stage: string; category: string } }).verdict;
  return `${v.stage}/${v.category}`;
}

/** A new folder for a cache, the user's own, writable by no one else. */
function cacheFolder(): string {
  const dir = join(tempDir('bootlens-cache-'), 'cache');
  mkdirSync(dir, { mode: 0o700 });
  return dir;
}

/** Rewrites an entry's payload and its header's checksum and length, as someone with write access could. */
function forgeEntry(file: string, edit: (payload: string) => string): void {
  const text = readFileSync(file, 'utf8');
  const nl = text.indexOf('\n');
  const [magic, version, kind, key] = text.slice(0, nl).split(' ');
  const payload = Buffer.from(edit(text.slice(nl + 1)), 'utf8');
  const sum = createHash('sha256').update(payload).digest('hex');
  writeFileSync(file, Buffer.concat([Buffer.from(`${magic} ${version} ${kind} ${key} ${sum} ${payload.length}\n`), payload]));
}

describe('start-up cache entries', () => {
  let cache: string;
  const before = process.env.BOOTLENS_CACHE_DIR;
  beforeEach(() => {
    cache = cacheFolder();
    process.env.BOOTLENS_CACHE_DIR = cache;
  });
  afterEach(() => {
    if (before === undefined) delete process.env.BOOTLENS_CACHE_DIR;
    else process.env.BOOTLENS_CACHE_DIR = before;
    vi.restoreAllMocks();
  });

  it('loads the same rules from the cache as from the files, and a changed file is read again', () => {
    const dir = join(tempDir(), 'rules');
    cpSync(defaultRulesDir(), dir, { recursive: true });
    const cold = loadRules(dir);
    const entries = readdirSync(cache).filter((n) => n.startsWith('rules-'));
    expect(entries).toHaveLength(1);
    // Plain data with a header: format, version, kind, key, checksum, length; readable by the user only.
    expect(readFileSync(join(cache, entries[0]), 'utf8')).toMatch(/^bootlens-cache 2 rules [0-9a-f]{32} [0-9a-f]{64} \d+\n\[\{"id":/);
    expect(statSync(join(cache, entries[0])).mode & 0o077).toBe(0);
    const warm = loadRules(dir);
    expect(JSON.stringify([...warm.docs])).toBe(JSON.stringify([...cold.docs]));
    expect(warm.rules.map((r) => r.meta.id)).toEqual(cold.rules.map((r) => r.meta.id));
    const file = join(dir, 'workers', 'workers-none-ready.yaml');
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.replace(/^confidence: .*$/m, 'confidence: low'));
    expect(loadRules(dir).docs.get('workers-none-ready')?.confidence).toBe('low');
    // A broken file fails the load though a good set of the same files is cached.
    writeFileSync(file, text.replace(/^confidence: .*$/m, 'confidence: no-such-level'));
    expect(() => loadRules(dir)).toThrow(RuleError);
    expect(() => loadRules(dir)).toThrow(/confidence: 'no-such-level' is not one of high, medium, low/);
  });

  it('validates what it reads back: an edited rules entry, even with a good checksum, is not used', () => {
    const dir = join(tempDir(), 'rules');
    cpSync(defaultRulesDir(), dir, { recursive: true });
    const cold = loadRules(dir);
    const entry = join(cache, readdirSync(cache).find((n) => n.startsWith('rules-')) as string);
    // A confidence no rule may have, and a rule moved under another file's name: the real files are loaded instead.
    forgeEntry(entry, (p) => p.replace(/"confidence":"[a-z]+"/, '"confidence":"function Object() { [native code] }"'));
    expect(JSON.stringify([...loadRules(dir).docs])).toBe(JSON.stringify([...cold.docs]));
    forgeEntry(entry, (p) => p.replace(/"id":"[a-z0-9-]+"/, '"id":"another-rule"'));
    expect(JSON.stringify([...loadRules(dir).docs])).toBe(JSON.stringify([...cold.docs]));
    // The wrong shape altogether, and a payload that no longer matches its checksum.
    forgeEntry(entry, () => '{"rules":1}');
    expect(loadRules(dir).rules.length).toBe(cold.rules.length);
    writeFileSync(entry, readFileSync(entry, 'utf8').replace('{"rules":1}', '{"rules":2}'));
    expect(loadRules(dir).rules.length).toBe(cold.rules.length);
  });

  it('reads only regular files of its own, without following links or waiting on a FIFO, and never more than a bound', () => {
    const key = 'a'.repeat(32);
    cacheWrite('probe', key, '"data"');
    expect(cacheRead('probe', key, (t) => JSON.parse(t) as string)).toBe('data');
    const file = join(cache, `probe-${key}.json`);
    // A link to /dev/zero (memory without bound), to a good entry elsewhere, and a FIFO (a hang).
    rmSync(file);
    symlinkSync('/dev/zero', file);
    expect(cacheRead('probe', key, (t) => t)).toBeUndefined();
    rmSync(file);
    const elsewhere = join(cacheFolder(), 'x.json');
    cacheWrite('probe', key, '"data"');
    cpSync(file, elsewhere);
    rmSync(file);
    symlinkSync(elsewhere, file);
    expect(cacheRead('probe', key, (t) => t)).toBeUndefined();
    rmSync(file);
    expect(spawnSync('mkfifo', [file]).status).toBe(0);
    expect(cacheRead('probe', key, (t) => t)).toBeUndefined();
    // Writing replaces the FIFO by a file (renamed over it), never writes into it.
    cacheWrite('probe', key, '"again"');
    expect(statSync(file).isFile()).toBe(true);
    expect(cacheRead('probe', key, (t) => JSON.parse(t) as string)).toBe('again');
    // An entry that is another user's would do in the user's folder only if planted: refused by its mode here.
    chmodSync(file, 0o666);
    expect(cacheRead('probe', key, (t) => t)).toBeUndefined();
  });

  it('keeps no code: no schema is compiled or loaded from the cache, and a planted file never runs', () => {
    const marker = join(tempDir(), 'ran');
    const planted = `require('fs').writeFileSync(${JSON.stringify(marker)}, 'pwned'); module.exports = () => true;`;
    // Every name the old cache gave compiled schema code, and the current kinds.
    for (const name of ['schema-2ce57ec49f3c36c5faff68abba0cd957.cjs', 'schema-d581ec3a1e25a1a9559dc801603c8125.cjs']) writeFileSync(join(cache, name), planted, { mode: 0o600 });
    const r = analyze({ BOOTLENS_CACHE_DIR: cache });
    expect(r.status).toBe(1);
    expect(existsSync(marker)).toBe(false);
    // No module of bootlens makes code from text at run time.
    const sources = spawnSync('grep', ['-rlE', String.raw`new Function\(|\beval\(|vm\.(runIn|Script|compileFunction)`, join(process.cwd(), 'src')], { encoding: 'utf8' });
    expect(sources.stdout).toBe('');
  });

  it('prunes only files it can prove it wrote', () => {
    const mine = ['kb-old', 'rules-notes.txt', `schema-${'b'.repeat(32)}.cjs`, `lexical-model-${'c'.repeat(32)}.json`];
    // Files of the user's named as entries would be, with content bootlens never wrote.
    for (let i = 0; i < 12; i++) mine.push(`probe-${i.toString(16).padStart(32, '0')}.json`);
    for (const n of mine) writeFileSync(join(cache, n), 'the user\'s own file\n');
    for (let i = 0; i < 10; i++) cacheWrite('probe', `${'f'.repeat(31)}${i.toString(16)}`, `"${i}"`, 3);
    const left = readdirSync(cache);
    for (const n of mine) expect(left).toContain(n);
    // Of its own entries, the newest three stay.
    expect(left.filter((n) => n.startsWith(`probe-${'f'.repeat(31)}`))).toHaveLength(3);
  });
});

describe('the cache folder', () => {
  afterEach(() => vi.restoreAllMocks());

  it('is the configured folder only when its path is absolute, and off without a home', () => {
    const saved = { ...process.env };
    try {
      delete process.env.XDG_CACHE_HOME;
      process.env.BOOTLENS_CACHE_DIR = 'relative/cache';
      expect(configuredCacheDir()).toBeUndefined();
      delete process.env.BOOTLENS_CACHE_DIR;
      process.env.HOME = '';
      expect(configuredCacheDir()).toBeUndefined();
      process.env.HOME = '/home/someone';
      expect(configuredCacheDir()).toBe('/home/someone/.cache/bootlens');
      process.env.XDG_CACHE_HOME = 'relative';
      expect(configuredCacheDir()).toBe('/home/someone/.cache/bootlens');
      process.env.BOOTLENS_CACHE_DIR = 'off';
      expect(configuredCacheDir()).toBeUndefined();
    } finally {
      process.env = saved;
    }
  });

  it('with HOME empty, makes no cache in the folder it runs in (a customer case folder), and the run ends with its verdict', () => {
    const caseFolder = tempDir('bootlens-case-');
    const r = analyze({ HOME: '' }, { cwd: caseFolder });
    expect(r.status).toBe(1);
    expect(verdictOf(r)).toBe('workers/csr-pending');
    expect(readdirSync(caseFolder)).toEqual([]);
    expect(r.stderr).toBe('');
  });

  it('is not used, with one line on stderr, when others can write it or it is a link', () => {
    const open = join(tempDir(), 'open');
    mkdirSync(open);
    chmodSync(open, 0o777);
    const r = analyze({ BOOTLENS_CACHE_DIR: open });
    expect(r.status).toBe(1);
    expect(verdictOf(r)).toBe('workers/csr-pending');
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^bootlens: not using the cache folder .*open: writable by others \(mode 777\)/)]);
    expect(readdirSync(open)).toEqual([]);
    const link = join(tempDir(), 'link');
    symlinkSync(cacheFolder(), link);
    const viaLink = analyze({ BOOTLENS_CACHE_DIR: link });
    expect(viaLink.status).toBe(1);
    expect(viaLink.stderr).toMatch(/not using the cache folder .*link: is a symbolic link/);
  });

  it.runIf(isRoot)('is not used when another user owns it: code or data planted there is never read', () => {
    const shared = cacheFolder();
    // Fill it as its owner would, then hand it to another user (uid 4242), as a shared $HOME/.cache would be.
    expect(analyze({ BOOTLENS_CACHE_DIR: shared }).status).toBe(1);
    const entry = join(shared, readdirSync(shared).find((n) => n.startsWith('rules-')) as string);
    forgeEntry(entry, (p) => p.replace(/"stage":"workers"/g, '"stage":"render"'));
    chownSync(shared, 4242, 4242);
    const r = analyze({ BOOTLENS_CACHE_DIR: shared });
    expect(r.status).toBe(1);
    expect(verdictOf(r)).toBe('workers/csr-pending');
    expect(r.stderr).toMatch(/not using the cache folder .*: owned by uid 4242, not by you \(uid 0\)/);
  });

  it.runIf(isRoot)('is off for a user with no passwd entry and no HOME (env -i), and analyze still works', () => {
    const r = analyze({}, { uid: 54321, cwd: tempDir('bootlens-nohome-') });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(1);
    expect(verdictOf(r)).toBe('workers/csr-pending');
  });
});

describe('a cache folder that cannot be made', () => {
  // Node's recursive mkdir spins forever below /proc: the cache makes its folders one by one.
  it.runIf(existsSync('/proc/self'))('costs nothing but the cache: a run with BOOTLENS_CACHE_DIR below /proc ends with its verdict', () => {
    const r = analyze({ BOOTLENS_CACHE_DIR: '/proc/bootlens-cache' });
    expect(r.error).toBeUndefined();
    expect(r.status).toBe(1);
    expect(verdictOf(r)).toBe('workers/csr-pending');
  });
});
