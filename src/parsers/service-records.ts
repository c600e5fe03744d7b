// Reads `bootstrap/services/<service>.json`, the JSON array the bootstrap services append to.
import type {
  ServiceRecord,
  ServiceRecordEntry,
  ServiceRun,
  ServiceStageRun,
  SourceRef,
} from '../model/types.js';
import { parsed, type Parsed, type ParseProblem } from './parsed.js';
import { capProblems, clip, stripBom } from './text-input.js';
import { type JsonObject, isObject } from './json-fields.js';

const TIMESTAMP_RE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})Z$/;

interface ObjectSpan {
  text: string;
  line: number;
}

interface Scan {
  objects: ObjectSpan[];
  /** Line of an object that was still open at the end of the text. */
  unterminatedLine?: number;
}

/**
 * Finds each object that is not nested in another object, with the line of its `{`.
 * Strings are tracked only inside objects, so a stray quote in garbage between objects
 * cannot hide the objects after it.
 */
function scanTopLevelObjects(text: string): Scan {
  const objects: ObjectSpan[] = [];
  let line = 1;
  let depth = 0;
  let inString = false;
  let escaped = false;
  let start = 0;
  let startLine = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) line++;
    if (inString) {
      if (escaped) escaped = false;
      else if (c === 92 /* \ */) escaped = true;
      else if (c === 34 /* " */) inString = false;
      continue;
    }
    if (c === 123 /* { */) {
      if (depth === 0) {
        start = i;
        startLine = line;
      }
      depth++;
    } else if (depth > 0) {
      if (c === 34) inString = true;
      else if (c === 125 /* } */) {
        depth--;
        if (depth === 0) objects.push({ text: text.slice(start, i + 1), line: startLine });
      }
    }
  }
  return depth > 0 ? { objects, unterminatedLine: startLine } : { objects };
}

/** A non-empty own string property; the script omits empty fields, so `""` means unset. */
function field(obj: JsonObject, key: string): string | undefined {
  if (!Object.prototype.hasOwnProperty.call(obj, key)) return undefined;
  const v = obj[key];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** `date +%Y-%m-%dT%H:%M:%SZ` as the script writes it; undefined for anything else. */
export function parseRecordTimestamp(value: string): number | undefined {
  const m = TIMESTAMP_RE.exec(value);
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number);
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60) return undefined;
  return Date.UTC(y, mo - 1, d, h, mi, s);
}

function toEntry(record: JsonObject, source: SourceRef, problems: ParseProblem[]): ServiceRecordEntry | undefined {
  let obj = record;
  let phase = field(obj, 'phase');
  if (phase === undefined) {
    // Only an end entry carries errorLine/errorMessage: a damaged one is still the failure it recorded.
    const failed = field(obj, 'errorMessage') !== undefined || field(obj, 'errorLine') !== undefined;
    problems.push({ kind: 'unparseable', message: `service record entry without a phase${failed ? ': read as the failed end of the service' : ''}`, line: source.line });
    if (!failed) return undefined;
    phase = 'service end';
    if (field(obj, 'result') === undefined) obj = { ...obj, result: 'failure' };
  }
  const entry: ServiceRecordEntry = { source, phase };
  const timestamp = field(obj, 'timestamp');
  if (timestamp !== undefined) {
    const time = parseRecordTimestamp(timestamp);
    if (time === undefined) {
      problems.push({ kind: 'unparseable', message: `unreadable timestamp ${JSON.stringify(timestamp.slice(0, 40))}`, line: source.line });
    } else {
      entry.timestamp = time;
    }
  }
  for (const key of ['result', 'stage', 'preCommand', 'postCommand', 'errorLine', 'errorMessage'] as const) {
    const v = field(obj, key);
    if (v !== undefined) entry[key] = v;
  }
  return entry;
}

