// The source registry: one row per kind of file a log bundle holds, as installer-gather.sh and
// installer-masters-gather.sh write it. A row says where the file is (its path patterns), how
// it is read (streamed line by line, read once whole, or only listed), its parser, where the
// model keeps it, how rules name it and how reports label it, and (for logs) the stage its
// lines speak of. Path classification (layout.ts), the reader's dispatch (ingest/read-bundle.ts),
// a rule's declared inputs and its missing-input reasons (rules/sources.ts), example and corpus
// paths are lookups over these rows. A new file of the bundle is one row here and one parser.
import type {
  Bundle,
  CertificateInfo,
  ClusterResources,
  Container,
  ContainerRuntime,
  EpochMs,
  GatherLog,
  Host,
  HostSelector,
  InstallConfigFacts,
  InstallerLog,
  Journal,
  LogSummary,
  NetworkInfo,
  ServiceRecord,
  SourceRef,
  StaticPod,
} from '../model/types.js';
import { CONTROL_PLANE_CONTAINER, type LogKind, type SourceId } from '../model/source-id.js';
import { hostName } from '../model/walk.js';
import { parseCertificates } from '../parsers/certificates.js';
import { parseCrictlInspect, parsePodmanInspect } from '../parsers/container-inspect.js';
import { parseEtcdEndpointHealth, parseEtcdMemberList, sniffEtcdctlOutput } from '../parsers/etcdctl.js';
import { createGatherLogScanner } from '../parsers/gather-log.js';
import { createInstallerLogScanner } from '../parsers/installer-log.js';
import {
  classifyResourceText,
  parseApiServices,
  parseClusterOperators,
  parseClusterVersion,
  parseCsrs,
  parseEvents,
  parseMachineConfigPools,
  parseMachines,
  parseNameList,
  parseNodes,
  parsePods,
} from '../parsers/kube-resources.js';
import { parseHostname, parseHosts, parseIpAddr, parseIpRoute, parseResolvConf } from '../parsers/network.js';
import { parsed, type Parsed } from '../parsers/parsed.js';
import { parseServiceRecords } from '../parsers/service-records.js';
import { parseStaticPods } from '../parsers/static-pod.js';
import { mayHoldInstallConfig, parseInstallConfig } from '../parsers/install-config.js';
import type { YamlLimits } from '../parsers/yaml-document.js';
import { parseFailedUnits, parseUnitStatus } from '../parsers/systemd.js';
import type { StageId } from '../taxonomy.js';
import { pushAll } from '../util/arrays.js';
import { compileGlob } from '../util/glob.js';
import { containerStage, unitStage } from './unit-stage.js';

// ------------------------------------------------------------------ what a row is

/** The kinds of source a classified path is (several rows may share one: each resource list is a `resource-json`). */
export const SOURCE_KINDS = [
  'installer-log',
  'gather-log',
  'failed-units',
  'unit-status',
  'unit-status-journal',
  'journal',
  'service-record',
  'network',
  'control-plane-log',
  'container-log',
  'container-inspect',
  'etcd-output',
  'resource-list',
  'resource-json',
  'resource-other',
  'rendered-manifest',
  'rendered-certificate',
  'rendered-other',
  'serial-log',
  'clusterapi-log',
] as const;

export type SourceKind = (typeof SOURCE_KINDS)[number];

export type NetworkFile = 'ip-addr' | 'ip-route' | 'hostname' | 'resolv.conf' | 'hosts';

/** One file as the layout recognised it: its kind and the names its path gave. */
export interface SourceSpec {
  kind: SourceKind;
  /** The host a host's file belongs to (`bootstrap/`, a root file of the bootstrap host, or `control-plane/<address>/`). */
  host?: HostSelector;
  /** Journals and unit status: the unit, without `.service`. */
  unit?: string;
  /** Service records: the service (`bootkube` for `bootkube.json`). */
  service?: string;
  /** Containers: who ran it, its id, and its name when the file name gives one. */
  runtime?: ContainerRuntime;
  id?: string;
  /** A container's name; a resource file's name (`csr` for `resources/csr.json`). */
  name?: string;
  /** Network files: which one. */
  file?: NetworkFile;
  /** Serial consoles: the machine, from the file name. */
  console?: string;
}

/**
 * A path as the gather scripts write it, below `log-bundle-<ID>/`. `{host}` is `bootstrap` or
 * `control-plane/<address>` (a host-scoped row's pattern without it is the bootstrap host's);
 * `{id}` is a container id (12-64 hex digits); any other `{name}` is part of one path segment
 * and becomes that field of the spec; `**` is any number of folders. `with` gives the spec
 * fields this path implies (`runtime: 'podman'` for `pods/`).
 */
export type PathPattern = string | { path: string; with: Partial<SourceSpec> };

/** How rules name sources: `{ journal: 'bootkube' }`, `{ log: 'gather' }`, `{ resource: 'nodes' }`. */
export type RuleKey = 'journal' | 'unit-status' | 'container' | 'log' | 'service' | 'resource' | 'inspect' | 'etcd' | 'rendered';

