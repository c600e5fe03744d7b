// Finds where any of a set of literals occurs in a byte buffer, in one pass. One native
// `indexOf` per literal costs a full pass each (a few GB/s, times dozens of literals);
// a Wu-Manber scan over bigrams skips most bytes without looking at them.
import { pushAll } from '../util/arrays.js';

/**
 * Rough frequency of each ASCII byte in log text (space and lower-case letters high, digits
 * and common punctuation medium, capitals and rare punctuation low). Only the order matters:
 * each literal is anchored at its rarest bigram, so the scan rarely stops to verify.
 */
const BYTE_WEIGHT = (() => {
  const w = new Float64Array(256).fill(1);
  const english = 'etaoinsrhldcumfpgwybvkxjqz';
  for (let i = 0; i < english.length; i++) w[english.charCodeAt(i)] = 60 - i * 2;
  for (let c = 48; c <= 57; c++) w[c] = 40;
  for (const c of ' ') w[c.charCodeAt(0)] = 100;
  for (const c of '.:/-"=_,') w[c.charCodeAt(0)] = 25;
  for (let c = 65; c <= 90; c++) w[c] = 6;
  for (const c of 'ESTIACNROLDP') w[c.charCodeAt(0)] = 10;
  for (const c of '[]{}()\'') w[c.charCodeAt(0)] = 8;
  return w;
})();

/**
 * Pairs far more common than their letters say: English's most frequent bigrams, and those of
 * words every log repeats (status, timestamp, service, string, image). An anchor on one of them
 * stops the scan every few dozen bytes.
 */
const COMMON_BIGRAMS = new Set(
  [
    ...'th he in er an re on at en nd ti es or te of ed is it al ar st to nt ng se ha as ou io le ve'.split(' '),
    ...'co me de hi ri ro ic ne ea ra ce li ch ll be ma si om ur us mp ag rv vi tr ta ca'.split(' '),
    // A word's last letter before a space.
    ...'ledsentry'.split('').map((c) => `${c} `),
  ].map((p) => (p.charCodeAt(0) << 8) | p.charCodeAt(1)),
);

function bigramWeight(a: number, b: number): number {
  return BYTE_WEIGHT[a] * BYTE_WEIGHT[b] * (COMMON_BIGRAMS.has((a << 8) | b) ? 8 : 1);
}

/**
 * How often each bigram (`a << 8 | b`) occurs in a sample of the text to be scanned. Logs have
 * their own vocabulary (`ready` in a kubelet journal, `etcd` in etcd's): anchors chosen on the
 * log's own counts stop the scan far less often than anchors chosen on English.
 */
export type BigramCounts = Uint32Array;

/** No bigram counted yet. */
export function emptyBigramCounts(): BigramCounts {
  return new Uint32Array(65536);
}

/** Adds every `step`-th bigram of `buf[from, to)` to `counts`. */
export function countBigrams(counts: BigramCounts, buf: Uint8Array, from: number, to: number, step = 3): void {
  for (let i = from + 1; i < to; i += step) counts[(buf[i - 1] << 8) | buf[i]]++;
}

/** An anchor's cost: its count in the sample, ties (unseen pairs above all) broken by the static weight. */
function sampledWeight(counts: BigramCounts, a: number, b: number): number {
  return counts[(a << 8) | b] + bigramWeight(a, b) / 1e6;
}

/** Literals shorter than this are searched with a native `indexOf` each. */
const MIN_SCANNED = 5;
/** Longest window: longer windows skip further but anchor worse. */
const MAX_WINDOW = 8;
/** Ranges from this size on are scanned with four cursors. */
const MIN_SPLIT = 4096;
const NEWLINE = 10;

/**
 * A hash of the three bytes ending at the anchor: the bigram shift table says where to stop,
 * this picks the few literals worth verifying there (a common bigram like `ed` or `or` ends
 * many literals and many words; its third byte tells most of them apart).
 */
function trigram(a: number, b: number, c: number): number {
  return Math.imul((a << 16) | (b << 8) | c, 0x9e3779b1) >>> 16;
}

interface Anchored {
  text: string;
  bytes: Buffer;
  /** Offset in `bytes` of the bigram's second byte, where the scan stops to verify. */
  end: number;
  groups: number;
}

/** A literal a search found: its text and groups. */
export interface FoundLiteral {
  readonly text: string;
  readonly groups: number;
}

/**
 * The places a search found: a position inside each match, ascending, and the literal that
 * matched there (one entry per literal when several match at one place).
 */
export interface Hits {
  positions: number[];
  found: FoundLiteral[];
}

/** Empty hits, to be reused across scans. */
export function emptyHits(): Hits {
  return { positions: [], found: [] };
}

