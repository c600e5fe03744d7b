// The line filters that apply to one log, compiled for the reader's per-line loop. The reader
// keeps only lines some filter wants, so memory stays flat whatever the log size.
import type { LineFilter } from '../specs/line-filter.js';
import type { SourceId } from '../model/source-id.js';
import { matchWindow } from '../text/match-window.js';

export type { LineFilter } from '../specs/line-filter.js';

/** The filters that apply to one log, compiled for the per-line loop. */
export class ActiveFilters {
  private readonly filters: readonly LineFilter[];
  private allLiterals: string[] | undefined;
  private asScanned: boolean | undefined;

  constructor(all: readonly LineFilter[], source: SourceId) {
    this.filters = all.filter((f) => f.appliesTo(source));
  }

  get empty(): boolean {
    return this.filters.length === 0;
  }

  /** Every literal of the active filters, once each; empty when some filter has none. */
  get literals(): readonly string[] {
    if (this.allLiterals === undefined) {
      const all = new Set<string>();
      let complete = true;
      for (const f of this.filters) {
        if (f.literals.length === 0) complete = false;
        for (const l of f.literals) all.add(l);
      }
      this.allLiterals = complete ? [...all] : [];
    }
    return this.allLiterals;
  }

  /**
   * Whether a literal found in a line's bytes is in its text too, and one not found is not:
   * not for a literal with a `\r` (dropped before the line ends) or a U+FFFD (what bytes that
   * are not UTF-8 decode to).
   */
  private get literalsAsScanned(): boolean {
    this.asScanned ??= this.literals.every((l) => !l.includes('\r') && !l.includes('\uFFFD'));
    return this.asScanned;
  }

  /** A filter has no literal: every line must be tested. */
  get testsEveryLine(): boolean {
    return !this.empty && this.literals.length === 0;
  }

  /**
   * Ids of the filters the line matches; undefined when none does (the common case).
   * `found`: every literal of these filters the line holds, when the caller's scan knows them
   * (the scan's literals are these filters' when no filter tests every line); else each
   * filter's literals are looked for in the text.
   */
  match(raw: string, found?: readonly string[]): string[] | undefined {
    const known = found !== undefined && !this.testsEveryLine && this.literalsAsScanned;
    let ids: string[] | undefined;
    for (const f of this.filters) {
      if (f.literals.length > 0 && !(known ? anyOf(found, f.literals) : includesAny(raw, f.literals))) continue;
      if (f.pattern) {
        f.pattern.lastIndex = 0;
        // Regexes see a bounded window of the line: bounded work per line whatever the regex.
        if (!f.pattern.test(matchWindow(raw))) continue;
      }
      (ids ??= []).push(f.id);
    }
    return ids;
  }
}

/** Whether one of `literals` is among the few `found`. */
function anyOf(found: readonly string[], literals: readonly string[]): boolean {
  for (let i = 0; i < literals.length; i++) if (found.includes(literals[i])) return true;
  return false;
}

function includesAny(raw: string, literals: readonly string[]): boolean {
  for (let i = 0; i < literals.length; i++) if (raw.includes(literals[i])) return true;
  return false;
}
