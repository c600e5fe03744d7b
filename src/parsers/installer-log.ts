// Reads the installer's own `.openshift_install.log` (logrus logfmt) line by line and collects what it says about the install: version, release image, waits, failures, operator conditions, completion.
import type { EpochMs, InstallerLog, LogLine, OperatorConditionReport } from '../model/types.js';
import { detach } from '../text/lines.js';
import { parseIsoTime } from '../text/time.js';

/** One logfmt line, split into its well-known parts. */
export interface LogfmtRecord {
  time?: EpochMs;
  level?: string;
  /** The `msg` value, unquoted; the whole line when it had no logfmt pairs. */
  msg: string;
  /**
   * Every `key=value` pair as written (values unquoted), `time`/`level`/`msg` included.
   * A prototype-less object: keys such as `__proto__` are plain entries.
   */
  fields: Record<string, string>;
}

export type InstallerLogFacts = Pick<
  InstallerLog,
  'version' | 'releaseImage' | 'waits' | 'failures' | 'operatorConditions' | 'bootstrapComplete' | 'installComplete'
>;

export interface InstallerLogScanner {
  /** Parses one line (1-based `line`), records its facts and returns it as a LogLine. */
  scan(raw: string, line: number): LogLine;
  /** The facts gathered so far. */
  facts(): InstallerLogFacts;
}

// Caps for pathological logs (a loop printing errors for hours); real logs stay far below.
const MAX_WAITS = 500;
const MAX_FAILURES = 1000;
const MAX_CONDITIONS = 2000;

const KEY_RE = /^[A-Za-z_][\w.\-/]*$/;
// The console form users paste instead of the file: `INFO Waiting up to ...`, `DEBUG ...`,
// or logrus' TTY form `INFO[0000] ...`.
const CONSOLE_RE = /^(TRACE|DEBUG|INFO|WARN|WARNING|ERROR|FATAL|PANIC)(?:\[\d+\])?\s+([\s\S]*)$/;

const SIMPLE_ESCAPES: Record<string, string> = Object.assign(Object.create(null) as Record<string, string>, {
  a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\', '"': '"', "'": "'",
});

/**
 * Reads a Go-quoted string (`strconv.Quote`, as logrus writes values) starting at the opening
 * quote `raw[start]`. Returns the unquoted text and the index after the closing quote; an
 * unterminated string runs to the end of the line.
 */
function readQuoted(raw: string, start: number): { value: string; end: number } {
  let out = '';
  let i = start + 1;
  while (i < raw.length) {
    const c = raw[i];
    if (c === '"') return { value: out, end: i + 1 };
    if (c !== '\\' || i + 1 >= raw.length) {
      out += c;
      i++;
      continue;
    }
    const e = raw[i + 1];
    const simple = SIMPLE_ESCAPES[e];
    if (simple !== undefined) {
      out += simple;
      i += 2;
      continue;
    }
    const hexLen = e === 'x' ? 2 : e === 'u' ? 4 : e === 'U' ? 8 : 0;
    if (hexLen > 0 && i + 2 + hexLen <= raw.length && /^[0-9a-fA-F]+$/.test(raw.slice(i + 2, i + 2 + hexLen))) {
      const code = parseInt(raw.slice(i + 2, i + 2 + hexLen), 16);
      // `\xNN` above 0x7f is one byte of invalid UTF-8: it has no character of its own.
      out += e === 'x' && code > 0x7f ? '\ufffd' : code <= 0x10ffff ? String.fromCodePoint(code) : '\ufffd';
      i += 2 + hexLen;
      continue;
    }
    if (/^[0-7]{3}$/.test(raw.slice(i + 1, i + 4))) {
      const code = parseInt(raw.slice(i + 1, i + 4), 8);
      out += code > 0x7f ? '\ufffd' : String.fromCharCode(code);
      i += 4;
      continue;
    }
    // An unknown escape is kept as written.
    out += c + e;
    i += 2;
  }
  return { value: out, end: raw.length };
}

/**
 * Parses one logfmt line as logrus writes it: `time="2026-11-22T10:15:04Z" level=info
 * msg="Waiting up to 20m0s ..."`. Quoted values are Go strings (`\"`, `\n`, `\u00e9`); the
 * time may carry an offset (older releases wrote local time). Words outside any pair (a `msg`
 * written unquoted, as some CI tools re-print it) are joined to the value before them. Lines
 * in the console form (`INFO Waiting ...`) give level and message; other lines are all message.
 */
