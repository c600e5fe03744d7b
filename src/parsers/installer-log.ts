// Reads the installer's own `.openshift_install.log` (logrus logfmt) line by line and collects what it says about the install: version, release image, waits, failures, operator conditions, completion.
import type { EpochMs, InstallerLine, InstallerLog, InstallerPhase, LogLine, OperatorConditionReport } from '../model/types.js';
import { REDACTED } from '../redact/redact.js';
import { detach } from '../text/lines.js';
import { readQuoted } from '../text/quoted-string.js';
import { parseIsoTime } from '../text/time.js';
import { isErrorLevel, levelOfWord } from './line-level.js';

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
  /** A console line that carries on the message above it: an empty or indented message. */
  continues?: true;
}

export type InstallerLogFacts = Pick<
  InstallerLog,
  'version' | 'releaseImage' | 'waits' | 'failures' | 'stillWaiting' | 'apiUp' | 'analysis' | 'operatorConditions' | 'bootstrapComplete' | 'installComplete'
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
const MAX_STILL_WAITING = 200;
const MAX_ANALYSIS = 200;

const KEY_RE = /^[A-Za-z_][\w.\-/]*$/;
// The console form users paste instead of the file. The installer's console hook (cmd/openshift-
// install: logrus' TextFormatter, DisableTimestamp, DisableLevelTruncation, the message split at
// each newline) prints the level, one space and the message: `INFO Waiting up to ...`; an empty
// message leaves the level alone on its line (`ERROR` between a terraform error and its body),
// a message's indented lines keep their indent (`ERROR   with ironic_node_v1...`). Tools that
// keep logrus' TTY form print `INFO[0000] ...` or, with full timestamps, `INFO[2024-05-06T11:55:11Z] ...`.
const CONSOLE_RE = /^(TRACE|DEBUG|INFO|WARN|WARNING|ERROR|FATAL|PANIC)(?:\[([^\]\s]+)\])?(?:[ \t]([\s\S]*))?$/;

// Terraform's diagnostics, which the installer relays line by line from terraform's stderr at
// error level (pkg/terraform: a LinePrinter over logrus.Error), as people post them without the
// level: the header `Error: <summary>` (`Warning: ...`), boxed in `│ ` since terraform 0.15, and
// terraform 0.11's `Error: Error applying plan:` over `* <resource>: <message>` items.
const TERRAFORM_HEADER = /^(?:│ )?(Error|Warning): \S/;
// The body of a diagnostic: where it is (`  with <address>,`, `  on <file> line <n>, in ...:`),
// the quoted source line (`  13: resource ...`), the box's corners, 0.11's list of errors.
const TERRAFORM_BODY = /^(?:│ {1,3}|  )(?:with \S+,|on \S+ line \d+\b.*:)$|^(?:│ {1,3}|  ) *\d+: |^[╷╵│]\s*$|^\d+ errors? occurred:$|^\t?\* \S+: \S/;

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
      const message = pasted[3] ?? '';
      const record: LogfmtRecord = { level: level === 'warn' ? 'warning' : level, msg: message.trim(), fields };
      const time = parseIsoTime(pasted[2]);
      if (time !== undefined) record.time = time;
      // An empty or indented message is a later line of the message above (or of the
      // terraform error the installer relays), never a message of its own.
      if (message.trim() === '' || /^\s/.test(message)) record.continues = true;
      return record;
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
  return raw.replace(PASSWORD_RE, `$1${REDACTED}`).replace(OC_LOGIN_RE, `$1${REDACTED}`);
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
// The tail is taken whole and trimmed in code: a lazy tail before `\s*$` is quadratic in spaces.
const WAIT_RE = /Waiting up to (\S+?)(?: \(until [^)]*\))? (?:for|to) ([^]+)$/;

/** What a wait is for, without its trailing `...` and spaces. */
function waitWhat(tail: string): string {
  return tail.trimEnd().replace(/\.\.\.$/, '').trimEnd();
}

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

