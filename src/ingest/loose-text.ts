// What a text file outside a bundle's layout is, by its content, and which file of a bundle it
// stands for: the installer's output, a unit's journal (`journalctl` text), or a machine's serial
// console. A capture given alone or beside a bundle is read as the bundle's own file of its kind,
// so the same parsers and rules read it wherever it was found.
import { hostLabel, type HostSelector, type SourceId } from '../model/source-id.js';
import { looksLikeInstallerOutput } from '../parsers/installer-log.js';
import { parseJournalLine, parseJournalMarker, isJournalContinuation } from '../parsers/journal-text.js';
import { decodeText, sniffEncoding } from '../parsers/text-input.js';
import { pathOf } from '../specs/layout.js';
import { unitOfIdentifier } from '../specs/source-stage.js';
import { rolesOfUnit } from '../specs/unit-stage.js';

/** What a loose text file is. */
export type LooseText =
  | { kind: 'installer-output' }
  /** `journalctl` text: the unit its lines' identifiers name, on the host they were printed on. */
  | { kind: 'journal'; unit: string; host: HostSelector }
  /** A machine's serial console: the machine, by its login prompt, its words or the file's name. */
  | { kind: 'serial'; console: string };

/** Bytes of a file looked at to tell what it is (the walker, the reader and triage sniff as much). */
export const KIND_SNIFF_BYTES = 16 * 1024;

/**
 * Bytes of a journal looked at to tell its unit: a whole `journalctl -u bootkube` opens with a
 * hundred lines of podman's container events (50 KB) before the first `bootkube.sh` line.
 */
export const UNIT_SNIFF_BYTES = 256 * 1024;

/** Lines looked at to tell what a file is, at most. */
const KIND_LINES = 200;

// Terminal escapes a console capture keeps (systemd paints its status, the spinner moves the cursor).
const CSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b[@-Z\\-_]/g;

