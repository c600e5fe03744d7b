// What a finding takes from a line a form matched: each named capture as the value reads (a
// quoted value unescaped and ended at its own closing quote, a long one cut at a word with …),
// and the part of the line those facts cover, which reporters keep whole when they cut the line.
import { matchWindow } from '../text/match-window.js';
import { quotedStringEnd, unescapeQuoted } from '../text/quoted-string.js';
import type { CompiledMatcher } from './matcher.js';

/** The longest value a finding quotes from a line; a longer one ends at a word, with `…`. */
export const MAX_CAPTURE = 300;

/** A part of a line (UTF-16 offsets, end exclusive). */
export interface Span {
  start: number;
  end: number;
}

/** One form's match on a line: its captures as they read, and the span of the line they cover. */
export interface LineFacts {
  captures: Record<string, string>;
  span: Span;
}

const ELLIPSIS = '…';

/**
 * `text` cut to at most `max` characters, ending with `…` when it was cut: at the last word
 * boundary of its second half (a space, or where a word meets punctuation), else at `max` (one
 * token longer than half the bound); never inside a surrogate pair.
 */
export function cutAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  const room = Math.max(1, max - ELLIPSIS.length);
  let cut = -1;
  for (let i = room; i > room / 2; i--) {
    const before = text[i - 1];
    const after = text[i];
    if (/\s/.test(after) || /\s/.test(before) || /\w/.test(before) !== /\w/.test(after)) {
      cut = i;
      break;
    }
  }
  if (cut < 0) cut = room;
  const code = text.charCodeAt(cut);
  if (code >= 0xdc00 && code <= 0xdfff) cut--;
  return `${text.slice(0, cut).trimEnd()}${ELLIPSIS}`;
}

/**
 * Where a captured value really ends, and how it reads: a capture that starts inside a quoted
 * string of the line (a logfmt or klog value, a JSON field) ends at that string's closing quote
 * and is unescaped once (`\"` reads `"`); white space runs (a message's line breaks) read as
 * one space; a value longer than MAX_CAPTURE is cut at a word with `…`.
 */
export function capturedValue(line: string, start: number, end: number): { value: string; end: number } {
  const close = quotedStringEnd(line, start);
  const stop = close === undefined ? end : Math.min(end, close);
  const raw = line.slice(start, stop);
  const text = close === undefined ? raw : unescapeQuoted(raw);
  return { value: cutAtWord(text.replace(/\s+/g, ' ').trim(), MAX_CAPTURE), end: stop };
}

const WITH_INDICES = new WeakMap<RegExp, RegExp>();

function indexed(pattern: RegExp): RegExp {
  let re = WITH_INDICES.get(pattern);
  if (!re) {
    re = new RegExp(pattern.source, pattern.flags.replace(/[dgy]/g, '') + 'd');
    WITH_INDICES.set(pattern, re);
  }
  return re;
}

/**
 * The facts one matcher finds on a line, or undefined when it does not match: a regex's named
 * captures (each as `capturedValue` reads it) and the span they lie in with the form's error
 * (its `err` capture, else the whole match); a literal's occurrence.
 */
export function lineFacts(text: string, m: CompiledMatcher): LineFacts | undefined {
  if (!m.pattern) {
    for (const lit of m.literals) {
      const i = text.indexOf(lit);
      if (i >= 0 && m.test(text)) return { captures: {}, span: { start: i, end: i + lit.length } };
    }
    return undefined;
  }
  const r = indexed(m.pattern).exec(matchWindow(text));
  if (!r?.indices) return undefined;
  const captures: Record<string, string> = {};
  // The error when the form names one (the point of the line), else the whole match; then
  // every value the form captures, each to its real end.
  const groups = r.indices.groups ?? {};
  const [s, e] = groups.err ?? r.indices[0];
  let start = s;
  let end = capturedValue(text, s, e).end;
  for (const [name, at] of Object.entries(groups)) {
    if (!at) continue;
    const v = capturedValue(text, at[0], at[1]);
    captures[name] = v.value;
    if (v.end <= at[0]) continue;
    start = Math.min(start, at[0]);
    end = Math.max(end, v.end);
  }
  return { captures, span: { start, end: Math.max(start, end) } };
}
