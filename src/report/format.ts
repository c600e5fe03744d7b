// Formatting shared by every text renderer: times, sizes, one-line excerpts cut to the width
// around what matters, table widths.
import Table from 'cli-table3';
import type { Span } from '../result/types.js';
import { cutAtWord, ELLIPSIS, wordCut } from '../text/cut.js';
import { termText } from './escape.js';

/** `2026-11-22 10:15:04Z`, or `-`. */
export function formatTime(t: number | undefined): string {
  if (t === undefined || !Number.isFinite(t)) return '-';
  return new Date(t).toISOString().replace('T', ' ').replace(/\.\d{3}Z$/, 'Z');
}

/** `4.2 MB`. */
export function formatBytes(n: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let v = n;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return i === 0 ? `${v} B` : `${v.toFixed(1)} ${units[i]}`;
}

/** The width text reports use when none is given (`--width`, `COLUMNS`, the terminal). */
export const DEFAULT_WIDTH = 100;
/** Narrower than this, nothing readable fits: widths below are raised to it. */
export const MIN_WIDTH = 40;

/** The longest finding message the terminal shows (some twenty rows of prose); the JSON report keeps it whole. */
export const MESSAGE_MAX = 2000;

/** A width fit for layout: at least MIN_WIDTH; `Infinity` (`--wide`) stays, meaning "never cut". */
export function layoutWidth(width: number | undefined): number {
  if (width === undefined || Number.isNaN(width)) return DEFAULT_WIDTH;
  return Math.max(MIN_WIDTH, Math.floor(width));
}

/** One line of at most `max` characters, escaped for the terminal (control characters shown visibly), cut at a word with …. */
export function oneLine(text: string | undefined, max = 100): string {
  if (!text) return '';
  return cutAtWord(termText(text).replace(/ {2,}/g, ' ').trim(), max);
}

