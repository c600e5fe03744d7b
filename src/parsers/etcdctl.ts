// Reads `etcdctl member list` and `etcdctl endpoint health` output in table, simple and JSON form.
import type { EtcdEndpointHealth, EtcdMember, EtcdMemberList, SourceRef } from '../model/types.js';
import { parsed, type Parsed, type ParseProblem } from './parsed.js';
import { capProblems, clip, splitLines } from './text-input.js';
import { type JsonObject, get, isObject, jsonValueEnd } from './json-fields.js';

/** Marks integers that were quoted before JSON.parse so they are read as decimal, not hex. */
const DEC_MARK = '#dec:';

/**
 * Quotes integers too long for a double (etcd ids are uint64) so JSON.parse keeps every digit.
 * Strings are skipped whole, so digits inside them are never touched.
 */
function quoteBigIntegers(text: string): string {
  let out = '';
  let last = 0;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      i++;
      while (i < text.length && text.charCodeAt(i) !== 34) i += text.charCodeAt(i) === 92 ? 2 : 1;
      i++;
      continue;
    }
    if ((c >= 48 && c <= 57) || c === 45 /* - */) {
      const m = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 64));
      if (m) {
        if (!m[1] && !m[2] && m[0].replace('-', '').length >= 16) {
          out += `${text.slice(last, i)}"${DEC_MARK}${m[0]}"`;
          last = i + m[0].length;
        }
        i += m[0].length;
        continue;
      }
    }
    i++;
  }
  return out + text.slice(last);
}

/** An id as etcdctl prints it in tables: lower-case hex without padding. */
function toHexId(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value.toString(16);
  if (typeof value !== 'string' || value === '') return undefined;
  if (value.startsWith(DEC_MARK)) {
    const digits = value.slice(DEC_MARK.length);
    return /^\d+$/.test(digits) ? BigInt(digits).toString(16) : undefined;
  }
  // `--hex` output and hand-made files write the id as a hex string already.
  return /^[0-9a-f]+$/i.test(value) ? value.toLowerCase() : undefined;
}

function urlList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v !== '') : [];
}

function splitAddrs(cell: string): string[] {
  return cell
    .split(',')
    .map((a) => a.trim())
    .filter((a) => a !== '');
}

/** Cells of a `| a | b |` table row, trimmed. */
function tableCells(line: string): string[] {
  let t = line.trim();
  if (t.startsWith('|')) t = t.slice(1);
  if (t.endsWith('|')) t = t.slice(0, -1);
  return t.split('|').map((c) => c.trim());
}

const TABLE_BORDER_RE = /^\s*\+[-+]+\+\s*$/;

interface Table {
  header: string[];
  rows: { cells: string[]; line: number }[];
}

/** The table whose header row satisfies `isHeader`; undefined when there is none. */
function readTable(lines: string[], isHeader: (cells: string[]) => boolean): Table | undefined {
  let header: string[] | undefined;
  const rows: Table['rows'] = [];
  lines.forEach((line, i) => {
    if (!line.trimStart().startsWith('|')) return;
    const cells = tableCells(line);
    if (!header) {
      if (isHeader(cells)) header = cells.map((c) => c.toUpperCase());
      return;
    }
    rows.push({ cells, line: i + 1 });
  });
  return header ? { header, rows } : undefined;
}

/** Noise etcdctl and the gather redirect mix in: the client's JSON log lines, `Error: ...`. */
function isNoise(line: string): boolean {
  const t = line.trim();
  return t === '' || TABLE_BORDER_RE.test(line) || t.startsWith('{"level"') || /^Error:\s/.test(t);
}

/**
 * The JSON documents that start a line, in order, skipping the client's JSON log lines
 * (`{"level":"warn",...}`) that stderr mixes in.
 */
