// Which bundles a triage run covers: files given, and the entries of folders given (each file
// or sub-folder of a folder is one bundle; a folder that is itself a bundle counts once).
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

const BUNDLE_MARKERS = ['bootstrap', 'control-plane', 'resources', 'gather.log', 'failed-units.txt', 'rendered-assets'];

async function isUnpackedBundle(dir: string): Promise<boolean> {
  const names = await readdir(dir).catch(() => [] as string[]);
  if (names.some((n) => BUNDLE_MARKERS.includes(n))) return true;
  // `log-bundle-<id>/` inside a folder of its own name.
  return names.length === 1 && /^log-bundle/.test(names[0]) && (await isUnpackedBundle(join(dir, names[0])));
}

/** The bundle paths for the arguments, sorted within each folder. */
export async function collectBundles(args: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const arg of args) {
    const st = await stat(arg).catch(() => undefined);
    if (!st) {
      out.push(arg); // reported as unreadable, with the reason
      continue;
    }
    if (!st.isDirectory() || (await isUnpackedBundle(arg))) {
      out.push(arg);
      continue;
    }
    for (const name of (await readdir(arg)).sort()) {
      if (name.startsWith('.')) continue;
      out.push(join(arg, name));
    }
  }
  return out;
}
