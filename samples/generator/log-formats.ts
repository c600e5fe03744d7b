// Line formats of the programs whose output fills the journals and container logs: klog
// headers (kubelet, operators), logrus logfmt (CRI-O, installer), etcd's JSON, podman events.
import { goTime, isoMicros, isoNanos, klogTime, spacedNanos, type Micros } from './time.js';

export type Severity = 'I' | 'W' | 'E' | 'F';

/** `I1122 10:15:04.987596    2519 kubelet.go:2076] msg`. */
export function klog(t: Micros, sev: Severity, pid: number, caller: string, msg: string): string {
  return `${sev}${klogTime(t)} ${String(pid).padStart(7)} ${caller}] ${msg}`;
}

/** Quotes a logfmt value when it needs it, with Go's escaping. */
export function quote(v: string): string {
  return JSON.stringify(v);
}

/** CRI-O's `time="..." level=info msg="..." k=v`. */
export function crioLine(t: Micros, iso: boolean, nanoTail: number, level: string, msg: string, fields: [string, string][] = []): string {
  const time = iso ? isoNanos(t, nanoTail) : spacedNanos(t, nanoTail);
  const rest = fields.map(([k, v]) => ` ${k}=${/[\s"=]/.test(v) ? quote(v) : v}`).join('');
  return `time="${time}" level=${level} msg=${quote(msg)}${rest}`;
}

/** etcd 3.5's zap JSON line. */
export function etcdJson(t: Micros, level: 'debug' | 'info' | 'warn' | 'error' | 'fatal', caller: string, msg: string, fields: Record<string, unknown> = {}): string {
  return JSON.stringify({ level, ts: isoMicros(t), caller, msg, ...fields });
}

/** podman's own journal line: `2024-03-05 10:12:01.123456789 +0000 UTC m=+1.119158273 container create ...`. */
export function podmanEvent(t: Micros, nanoTail: number, uptime: number, what: string): string {
  return `${goTime(t, nanoTail)} m=+${uptime.toFixed(9)} ${what}`;
}
