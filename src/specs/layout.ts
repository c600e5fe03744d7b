// The specs layer: maps a path inside a bundle to the logical source it holds, whatever the
// installer release, nesting or packaging, and back (a source's path, for examples and the
// corpus layout). The paths themselves are the source registry's (bundle-sources.ts): this
// module folds away what releases and packaging add around them, and matches what is left.
import { gatherIdTime } from '../text/time.js';
import type { HostSelector, LogRef, SourceId } from '../model/source-id.js';
import { BUNDLE_SOURCES, logRowOf, type PathPattern, type SourceRow, type SourceSpec } from './bundle-sources.js';

export interface ClassifiedPath {
  spec?: SourceSpec;
  /** The registry row the path is a file of. */
  row?: SourceRow;
  /** The path had the extra level of the single-node (bootstrap-in-place) layout. */
  bootstrapInPlace: boolean;
  /** The gather id from a `log-bundle-<ID>` segment, when present. */
  gatherId?: string;
  /** The path is laid out as `oc adm must-gather` writes (a hint when nothing else is found). */
  mustGather?: boolean;
  /** The path from its bundle anchor (`resources/nodes.json`), the same in every layout. */
  logicalPath?: string;
}

const BUNDLE_SEGMENT = /^(?:cluster-)?log-bundle(?:-(.+))?$/;

/** Strips archive-name segments and maps nested part archives onto their folder names. */
function logicalSegments(path: string): { segs: string[]; bootstrapInPlace: boolean; gatherId?: string } {
  const out: string[] = [];
  let bootstrapInPlace = false;
  let gatherId: string | undefined;
  for (const seg of path.split('/')) {
    if (seg === 'log-bundle-bootstrap') {
      bootstrapInPlace = true;
      continue;
    }
    if (/^serial-log-bundle/.test(seg)) {
      out.push('serial');
      continue;
    }
    if (/^clusterapi-log-bundle/.test(seg)) {
      out.push('clusterapi');
      continue;
    }
    const bundle = BUNDLE_SEGMENT.exec(seg);
    if (bundle) {
      if (bundle[1] && gatherId === undefined) gatherId = bundle[1];
      continue;
    }
    if (/^artifacts-/.test(seg)) continue;
    // A nested part archive folded in twice (`serial/serial/...`) counts once.
    if ((seg === 'serial' || seg === 'clusterapi') && out[out.length - 1] === seg) continue;
    out.push(seg);
  }
  return { segs: out, bootstrapInPlace, gatherId };
}

// ------------------------------------------------------------------ the registry's path patterns

const HOST = '{host}';

/** A path pattern made into a regular expression over a logical path. */
interface CompiledPattern {
  row: SourceRow;
  re: RegExp;
  with: Partial<SourceSpec>;
  /** Matched against the whole path, not from an anchor folder (`**` first). */
  anywhere: boolean;
}

function patternPath(p: PathPattern): string {
  return typeof p === 'string' ? p : p.path;
}

function segmentRegex(seg: string): string {
  return seg
    .split(/(\{[a-z]+\})/)
    .map((part) => {
      const name = /^\{([a-z]+)\}$/.exec(part)?.[1];
      if (!name) return part.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
      return name === 'id' ? '(?<id>[0-9a-f]{12,64})' : `(?<${name}>[^/]+)`;
    })
    .join('');
}

function compile(row: SourceRow, p: PathPattern): CompiledPattern {
  const segs = patternPath(p).split('/');
  let re = '';
  segs.forEach((seg, i) => {
    const last = i === segs.length - 1;
    if (seg === '**') re += '(?:[^/]+/)*';
    else if (seg === HOST) re += `(?:bootstrap|control-plane/(?<address>[^/]+))${last ? '' : '/'}`;
    else re += `${segmentRegex(seg)}${last ? '' : '/'}`;
  });
  return { row, re: new RegExp(`^${re}$`), with: typeof p === 'string' ? {} : p.with, anywhere: segs[0] === '**' };
}

const PATTERNS: readonly CompiledPattern[] = BUNDLE_SOURCES.flatMap((row) => row.paths.map((p) => compile(row, p)));

/** The folders (and root files) a bundle's own tree starts with: the first segment of every anchored pattern. */
const ROOT_ANCHORS = new Set(
  BUNDLE_SOURCES.flatMap((row) => row.paths.map((p) => patternPath(p).split('/')[0])).flatMap((first) => (first === HOST ? ['bootstrap', 'control-plane'] : first === '**' ? [] : [first])),
);

