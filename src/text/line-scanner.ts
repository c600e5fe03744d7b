// Reads a log as byte chunks and hands its consumer only the lines it needs: lines holding a
// searched literal, the lines around them, cut lines, the head while it fills, and at the end
// the tail. The rest are counted, never decoded: most of a big log is passed over at the speed
// of a bigram scan and a newline search.
import { clearHits, emptyHits, type GroupedLiteral, type Hits, type LiteralSearch } from './literal-search.js';

/** A line of the tail, with its number in the log. */
export interface RawLine {
  raw: string;
  line: number;
  truncated: boolean;
}

/** What the scanner feeds. Lines arrive in order; `skip` stands for lines in between. */
export interface LineConsumer {
  /**
   * A line to look at. `groups`: the literal groups found in it (bit flags of the search),
   * 0 when none or when no search was given; `literals`: the literals found in its bytes (valid
   * during the call; empty for lines handed over as context). A cut line may hold some past
   * its cut.
   */
  line(raw: string, truncated: boolean, groups: number, literals: readonly string[]): void;
  /** `count` lines passed over: none holds a literal and none was cut. */
  skip(count: number): void;
  /** Whether the next line must be handed over whatever it holds (head, context after a match). */
  readonly wantsNext: boolean;
  /**
   * Whether lines handed over need the lines before them (context of a match it would keep);
   * false once it keeps no more matches. Absent: always.
   */
  readonly wantsContext?: boolean;
}

export interface LineScannerOptions {
  /** Longer lines are cut here (UTF-16 units) and marked. */
  maxLineLength: number;
  /** Literals to find; lines holding none are passed over unless something else needs them. */
  search?: LiteralSearch;
  /**
   * Lines starting with this are found too (journal markers): a check of each line's first
   * bytes, cheaper than searching a short, common literal.
   */
  linePrefix?: GroupedLiteral;
  /** Hand over every line (a filter without literals, a line observer). */
  everyLine?: boolean;
  /** Lines handed over before a line with a literal (context). */
  contextBefore: number;
  /** Lines kept for `tail()`. */
  tailLines: number;
  /**
   * Whether a line continues the entry above it (journal continuation lines): such a line is
   * handed over together with the lines back to its entry's first line, when still at hand.
   */
  continues?: (raw: string) => boolean;
  /**
   * Literal groups that only line taps want (the miner's error words): a line holding nothing
   * else is shown to `tap` alone and stays pending like a passed-over line, so the consumer
   * sees the same lines whether taps are attached or not, and no context is decoded for it.
   */
  tapGroups?: number;
  tap?: (line: LineView, groups: number, lineNo: number) => void;
}

/**
 * A line shown to a tap: its bytes, valid during the call only, and its text on demand (decoded
 * once). A tap that can work on the bytes never pays for the decoding.
 */
export interface LineView {
  /** The line's bytes from `start` to `end` (no newline; a `\r` before it is still there). */
  readonly buf: Buffer;
  readonly start: number;
  readonly end: number;
  /**
   * The text is these bytes decoded, less a final `\r`, and no more: the line was not cut at
   * the byte limit and is too short to be cut at the length limit.
   */
  readonly whole: boolean;
  /** The line as a consumer gets it. */
  text(): string;
}

/** The view the scanner reuses for every line it shows to a tap. */
class SlotView implements LineView {
  buf: Buffer = Buffer.alloc(0);
  start = 0;
  end = 0;
  whole = true;
  private cut = false;
  private decoded: string | undefined;

  constructor(private readonly maxChars: number) {}

  set(buf: Buffer, start: number, end: number, cut: boolean): this {
    this.buf = buf;
    this.start = start;
    this.end = end;
    this.cut = cut;
    this.whole = !cut && end - start <= this.maxChars;
    this.decoded = undefined;
    return this;
  }

  text(): string {
    this.decoded ??= decodeLine(this.buf, this.start, this.end, this.cut, this.maxChars).raw;
    return this.decoded;
  }
}

