// The sources a rule reads, named logically (a journal unit, a container, the installer log,
// service records, resources), resolved through the one source vocabulary (model/source-id.ts):
// the same test decides which logs a rule's filters read and which logs it is given.
import type { Bundle, EpochMs, HostRole, HostSelector, LogLine, LogSummary, MatchedLine, SourceId } from '../model/types.js';
import { bundleHosts, bundleLogs, hostName, logHost } from '../model/walk.js';
import { pathOf, resourceFilePath, serviceRecordPath } from '../specs/layout.js';
import { CONTROL_PLANE_CONTAINER } from '../model/source-id.js';
import { globToRegExp } from '../util/glob.js';

export { hostName } from '../model/walk.js';

export type HostScope = 'bootstrap' | 'master' | 'any';
export type LogName = 'installer' | 'gather' | 'serial' | 'clusterapi' | 'control-plane';
/** The resources a YAML rule reads as lines. */
export type ResourceName = 'events' | 'clusteroperators' | 'nodes' | 'pods' | 'csrs';
/** Every resource list the reader parses; TypeScript rules also read those that have no line form. */
export type ResourceKind = ResourceName | 'machineconfigpools' | 'machines' | 'clusterversion';

export type RuleSource =
  | { journal: string; host?: HostScope }
  | { 'unit-status': string; host?: HostScope }
  | { container: string; host?: HostScope }
  | { log: LogName; host?: HostScope }
  | { service: string; stage?: string; host?: HostScope }
  | { resource: ResourceName };

/**
 * A source a TypeScript rule declares as its input: what YAML rules name, plus the structured
 * sources only code reads (the resource lists without a line form, `crictl`/`podman inspect`
 * output, `etcdctl` output, rendered certificates).
 */
export type RuleInput =
  | RuleSource
  | { resource: ResourceKind }
  | { inspect: string; host?: HostScope }
  | { etcd: 'member-list' | 'endpoint-health'; host?: HostScope }
  | { rendered: 'certificates' };

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

/** The rule sources that name a streamed log (not service records or resources). */
export type LogSource = Exclude<RuleSource, { service: string } | { resource: ResourceName }>;

function isLogSource(source: RuleInput): source is LogSource {
  return 'journal' in source || 'unit-status' in source || 'container' in source || 'log' in source;
}

/** A glob made concrete: every wildcard becomes `x`. */
function concrete(glob: string): string {
  return glob.replace(/[*?]/g, 'x');
}

/** The master examples are written for. */
const EXAMPLE_MASTER = '10.0.0.5';

/** A log the rule source applies to (the reverse of `sourceAppliesTo`): globs made concrete unless a unit or container is named. */
export function exampleSource(source: LogSource, named: ExampleNames): SourceId {
  const role = named.host ?? ('host' in source && source.host === 'master' ? 'master' : 'bootstrap');
  const host: SourceId['host'] = role === 'master' ? { role: 'master', address: EXAMPLE_MASTER } : { role: 'bootstrap' };
  if ('journal' in source) return { kind: 'journal', host, unit: named.unit ?? concrete(source.journal) };
  if ('unit-status' in source) return { kind: 'unit-status-journal', host, unit: named.unit ?? concrete(source['unit-status']) };
  if ('container' in source) return { kind: 'container', host, runtime: 'cri-o', container: named.container ?? concrete(source.container) };
  if (source.log === 'control-plane') return { kind: 'container', host: { role: 'bootstrap' }, container: CONTROL_PLANE_CONTAINER };
  if (source.log === 'serial') return { kind: 'serial', console: 'master-0' };
  return { kind: source.log };
}

/** The unit, container or service an example names in place of its source's glob. */
export interface ExampleNames {
  unit?: string;
  container?: string;
  service?: string;
  /** The host the example's log comes from, when it says (else the source's host, else the bootstrap host). */
  host?: 'bootstrap' | 'master';
}

/**
 * Where the gather scripts write a file of the rule source, below `log-bundle-<ID>/`, for
 * writing examples: the layout's path for logs, `resources/<file>.json`, `<host>/services/<service>.json`.
 */
export function examplePath(source: RuleSource, named: ExampleNames = {}): string {
  if ('resource' in source) return resourcePath(source.resource);
  if ('service' in source) {
    const role = named.host ?? (source.host === 'master' ? 'master' : 'bootstrap');
    const host: HostSelector = role === 'master' ? { role: 'master', address: EXAMPLE_MASTER } : { role: 'bootstrap' };
    return serviceRecordPath(host, named.service ?? concrete(source.service));
  }
  return pathOf(exampleSource(source, named));
}

/** Each resource list: the file `oc get <resource> -o json` is written to below `resources/`, and where the model keeps it. */
const RESOURCES: Record<ResourceKind, { file: string; field: 'events' | 'clusterOperators' | 'nodes' | 'pods' | 'csrs' | 'machineConfigPools' | 'machines' | 'clusterVersion' }> = {
  events: { file: 'events', field: 'events' },
  clusteroperators: { file: 'clusteroperators', field: 'clusterOperators' },
  nodes: { file: 'nodes', field: 'nodes' },
  pods: { file: 'pods', field: 'pods' },
  csrs: { file: 'csr', field: 'csrs' },
  machineconfigpools: { file: 'machineconfigpools', field: 'machineConfigPools' },
  machines: { file: 'machines', field: 'machines' },
  clusterversion: { file: 'clusterversion', field: 'clusterVersion' },
};

