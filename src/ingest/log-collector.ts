// Reads one log line by line and keeps a bounded summary: counts, time range, head, tail and
// the lines registered filters asked for. Lines are parsed only when kept.
import type { LogFormat, LogKind, LogLine, LogSummary, MatchedLine, SourceRef } from '../model/types.js';
import { detach } from '../text/lines.js';
import { parseLogLine, type ParsedLogLine } from '../text/log-line.js';
import type { ActiveFilters } from './line-filter.js';

export interface LogLimits {
  headLines: number;
  tailLines: number;
  /** Matched lines kept per file; more are counted in `matchedDropped`. */
  matchedLines: number;
  /** systemd's lines about the unit, kept per journal. */
  systemdLines: number;
  /** Lines of context kept before and after each matched line. */
  contextLines: number;
}

export const DEFAULT_LOG_LIMITS: LogLimits = {
  headLines: 20,
  tailLines: 200,
  matchedLines: 2000,
  systemdLines: 500,
  contextLines: 2,
};

export interface RawLine {
  raw: string;
  line: number;
  truncated: boolean;
}

/** Turns a raw line into a model line; kept lines only. */
export type LineParser<L extends LogLine> = (raw: string, line: number) => L;

/** Summarises any line-oriented log. Subclasses add format-specific state (journals). */
export class LogCollector<L extends LogLine = LogLine> {
  protected lineCount = 0;
  protected truncatedLines = 0;
  protected bytes = 0;
  protected readonly head: L[] = [];
  // The tail as a ring of raw strings; line numbers follow from the count, so a line costs
  // one array store and no allocation. Cut lines are few: kept in a set.
  private readonly tailRing: string[] = [];
  private tailNext = 0;
  private readonly truncatedAt = new Set<number>();
  protected readonly matched: MatchedLine<L>[] = [];
  protected matchedDropped = 0;
  private readonly formats = new Map<LogFormat, number>();
  /** The last few raw lines, for the context of the next match. */
  private readonly recent: string[] = [];
  /** Matches still collecting lines after them. */
  private pendingAfter: MatchedLine<L>[] = [];
  /**
   * Sorted positions in the current text where some filter literal occurs: a line with none
   * cannot match, so most lines skip the per-filter tests. Undefined: test every line.
   */
  private hits: number[] | undefined;
  private hitIndex = 0;

  constructor(
    protected readonly source: SourceRef,
    protected readonly kind: LogKind,
    protected readonly filters: ActiveFilters,
    protected readonly limits: LogLimits,
    protected readonly parse: LineParser<L>,
  ) {}

  /** Adds the byte count of a chunk (lines are counted as they come). */
  addBytes(n: number): void {
    this.bytes += n;
  }

  /**
   * Sees a decoded piece of text before its lines: one native search per filter literal over
   * the whole piece instead of one per line.
   */
  text(text: string): void {
    if (this.filters.empty || this.filters.testsEveryLine) {
      this.hits = undefined;
      return;
    }
    const hits: number[] = [];
    for (const lit of this.filters.literals) {
      for (let at = text.indexOf(lit); at >= 0; at = text.indexOf(lit, at + 1)) hits.push(at);
    }
    hits.sort((a, b) => a - b);
    this.hits = hits;
    this.hitIndex = 0;
  }

  /** Whether the line starting at `start` (-1: unknown) may match a filter. */
  private mayMatch(start: number, length: number): boolean {
    const hits = this.hits;
    if (hits === undefined || start < 0) return true;
    let i = this.hitIndex;
    while (i < hits.length && hits[i] < start) i++;
    this.hitIndex = i;
    return i < hits.length && hits[i] < start + length;
  }

  /** Takes one line, as the splitter emits it. */
  line(raw: string, truncated: boolean, start = -1): void {
    const lineNo = ++this.lineCount;
    if (truncated) this.truncatedLines++;
    this.observe(raw, lineNo, truncated);
    if (this.head.length < this.limits.headLines && this.keepInHead(raw)) {
      this.head.push(this.keep(raw, lineNo, truncated));
    }
    const ring = this.tailRing;
    if (ring.length < this.limits.tailLines) ring.push(raw);
    else if (this.limits.tailLines > 0) {
      ring[this.tailNext] = raw;
      this.tailNext = this.tailNext + 1 === this.limits.tailLines ? 0 : this.tailNext + 1;
    }
    if (truncated) this.truncatedAt.add(lineNo);
    if (!this.filters.empty) this.filter(raw, lineNo, truncated, start);
  }