const NEWLINE = 10;
const CR = 13;
const NONE: readonly string[] = [];
const EMPTY = Buffer.alloc(0);

/**
 * Incremental scanner: `push` chunks, then `end()`, then `tail()`. UTF-8 is decoded leniently,
 * line by line; `\r\n` endings lose their `\r`.
 */
export class LineScanner {
  private readonly maxChars: number;
  /** Bytes that can hold `maxChars` UTF-16 units: longer lines are cut without decoding the rest. */
  private readonly maxBytes: number;
  private readonly hits: Hits = emptyHits();
  /** The newest line's hits in `hits`: from this index up to `hitsTo`. */
  private hitsFrom = 0;
  private hitsTo = 0;
  /** The literals of the line being handed over. */
  private readonly lineLiterals: string[] = [];
  // The partial line at the end of the last chunk.
  private carry: Buffer[] = [];
  private carryLength = 0;
  /** The partial line outgrew `maxBytes`: its further bytes are dropped. */
  private carryCut = false;
  // Ring of the last `ringSize` lines as byte ranges; `pending` of the newest were not handed over.
  private readonly ringSize: number;
  private readonly ringBuf: Buffer[] = [];
  private readonly ringStart: Int32Array;
  private readonly ringEnd: Int32Array;
  private readonly ringCut: Uint8Array;
  private ringNext = 0;
  private ringFill = 0;
  private pending = 0;
  private lines = 0;
  private readonly prefix: Buffer | undefined;
  private readonly prefixGroups: number;
  private readonly view: SlotView;
  private search: LiteralSearch | undefined;

  constructor(
    private readonly consumer: LineConsumer,
    private readonly options: LineScannerOptions,
  ) {
    this.maxChars = options.maxLineLength;
    this.maxBytes = options.maxLineLength * 3;
    this.ringSize = Math.max(options.tailLines, options.contextBefore, 16);
    this.ringStart = new Int32Array(this.ringSize);
    this.ringEnd = new Int32Array(this.ringSize);
    this.ringCut = new Uint8Array(this.ringSize);
    this.prefix = options.linePrefix ? Buffer.from(options.linePrefix.text, 'utf8') : undefined;
    this.view = new SlotView(this.maxChars);
    this.search = options.search;
    this.prefixGroups = options.linePrefix?.groups ?? 0;
  }

  /** The prefix's groups when the line at `start` (before `end`) begins with it. */
  private prefixAt(buf: Buffer, start: number, end: number): number {
    const p = this.prefix;
    if (p === undefined || end - start < p.length || buf[start] !== p[0]) return 0;
    for (let i = 1; i < p.length; i++) if (buf[start + i] !== p[i]) return 0;
    return this.prefixGroups;
  }

  /** Searches the lines to come for these literals instead (the next chunk on). */
  useSearch(search: LiteralSearch | undefined): void {
    this.search = search;
  }

  /** Lines seen so far. */
  get lineCount(): number {
    return this.lines;
  }

  push(chunk: Buffer): void {
    let pos = 0;
    if (this.carryLength > 0 || this.carryCut) {
      const nl = chunk.indexOf(NEWLINE);
      if (nl < 0) {
        this.addCarry(chunk, 0, chunk.length);
        return;
      }
      this.addCarry(chunk, 0, nl);
      this.finishCarry();
      pos = nl + 1;
    }
    const last = chunk.lastIndexOf(NEWLINE);
    if (last >= pos) {
      this.body(chunk, pos, last);
      pos = last + 1;
    }
    if (pos < chunk.length) this.addCarry(chunk, pos, chunk.length);
  }

  end(): void {
    if (this.carryLength > 0 || this.carryCut) this.finishCarry();
    // The last line is handed over with its entry, so the consumer knows where the log ends
    // (a journal's last entry header); the rest still pending is passed over.
    if (this.pending > 0) this.handOver(0, true);
  }