// What only a machine's console shows. The kernel's printk time, `[   12.345678] `, starts a
// line, or follows a line the console cut when two writers met (`[    5.8720[    6.141473] ...`).
const KERNEL_TIME = /\[\s*\d+\.\d{6}\] /;
// The early boot's programs as the console shows their lines without the kernel's time
// (`ignition[483]: GET error: ...`, `systemd[1]: Started ...`).
const BOOT_PROGRAM = /^(?:ignition|systemd|systemd-[\w-]+|dracut-[\w-]+|coreos-[\w-]+)\[\d+\]: /;
// systemd's job status on the console (src/core/job.c: `  OK  `, `FAILED`, ` TIME `, `DEPEND`,
// ` INFO `, `ASSERT`, `UNSUPP`) and the spinner of a job still running (`[  *** ] A start job ...`).
const SYSTEMD_STATUS = /^\[(?: {2}OK {2}|FAILED| TIME |DEPEND| INFO |ASSERT|UNSUPP|[ *]{6})\] \S/;
// Ignition's fetch loop (internal/resource/url.go: `GET %s: attempt #%d`, `GET error: %v`,
// `GET result: %s`) as the console shows it without the kernel's time.
const IGNITION_FETCH = /^(?:GET|POST) (?:\S+: attempt #\d+$|error: |result: )/;
// The console's banner and prompt on CoreOS (/etc/issue and issue.d: the OS, the kernel, the SSH
// host keys, Ignition's own lines), and the login prompt.
const CONSOLE_BANNER =
  /^(?:(?:Red Hat Enterprise Linux|Fedora|CentOS Stream) CoreOS \d|Kernel \d\S* on an? \S+|SSH host key: |Ignition: (?:ran on |user-provided config|no config provided|wrote ssh)|\S+ login:\s*$)/;

/** Whether a line (escapes removed) is one only a console shows. */
function isConsoleLine(line: string): boolean {
  return KERNEL_TIME.test(line) || SYSTEMD_STATUS.test(line) || BOOT_PROGRAM.test(line) || IGNITION_FETCH.test(line) || CONSOLE_BANNER.test(line);
}

/** A journal entry's header as `journalctl` writes it: a wall time, a host name and an identifier. */
function journalEntry(line: string): { hostname: string; identifier: string; text: string } | undefined {
  const e = parseJournalLine(line, 0, undefined);
  // A console line (`[ 6.2] ignition[706]: GET ...`) parses with no wall time: it is no entry.
  if (!e || e.time === undefined || e.identifier === undefined || !e.hostname || /[:[\]]/.test(e.hostname)) return undefined;
  return { hostname: e.hostname, identifier: e.identifier, text: e.text };
}

/** The unit systemd's own line is about (`bootkube.service: Main process exited, ...`). */
const SYSTEMD_ABOUT = /^(?:[\w.@-]+: )?([\w@.-]+)\.service\b/;

/** The most counted key (the first counted on a tie). */
function top(counts: Map<string, number>): string | undefined {
  let best: string | undefined;
  let most = 0;
  for (const [key, n] of counts) {
    if (n > most) {
      best = key;
      most = n;
    }
  }
  return best;
}

function count(counts: Map<string, number>, key: string): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

/** A name fit for one path segment. */
function segment(name: string): string {
  return name.replace(/[^\w.@-]+/g, '-').replace(/^[.-]+|-+$/g, '') || 'unknown';
}

const BOOTSTRAP_HOST = /bootstrap/i;
const MASTER_HOST = /master|control-plane|controlplane/i;

/**
 * The host a journal was printed on: the one role that runs its unit, else the role its host
 * name says, else the bootstrap host (the one the installer's troubleshooting has people run
 * `journalctl -u release-image -u bootkube` on).
 */
function journalHost(unit: string, hostname: string | undefined): HostSelector {
  const roles = rolesOfUnit(unit);
  const master = (): HostSelector => ({ role: 'master', address: segment(hostname ?? 'master') });
  if (roles.length === 1) return roles[0] === 'master' ? master() : { role: 'bootstrap' };
  if (hostname && BOOTSTRAP_HOST.test(hostname)) return { role: 'bootstrap' };
  if (hostname && MASTER_HOST.test(hostname)) return master();
  return { role: 'bootstrap' };
}

/** The unit a journal identifier names: a bootstrap script's or daemon's, or a unit's own name (a script's without `.sh`). */
function unitNamed(identifier: string): string | undefined {
  const script = identifier.replace(/\.sh$/, '');
  return unitOfIdentifier(identifier) ?? [identifier, script].find((name) => rolesOfUnit(name).length > 0);
}

/** Programs a unit runs that name no unit of their own (podman logs the containers a script starts). */
const HELPERS = new Set(['podman', 'conmon', 'crun', 'runc', 'bash', 'sh', 'sudo', 'env', 'kernel', 'audit']);

/**
 * The unit a journal's entries are of: the one their identifiers name most, else the one
 * systemd's own lines are about, else the commonest identifier (a script's without `.sh`) that
 * is no helper program.
 */
function journalUnit(entries: Iterable<{ identifier: string; text: string }>): string {
  const units = new Map<string, number>();
  const mentioned = new Map<string, number>();
  const identifiers = new Map<string, number>();
  for (const e of entries) {
    if (e.identifier === 'systemd') {
      const about = SYSTEMD_ABOUT.exec(e.text);
      if (about) count(mentioned, about[1]);
      continue;
    }
    const unit = unitNamed(e.identifier);
    if (unit) count(units, unit);
    else if (!HELPERS.has(e.identifier)) count(identifiers, e.identifier.replace(/\.sh$/, ''));
  }
  return segment(top(units) ?? top(mentioned) ?? top(identifiers) ?? 'journal');
}

/** The lines of a text, the last one dropped when the sniff's byte limit may have cut it. */
function wholeLines(text: string, cut: boolean, max?: number): string[] {
  const lines = text.split('\n', max === undefined ? undefined : max + 1);
  if (cut || (max !== undefined && lines.length > max)) lines.pop();
  return lines;
}

/** The journal entries of all of a head's lines (for the unit: the first lines may all be podman's). */
function* journalEntries(head: Buffer): Iterable<{ hostname: string; identifier: string; text: string }> {
  for (const l of wholeLines(head.toString('utf8'), head.length >= UNIT_SNIFF_BYTES)) {
    const entry = journalEntry(l.replace(/\r$/, ''));
    if (entry) yield entry;
  }
}

// A console whose words say whose it is: Ignition fetching a pool's config from the
// machine-config server is a master's or a worker's; the bootstrap host's shows its services.
type ConsoleRole = 'bootstrap' | 'master' | 'worker';
const CONSOLE_ROLE: [RegExp, ConsoleRole][] = [
  [/\/config\/master\b/, 'master'],
  [/\/config\/worker\b/, 'worker'],
  [/bootkube|release-image|bootstrap\.ign\b|Bootstrap a Kubernetes cluster|Download the OpenShift Release Image/, 'bootstrap'],
];
/** The role a machine's name says. */
const NAMED_ROLE: [RegExp, ConsoleRole][] = [
  [/bootstrap/i, 'bootstrap'],
  [/master|control-?plane/i, 'master'],
  [/worker|compute/i, 'worker'],
];
const LOGIN_PROMPT = /^(\S+) login:/;
// A capture's file name without its extensions and the words that say it is a console.
const CAPTURE_SUFFIX = /[-_.]?(?:serial(?:[-_.]?console)?|console)(?:[-_.]?log)?$/i;

/** The machine a console is of: named by its login prompt or its file, unless its words show another role. */
function consoleName(lines: readonly string[], fileName: string): string {
  let shown: ConsoleRole | undefined;
  let login: string | undefined;
  for (const l of lines) {
    shown ??= CONSOLE_ROLE.find(([re]) => re.test(l))?.[1];
    const prompt = LOGIN_PROMPT.exec(l)?.[1];
    if (prompt && prompt !== 'localhost') login ??= prompt;
  }
  const name = login ?? fileName.replace(/(?:\.(?:log|txt|out))+$/i, '').replace(CAPTURE_SUFFIX, '');
  const named = NAMED_ROLE.find(([re]) => re.test(name))?.[1];
  if (!shown || named === shown) return segment(name || 'console');
  // The words win over a name that says another role; a neutral name keeps its own after the role.
  return named || name === '' ? shown : segment(`${shown}-${name}`);
}

/** The lines of a file's first bytes: terminal escapes removed, carriage returns as line ends, a cut last line dropped. */
function sniffLines(text: string, cut: boolean): string[] {
  return wholeLines(text, cut, KIND_LINES)
    .flatMap((l) => l.replace(CSI, '').split('\r'))
    .filter((l) => l.trim() !== '');
}

/**
 * What a file is, by its first bytes (`head`): the installer's output (any of its forms), a
 * unit's journal (most lines `journalctl` entries), a serial console (most lines only a console
 * shows), or nothing bootlens reads. The kind is told from the first `KIND_SNIFF_BYTES`, so the
 * walker, the reader and triage agree on it; a journal's unit from all of `head`. `fileName`
 * names a console whose lines do not.
 */
export function classifyLooseText(first: Buffer, fileName: string): LooseText | undefined {
  // UTF-16 (as PowerShell saves a capture) is read as the UTF-8 the reader makes of it.
  const head = sniffEncoding(first) === 'utf-8' ? first : Buffer.from(decodeText(first), 'utf8');
  const text = head.toString('utf8', 0, Math.min(head.length, KIND_SNIFF_BYTES));
  if (looksLikeInstallerOutput(text)) return { kind: 'installer-output' };
  const lines = sniffLines(text, head.length >= KIND_SNIFF_BYTES);
  let journal = 0;
  let console = 0;
  let counted = 0;
  for (const l of lines) {
    // What journalctl prints between entries and an entry's further lines are neither form.
    if (parseJournalMarker(l) || isJournalContinuation(l)) continue;
    counted++;
    if (journalEntry(l)) journal++;
    else if (isConsoleLine(l)) console++;
  }
  if (journal > console && journal * 2 >= counted) {
    const entries = [...journalEntries(head)];
    const hostnames = new Map<string, number>();
    for (const e of entries) count(hostnames, e.hostname);
    const unit = journalUnit(entries);
    return { kind: 'journal', unit, host: journalHost(unit, top(hostnames)) };
  }
  if (console > 0 && console * 2 >= counted) return { kind: 'serial', console: consoleName(lines, fileName) };
  return undefined;
}

/** The log a loose journal or console is, as the bundle's own file of its kind would be. */
export function looseTextSource(t: Exclude<LooseText, { kind: 'installer-output' }>): SourceId {
  return t.kind === 'journal' ? { kind: 'journal', host: t.host, unit: t.unit } : { kind: 'serial', console: t.console };
}

/** Where a bundle holds the file a loose journal or console stands for (below `log-bundle-<ID>/`). */
export function looseTextPath(t: Exclude<LooseText, { kind: 'installer-output' }>): string {
  return pathOf(looseTextSource(t));
}

/** What a loose text was read as, for people: `the bootkube journal of the bootstrap host`. */
export function describeLooseText(t: LooseText): string {
  if (t.kind === 'installer-output') return "the installer's output";
  if (t.kind === 'serial') return `${t.console === 'console' ? 'a serial console' : `the serial console of ${t.console}`} (${looseTextPath(t)})`;
  const host = t.host.role === 'bootstrap' ? 'the bootstrap host' : `master ${hostLabel(t.host)}`;
  return `the ${t.unit} journal of ${host} (${looseTextPath(t)})`;
}
