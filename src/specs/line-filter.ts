// Line filters: what a later layer (the timeline, the rules) asks the reader to keep from huge
// logs, declared in the source vocabulary so no layer above the reader imports the reader.
import type { SourceId } from './source-id.js';

export interface LineFilter {
  /** Made by `filterId` (specs/source-id.ts). */
  id: string;
  /** Whether the filter reads this log at all; decided once per file. */
  appliesTo(source: SourceId): boolean;
  /** Cheap prefilter: the raw line must contain one of these (case-sensitive). Empty: every line. */
  literals: readonly string[];
  /** The precise test, run only on lines that passed the literals. */
  pattern?: RegExp;
}
