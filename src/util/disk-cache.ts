// The start-up cache: data derived from bootlens's own files (validated rule files, the knowledge
// base, its lexical model, regex verdicts), kept between runs under a hash of everything it is
// derived from, so a changed input is a new key, never a stale hit. Data only, never code, and
// never trusted: an entry carries a format version and a checksum, is read only from a folder
// the user owns and no one else can write, without following links, from a regular file of
// bounded size, and is checked again by whoever reads it. Best effort: a cache that cannot be
// used costs start-up time, nothing else.
import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readSync, unlinkSync, type Stats } from 'node:fs';
import { userInfo } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { isMainThread } from 'node:worker_threads';
import { writeFileAtomicSync } from './atomic-write.js';
import { makeDir } from './make-dir.js';

/** The first word of every entry: what pruning looks for before it deletes anything. */
const MAGIC = 'bootlens-cache';
/** Bumped when the entry layout changes: entries of another version are misses. */
const FORMAT_VERSION = 2;
/** The largest entry read or written (the rule set, the largest, is about 400 KB). */
export const MAX_ENTRY_BYTES = 32 * 1024 * 1024;
/** A header line is shorter than this. */
const MAX_HEADER = 256;
/** Entries kept per kind: rule sets being edited leave a trail of keys; the newest few stay. */
const KEEP_PER_KIND = 8;
/** Opened without following a link, and without waiting on a FIFO. */
const OPEN_READ = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** The home folder, or undefined when there is none to speak of (unset, empty, relative, no passwd entry). */
function homeDir(): string | undefined {
  let home = process.env.HOME;
  if (home === undefined) {
    try {
      home = userInfo().homedir;
    } catch {
      return undefined;
    }
  }
  return home && isAbsolute(home) ? home : undefined;
}

/**
 * Where the cache is meant to be: `BOOTLENS_CACHE_DIR` (`off` turns it off), else
 * `$XDG_CACHE_HOME/bootlens`, else `$HOME/.cache/bootlens`. Only absolute paths count: a
 * relative one would put the cache in whatever folder bootlens runs in (a customer's case
 * folder). Undefined: no cache.
 */
export function configuredCacheDir(): string | undefined {
  const env = process.env.BOOTLENS_CACHE_DIR;
  if (env === 'off') return undefined;
  if (env) return isAbsolute(env) ? env : undefined;
  const xdg = process.env.XDG_CACHE_HOME;
  if (xdg && isAbsolute(xdg)) return join(xdg, 'bootlens');
  const home = homeDir();
  return home ? join(home, '.cache', 'bootlens') : undefined;
}

/** This process's user id; undefined where the platform has none (then ownership is not checked). */
function myUid(): number | undefined {
  return typeof process.getuid === 'function' ? process.getuid() : undefined;
}

/** Why a file or folder's owner and mode make it unfit for the cache, or undefined. */
function ownershipProblem(st: Stats): string | undefined {
  const uid = myUid();
  if (uid !== undefined && st.uid !== uid) return `owned by uid ${st.uid}, not by you (uid ${uid})`;
  if ((st.mode & 0o022) !== 0) return `writable by others (mode ${(st.mode & 0o777).toString(8)})`;
  return undefined;
}

/**
 * Why a folder cannot hold cache entries, or undefined when it can: it must be a real folder
 * (not a link), owned by this user and writable by no one else, in a parent no one else can
 * rename it in (a parent writable by all is fine only with the sticky bit, like /tmp).
 */
export function folderTrustProblem(dir: string): string | undefined {
  let st: Stats;
  try {
    st = lstatSync(dir);
  } catch (err) {
    return `cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`;
  }
  if (st.isSymbolicLink()) return 'is a symbolic link';
  if (!st.isDirectory()) return 'is not a folder';
  const own = ownershipProblem(st);
  if (own) return own;
  try {
    const parent = lstatSync(dirname(dir));
    if ((parent.mode & 0o002) !== 0 && (parent.mode & 0o1000) === 0) return `its parent ${dirname(dir)} is writable by everyone`;
  } catch {
    // The root has no parent to speak of.
  }
  return undefined;
}

/** Creates a folder for the cache (this user's only: mode 0700) when it is missing. */
function ensureFolder(dir: string): void {
  try {
    lstatSync(dir);
    return;
  } catch {
    // missing: made below
  }
  makeDir(dirname(dir));
  mkdirSync(dir, { mode: 0o700 });
}

const checked = new Map<string, boolean>();

/** Says once per folder, on the main thread only (triage's workers would say it once each), why a cache folder is not used. */
function warn(dir: string, why: string): void {
  if (!isMainThread) return;
  process.stderr.write(`bootlens: not using the cache folder ${dir}: ${why} (use a folder of your own with BOOTLENS_CACHE_DIR, or set it to off)\n`);
}

/**
 * The folder `dir` when it may hold cache entries (made if missing), else undefined with one
 * line on stderr the first time. Checked once per process.
 */
export function trustedFolder(dir: string): string | undefined {
  const known = checked.get(dir);
  if (known !== undefined) return known ? dir : undefined;
  let problem: string | undefined;
  try {
    ensureFolder(dir);
    problem = folderTrustProblem(dir);
  } catch {
    // Cannot be made (a read-only home, below /proc): quietly no cache, as with no home.
    checked.set(dir, false);
    return undefined;
  }
  checked.set(dir, problem === undefined);
  if (problem) warn(dir, problem);
  return problem ? undefined : dir;
}