/** Empties `hits` for the next scan. */
export function clearHits(hits: Hits): void {
  hits.positions.length = 0;
  hits.found.length = 0;
}

/** A literal and the groups (bit flags) it belongs to: a hit reports which groups matched. */
export interface GroupedLiteral {
  text: string;
  groups: number;
}

/** A compiled set of literals; build once per set with `LiteralSearch.of`. */
export class LiteralSearch {
  private static readonly cache = new Map<string, LiteralSearch>();
  private readonly window: number;
  private readonly shift: Uint8Array;
  /** Literals by the trigram hash ending at their anchor; the shift table holds a 0 there. */
  private readonly buckets: (Anchored[] | undefined)[];
  /** Literals too short for the scan (found by `indexOf`); `end` unused. */
  private readonly short: Anchored[] = [];
  /** Some literal is long enough for the bigram scan. */
  private readonly scanned: boolean;
  readonly empty: boolean;
  /** Some literal holds a newline: it can match across lines, so the scan is never cut at one. */
  private readonly spansLines: boolean;
  /** Hits of the second to fourth stretch of a four-cursor scan, appended after the first's. */
  private readonly stretchHits: Hits[] = [0, 1, 2].map(() => emptyHits());

  /** The search for `literals`, compiled once per distinct set in a process. */
  static of(literals: readonly GroupedLiteral[]): LiteralSearch {
    const key = literals.map((l) => `${l.groups}:${l.text}`).join('\u0000');
    let found = LiteralSearch.cache.get(key);
    if (!found) {
      if (LiteralSearch.cache.size > 256) LiteralSearch.cache.clear();
      found = new LiteralSearch(literals);
      LiteralSearch.cache.set(key, found);
    }
    return found;
  }

  /** `sample`: bigram counts of the text to be scanned, to anchor each literal where that text is rarest. */
  constructor(literals: readonly GroupedLiteral[], sample?: BigramCounts) {
    const merged = new Map<string, number>();
    for (const l of literals) if (l.text.length > 0) merged.set(l.text, (merged.get(l.text) ?? 0) | l.groups);
    const long: Anchored[] = [];
    for (const [text, groups] of merged) {
      const bytes = Buffer.from(text, 'utf8');
      // One shape for every literal a hit reports (the scan reads them all alike).
      (bytes.length < MIN_SCANNED ? this.short : long).push({ text, bytes, end: 0, groups });
    }
    this.empty = merged.size === 0;
    this.scanned = long.length > 0;
    this.spansLines = long.some((l) => l.bytes.includes(NEWLINE));
    this.window = Math.min(MAX_WINDOW, ...long.map((l) => l.bytes.length));
    const m = this.window;
    this.shift = new Uint8Array(65536).fill(long.length > 0 ? m - 1 : 0);
    this.buckets = new Array<Anchored[] | undefined>(65536);
    const weight = sample ? (a: number, b: number) => sampledWeight(sample, a, b) : bigramWeight;
    for (const { text, bytes, groups } of long) {
      // The window of m bytes whose last bigram is rarest: the scan verifies only there.
      let end = m - 1;
      for (let e = m; e < bytes.length; e++) {
        if (weight(bytes[e - 1], bytes[e]) < weight(bytes[end - 1], bytes[end])) end = e;
      }
      for (let j = end - m + 2; j <= end; j++) {
        const h = (bytes[j - 1] << 8) | bytes[j];
        this.shift[h] = Math.min(this.shift[h], end - j);
      }
      // end ≥ window - 1 ≥ 4: the trigram lies inside the literal.
      (this.buckets[trigram(bytes[end - 2], bytes[end - 1], bytes[end])] ??= []).push({ text, bytes, end, groups });
    }
  }

  /**
   * Where the scan stops to verify `text` (the offset in its bytes of its anchor bigram's second
   * byte); undefined when `text` is not one of the scanned literals.
   */
  anchor(text: string): number | undefined {
    for (const list of this.buckets) for (const a of list ?? []) if (a.text === text) return a.end;
    return undefined;
  }

  /**
   * Appends to `out` a position inside every match in `buf[from, to)` (matches do not cross
   * `to`), ascending, with the match's groups. Lines never hold a newline, so the position
   * tells which line matched.
   */
  scan(buf: Buffer, from: number, to: number, out: Hits): void {
    if (this.empty) return;
    const before = out.positions.length;
    if (this.scanned) {
      if (to - from < MIN_SPLIT || this.spansLines) this.scanFrom(buf, from + this.window - 1, from, to, out);
      else this.scanFour(buf, from, to, out);
    }
    if (this.short.length === 0) return;
    for (const literal of this.short) {
      const bytes = literal.bytes;
      for (let at = buf.indexOf(bytes, from); at >= 0 && at + bytes.length <= to; at = buf.indexOf(bytes, at + 1)) {
        out.positions.push(at);
        out.found.push(literal);
      }
    }
    sortHits(out, before);
  }

