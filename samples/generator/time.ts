// Time stamps in the formats the bundle's producers print. Times are integer microseconds
// since the epoch, always UTC (the hosts run in UTC), never read from the clock.

export type Micros = number;

export const SECOND = 1_000_000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

function parts(t: Micros): Date {
  return new Date(Math.floor(t / 1000));
}

/** Parses `2024-03-05T10:12:00Z` to microseconds. */
export function parseIso(iso: string): Micros {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw new Error(`bad time ${iso}`);
  return ms * 1000;
}

function hms(d: Date): string {
  return `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

function ymd(d: Date): string {
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

function fraction(t: Micros, digits: 3 | 6 | 9, nanoTail = 0): string {
  const us = ((t % SECOND) + SECOND) % SECOND;
  const full = pad(us, 6) + pad(nanoTail % 1000, 3);
  return full.slice(0, digits);
}

/** `Nov 22 10:15:04`, journalctl --output=short. */
export function journalShort(t: Micros): string {
  const d = parts(t);
  return `${MONTHS[d.getUTCMonth()]} ${pad(d.getUTCDate())} ${hms(d)}`;
}

/** `Sun 2026-11-22 10:15:04 UTC`, as systemctl status and journal headers print. */
export function systemdLong(t: Micros): string {
  const d = parts(t);
  return `${DAYS[d.getUTCDay()]} ${ymd(d)} ${hms(d)} UTC`;
}

/** klog header time: `1122 10:15:04.987596`. */
export function klogTime(t: Micros): string {
  const d = parts(t);
  return `${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())} ${hms(d)}.${fraction(t, 6)}`;
}

/** `2026-11-22T10:15:04Z` (service records, Kubernetes objects). */
export function isoSeconds(t: Micros): string {
  const d = parts(t);
  return `${ymd(d)}T${hms(d)}Z`;
}

/** `2026-11-22T10:15:04.123456Z` (etcd's `ts`, with 6 digits). */
export function isoMicros(t: Micros): string {
  const d = parts(t);
  return `${ymd(d)}T${hms(d)}.${fraction(t, 6)}Z`;
}

/** `2026-11-22T10:15:04.123Z`. */
export function isoMillis(t: Micros): string {
  const d = parts(t);
  return `${ymd(d)}T${hms(d)}.${fraction(t, 3)}Z`;
}

/** `2026-11-22T10:15:04.123456789Z`. */
export function isoNanos(t: Micros, nanoTail: number): string {
  const d = parts(t);
  return `${ymd(d)}T${hms(d)}.${fraction(t, 9, nanoTail)}Z`;
}

/** `2026-11-22 10:15:04.123456789Z` (CRI-O's logrus format on RHEL 9 hosts). */
export function spacedNanos(t: Micros, nanoTail: number): string {
  const d = parts(t);
  return `${ymd(d)} ${hms(d)}.${fraction(t, 9, nanoTail)}Z`;
}

/** `2026-11-22 10:15:04.123456789 +0000 UTC` (Go's time.Time String, podman events). */
export function goTime(t: Micros, nanoTail: number): string {
  const d = parts(t);
  return `${ymd(d)} ${hms(d)}.${fraction(t, 9, nanoTail)} +0000 UTC`;
}

/** The gather id: `20261122101500`. */
export function gatherId(t: Micros): string {
  const d = parts(t);
  return `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`;
}

/** Seconds since the epoch (tar mtime). */
export function epochSeconds(t: Micros): number {
  return Math.floor(t / SECOND);
}

/** ASN.1 UTCTime `YYMMDDHHMMSSZ`. */
export function asn1UtcTime(t: Micros): string {
  const d = parts(t);
  return `${pad(d.getUTCFullYear() % 100)}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}Z`;
}

/** `5m0s`, `1h0m0s`, `20m0s`: Go's time.Duration for whole seconds. */
export function goDuration(us: Micros): string {
  let s = Math.round(us / SECOND);
  const h = Math.floor(s / 3600);
  s -= h * 3600;
  const m = Math.floor(s / 60);
  s -= m * 60;
  if (h > 0) return `${h}h${m}m${s}s`;
  if (m > 0) return `${m}m${s}s`;
  return `${s}s`;
}

/** `2min 1s`, `1h 1min 4.123s` as systemd prints spans. */
export function systemdSpan(us: Micros): string {
  const totalMs = Math.round(us / 1000);
  const h = Math.floor(totalMs / 3_600_000);
  const m = Math.floor((totalMs % 3_600_000) / 60_000);
  const s = (totalMs % 60_000) / 1000;
  const out: string[] = [];
  if (h) out.push(`${h}h`);
  if (m) out.push(`${m}min`);
  if (s || out.length === 0) out.push(`${Number.isInteger(s) ? s : s.toFixed(3).replace(/0+$/, '')}s`);
  return out.join(' ');
}

/** Go's time.Duration String for a measured span: `1.470254314s`, `212.480912ms`. */
export function goSpan(us: Micros, nanoTail: number): string {
  if (us >= SECOND) return `${Math.floor(us / SECOND)}.${String(us % SECOND).padStart(6, '0')}${String(nanoTail % 1000).padStart(3, '0')}s`;
  return `${Math.floor(us / 1000)}.${String(us % 1000).padStart(3, '0')}${String(nanoTail % 1000).padStart(3, '0')}ms`;
}
