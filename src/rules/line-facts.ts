// What a finding takes from a line a form matched: each named capture as the value reads (a
// quoted value unescaped and ended at its own closing quote, a long one cut at a word with …),
// and the part of the line those facts cover, which reporters keep whole when they cut the line.
import { cutAtWord } from '../text/cut.js';
import { matchWindow } from '../text/match-window.js';
import { quotedValue } from '../text/quoted-string.js';
import type { Span } from '../result/types.js';
import type { CompiledMatcher } from './matcher.js';

/** The longest value a finding quotes from a line; a longer one ends at a word, with `…`. */
export const MAX_CAPTURE = 300;

/** One form's match on a line: its captures as they read, the part it is about, and where its values lie. */
export interface LineFacts {
  captures: Record<string, string>;
  /** The form's error (its `err` capture) when it names one, else its whole match. */
  point: Span;
  /** Each captured value's span (to its real end), in the order of the form's groups. */
  values: Span[];
}

/**
 * Where a captured value really ends, and how it reads: a capture that starts inside a quoted
 * string of the line (a logfmt or klog value, a JSON field, a `%q` error quoted inside one) ends
 * at that string's closing quote and is unescaped (`\"` reads `"`); white space runs (a
 * message's line breaks) read as one space; a value longer than MAX_CAPTURE is cut at a word
 * with `…`.
 */
export function capturedValue(line: string, start: number, end: number): { value: string; end: number } {
  const v = quotedValue(line, start, end);
  return { value: cutAtWord(v.value.replace(/\s+/g, ' ').trim(), MAX_CAPTURE), end: v.end };
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
 * captures (each as `capturedValue` reads it), its point (the `err` capture, else the whole
 * match) and the spans of its values, each ended where `capturedValue` ends it; a literal's
 * occurrence.
 */
export function lineFacts(text: string, m: CompiledMatcher): LineFacts | undefined {
  if (!m.pattern) {
    for (const lit of m.literals) {
      const i = text.indexOf(lit);
      if (i >= 0 && m.test(text)) return { captures: {}, point: { start: i, end: i + lit.length }, values: [] };
    }
    return undefined;
  }
  const r = indexed(m.pattern).exec(matchWindow(text));
  if (!r?.indices) return undefined;
  const captures: Record<string, string> = {};
  const values: Span[] = [];
  const groups = r.indices.groups ?? {};
  for (const [name, at] of Object.entries(groups)) {
    if (!at) continue;
    const v = capturedValue(text, at[0], at[1]);
    captures[name] = v.value;
    if (v.end > at[0]) values.push({ start: at[0], end: v.end });
  }
  const [start, end] = groups.err ?? r.indices[0];
  return { captures, point: { start, end: Math.max(start, capturedValue(text, start, end).end) }, values };
}