export type HostScope = 'bootstrap' | 'master' | 'any';

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

/** One concrete log or record set a rule source resolved to. */
export interface SourceInstance {
  label: string;
  host?: string;
  /** Streamed logs: the summary, whose matched lines carry filter ids. */
  log?: LogSummary;
  /** Structured sources: every line, built here. */
  lines?: SourceLine[];
}

/** What a rule asks of a source: the name it gives, the host scope, a service-record stage. */
export interface SourceRequest {
  /** The glob or the fixed name given with the row's rule key. */
  value: string;
  host?: HostScope;
  stage?: string;
}

/** How rules read a row: its name, label, and what the bundle holds of it. */
export interface RuleView<I = unknown> {
  key: RuleKey;
  /** The names rules give it (`gather` for `{ log: gather }`); none when the value is a glob over units, containers or services. */
  values?: readonly string[];
  /** `host:` narrows it to the bootstrap host or the masters. */
  hostScoped: boolean;
  /** Its label in `skipped (missing: ...)` and reports, the host scope aside (`journal bootkube`, `resources csr`). */
  label(request: SourceRequest): string;
  /** What the bundle holds of it: the logs, records or lists the request names (empty: it is missing). */
  find(bundle: Bundle, request: SourceRequest, hosts: readonly Host[]): readonly I[];
  /** Its line form for YAML rules (structured sources; a streamed log's lines are its filters' matches). */
  instance?(item: I, request: SourceRequest): SourceInstance;
}

/** Where the reader puts what it read: the model as it is being built. */
export interface ModelSink {
  host(sel: HostSelector): Host;
  network(sel: HostSelector): NetworkInfo;
  container(sel: HostSelector, runtime: ContainerRuntime, id: string, name?: string): Container;
  clusterResources(): ClusterResources;
  readonly serialLogs: LogSummary[];
  readonly clusterApiLogs: LogSummary[];
  gatherLog: GatherLog | undefined;
  installerLog: InstallerLog | undefined;
  readonly renderedFiles: string[];
  readonly certificates: CertificateInfo[];
  /** The first rendered install config read. */
  installConfig: InstallConfigFacts | undefined;
}

/** What a parser of a whole file is given besides its text. */
export interface ParseContext {
  spec: SourceSpec;
  source: SourceRef;
  /** The bundle's clock, for year-less times. */
  referenceTime: number | undefined;
  /** What a YAML file may expand to once its aliases are followed (the reader's `--max-yaml-bytes`, `--max-yaml-nodes`). */
  yamlLimits?: YamlLimits;
}

/** A line-by-line scanner that gathers facts while a log streams past (the installer's, the gather log's). */
export interface LogScanner<F> {
  scan(raw: string, line: number): unknown;
  facts(): F;
}

interface RowBase {
  /** Unique among the rows; names the row in tests and docs. */
  id: string;
  kind: SourceKind;
  /** Where the gather scripts write it; the first pattern a source's names fill is where examples are written. */
  paths: readonly PathPattern[];
  /** Spec fields every path of the row gives. */
  fixed?: Partial<SourceSpec>;
  /** The files of a host (`bootstrap/`, `control-plane/<address>/`): the spec names the host. */
  hostScoped?: boolean;
  /** Which of the files the patterns match are this row's, by the last segment (`{file}`). */
  accept?(file: string): boolean;
  /** Spec fields made from the path's names (`console` of a serial log from its file name). */
  spec?(names: Readonly<Record<string, string>>): Partial<SourceSpec>;
  /** Where an example of it is written when no pattern fits (a pattern with `**` or a made-up file name). */
  write?: string;
  rule?: RuleView;
}

/** A log read as it streams: only a bounded summary and the lines filters ask for are kept. */
export interface StreamRow extends RowBase {
  read: 'stream';
  /** `journal`: journalctl's text (headers, boots, systemd's lines); `plain`: klog, logfmt, JSON or plain lines. */
  lines: 'journal' | 'plain';
  /** The log's kind as sources name it (`container` for container logs of any runtime). */
  logKind: LogKind;
  /** Which log a file is. */
  log(spec: SourceSpec): SourceId;
  /** Whether a log of `logKind` is this row's (the control plane's folder and other containers share a kind). */
  owns?(id: SourceId): boolean;
  /** The stage its lines speak of by default (their own words may say better: source-stage.ts). */
  stage(id: SourceId): StageId | undefined;
  scanner?(): LogScanner<unknown>;
  store(model: ModelSink, spec: SourceSpec, log: LogSummary, facts: unknown): void;
}

/** A file parsed whole. */
export interface OnceRow<T = unknown> extends RowBase {
  read: 'once';
  /** JSON and YAML are checked against the structured limits before they are parsed. */
  format: 'json' | 'yaml' | 'text' | ((text: string) => 'json' | 'text');
  parse(text: string, ctx: ParseContext): Parsed<T>;
  store(model: ModelSink, spec: SourceSpec, value: T, ctx: ParseContext): void;
  /** Called for every file of the row that was read, before the limits and the parser. */
  seen?(model: ModelSink, spec: SourceSpec, file: string): void;
}

