// What a read left out. A read that stopped early or skipped data cannot show a healthy
// install: the part not read may hold the failure. Damage that costs nothing (a line cut at
// the line limit, bytes after the end of a gzip stream, an empty file) does not count.
import type { ReadProblem, ReadProblemKind } from '../model/types.js';
import type { Verdict } from '../result/types.js';

/** Kinds that always mean data of the bundle was not read. */
const MISSED_KINDS = new Set<ReadProblemKind>(['truncated-archive', 'corrupt-archive', 'corrupt-entry', 'unsafe-path', 'too-large']);

/** A limit problem means data was left out when it says so (the walker's and parsers' words). */
const MISSED_LIMIT = /not read|not parsed|reading stopped|was skipped/;

/** Whether this problem means some of the bundle was not read. */
export function missedData(problem: ReadProblem): boolean {
  return MISSED_KINDS.has(problem.kind) || (problem.kind === 'limit' && MISSED_LIMIT.test(problem.message));
}

/** The problems that left data unread, described in one phrase; undefined when none did. */
export function describeMissed(problems: readonly ReadProblem[]): string | undefined {
  const missed = problems.filter(missedData);
  if (missed.length === 0) return undefined;
  const shown = missed.slice(0, 3).map((p) => `${p.kind} in ${p.file}: ${p.message}`);
  const more = missed.length > shown.length ? `; ${missed.length - shown.length} more` : '';
  return `${shown.join('; ')}${more}`;
}

/**
 * The verdict of what was read, unless it says healthy while data was left out: then it is
 * inconclusive and says what was missed. A failure found in what was read stands.
 */
export function verdictOfPartialRead(verdict: Verdict, problems: readonly ReadProblem[]): Verdict {
  if (verdict.status !== 'healthy') return verdict;
  const missed = describeMissed(problems);
  if (!missed) return verdict;
  return {
    ...verdict,
    status: 'inconclusive',
    confidence: 0.5,
    summary: `No failure found in what was read, but part of the bundle was not read (${missed}), so it cannot be called healthy. ${verdict.summary}`,
  };
}