  /** The last `tailLines` lines, oldest first; after `end()`. */
  tail(): RawLine[] {
    const n = Math.min(this.ringFill, this.options.tailLines);
    const out: RawLine[] = [];
    for (let i = n; i >= 1; i--) {
      const slot = (this.ringNext - i + this.ringSize) % this.ringSize;
      const { raw, truncated } = this.decodeSlot(slot);
      out.push({ raw, line: this.lines - i + 1, truncated });
    }
    return out;
  }

  /** Complete lines of `chunk` from `from` to the newline at `lastNl`. */
  private body(chunk: Buffer, from: number, lastNl: number): void {
    const hits = this.hits;
    clearHits(hits);
    this.search?.scan(chunk, from, lastNl, hits);
    const positions = hits.positions;
    const found = hits.found;
    const nHits = positions.length;
    const everyLine = this.options.everyLine === true;
    const maxBytes = this.maxBytes;
    const maxChars = this.maxChars;
    const consumer = this.consumer;
    const tapGroups = this.options.tap ? (this.options.tapGroups ?? 0) : 0;
    let h = 0;
    let s = from;
    while (s <= lastNl) {
      const e = chunk.indexOf(NEWLINE, s);
      let groups = this.prefixAt(chunk, s, e);
      this.hitsFrom = h;
      while (h < nHits && positions[h] < e) groups |= found[h++].groups;
      this.hitsTo = h;
      if (e - s > maxChars) {
        // Maybe too long: decoded to know. A line cut in bytes is copied, so the ring does not
        // keep its whole chunk alive.
        if (e - s > maxBytes) this.remember(Buffer.from(chunk.subarray(s, s + maxBytes)), 0, maxBytes, true);
        else this.remember(chunk, s, e, false);
        this.handOver(groups);
      } else {
        this.remember(chunk, s, e, false);
        if (everyLine || consumer.wantsNext || (groups & ~tapGroups) !== 0) this.handOver(groups);
        else if (groups !== 0) this.tapOnly(groups);
      }
      s = e + 1;
    }
  }

  /** Shows the newest line to the tap alone; it stays pending for the consumer. */
  private tapOnly(groups: number): void {
    const slot = this.slotBack(0);
    const view = this.view.set(this.ringBuf[slot], this.ringStart[slot], this.ringEnd[slot], this.ringCut[slot] === 1);
    (this.options.tap as (line: LineView, groups: number, lineNo: number) => void)(view, groups, this.lines);
  }

  /** Records the newest line in the ring as pending. */
  private remember(buf: Buffer, start: number, end: number, cut: boolean): void {
    const i = this.ringNext;
    this.ringBuf[i] = buf;
    this.ringStart[i] = start;
    this.ringEnd[i] = end;
    this.ringCut[i] = cut ? 1 : 0;
    this.ringNext = i + 1 === this.ringSize ? 0 : i + 1;
    if (this.ringFill < this.ringSize) this.ringFill++;
    this.pending++;
    this.lines++;
  }

  /** Hands over the newest line, after the pending lines before it that give it context. */
  private handOver(groups: number, withEntry = groups !== 0): void {
    const line = this.decodeSlot(this.slotBack(0));
    const before = Math.min(this.pending - 1, this.ringFill - 1);
    // Every line handed over comes with its context: a match right after it needs it too.
    const context = this.consumer.wantsContext !== false;
    let k = context ? Math.min(before, this.options.contextBefore) : 0;
    const continues = this.options.continues;
    // A matching continuation line needs its entry's first line (its time), and so does the
    // last line of the log (where the log ends).
    if (continues && withEntry && continues(line.raw)) k = Math.max(k, this.entryStart(before));
    this.flush(k, true);
    this.pending = 0;
    this.consumer.line(line.raw, line.truncated, groups, groups === 0 ? NONE : this.newestLiterals());
  }

