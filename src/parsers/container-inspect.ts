// Reads `crictl inspect` and `podman inspect` output into Containers, keeping only state fields.
import type { Container, SourceRef } from '../model/types.js';
import { parseIsoTime } from '../text/time.js';
import { parsed, type Parsed, type ParseProblem } from './parsed.js';
import { clip, splitLines, stripBom } from './text-input.js';
import { type JsonObject, get, int, isObject, jsonValueEnd, str } from './json-fields.js';
import { nameTable } from '../util/name-table.js';

// Control characters other than tab/CR/LF, or the replacement character: not a message.
const BINARY_RE = /[\u0000-\u0008\u000e-\u001f\ufffd]/;

/**
 * A container time: RFC 3339 with nanoseconds, or (older crictl, protobuf JSON) integer
 * nanoseconds as a number or a string. Zero times (`0001-01-01…`, `1970-01-01T00:00:00Z`, 0)
 * mean unset.
 */
function time(obj: unknown, key: string): number | undefined {
  const v = get(obj, key);
  if (typeof v === 'number') return v > 0 ? Math.floor(v / 1e6) : undefined;
  if (typeof v !== 'string') return undefined;
  if (/^\d+$/.test(v)) {
    const ms = Number(BigInt(v) / 1_000_000n);
    return ms > 0 ? ms : undefined;
  }
  return parseIsoTime(v);
}

/** Index of the closing quote of the string that opens at `start`, or -1. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 92) i++;
    else if (c === 34) return i;
  }
  return -1;
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && /\s/.test(text[i])) i++;
  return i;
}

/**
 * The text of member `key` (an object or array value) of the object at `objStart`, when that
 * member is complete: lets a truncated `crictl inspect` still give its `status`, which comes
 * before the long `info`.
 */
function memberText(text: string, objStart: number, key: string): string | undefined {
  let depth = 0;
  for (let i = objStart; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      const end = stringEnd(text, i);
      if (end < 0) return undefined;
      if (depth === 1) {
        let k = skipSpace(text, end + 1);
        if (text[k] === ':' && text.slice(i + 1, end) === key) {
          k = skipSpace(text, k + 1);
          if (text[k] !== '{' && text[k] !== '[') return undefined;
          const vEnd = jsonValueEnd(text, k);
          return vEnd < 0 ? undefined : text.slice(k, vEnd);
        }
      }
      i = end;
    } else if (c === 123 || c === 91) depth++;
    else if (c === 125 || c === 93) {
      depth--;
      if (depth === 0) return undefined;
    }
  }
  return undefined;
}

/** The complete objects directly inside the array at `arrayStart`, up to the first cut one. */
function arrayObjects(text: string, arrayStart: number): string[] {
  const out: string[] = [];
  let i = arrayStart + 1;
  for (;;) {
    i = skipSpace(text, i);
    if (text[i] === ',') {
      i++;
      continue;
    }
    if (text[i] !== '{') return out;
    const end = jsonValueEnd(text, i);
    if (end < 0) return out;
    out.push(text.slice(i, end));
    i = end;
  }
}

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function firstNonBlankLine(text: string): string | undefined {
  for (const line of splitLines(text)) {
    const t = line.trim();
    if (t !== '') return clip(t);
  }
  return undefined;
}

interface Located {
  /** Offset of the first `{` or `[` that starts a line. */
  start: number;
  /** Offset just past that value, or -1 when it is cut off. */
  end: number;
}

/**
 * Where the JSON document starts. The gather script captures stderr too (`>&`), so warnings can
 * come before it and an error after it (podman prints `[]` and then `Error: ...`).
 */