/** A file recognised but not parsed. */
export interface ListedRow extends RowBase {
  read: 'listed';
  seen?(model: ModelSink, spec: SourceSpec, file: string): void;
}

export type SourceRow = StreamRow | OnceRow | ListedRow;

/** Types a row of a file parsed whole, so its parser and its store agree on the value. */
function once<T>(row: OnceRow<T>): OnceRow {
  return row;
}

// ------------------------------------------------------------------ rules' view, shared pieces

/** Whether a host's role is within a rule's `host:` scope (none or `any`: every host). */
export function hostInScope(scope: HostScope | undefined, role: Host['role'] | undefined): boolean {
  return !scope || scope === 'any' || scope === role;
}

/** The host of a host's file (the layout gives every host-scoped spec one). */
function hostOf(spec: SourceSpec): HostSelector {
  return spec.host ?? { role: 'bootstrap' };
}

/** A streamed row's scanner and where the facts it gathered go. */
function scanned<F>(scanner: () => LogScanner<F>, store: (model: ModelSink, log: LogSummary, facts: F) => void): Pick<StreamRow, 'scanner' | 'store'> {
  return { scanner, store: (model, _spec, log, facts) => store(model, log, facts as F) };
}

/** `*` reads as every one of a kind (`master journals`), a name as itself (`journal bootkube`). */
function named(one: string, all: string): (r: SourceRequest) => string {
  return (r) => (r.value === '*' ? all : `${one} ${r.value}`);
}

/** Whether a log is one a rule's request for a streamed row names. */
export function logMatches(row: StreamRow, request: SourceRequest, id: SourceId): boolean {
  if (id.kind !== row.logKind || (row.owns && !row.owns(id))) return false;
  if (row.rule?.values) return true;
  return hostInScope(request.host, id.host?.role) && compileGlob(request.value).test(id.unit ?? id.container ?? '');
}

/** A streamed row's view for rules: a fixed `value` (`{ log: gather }`), or a glob over units or containers. */
function logView<const V extends string>(key: RuleKey, label: (r: SourceRequest) => string, value?: V): RuleView<LogSummary> & { values?: readonly [V] } {
  const view: RuleView<LogSummary> & { values?: readonly [V] } = { key, hostScoped: value === undefined, label, find: () => [] };
  if (value !== undefined) view.values = [value];
  return view;
}

/** A streamed row; rules find its logs among `logs(bundle)` by `logMatches`. */
function stream<R extends Omit<StreamRow, 'read'>>(row: R, logs: (bundle: Bundle) => readonly LogSummary[]): R & StreamRow {
  const r = { ...row, read: 'stream' as const };
  if (r.rule) r.rule = { ...r.rule, find: (bundle: Bundle, request: SourceRequest) => logs(bundle).filter((l) => logMatches(r, request, l.sourceId)) };
  return r;
}

/** Every log of a host in a bundle, by its slot (for the rows' `find`). */
function hostLogs(bundle: Bundle, pick: (h: Host) => readonly LogSummary[]): LogSummary[] {
  return [...(bundle.bootstrap ? [bundle.bootstrap] : []), ...bundle.masters].flatMap(pick);
}

// ------------------------------------------------------------------ resource lists

/** `oc get <resource> -o json` written to `resources/<file>.json`, as installer-gather.sh queues it. */
interface ResourceRowSpec<R extends string, T> {
  /** The name rules give it (`{ resource: csrs }`). */
  rule: R;
  /** The file name below `resources/`, without `.json`. */
  file: string;
  parse(json: unknown, source: SourceRef): Parsed<T[]>;
  /** Where the model keeps it. */
  slot: { [K in keyof ClusterResources]-?: ClusterResources[K] extends T[] | undefined ? K : never }[keyof ClusterResources];
  /** Its line form for YAML rules, in the shapes rules/README.md documents. */
  lines?(items: readonly T[]): SourceLine[];
}

/** A resource list's row: the file's state is recorded whatever it holds, its items when it parses. */
function resource<const R extends string, T>(r: ResourceRowSpec<R, T>): OnceRow & { rule: RuleView & { values: readonly [R] } } {
  const row = once<{ status: ReturnType<typeof classifyResourceText>['status']; items?: T[] }>({
    id: `resource.${r.rule}`,
    kind: 'resource-json',
    paths: [`resources/${r.file}.json`],
    fixed: { name: r.file },
    read: 'once',
    format: 'json',
    parse(text, ctx) {
      const { status, json } = classifyResourceText(text, ctx.source, r.file);
      if (status.status !== 'ok' || json === undefined) return parsed({ status });
      const items = r.parse(json, ctx.source);
      return parsed({ status, items: items.value }, items.problems);
    },
    store(model, _spec, value) {
      const cluster = model.clusterResources();
      cluster.files.push(value.status);
      if (value.items) Object.assign(cluster, { [r.slot]: value.items });
    },
  });
  const list = (bundle: Bundle): T[] | undefined => bundle.cluster?.[r.slot] as T[] | undefined;
  const view: RuleView<T[]> = {
    key: 'resource',
    values: [r.rule],
    hostScoped: false,
    // Named by file, as a reader of the bundle looks for it (`resources csr`).
    label: () => `resources ${r.file}`,
    find: (bundle) => {
      const items = list(bundle);
      return items === undefined ? [] : [items];
    },
  };
  const lines = r.lines;
  if (lines) view.instance = (items) => ({ label: `resources/${r.rule}`, lines: lines(items) });
  return { ...row, rule: view as RuleView & { values: readonly [R] } };
}

