// Finds files shipped with bootlens (rules/, schema/) whether it runs from src/ or dist/.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

/** The folder holding bootlens's package.json. */
export function packageRoot(): string {
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'schema'))) return (cached = dir);
    const up = dirname(dir);
    if (up === dir) throw new Error('cannot find the bootlens package folder');
    dir = up;
  }
}
