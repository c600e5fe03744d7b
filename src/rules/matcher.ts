// Line matchers of YAML rules: `contains` or `regex`, compiled once, with the literal
// substrings the reader uses as a cheap prefilter before running any regex.

export interface MatcherSpec {
  contains?: string;
  regex?: string;
  literals?: string[];
}

export interface CompiledMatcher {
  /** Substrings one of which every matching line contains; empty: no prefilter possible. */
  literals: string[];
  pattern?: RegExp;
  /** Runs the full test on a line; returns named captures (empty object) or undefined. */
  test(line: string): Record<string, string> | undefined;
  describe: string;
}

const META = new Set(['\\', '^', '$', '.', '|', '?', '*', '+', '(', ')', '[', ']', '{', '}']);

/** Splits a regex source on its top-level `|`. */
function topLevelBranches(source: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let inClass = false;
  let start = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '|' && depth === 0) {
      out.push(source.slice(start, i));
      start = i + 1;
    }
  }
  out.push(source.slice(start));
  return out;
}

/**
 * The longest run of plain characters a branch always contains: stops at groups, classes
 * and quantified characters (a quantifier makes the character before it optional).
 */
function longestLiteral(branch: string): string {
  let best = '';
  let run = '';
  const flush = (): void => {
    if (run.length > best.length) best = run;
    run = '';
  };
  for (let i = 0; i < branch.length; i++) {
    const c = branch[i];
    const next = branch[i + 1];
    const quantified = next === '?' || next === '*' || next === '+' || next === '{';
    if (c === '\\') {
      const e = branch[i + 1];
      const after = branch[i + 2];
      const q = after === '?' || after === '*' || after === '+' || after === '{';
      i++;
      // An escaped punctuation character is a literal; \d, \s, \w, \b... are not.
      if (e !== undefined && /[^A-Za-z0-9]/.test(e) && !q) run += e;
      else flush();
      continue;
    }
    if (c === '(' || c === '[') {
      flush();
      // Skip the group or class: its content may be optional.
      let depth = 0;
      for (; i < branch.length; i++) {
        if (branch[i] === '\\') {
          i++;
          continue;
        }
        if (branch[i] === '(' || branch[i] === '[') depth++;
        if (branch[i] === ')' || branch[i] === ']') depth--;
        if (depth === 0) break;
      }
      continue;
    }
    if (META.has(c) || quantified) {
      flush();
      continue;
    }
    run += c;
  }
  flush();
  return best;
}

/** Literals for a regex: one per top-level branch, when every branch has one of 3+ chars. */
export function regexLiterals(source: string, flags = ''): string[] {
  if (flags.includes('i')) return [];
  const lits = topLevelBranches(source).map(longestLiteral);
  return lits.every((l) => l.length >= 3) ? [...new Set(lits)] : [];
}

/**
 * Flags regexes that can backtrack catastrophically: a quantified group that itself holds a
 * quantifier (`(a+)+`, `(\s*x*)*`), or two adjacent unbounded wildcards (`.*.*`).
 */
export function isCatastrophic(source: string): boolean {
  if (/\((?:[^()\\]|\\.)*[*+](?:[^()\\]|\\.)*\)[*+{]/.test(source)) return true;
  if (/\.\*\??\.\*/.test(source) || /\.\+\??\.\*|\.\*\??\.\+/.test(source)) return true;
  return false;
}

/** Compiles a matcher; throws with a clear message on a bad regex. */
export function compileMatcher(spec: MatcherSpec): CompiledMatcher {
  if (spec.contains !== undefined) {
    const needle = spec.contains;
    return {
      literals: [needle],
      test: (line) => (line.includes(needle) ? {} : undefined),
      describe: `contains '${needle}'`,
    };
  }
  if (spec.regex === undefined) throw new Error('a matcher needs contains or regex');
  let pattern: RegExp;
  try {
    pattern = new RegExp(spec.regex);
  } catch (err) {
    throw new Error(`invalid regex /${spec.regex}/: ${(err as Error).message}`);
  }
  const literals = spec.literals ?? regexLiterals(spec.regex);
  return {
    literals,
    pattern,
    test: (line) => {
      const m = pattern.exec(line);
      if (!m) return undefined;
      const caps: Record<string, string> = {};
      for (const [k, v] of Object.entries(m.groups ?? {})) if (v !== undefined) caps[k] = v;
      return caps;
    },
    describe: `matches /${spec.regex}/`,
  };
}