/** Where the gather script writes a resource list, below `log-bundle-<ID>/`. */
export function resourcePath(name: ResourceKind): string {
  return resourceFilePath(RESOURCES[name].file);
}

/** A short label for a source, used in `skipped (missing: ...)`. */
export function describeSource(source: RuleInput): string {
  const scope = 'host' in source && source.host && source.host !== 'any' ? `${source.host} ` : '';
  // `*` reads as every one of a kind: `master journals`.
  if ('journal' in source) return source.journal === '*' ? `${scope}journals` : `${scope}journal ${source.journal}`;
  if ('unit-status' in source) return `${scope}unit status ${source['unit-status']}`;
  if ('container' in source) return source.container === '*' ? `${scope}containers` : `${scope}container ${source.container}`;
  if ('log' in source) return `${source.log} log`;
  if ('service' in source) return `${scope}service record ${source.service}${source.stage ? ` (${source.stage})` : ''}`;
  if ('inspect' in source) return source.inspect === '*' ? `${scope}crictl or podman inspect output` : `${scope}container inspect ${source.inspect}`;
  if ('etcd' in source) return `${scope}etcdctl ${source.etcd === 'member-list' ? 'member list' : 'endpoint health'}`;
  if ('rendered' in source) return 'rendered-assets certificates';
  // Named by file, as a reader of the bundle looks for it (`resources csr`).
  return `resources ${RESOURCES[source.resource].file}`;
}

/** Whether the bundle holds a source: the same test `resolveSource` applies, without building lines. */
export function inputPresent(bundle: Bundle, input: RuleInput): boolean {
  if ('resource' in input) return bundle.cluster?.[RESOURCES[input.resource].field] !== undefined;
  if ('rendered' in input) return (bundle.renderedAssets?.certificates.length ?? 0) > 0;
  if (isLogSource(input)) return bundleLogs(bundle).some((log) => sourceAppliesTo(input, log.sourceId));
  const hosts = bundleHosts(bundle).filter((h) => hostOk(input.host, h.role));
  if ('service' in input) {
    const re = globToRegExp(input.service);
    return hosts.some((h) => Object.keys(h.serviceRecords).some((name) => re.test(name)));
  }
  if ('inspect' in input) {
    const re = globToRegExp(input.inspect);
    return hosts.some((h) => h.containers.some((c) => c.inspectSource !== undefined && re.test(c.name ?? '')));
  }
  const kind = input.etcd === 'member-list' ? 'memberLists' : 'health';
  return hosts.some((h) => (h.etcd?.[kind].length ?? 0) > 0);
}

/** What a rule reads: any one of `anyOf` is enough to judge, and each of `allOf` is needed besides. */
export interface RuleInputs {
  anyOf: readonly RuleInput[];
  allOf?: readonly RuleInput[];
}

/**
 * The labels of the inputs a rule lacks, undefined when it can run: every one of `anyOf` when
 * none is present (a rule that declares none reads whatever there is), and each absent `allOf`.
 */
export function missingInputs(bundle: Bundle, inputs: RuleInputs): string[] | undefined {
  const missing: string[] = [];
  if (inputs.anyOf.length > 0 && !inputs.anyOf.some((i) => inputPresent(bundle, i))) missing.push(...inputs.anyOf.map(describeSource));
  for (const i of inputs.allOf ?? []) if (!inputPresent(bundle, i)) missing.push(describeSource(i));
  return missing.length > 0 ? missing : undefined;
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

/** A log's matched lines as SourceLines (for one host label), and which of them each filter kept. */
interface MatchedIndex {
  lines: readonly SourceLine[];
  byFilter: Map<string, number[]>;
}

const MATCHED = new WeakMap<LogSummary, Map<string | undefined, MatchedIndex>>();

function matchedIndex(log: LogSummary, host: string | undefined): MatchedIndex {
  let byHost = MATCHED.get(log);
  if (!byHost) MATCHED.set(log, (byHost = new Map()));
  let index = byHost.get(host);
  if (!index) {
    // Shared by every rule that reads the log: frozen, like the model they come from.
    const lines = matchedLines(log, host).map((l) => Object.freeze(l));
    const byFilter = new Map<string, number[]>();
    lines.forEach((l, i) => {
      for (const id of l.filterIds ?? []) {
        const at = byFilter.get(id);
        if (at) at.push(i);
        else byFilter.set(id, [i]);
      }
    });
    index = { lines, byFilter };
    byHost.set(host, index);
  }
  return index;
}

/**
 * The matched lines of a streamed log that one of `filterIds` kept, in the log's order. A rule
 * is shown the lines its own filters kept, not every line every rule's filters kept (hundreds of
 * rules read the same journals); each line is made once per log.
 */
export function matchedLinesOf(log: LogSummary, host: string | undefined, filterIds: readonly string[]): readonly SourceLine[] {
  const index = matchedIndex(log, host);
  const at = new Set<number>();
  for (const id of filterIds) for (const i of index.byFilter.get(id) ?? []) at.add(i);
  return [...at].sort((a, b) => a - b).map((i) => index.lines[i]);
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