export function parseLogfmtLine(raw: string): LogfmtRecord {
  const fields = Object.create(null) as Record<string, string>;
  const firstEq = raw.indexOf('=');
  const firstSpace = raw.search(/\s/);
  const startsWithPair =
    firstEq > 0 && (firstSpace < 0 || firstEq < firstSpace) && KEY_RE.test(raw.slice(0, firstEq));
  if (!startsWithPair) {
    const pasted = CONSOLE_RE.exec(raw);
    if (pasted) {
      const level = pasted[1].toLowerCase();
      return { level: level === 'warn' ? 'warning' : level, msg: pasted[2].trimEnd(), fields };
    }
    return { msg: raw, fields };
  }
  let i = 0;
  let lastKey: string | undefined;
  let lastQuoted = true;
  while (i < raw.length) {
    while (i < raw.length && (raw[i] === ' ' || raw[i] === '\t')) i++;
    if (i >= raw.length) break;
    let tokenEnd = i;
    while (tokenEnd < raw.length && raw[tokenEnd] !== ' ' && raw[tokenEnd] !== '\t' && raw[tokenEnd] !== '=') tokenEnd++;
    const key = raw.slice(i, tokenEnd);
    if (raw[tokenEnd] === '=' && KEY_RE.test(key)) {
      if (raw[tokenEnd + 1] === '"') {
        const q = readQuoted(raw, tokenEnd + 1);
        fields[key] = q.value;
        i = q.end;
        lastQuoted = true;
      } else {
        let end = tokenEnd + 1;
        while (end < raw.length && raw[end] !== ' ' && raw[end] !== '\t') end++;
        fields[key] = raw.slice(tokenEnd + 1, end);
        i = end;
        lastQuoted = false;
      }
      lastKey = key;
      continue;
    }
    // A stray word: part of the unquoted value before it.
    let end = tokenEnd;
    while (end < raw.length && raw[end] !== ' ' && raw[end] !== '\t') end++;
    if (lastKey !== undefined && !lastQuoted) fields[lastKey] += ' ' + raw.slice(i, end);
    i = end;
  }
  const record: LogfmtRecord = { msg: fields.msg ?? raw, fields };
  const time = parseIsoTime(fields.time);
  if (time !== undefined) record.time = time;
  if (fields.level !== undefined && fields.level !== '') record.level = fields.level.toLowerCase();
  return record;
}

