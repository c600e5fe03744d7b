// Finds files shipped with bootlens (rules/, schema/) wherever it runs from: src/ under vitest,
// dist/src/ in a clone, or an npm install (global prefix, node_modules, a linked clone).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

/** Whether dir holds bootlens's own package.json (not a project that installed bootlens). */
function isPackageRoot(dir: string): boolean {
  const manifest = join(dir, 'package.json');
  if (!existsSync(manifest) || !existsSync(join(dir, 'schema'))) return false;
  try {
    return (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === 'bootlens';
  } catch {
    return false;
  }
}

/** The folder holding bootlens's package.json. */
export function packageRoot(): string {
  if (cached) return cached;
  // import.meta.url is this module's real path: Node resolves the bin symlink npm makes.
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (isPackageRoot(dir)) return (cached = dir);
    const up = dirname(dir);
    if (up === dir) throw new Error('cannot find the bootlens package folder (package.json and schema/)');
    dir = up;
  }
}