// create.go waitForBootstrapConfigMap logs `Bootstrap status: complete` (debug); wait-for
// bootstrap-complete then says `It is now safe to remove the bootstrap resources`; create
// cluster destroys the bootstrap host only after bootstrap completed.
const BOOTSTRAP_COMPLETE_RE =
  /^Bootstrap status: complete\b|It is now safe to remove the bootstrap resources|^Destroying the bootstrap resources/;
// create.go / command/waitfor.go logComplete.
const INSTALL_COMPLETE_RE = /^Install complete!/;

// What people paste around the output: shell prompts, Ansible task headers and result braces.
const PASTED_FRAMING = /^\s*(?:(?:\[[^\]]*\])?[$#] |TASK \[|PLAY |ok: |changed: |fatal: |[{}[\]],?\s*$|"[\w.]+": \[\s*$)/;

// CI collectors put their own RFC 3339 stamp before each line the installer printed:
// `2023-05-02T10:11:12.123Z level=info msg="..."` or `2023-05-02T10:11:12Z INFO ...`.
const COLLECTOR_STAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})\s+/;
// Ansible prints `stdout_lines` as JSON strings: `    "time=\"...\" level=info msg=\"...\"",`.
const JSON_STRING_LINE = /^\s*("(?:[^"\\]|\\.)*")\s*(?:,\s*)?$/;

/**
 * The installer's line inside the wrappers people and CI put around it: an Ansible
 * `stdout_lines` JSON string, a collector's RFC 3339 stamp. Returns the line and the stamp's time.
 */
export function unwrapInstallerLine(raw: string): { line: string; stamp?: EpochMs } {
  let line = raw;
  const json = JSON_STRING_LINE.exec(line);
  if (json) {
    try {
      const inner: unknown = JSON.parse(json[1]);
      if (typeof inner === 'string') line = inner;
    } catch {
      // Not a JSON string after all: the line as written.
    }
  }
  const stamp = COLLECTOR_STAMP.exec(line);
  if (!stamp) return { line };
  const rest = line.slice(stamp[0].length);
  // Only a stamp before the installer's own forms; `time=...` lines carry their own time.
  if (!/^(?:level=|time=|(?:TRACE|DEBUG|INFO|WARN|WARNING|ERROR|FATAL|PANIC)\b)/.test(rest)) return { line };
  const out: { line: string; stamp?: EpochMs } = { line: rest };
  const time = parseIsoTime(stamp[0].trim());
  if (time !== undefined) out.stamp = time;
  return out;
}

// Words only the installer's own messages use (create/wait-for/gather/destroy commands).
const INSTALLER_WORDS =
  /OpenShift Installer|openshift-install|Waiting up to \S+ (?:\(until [^)]*\) )?(?:for|to)|Kubernetes API|bootstrap(?:ping)?|Cluster operator \S+ \S+ is|Install complete!|Consuming .* from target directory|Creating infrastructure resources|Credentials loaded from|failed to (?:initialize the cluster|fetch|create cluster)|install-config|Time elapsed/;
// logrus' text form leaves `msg=` out when the message is empty (`level=error` alone).
const LOGFMT_LINE = /^(?:time="[^"]*" )?level=\w+(?: msg=|\s*$)/;
const CONSOLE_LINE = /^(?:TRACE|DEBUG|INFO|WARN|WARNING|ERROR|FATAL|PANIC)(?:\[[^\]\s]+\])?(?:[ \t]|$)/;

/**
 * Whether text (the first lines of a file) is the installer's output in any form: the log file,
 * the console on a terminal or in CI (with or without a collector's stamps, as Ansible
 * `stdout_lines`), a `wait-for` transcript. Decided by content, never by file name: installer-
 * formed lines, and either the installer's own words or mostly such lines.
 */
