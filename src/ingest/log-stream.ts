// Feeds one streamed log to its collector through a line scanner: the collector's and the
// taps' literals are found in one scan, and only the lines someone needs are decoded.
import type { LogLine } from '../model/types.js';
import type { LineObserver, LineTap } from '../specs/line-filter.js';
import { LineScanner, type LineConsumer, type LineView } from '../text/line-scanner.js';
import { countBigrams, emptyBigramCounts, LiteralSearch, type BigramCounts, type GroupedLiteral } from '../text/literal-search.js';
import { GROUP_TAPS, type LogCollector } from './log-collector.js';

/**
 * A tap as the stream applies it: `literals` undefined means every line; `group` is the bit
 * the scan sets on a line holding one of its literals (each tap has its own).
 */
interface ActiveTap {
  literals: readonly string[] | undefined;
  observe: LineObserver;
  observeLine: ((line: LineView, n: number) => void) | undefined;
  group: number;
}

/** Taps past this many share the last bit and check their literals themselves. */
const MAX_TAP_BITS = 24;

function activeTap(o: LineObserver | LineTap, index: number): ActiveTap {
  const group = GROUP_TAPS << Math.min(index, MAX_TAP_BITS);
  return typeof o === 'function'
    ? { literals: undefined, observe: o, observeLine: undefined, group }
    : { literals: o.literals, observe: o.observe, observeLine: o.observeLine, group };
}

function wants(t: ActiveTap, line: LineView, groups: number): boolean {
  if (t.literals === undefined) return true;
  if ((groups & t.group) === 0) return false;
  return t.group !== GROUP_TAPS << MAX_TAP_BITS || t.literals.some((l) => line.text().includes(l));
}

/** Shows a line to the taps that asked for it. */
function showTaps(taps: readonly ActiveTap[], line: LineView, groups: number, n: number): void {
  for (const t of taps) {
    if (!wants(t, line, groups)) continue;
    if (t.observeLine) t.observeLine(line, n);
    else t.observe(line.text(), n);
  }
}

/** A line the collector was handed: its text only (never `whole`: bytes are not at hand). */
class TextView implements LineView {
  readonly buf = Buffer.alloc(0);
  readonly start = 0;
  readonly end = 0;
  readonly whole = false;
  raw = '';

  text(): string {
    return this.raw;
  }
}

/** The collector, with the taps shown the lines they asked for. */
function tappedConsumer(collector: LogCollector<LogLine>, taps: readonly ActiveTap[]): LineConsumer {
  const view = new TextView();
  return {
    line(raw, truncated, groups, literals) {
      collector.line(raw, truncated, groups, literals);
      view.raw = raw;
      showTaps(taps, view, groups, collector.lines);
    },
    skip: (count) => collector.skip(count),
    get wantsNext() {
      return collector.wantsNext;
    },
    get wantsContext() {
      return collector.wantsContext;
    },
  };
}

/**
 * The part of a long log a saturated tap is spared: all but its last `SPARE_TAIL` bytes, except
 * one `SPARE_WINDOW` in every `SPARE_EVERY` (samples, where a new line resets the saturation).
 */
const SPARE_TAIL = 16 * 1024 * 1024;
const SPARE_WINDOW = 1024 * 1024;
const SPARE_EVERY = 8;

/**
 * A log this long (size known) that taps read too is scanned, in its last `SPARE_TAIL` bytes,
 * with anchors chosen on its own text: the bigrams of the `LEARN_BYTES` before that tail (or of
 * its start, when shorter) are counted, then its search is compiled again on those counts (under
 * a millisecond). The miner's words are short and common (`error`, `ready`), so where they sit in
 * a log's vocabulary decides how often the scan stops: on 32 MiB of a kubelet or CRI-O journal,
 * 25-35 % less scanning than anchors chosen on English. A log's first megabyte (start-up) tells
 * little about its end; its tail is what taps always read. The collector's literals alone (the
 * stretches the taps are spared) are long and rare: learning does not pay for them.
 */
