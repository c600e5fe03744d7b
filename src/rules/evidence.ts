// Which lines a finding cites and how it counts them: copies of one journal line (bootkube.log
// and unit-status/bootkube.service.log) count once, a burst of lines one retry printed is one
// attempt, identical lines fold into one with how often they occurred, and each cited line says
// which part of it the finding is about.
import type { CompiledMatcher } from './matcher.js';
import type { SourceLine } from '../specs/bundle-sources.js';
import type { Evidence, Span } from '../result/types.js';
import { lineFacts } from './line-facts.js';
import { closingQuote } from '../text/quoted-string.js';

/** Lines one attempt prints (`X is unhealthy`, `Error: unhealthy cluster`, `... Retrying`) share a second. */
const BURST_MS = 1000;

/**
 * The same line read from two files (a journal and its copy under unit-status/, crio.log and a
 * container's log) is one line: same host, same time, same text. Lines without a time cannot be
 * told from genuine repeats and are all kept.
 */
export function distinctLines(lines: readonly SourceLine[]): SourceLine[] {
  const seen = new Set<string>();
  const out: SourceLine[] = [];
  for (const l of lines) {
    if (l.time !== undefined) {
      const key = `${l.host ?? ''}\u0000${l.time}\u0000${l.text}`;
      if (seen.has(key)) continue;
      seen.add(key);
    }
    out.push(l);
  }
  return out;
}

/** Attempts, not lines: lines of one host within a second of the first of their burst are one attempt. */
export function countAttempts(lines: readonly SourceLine[]): number {
  const burstStart = new Map<string, number>();
  let n = 0;
  for (const l of [...lines].sort((a, b) => (a.time ?? 0) - (b.time ?? 0))) {
    if (l.time === undefined) {
      n++;
      continue;
    }
    const host = l.host ?? '';
    const start = burstStart.get(host);
    if (start !== undefined && l.time - start < BURST_MS) continue;
    burstStart.set(host, l.time);
    n++;
  }
  return n;
}

// Times and counters that differ between repeats of one message: syslog, ISO and klog stamps,
// clock times, process ids, Go's monotonic clock reading.
const TIME_OR_COUNTER = [
  /^[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d(?:\.\d+)? /,
  /\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?/g,
  /\b[IWEF]\d{4} \d\d:\d\d:\d\d\.\d+ +\d+ /g,
  /\b\d\d:\d\d:\d\d(?:\.\d+)?\b/g,
  /\[\d+\]:/g,
  /m=[+-]\d+\.\d+/g,
];

/** A line with its times and counters blanked: two lines with one key say the same thing. */
export function repeatKey(text: string): string {
  let key = text;
  for (const re of TIME_OR_COUNTER) key = key.replace(re, '#');
  return key;
}

/** One cited line and how many lines of its host said the same. */
export interface FoldedLine {
  line: SourceLine;
  repeats: number;
}

/**
 * Folds lines that say the same thing on the same host into one, in the order they first
 * appeared; each cites its latest occurrence (the state the log ended in).
 */
export function foldRepeats(lines: readonly SourceLine[]): FoldedLine[] {
  const byKey = new Map<string, FoldedLine>();
  for (const l of lines) {
    const key = `${l.host ?? ''}\u0000${repeatKey(l.text)}`;
    const f = byKey.get(key);
    if (f) {
      f.repeats++;
      f.line = l;
    } else byKey.set(key, { line: l, repeats: 1 });
  }
  return [...byKey.values()];
}

/** Evidence to cite: the first message and the last few, each once with its count. */
export function pickFolded(folded: readonly FoldedLine[], max = 4): FoldedLine[] {
  if (folded.length <= max) return [...folded];
  return [folded[0], ...folded.slice(folded.length - (max - 1))];
}

/** The parts of a cited line a finding is about, which a reporter that cuts the line keeps whole. */
export interface LineParts {
  /** The point: the first matching form's error, else its match. */
  match: Span;
  /** The values the matching forms capture outside the point (a file, a config, an image, a host), in line order. */
  facts?: Span[];
}

/**
 * What a line says that a finding is about: the point of the first matcher that matches it, and
 * the values of every matcher that does (a config one wording names and the file another names,
 * the image a refusal is about).
 */
export function lineParts(text: string, matchers: readonly CompiledMatcher[]): LineParts | undefined {
  let match: Span | undefined;
  const values: Span[] = [];
  for (const m of matchers) {
    const f = lineFacts(text, m);
    if (!f) continue;
    match ??= f.point;
    values.push(...f.values);
  }
  if (!match) return undefined;
  const point = match;
  const facts = mergeSpans(values.filter((v) => v.start < point.start || v.end > point.end));
  return facts.length > 0 ? { match, facts } : { match };
}

/** Spans sorted, those that overlap or touch merged. */
function mergeSpans(spans: readonly Span[]): Span[] {
  const out: Span[] = [];
  for (const s of [...spans].sort((a, b) => a.start - b.start || a.end - b.end)) {
    const last = out[out.length - 1];
    if (last && s.start <= last.end) last.end = Math.max(last.end, s.end);
    else out.push({ ...s });
  }
  return out;
}

/** A cited line as evidence. */
export function toEvidence(l: SourceLine, extra: { repeats?: number; parts?: LineParts } = {}): Evidence {
  const e: Evidence = { file: l.file, text: l.text };
  if (l.line !== undefined) e.line = l.line;
  if (l.time !== undefined) e.time = l.time;
  if (l.host) e.host = l.host;
  if (l.before && l.before.length > 0) e.before = l.before;
  if (l.after && l.after.length > 0) e.after = l.after;
  if (extra.parts) {
    e.match = extra.parts.match;
    if (extra.parts.facts) e.facts = extra.parts.facts;
  }
  if (extra.repeats !== undefined && extra.repeats > 1) e.repeats = extra.repeats;
  return e;
}

const LOGFMT_MSG = /(?:^|\s)msg="/;

/**
 * Where a message lies in the line it is cited from, for a reporter that cuts the line to keep
 * it whole: as written (a line composed as `<operator> Degraded=True <reason>: <message>`), else
 * the logfmt `msg="..."` value it was unescaped from (the installer's log); undefined when the
 * message is empty or not there.
 */
export function messageSpan(line: string, message: string): Span | undefined {
  if (message === '') return undefined;
  const at = line.lastIndexOf(message);
  if (at >= 0) return { start: at, end: at + message.length };
  const m = LOGFMT_MSG.exec(line);
  if (!m) return undefined;
  const open = m.index + m[0].length - 1;
  return { start: open + 1, end: closingQuote(line, open) };
}
