// The sources a rule reads, named logically (a journal unit, a container, the installer log,
// service records, resources), resolved through the one source vocabulary (specs/source-id.ts):
// the same test decides which logs a rule's filters read and which logs it is given.
import type { Bundle, EpochMs, HostRole, LogLine, LogSummary, MatchedLine, SourceId } from '../model/types.js';
import { bundleHosts, bundleLogs, hostName, logHost } from '../model/walk.js';
import { CONTROL_PLANE_CONTAINER } from '../specs/source-id.js';

export { hostName } from '../model/walk.js';

export type HostScope = 'bootstrap' | 'master' | 'any';
export type LogName = 'installer' | 'gather' | 'serial' | 'clusterapi' | 'control-plane';
export type ResourceName = 'events' | 'clusteroperators' | 'nodes' | 'pods' | 'csrs';

export type RuleSource =
  | { journal: string; host?: HostScope }
  | { 'unit-status': string; host?: HostScope }
  | { container: string; host?: HostScope }
  | { log: LogName; host?: HostScope }
  | { service: string; stage?: string; host?: HostScope }
  | { resource: ResourceName };

/** A line a rule can test: from a streamed log (kept by its filters) or made from structured data. */
export interface SourceLine {
  file: string;
  line?: number;
  text: string;
  time?: EpochMs;
  /** Seconds since boot, for console lines without wall time. */
  monotonic?: number;
  host?: string;
  before?: string[];
  after?: string[];
  /** Filter ids that kept this line (streamed logs only). */
  filterIds?: string[];
}

/** One concrete log or record set a RuleSource resolved to. */
export interface SourceInstance {
  label: string;
  host?: string;
  /** Streamed logs: the summary, whose matched lines carry filter ids. */
  log?: LogSummary;
  /** Structured sources: every line, built here. */
  lines?: SourceLine[];
}

const GLOBS = new Map<string, RegExp>();

/** `etcd*` → /^etcd.*$/; compiled once per glob (filters ask for every file of every bundle). */
export function globToRegExp(glob: string): RegExp {
  let re = GLOBS.get(glob);
  if (!re) {
    const escaped = glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
    // No `g` flag: `test` keeps no state, so one instance serves every caller.
    re = new RegExp(`^${escaped}$`);
    if (GLOBS.size < 4096) GLOBS.set(glob, re);
  }
  return re;
}

function hostOk(scope: HostScope | undefined, role: HostRole | undefined): boolean {
  return !scope || scope === 'any' || scope === role;
}

/** Whether a log (by its source id) belongs to a rule source: for line filters and for resolving. */
export function sourceAppliesTo(source: RuleSource, id: SourceId): boolean {
  const role = id.host?.role;
  if ('journal' in source) return id.kind === 'journal' && hostOk(source.host, role) && globToRegExp(source.journal).test(id.unit ?? '');
  if ('unit-status' in source) {
    return id.kind === 'unit-status-journal' && hostOk(source.host, role) && globToRegExp(source['unit-status']).test(id.unit ?? '');
  }
  if ('container' in source) {
    return id.kind === 'container' && id.container !== CONTROL_PLANE_CONTAINER && hostOk(source.host, role) && globToRegExp(source.container).test(id.container ?? '');
  }
  if ('log' in source) {
    if (source.log === 'control-plane') return id.kind === 'container' && id.container === CONTROL_PLANE_CONTAINER;
    return id.kind === source.log;
  }
  return false;
}

/** A glob made concrete: every wildcard becomes `x`. */
function concrete(glob: string): string {
  return glob.replace(/[*?]/g, 'x');
}

/**
 * A log the rule source applies to (the reverse of `sourceAppliesTo`), for writing examples:
 * globs made concrete unless a unit or container is named; undefined for records and resources.
 */
export function exampleSource(source: RuleSource, named: { unit?: string; container?: string } = {}): SourceId | undefined {
  const host: SourceId['host'] = 'host' in source && source.host === 'master' ? { role: 'master', address: '10.0.0.5' } : { role: 'bootstrap' };
  if ('journal' in source) return { kind: 'journal', host, unit: named.unit ?? concrete(source.journal) };
  if ('unit-status' in source) return { kind: 'unit-status-journal', host, unit: named.unit ?? concrete(source['unit-status']) };
  if ('container' in source) return { kind: 'container', host, runtime: 'cri-o', container: named.container ?? concrete(source.container) };
  if ('log' in source) {
    if (source.log === 'control-plane') return { kind: 'container', host: { role: 'bootstrap' }, container: CONTROL_PLANE_CONTAINER };
    if (source.log === 'serial') return { kind: 'serial', console: 'master-0' };
    return { kind: source.log };
  }
  return undefined;
}

/** Whether a rule source names a streamed log (not service records or resources). */
function isLogSource(source: RuleSource): boolean {
  return 'journal' in source || 'unit-status' in source || 'container' in source || 'log' in source;
}