  private filter(raw: string, lineNo: number, truncated: boolean, start: number): void {
    const context = this.limits.contextLines;
    if (this.pendingAfter.length > 0) {
      const line = detach(raw);
      for (const m of this.pendingAfter) m.after.push(line);
      this.pendingAfter = this.pendingAfter.filter((m) => m.after.length < context);
    }
    // A cut line was searched only in its kept part: test it whole, like a spanning one.
    const ids = this.mayMatch(truncated ? -1 : start, raw.length) ? this.filters.match(raw) : undefined;
    if (ids) {
      if (this.matched.length < this.limits.matchedLines) {
        const m: MatchedLine<L> = { entry: this.keepMatched(raw, lineNo, truncated), filterIds: ids, before: this.recent.map(detach), after: [] };
        this.matched.push(m);
        if (context > 0) this.pendingAfter.push(m);
      } else {
        this.matchedDropped++;
      }
    }
    if (context > 0) {
      this.recent.push(raw);
      if (this.recent.length > context) this.recent.shift();
    }
  }

  /** Hook for subclasses: sees every line before retention decisions. */
  protected observe(_raw: string, _lineNo: number, _truncated: boolean): void {}

  /** Hook for subclasses: whether a line may be a head line (journals skip markers). */
  protected keepInHead(_raw: string): boolean {
    return true;
  }

  /** Parses and detaches a line the summary keeps. */
  protected keep(raw: string, lineNo: number, truncated: boolean): L {
    const entry = this.parse(detach(raw), lineNo);
    if (truncated) entry.truncated = true;
    const withFormat = entry as L & { format?: LogFormat };
    if (withFormat.format) {
      this.formats.set(withFormat.format, (this.formats.get(withFormat.format) ?? 0) + 1);
      // The format is a property of the file, not of each kept line.
      delete withFormat.format;
    }
    return entry;
  }

  /** Parses a matched line; journals give continuation lines their entry's time. */
  protected keepMatched(raw: string, lineNo: number, truncated: boolean): L {
    return this.keep(raw, lineNo, truncated);
  }

  /** The tail's raw lines, oldest first. */
  protected tailLines(): RawLine[] {
    const ring = this.tailRing;
    const ordered = ring.length < this.limits.tailLines ? ring.slice() : [...ring.slice(this.tailNext), ...ring.slice(0, this.tailNext)];
    const first = this.lineCount - ordered.length + 1;
    return ordered.map((raw, i) => ({ raw, line: first + i, truncated: this.truncatedAt.has(first + i) }));
  }

  protected buildTail(): L[] {
    return this.tailLines().map((r) => this.keep(r.raw, r.line, r.truncated));
  }

  protected dominantFormat(): LogFormat {
    let best: LogFormat = 'plain';
    let count = 0;
    for (const [format, n] of this.formats) {
      if (n > count || (n === count && best === 'plain')) {
        best = format;
        count = n;
      }
    }
    return best;
  }

  /** The summary; call once, after the last line. */
  summary(): LogSummary<L> {
    const tail = this.buildTail();
    const summary: LogSummary<L> = {
      source: this.source,
      kind: this.kind,
      format: this.dominantFormat(),
      bytes: this.bytes,
      lineCount: this.lineCount,
      truncatedLines: this.truncatedLines,
      head: this.head,
      tail,
      matched: this.matched,
      matchedDropped: this.matchedDropped,
    };
    const first = this.head.find((l) => l.time !== undefined)?.time;
    const last = [...tail].reverse().find((l) => l.time !== undefined)?.time;
    if (first !== undefined) summary.firstTime = first;
    if (last !== undefined) summary.lastTime = last;
    const mono = [...tail].reverse().find((l) => l.monotonic !== undefined)?.monotonic;
    if (mono !== undefined) summary.lastMonotonic = mono;
    return summary;
  }
}

/** A parser for container, serial and other plain logs, with year inference from the bundle. */
export function plainLineParser(referenceTime: number | undefined): LineParser<ParsedLogLine> {
  return (raw, line) => parseLogLine(raw, line, referenceTime);
}