/** The cache folder, when there is one and it may be used. */
export function cacheDir(): string | undefined {
  const dir = configuredCacheDir();
  return dir === undefined ? undefined : trustedFolder(dir);
}

/** A hex key for `parts` (a part boundary cannot be forged by the parts' content). */
export function cacheKey(...parts: (string | Buffer)[]): string {
  const h = createHash('sha256');
  for (const p of parts) h.update(String(Buffer.byteLength(p))).update(':').update(p);
  return h.digest('hex').slice(0, 32);
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The header line of an entry: format, version, what it is, and the payload's checksum and length. */
function headerOf(kind: string, key: string, payload: Buffer): string {
  return `${MAGIC} ${FORMAT_VERSION} ${kind} ${key} ${sha256(payload)} ${payload.length}\n`;
}

/**
 * `use` of a file opened without following links or waiting on a FIFO, when what was opened is a
 * regular file of this user's that no one else can write; undefined otherwise or on any error.
 */
function withOwnFile<T>(file: string, use: (fd: number, st: Stats) => T | undefined): T | undefined {
  let fd: number;
  try {
    fd = openSync(file, OPEN_READ);
  } catch {
    return undefined;
  }
  try {
    const st = fstatSync(fd);
    return st.isFile() && ownershipProblem(st) === undefined ? use(fd, st) : undefined;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** Reads a regular file of this user's (see withOwnFile); at most `max` bytes, else undefined. */
function readOwnFile(file: string, max: number): Buffer | undefined {
  return withOwnFile(file, (fd, st) => {
    if (st.size > max) return undefined;
    const buf = Buffer.allocUnsafe(st.size);
    let got = 0;
    while (got < st.size) {
      const n = readSync(fd, buf, got, st.size - got, got);
      if (n === 0) return undefined;
      got += n;
    }
    return buf;
  });
}

/** The payload of the entry file `file` if it is a whole, unaltered entry of `kind`/`key`. */
export function readEntryFile(file: string, kind: string, key: string): string | undefined {
  const buf = readOwnFile(file, MAX_ENTRY_BYTES + MAX_HEADER);
  if (!buf) return undefined;
  const nl = buf.indexOf(10);
  if (nl < 0 || nl >= MAX_HEADER) return undefined;
  const payload = buf.subarray(nl + 1);
  if (buf.toString('latin1', 0, nl + 1) !== headerOf(kind, key, payload)) return undefined;
  return payload.toString('utf8');
}

/** Writes the entry file `file` (in a folder already trusted) whole or not at all, readable by this user only. */
export function writeEntryFile(file: string, kind: string, key: string, text: string): void {
  const payload = Buffer.from(text, 'utf8');
  if (payload.length > MAX_ENTRY_BYTES) return;
  try {
    writeFileAtomicSync(file, Buffer.concat([Buffer.from(headerOf(kind, key, payload), 'latin1'), payload]), { mode: 0o600, replace: true });
  } catch {
    // A read-only home or a full disk costs the next run its start-up time, nothing else.
  }
}

function entryName(kind: string, key: string): string {
  return `${kind}-${key}.json`;
}

/**
 * What is stored under `kind`/`key`, as `decode` makes it from the entry's text; undefined when
 * there is none, or the entry is damaged, or `decode` refuses it (returns undefined or throws).
 * `decode` checks the data as it would check any input: an entry is never trusted.
 */
export function cacheRead<T>(kind: string, key: string, decode: (text: string) => T | undefined): T | undefined {
  const dir = cacheDir();
  if (!dir) return undefined;
  const text = readEntryFile(join(dir, entryName(kind, key)), kind, key);
  if (text === undefined) return undefined;
  try {
    return decode(text);
  } catch {
    return undefined;
  }
}

/** Stores `text` under `kind`/`key` (written aside, then renamed: readers never see half a file), then prunes the kind. */
export function cacheWrite(kind: string, key: string, text: string, keep = KEEP_PER_KIND): void {
  const dir = cacheDir();
  if (!dir) return;
  writeEntryFile(join(dir, entryName(kind, key)), kind, key, text);
  try {
    prune(dir, kind, keep);
  } catch {
    // A folder that cannot be listed is pruned next time.
  }
}

/** When an entry file of `kind` was written, if bootlens wrote it (its name and header say so), else undefined. */
function writtenByBootlens(file: string, kind: string, key: string): number | undefined {
  return withOwnFile(file, (fd, st) => {
    const head = Buffer.alloc(MAX_HEADER);
    const n = readSync(fd, head, 0, MAX_HEADER, 0);
    return head.toString('latin1', 0, n).startsWith(`${MAGIC} ${FORMAT_VERSION} ${kind} ${key} `) ? st.mtimeMs : undefined;
  });
}

/** Removes the oldest entries of `kind` beyond `keep`: only files bootlens can prove it wrote. */
function prune(dir: string, kind: string, keep: number): void {
  const pattern = /^([a-z-]+)-([0-9a-f]{32})\.json$/;
  const named = readdirSync(dir)
    .map((name) => pattern.exec(name))
    .filter((m): m is RegExpExecArray => m !== null && m[1] === kind);
  if (named.length <= keep) return;
  const ours: { name: string; time: number }[] = [];
  for (const m of named) {
    const time = writtenByBootlens(join(dir, m[0]), kind, m[2]);
    if (time !== undefined) ours.push({ name: m[0], time });
  }
  if (ours.length <= keep) return;
  ours.sort((a, b) => b.time - a.time);
  for (const { name } of ours.slice(keep)) {
    try {
      unlinkSync(join(dir, name));
    } catch {
      // Gone already (another run pruned it).
    }
  }
}
