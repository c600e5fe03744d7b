// Line filters and taps: what a later layer (the timeline, the rules, the miner) asks the reader
// to keep from huge logs or to show it, declared here so no layer above the reader imports it.
import type { SourceId } from '../model/source-id.js';
import type { LineView } from '../text/line-scanner.js';

export interface LineFilter {
  /** Made by `filterId` (model/source-id.ts). */
  id: string;
  /** Whether the filter reads this log at all; decided once per file. */
  appliesTo(source: SourceId): boolean;
  /** Cheap prefilter: the raw line must contain one of these (case-sensitive). Empty: every line. */
  literals: readonly string[];
  /** The precise test, run only on lines that passed the literals. */
  pattern?: RegExp;
}

export type LineObserver = (raw: string, line: number) => void;

/**
 * An observer of the lines that hold one of `literals` (case-sensitive). With `observeLine`,
 * it gets each line as a view of its bytes instead (its text on demand), and `observe` is not
 * called.
 */
export interface LineTap {
  literals: readonly string[];
  observe: LineObserver;
  observeLine?: (line: LineView, n: number) => void;
  /**
   * Whether the tap has seen enough of this log for now (a miner whose templates stopped being
   * new): the middle of a long log may then be spared it, but for samples (see `LogStream`).
   */
  saturated?: () => boolean;
}

/** What a caller may give for one log: nothing, one observer or tap, or several. */
export type LineObservers = LineObserver | LineTap | readonly (LineObserver | LineTap)[] | undefined;

/** The observers and taps of `o`, as a list. */
export function observersOf(o: LineObservers): (LineObserver | LineTap)[] {
  if (o === undefined) return [];
  return Array.isArray(o) ? [...(o as readonly (LineObserver | LineTap)[])] : [o as LineObserver | LineTap];
}
