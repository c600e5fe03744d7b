// Shell-style globs (`etcd*`, `kube-?`) as rules, suppressions and the taxonomy's recorded stages write them.

const GLOBS = new Map<string, RegExp>();

/** `etcd*` → /^etcd.*$/; compiled once per glob (filters ask for every file of every bundle). */
export function globToRegExp(glob: string): RegExp {
  let re = GLOBS.get(glob);
  if (!re) {
    const escaped = glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
    // No `g` flag: `test` keeps no state, so one instance serves every caller.
    re = new RegExp(`^${escaped}$`);
    if (GLOBS.size < 4096) GLOBS.set(glob, re);
  }
  return re;
}