// The first run of white space before a colon (`Degraded=True : x` after an empty reason). The
// lookbehind lets a match start only where a run starts: `/\s+:/` retried every start of a run.
const SPACE_BEFORE_COLON = /(?<!\s)\s+:/;

function conditionLines(file: string, name: string, conditions: { type: string; status: string; reason?: string; message?: string; lastTransitionTime?: EpochMs }[]): SourceLine[] {
  return conditions.map((c) => {
    const l: SourceLine = { file, text: `${name} ${c.type}=${c.status} ${c.reason ?? ''}: ${c.message ?? ''}`.replace(SPACE_BEFORE_COLON, ':') };
    if (c.lastTransitionTime !== undefined) l.time = c.lastTransitionTime;
    return l;
  });
}

/** The resource lists bootlens parses, one row each. */
export const RESOURCE_ROWS = [
  resource({
    rule: 'events',
    file: 'events',
    parse: parseEvents,
    slot: 'events',
    lines: (events) =>
      events.map((e) => {
        const l: SourceLine = { file: e.source.file, text: `${e.reason ?? ''}: ${e.message ?? ''}` };
        if (e.lastTime !== undefined) l.time = e.lastTime;
        if (e.object) l.host = e.object;
        return l;
      }),
  }),
  resource({
    rule: 'clusteroperators',
    file: 'clusteroperators',
    parse: parseClusterOperators,
    slot: 'clusterOperators',
    lines: (operators) => operators.flatMap((o) => conditionLines(o.source.file, o.name, o.conditions)),
  }),
  resource({
    rule: 'nodes',
    file: 'nodes',
    parse: parseNodes,
    slot: 'nodes',
    lines: (nodes) => nodes.flatMap((n) => conditionLines(n.source.file, n.name, n.conditions).map((l) => ({ ...l, host: n.name }))),
  }),
  resource({
    rule: 'pods',
    file: 'pods',
    parse: parsePods,
    slot: 'pods',
    lines: (pods) =>
      pods.flatMap((p) =>
        p.containers
          .filter((s) => s.waitingReason || s.terminatedReason || s.lastTerminatedReason)
          .map((s) => ({
            file: p.source.file,
            text: s.waitingReason
              ? `${p.namespace}/${p.name} ${s.name} waiting ${s.waitingReason}: ${s.waitingMessage ?? ''}`
              : `${p.namespace}/${p.name} ${s.name} terminated ${s.terminatedReason ?? s.lastTerminatedReason}: exit ${s.lastExitCode ?? ''}`,
            ...(p.node ? { host: p.node } : {}),
          })),
      ),
  }),
  resource({
    rule: 'csrs',
    file: 'csr',
    parse: parseCsrs,
    slot: 'csrs',
    lines: (csrs) =>
      csrs.map((r) => {
        const l: SourceLine = { file: r.source.file, text: `${r.name} ${r.state} ${r.requestor ?? ''}`.trim() };
        if (r.created !== undefined) l.time = r.created;
        return l;
      }),
  }),
  resource({ rule: 'machineconfigpools', file: 'machineconfigpools', parse: parseMachineConfigPools, slot: 'machineConfigPools' }),
  resource({ rule: 'machines', file: 'machines', parse: parseMachines, slot: 'machines' }),
  resource({ rule: 'clusterversion', file: 'clusterversion', parse: parseClusterVersion, slot: 'clusterVersion' }),
  resource({ rule: 'apiservices', file: 'apiservices', parse: parseApiServices, slot: 'apiServices' }),
] as const;

/** Every resource list rules may declare. */
export type ResourceKind = (typeof RESOURCE_ROWS)[number]['rule']['values'][0];

// ------------------------------------------------------------------ logs

const installerLog = stream(
  {
    id: 'installer-log',
    kind: 'installer-log',
    // Found by name anywhere (and by content when named otherwise: the reader sniffs it).
    paths: ['**/{file}'],
    accept: (file) => file === '.openshift_install.log' || /^\.?openshift[_-]install.*\.log$/.test(file),
    write: '.openshift_install.log',
    lines: 'plain',
    logKind: 'installer',
    log: () => ({ kind: 'installer' }),
    stage: () => undefined,
    ...scanned(createInstallerLogScanner, (model, log, facts) => void (model.installerLog = { ...log, kind: 'installer', ...facts })),
    rule: logView('log', () => 'installer log', 'installer'),
  },
  (b) => (b.installerLog ? [b.installerLog] : []),
);