// logComplete (cmd/openshift-install/create.go, later command/waitfor.go) prints the
// kubeadmin password: `Login to the console with user: "kubeadmin", and password: "..."`;
// older releases wrote `user: kubeadmin, password: ...` and `'oc login -u kubeadmin -p ...'`.
// It is never kept.
const PASSWORD_RE = /(password:\s*)(\\?"[^"\\\s]*\\?"|[^\s"\\,]+)/gi;
const OC_LOGIN_RE = /(oc login -u \S+ -p\s+)([^\s'"\\]+)/g;

function redact(raw: string): string {
  if (!raw.includes('assword') && !raw.includes(' -p ')) return raw;
  return raw.replace(PASSWORD_RE, '$1<redacted>').replace(OC_LOGIN_RE, '$1<redacted>');
}

// pkg/version, logged at the start of every run: `OpenShift Installer 4.14.0`; early 4.x
// releases wrote `v4.3.0`. Kept as written.
const VERSION_RE = /^OpenShift Installer (\S+)/;
// pkg/asset/releaseimage/pullspec.go: `Found override for release image (<pullspec>). Please
// be warned, this is not advised` (older releases left the pullspec out);
// pkg/version: `Found override for release image (<pullspec>). Release Image Architecture is unknown`.
const OVERRIDE_IMAGE_RE = /^Found override for release image \(([^)\s]+)\)/;
// pkg/asset/releaseimage/pullspec.go: `Using internal constant for release image <pullspec>`.
const CONSTANT_IMAGE_RE = /^Using internal constant for release image (\S+)/;
// Any other wording that names a pullspec after "release image" (`openshift-install version`
// output pasted into the log, agent and later releases). A pullspec has a registry path.
const ANY_IMAGE_RE = /\brelease image:?\s+\(?([\w.-]+(?::\d+)?\/[^\s()"',]+)/i;

// cmd/openshift-install/create.go and command/waitfor.go:
// `Waiting up to 20m0s (until 10:35AM UTC) for the Kubernetes API at https://...:6443...`,
// `Waiting up to 40m0s for bootstrapping to complete...` (older releases print no `until`),
// `Waiting up to 30m0s (until ...) to ensure each cluster operator has finished progressing...`.
const WAIT_RE = /Waiting up to (\S+?)(?: \(until [^)]*\))? (?:for|to) (.+?)(?:\.\.\.)?\s*$/;

// cmd/openshift-install/gather.go logClusterOperatorConditions:
// `Cluster operator <name> <Condition> is <Status> with <Reason>: <Message>`; the reason may be
// empty (`with : `) or hold `::` (`APIServerDeployment_UnavailablePod::OAuthServerDeployment_...`,
// operators join several reasons so), so it ends at the first `: `. Other tools print the same
// sentence without `with <Reason>`.
const OPERATOR_RE = /^Cluster operator (\S+) (\S+) is (\S+?)(?: with (\S*?|[^:]*?))?(?:: ([\s\S]*)|:)?$/;

// Lines that report a timeout or a failed wait, whatever their level:
// create.go: `Bootstrap failed to complete: <err>` (fatal), `failed to wait for bootstrapping
// to complete` (wrapped error), `failed waiting for Kubernetes API` (newer) and `waiting for
// Kubernetes API: context deadline exceeded` (older), `failed to initialize the cluster: ...`;
// client-go: `timed out waiting for the condition`; Go's context: `context deadline exceeded`.
const FAILURE_RE =
  /Bootstrap failed to complete|failed to wait for bootstrapping to complete|context deadline exceeded|failed waiting for Kubernetes API|waiting for Kubernetes API: |timed out waiting for the condition|failed to initialize the cluster/i;
const FAILURE_LEVELS = new Set(['error', 'fatal', 'panic']);

// create.go waitForBootstrapConfigMap logs `Bootstrap status: complete` (debug); wait-for
// bootstrap-complete then says `It is now safe to remove the bootstrap resources`; create
// cluster destroys the bootstrap host only after bootstrap completed.
const BOOTSTRAP_COMPLETE_RE =
  /^Bootstrap status: complete\b|It is now safe to remove the bootstrap resources|^Destroying the bootstrap resources/;
// create.go / command/waitfor.go logComplete.
const INSTALL_COMPLETE_RE = /^Install complete!/;

function keepLine(entry: LogLine): LogLine {
  const kept: LogLine = { ...entry, text: detach(entry.text) };
  if (entry.raw !== undefined) kept.raw = detach(entry.raw);
  return kept;
}

/**
 * A streaming scanner for `.openshift_install.log`. Feed every line to `scan`; `facts()` then
 * holds the installer version, the release image, every `Waiting up to` wait, the failure
 * lines (timeouts, failed waits, `level=error`/`fatal`), every cluster operator condition the
 * installer printed, and whether bootstrap and install completed. A log holds several runs
 * (`create cluster`, `wait-for ...`, `gather`); facts accumulate over all of them, version and
 * release image are the last ones logged. The kubeadmin password is redacted.
 */
export function createInstallerLogScanner(): InstallerLogScanner {
  let version: string | undefined;
  let releaseImage: string | undefined;
  // 3: override, 2: internal constant, 1: any other mention.
  let imageRank = 0;
  const waits: InstallerLogFacts['waits'] = [];
  const failures: LogLine[] = [];
  const operatorConditions: OperatorConditionReport[] = [];
  let bootstrapComplete = false;
  let installComplete = false;

  const setImage = (image: string, rank: number): void => {
    if (rank < imageRank) return;
    releaseImage = detach(image);
    imageRank = rank;
  };

  return {
    scan(rawLine: string, line: number): LogLine {
      const raw = redact(rawLine);
      const rec = parseLogfmtLine(raw);
      const msg = rec.msg;
      const entry: LogLine = { line, text: msg };
      if (rec.time !== undefined) entry.time = rec.time;
      if (raw !== msg) entry.raw = raw;
      if (rec.level !== undefined) entry.level = rec.level;

      const v = VERSION_RE.exec(msg);
      if (v) version = detach(v[1]);
      if (msg.includes('elease image')) {
        const o = OVERRIDE_IMAGE_RE.exec(msg);
        const c = o ? null : CONSTANT_IMAGE_RE.exec(msg);
        const a = o || c ? null : ANY_IMAGE_RE.exec(msg);
        if (o) setImage(o[1], 3);
        else if (c) setImage(c[1], 2);
        else if (a) setImage(a[1], 1);
      }
      const w = msg.includes('Waiting up to') ? WAIT_RE.exec(msg) : null;
      if (w && waits.length < MAX_WAITS) {
        const wait: InstallerLogFacts['waits'][number] = { what: detach(w[2]), timeout: detach(w[1]), line };
        if (entry.time !== undefined) wait.time = entry.time;
        waits.push(wait);
      }
      const op = msg.startsWith('Cluster operator ') ? OPERATOR_RE.exec(msg) : null;
      if (op && operatorConditions.length < MAX_CONDITIONS) {
        const report: OperatorConditionReport = {
          operator: detach(op[1]),
          condition: detach(op[2]),
          status: detach(op[3]),
          message: detach((op[5] ?? '').trim()),
          line,
        };
        const reason = op[4]?.trim();
        if (reason) report.reason = detach(reason);
        if (entry.time !== undefined) report.time = entry.time;
        operatorConditions.push(report);
      }
      if (BOOTSTRAP_COMPLETE_RE.test(msg)) bootstrapComplete = true;
      if (INSTALL_COMPLETE_RE.test(msg)) installComplete = true;
      const failed = (rec.level !== undefined && FAILURE_LEVELS.has(rec.level)) || FAILURE_RE.test(msg);
      if (failed && failures.length < MAX_FAILURES) failures.push(keepLine(entry));
      return entry;
    },
    facts(): InstallerLogFacts {
      const facts: InstallerLogFacts = {
        waits,
        failures,
        operatorConditions,
        bootstrapComplete,
        installComplete,
      };
      if (version !== undefined) facts.version = version;
      if (releaseImage !== undefined) facts.releaseImage = releaseImage;
      return facts;
    },
  };
}