export function looksLikeInstallerOutput(text: string): boolean {
  let formed = 0;
  let nonEmpty = 0;
  let words = false;
  // Terraform's diagnostics posted without the installer's level: their headers and body lines.
  let terraformHeaders = 0;
  let terraformFormed = 0;
  const lines = text.split('\n', 200);
  // The last piece may be cut mid-line by the sniff's byte limit.
  if (lines.length > 1) lines.pop();
  for (const raw of lines) {
    const l = raw.replace(/\r$/, '');
    if (l.trim() === '') continue;
    nonEmpty++;
    const { line } = unwrapInstallerLine(l);
    if (LOGFMT_LINE.test(line) || CONSOLE_LINE.test(line)) {
      formed++;
      if (INSTALLER_WORDS.test(line)) words = true;
    } else if (TERRAFORM_HEADER.test(line)) {
      terraformHeaders++;
      terraformFormed++;
    } else if (TERRAFORM_BODY.test(line)) {
      terraformFormed++;
    }
  }
  if (formed > 0) return words || formed * 2 >= nonEmpty;
  return terraformHeaders > 0 && terraformFormed * 2 >= nonEmpty;
}

/** The level of a terraform diagnostic's header posted without the installer's (it relays them at error level). */
function terraformLevel(msg: string): 'error' | 'warning' | undefined {
  const m = TERRAFORM_HEADER.exec(msg);
  return m ? (m[1] === 'Error' ? 'error' : 'warning') : undefined;
}

function keepLine(entry: LogLine, phase: InstallerPhase): InstallerLine {
  const kept: InstallerLine = { ...entry, text: detach(entry.text), phase };
  if (entry.raw !== undefined) kept.raw = detach(entry.raw);
  return kept;
}

/** The phase a `Waiting up to ...` wait (its `what`) belongs to. */
function waitPhase(what: string): InstallerPhase {
  if (/Kubernetes API/i.test(what)) return 'kubernetes-api';
  if (/bootstrap/i.test(what)) return 'bootstrap';
  return 'cluster';
}

// create.go: `API v1.27.6+f67aeb3 up` once the bootstrap API answers.
const API_UP_RE = /^API \S+ up$/;
// Why a wait still waits: `Still waiting for the Kubernetes API: Get "https://...": dial tcp ...`
// (create.go waitForBootstrapConfigMap / waitForKubernetesAPI); older wording: `Still waiting for
// the cluster to initialize: ...`.
const STILL_WAITING_RE = /^Still waiting for (?:the )?(.+?): \S/;
// pkg/gather/service/analyze.go: the installer's own reading of the bundle it gathered.
const ANALYSIS_RE = /^The bootstrap machine |^The bootkube service failed at stage|^Invalid log bundle or the bootstrap machine could not be reached/;
// Gathering starts after a failed wait: `Use the following commands to gather logs`, `Pulling debug logs from the bootstrap machine`.
const GATHER_RE = /^(?:Use the following commands to gather logs|Pulling debug logs from the bootstrap machine|Gathering bootstrap|Bootstrap gather logs captured here)/;

// create.go: `Bootstrap failed to complete: <the wait's error>`, then the wait's own message.
const BOOTSTRAP_FAILED_WHY_RE = /^Bootstrap failed to complete: \S/;
const WAIT_FAILED_RE = /^Failed (?:waiting for|to wait for) /;

