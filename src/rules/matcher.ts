// Line matchers of YAML rules: `contains` or `regex`, compiled once, with the literal
// substrings the reader uses as a cheap prefilter before running any regex. A regex sees at
// most MATCH_WINDOW of a line, so a slow regex costs bounded work per line.
import { cacheKey, cacheRead, cacheWrite } from '../util/disk-cache.js';
import { matchWindow } from '../text/match-window.js';
import { isCatastrophic, regexLiterals } from '../text/regex-source.js';

export { hasBackReference, isCatastrophic, regexLiterals } from '../text/regex-source.js';

export interface MatcherSpec {
  contains?: string;
  regex?: string;
  /** The regex's flags (`i` for a catalogue form that ignores case). */
  flags?: string;
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


/** What the ReDoS checker says of a regex. */
export interface RegexVerdict {
  /** `super-linear`: the checker found an attack; `unknown`: it could not decide in time. */
  status: 'linear' | 'super-linear' | 'unknown';
  /** The checker's words: `2nd degree polynomial`, `exponential`, or why it could not decide. */
  detail: string;
  /** The attack string's shape, as the checker writes it: `'a' + 'tc'.repeat(38730) + '\\x00'`. */
  attack?: string;
}

/**
 * Runs recheck (makenowjust-labs/recheck) on a regex. Its automaton and fuzz checkers find
 * polynomial and exponential backtracking; the native or Java agent is used when installed
 * (`auto`), otherwise its pure-JS build in a worker thread. Loaded on demand: only `rules lint`
 * and the tests pay for it.
 */
export async function checkRegexLinear(source: string, flags = '', timeoutMs = 20_000): Promise<RegexVerdict> {
  // A decided verdict is the same on every run (step limits): kept in the start-up cache.
  const key = cacheKey('redos-v1', source, flags);
  const cached = cacheRead('redos', key, decodeVerdict);
  if (cached) return cached;
  const verdict = await runChecker(source, flags, timeoutMs);
  // One small entry per regex: room for every shipped and user rule.
  if (verdict.status !== 'unknown') cacheWrite('redos', key, JSON.stringify(verdict), 2000);
  return verdict;
}

/** A decided verdict read back from the cache, or undefined when it is not one. */
function decodeVerdict(text: string): RegexVerdict | undefined {
  const v = JSON.parse(text) as Partial<Record<keyof RegexVerdict, unknown>> | null;
  if (v === null || typeof v !== 'object' || (v.status !== 'linear' && v.status !== 'super-linear') || typeof v.detail !== 'string') return undefined;
  if (v.attack !== undefined && typeof v.attack !== 'string') return undefined;
  return { status: v.status, detail: v.detail, ...(typeof v.attack === 'string' ? { attack: v.attack } : {}) };
}

async function runChecker(source: string, flags: string, timeoutMs: number): Promise<RegexVerdict> {
  const { check } = await import('recheck');
  // Step limits only, no wall-clock ones: on a busy machine a timed-out attack would read as
  // a finding, and the verdict must not depend on load.
  const d = await check(source, flags.replace(/[gy]/g, ''), { timeout: timeoutMs, attackTimeout: null, incubationTimeout: null, seedingTimeout: null });
  if (d.status === 'safe') return { status: 'linear', detail: d.complexity.summary };
  if (d.status === 'vulnerable') return { status: 'super-linear', detail: d.complexity.summary, attack: d.attack.pattern };
  return { status: 'unknown', detail: d.error.kind === 'timeout' || d.error.kind === 'cancel' ? d.error.kind : `${d.error.kind}: ${d.error.message}` };
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
    pattern = new RegExp(spec.regex, spec.flags);
  } catch (err) {
    throw new Error(`invalid regex /${spec.regex}/: ${(err as Error).message}`);
  }
  const literals = spec.literals ?? regexLiterals(spec.regex, spec.flags);
  return {
    literals,
    pattern,
    test: (line) => {
      const m = pattern.exec(matchWindow(line));
      if (!m) return undefined;
      const caps: Record<string, string> = {};
      for (const [k, v] of Object.entries(m.groups ?? {})) if (v !== undefined) caps[k] = v;
      return caps;
    },
    describe: `matches /${spec.regex}/`,
  };
}
