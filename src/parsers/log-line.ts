// One line of a container, serial or plain log: finds its time and format (klog, logfmt,
// JSON as etcd writes it, an ISO prefix, or plain text).
import type { LogFormat, LogLine } from '../model/types.js';
import { levelOfWord } from './line-level.js';
import { epochNumberToMs, fractionToMs, parseIsoPrefix, parseIsoTime, yearlessToEpoch } from '../text/time.js';
import { unescapeQuoted } from '../text/quoted-string.js';

// klog: `I1122 10:15:04.987596    2519 kubelet.go:2076] message`.
const KLOG_RE = /^([IWEF])(\d{2})(\d{2}) (\d{1,2}):(\d{2}):(\d{2})(?:\.(\d+))?\s+\d+\s+[^\]\s]*\]\s?/;
// logfmt as CRI-O and the installer write it: `time="2026-11-22T10:15:04Z" level=error msg="..."`.
const LOGFMT_TIME_RE = /^time="([^"]+)"/;
const JSON_TS_RE = /"(?:ts|time|timestamp)"\s*:\s*(?:"([^"]+)"|(\d+(?:\.\d+)?))/;
const JSON_MSG_RE = /"msg"\s*:\s*"((?:[^"\\]|\\.)*)"/;
const MONOTONIC_RE = /^\[\s*(\d+\.\d+)\]\s?/;
const LOGFMT_MSG_RE = /\bmsg="((?:[^"\\]|\\.)*)"/;

export interface ParsedLogLine extends LogLine {
  format: LogFormat;
}

/** klog's header: severity letter, year-less time, and where the message starts. */
export interface KlogHeader {
  level: 'I' | 'W' | 'E' | 'F';
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** The fraction of the second as written (`987596`). */
  fraction: string | undefined;
  /** Length of the header, the space after it included. */
  length: number;
}

/** klog's header at the start of a line (`E1122 10:15:20.001122    2519 file.go:96] `), or undefined. */
export function klogHeader(raw: string): KlogHeader | undefined {
  const first = raw.charCodeAt(0);
  if (first !== 73 && first !== 87 && first !== 69 && first !== 70) return undefined;
  const m = KLOG_RE.exec(raw);
  if (!m) return undefined;
  return {
    level: m[1] as KlogHeader['level'],
    month: Number(m[2]),
    day: Number(m[3]),
    hour: Number(m[4]),
    minute: Number(m[5]),
    second: Number(m[6]),
    fraction: m[7],
    length: m[0].length,
  };
}

/** logfmt's leading `time="..."` field: its value and where the rest of the line starts. */
export function logfmtTimeField(raw: string): { value: string; end: number } | undefined {
  if (raw.charCodeAt(0) !== 116 /* t */) return undefined;
  const m = LOGFMT_TIME_RE.exec(raw);
  return m ? { value: m[1], end: m[0].length } : undefined;
}

/**
 * Parses one log line. `referenceTime` gives klog's year-less timestamps a year.
 * Lines without a recognised time are `plain` and keep their text as is.
 */
export function parseLogLine(raw: string, lineNo: number, referenceTime: number | undefined): ParsedLogLine {
  const first = raw.charCodeAt(0);
  const klog = klogHeader(raw);
  if (klog) {
    const time = yearlessToEpoch(klog.month, klog.day, klog.hour, klog.minute, klog.second, fractionToMs(klog.fraction), referenceTime);
    return { line: lineNo, time, text: raw.slice(klog.length), raw, format: 'klog', level: levelOfWord(klog.level) };
  }
  if (first === 123 /* { */) {
    const ts = JSON_TS_RE.exec(raw);
    if (ts) {
      // A number is seconds, milliseconds or nanoseconds by its size (zap writes seconds, others
      // milliseconds); one no unit makes a date is no time.
      const time = ts[1] !== undefined ? parseIsoTime(ts[1]) : epochNumberToMs(Number(ts[2]));
      const msg = JSON_MSG_RE.exec(raw);
      const level = levelOfWord(/"level"\s*:\s*"(\w+)"/.exec(raw)?.[1]);
      const out: ParsedLogLine = { line: lineNo, text: msg ? unescapeQuoted(msg[1]) : raw, raw, format: 'json' };
      if (time !== undefined) out.time = time;
      if (level) out.level = level;
      return out;
    }
  }
  const logfmtTime = logfmtTimeField(raw);
  if (logfmtTime) {
    const msg = LOGFMT_MSG_RE.exec(raw);
    const level = levelOfWord(/\blevel=(\w+)/.exec(raw)?.[1]);
    const out: ParsedLogLine = { line: lineNo, text: msg ? unescapeQuoted(msg[1]) : raw, raw, format: 'logfmt' };
    const time = parseIsoTime(logfmtTime.value);
    if (time !== undefined) out.time = time;
    if (level) out.level = level;
    return out;
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
