// One line of a container, serial or plain log: finds its time and format (klog, logfmt,
// JSON as etcd writes it, an ISO prefix, or plain text).
import type { LogFormat, LogLine } from '../model/types.js';
import { fractionToMs, parseIsoPrefix, parseIsoTime, yearlessToEpoch } from '../text/time.js';

// klog: `I1122 10:15:04.987596    2519 kubelet.go:2076] message`.
const KLOG_RE = /^([IWEF])(\d{2})(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?\s+\d+\s+[^\]\s]+\]\s?/;
// logfmt as CRI-O and the installer write it: `time="2026-11-22T10:15:04Z" level=error msg="..."`.
const LOGFMT_TIME_RE = /^time="([^"]+)"/;
const JSON_TS_RE = /"(?:ts|time|timestamp)"\s*:\s*(?:"([^"]+)"|(\d+(?:\.\d+)?))/;
const JSON_MSG_RE = /"msg"\s*:\s*"((?:[^"\\]|\\.)*)"/;
const MONOTONIC_RE = /^\[\s*(\d+\.\d+)\]\s?/;
const LOGFMT_MSG_RE = /\bmsg="((?:[^"\\]|\\.)*)"/;

export interface ParsedLogLine extends LogLine {
  format: LogFormat;
  /** Severity as the line states it (`I`/`W`/`E`/`F` for klog, `level=` otherwise). */
  level?: string;
}

/** Undoes Go/JSON string escapes enough for display and matching (`\"`, `\\`, `\n`, `\t`). */
export function unescapeQuoted(text: string): string {
  if (!text.includes('\\')) return text;
  return text.replace(/\\(["\\nt])/g, (_, c: string) => (c === 'n' ? '\n' : c === 't' ? '\t' : c));
}

/**
 * Parses one log line. `referenceTime` gives klog's year-less timestamps a year.
 * Lines without a recognised time are `plain` and keep their text as is.
 */
export function parseLogLine(raw: string, lineNo: number, referenceTime: number | undefined): ParsedLogLine {
  const first = raw.charCodeAt(0);
  if (first === 73 || first === 87 || first === 69 || first === 70) {
    const m = KLOG_RE.exec(raw);
    if (m) {
      const time = yearlessToEpoch(
        Number(m[2]),
        Number(m[3]),
        Number(m[4]),
        Number(m[5]),
        Number(m[6]),
        fractionToMs(m[7]),
        referenceTime,
      );
      return { line: lineNo, time, text: raw.slice(m[0].length), raw, format: 'klog', level: m[1] };
    }
  }
  if (first === 123 /* { */) {
    const ts = JSON_TS_RE.exec(raw);
    if (ts) {
      const time = ts[1] !== undefined ? parseIsoTime(ts[1]) : Math.floor(Number(ts[2]) * 1000);
      const msg = JSON_MSG_RE.exec(raw);
      const level = /"level"\s*:\s*"(\w+)"/.exec(raw)?.[1];
      const out: ParsedLogLine = { line: lineNo, text: msg ? unescapeQuoted(msg[1]) : raw, raw, format: 'json' };
      if (time !== undefined) out.time = time;
      if (level) out.level = level;
      return out;
    }
  }
  if (first === 116 /* t */) {
    const tm = LOGFMT_TIME_RE.exec(raw);
    if (tm) {
      const msg = LOGFMT_MSG_RE.exec(raw);
      const level = /\blevel=(\w+)/.exec(raw)?.[1];
      const out: ParsedLogLine = { line: lineNo, text: msg ? unescapeQuoted(msg[1]) : raw, raw, format: 'logfmt' };
      const time = parseIsoTime(tm[1]);
      if (time !== undefined) out.time = time;
      if (level) out.level = level;
      return out;
    }
  }
  if (first === 91 /* [ */) {
    // Kernel and serial console lines: `[  591.204871] ignition[812]: ...`.
    const m = MONOTONIC_RE.exec(raw);
    if (m) return { line: lineNo, monotonic: Number(m[1]), text: raw.slice(m[0].length), raw, format: 'plain' };
  }
  if (first >= 48 && first <= 57) {
    const iso = parseIsoPrefix(raw);
    if (iso) {
      return { line: lineNo, time: iso.time, text: raw.slice(iso.length).trimStart(), raw, format: 'plain' };
    }
  }
  return { line: lineNo, text: raw, format: 'plain' };
}
