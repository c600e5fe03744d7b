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

/** No OpenShift 4 bundle predates 2018 (4.1 shipped in 2019): an earlier date is a broken clock. */
const OPENSHIFT_4_ERA = Date.UTC(2018, 0, 1);

/** How far from the bulk of the bundle's dates one may lie and still count (a damaged record may say 9999). */
const OUTLIER_MS = 30 * 24 * 3600 * 1000;

/**
 * The latest time the bundle states with its year, if any; dates a month or more away from the
 * median of them all are outliers (a damaged or hostile record), not the bundle's clock.
 */
export function fullDatedReference(bundle: Bundle): EpochMs | undefined {
  const times: EpochMs[] = [];
  const see = (t: EpochMs | undefined): void => {
    if (t !== undefined && Number.isFinite(t) && t >= OPENSHIFT_4_ERA) times.push(t);
  };
  for (const h of bundleHosts(bundle)) {
    for (const record of Object.values(h.serviceRecords)) {
      for (const run of record.runs) {
        see(run.start);
        see(run.end);
        for (const st of run.stages) {
          see(st.start);
          see(st.end);
        }
      }
    }
  }
  for (const log of bundleLogs(bundle)) {
    if (!YEARLESS.has(log.format)) see(log.lastTime);
  }
  if (times.length === 0) return undefined;
  times.sort((a, b) => a - b);
  // The lower median: with two dates, one damaged, a date from the future does not win.
  const median = times[Math.floor((times.length - 1) / 2)];
  let latest = median;
  for (const t of times) if (Math.abs(t - median) < OUTLIER_MS && t > latest) latest = t;
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
export function moveLog(log: LogSummary, reference: EpochMs): void {
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