function jsonDocuments(text: string): { json: unknown; start: number }[] {
  const out: { json: unknown; start: number }[] = [];
  const re = /^[ \t]*[{[]/gm;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    const start = m.index + m[0].length - 1;
    const end = jsonValueEnd(text, start);
    if (end < 0) break;
    try {
      const json = JSON.parse(quoteBigIntegers(text.slice(start, end))) as unknown;
      if (!(isObject(json) && typeof get(json, 'level') === 'string' && typeof get(json, 'msg') === 'string')) {
        out.push({ json, start });
      }
    } catch {
      // Not JSON after all (a table or a message that starts with a bracket).
    }
    re.lastIndex = Math.max(end, re.lastIndex);
  }
  return out;
}

function isMemberDoc(json: unknown): json is JsonObject {
  return isObject(json) && Array.isArray(get(json, 'members'));
}

const MEMBER_TABLE_HEADER = (cells: string[]): boolean => {
  const up = cells.map((c) => c.toUpperCase());
  return up.includes('ID') && up.includes('NAME') && up.includes('PEER ADDRS');
};

const HEALTH_TABLE_HEADER = (cells: string[]): boolean => {
  const up = cells.map((c) => c.toUpperCase());
  return up.includes('ENDPOINT') && up.includes('HEALTH');
};

const SIMPLE_MEMBER_RE = /^[0-9a-f]{1,16}, [a-z]+, /i;
const SIMPLE_HEALTH_RE = /^(\S+) is (healthy|unhealthy): (.*)$/;

/** Tells `member list` from `endpoint health` output by content, in any of the three forms. */
export function sniffEtcdctlOutput(text: string): 'member-list' | 'endpoint-health' | undefined {
  const lines = splitLines(text);
  for (const line of lines) {
    if (!line.trimStart().startsWith('|')) continue;
    const cells = tableCells(line);
    if (MEMBER_TABLE_HEADER(cells)) return 'member-list';
    if (HEALTH_TABLE_HEADER(cells)) return 'endpoint-health';
  }
  for (const { json } of jsonDocuments(lines.join('\n'))) {
    if (isMemberDoc(json)) return 'member-list';
    if (Array.isArray(json) && json.some((d) => get(d, 'endpoint') !== undefined && get(d, 'health') !== undefined)) {
      return 'endpoint-health';
    }
  }
  for (const line of lines) {
    if (SIMPLE_HEALTH_RE.test(line.trim())) return 'endpoint-health';
    if (SIMPLE_MEMBER_RE.test(line.trim())) return 'member-list';
  }
  return undefined;
}

function memberFromCells(id: string, status: string, name: string, peers: string, clients: string, learner: string | undefined): EtcdMember {
  const member: EtcdMember = {
    id: id.toLowerCase(),
    name,
    peerUrls: splitAddrs(peers),
    clientUrls: splitAddrs(clients),
    isLearner: learner?.toLowerCase() === 'true',
  };
  if (status !== '') member.status = status;
  return member;
}

function membersFromTable(table: Table, problems: ParseProblem[]): EtcdMember[] {
  const col = (name: string): number => table.header.indexOf(name);
  const [iId, iStatus, iName, iPeer, iClient, iLearner] = ['ID', 'STATUS', 'NAME', 'PEER ADDRS', 'CLIENT ADDRS', 'IS LEARNER'].map(col);
  const members: EtcdMember[] = [];
  for (const row of table.rows) {
    const { cells } = row;
    if (cells.length !== table.header.length || !/^[0-9a-f]+$/i.test(cells[iId] ?? '')) {
      problems.push({ kind: 'unparseable', message: `not a member row: ${clip(cells.join(' | '))}`, line: row.line });
      continue;
    }
    const at = (i: number): string => (i >= 0 ? cells[i] : '');
    members.push(memberFromCells(cells[iId], at(iStatus), at(iName), at(iPeer), at(iClient), iLearner >= 0 ? cells[iLearner] : undefined));
  }
  return members;
}

/** `id, status, name, peers, clients[, isLearner]`; lists inside a field are joined by `,` alone. */
function memberFromSimple(line: string): EtcdMember | undefined {
  const t = line.trim();
  // An empty last field loses its trailing space when the file is trimmed.
  const parts = (t.endsWith(',') ? [...t.slice(0, -1).split(', '), ''] : t.split(', ')).map((p) => p.trim());
  if (parts.length !== 5 && parts.length !== 6) return undefined;
  if (!/^[0-9a-f]{1,16}$/i.test(parts[0])) return undefined;
  return memberFromCells(parts[0], parts[1], parts[2], parts[3], parts[4], parts[5]);
}

function membersFromJson(doc: JsonObject, problems: ParseProblem[]): { members: EtcdMember[]; clusterId?: string } {
  const members: EtcdMember[] = [];
  const list = get(doc, 'members');
  (Array.isArray(list) ? list : []).forEach((m, i) => {
    const id = toHexId(get(m, 'ID'));
    if (!isObject(m) || id === undefined) {
      problems.push({ kind: 'unparseable', message: `members[${i}] has no readable ID` });
      return;
    }
    const nameValue = get(m, 'name');
    const name = typeof nameValue === 'string' ? nameValue : '';
    members.push({
      id,
      name,
      // The JSON has no status: etcdctl's table calls a member without a name unstarted.
      status: name === '' ? 'unstarted' : 'started',
      peerUrls: urlList(get(m, 'peerURLs')),
      clientUrls: urlList(get(m, 'clientURLs')),
      isLearner: get(m, 'isLearner') === true,
    });
  });
  const clusterId = toHexId(get(get(doc, 'header'), 'cluster_id'));
  return clusterId === undefined ? { members } : { members, clusterId };
}

function noOutputProblem(what: string, lines: string[]): ParseProblem {
  const first = lines.find((l) => l.trim() !== '');
  if (first === undefined) return { kind: 'empty', message: `${what} output is empty` };
  return { kind: 'unparseable', message: `not ${what} output: ${clip(first.trim())}`, line: lines.indexOf(first) + 1 };
}

/**
 * Parses `etcdctl member list` output (`-w table`, `-w simple`, with or without the learner
 * column, or `-w json` with uint64 ids converted exactly to hex). Text that holds no member
 * list (empty, or an error message) gives an empty `simple` list and a problem.
 */
export function parseEtcdMemberList(text: string, source: SourceRef): Parsed<EtcdMemberList> {
  const lines = splitLines(text);
  const problems: ParseProblem[] = [];

  const table = readTable(lines, MEMBER_TABLE_HEADER);
  if (table) {
    const members = membersFromTable(table, problems);
    return parsed({ source, format: 'table', members }, capProblems(problems));
  }

  const docs = jsonDocuments(lines.join('\n'));
  const json = docs.find((d) => isMemberDoc(d.json));
  if (json && isMemberDoc(json.json)) {
    const { members, clusterId } = membersFromJson(json.json, problems);
    const list: EtcdMemberList = { source, format: 'json', members };
    if (clusterId !== undefined) list.clusterId = clusterId;
    return parsed(list, capProblems(problems));
  }

  const members: EtcdMember[] = [];
  const unread: ParseProblem[] = [];
  lines.forEach((line, i) => {
    if (isNoise(line)) return;
    const member = memberFromSimple(line);
    if (member) members.push(member);
    else unread.push({ kind: 'unparseable', message: `not a member line: ${clip(line.trim())}`, line: i + 1 });
  });
  if (members.length === 0) {
    // Only a JSON members array can say "no members"; simple output always lists one.
    const empty: EtcdMemberList = { source, format: 'simple', members: [] };
    if (docs.some((d) => isObject(d.json))) return parsed(empty, [{ kind: 'unparseable', message: 'JSON without members[]' }]);
    return parsed(empty, [noOutputProblem('etcdctl member list', lines)]);
  }
  return parsed({ source, format: 'simple', members }, capProblems(unread));
}

function healthEntry(endpoint: string, healthy: boolean, took: string | undefined, error: string | undefined, source: SourceRef): EtcdEndpointHealth {
  const entry: EtcdEndpointHealth = { endpoint, healthy, source };
  if (took !== undefined && took !== '') entry.took = took;
  if (error !== undefined && error !== '') entry.error = error;
  return entry;
}

/** Line numbers of the objects directly inside the top-level array starting at `start`. */
function arrayObjectLines(text: string, start: number): number[] {
  const lines: number[] = [];
  let line = text.slice(0, start).split('\n').length;
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) line++;
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (c === 123 && depth === 1) lines.push(line);
      depth++;
    } else if (c === 125 || c === 93) {
      depth--;
      if (depth === 0) break;
    }
  }
  return lines;
}

