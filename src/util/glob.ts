// Shell-style globs (`etcd*`, `kube-?`) as rules, suppressions and the taxonomy's recorded stages
// write them, matched without a regex: `*-*-*-…` as a regex backtracks polynomially on a long
// name; this walk is O(name × glob) whatever the glob.

/** A compiled glob: `*` any run of characters, `?` one character, everything else itself. */
export interface Glob {
  readonly source: string;
  test(name: string): boolean;
}

/** Whether `name` matches `glob` as a whole: the greedy walk that backs up only to the last `*`. */
function matches(glob: string, name: string): boolean {
  let g = 0;
  let n = 0;
  let star = -1;
  let resume = 0;
  while (n < name.length) {
    const c = glob[g];
    if (c === '*') {
      star = g++;
      resume = n;
    } else if (g < glob.length && (c === '?' || c === name[n])) {
      g++;
      n++;
    } else if (star >= 0) {
      g = star + 1;
      n = ++resume;
    } else {
      return false;
    }
  }
  while (glob[g] === '*') g++;
  return g === glob.length;
}

const GLOBS = new Map<string, Glob>();

/** The glob `source`, compiled once (filters ask for every file of every bundle). */
export function compileGlob(source: string): Glob {
  let glob = GLOBS.get(source);
  if (!glob) {
    // Runs of `*` are one `*`.
    const pattern = source.replace(/\*{2,}/g, '*');
    glob = { source, test: (name) => matches(pattern, name) };
    if (GLOBS.size < 4096) GLOBS.set(source, glob);
  }
  return glob;
}

/** Characters of unit, container, service and host names, and the two wildcards. */
const GLOB_CHARS = /^[A-Za-z0-9_.:@\\*?-]+$/;
/** Wildcards a glob may hold: names are short, and a glob of many reads as a mistake. */
const MAX_WILDCARDS = 8;

/** Why `glob` cannot name a unit, container or service, or undefined when it can. */
export function globProblem(glob: string): string | undefined {
  if (!GLOB_CHARS.test(glob)) return `glob '${glob}' may hold only letters, digits, '_', '.', ':', '@', '-' and the wildcards '*' and '?'`;
  if (glob.includes('**')) return `glob '${glob}' repeats '*' ('**' is '*')`;
  const wildcards = glob.replace(/[^*?]/g, '').length;
  if (wildcards > MAX_WILDCARDS) return `glob '${glob}' has ${wildcards} wildcards (at most ${MAX_WILDCARDS})`;
  return undefined;
}