/** Groups entries into runs: each `service start` opens one; stage start/end pairs become stages. */
export function buildServiceRuns(entries: ServiceRecordEntry[]): ServiceRun[] {
  const runs: ServiceRun[] = [];
  let current: ServiceRun | undefined;
  // Each run's stages by name, newest last: an end finds its open stage without scanning every
  // stage before it (thousands of ends without starts made this quadratic).
  const byName = new Map<ServiceRun, Map<string, ServiceStageRun[]>>();
  const addStage = (run: ServiceRun, stage: ServiceStageRun): void => {
    run.stages.push(stage);
    let names = byName.get(run);
    if (!names) byName.set(run, (names = new Map()));
    const list = names.get(stage.name);
    if (list) list.push(stage);
    else names.set(stage.name, [stage]);
  };
  // Entries that belong to a run but come before any `service start` (a file whose head was
  // lost) still get one, without a start time.
  const ensureRun = (entry: ServiceRecordEntry): ServiceRun => {
    if (!current) {
      current = { stages: [], source: entry.source };
      runs.push(current);
    }
    return current;
  };
  for (const entry of entries) {
    switch (entry.phase) {
      case 'service start': {
        current = { stages: [], source: entry.source };
        if (entry.timestamp !== undefined) current.start = entry.timestamp;
        runs.push(current);
        break;
      }
      case 'service end': {
        const run = ensureRun(entry);
        run.endSource = entry.source;
        if (entry.timestamp !== undefined) run.end = entry.timestamp;
        if (entry.result !== undefined) run.result = entry.result;
        if (entry.errorLine !== undefined) run.errorLine = entry.errorLine;
        if (entry.errorMessage !== undefined) run.errorMessage = entry.errorMessage;
        break;
      }
      case 'stage start': {
        const run = ensureRun(entry);
        const stage: ServiceStageRun = { name: entry.stage ?? '', source: entry.source };
        if (entry.timestamp !== undefined) stage.start = entry.timestamp;
        addStage(run, stage);
        break;
      }
      case 'stage end': {
        const run = ensureRun(entry);
        const name = entry.stage ?? '';
        let stage = findOpenStage(byName.get(run)?.get(name));
        if (!stage) {
          // An end without its start (lost entry): keep it as a stage of its own.
          stage = { name, source: entry.source };
          addStage(run, stage);
        }
        // The end entry carries the result and error: it is what evidence cites.
        stage.source = entry.source;
        if (entry.timestamp !== undefined) stage.end = entry.timestamp;
        if (entry.result !== undefined) stage.result = entry.result;
        if (entry.errorLine !== undefined) stage.errorLine = entry.errorLine;
        if (entry.errorMessage !== undefined) stage.errorMessage = entry.errorMessage;
        break;
      }
      default:
        // Pre-/post-command phases and phases of newer releases stay in `entries` only.
        break;
    }
  }
  return runs;
}

/**
 * The newest stage of a name that is still open. A stage never reopens, so closed ones on top
 * are dropped for good: each stage is looked at a bounded number of times.
 */
function findOpenStage(stages: ServiceStageRun[] | undefined): ServiceStageRun | undefined {
  if (!stages) return undefined;
  while (stages.length > 0) {
    const s = stages[stages.length - 1];
    if (s.end === undefined && s.result === undefined) return s;
    stages.pop();
  }
  return undefined;
}

/**
 * Parses one service record file. `service` is the name from the file name (`bootkube` for
 * `bootkube.json`). A truncated or malformed file yields every complete entry plus a problem;
 * an empty file yields an empty record and an `empty` problem.
 */
export function parseServiceRecords(text: string, source: SourceRef, service: string): Parsed<ServiceRecord> {
  const record: ServiceRecord = { service, source, entries: [], runs: [] };
  const body = stripBom(text);
  if (body.trim() === '') {
    return parsed(record, [{ kind: 'empty', message: 'service record file is empty' }]);
  }
  const problems: ParseProblem[] = [];
  let whole: unknown;
  let wholeError: string | undefined;
  try {
    whole = JSON.parse(body);
  } catch (e) {
    wholeError = e instanceof Error ? e.message : String(e);
  }
  if (wholeError !== undefined) {
    problems.push({ kind: 'unparseable', message: clip(`service record file is not valid JSON (truncated or damaged): ${wholeError}`) });
  } else if (!Array.isArray(whole)) {
    problems.push({ kind: 'unparseable', message: 'service record file does not hold a JSON array' });
  }

  const scan = scanTopLevelObjects(body);
  for (const span of scan.objects) {
    let obj: unknown;
    try {
      obj = JSON.parse(span.text);
    } catch {
      problems.push({ kind: 'unparseable', message: 'service record entry is not valid JSON', line: span.line });
      continue;
    }
    if (!isObject(obj)) continue;
    const entry = toEntry(obj, { file: source.file, line: span.line }, problems);
    if (entry) record.entries.push(entry);
  }
  if (scan.unterminatedLine !== undefined) {
    problems.push({ kind: 'unparseable', message: 'service record entry cut off at the end of the file', line: scan.unterminatedLine });
  }
  if (Array.isArray(whole) && whole.some((v) => !isObject(v))) {
    problems.push({ kind: 'unparseable', message: 'service record array holds values that are not objects' });
  }
  record.runs = buildServiceRuns(record.entries);
  return parsed(record, capProblems(problems));
}
