// Whether a line reads as an error, for rules: the parsers' one decision (parsers/line-level.ts),
// with a line the message catalogue reads as a failure counting as one.
import type { Reading } from '../catalogue/classify.js';
import { isErrorLike as readsAsError } from '../parsers/line-level.js';

/** A reading that speaks of a failure (a cause or a symptom), not of success or everyday chatter. */
export function failureReading(r: Reading | undefined): r is Reading {
  return r !== undefined && (r.role === 'cause' || r.role === 'symptom');
}

/** Whether a line reads as an error: its stated level, its words, or the catalogue's reading of it as a failure. */
export function isErrorLike(text: string, read: (text: string) => Reading | undefined): boolean {
  return readsAsError(text, (t) => failureReading(read(t)));
}
