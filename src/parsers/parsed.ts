// The shape every whole-file parser returns: its value and what it could not read.
import type { ReadProblemKind } from '../model/types.js';

/** A problem a parser met in one file; the reader turns it into a ReadProblem with the path. */
export interface ParseProblem {
  kind: ReadProblemKind;
  message: string;
  line?: number;
}

export interface Parsed<T> {
  value: T;
  problems: ParseProblem[];
}

/** Builds a Parsed value. */
export function parsed<T>(value: T, problems: ParseProblem[] = []): Parsed<T> {
  return { value, problems };
}