  /** The literals found in the newest line (read only when it is handed over). */
  private newestLiterals(): readonly string[] {
    const found = this.lineLiterals;
    found.length = 0;
    const hits = this.hits.found;
    for (let h = this.hitsFrom; h < this.hitsTo; h++) found.push(hits[h].text);
    return found;
  }

  /** The ring slot `back` lines before the newest. */
  private slotBack(back: number): number {
    return (this.ringNext - 1 - back + 2 * this.ringSize) % this.ringSize;
  }

  /** How many lines back (at most `limit`) the entry of the newest line starts. */
  private entryStart(limit: number): number {
    const continues = this.options.continues as (raw: string) => boolean;
    for (let back = 1; back <= limit; back++) {
      const slot = this.slotBack(back);
      const start = this.ringStart[slot];
      const head = this.ringBuf[slot].toString('utf8', start, Math.min(this.ringEnd[slot], start + 16));
      if (!continues(head)) return back;
    }
    return limit;
  }

  /**
   * Reports the pending lines as skipped but for the newest `k`, which are handed over,
   * oldest first. With `beforeNewest`, the newest line is left out (the caller hands it over).
   */
  private flush(k: number, beforeNewest: boolean): void {
    const base = beforeNewest ? 1 : 0;
    const skipped = this.pending - base - k;
    if (skipped > 0) this.consumer.skip(skipped);
    for (let back = k - 1 + base; back >= base; back--) {
      const l = this.decodeSlot(this.slotBack(back));
      this.consumer.line(l.raw, l.truncated, 0, NONE);
    }
    this.pending = base;
  }

  private addCarry(chunk: Buffer, from: number, to: number): void {
    if (this.carryCut) return;
    const room = this.maxBytes - this.carryLength;
    if (to - from > room) {
      to = from + Math.max(0, room);
      this.carryCut = true;
    }
    if (to > from) {
      // Copied: a chunk may be reused by its producer once handed on.
      this.carry.push(Buffer.from(chunk.subarray(from, to)));
      this.carryLength += to - from;
    }
  }

  /** The line that spanned chunks is complete: search it like any other. */
  private finishCarry(): void {
    const bytes = this.carry.length === 1 ? this.carry[0] : this.carry.length === 0 ? EMPTY : Buffer.concat(this.carry, this.carryLength);
    const cut = this.carryCut;
    this.carry = [];
    this.carryLength = 0;
    this.carryCut = false;
    const hits = this.hits;
    clearHits(hits);
    this.search?.scan(bytes, 0, bytes.length, hits);
    let groups = this.prefixAt(bytes, 0, bytes.length);
    for (const f of hits.found) groups |= f.groups;
    this.hitsFrom = 0;
    this.hitsTo = hits.found.length;
    this.remember(bytes, 0, bytes.length, cut);
    if (groups !== 0 || bytes.length > this.maxChars || this.options.everyLine === true || this.consumer.wantsNext) this.handOver(groups);
  }

  /** Decodes a ring slot's line, cut at the length limit. */
  private decodeSlot(slot: number): { raw: string; truncated: boolean } {
    return decodeLine(this.ringBuf[slot], this.ringStart[slot], this.ringEnd[slot], this.ringCut[slot] === 1, this.maxChars);
  }
}

/**
 * A line's text from its bytes, as the scanner hands it over: a `\r` before the newline
 * dropped (unless the line was cut), UTF-8 decoded leniently, cut at `maxChars` UTF-16 units.
 */
function decodeLine(buf: Buffer, start: number, end: number, cut: boolean, maxChars: number): { raw: string; truncated: boolean } {
  if (!cut && end > start && buf[end - 1] === CR) end--;
  let raw = buf.toString('utf8', start, end);
  let truncated = cut;
  if (raw.length > maxChars) {
    raw = raw.slice(0, maxChars);
    truncated = true;
  }
  return { raw, truncated };
}