const ADAPT_FROM = 8 * 1024 * 1024;
const LEARN_BYTES = 1024 * 1024;

/** One log on its way into a collector: `push` its chunks, then `end()` once. */
export class LogStream {
  private readonly scanner: LineScanner;
  private full: LiteralSearch;
  /** The collector's search alone, for the stretches the taps are spared; undefined when never. */
  private readonly spared: LiteralSearch | undefined;
  private readonly saturated: (() => boolean)[];
  private seen = 0;
  /** The literals of `full`, the bigrams counted so far and where counting starts, while learning. */
  private learning: { literals: GroupedLiteral[]; counts: BigramCounts; from: number } | undefined;

  /** `size`: the log's size in bytes, when known (its end is never spared). */
  constructor(
    private readonly collector: LogCollector<LogLine>,
    maxLineLength: number,
    observers: readonly (LineObserver | LineTap)[] = [],
    private readonly size?: number,
  ) {
    const taps = observers.map((o, i) => activeTap(o, i));
    const own = collector.literals();
    const literals = [...own];
    let tapGroups = 0;
    for (const t of taps) {
      for (const text of t.literals ?? []) literals.push({ text, groups: t.group });
      tapGroups |= t.group;
    }
    this.full = LiteralSearch.of(literals);
    // Only when every tap can say it is saturated, and the log is long enough to have a middle.
    const tapped = observers.filter((o): o is LineTap => typeof o !== 'function');
    this.saturated = tapped.flatMap((t) => (t.saturated ? [t.saturated] : []));
    const spares = tapped.length > 0 && this.saturated.length === tapped.length && size !== undefined && size > SPARE_TAIL;
    this.spared = spares ? LiteralSearch.of(own) : undefined;
    if (tapGroups !== 0 && size !== undefined && size >= ADAPT_FROM) {
      this.learning = { literals, counts: emptyBigramCounts(), from: Math.max(0, size - SPARE_TAIL - LEARN_BYTES) };
    }
    this.scanner = new LineScanner(taps.length > 0 ? tappedConsumer(collector, taps) : collector, {
      maxLineLength,
      search: this.full,
      everyLine: collector.everyLine || taps.some((t) => t.literals === undefined),
      contextBefore: collector.contextLines,
      tailLines: collector.tailLineCount,
      ...(collector.continues ? { continues: collector.continues } : {}),
      ...(collector.linePrefix ? { linePrefix: collector.linePrefix } : {}),
      // Lines only taps asked for go to them alone: the collector sees what it would without taps.
      ...(tapGroups !== 0 ? { tapGroups, tap: (line: LineView, groups: number, n: number) => showTaps(taps, line, groups, n) } : {}),
    });
  }

  push(chunk: Buffer): void {
    this.collector.addBytes(chunk.length);
    if (this.learning) this.learn(chunk);
    if (this.spared) this.scanner.useSearch(this.spares(chunk.length) ? this.spared : this.full);
    this.seen += chunk.length;
    this.scanner.push(chunk);
  }

  /** Counts the bigrams of the stretch before the tail; then anchors the search on them. */
  private learn(chunk: Buffer): void {
    const l = this.learning as NonNullable<LogStream['learning']>;
    const end = l.from + LEARN_BYTES;
    if (this.seen + chunk.length <= l.from) return;
    countBigrams(l.counts, chunk, Math.max(0, l.from - this.seen), Math.min(chunk.length, end - this.seen));
    if (this.seen + chunk.length < end) return;
    this.learning = undefined;
    this.full = new LiteralSearch(l.literals, l.counts);
    this.scanner.useSearch(this.full);
  }

  /** Whether the taps are spared the next `length` bytes: a middle stretch, every tap saturated. */
  private spares(length: number): boolean {
    const at = this.seen;
    if (at + length > (this.size as number) - SPARE_TAIL) return false;
    if (Math.floor(at / SPARE_WINDOW) % SPARE_EVERY === 0) return false;
    return this.saturated.every((s) => s());
  }

  end(): void {
    this.scanner.end();
    this.collector.setTail(this.scanner.tail());
  }
}
