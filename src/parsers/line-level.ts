// A line's level and whether it reads like an error, decided here once for every reader of
// lines: the parsers put the level on the lines they parse, and the rules, the template miner,
// triage and diff ask this module rather than keep words of their own.
import type { Level } from '../model/types.js';

export type { Level } from '../model/types.js';

/**
 * The level a level word names, in every spelling the logs use: klog's letter (`E`), logrus,
 * zap and journald words (`error`, `err`, `warn`, `crit`, `notice`), the installer's console
 * word (`FATAL`). Undefined for a word that names no level.
 */
export function levelOfWord(word: string | undefined): Level | undefined {
  switch (word?.toLowerCase()) {
    case 'f':
    case 'fatal':
    case 'panic':
    case 'crit':
    case 'critical':
    case 'emerg':
    case 'alert':
      return 'fatal';
    case 'e':
    case 'error':
    case 'err':
      return 'error';
    case 'w':
    case 'warn':
    case 'warning':
      return 'warning';
    case 'i':
    case 'info':
    case 'notice':
      return 'info';
    case 'd':
    case 'debug':
    case 'trace':
      return 'debug';
    default:
      return undefined;
  }
}

/** Levels that report an error. */
export function isErrorLevel(level: Level | undefined): boolean {
  return level === 'error' || level === 'fatal';
}

/** Levels that end what they report (a fatal line decides where a running unit merely logged). */
export const FATAL_LEVELS: ReadonlySet<Level> = new Set<Level>(['fatal']);

/** Levels at which a line says how things go, not that something failed. */
const QUIET_LEVELS: ReadonlySet<Level> = new Set<Level>(['info', 'debug']);

// Where a line's text states its level: klog's letter, logfmt's or JSON's `level`, the
// installer's console word.
const STATED_LEVEL = /^([IWEF])\d{4} |\blevel=["']?(\w+)|"level":\s*"(\w+)"|^(TRACE|DEBUG|INFO|WARN(?:ING)?|ERROR|FATAL|PANIC)\b/;

/** The level a line's text states, wherever its format puts it; undefined when it states none. */
export function statedLevel(text: string): Level | undefined {
  const m = STATED_LEVEL.exec(text);
  return levelOfWord(m?.[1] ?? m?.[2] ?? m?.[3] ?? m?.[4]);
}

/** The words of an error, in the languages components write them in. */
export const ERROR_WORDS =
  /\b(?:error|errors|fail(?:ed|ure|s|ing)?|fatal|panic|unable to|cannot|can't|could not|couldn't|refus(?:e|ed|es|ing)|denied|timed out|timeout|no such|not found|invalid|illegal|unknown (?:flag|field|name)|unauthorized|forbidden|exceeded|killed|unhealthy|crashloop|back-off|no space left|unbound variable|command not found|syntax error|not a dir(?:ectory)?|already exists|DoesNotExist|[Ii]nsufficient)\b/i;

/**
 * The words of a failure or its symptoms, for ranking log templates by how much they read like
 * one (similarity, triage): wider than `ERROR_WORDS` where a symptom is no error (`slow`,
 * `degraded`, `missing`, `x509`), narrower where a shell's or Go's wording is (`already
 * exists`, `DoesNotExist`). The two stay apart on purpose: ranking by the error words as well
 * changes 10 of the 117 sample and real-corpus reports (`DoesNotExist` ranked as a failure
 * matches another known issue), and the error words are those the last-error rule judges by.
 */
export const FAILURE_WORDS =
  /\b(?:errors?|err|fail(?:s|ed|ure|ing)?|fatal|panic|refused|time(?:d)? ?out|timeout|deadline exceeded|denied|unauthori[sz]ed|forbidden|unable|cannot|can't|could not|couldn't|invalid|x509|no such host|not found|unknown authority|unreachable|no route|oom|out of memory|killed|exceeded|degraded|no space|mismatch|expired|not yet valid|reset by peer|crashloop|back-off|backoff|rejected|unhealthy|not ready|missing|broken|abort(?:ed)?|corrupt(?:ed)?|misbehaving|i\/o timeout|took too long|too long|slow)\b/i;

/**
 * Words of a loop that is not getting anywhere: weaker than a failure, but a script retrying the
 * same step until it times out is often the only trace of one.
 */
export const RETRY_WORDS = /\b(?:retry(?:ing)?|retries|trying again|try again|still waiting|giving up|gave up|re-?attempt(?:ing)?)\b/i;

/** A line at a quiet level is an error only when it also says one of these (and names a known failure). */
const QUIET_ERROR_HINT = /error|fail|refused|denied|timeout/i;

/**
 * Whether a line reads as an error: its stated level says so, or (without a quiet level) its
 * words do. `knownFailure` is the caller's list of failures it can name (the rules' error
 * signatures): a line it names is an error whatever its words, and a quiet line needs it.
 */
export function isErrorLike(text: string, knownFailure: (text: string) => boolean = () => false): boolean {
  const level = statedLevel(text);
  if (isErrorLevel(level)) return true;
  // The words first: a quiet line seldom has one, and a caller's failures may be dozens of regexes.
  if (level && QUIET_LEVELS.has(level)) return QUIET_ERROR_HINT.test(text) && knownFailure(text);
  return ERROR_WORDS.test(text) || knownFailure(text);
}
