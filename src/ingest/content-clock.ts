// The bundle's own clock when it has no gather id: journals and klog lines carry no year, so the
// reader gives them a provisional one while it streams; afterwards the dates the bundle writes
// in full (service records, the installer's log, JSON and logfmt logs) say which year it was,
// and every year-less time is moved to it. A file's modification time or today's date never
// decides the year of a bundle that says it.
import { bundleHosts, bundleLogs } from '../model/walk.js';
import type { Bundle, EpochMs, LogLine, LogSummary } from '../model/types.js';
import { inferYear } from '../text/time.js';

/** Formats whose times carry no year (`Nov 22 10:15:04`, `I1122 10:15:04.1`). */
const YEARLESS = new Set(['journal', 'klog']);

/** The latest time the bundle states with its year, if any. */
export function fullDatedReference(bundle: Bundle): EpochMs | undefined {
  let latest: EpochMs | undefined;
  const see = (t: EpochMs | undefined): void => {
    if (t !== undefined && Number.isFinite(t) && (latest === undefined || t > latest)) latest = t;
  };
  for (const h of bundleHosts(bundle)) {
    for (const record of Object.values(h.serviceRecords)) {
      for (const run of record.runs) {
        see(run.start);
        see(run.end);
      }
    }
  }
  for (const log of bundleLogs(bundle)) {
    if (!YEARLESS.has(log.format)) see(log.lastTime);
  }
  return latest;
}

/** The same month, day and time of day in the year `reference` gives them. */
function moved(t: EpochMs, reference: EpochMs): EpochMs {
  const d = new Date(t);
  const year = inferYear(d.getUTCMonth() + 1, d.getUTCDate(), reference);
  return Date.UTC(year, d.getUTCMonth(), d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds());
}

function moveLine(l: LogLine, reference: EpochMs): void {
  if (l.time !== undefined) l.time = moved(l.time, reference);
}

/** Moves one year-less log's times into the reference's year (idempotent: a line moved twice stays). */
function moveLog(log: LogSummary, reference: EpochMs): void {
  for (const l of log.head) moveLine(l, reference);
  for (const l of log.tail) moveLine(l, reference);
  for (const m of log.matched) moveLine(m.entry, reference);
  const extra = log as Partial<{ systemdLines: LogLine[]; outcome: { line: LogLine }; errors: LogLine[] }>;
  for (const l of extra.systemdLines ?? []) moveLine(l, reference);
  if (extra.outcome) moveLine(extra.outcome.line, reference);
  for (const l of extra.errors ?? []) moveLine(l, reference);
  if (log.firstTime !== undefined) log.firstTime = moved(log.firstTime, reference);
  if (log.lastTime !== undefined) log.lastTime = moved(log.lastTime, reference);
}

/**
 * Gives year-less times the year of the bundle's own full dates, when it has some; returns the
 * reference used, or undefined when the bundle states no year anywhere.
 */
export function settleYearlessTimes(bundle: Bundle): EpochMs | undefined {
  const reference = fullDatedReference(bundle);
  if (reference === undefined) return undefined;
  for (const log of bundleLogs(bundle)) if (YEARLESS.has(log.format)) moveLog(log, reference);
  bundle.meta.referenceTime = reference;
  return reference;
}
