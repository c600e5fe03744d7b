// What a regex's source says of itself, read without running it: the literal substrings every
// match contains (a reader's cheap prefilter) and a first guard against catastrophic backtracking.
// Shared by the rules' matchers and the message catalogue.

const META = new Set(['\\', '^', '$', '.', '|', '?', '*', '+', '(', ')', '[', ']', '{', '}']);

/**
 * The characters of a regex source that are syntax: outside escapes and character classes (a
 * class's `[` itself included), with their index, in one pass.
 */
function* syntaxChars(source: string): Generator<[string, number]> {
  let inClass = false;
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
    yield [c, i];
  }
}

/** Splits a regex source on its top-level `|`. */
function topLevelBranches(source: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (const [c, i] of syntaxChars(source)) {
    if (c === '(') depth++;
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
 * A cheap first guard, run on every rule at load: a quantified group that itself holds a
 * quantifier (`(a+)+`, `(\s*x*)*`), or two adjacent unbounded wildcards (`.*.*`). One pass over
 * the source (a regex here would itself be super-linear in a crafted source); `rules lint`
 * runs the real checker (checkRegexLinear).
 */
export function isCatastrophic(source: string): boolean {
  // Innermost groups only: whether the group open now holds a quantifier, reset by a nested group.
  let quantifiedInside = false;
  let inGroup = false;
  for (const [c, i] of syntaxChars(source)) {
    if (c === '(') {
      inGroup = true;
      quantifiedInside = false;
    } else if (c === ')') {
      const next = source[i + 1];
      if (inGroup && quantifiedInside && (next === '*' || next === '+' || next === '{')) return true;
      inGroup = false;
    } else if ((c === '*' || c === '+') && inGroup) quantifiedInside = true;
  }
  return source.includes('.*.*') || source.includes('.*?.*') || source.includes('.+.*') || source.includes('.+?.*') || source.includes('.*.+') || source.includes('.*?.+');
}

/** Where the group opening at `open` closes (the index of its `)`), classes and escapes skipped. */
function groupEnd(source: string, open: number): number {
  let depth = 0;
  for (const [c, i] of syntaxChars(source.slice(open))) {
    if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return open + i;
  }
  return source.length;
}

/** Whether the quantifier at `at` (if any) lets the item before it occur zero times. */
function optionalAt(source: string, at: number): boolean {
  const q = source[at];
  return q === '?' || q === '*' || (q === '{' && /^\{0[,}]/.test(source.slice(at)));
}

/** The index after a quantifier at `at` (and its lazy `?`), or `at` when there is none. */
function skipQuantifier(source: string, at: number): number {
  let i = at;
  const q = source[i];
  if (q === '?' || q === '*' || q === '+') i++;
  else if (q === '{') {
    const close = source.indexOf('}', i);
    if (close < 0 || !/^\{\d+(?:,\d*)?\}$/.test(source.slice(i, close + 1))) return at;
    i = close + 1;
  } else return at;
  return source[i] === '?' ? i + 1 : i;
}

/**
 * Substrings one of which every match of a branch contains: the best of its required literal runs
 * and required groups (a group offers the union of its branches' sets), best meaning the set whose
 * shortest member is longest. Undefined when nothing can be said.
 */
function branchLiterals(branch: string, minLength: number): string[] | undefined {
  let best: string[] | undefined;
  const offer = (set: string[] | undefined): void => {
    if (!set || set.length === 0 || set.some((s) => s.length < minLength)) return;
    const worst = Math.min(...set.map((s) => s.length));
    if (!best || worst > Math.min(...best.map((s) => s.length))) best = set;
  };
  let run = '';
  const flush = (): void => {
    offer(run ? [run] : undefined);
    run = '';
  };
  for (let i = 0; i < branch.length; ) {
    const c = branch[i];
    if (c === '(') {
      flush();
      const close = groupEnd(branch, i);
      const head = branch.slice(i, i + 4);
      const look = head.startsWith('(?=') || head.startsWith('(?!') || head.startsWith('(?<=') || head.startsWith('(?<!');
      const bodyStart = head.startsWith('(?:') ? i + 3 : head.startsWith('(?<') && !look ? branch.indexOf('>', i) + 1 : look ? close : i + 1;
      const after = close + 1;
      if (!look && !optionalAt(branch, after)) offer(literalSet(branch.slice(bodyStart, close), minLength));
      i = skipQuantifier(branch, after);
      continue;
    }
    if (c === '[') {
      flush();
      let j = i + 1;
      for (; j < branch.length && branch[j] !== ']'; j++) if (branch[j] === '\\') j++;
      i = skipQuantifier(branch, j + 1);
      continue;
    }
    let ch: string | undefined;
    let next = i + 1;
    if (c === '\\') {
      const e = branch[i + 1];
      next = i + 2;
      // An escaped punctuation character is itself; \d, \s, \w, \b... are not text.
      ch = e !== undefined && /[^A-Za-z0-9]/.test(e) ? e : undefined;
      if (e === 'k' && branch[i + 2] === '<') next = branch.indexOf('>', i) + 1;
    } else if (!META.has(c)) ch = c;
    const quantified = next !== skipQuantifier(branch, next);
    if (ch === undefined || c === '^' || c === '$') {
      flush();
      i = skipQuantifier(branch, next);
      continue;
    }
    if (quantified) {
      // `x+` still holds one x, but the run is broken after it; `x?`, `x*` hold none.
      if (!optionalAt(branch, next)) run += ch;
      flush();
      i = skipQuantifier(branch, next);
      continue;
    }
    run += ch;
    i = next;
  }
  flush();
  return best;
}

/**
 * Substrings one of which every match of `source` contains — looking into groups, unlike
 * `regexLiterals` — for a prefilter over many regexes; empty when none can be said (a branch with
 * no required text of `minLength` characters).
 */
export function requiredLiterals(source: string, minLength = 3): string[] {
  return literalSet(source, minLength) ?? [];
}

function literalSet(source: string, minLength: number): string[] | undefined {
  const out = new Set<string>();
  for (const branch of topLevelBranches(source)) {
    const set = branchLiterals(branch, minLength);
    if (!set) return undefined;
    for (const s of set) out.add(s);
  }
  return [...out];
}

/**
 * Whether a regex refers back to a group (`\\1`, `\\k<name>`): matching with a back-reference is
 * NP-hard in general, no checker can prove such a regex linear, and `(?:(\\w)\\1*)+` hangs on a
 * short line. Rules may not use them.
 */
export function hasBackReference(source: string): boolean {
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      const next = source[i + 1] ?? '';
      if (!inClass && ((next >= '1' && next <= '9') || (next === 'k' && source[i + 2] === '<'))) return true;
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
    } else if (c === '[') inClass = true;
  }
  return false;
}