/** A short label for a source, used in `skipped (missing: ...)`. */
export function describeSource(source: RuleSource): string {
  const scope = 'host' in source && source.host && source.host !== 'any' ? `${source.host} ` : '';
  if ('journal' in source) return `${scope}journal ${source.journal}`;
  if ('unit-status' in source) return `${scope}unit status ${source['unit-status']}`;
  if ('container' in source) return `${scope}container ${source.container}`;
  if ('log' in source) return `${source.log} log`;
  if ('service' in source) return `${scope}service record ${source.service}${source.stage ? ` (${source.stage})` : ''}`;
  return `resources ${source.resource}`;
}


function conditionLines(file: string, name: string, conditions: { type: string; status: string; reason?: string; message?: string; lastTransitionTime?: EpochMs }[]): SourceLine[] {
  return conditions.map((c) => {
    const l: SourceLine = { file, text: `${name} ${c.type}=${c.status} ${c.reason ?? ''}: ${c.message ?? ''}`.replace(/\s+:/, ':') };
    if (c.lastTransitionTime !== undefined) l.time = c.lastTransitionTime;
    return l;
  });
}

/** Lines for a resource source, in the shapes rules/README.md documents. */
function resourceLines(bundle: Bundle, name: ResourceName): SourceLine[] | undefined {
  const c = bundle.cluster;
  if (!c) return undefined;
  switch (name) {
    case 'events':
      return c.events?.map((e) => {
        const l: SourceLine = { file: e.source.file, text: `${e.reason ?? ''}: ${e.message ?? ''}` };
        if (e.lastTime !== undefined) l.time = e.lastTime;
        if (e.object) l.host = e.object;
        return l;
      });
    case 'clusteroperators':
      return c.clusterOperators?.flatMap((o) => conditionLines(o.source.file, o.name, o.conditions));
    case 'nodes':
      return c.nodes?.flatMap((n) => conditionLines(n.source.file, n.name, n.conditions).map((l) => ({ ...l, host: n.name })));
    case 'pods':
      return c.pods?.flatMap((p) =>
        p.containers
          .filter((s) => s.waitingReason || s.terminatedReason || s.lastTerminatedReason)
          .map((s) => ({
            file: p.source.file,
            text: s.waitingReason
              ? `${p.namespace}/${p.name} ${s.name} waiting ${s.waitingReason}: ${s.waitingMessage ?? ''}`
              : `${p.namespace}/${p.name} ${s.name} terminated ${s.terminatedReason ?? s.lastTerminatedReason}: exit ${s.lastExitCode ?? ''}`,
            ...(p.node ? { host: p.node } : {}),
          })),
      );
    case 'csrs':
      return c.csrs?.map((r) => {
        const l: SourceLine = { file: r.source.file, text: `${r.name} ${r.state} ${r.requestor ?? ''}`.trim() };
        if (r.created !== undefined) l.time = r.created;
        return l;
      });
  }
}

/** Resolves a rule source to what the bundle holds; an empty list means the source is missing. */
export function resolveSource(bundle: Bundle, source: RuleSource): SourceInstance[] {
  const out: SourceInstance[] = [];
  if ('resource' in source) {
    const lines = resourceLines(bundle, source.resource);
    if (lines) out.push({ label: `resources/${source.resource}`, lines });
    return out;
  }
  if (isLogSource(source)) {
    for (const log of bundleLogs(bundle)) {
      if (!sourceAppliesTo(source, log.sourceId)) continue;
      const instance: SourceInstance = { label: log.source.file, log };
      if (log.sourceId.host) instance.host = logHost(log);
      out.push(instance);
    }
    return out;
  }
  for (const h of bundleHosts(bundle).filter((x) => hostOk('host' in source ? source.host : undefined, x.role))) {
    const host = hostName(h);
    if ('service' in source) {
      const re = globToRegExp(source.service);
      for (const [name, record] of Object.entries(h.serviceRecords)) {
        if (!re.test(name)) continue;
        const run = record.runs[record.runs.length - 1];
        const lines: SourceLine[] = [];
        for (const st of run?.stages ?? []) {
          if (source.stage && st.name !== source.stage) continue;
          for (const text of (st.errorMessage ?? '').split('\n').filter((t) => t.trim())) {
            const l: SourceLine = { file: st.source.file, text, host };
            if (st.source.line !== undefined) l.line = st.source.line;
            if (st.end !== undefined) l.time = st.end;
            lines.push(l);
          }
        }
        out.push({ label: record.source.file, host, lines });
      }
    }
  }
  return out;
}

/** The kept lines of a streamed log as SourceLines. */
export function matchedLines(log: LogSummary, host: string | undefined): SourceLine[] {
  return log.matched.map((m: MatchedLine<LogLine>) => {
    const l: SourceLine = { file: log.source.file, line: m.entry.line, text: m.entry.raw ?? m.entry.text, filterIds: m.filterIds, before: m.before, after: m.after };
    if (m.entry.time !== undefined) l.time = m.entry.time;
    if (m.entry.monotonic !== undefined) l.monotonic = m.entry.monotonic;
    if (host) l.host = host;
    return l;
  });
}
