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
