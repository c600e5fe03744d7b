// Timestamps as logs write them: journalctl's year-less `short` form in any locale, ISO 8601,
// klog's `MMDD hh:mm:ss`, and the gather id. All results are epoch milliseconds, UTC.

const DAY_MS = 86_400_000;

/**
 * Abbreviated month names as glibc's `%b` prints them in the locales support engineers meet.
 * Keys are lower-case with a trailing dot removed; several locales share most keys.
 */
const MONTHS: Record<string, number> = Object.assign(Object.create(null) as Record<string, number>, {
  // English
  jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12,
  // German
  'mär': 3, mrz: 3, mai: 5, okt: 10, dez: 12,
  // French
  janv: 1, 'févr': 2, fevr: 2, mars: 3, avr: 4, juin: 6, juil: 7, 'août': 8, aout: 8, sept: 9, 'déc': 12,
  // Spanish, Italian, Portuguese
  ene: 1, abr: 4, ago: 8, set: 9, dic: 12, gen: 1, mag: 5, giu: 6, lug: 7, ott: 10, fev: 2, out: 10,
  // Dutch
  mrt: 3, mei: 5,
  // Russian (nominative and genitive abbreviations)
  'янв': 1, 'фев': 2, 'мар': 3, 'апр': 4, 'мая': 5, 'май': 5, 'июн': 6, 'июл': 7, 'авг': 8,
  'сен': 9, 'окт': 10, 'ноя': 11, 'дек': 12,
  // Polish
  sty: 1, lut: 2, kwi: 4, maj: 5, cze: 6, lip: 7, sie: 8, wrz: 9, 'paź': 10, paz: 10, lis: 11, gru: 12,
});

/**
 * Month number (1-12) of a month token in any supported locale: `Nov`, `Okt`, `déc.`,
 * `11月` (Chinese, Japanese), `11월` (Korean). Undefined when not a month.
 */
export function monthFromToken(token: string): number | undefined {
  const last = token.charCodeAt(token.length - 1);
  // 月 (U+6708) and 월 (U+C6D4): numeric months of CJK locales.
  if (last === 0x6708 || last === 0xc6d4) {
    const n = Number(token.slice(0, -1));
    return n >= 1 && n <= 12 ? n : undefined;
  }
  let key = token.toLowerCase();
  if (key.endsWith('.')) key = key.slice(0, -1);
  return MONTHS[key];
}

/**
 * Chooses the year for a year-less timestamp so it is not after the reference time (the
 * gather time): a journal read in January may hold December lines of the year before.
 */
export function inferYear(month: number, day: number, referenceTime: number | undefined): number {
  const ref = referenceTime ?? Date.now();
  const year = utcYear(ref);
  const candidate = Date.UTC(year, month - 1, day);
  // Two days of slack: hosts' clocks and the gather id's clock disagree a little.
  return candidate > ref + 2 * DAY_MS ? year - 1 : year;
}

/** The UTC year of the last reference time asked about: a log's lines all share one. */
let yearOf = { time: NaN, year: 0 };

function utcYear(time: number): number {
  if (time !== yearOf.time) yearOf = { time, year: new Date(time).getUTCFullYear() };
  return yearOf.year;
}

/** Epoch ms of a year-less `<month> <day> hh:mm:ss[.frac]`, with the year inferred. */
export function yearlessToEpoch(
  month: number,
  day: number,
  hh: number,
  mm: number,
  ss: number,
  fracMs: number,
  referenceTime: number | undefined,
): number {
  const year = inferYear(month, day, referenceTime);
  return Date.UTC(year, month - 1, day, hh, mm, ss, fracMs);
}

/** Milliseconds from a fraction string of any precision (`987596` → 987). */
export function fractionToMs(frac: string | undefined): number {
  if (!frac) return 0;
  return Math.floor(Number((frac + '000').slice(0, 3)));
}

const ISO_RE =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:[.,](\d+))?\s*(Z|UTC|[+-]\d{2}:?\d{2})?/;

/**
 * Parses an ISO 8601 / RFC 3339 timestamp at the start of `text` (`2026-11-22T10:15:04Z`,
 * `2026-11-22T10:15:04.123456+0000`, `2026-11-22 10:15:04 UTC`). A missing zone means UTC.
 * Returns the time and how many characters were consumed.
 */
export function parseIsoPrefix(text: string): { time: number; length: number } | undefined {
  const m = ISO_RE.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  let time = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), fractionToMs(frac));
  if (!isValidEpochMs(time)) return undefined;
  if (zone && zone !== 'Z' && zone !== 'UTC') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    const offsetMin = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4));
    time -= sign * offsetMin * 60_000;
  }
  return { time, length: m[0].length };
}

/** Parses a whole ISO timestamp string; undefined for unset values (`0001-01-01...`). */
export function parseIsoTime(text: string | undefined): number | undefined {
  if (!text) return undefined;
  const parsedIso = parseIsoPrefix(text);
  if (!parsedIso || parsedIso.time <= 0 || !isValidEpochMs(parsedIso.time)) return undefined;
  return parsedIso.time;
}

const GATHER_ID_TIME = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/;

/** The time a timestamp-like gather id names, even out of range (NaN when it names no date). */
function gatherIdDate(gatherId: string): number | undefined {
  const m = GATHER_ID_TIME.exec(gatherId);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s] = m.map(Number);
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60) return undefined;
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0-99 as 1900-1999.
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  if (date.getUTCDate() !== d) return undefined; // 20240231: no such day
  date.setUTCHours(h, mi, s, 0);
  return date.getTime();
}

/**
 * Reference time from a gather id (`20261122101500` → 2026-11-22T10:15:00Z), its year read as
 * the four digits it is. The installer uses a timestamp; other ids, and dates the model cannot
 * hold (before 1970), give undefined (`gatherIdProblem` says why).
 */
export function gatherIdTime(gatherId: string): number | undefined {
  const time = gatherIdDate(gatherId);
  return time !== undefined && isValidEpochMs(time) ? time : undefined;
}

/** Why a gather id that is a timestamp gives no time (a date before 1970), or undefined. */
export function gatherIdProblem(gatherId: string): string | undefined {
  const time = gatherIdDate(gatherId);
  if (time === undefined || isValidEpochMs(time)) return undefined;
  return `gather id ${gatherId} names a date before 1970 (or after 9999): not used as the time the bundle was gathered`;
}

/** The latest time the model holds: renderers format every time as a date, and later ones are damage. */
export const MAX_EPOCH_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** A time the model can hold: a finite epoch millisecond from 1970 to the year 9999. */
export function isValidEpochMs(ms: number): boolean {
  return Number.isFinite(ms) && ms >= 0 && ms <= MAX_EPOCH_MS;
}

/**
 * A numeric epoch time in whatever unit it was written, to milliseconds, by magnitude: below
 * 1e11 seconds (up to the year 5138), below 1e14 milliseconds, below 1e17 microseconds, below
 * 1e20 nanoseconds (Go's UnixNano). Undefined for anything else: negative, not finite, or past
 * the year 9999 in every unit — a damaged field, never a date to format.
 */
export function epochNumberToMs(value: number): number | undefined {
  if (!Number.isFinite(value) || value < 0) return undefined;
  const abs = value;
  const ms = abs < 1e11 ? abs * 1000 : abs < 1e14 ? abs : abs < 1e17 ? abs / 1000 : abs < 1e20 ? abs / 1e6 : NaN;
  // Rounded: 1795342504.25 s is 1795342504249.9998 ms in floating point.
  const out = Math.round(ms);
  return isValidEpochMs(out) ? out : undefined;
}