  /**
   * The bigram scan with four cursors over four stretches of whole lines, stepped together:
   * each step waits for the loads of the step before (byte, then table), so one cursor leaves
   * the core idle most of the time; four independent ones run about three times as fast.
   * Lines hold no newline, so no match crosses a cut made at one.
   */
  private scanFour(buf: Buffer, from: number, to: number, out: Hits): void {
    const quarter = (to - from) >> 2;
    const cut1 = lineCut(buf, from + quarter, to);
    const cut2 = lineCut(buf, Math.max(cut1 + 1, from + 2 * quarter), to);
    const cut3 = lineCut(buf, Math.max(cut2 + 1, from + 3 * quarter), to);
    // Stretch k runs from the byte after cut k to cut k + 1 (the newlines themselves are never part of a match).
    const s1 = Math.min(cut1 + 1, to);
    const s2 = Math.min(cut2 + 1, to);
    const s3 = Math.min(cut3 + 1, to);
    const [h1, h2, h3] = this.stretchHits;
    clearHits(h1);
    clearHits(h2);
    clearHits(h3);
    const shift = this.shift;
    const back = this.window - 1;
    let p0 = from + back;
    let p1 = s1 + back;
    let p2 = s2 + back;
    let p3 = s3 + back;
    while (p0 < cut1 && p1 < cut2 && p2 < cut3 && p3 < to) {
      const a = shift[(buf[p0 - 1] << 8) | buf[p0]];
      const b = shift[(buf[p1 - 1] << 8) | buf[p1]];
      const c = shift[(buf[p2 - 1] << 8) | buf[p2]];
      const d = shift[(buf[p3 - 1] << 8) | buf[p3]];
      if (a === 0) this.verify(buf, p0, from, cut1, out);
      if (b === 0) this.verify(buf, p1, s1, cut2, h1);
      if (c === 0) this.verify(buf, p2, s2, cut3, h2);
      if (d === 0) this.verify(buf, p3, s3, to, h3);
      p0 += a === 0 ? 1 : a;
      p1 += b === 0 ? 1 : b;
      p2 += c === 0 ? 1 : c;
      p3 += d === 0 ? 1 : d;
    }
    // The rest of each stretch with one cursor, from where that cursor stood.
    this.scanFrom(buf, p0, from, cut1, out);
    this.scanFrom(buf, p1, s1, cut2, h1);
    this.scanFrom(buf, p2, s2, cut3, h2);
    this.scanFrom(buf, p3, s3, to, h3);
    for (const h of this.stretchHits) {
      pushAll(out.positions, h.positions);
      pushAll(out.found, h.found);
    }
  }

  /** The one-cursor scan of `[from, to)` from the scan position `pos` on. */
  private scanFrom(buf: Buffer, pos: number, from: number, to: number, out: Hits): void {
    const shift = this.shift;
    while (pos < to) {
      const s = shift[(buf[pos - 1] << 8) | buf[pos]];
      if (s !== 0) {
        pos += s;
        continue;
      }
      this.verify(buf, pos, from, to, out);
      pos++;
    }
  }

  /** At a stop of the scan: the literals anchored there that match within `[from, to)`. */
  private verify(buf: Buffer, pos: number, from: number, to: number, out: Hits): void {
    // pos - 2 ≥ from: the scan starts window - 1 ≥ 4 bytes in.
    const list = this.buckets[trigram(buf[pos - 2], buf[pos - 1], buf[pos])];
    if (list === undefined) return;
    for (let k = 0; k < list.length; k++) {
      const a = list[k];
      if (matchesAt(buf, pos - a.end, a.bytes, from, to)) {
        out.positions.push(pos);
        out.found.push(a);
      }
    }
  }
}

/** The first newline at or after `at` before `to`; `to` when there is none. */
function lineCut(buf: Buffer, at: number, to: number): number {
  if (at >= to) return to;
  const nl = buf.indexOf(NEWLINE, at);
  return nl < 0 || nl >= to ? to : nl;
}

function matchesAt(buf: Buffer, at: number, bytes: Buffer, from: number, to: number): boolean {
  const n = bytes.length;
  if (at < from || at + n > to) return false;
  for (let i = 0; i < n; i++) if (buf[at + i] !== bytes[i]) return false;
  return true;
}

/** Sorts the hits appended after `from` by position (short literals are found out of order). */
function sortHits(out: Hits, from: number): void {
  const order = out.positions.slice(from).map((p, i) => [p, out.found[from + i]] as const);
  order.sort((a, b) => a[0] - b[0]);
  for (let i = 0; i < order.length; i++) {
    out.positions[from + i] = order[i][0];
    out.found[from + i] = order[i][1];
  }
}