const gatherLog = stream(
  {
    id: 'gather-log',
    kind: 'gather-log',
    paths: ['gather.log'],
    lines: 'plain',
    logKind: 'gather',
    log: () => ({ kind: 'gather' }),
    // The gather runs when the masters did not come up: what it could not reach speaks of them.
    stage: () => 'masters-provision',
    ...scanned(createGatherLogScanner, (model, log, facts) => void (model.gatherLog = { ...log, kind: 'gather', ...facts })),
    rule: logView('log', () => 'gather log', 'gather'),
  },
  (b) => (b.gatherLog ? [b.gatherLog] : []),
);

const unitStatusJournal = stream(
  {
    id: 'unit-status-journal',
    kind: 'unit-status-journal',
    hostScoped: true,
    // `journalctl -u <unit>.service` of each failed unit: the bootstrap host's at the bundle's root.
    paths: ['unit-status/{unit}.service.log', 'unit-status/{unit}.log', '{host}/unit-status/{unit}.service.log', '{host}/unit-status/{unit}.log'],
    spec: ({ unit }) => ({ unit: unit.replace(/\.service$/, '') }),
    lines: 'journal',
    logKind: 'unit-status-journal',
    log: (s) => ({ kind: 'unit-status-journal', host: hostOf(s), unit: (s.unit ?? '') }),
    stage: unitStage,
    store: (model, s, log) => void (model.host(hostOf(s)).unitJournals[s.unit ?? ''] = log as Journal),
    rule: logView('unit-status', (r) => `unit status ${r.value}`),
  },
  (b) => hostLogs(b, (h) => Object.values(h.unitJournals)),
);

const journal = stream(
  {
    id: 'journal',
    kind: 'journal',
    hostScoped: true,
    paths: ['{host}/journals/{unit}.log'],
    lines: 'journal',
    logKind: 'journal',
    log: (s) => ({ kind: 'journal', host: hostOf(s), unit: (s.unit ?? '') }),
    stage: unitStage,
    store: (model, s, log) => void (model.host(hostOf(s)).journals[s.unit ?? ''] = log as Journal),
    rule: logView('journal', named('journal', 'journals')),
  },
  (b) => hostLogs(b, (h) => Object.values(h.journals)),
);

const controlPlaneLog = stream(
  {
    id: 'control-plane-log',
    kind: 'control-plane-log',
    hostScoped: true,
    // `cp -r /var/log/bootstrap-control-plane/` into the containers folder.
    paths: ['{host}/containers/bootstrap-control-plane/**/{file}'],
    write: '{host}/containers/bootstrap-control-plane/kube-apiserver.log',
    lines: 'plain',
    logKind: 'container',
    owns: (id) => id.container === CONTROL_PLANE_CONTAINER,
    log: (s) => ({ kind: 'container', host: hostOf(s), container: CONTROL_PLANE_CONTAINER, runtime: 'cri-o' }),
    stage: containerStage,
    store: (model, s, log) => void model.host(hostOf(s)).controlPlaneLogs.push(log),
    rule: logView('log', () => 'control-plane log', 'control-plane'),
  },
  (b) => hostLogs(b, (h) => h.controlPlaneLogs),
);

// `crictl logs` as `<name>-<id>.log`; `podman logs` as `<id>.log` (older) or `<name>-<id>.log`.
const CONTAINER_FILES = (ext: string): PathPattern[] => [
  { path: `{host}/containers/{name}-{id}.${ext}`, with: { runtime: 'cri-o' } },
  { path: `{host}/pods/{name}-{id}.${ext}`, with: { runtime: 'podman' } },
  { path: `{host}/pods/{id}.${ext}`, with: { runtime: 'podman' } },
  // A bare id is a podman container: crictl files always carry the container's name.
  { path: `{host}/containers/{id}.${ext}`, with: { runtime: 'podman' } },
];

const containerLog = stream(
  {
    id: 'container-log',
    kind: 'container-log',
    hostScoped: true,
    paths: CONTAINER_FILES('log'),
    lines: 'plain',
    logKind: 'container',
    owns: (id) => id.container !== CONTROL_PLANE_CONTAINER,
    log: (s) => ({ kind: 'container', host: hostOf(s), runtime: (s.runtime ?? 'cri-o'), ...(s.name ? { container: s.name } : {}) }),
    stage: containerStage,
    store: (model, s, log) => void (model.container(hostOf(s), (s.runtime ?? 'cri-o'), (s.id ?? ''), s.name).log = log),
    rule: logView('container', named('container', 'containers')),
  },
  (b) => hostLogs(b, (h) => h.containers.flatMap((c) => (c.log ? [c.log] : []))),
);

