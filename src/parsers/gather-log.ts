// Reads `gather.log`, the output of installer-gather.sh (and of the masters' gather it runs over ssh), and collects which masters it tried and what went wrong.
import type { EpochMs, GatherLog, LogLine } from '../model/types.js';
import { detach } from '../text/lines.js';
import { parseLogLine } from './log-line.js';
import { isErrorLevel, levelOfWord } from './line-level.js';
import { parseLogfmtLine } from './installer-log.js';

export type GatherLogFacts = Pick<GatherLog, 'mastersAttempted' | 'noMasters' | 'errors'>;

export interface GatherLogScanner {
  /** Parses one line (1-based `line`), records its facts and returns it as a LogLine. */
  scan(raw: string, line: number): LogLine;
  /** The facts gathered so far. */
  facts(): GatherLogFacts;
}

export interface GatherLogOptions {
  /** Gives year-less klog timestamps (from `oc` and `crictl`) their year. */
  referenceTime?: EpochMs;
}

const MAX_ERRORS = 1000;
const MAX_MASTERS = 100;

// installer-gather.sh: `echo "Collecting info from ${master}"` before it scp/ssh-es to a master,
// and `echo "No masters found!"` when neither arguments nor resources/masters.list named one.
const COLLECTING_RE = /^Collecting info from (\S+)/;
const NO_MASTERS_RE = /^No masters found!?\s*$/;

// What reaches gather.log on stderr: the script runs `exec &> >(tee gather.log)`, so ssh, scp,
// sudo and shell errors land here, and so do `oc` errors (only oc's stdout goes to resources/).
// OpenSSH client and scp: the hop to the masters.
const SSH_ERROR_RES: readonly RegExp[] = [
  /^ssh: connect to host \S+ port \d+: /,
  /^ssh: Could not resolve hostname /,
  /Permission denied \(/,
  /^Permission denied, please try again/,
  /^Host key verification failed/,
  /^(?:kex|ssh)_exchange_identification: /,
  /^Connection (?:closed|reset|timed out)\b/,
  /^Connection to \S+ closed by remote host/,
  /^Received disconnect from /,
  /^client_loop: /,
  /^Load key /,
  /^lost connection$/,
  /^scp: /,
];

/** An ssh or scp failure: the gather could not reach or copy from a master. */
export function isSshError(text: string): boolean {
  return SSH_ERROR_RES.some((re) => re.test(text));
}

const ERROR_RES: readonly RegExp[] = [
  ...SSH_ERROR_RES,
  // sudo, the shell and coreutils run by the script.
  /^sudo: /,
  /^(?:bash|sh|tar|cp|mkdir|find|xargs|rm|gzip|mapfile|journalctl|crictl|podman): /,
  /: (?:command not found|No such file or directory|Permission denied|Read-only file system|No space left on device)$/,
  // oc and kubectl.
  /^The connection to the server \S+ was refused/,
  /^Unable to connect to the server/,
  /^Error from server\b/,
  /^(?:error|Error|ERROR|fatal|FATAL)\b:?/,
  // logrus' TTY form as crictl/podman print it.
  /^(?:ERRO|FATA)\[/,
];
// Notices, not failures: every gather prints the first (the script pipes an empty `find` into
// `xargs rm` when the rendered assets hold no kubeconfig or key to delete); tar prints the
// second when given absolute paths.
const BENIGN_RE = /^rm: missing operand$|^tar: Removing leading /;

function isErrorLine(entry: LogLine): boolean {
  if (isErrorLevel(entry.level)) return true;
  const text = entry.text;
  return !BENIGN_RE.test(text) && ERROR_RES.some((re) => re.test(text));
}

/** Parses one gather.log line; lines the installer re-logged (`level=debug msg=...`) give their message. */
function toLogLine(raw: string, line: number, referenceTime: EpochMs | undefined): LogLine {
  if (raw.startsWith('level=') || raw.startsWith('time="')) {
    const rec = parseLogfmtLine(raw);
    const entry: LogLine = { line, text: rec.msg.trim(), raw };
    if (rec.time !== undefined) entry.time = rec.time;
    // The installer re-logs every gather line at debug: that level says nothing about the line.
    const level = levelOfWord(rec.level);
    if (level !== undefined && level !== 'debug') entry.level = level;
    return entry;
  }
  const parsedLine = parseLogLine(raw, line, referenceTime);
  const entry: LogLine = { line, text: parsedLine.text };
  if (parsedLine.raw !== undefined && parsedLine.raw !== parsedLine.text) entry.raw = parsedLine.raw;
  if (parsedLine.time !== undefined) entry.time = parsedLine.time;
  if (parsedLine.level !== undefined) entry.level = parsedLine.level;
  return entry;
}

/**
 * A streaming scanner for `gather.log`. Feed every line to `scan`; `facts()` then holds the
 * masters the script tried (`Collecting info from <addr>`, in order, once each), whether it
 * found none (`No masters found!`), and the error lines: ssh/scp failures (`ssh: connect to
 * host ... Connection timed out`, `Permission denied (publickey)`, `scp: ...: No such file or
 * directory`), sudo and shell errors, and the errors `oc` printed when the API did not answer.
 */
export function createGatherLogScanner(options: GatherLogOptions = {}): GatherLogScanner {
  const mastersAttempted: string[] = [];
  const seen = new Set<string>();
  let noMasters = false;
  const errors: LogLine[] = [];

  return {
    scan(raw: string, line: number): LogLine {
      const entry = toLogLine(raw, line, options.referenceTime);
      const text = entry.text;
      const m = COLLECTING_RE.exec(text);
      if (m) {
        // The script passes addresses as given; `[fd00::5]` and `fd00::5` are one master.
        const address = m[1].replace(/^\[(.*)\]$/, '$1');
        if (!seen.has(address) && mastersAttempted.length < MAX_MASTERS) {
          seen.add(address);
          mastersAttempted.push(detach(address));
        }
      } else if (NO_MASTERS_RE.test(text)) {
        noMasters = true;
      } else if (errors.length < MAX_ERRORS && isErrorLine(entry)) {
        const kept: LogLine = { ...entry, text: detach(text) };
        if (entry.raw !== undefined) kept.raw = detach(entry.raw);
        errors.push(kept);
      }
      return entry;
    },
    facts(): GatherLogFacts {
      return { mastersAttempted, noMasters, errors };
    },
  };
}
