// Folder creation that cannot hang.
import { mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Creates a folder and its missing parents one at a time: Node's recursive mkdir spins forever
 * below /proc (BOOTLENS_CACHE_DIR=/proc/x hung every run).
 */
export function makeDir(dir: string, depth = 0): void {
  try {
    if (statSync(dir).isDirectory()) return;
  } catch {
    // missing: made below
  }
  const parent = dirname(dir);
  if (parent === dir || depth > 32) throw new Error(`cannot create ${dir}`);
  makeDir(parent, depth + 1);
  mkdirSync(dir);
}