function locateJson(text: string): Located | undefined {
  const m = /^[ \t]*[{[]/m.exec(text);
  if (!m) return undefined;
  const start = m.index + m[0].length - 1;
  return { start, end: jsonValueEnd(text, start) };
}

/** The problem for a file that holds no JSON document: empty, binary or a message. */
function noJsonProblem(tool: string, text: string): ParseProblem {
  const line = firstNonBlankLine(text);
  if (line === undefined) return { kind: 'empty', message: `${tool} output is empty` };
  if (BINARY_RE.test(line)) return { kind: 'unparseable', message: `${tool} output is not text` };
  return { kind: 'unparseable', message: `${tool} printed no JSON: ${line}` };
}

/** A message the tool printed after the document (`Error: no such object`), as a problem. */
function trailingProblem(tool: string, text: string, end: number): ParseProblem | undefined {
  const rest = text.slice(end);
  const line = firstNonBlankLine(rest);
  if (line === undefined || BINARY_RE.test(line)) return undefined;
  const offset = end + rest.search(/\S/);
  const lineNo = text.slice(0, offset).split('\n').length;
  return { kind: 'unparseable', message: `${tool} printed after its JSON: ${line}`, line: lineNo };
}

const CRI_STATES = nameTable<string>({
  CONTAINER_RUNNING: 'running',
  CONTAINER_EXITED: 'exited',
  CONTAINER_CREATED: 'created',
  CONTAINER_UNKNOWN: 'unknown',
});

function criContainer(status: JsonObject, source: SourceRef): Container {
  const c: Container = { runtime: 'cri-o', id: str(status, 'id') ?? '', inspectSource: source };
  const metadata = get(status, 'metadata');
  const name = str(metadata, 'name');
  if (name !== undefined) c.name = name;
  const attempt = int(metadata, 'attempt');
  if (attempt !== undefined) c.attempt = attempt;
  const state = str(status, 'state');
  if (state !== undefined) c.state = CRI_STATES[state] ?? 'unknown';
  const createdAt = time(status, 'createdAt');
  if (createdAt !== undefined) c.createdAt = createdAt;
  const startedAt = time(status, 'startedAt');
  if (startedAt !== undefined) c.startedAt = startedAt;
  const finishedAt = time(status, 'finishedAt');
  if (finishedAt !== undefined) c.finishedAt = finishedAt;
  const exitCode = int(status, 'exitCode');
  if (exitCode !== undefined) c.exitCode = exitCode;
  const reason = str(status, 'reason');
  if (reason !== undefined) {
    c.reason = reason;
    if (reason === 'OOMKilled') c.oomKilled = true;
  }
  const image = str(get(status, 'image'), 'image');
  if (image !== undefined) c.image = image;
  const imageRef = str(status, 'imageRef');
  if (imageRef !== undefined) c.imageRef = imageRef;
  const labels = get(status, 'labels');
  const podName = str(labels, 'io.kubernetes.pod.name');
  if (podName !== undefined) c.podName = podName;
  const podNamespace = str(labels, 'io.kubernetes.pod.namespace');
  if (podNamespace !== undefined) c.podNamespace = podNamespace;
  const restartCount = int(get(status, 'annotations'), 'io.kubernetes.container.restartCount');
  if (restartCount !== undefined) c.restartCount = restartCount;
  return c;
}

/**
 * Parses `crictl inspect <id>` output (`{"status": {...}, "info": {...}}`). Only state, image,
 * times, pod labels and the restart count are kept; `info` (runtime spec, env, mounts) never is.
 * The value is undefined when the file holds no container (empty, or the error crictl printed).
 */
export function parseCrictlInspect(text: string, source: SourceRef): Parsed<Container | undefined> {
  const body = stripBom(text);
  const loc = locateJson(body);
  if (!loc) return parsed(undefined, [noJsonProblem('crictl inspect', body)]);
  const problems: ParseProblem[] = [];
  const whole = loc.end < 0 ? undefined : tryParse(body.slice(loc.start, loc.end));
  // Some crictl versions print a list even for one id.
  const doc = Array.isArray(whole) ? whole.find((d) => isObject(get(d, 'status'))) : whole;
  let status = get(doc, 'status');
  if (whole === undefined) {
    status = tryParse(memberText(body, loc.start, 'status') ?? '');
    problems.push({
      kind: 'unparseable',
      message: isObject(status)
        ? 'crictl inspect output is cut off or damaged; read its status only'
        : 'crictl inspect output is not valid JSON',
    });
  } else {
    const after = trailingProblem('crictl inspect', body, loc.end);
    if (after) problems.push(after);
  }
  if (!isObject(status)) {
    if (whole !== undefined) problems.push({ kind: 'unparseable', message: 'crictl inspect output has no status object' });
    return parsed(undefined, problems);
  }
  const container = criContainer(status, source);
  if (container.id === '') problems.push({ kind: 'unparseable', message: 'crictl inspect status has no id' });
  return parsed(container, problems);
}

function podmanState(state: unknown): string | undefined {
  const status = str(state, 'Status')?.toLowerCase();
  switch (status) {
    case 'running':
    case 'paused':
      return 'running';
    case 'exited':
    case 'stopped':
    case 'stopping':
      return 'exited';
    case 'created':
    case 'configured':
    case 'initialized':
      return 'created';
    case undefined:
      break;
    default:
      return 'unknown';
  }
  // Podman 1.x wrote no Status, only the Docker-style booleans.
  const running = get(state, 'Running');
  if (running === true) return 'running';
  if (running === false) return time(state, 'FinishedAt') !== undefined ? 'exited' : 'created';
  return undefined;
}

function podmanContainer(obj: JsonObject, source: SourceRef): Container {
  const c: Container = { runtime: 'podman', id: str(obj, 'Id') ?? str(obj, 'ID') ?? '', inspectSource: source };
  const name = str(obj, 'Name');
  if (name !== undefined) c.name = name.replace(/^\//, '');
  // ImageName is what was asked for; Image is the image id it resolved to.
  const imageName = str(obj, 'ImageName');
  const imageId = str(obj, 'Image');
  if (imageName !== undefined) {
    c.image = imageName;
    if (imageId !== undefined) c.imageRef = imageId;
  } else if (imageId !== undefined) {
    c.image = imageId;
  }
  const createdAt = time(obj, 'Created');
  if (createdAt !== undefined) c.createdAt = createdAt;
  const restartCount = int(obj, 'RestartCount');
  if (restartCount !== undefined) c.restartCount = restartCount;
  const state = get(obj, 'State');
  const normalized = podmanState(state);
  if (normalized !== undefined) c.state = normalized;
  const exitCode = int(state, 'ExitCode');
  if (exitCode !== undefined) c.exitCode = exitCode;
  const startedAt = time(state, 'StartedAt');
  if (startedAt !== undefined) c.startedAt = startedAt;
  const finishedAt = time(state, 'FinishedAt');
  if (finishedAt !== undefined) c.finishedAt = finishedAt;
  const oom = get(state, 'OOMKilled');
  if (typeof oom === 'boolean') c.oomKilled = oom;
  // The runtime's error when the container could not start (`executable file not found`).
  const error = str(state, 'Error');
  if (error !== undefined) c.reason = clip(error);
  else if (oom === true) c.reason = 'OOMKilled';
  return c;
}

/**
 * Parses `podman inspect <id>` output (a JSON array of containers). Keeps id, name, image,
 * state, exit code, times, OOM flag and restart count; never the config (env, mounts).
 */
export function parsePodmanInspect(text: string, source: SourceRef): Parsed<Container[]> {
  const body = stripBom(text);
  const loc = locateJson(body);
  if (!loc) return parsed([], [noJsonProblem('podman inspect', body)]);
  const problems: ParseProblem[] = [];
  let objects: unknown[];
  const doc = loc.end < 0 ? undefined : tryParse(body.slice(loc.start, loc.end));
  if (doc === undefined) {
    objects = body[loc.start] === '[' ? arrayObjects(body, loc.start).map(tryParse) : [];
    problems.push({
      kind: 'unparseable',
      message: objects.length > 0
        ? `podman inspect output is cut off or damaged; read ${objects.length} complete container(s)`
        : 'podman inspect output is not valid JSON',
    });
  } else {
    objects = Array.isArray(doc) ? doc : [doc];
    const after = trailingProblem('podman inspect', body, loc.end);
    if (after) problems.push(after);
  }
  const containers: Container[] = [];
  for (const obj of objects) {
    if (!isObject(obj)) continue;
    const c = podmanContainer(obj, source);
    if (c.id === '') problems.push({ kind: 'unparseable', message: 'podman inspect entry has no Id' });
    containers.push(c);
  }
  return parsed(containers, problems);
}