function healthBool(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 'true') return true;
  if (value === 'false') return false;
  return undefined;
}

/**
 * Parses `etcdctl endpoint health` output: simple lines (`<ep> is healthy: ... took = 11ms`,
 * `<ep> is unhealthy: <error>`), `-w table` or `-w json`. Each endpoint carries its line.
 */
export function parseEtcdEndpointHealth(text: string, source: SourceRef): Parsed<EtcdEndpointHealth[]> {
  const lines = splitLines(text);
  const at = (line: number): SourceRef => ({ file: source.file, line });
  const problems: ParseProblem[] = [];

  const table = readTable(lines, HEALTH_TABLE_HEADER);
  if (table) {
    const col = (name: string): number => table.header.indexOf(name);
    const [iEp, iHealth, iTook, iError] = ['ENDPOINT', 'HEALTH', 'TOOK', 'ERROR'].map(col);
    const out: EtcdEndpointHealth[] = [];
    for (const row of table.rows) {
      const healthy = healthBool(row.cells[iHealth]);
      if (row.cells.length < table.header.length || healthy === undefined || !row.cells[iEp]) {
        problems.push({ kind: 'unparseable', message: `not an endpoint row: ${clip(row.cells.join(' | '))}`, line: row.line });
        continue;
      }
      const cell = (i: number): string | undefined => (i >= 0 ? row.cells[i] : undefined);
      // An error may itself hold `|`: everything from the ERROR column on is the error.
      const error = iError >= 0 ? row.cells.slice(iError).join(' | ') : undefined;
      out.push(healthEntry(row.cells[iEp], healthy, cell(iTook), error, at(row.line)));
    }
    return parsed(out, capProblems(problems));
  }

  const joined = lines.join('\n');
  const json = jsonDocuments(joined).find((d) => Array.isArray(d.json));
  if (json && Array.isArray(json.json)) {
    const objLines = arrayObjectLines(joined, json.start);
    const out: EtcdEndpointHealth[] = [];
    let objIndex = 0;
    json.json.forEach((item, i) => {
      const line = isObject(item) ? objLines[objIndex++] : undefined;
      const endpoint = get(item, 'endpoint');
      const healthy = healthBool(get(item, 'health'));
      if (typeof endpoint !== 'string' || healthy === undefined) {
        problems.push({ kind: 'unparseable', message: `[${i}] is not an endpoint health entry`, line });
        return;
      }
      const took = get(item, 'took');
      const error = get(item, 'error');
      out.push(healthEntry(endpoint, healthy, typeof took === 'string' ? took : undefined, typeof error === 'string' ? error : undefined, line === undefined ? source : at(line)));
    });
    return parsed(out, capProblems(problems));
  }

  const out: EtcdEndpointHealth[] = [];
  lines.forEach((raw, i) => {
    if (isNoise(raw)) return;
    const m = SIMPLE_HEALTH_RE.exec(raw.trim());
    if (!m) {
      problems.push({ kind: 'unparseable', message: `not an endpoint health line: ${clip(raw.trim())}`, line: i + 1 });
      return;
    }
    const [, endpoint, state, detail] = m;
    if (state === 'healthy') {
      const took = /\btook = (\S+)/.exec(detail)?.[1];
      out.push(healthEntry(endpoint, true, took, undefined, at(i + 1)));
    } else {
      out.push(healthEntry(endpoint, false, undefined, detail, at(i + 1)));
    }
  });
  if (out.length === 0) return parsed([], [noOutputProblem('etcdctl endpoint health', lines)]);
  return parsed(out, capProblems(problems));
}
