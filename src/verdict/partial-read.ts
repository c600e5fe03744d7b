// What a read left out. A read that stopped early or skipped data cannot show a healthy
// install: the part not read may hold the failure. Damage that costs nothing (a line cut at
// the line limit, bytes after the end of a gzip stream, an empty file) does not count.
import type { ReadProblem, ReadProblemKind } from '../model/types.js';

/** Kinds that always mean data of the bundle was not read. */
const MISSED_KINDS = new Set<ReadProblemKind>(['truncated-archive', 'corrupt-archive', 'corrupt-entry', 'unsafe-path', 'too-large']);


/** Whether this problem means some of the bundle was not read. */
export function missedData(problem: ReadProblem): boolean {
  return MISSED_KINDS.has(problem.kind) || problem.leftOut === true;
}

/** The problems that left data unread, described in one phrase; undefined when none did. */
export function describeMissed(problems: readonly ReadProblem[]): string | undefined {
  const missed = problems.filter(missedData);
  if (missed.length === 0) return undefined;
  const shown = missed.slice(0, 3).map((p) => `${p.kind} in ${p.file}: ${p.message}`);
  const more = missed.length > shown.length ? `; ${missed.length - shown.length} more` : '';
  return `${shown.join('; ')}${more}`;
}