/** The phase a failure's own words name, else the phase the installer was in. */
function failurePhase(msg: string, current: InstallerPhase): InstallerPhase {
  if (/Kubernetes API/i.test(msg)) return 'kubernetes-api';
  if (/bootstrap(?:ping)? (?:to complete|failed)|Bootstrap failed/i.test(msg)) return current === 'kubernetes-api' ? 'kubernetes-api' : 'bootstrap';
  if (/initialize the cluster|cluster operator|Some cluster operators/i.test(msg)) return 'cluster';
  return current;
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
  const failures: InstallerLine[] = [];
  const stillWaiting: InstallerLine[] = [];
  const analysis: InstallerLine[] = [];
  let apiUp: InstallerLine | undefined;
  const operatorConditions: OperatorConditionReport[] = [];
  let bootstrapComplete = false;
  let installComplete = false;
  let phase: InstallerPhase = 'infrastructure';
  // The last line that had a level: a line without one continues its message (the console
  // prints a multi-line message, an operator's condition, as it is).
  let open: { entry: LogLine; kept: InstallerLine[]; condition?: OperatorConditionReport } | undefined;
  // The analysis quotes the recorded error lines at info level right after its verdict.
  let inAnalysis = false;

  const setImage = (image: string, rank: number): void => {
    if (rank < imageRank) return;
    releaseImage = detach(image);
    imageRank = rank;
  };

  return {
    scan(rawLine: string, line: number): LogLine {
      const unwrapped = unwrapInstallerLine(rawLine);
      const raw = redact(unwrapped.line);
      const rec = parseLogfmtLine(raw);
      const msg = rec.msg;
      const entry: LogLine = { line, text: msg };
      const time = rec.time ?? unwrapped.stamp;
      if (time !== undefined) entry.time = time;
      if (rawLine !== msg) entry.raw = rawLine === unwrapped.line ? raw : redact(rawLine);
      const bare = rec.level === undefined && rec.time === undefined;
      // A terraform diagnostic posted without the installer's level has the level it was relayed at.
      const stated = bare ? terraformLevel(msg) : rec.level;
      const level = rec.continues ? undefined : levelOfWord(stated);
      if (level !== undefined) entry.level = level;

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
      if ((bare && stated === undefined) || rec.continues) {
        // A continuation of the message above (or a prompt, a heading a person pasted).
        if (open && msg.trim() !== '' && !PASTED_FRAMING.test(msg)) {
          const more = detach(msg.trim());
          for (const k of open.kept) k.text = `${k.text}\n${more}`;
          if (open.condition) open.condition.message = open.condition.message ? `${open.condition.message}\n${more}` : more;
        }
        return entry;
      }
      open = { entry, kept: [] };
      const w = msg.includes('Waiting up to') ? WAIT_RE.exec(msg) : null;
      if (w) {
        const what = waitWhat(w[2]);
        phase = waitPhase(what);
        if (waits.length < MAX_WAITS) {
          const wait: InstallerLogFacts['waits'][number] = { what: detach(what), timeout: detach(w[1]), line, phase };
          if (entry.time !== undefined) wait.time = entry.time;
          waits.push(wait);
        }
      }
      if (API_UP_RE.test(msg)) apiUp = keepLine(entry, 'kubernetes-api');
      if (GATHER_RE.test(msg)) inAnalysis = false;
      const still = msg.startsWith('Still waiting for') ? STILL_WAITING_RE.exec(msg) : null;
      if (still && stillWaiting.length < MAX_STILL_WAITING) {
        const kept = keepLine(entry, waitPhase(still[1]));
        stillWaiting.push(kept);
        open.kept.push(kept);
      }
      if (ANALYSIS_RE.test(msg)) inAnalysis = true;
      if (inAnalysis && analysis.length < MAX_ANALYSIS && msg.trim() !== '') {
        const kept = keepLine(entry, 'gather');
        analysis.push(kept);
        open.kept.push(kept);
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
        open.condition = report;
      }
      if (BOOTSTRAP_COMPLETE_RE.test(msg)) bootstrapComplete = true;
      if (INSTALL_COMPLETE_RE.test(msg)) installComplete = true;
      const failed = isErrorLevel(entry.level) || FAILURE_RE.test(msg);
      if (failed && failures.length < MAX_FAILURES) {
        const kept = keepLine(entry, failurePhase(msg, phase));
        // create.go prints a failed bootstrap as two lines: `Bootstrap failed to complete: <why>`,
        // then the error naming the wait that failed; the first belongs to the wait the second names.
        const before = failures[failures.length - 1];
        if (before && before.line === line - 1 && WAIT_FAILED_RE.test(msg) && BOOTSTRAP_FAILED_WHY_RE.test(before.text)) before.phase = kept.phase;
        failures.push(kept);
        open.kept.push(kept);
      }
      return entry;
    },
    facts(): InstallerLogFacts {
      const facts: InstallerLogFacts = {
        waits,
        failures,
        stillWaiting,
        analysis,
        operatorConditions,
        bootstrapComplete,
        installComplete,
      };
      if (version !== undefined) facts.version = version;
      if (releaseImage !== undefined) facts.releaseImage = releaseImage;
      if (apiUp !== undefined) facts.apiUp = apiUp;
      return facts;
    },
  };
}