/** The spec of a path one of a row's patterns matched. */
function specOf(pattern: CompiledPattern, names: Record<string, string>): SourceSpec | undefined {
  const row = pattern.row;
  if (row.accept && !row.accept(names.file ?? '')) return undefined;
  const spec: SourceSpec = { kind: row.kind, ...row.fixed, ...pattern.with };
  if (row.hostScoped) spec.host = names.address !== undefined ? { role: 'master', address: names.address } : { role: 'bootstrap' };
  for (const key of ['unit', 'service', 'id', 'name'] as const) if (names[key] !== undefined) spec[key] = names[key];
  if (row.spec) Object.assign(spec, row.spec(names));
  return spec;
}

function match(path: string, anywhere: boolean): { row: SourceRow; spec: SourceSpec } | undefined {
  for (const p of PATTERNS) {
    if (p.anywhere !== anywhere) continue;
    const m = p.re.exec(path);
    if (!m) continue;
    const spec = specOf(p, { ...m.groups });
    if (spec) return { row: p.row, spec };
  }
  return undefined;
}

/**
 * Classifies a logical path (nested archive paths already joined, e.g.
 * `log-bundle-X/control-plane/10.0.0.5/log-bundle-X/journals/kubelet.log`): the first registry
 * row one of whose patterns matches, from the first folder a pattern starts with.
 */
export function classifyPath(path: string): ClassifiedPath {
  const { segs, bootstrapInPlace, gatherId } = logicalSegments(path);
  const result: ClassifiedPath = { bootstrapInPlace };
  if (gatherId) result.gatherId = gatherId;
  const found = match(segs.join('/'), true);
  if (found) {
    result.spec = found.spec;
    result.row = found.row;
    return result;
  }
  const at = segs.findIndex((s) => ROOT_ANCHORS.has(s));
  if (at < 0) {
    if (segs.includes('cluster-scoped-resources') || segs.includes('namespaces')) result.mustGather = true;
    return result;
  }
  result.logicalPath = segs.slice(at).join('/');
  const anchored = match(result.logicalPath, false);
  if (anchored) {
    result.spec = anchored.spec;
    result.row = anchored.row;
  }
  return result;
}

/**
 * The log a path holds, as the reader names it: its source id and the gather time its
 * `log-bundle-<ID>` segment gives; undefined for paths that are not streamed logs.
 */
export function logRefOf(path: string): LogRef | undefined {
  const cls = classifyPath(path);
  if (!cls.spec || cls.row?.read !== 'stream') return undefined;
  const ref: LogRef = { file: path, source: cls.row.log(cls.spec) };
  const time = cls.gatherId ? gatherIdTime(cls.gatherId) : undefined;
  if (time !== undefined) ref.referenceTime = time;
  return ref;
}

// ------------------------------------------------------------------ and back: where a source's file is

/** A container id for paths made up from a name (examples, the corpus layout): stable per name. */
export function madeUpId(name: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0').repeat(8);
}

function hostDir(host: HostSelector | undefined): string {
  return !host || host.role === 'bootstrap' ? 'bootstrap' : `control-plane/${host.address}`;
}

/**
 * Where a file of a row lives below `log-bundle-<ID>/`, for the names given: the first of its
 * patterns (its `write` first) whose every `{name}` is given and whose implied fields agree.
 * A pattern without `{host}` is the bootstrap host's; `**` adds no folder.
 */
export function pathFor(row: SourceRow, names: Readonly<Record<string, string | undefined>>, host?: HostSelector): string {
  const candidates: PathPattern[] = [...(row.write ? [row.write] : []), ...row.paths];
  for (const p of candidates) {
    const path = patternPath(p);
    const implied = typeof p === 'string' ? {} : p.with;
    if (implied.runtime !== undefined && names.runtime !== undefined && implied.runtime !== names.runtime) continue;
    if (row.hostScoped && !path.includes(HOST) && host?.role === 'master') continue;
    const filled = path
      .split('/')
      .filter((seg) => seg !== '**')
      .map((seg) => (seg === HOST ? hostDir(host) : seg.replace(/\{([a-z]+)\}/g, (whole, key: string) => names[key] ?? whole)))
      .join('/');
    if (!/\{[a-z]+\}/.test(filled)) return filled;
  }
  throw new Error(`no path of ${row.id} can be written from ${JSON.stringify(names)}`);
}

/**
 * Where a log's file lives in a bundle, below `log-bundle-<ID>/` (the reverse of `classifyPath`):
 * the path the gather scripts write it to. Containers get a made-up id.
 */
export function pathOf(source: SourceId, runtime = source.runtime ?? 'cri-o'): string {
  const row = logRowOf(source);
  if (!row) throw new Error(`no source row for a ${source.kind} log`);
  const name = source.container ?? 'container';
  const names = { unit: source.unit ?? 'unknown', name, id: madeUpId(name), console: source.console ?? 'master-0' };
  return pathFor(row, { ...names, runtime }, source.host);
}
