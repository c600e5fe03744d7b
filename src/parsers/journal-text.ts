// One line of `journalctl` text output, in every `short*` form the gather scripts and users
// produce: short (year-less, any locale), short-precise, short-iso(-precise), short-full,
// short-unix and short-monotonic.
import type { JournalLine } from '../model/types.js';
import { fractionToMs, monthFromToken, parseIsoPrefix, yearlessToEpoch } from '../text/time.js';

/** What journalctl prints between entries: boot separators, empty-journal and range notes. */
export type JournalMarker =
  | { type: 'boot'; id?: string }
  | { type: 'no-entries' }
  | { type: 'note'; text: string };

/** Recognises `-- Boot 8b7c... --`, `-- No entries --`, `-- Logs begin at ... --` and similar. */
export function parseJournalMarker(raw: string): JournalMarker | undefined {
  if (!raw.startsWith('-- ') || !raw.trimEnd().endsWith(' --')) return undefined;
  const inner = raw.trim().slice(3, -3).trim();
  if (inner === 'No entries') return { type: 'no-entries' };
  if (inner === 'Reboot') return { type: 'boot' };
  const boot = /^Boot ([0-9a-f]{8,32})$/i.exec(inner);
  if (boot) return { type: 'boot', id: boot[1].toLowerCase() };
  return { type: 'note', text: inner };
}

const CJK_PADDED_MONTH = /^ \d[\u6708\uc6d4] /;

/**
 * Whether a line continues the entry above it: journalctl indents an entry's further lines
 * with a space or a tab; Japanese and Korean locales pad one-digit months (` 1月`) the same way.
 */
export function isJournalContinuation(raw: string): boolean {
  const c = raw.charCodeAt(0);
  return (c === 32 || c === 9) && !CJK_PADDED_MONTH.test(raw);
}

/** Whether a line is one journalctl prints between entries (`-- Boot ... --`), by its first bytes. */
export function isJournalMarker(raw: string): boolean {
  return raw.charCodeAt(0) === 45 && raw.startsWith('-- ');
}

interface ParsedTime {
  time?: number;
  /** Index just past the timestamp and its following space. */
  next: number;
}

const CLOCK_RE = /^(\d{1,2}):(\d{2}):(\d{2})(?:\.(\d+))?$/;

function nextToken(raw: string, from: number): { token: string; end: number } {
  let start = from;
  while (start < raw.length && raw.charCodeAt(start) === 32) start++;
  let end = raw.indexOf(' ', start);
  if (end < 0) end = raw.length;
  return { token: raw.slice(start, end), end };
}

/** Parses the leading timestamp in any `short*` form; undefined when the line has none. */
function parseLeadingTime(raw: string, referenceTime: number | undefined): ParsedTime | undefined {
  const first = raw.charCodeAt(0);
  // short-monotonic: `[  123.456789] host ident: msg` carries no wall time.
  if (first === 91 /* [ */) {
    const close = raw.indexOf('] ');
    if (close < 0 || !/^\[\s*\d+\.\d+$/.test(raw.slice(0, close))) return undefined;
    return { next: close + 2 };
  }
  const t1 = nextToken(raw, 0);
  // short-iso / short-iso-precise: `2026-11-22T10:15:04+0000`.
  if (/^\d{4}-\d{2}-\d{2}T/.test(t1.token)) {
    const iso = parseIsoPrefix(t1.token);
    if (!iso || iso.length !== t1.token.length) return undefined;
    return { time: iso.time, next: t1.end + 1 };
  }
  // short-unix: `1700000000.123456 host ...`.
  if (/^\d{9,11}\.\d+$/.test(t1.token)) {
    return { time: Math.floor(Number(t1.token) * 1000), next: t1.end + 1 };
  }
  // short-full: `Sun 2026-11-22 10:15:04 UTC host ...`.
  const t2 = nextToken(raw, t1.end);
  if (/^\d{4}-\d{2}-\d{2}$/.test(t2.token)) {
    const t3 = nextToken(raw, t2.end);
    const t4 = nextToken(raw, t3.end);
    const zoned = /^[+-]\d{4}$|^[+-]\d{2}:\d{2}$/.test(t4.token) ? t4.token : 'Z';
    const iso = parseIsoPrefix(`${t2.token}T${t3.token}${zoned}`);
    if (!iso) return undefined;
    return { time: iso.time, next: t4.end + 1 };
  }
  // short / short-precise: `<month> <day> hh:mm:ss[.us]` with the month in the host's locale.
  const month = monthFromToken(t1.token);
  if (month === undefined) return undefined;
  const day = Number(t2.token);
  if (!Number.isInteger(day) || day < 1 || day > 31) return undefined;
  const t3 = nextToken(raw, t2.end);
  const clock = CLOCK_RE.exec(t3.token);
  if (!clock) return undefined;
  const time = yearlessToEpoch(
    month,
    day,
    Number(clock[1]),
    Number(clock[2]),
    Number(clock[3]),
    fractionToMs(clock[4]),
    referenceTime,
  );
  return { time, next: t3.end + 1 };
}

/**
 * Parses one journal line (`Nov 22 10:15:04 host ident[pid]: message`). Returns undefined for
 * lines that are not entry headers: continuation lines, markers, garbage.
 * `referenceTime` gives year-less timestamps their year.
 */
export function parseJournalLine(
  raw: string,
  lineNo: number,
  referenceTime: number | undefined,
): JournalLine | undefined {
  if (raw.length === 0 || isJournalContinuation(raw)) return undefined;
  // What indent is left is the padding of a one-digit month.
  const body = raw.charCodeAt(0) === 32 ? raw.slice(1) : raw;
  const lead = parseLeadingTime(body, referenceTime);
  if (!lead) return undefined;
  const hostEnd = body.indexOf(' ', lead.next);
  if (hostEnd < 0) return undefined;
  const hostname = body.slice(lead.next, hostEnd);
  const rest = body.slice(hostEnd + 1);
  const entry: JournalLine = { line: lineNo, text: rest, raw, hostname };
  if (lead.time !== undefined) entry.time = lead.time;
  let colon = rest.indexOf(': ');
  if (colon < 0 && rest.endsWith(':')) colon = rest.length - 1;
  if (colon > 0) {
    const ident = rest.slice(0, colon);
    if (!ident.includes(' ')) {
      entry.text = rest.slice(colon + 2);
      const bracket = ident.lastIndexOf('[');
      if (bracket > 0 && ident.endsWith(']')) {
        entry.identifier = ident.slice(0, bracket);
        const pid = Number(ident.slice(bracket + 1, -1));
        if (Number.isInteger(pid)) entry.pid = pid;
      } else {
        entry.identifier = ident;
      }
    }
  }
  return entry;
}
