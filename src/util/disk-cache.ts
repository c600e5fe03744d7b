// A small on-disk cache of derived start-up artefacts (compiled JSON Schemas, parsed rule
// files), keyed by a hash of everything they are derived from: a changed input is a new key,
// never a stale hit. Best effort: a cache that cannot be read or written is simply not used.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { makeDir } from './make-dir.js';

/**
 * `BOOTLENS_CACHE_DIR` (`off` disables the cache), else `$XDG_CACHE_HOME/bootlens`, else
 * `~/.cache/bootlens` (where embedding vectors are cached too).
 */
export function cacheDir(): string | undefined {
  const env = process.env.BOOTLENS_CACHE_DIR;
  if (env === 'off') return undefined;
  if (env) return env;
  const xdg = process.env.XDG_CACHE_HOME;
  return join(xdg && xdg.startsWith('/') ? xdg : join(homedir(), '.cache'), 'bootlens');
}

/** A hex key for `parts` (a part boundary cannot be forged by the parts' content). */
export function cacheKey(...parts: (string | Buffer)[]): string {
  const h = createHash('sha256');
  for (const p of parts) h.update(String(Buffer.byteLength(p))).update(':').update(p);
  return h.digest('hex').slice(0, 32);
}

function pathOf(kind: string, key: string): string | undefined {
  const dir = cacheDir();
  return dir ? join(dir, `${kind}-${key}`) : undefined;
}

/** The text stored under `kind`/`key`, or undefined. */
export function cacheRead(kind: string, key: string): string | undefined {
  const file = pathOf(kind, key);
  if (!file) return undefined;
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** Stores `text` under `kind`/`key`: written aside, then renamed, so readers never see half a file. */
export function cacheWrite(kind: string, key: string, text: string, keep = KEEP_PER_KIND): void {
  const file = pathOf(kind, key);
  if (!file) return;
  try {
    makeDir(dirname(file));
    const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    writeFileSync(tmp, text);
    renameSync(tmp, file);
    prune(dirname(file), kind, keep);
  } catch {
    // A read-only home or a full disk costs the next run its start-up time, nothing else.
  }
}

/** Entries kept per kind: rule sets being edited leave a trail of keys; the newest few stay. */
const KEEP_PER_KIND = 8;

function prune(dir: string, kind: string, keep: number): void {
  const mine = readdirSync(dir)
    .filter((n) => n.startsWith(`${kind}-`) && !n.endsWith('.tmp'))
    .map((n) => ({ n, t: statSync(join(dir, n)).mtimeMs }))
    .sort((a, b) => b.t - a.t);
  for (const { n } of mine.slice(keep)) unlinkSync(join(dir, n));
}