/** `text.slice(from, to)` that never splits a surrogate pair (an emoji in a log line stays whole or goes). */
function slice(text: string, from: number, to: number): string {
  let a = Math.max(0, from);
  let b = Math.min(text.length, to);
  if (a > 0 && isLowSurrogate(text.charCodeAt(a))) a++;
  if (b < text.length && isLowSurrogate(text.charCodeAt(b))) b--;
  return text.slice(a, Math.max(a, b));
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * The most of one kept part a cut line shows; a longer part keeps its head and its tail. At the
 * default width that is six rows of a terminal: a whole Degraded message, an error chain.
 */
export const KEEP_MAX = 600;

/** Text between kept parts this short is shown rather than replaced by … (which saves almost nothing). */
const SHORT_GAP = 8;

/** Where an escaped piece of the line lies in the shown line. */
interface Piece {
  start: number;
  end: number;
}

/** Spans valid for `length`, sorted, merged where they overlap or lie a few characters apart. */
function keptPieces(spans: readonly (Span | undefined)[], length: number): Span[] {
  const valid = spans.filter((s): s is Span => !!s && s.start >= 0 && s.end > s.start && s.end <= length).sort((a, b) => a.start - b.start);
  const out: Span[] = [];
  for (const s of valid) {
    const last = out[out.length - 1];
    if (last && s.start <= last.end + SHORT_GAP) last.end = Math.max(last.end, s.end);
    else out.push({ start: s.start, end: s.end });
  }
  return out;
}

/**
 * The line escaped for the terminal piece by piece, so offsets still hold after escaping changes
 * lengths (a C1 control becomes `<U+009B>`): the shown line and each span's place in it.
 */
function escapeAround(text: string, spans: readonly Span[]): { line: string; pieces: Piece[] } {
  const cuts = [...new Set([0, text.length, ...spans.flatMap((s) => [s.start, s.end])])].sort((a, b) => a - b);
  const at = new Map<number, number>();
  let line = '';
  for (let i = 0; i < cuts.length; i++) {
    at.set(cuts[i], line.length);
    if (i + 1 < cuts.length) line += termText(text.slice(cuts[i], cuts[i + 1]));
  }
  return { line, pieces: spans.map((s) => ({ start: at.get(s.start) ?? 0, end: at.get(s.end) ?? line.length })) };
}

/** A cut that does not split an escape (`\"` shown as a lone `"` or a trailing `\`) or a surrogate pair. */
function cutStart(line: string, at: number): number {
  let i = Math.max(0, at);
  if (i > 0 && line[i - 1] === '\\' && (i < 2 || line[i - 2] !== '\\')) i++;
  if (i > 0 && i < line.length && isLowSurrogate(line.charCodeAt(i))) i++;
  return Math.min(i, line.length);
}

function cutEnd(line: string, at: number): number {
  let i = Math.min(line.length, at);
  if (i > 0 && i < line.length && line[i - 1] === '\\' && (i < 2 || line[i - 2] !== '\\')) i--;
  if (i > 0 && i < line.length && isLowSurrogate(line.charCodeAt(i))) i--;
  return Math.max(i, 0);
}

const isWordChar = (c: string | undefined): boolean => c !== undefined && /\w/.test(c);

/** A word longer than this is a digest or a name, cut where it must rather than left out. */
const LONG_WORD = 24;

/**
 * Where context that would start at `at`, inside a word, starts instead: where that word ends
 * (no further than `limit`, the kept part), unless it is a LONG_WORD.
 */
function wordStart(line: string, at: number, limit: number): number {
  let i = at;
  while (i < limit && i - at < LONG_WORD && isWordChar(line[i - 1]) && isWordChar(line[i])) i++;
  return isWordChar(line[i - 1]) && isWordChar(line[i]) ? at : i;
}

/** Where context that would end at `at`, inside a word, ends instead (`wordStart` backwards, down to `limit`). */
function wordEnd(line: string, at: number, limit: number): number {
  let i = at;
  while (i > limit && at - i < LONG_WORD && isWordChar(line[i - 1]) && isWordChar(line[i])) i--;
  return isWordChar(line[i - 1]) && isWordChar(line[i]) ? at : i;
}

/** A kept part longer than KEEP_MAX: its head and its tail around one …. */
function shortened(line: string, p: Piece, max: number): string {
  if (p.end - p.start <= max) return line.slice(p.start, p.end);
  const tail = Math.floor((max - 1) / 3);
  const head = max - 1 - tail;
  return `${line.slice(p.start, cutEnd(line, p.start + head))}${ELLIPSIS}${line.slice(cutStart(line, p.end - tail), p.end)}`;
}

/**
 * A log line fit into `width` columns, escaped for the terminal. When it must be cut, the parts
 * a finding is about stay whole: its `match` and its `facts` (the file, value or host it names),
 * with … wherever text around or between them is dropped and as much context as fits around
 * them; a cut never splits an escape such as `\"`. When the kept parts alone are wider than
 * `width` the result is wider (a reporter shows it in rows); a part longer than KEEP_MAX keeps
 * its head and tail. Without parts the line keeps its start. `Infinity` keeps the whole line.
 */
export function fitLine(text: string, width: number, match?: Span, facts: readonly Span[] = []): string {
  const kept = keptPieces([match, ...facts], text.length);
  const { line, pieces } = escapeAround(text, kept);
  if (line.length <= width) return line;
  const w = Math.max(MIN_WIDTH / 2, width);
  if (pieces.length === 0) return `${line.slice(0, cutEnd(line, wordCut(line, w - 1))).trimEnd()}${ELLIPSIS}`;
  const max = Math.max(w - 2, KEEP_MAX);
  const shown = pieces.map((p) => ({ ...p, text: shortened(line, p, max) }));
  // Gaps between kept parts: shown whole when short or when room is left, else one ….
  const gaps = shown.slice(1).map((p, i) => ({ from: shown[i].end, to: p.start, whole: false }));
  const first = shown[0];
  const last = shown[shown.length - 1];
  const lead = first.start > 0 ? 1 : 0;
  const trail = last.end < line.length ? 1 : 0;
  let room = w - shown.reduce((n, p) => n + p.text.length, 0) - lead - trail - gaps.length;
  for (const g of [...gaps].sort((a, b) => a.to - a.from - (b.to - b.from))) {
    const cost = g.to - g.from - 1;
    if (cost > room) break;
    g.whole = true;
    room -= cost;
  }
  // What room is left goes around the kept parts, half before and half after.
  let before = Math.min(first.start, Math.max(0, Math.floor(room / 2)));
  const after = Math.min(line.length - last.end, Math.max(0, room - before));
  before = Math.min(first.start, Math.max(0, room - after));
  // Context starts and ends at a word: `…ror msg="` reads as a word that is not there.
  const lo = before >= first.start ? 0 : cutStart(line, wordStart(line, first.start - before, first.start));
  const hi = after >= line.length - last.end ? line.length : cutEnd(line, wordEnd(line, last.end + after, last.end));
  let out = lo > 0 ? ELLIPSIS : '';
  out += line.slice(lo, first.start);
  shown.forEach((p, i) => {
    if (i > 0) out += gaps[i - 1].whole ? line.slice(gaps[i - 1].from, gaps[i - 1].to) : ELLIPSIS;
    out += p.text;
  });
  out += line.slice(last.end, hi);
  return hi < line.length ? `${out}${ELLIPSIS}` : out;
}

/**
 * A cited line in rows of `width`: `fitLine`'s cut, which is one row unless the parts it keeps
 * are wider, then continued on the next rows rather than lose them.
 */
export function lineRows(text: string, width: number, match?: Span, facts?: readonly Span[]): string[] {
  let rest = fitLine(text, width, match, facts);
  const w = Math.max(MIN_WIDTH / 2, width);
  const rows: string[] = [];
  // Rows break at a space when one is near the row's end, so words read whole.
  while (rest.length > w) {
    const at = wordCut(rest, w);
    rows.push(rest.slice(0, at).trimEnd());
    rest = rest.slice(at).trimStart();
  }
  rows.push(rest);
  return rows;
}

/** ` (×N)` for a line that occurred N > 1 times, else nothing. */
export function repeatsNote(repeats: number | undefined): string {
  return repeats !== undefined && Number.isFinite(repeats) && repeats > 1 ? ` (×${Math.floor(repeats)})` : '';
}

/** Text without colour sequences, for measuring how wide it shows. */
function visibleLength(text: string): number {
  let widest = 0;
  // eslint-disable-next-line no-control-regex
  for (const l of text.replace(/\u001b\[[0-9;]*m/g, '').split('\n')) widest = Math.max(widest, l.length);
  return widest;
}

/**
 * Column widths (padding and borders included, as cli-table3 counts them) that fit a table
 * into `width`: the widest columns give way first, none below a few characters. Undefined when
 * the table fits as it is, or for `Infinity`.
 */
export function tableWidths(rows: readonly (readonly string[])[], width: number): number[] | undefined {
  if (!Number.isFinite(width) || rows.length === 0) return undefined;
  // Loops, not spreads: a table may have a quarter of a million rows.
  let cols = 0;
  for (const r of rows) cols = Math.max(cols, r.length);
  const widths = new Array<number>(cols).fill(3);
  for (const r of rows) for (let i = 0; i < r.length; i++) widths[i] = Math.max(widths[i], visibleLength(r[i]) + 2);
  // One border per column and one closing border.
  const budget = width - (cols + 1);
  let total = widths.reduce((a, b) => a + b, 0);
  if (total <= budget) return undefined;
  const floor = 8;
  while (total > budget) {
    let widest = 0;
    for (let i = 1; i < cols; i++) if (widths[i] > widths[widest]) widest = i;
    if (widths[widest] <= floor) break;
    let second = floor;
    for (let i = 0; i < cols; i++) if (i !== widest) second = Math.max(second, widths[i]);
    const cut = Math.max(1, Math.min(total - budget, widths[widest] - second + 1));
    widths[widest] -= cut;
    total -= cut;
  }
  return widths;
}

/** Wraps text at `width` columns, indenting continuation lines. */
export function wrap(text: string, width: number, indent: string): string {
  const words = text.split(/\s+/);
  const lines: string[] = [];
  let line = '';
  for (const w of words) {
    if (line && line.length + 1 + w.length > width) {
      lines.push(line);
      line = w;
    } else line = line ? `${line} ${w}` : w;
  }
  if (line) lines.push(line);
  return lines.join(`\n${indent}`);
}

/** A word longer than `width` shortened in its middle (`…`), so a row never splits it. */
function shortenWord(word: string, width: number): string {
  const chars = Array.from(word);
  if (chars.length <= width || width < 5) return word;
  const tail = Math.floor((width - 1) / 3);
  return `${chars.slice(0, width - 1 - tail).join('')}…${chars.slice(chars.length - tail).join('')}`;
}

/**
 * Text in rows of at most `width` characters, broken at spaces only: the first row starts with
 * `lead`, the others with `indent`; a word longer than a row is shortened in its middle (`…`),
 * never split across rows (`--wide` shows it whole).
 */
export function wrapWords(text: string, width: number, indent: string, lead = ''): string[] {
  // A line that fits is left as it is (columns padded to align).
  if (!Number.isFinite(width) || lead.length + text.length <= width) return [`${lead}${text}`];
  const rows: string[] = [];
  let row = '';
  const room = (): number => width - (rows.length === 0 ? lead.length : indent.length);
  // Each word with the spaces after it: a row keeps the spacing it was written with.
  for (const piece of text.trim().split(/(?<=\s)(?=\S)/)) {
    const word = piece.trimEnd();
    const gap = piece.slice(word.length);
    if (row && row.trimEnd().length + 1 + Math.min(word.length, room()) > room()) {
      rows.push(row.trimEnd());
      row = '';
    }
    row += shortenWord(word, room()) + gap;
  }
  rows.push(row.trimEnd());
  return rows.map((r, i) => `${i === 0 ? lead : indent}${r}`);
}

/** Lines wider than `width` (titles, references, notes) wrapped at spaces with their indent; a longer word cut into rows. */
export function fitWidth(lines: readonly string[], width: number): string[] {
  if (!Number.isFinite(width)) return [...lines];
  const out: string[] = [];
  for (const line of lines) {
    // eslint-disable-next-line no-control-regex
    if (line.replace(/\u001b\[[0-9;]*m/g, '').length <= width) {
      out.push(line);
      continue;
    }
    const indent = /^ */.exec(line)?.[0] ?? '';
    const pad = indent.length + 2 < width / 2 ? `${indent}  ` : '';
    for (const row of wrap(line.slice(indent.length), width - pad.length, pad).split('\n')) {
      const first = out.length === 0 || !row.startsWith(pad) ? `${indent}${row}` : row;
      if (first.length <= width) out.push(first);
      else for (const piece of chunk(first, width)) out.push(piece);
    }
  }
  return out;
}

/** Text cut into rows of `width` characters (log lines are not prose: no word wrapping). */
export function chunk(text: string, width: number): string[] {
  if (!Number.isFinite(width)) return [text];
  const chars = Array.from(text);
  const rows: string[] = [];
  for (let i = 0; i < chars.length; i += width) rows.push(chars.slice(i, i + width).join('').trimEnd());
  return rows.length > 0 ? rows : [''];
}

export interface TableOptions {
  /** Columns whose cells are this code's own text (colour included), not escaped. */
  trusted?: readonly number[];
}

/**
 * A table without rules between rows, every cell escaped for the terminal (a multi-line cell
 * keeps its lines), its columns narrowed to fit `width` (`Infinity` keeps them as wide as they are).
 */
export function renderTable(head: readonly string[], rows: readonly (readonly string[])[], width: number, opts: TableOptions = {}): string {
  const trusted = new Set(opts.trusted ?? []);
  const cells = rows.map((r) => r.map((c, i) => (trusted.has(i) ? c : c.split('\n').map(termText).join('\n'))));
  const colWidths = tableWidths([head, ...cells], width);
  const chars = { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' };
  // Narrowed cells wrap (at spaces; a longer word is cut with …) rather than lose their end.
  // The head goes in as the first row: given as `head`, cli-table3 prepends it with
  // push.apply(rows), which overflows the stack at a quarter of a million rows (same output).
  const all = head.length > 0 ? [[...head], ...cells] : cells;
  if (all.length <= TABLE_CHUNK) {
    const t = new Table({ chars, style: { head: [], border: [] }, ...(colWidths ? { colWidths, wordWrap: true } : {}) });
    for (const r of all) t.push(r);
    return t.toString();
  }
  // cli-table3 lays a table out in time quadratic in its rows: a long one is drawn in chunks of
  // fixed column widths, their borders joined, so it reads as one table.
  const widths = colWidths ?? naturalWidths(all);
  const parts: string[] = [];
  for (let i = 0; i < all.length; i += TABLE_CHUNK) {
    const t = new Table({ chars, style: { head: [], border: [] }, colWidths: widths, wordWrap: true });
    for (const r of all.slice(i, i + TABLE_CHUNK)) t.push(r);
    const lines = t.toString().split('\n');
    const first = i === 0 ? 0 : 1;
    const last = i + TABLE_CHUNK >= all.length ? lines.length : lines.length - 1;
    parts.push(lines.slice(first, last).join('\n'));
  }
  return parts.join('\n');
}

/** Rows a table is drawn with at once (cli-table3's layout is quadratic in them). */
const TABLE_CHUNK = 1000;

/** Each column's widest line plus its padding. */
function naturalWidths(rows: readonly (readonly string[])[]): number[] {
  const widths: number[] = [];
  for (const r of rows) for (let i = 0; i < r.length; i++) widths[i] = Math.max(widths[i] ?? 3, visibleLength(r[i]) + 2);
  return widths;
}
