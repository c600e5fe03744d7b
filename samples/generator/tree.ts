// A folder tree being assembled (one gather's artifacts directory): files with their content
// and owner, directories (empty ones too), turned into sorted tar entries under a prefix.
import type { Content } from './content.js';
import type { TarEntry } from './tar.js';

export interface FileNode {
  content: Content;
  owner: 'core' | 'root';
  mode?: number;
}

export class Tree {
  readonly files = new Map<string, FileNode>();
  readonly dirs = new Set<string>();

  add(path: string, content: Content | string, owner: 'core' | 'root' = 'core', mode?: number): this {
    const c = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    this.files.set(path, { content: c, owner, mode });
    this.addParents(path);
    return this;
  }

  dir(path: string): this {
    this.dirs.add(path.replace(/\/$/, ''));
    this.addParents(path.replace(/\/$/, ''));
    return this;
  }

  /** Copies another tree under `prefix/`. */
  graft(prefix: string, other: Tree): this {
    this.dir(prefix);
    for (const d of other.dirs) this.dir(`${prefix}/${d}`);
    for (const [p, f] of other.files) {
      this.files.set(`${prefix}/${p}`, f);
      this.addParents(`${prefix}/${p}`);
    }
    return this;
  }

  private addParents(path: string): void {
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) this.dirs.add(parts.slice(0, i).join('/'));
  }

  /** Sorted tar entries under `root/` (the root directory entry first). */
  entries(root: string, mtime: number, uids: { core: [number, number] }): TarEntry[] {
    const all = new Map<string, TarEntry>();
    const meta = (owner: 'core' | 'root'): Pick<TarEntry, 'uid' | 'gid' | 'uname' | 'gname'> =>
      owner === 'root' ? { uid: 0, gid: 0, uname: 'root', gname: 'root' } : { uid: uids.core[0], gid: uids.core[1], uname: 'core', gname: 'core' };
    all.set('', { path: `${root}/`, type: 'dir', mode: 0o755, mtime, ...meta('core') });
    for (const d of this.dirs) if (d) all.set(d, { path: `${root}/${d}/`, type: 'dir', mode: 0o755, mtime, ...meta('core') });
    for (const [p, f] of this.files) all.set(p, { path: `${root}/${p}`, type: 'file', mode: f.mode ?? 0o644, mtime, content: f.content, ...meta(f.owner) });
    return [...all.keys()].sort(compareTarOrder).map((k) => all.get(k) as TarEntry);
  }
}

/** Orders paths so a directory comes before its contents, siblings by name. */
function compareTarOrder(a: string, b: string): number {
  if (a === b) return 0;
  if (a === '') return -1;
  if (b === '') return 1;
  const pa = a.split('/');
  const pb = b.split('/');
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    if (pa[i] !== pb[i]) return pa[i] < pb[i] ? -1 : 1;
  }
  return pa.length - pb.length;
}
