// Reads `systemctl list-units --state=failed` (failed-units.txt) and `systemctl status --full` output.
import type { FailedUnit, JournalLine, SourceRef, UnitOutcome, UnitStatus } from '../model/types.js';
import { parseJournalLine } from './journal-text.js';
import { parsed, type Parsed, type ParseProblem } from './parsed.js';
import { clip, splitLines } from './text-input.js';

/** The lines of a command's output, without the empty one after its last newline. */
function outputLines(text: string): string[] {
  const lines = splitLines(text);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function firstNonBlank(lines: string[]): { text: string; line: number } | undefined {
  const i = lines.findIndex((l) => l.trim() !== '');
  return i < 0 ? undefined : { text: clip(lines[i].trim()), line: i + 1 };
}

const LIST_HEADER_RE = /^\s*UNIT\s+LOAD\s+ACTIVE\s+SUB\s+DESCRIPTION\b/;
// `*` under LANG=POSIX (what the gather script sets), `●` in UTF-8 locales.
const FAILED_MARK_RE = /^\s*[*●×]\s+/;
// `[^]*` rather than `.*` before `$`: a `\r` (CRLF files) would make `.*` retry every split.
const LIST_ROW_RE = /^(\S+)\s+(\S+)\s+(\S+)\s+(\S+)(?:\s+([^]*))?$/;
const LEGEND_RE = /^\s*(?:Legend:|(?:LOAD|ACTIVE|SUB|JOB)\s+(?:=|->|→))/;
const COUNT_RE = /^\s*\d+ loaded units? listed\b/;

/**
 * Parses `systemctl list-units --state=failed` output: the `UNIT LOAD ACTIVE SUB DESCRIPTION`
 * table (rows marked `*` under POSIX, `●` otherwise), its legend and `N loaded units listed.`
 * Text that is no such table (an error message) gives no units and a problem.
 */
export function parseFailedUnits(text: string, source: SourceRef): Parsed<FailedUnit[]> {
  const lines = outputLines(text);
  const first = firstNonBlank(lines);
  if (!first) return parsed([], [{ kind: 'empty', message: 'failed-units output is empty' }]);
  const units: FailedUnit[] = [];
  const problems: ParseProblem[] = [];
  const headerIndex = lines.findIndex((l) => LIST_HEADER_RE.test(l));
  let recognised = headerIndex >= 0 || lines.some((l) => COUNT_RE.test(l));
  // With a header, rows run to the first blank or legend line; without one (--no-legend),
  // only marked lines are rows.
  const from = headerIndex >= 0 ? headerIndex + 1 : 0;
  for (let i = from; i < lines.length; i++) {
    const raw = lines[i];
    const marked = FAILED_MARK_RE.test(raw);
    if (headerIndex >= 0) {
      if (raw.trim() === '' || LEGEND_RE.test(raw) || COUNT_RE.test(raw)) break;
    } else if (!marked) continue;
    const m = LIST_ROW_RE.exec(raw.replace(FAILED_MARK_RE, '').trim());
    if (!m) {
      problems.push({ kind: 'unparseable', message: `not a unit row: ${clip(raw.trim())}`, line: i + 1 });
      continue;
    }
    const unit: FailedUnit = { unit: m[1], load: m[2], active: m[3], sub: m[4], source: { file: source.file, line: i + 1 } };
    if (m[5] !== undefined && m[5].trim() !== '') unit.description = m[5].trim();
    units.push(unit);
    recognised = true;
  }
  if (!recognised) {
    return parsed([], [{ kind: 'unparseable', message: `not systemctl list-units output: ${first.text}`, line: first.line }]);
  }
  return parsed(units, problems);
}

// `× bootkube.service - Bootstrap ...`; `●`, `○`, `↻` in UTF-8, `*`, `x`, `o` under POSIX.
const STATUS_TITLE_RE = /^[●×○↻*xo]\s+(\S+)(?:\s+-\s+([^]*))?$/;
const STATUS_FIELD_RE = /^\s*([A-Z][A-Za-z -]*?):\s([^]*)$/;
const SINCE_RE = /\bsince\s+(?:\S+\s+)?(\d{4})-(\d{2})-(\d{2})\s+(\d{2}):(\d{2}):(\d{2})(?:\s+([A-Za-z]+|[+-]\d{2}:?\d{2}))?/;

/** Epoch ms of `since Sun 2026-11-22 11:16:02 UTC`; undefined for a named zone other than UTC. */
function parseSince(active: string): number | undefined {
  const m = SINCE_RE.exec(active);
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number);
  let time = Date.UTC(y, mo - 1, d, h, mi, s);
  const zone = m[7];
  if (zone === undefined || /^(UTC|GMT|Z)$/i.test(zone)) return time;
  if (/^[+-]/.test(zone)) {
    const digits = zone.slice(1).replace(':', '');
    const offset = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4));
    time -= (zone.startsWith('-') ? -1 : 1) * offset * 60_000;
    return time;
  }
  // A local zone abbreviation (CET, EST, ...) cannot be resolved reliably.
  return undefined;
}