const serialLog = stream(
  {
    id: 'serial-log',
    kind: 'serial-log',
    // The installer's serial-log bundle, folded in as `serial/`.
    paths: ['serial/**/{file}'],
    spec: ({ file }) => ({ console: file.replace(/\.(log|txt)$/, '').replace(/[-_.]?serial(-console)?$/i, '') || file }),
    write: 'serial/{console}-serial.log',
    lines: 'plain',
    logKind: 'serial',
    log: (s) => ({ kind: 'serial', console: s.console ?? '' }),
    // A serial console shows a machine that did not boot: the bootstrap host's comes first.
    stage: (id) => (/bootstrap/i.test(id.console ?? '') ? 'release-image' : 'masters-provision'),
    store: (model, _s, log) => void model.serialLogs.push(log),
    rule: logView('log', () => 'serial log', 'serial'),
  },
  (b) => b.serialLogs,
);

const clusterApiLog = stream(
  {
    id: 'clusterapi-log',
    kind: 'clusterapi-log',
    paths: ['clusterapi/**/{file}'],
    accept: (file) => file.endsWith('.log'),
    write: 'clusterapi/kube-apiserver.log',
    lines: 'plain',
    logKind: 'clusterapi',
    log: () => ({ kind: 'clusterapi' }),
    stage: () => 'masters-provision',
    store: (model, _s, log) => void model.clusterApiLogs.push(log),
    rule: logView('log', () => 'clusterapi log', 'clusterapi'),
  },
  (b) => b.clusterApiLogs,
);

// ------------------------------------------------------------------ files of a host

function wrap<T, U>(p: Parsed<T>, f: (value: T) => U): Parsed<U> {
  return parsed(f(p.value), p.problems);
}

/** A network file's row: its parser's value goes into the host's network facts. */
function network<T>(file: NetworkFile, names: string[], parse: (text: string) => Parsed<T>, fill: (net: NetworkInfo, value: T) => void): OnceRow {
  return once<T>({
    id: `network.${file}`,
    kind: 'network',
    hostScoped: true,
    paths: names.map((n) => `{host}/network/${n}`),
    fixed: { file },
    read: 'once',
    format: 'text',
    parse: (text) => parse(text),
    store(model, spec, value, ctx) {
      const net = model.network(hostOf(spec));
      net.sources.push(ctx.source);
      fill(net, value);
    },
  });
}

/** `ip addr`, `ip route`, `hostname`, `/etc/resolv.conf` and `/etc/hosts` of a host, one row each. */
const networkRows: OnceRow[] = [
  network('ip-addr', ['ip-addr.txt'], parseIpAddr, (net, v) => pushAll(net.interfaces, v)),
  network('ip-route', ['ip-route.txt'], parseIpRoute, (net, v) => pushAll(net.routes, v)),
  network('hostname', ['hostname.txt'], parseHostname, (net, v) => void (v ? (net.hostname = v) : undefined)),
  network('resolv.conf', ['resolv.conf'], parseResolvConf, (net, v) => {
    pushAll(net.nameservers, v.nameservers);
    pushAll(net.searchDomains, v.searchDomains);
  }),
  network('hosts', ['hosts', 'hosts.txt'], parseHosts, (net, v) => pushAll(net.hosts, v)),
];

/** etcdctl's output: `etcdctl member list` or `endpoint health`, told apart by its text. */
function isEtcdOutput(file: string): boolean {
  const f = file.toLowerCase();
  return f.includes('etcd') && /member|endpoint|health/.test(f) && !f.endsWith('.inspect');
}

type EtcdOutput = { memberList?: ReturnType<typeof parseEtcdMemberList>['value']; health?: ReturnType<typeof parseEtcdEndpointHealth>['value'] };

