// Reads one log line by line and keeps a bounded summary: counts, time range, head, tail and
// the lines registered filters asked for. Lines are parsed only when kept.
import type { LogFormat, LogKind, LogLine, LogSummary, MatchedLine, SourceId, SourceRef } from '../model/types.js';
import type { GroupedLiteral } from '../text/literal-search.js';
import type { LineConsumer, RawLine } from '../text/line-scanner.js';
import { parseLogLine, type ParsedLogLine } from '../parsers/log-line.js';
import type { ActiveFilters } from './line-filter.js';

/** Literal groups of one scan (bit flags): the collector's own anchors, the rules' filters, and line taps from bit 2 up (one bit each). */
export const GROUP_OWN = 1;
export const GROUP_FILTERS = 2;
export const GROUP_TAPS = 4;

const NO_LITERALS: readonly string[] = [];

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

/** Turns a raw line into a model line; kept lines only. */
export type LineParser<L extends LogLine> = (raw: string, line: number) => L;

/**
 * Summarises any line-oriented log from the lines a `LineScanner` hands over. Subclasses add
 * format-specific state (journals).
 */
export class LogCollector<L extends LogLine = LogLine> implements LineConsumer {
  protected lineCount = 0;
  protected truncatedLines = 0;
  protected bytes = 0;
  protected readonly head: L[] = [];
  private tail: RawLine[] = [];
  protected readonly matched: MatchedLine<L>[] = [];
  protected matchedDropped = 0;
  private readonly formats = new Map<LogFormat, number>();
  /** The last few lines handed over without a gap, for the context of the next match. */
  private readonly recent: string[] = [];
  /** Matches still collecting lines after them. */
  private pendingAfter: MatchedLine<L>[] = [];

  protected readonly kind: LogKind;

  constructor(
    protected readonly source: SourceRef,
    protected readonly sourceId: SourceId,
    protected readonly filters: ActiveFilters,
    protected readonly limits: LogLimits,
    protected readonly parse: LineParser<L>,
  ) {
    this.kind = sourceId.kind;
  }

  /** Lines taken so far (handed over or skipped). */
  get lines(): number {
    return this.lineCount;
  }

  /** The literals whose lines this collector must see, by group. */
  literals(): GroupedLiteral[] {
    const own = this.anchors().map((text) => ({ text, groups: GROUP_OWN }));
    if (this.filters.empty || this.filters.testsEveryLine) return own;
    return [...own, ...this.filters.literals.map((text) => ({ text, groups: GROUP_FILTERS }))];
  }

  /** Lines of context the collector keeps before a match. */
  get contextLines(): number {
    return this.limits.contextLines;
  }

  /** Lines the collector keeps from the end. */
  get tailLineCount(): number {
    return this.limits.tailLines;
  }

  /** Whether a line continues the entry above it; undefined when the format has no such lines. */
  get continues(): ((raw: string) => boolean) | undefined {
    return undefined;
  }

  /** Whether every line must be handed over (a filter without literals). */
  get everyLine(): boolean {
    return this.filters.testsEveryLine;
  }

  /** Head still filling, or a match still collecting its context after. */
  get wantsNext(): boolean {
    return this.head.length < this.limits.headLines || this.pendingAfter.length > 0;
  }

  /** Context is needed while a match may still be kept; never without filters. */
  get wantsContext(): boolean {
    return !this.filters.empty && this.matched.length < this.limits.matchedLines;
  }

  /** Adds the byte count of a chunk (lines are counted as they come). */
  addBytes(n: number): void {
    this.bytes += n;
  }

  /** Takes one line, as the scanner hands it over; `groups` and `literals` say which literals it holds. */
  line(raw: string, truncated: boolean, groups: number, literals: readonly string[] = NO_LITERALS): void {
    const lineNo = ++this.lineCount;
    if (truncated) this.truncatedLines++;
    this.observe(raw, lineNo, truncated);
    if (this.head.length < this.limits.headLines && this.keepInHead(raw)) {
      this.head.push(this.keep(raw, lineNo, truncated));
    }
    if (!this.filters.empty) this.filter(raw, lineNo, truncated, groups, literals);
  }

  /** Lines passed over: counted; the context before the next match starts afresh. */
  skip(count: number): void {
    this.lineCount += count;
    this.recent.length = 0;
  }

  /** The log's last lines, given once the scanner is done. */
  setTail(lines: RawLine[]): void {
    this.tail = lines;
  }

  private filter(raw: string, lineNo: number, truncated: boolean, groups: number, literals: readonly string[]): void {
    const context = this.limits.contextLines;
    if (this.pendingAfter.length > 0) {
      // In place: a new array per line while a match collects its context was most of what
      // filtering allocated.
      let kept = 0;
      for (const m of this.pendingAfter) {
        m.after.push(raw);
        if (m.after.length < context) this.pendingAfter[kept++] = m;
      }
      this.pendingAfter.length = kept;
    }
    // The scan's literals say which filters may match, but for a cut line (its text stops
    // where its bytes did not).
    const ids = (groups & GROUP_FILTERS) !== 0 || this.filters.testsEveryLine ? this.filters.match(raw, truncated ? undefined : literals) : undefined;
    if (ids) {
      if (this.matched.length < this.limits.matchedLines) {
        const m: MatchedLine<L> = { entry: this.keepMatched(raw, lineNo, truncated), filterIds: ids, before: this.recent.slice(), after: [] };
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

  /** Literals of the collector's own (systemd's lines): their lines are always handed over. */
  protected anchors(): string[] {
    return [];
  }

  /** Lines starting with this are always handed over (journal markers). */
  get linePrefix(): GroupedLiteral | undefined {
    return undefined;
  }

  /** Hook for subclasses: sees every line before retention decisions. */
  protected observe(_raw: string, _lineNo: number, _truncated: boolean): void {}

  /** Hook for subclasses: whether a line may be a head line (journals skip markers). */
  protected keepInHead(_raw: string): boolean {
    return true;
  }

  /**
   * Parses a line the summary keeps. Lines arrive decoded one by one from their bytes (the
   * scanner's `decodeLine`), so keeping one pins nothing but itself: no copy is made.
   */
  protected keep(raw: string, lineNo: number, truncated: boolean): L {
    const parsed = this.parse(raw, lineNo) as L & { format?: LogFormat };
    let entry: L = parsed;
    if (parsed.format !== undefined) {
      this.formats.set(parsed.format, (this.formats.get(parsed.format) ?? 0) + 1);
      // The format is a property of the file, not of each kept line. Copied without it, not
      // deleted from it: deleting a property that is not an object's last turns the object into
      // a slow dictionary (every kept klog, logfmt and JSON line, read by every rule).
      const { format: _format, ...rest } = parsed;
      entry = rest as L;
    }
    if (truncated) entry.truncated = true;
    return entry;
  }

  /** Parses a matched line; journals give continuation lines their entry's time. */
  protected keepMatched(raw: string, lineNo: number, truncated: boolean): L {
    return this.keep(raw, lineNo, truncated);
  }

  /** The tail's raw lines, oldest first. */
  protected tailLines(): RawLine[] {
    return this.tail;
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
      sourceId: this.sourceId,
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