/** `status=1/FAILURE` (or `status=9/KILL`) from a `Main PID:` / `Process:` value. */
function exitStatusOf(value: string): string | undefined {
  return /\bstatus=([^,)\s]+)/.exec(value)?.[1];
}

/**
 * Parses `systemctl status --full <unit>` output: the title line, `Loaded:`, `Active:`,
 * `Process:` and `Main PID:`, then (after a blank line) the journal lines it prints, read with
 * the shared journal line parser. `referenceTime` gives their year-less timestamps a year.
 */
export function parseUnitStatus(text: string, source: SourceRef, unit: string, referenceTime?: number): Parsed<UnitStatus> {
  const status: UnitStatus = { unit, source, journal: [] };
  const lines = outputLines(text);
  const first = firstNonBlank(lines);
  if (!first) return parsed(status, [{ kind: 'empty', message: 'unit status output is empty' }]);

  const titleIndex = lines.findIndex((l) => STATUS_TITLE_RE.test(l));
  if (titleIndex < 0) {
    return parsed(status, [{ kind: 'unparseable', message: `not systemctl status output: ${first.text}`, line: first.line }]);
  }
  const title = STATUS_TITLE_RE.exec(lines[titleIndex]);
  if (title?.[2]) status.description = title[2].trim();

  let i = titleIndex + 1;
  let lastProcessStatus: string | undefined;
  for (; i < lines.length && lines[i].trim() !== ''; i++) {
    const m = STATUS_FIELD_RE.exec(lines[i]);
    if (!m) continue; // CGroup tree lines, wrapped Docs: lines
    const [, key, value] = m;
    switch (key) {
      case 'Loaded':
        status.loaded = value.trim();
        break;
      case 'Active': {
        status.active = value.trim();
        const state = /^(\S+)/.exec(status.active)?.[1];
        if (state) status.activeState = state;
        const result = /\(Result: ([^)]+)\)/.exec(status.active)?.[1];
        if (result) status.result = result;
        const since = parseSince(status.active);
        if (since !== undefined) status.since = since;
        break;
      }
      case 'Main PID': {
        const pid = /^(\d+)/.exec(value.trim())?.[1];
        if (pid) status.mainPid = Number(pid);
        const exit = exitStatusOf(value);
        if (exit) status.exitStatus = exit;
        break;
      }
      case 'Process': {
        const exit = exitStatusOf(value);
        if (exit) lastProcessStatus = exit;
        break;
      }
      default:
        break;
    }
  }
  // A unit that failed in ExecStartPre has no main process: its status is on a Process: line.
  if (status.exitStatus === undefined && lastProcessStatus !== undefined) status.exitStatus = lastProcessStatus;

  let previous: JournalLine | undefined;
  for (; i < lines.length; i++) {
    const raw = lines[i];
    if (raw.trim() === '') continue;
    const entry = parseJournalLine(raw, i + 1, referenceTime);
    if (entry) {
      status.journal.push(entry);
      previous = entry;
    } else if (previous && /^\s/.test(raw)) {
      // Multi-line messages: journalctl indents the following lines under the entry.
      (previous.continuation ??= []).push(raw.trim());
    }
    // Anything else is a systemctl hint (`Hint: Some lines were ellipsized`), not journal.
  }
  return parsed(status);
}

/**
 * What systemd said last about a unit, from its own journal lines (`Started ...`, `Main process
 * exited, code=exited, status=1/FAILURE`, `Failed with result 'exit-code'`, `Finished ...`,
 * `Deactivated successfully`): the last start, finish or failure wins.
 */
export function unitOutcome(systemdLines: readonly JournalLine[]): UnitOutcome | undefined {
  for (let i = systemdLines.length - 1; i >= 0; i--) {
    const l = systemdLines[i];
    if (/Failed with result|Main process exited, code=(?:exited|killed|dumped), status=(?!0\/)|Failed to start /.test(l.text)) return { status: 'failed', line: l };
    if (/^Finished |Deactivated successfully|Succeeded\.$/.test(l.text)) return { status: 'ok', line: l };
    if (/^Started /.test(l.text)) return { status: 'running', line: l };
  }
  return undefined;
}