const etcdOutput = once<EtcdOutput | undefined>({
  id: 'etcd-output',
  kind: 'etcd-output',
  hostScoped: true,
  // Wherever a release or a hand-run gather put it in a host's folder, by its name.
  paths: ['{host}/**/{file}'],
  accept: isEtcdOutput,
  write: '{host}/etcd-member-list.txt',
  read: 'once',
  format: (text) => (/^\s*[[{]/.test(text) ? 'json' : 'text'),
  parse(text, ctx) {
    const kind = sniffEtcdctlOutput(text);
    if (kind === 'member-list') return wrap(parseEtcdMemberList(text, ctx.source), (memberList) => ({ memberList }));
    if (kind === 'endpoint-health') return wrap(parseEtcdEndpointHealth(text, ctx.source), (health) => ({ health }));
    return parsed(undefined, [{ kind: 'unparseable', message: 'not etcdctl member list or endpoint health output' }]);
  },
  store(model, spec, value) {
    const host = model.host(hostOf(spec));
    host.etcd ??= { memberLists: [], health: [] };
    if (value?.memberList) host.etcd.memberLists.push(value.memberList);
    if (value?.health) pushAll(host.etcd.health, value.health);
  },
  rule: {
    key: 'etcd',
    values: ['member-list', 'endpoint-health'],
    hostScoped: true,
    label: (r) => `etcdctl ${r.value === 'member-list' ? 'member list' : 'endpoint health'}`,
    find: (_b, r, hosts) => hosts.filter((h) => (h.etcd?.[r.value === 'member-list' ? 'memberLists' : 'health'].length ?? 0) > 0),
  },
});

/** A service record and the host it was found on. */
type HostRecord = { record: ServiceRecord; host: string };

function serviceView(view: RuleView<HostRecord>): RuleView {
  return view;
}

const serviceRecord = once({
  id: 'service-record',
  kind: 'service-record',
  hostScoped: true,
  // installer-gather.sh copies /var/log/openshift/*.json (newer releases).
  paths: ['{host}/services/{service}.json'],
  read: 'once',
  format: 'json',
  parse: (text, ctx) => parseServiceRecords(text, ctx.source, (ctx.spec.service ?? '')),
  store: (model, spec, record) => void (model.host(hostOf(spec)).serviceRecords[(spec.service ?? '')] = record),
  rule: serviceView({
    key: 'service',
    hostScoped: true,
    label: (r) => `service record ${r.value}${r.stage ? ` (${r.stage})` : ''}`,
    find: (_b, r, hosts) => hosts.flatMap((h) => Object.entries(h.serviceRecords).filter(([name]) => compileGlob(r.value).test(name)).map(([, record]) => ({ record, host: hostName(h) }))),
    instance: (item, r) => {
      // Each recorded stage's error lines, from the service's last run.
      const { record, host } = item;
      const run = record.runs[record.runs.length - 1];
      const lines: SourceLine[] = [];
      for (const st of run?.stages ?? []) {
        if (r.stage && st.name !== r.stage) continue;
        for (const text of (st.errorMessage ?? '').split('\n').filter((t) => t.trim())) {
          const l: SourceLine = { file: st.source.file, text, host };
          if (st.source.line !== undefined) l.line = st.source.line;
          if (st.end !== undefined) l.time = st.end;
          lines.push(l);
        }
      }
      return { label: record.source.file, host, lines };
    },
  }),
});

const containerInspect = once<Container[]>({
  id: 'container-inspect',
  kind: 'container-inspect',
  hostScoped: true,
  paths: CONTAINER_FILES('inspect'),
  read: 'once',
  format: 'json',
  parse: (text, ctx) =>
    ctx.spec.runtime === 'cri-o' ? wrap(parseCrictlInspect(text, ctx.source), (c) => (c ? [c] : [])) : parsePodmanInspect(text, ctx.source),
  store(model, spec, found, ctx) {
    const target = model.container(hostOf(spec), (spec.runtime ?? 'cri-o'), (spec.id ?? ''), spec.name);
    const first = found[0];
    if (!first) return;
    // The log may have come first: the inspect file adds to the container, keeping its log.
    const log = target.log;
    Object.assign(target, first, { runtime: target.runtime, id: target.id, inspectSource: ctx.source });
    if (!target.name && spec.name) target.name = spec.name;
    if (log) target.log = log;
  },
  rule: {
    key: 'inspect',
    hostScoped: true,
    label: named('container inspect', 'crictl or podman inspect output'),
    find: (_b, r, hosts) => hosts.flatMap((h) => h.containers.filter((c) => c.inspectSource !== undefined && compileGlob(r.value).test(c.name ?? ''))),
  },
});

const failedUnits = once({
  id: 'failed-units',
  kind: 'failed-units',
  hostScoped: true,
  // `systemctl list-units --state=failed`: the bootstrap host's at the bundle's root.
  paths: ['failed-units.txt', '{host}/failed-units.txt'],
  read: 'once',
  format: 'text',
  parse: (text, ctx) => parseFailedUnits(text, ctx.source),
  store(model, spec, units) {
    const host = model.host(hostOf(spec));
    pushAll(host.failedUnits, units);
    host.failedUnitsListed = true;
  },
});

const unitStatus = once({
  id: 'unit-status',
  kind: 'unit-status',
  hostScoped: true,
  // `systemctl status --full <unit>.service` of each failed unit.
  paths: ['unit-status/{unit}.service.txt', 'unit-status/{unit}.txt', '{host}/unit-status/{unit}.service.txt', '{host}/unit-status/{unit}.txt'],
  spec: ({ unit }) => ({ unit: unit.replace(/\.service$/, '') }),
  read: 'once',
  format: 'text',
  parse: (text, ctx) => parseUnitStatus(text, ctx.source, (ctx.spec.unit ?? ''), ctx.referenceTime),
  store: (model, spec, status) => void (model.host(hostOf(spec)).unitStatus[(spec.unit ?? '')] = status),
});

// ------------------------------------------------------------------ the rest of the bundle

const nameList = (file: 'nodes' | 'masters', slot: 'nodeNames' | 'masterNames'): OnceRow =>
  once({
    id: `resource-list.${file}`,
    kind: 'resource-list',
    // `oc get nodes -o jsonpath` names, one a line.
    paths: [`resources/${file}.list`],
    fixed: { name: file },
    read: 'once',
    format: 'text',
    parse: (text) => parseNameList(text),
    store: (model, _spec, names) => void (model.clusterResources()[slot] = names),
  });

/** What a rendered manifest holds that bootlens reads: static pods, or the install config. */
interface RenderedManifest {
  pods?: StaticPod[];
  installConfig?: InstallConfigFacts;
}

function parseRenderedManifest(text: string, source: SourceRef, limits: YamlLimits | undefined): Parsed<RenderedManifest | undefined> {
  if (/^kind:\s*Pod\b/m.test(text) || /"kind"\s*:\s*"Pod"/.test(text)) {
    const pods = parseStaticPods(text, source, limits);
    return parsed({ pods: pods.value }, pods.problems);
  }
  if (mayHoldInstallConfig(text)) {
    const config = parseInstallConfig(text, source, limits);
    return parsed(config.value ? { installConfig: config.value } : undefined, config.problems);
  }
  return parsed(undefined);
}

const renderedManifest = once<RenderedManifest | undefined>({
  id: 'rendered-manifest',
  kind: 'rendered-manifest',
  // The bootstrap host's /var/opt/openshift: manifests, and static pod manifests among them.
  paths: ['rendered-assets/**/{file}'],
  accept: (file) => /\.(ya?ml)$/i.test(file),
  write: 'rendered-assets/openshift/manifests/cluster-config.yaml',
  read: 'once',
  format: 'yaml',
  seen: (model, _spec, file) => void model.renderedFiles.push(file),
  parse: (text, ctx) => parseRenderedManifest(text, ctx.source, ctx.yamlLimits),
  store(model, _spec, manifest) {
    if (manifest?.pods) pushAll(model.host({ role: 'bootstrap' }).staticPods, manifest.pods);
    if (manifest?.installConfig) model.installConfig ??= manifest.installConfig;
  },
});

const renderedCertificate = once({
  id: 'rendered-certificate',
  kind: 'rendered-certificate',
  paths: ['rendered-assets/**/{file}'],
  accept: (file) => /\.(crt|pem|cert)$/i.test(file),
  write: 'rendered-assets/openshift/tls/root-ca.crt',
  read: 'once',
  format: 'text',
  seen: (model, _spec, file) => void model.renderedFiles.push(file),
  parse: (text, ctx) => parseCertificates(text, ctx.source),
  store: (model, _spec, certificates) => pushAll(model.certificates, certificates),
  rule: {
    key: 'rendered',
    values: ['certificates'],
    hostScoped: false,
    label: () => 'rendered-assets certificates',
    find: (bundle) => ((bundle.renderedAssets?.certificates.length ?? 0) > 0 ? bundle.renderedAssets?.certificates ?? [] : []),
  },
});

/**
 * Every kind of file bootlens recognises, in the order paths are matched: the first row one of
 * whose patterns matches a path (from the first folder a pattern starts with) is its row.
 */
export const BUNDLE_SOURCES: readonly SourceRow[] = [
  installerLog,
  gatherLog,
  failedUnits,
  unitStatus,
  unitStatusJournal,
  journal,
  serviceRecord,
  ...networkRows,
  controlPlaneLog,
  containerLog,
  containerInspect,
  etcdOutput,
  nameList('nodes', 'nodeNames'),
  nameList('masters', 'masterNames'),
  ...RESOURCE_ROWS,
  // The other lists installer-gather.sh writes (configmaps, endpoints, ...), recognised, not read.
  { id: 'resource-other', kind: 'resource-other', paths: ['resources/{file}'], spec: ({ file }) => ({ name: file }), write: 'resources/configmaps.json', read: 'listed' },
  renderedManifest,
  renderedCertificate,
  {
    id: 'rendered-other',
    kind: 'rendered-other',
    paths: ['rendered-assets/**/{file}'],
    write: 'rendered-assets/openshift/cvo-bootstrap.done',
    read: 'listed',
    seen: (model, _spec, file) => void model.renderedFiles.push(file),
  },
  serialLog,
  clusterApiLog,
];

/** The row of a streamed log, by its source id. */
export function logRowOf(id: SourceId): StreamRow | undefined {
  return BUNDLE_SOURCES.find((r): r is StreamRow => r.read === 'stream' && r.logKind === id.kind && (!r.owns || r.owns(id)));
}

/** The first row of a kind (the installer's output found by its content has no path to classify). */
export function rowOfKind(kind: SourceKind): SourceRow {
  const row = BUNDLE_SOURCES.find((r) => r.kind === kind);
  if (!row) throw new Error(`no source row of kind ${kind}`);
  return row;
}

/** The logs rules name with `log:` (bundle-wide ones and the bootstrap control plane's folder). */
const LOG_ROWS = [installerLog, gatherLog, serialLog, clusterApiLog, controlPlaneLog] as const;

export type LogName = NonNullable<(typeof LOG_ROWS)[number]['rule']['values']>[0];

/** The names `log:` takes, in the order rules/README.md lists them. */
export const LOG_NAMES: readonly LogName[] = LOG_ROWS.map((r) => (r.rule.values as readonly [LogName])[0]);

/** The rows rules can name, with their views. */
export const RULE_ROWS: readonly (SourceRow & { rule: RuleView })[] = BUNDLE_SOURCES.filter((r): r is SourceRow & { rule: RuleView } => r.rule !== undefined);

