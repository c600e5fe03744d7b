// Reads a bundle into the model in one streaming pass: the walker yields files, the layout
// names their source, and each source goes to its parser or to a streaming log collector.
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { peek } from '../archive/detect.js';
import { DEFAULT_READ_LIMITS, InputError, walkBundle, type BundleFile, type ProgressSink, type ReadLimits } from '../archive/walk-bundle.js';
import type { Bundle, LogLine, LogSummary, ReadProblem, SourceRef } from '../model/types.js';
import { parseCertificates } from '../parsers/certificates.js';
import { parseCrictlInspect, parsePodmanInspect } from '../parsers/container-inspect.js';
import { parseEtcdEndpointHealth, parseEtcdMemberList, sniffEtcdctlOutput } from '../parsers/etcdctl.js';
import { createGatherLogScanner } from '../parsers/gather-log.js';
import { createInstallerLogScanner, looksLikeInstallerOutput } from '../parsers/installer-log.js';
import {
  classifyResourceText,
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
import type { Parsed } from '../parsers/parsed.js';
import { parseServiceRecords } from '../parsers/service-records.js';
import { parseStaticPods } from '../parsers/static-pod.js';
import { parseFailedUnits, parseUnitStatus } from '../parsers/systemd.js';
import { settleYearlessTimes } from './content-clock.js';
import { decodeText, sniffEncoding, utf16ToUtf8 } from '../parsers/text-input.js';
import { classifyPath, logSource, type HostSelector, type SourceSpec } from '../specs/layout.js';
import type { LogRef, SourceId } from '../model/source-id.js';
import { gatherIdTime } from '../text/time.js';
import { BundleBuilder } from './bundle-builder.js';
import { DEFAULT_STRUCTURED_LIMITS, structuredRefusal, type StructuredLimits } from './structured-limits.js';
import { JournalCollector } from './journal-collector.js';
import { ActiveFilters, type LineFilter } from './line-filter.js';
import { DEFAULT_LOG_LIMITS, LogCollector, plainLineParser, type LogLimits } from './log-collector.js';
import { LogStream } from './log-stream.js';
import { observersOf, type LineObserver, type LineObservers } from '../specs/line-filter.js';
import { pushAll } from '../util/arrays.js';

export interface ReadOptions {
  /** Lines to keep from large logs, registered by later layers (rules). */
  filters?: readonly LineFilter[];
  limits?: Partial<ReadLimits>;
  logLimits?: Partial<LogLimits>;
  /** Longer lines are cut and marked. */
  maxLineLength?: number;
  /** Largest JSON/YAML/text file parsed whole; larger ones are reported and skipped. */
  maxStructuredBytes?: number;
  /** The installer's own `.openshift_install.log`, given beside the bundle. */
  installLog?: string;
  structuredLimits?: Partial<StructuredLimits>;
  /**
   * Sees the lines of every streamed log (template mining, diff). A plain observer sees every
   * line, which costs a decode and a call per line; a tap with literals sees only the lines
   * holding one of them, found by the same scan as the rules' literals.
   */
  observeLines?: (log: LogRef) => LineObservers;
  /** Bytes of the bundle file read so far, of its size (for a progress bar). */
  onProgress?: ProgressSink;
}

const DEFAULT_MAX_LINE = 64 * 1024;
/** Bytes looked at to tell a file's text encoding. */
const TEXT_SNIFF_BYTES = 4096;
const DEFAULT_MAX_STRUCTURED = 48 * 1024 * 1024;

class TooLarge extends Error {}

async function readText(body: AsyncIterable<Buffer>, max: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of body) {
    size += c.length;
    if (size > max) throw new TooLarge(`larger than ${max} bytes: not parsed`);
    chunks.push(c);
  }
  return decodeText(Buffer.concat(chunks));
}

/** Specs whose files are JSON, checked for depth before parsing. */
const JSON_SPECS = new Set<SourceSpec['kind']>(['service-record', 'container-inspect', 'resource-json']);

/** Routes each bundle file to its parser and collects the results. */
class Router {
  readonly builder = new BundleBuilder();
  referenceTime: number | undefined;
  /** The reference time came from a gather id (the bundle's own clock), not a file date. */
  fromGatherId = false;
  /** Logical paths read from outside a single node's log-bundle-bootstrap/. */
  private readonly finalPaths = new Set<string>();
  private readonly logLimits: LogLimits;
  private readonly maxLine: number;
  private readonly maxStructured: number;
  private readonly structuredLimits: StructuredLimits;
  private readonly observeLines: ReadOptions['observeLines'];
  /** Files the layout recognised: zero means this is no installer log bundle. */
  classified = 0;
  /** Files laid out as `oc adm must-gather` writes them. */
  mustGatherLike = 0;

  constructor(
    private readonly filters: readonly LineFilter[],
    options: ReadOptions,
    private readonly fallbackTime: number,
  ) {
    this.logLimits = { ...DEFAULT_LOG_LIMITS, ...options.logLimits };
    this.maxLine = options.maxLineLength ?? DEFAULT_MAX_LINE;
    this.maxStructured = options.maxStructuredBytes ?? DEFAULT_MAX_STRUCTURED;
    this.structuredLimits = { ...DEFAULT_STRUCTURED_LIMITS, ...options.structuredLimits };
    this.observeLines = options.observeLines;
  }

  report = (p: ReadProblem): void => this.builder.problem(p);

  private adopt<T>(result: Parsed<T>, file: string): T {
    for (const p of result.problems) {
      const problem: ReadProblem = { kind: p.kind, file, message: p.message };
      if (p.line !== undefined) problem.line = p.line;
      this.report(problem);
    }
    return result.value;
  }

  async file(file: BundleFile): Promise<void> {
    const cls = classifyPath(file.logicalPath);
    if (cls.bootstrapInPlace) this.builder.bootstrapInPlace = true;
    // Single node: the bootstrap phase's copy (log-bundle-bootstrap/) of a file the final gather
    // also wrote is older; the final one is read whichever order the archive holds them in.
    if (cls.logicalPath !== undefined) {
      if (!cls.bootstrapInPlace) this.finalPaths.add(cls.logicalPath);
      else if (this.finalPaths.has(cls.logicalPath)) {
        this.builder.otherFiles++;
        return;
      }
    }
    if (cls.gatherId && !this.builder.gatherId) this.builder.gatherId = cls.gatherId;
    // Year-less journal times need a year: the gather id's. A bundle's own file sets it, never a
    // note beside it; without a gather id, the date of the first file of the bundle.
    const gathered = cls.gatherId ? gatherIdTime(cls.gatherId) : undefined;
    if (gathered !== undefined && !this.fromGatherId) {
      this.referenceTime = gathered;
      this.fromGatherId = true;
    }
    // UTF-16 text (as Windows tools write it) is read as the UTF-8 every parser expects.
    const first = await peek(file.body, TEXT_SNIFF_BYTES);
    const encoding = sniffEncoding(first.head);
    file = { ...file, body: encoding === 'utf-8' ? first.body : utf16ToUtf8(first.body, encoding) };
    let spec = cls.spec;
    if (!spec) {
      // The installer's output is found by its content, whatever its name or place.
      const sniffed = await peek(file.body, 16 * 1024);
      file = { ...file, body: sniffed.body };
      if (!this.builder.installerLog && sniffInstallerOutput(sniffed.head)) spec = { kind: 'installer-log' };
    }
    if (!spec) {
      this.builder.otherFiles++;
      if (cls.mustGather) this.mustGatherLike++;
      return;
    }
    this.referenceTime ??= file.mtime ?? this.fallbackTime;
    this.classified++;
    const source: SourceRef = { file: file.path };
    try {
      await this.route(spec, file, source);
    } catch (err) {
      if (err instanceof TooLarge) this.report({ kind: 'too-large', file: file.path, message: err.message });
      else throw err;
    }
  }

  private async route(spec: SourceSpec, file: BundleFile, source: SourceRef): Promise<void> {
    const b = this.builder;
    const id = logSource(spec);
    switch (spec.kind) {
      case 'journal':
      case 'unit-status-journal': {
        const sourceId = id as SourceId;
        const collector = new JournalCollector(source, sourceId, this.active(sourceId), this.logLimits, this.referenceTime);
        await this.stream(file, collector, this.ref(file, sourceId));
        const journal = collector.journal();
        this.noteTruncation(journal);
        const host = b.host(spec.host);
        if (spec.kind === 'journal') host.journals[spec.unit] = journal;
        else host.unitJournals[spec.unit] = journal;
        return;
      }
      case 'container-log': {
        const summary = await this.log(file, id as SourceId, source);
        b.container(spec.host, spec.runtime, spec.id, spec.name).log = summary;
        return;
      }
      case 'control-plane-log':
        b.host(spec.host).controlPlaneLogs.push(await this.log(file, id as SourceId, source));
        return;
      case 'serial-log':
        b.serialLogs.push(await this.log(file, id as SourceId, source));
        return;
      case 'clusterapi-log':
        b.clusterApiLogs.push(await this.log(file, id as SourceId, source));
        return;
      case 'gather-log': {
        const scanner = createGatherLogScanner();
        const summary = await this.log(file, id as SourceId, source, (raw, n) => void scanner.scan(raw, n));
        b.gatherLog = { ...summary, kind: 'gather', ...scanner.facts() };
        return;
      }
      case 'installer-log': {
        const scanner = createInstallerLogScanner();
        const summary = await this.log(file, id as SourceId, source, (raw, n) => void scanner.scan(raw, n));
        b.installerLog = { ...summary, kind: 'installer', ...scanner.facts() };
        return;
      }
      case 'rendered-other':
        b.renderedFiles.push(file.path);
        return;
      case 'resource-other':
        return;
      default:
        return this.structured(spec, await readText(file.body, this.maxStructured), source);
    }
  }

  /** Files parsed whole: small JSON, YAML and text. */
  private structured(spec: SourceSpec, text: string, source: SourceRef): void {
    const b = this.builder;
    const file = source.file;
    const kind = JSON_SPECS.has(spec.kind) || (spec.kind === 'etcd-output' && /^\s*[[{]/.test(text)) ? 'json' : spec.kind === 'rendered-manifest' ? 'yaml' : undefined;
    const refusal = kind ? structuredRefusal(kind, text, this.structuredLimits) : undefined;
    if (refusal) {
      if (spec.kind === 'rendered-manifest') b.renderedFiles.push(file);
      this.report({ kind: 'limit', file, message: refusal });
      return;
    }
    switch (spec.kind) {
      case 'service-record':
        b.host(spec.host).serviceRecords[spec.service] = this.adopt(parseServiceRecords(text, source, spec.service), file);
        return;
      case 'container-inspect':
        return this.inspect(spec.host, spec.runtime, spec.id, spec.name, text, source);
      case 'unit-status':
        b.host(spec.host).unitStatus[spec.unit] = this.adopt(parseUnitStatus(text, source, spec.unit, this.referenceTime), file);
        return;
      case 'failed-units': {
        const host = b.host(spec.host);
        pushAll(host.failedUnits, this.adopt(parseFailedUnits(text, source), file));
        host.failedUnitsListed = true;
        return;
      }
      case 'network':
        return this.network(spec.host, spec.file, text, source);
      case 'etcd-output': {
        const host = b.host(spec.host);
        host.etcd ??= { memberLists: [], health: [] };
        const kind = sniffEtcdctlOutput(text);
        if (kind === 'member-list') host.etcd.memberLists.push(this.adopt(parseEtcdMemberList(text, source), file));
        else if (kind === 'endpoint-health') pushAll(host.etcd.health, this.adopt(parseEtcdEndpointHealth(text, source), file));
        else this.report({ kind: 'unparseable', file, message: 'not etcdctl member list or endpoint health output' });
        return;
      }
      case 'rendered-manifest':
        b.renderedFiles.push(file);
        if (/^kind:\s*Pod\b/m.test(text) || /"kind"\s*:\s*"Pod"/.test(text)) {
          pushAll(b.host({ role: 'bootstrap' }).staticPods, this.adopt(parseStaticPods(text, source), file));
        }
        return;
      case 'rendered-certificate':
        b.renderedFiles.push(file);
        pushAll(b.certificates, this.adopt(parseCertificates(text, source), file));
        return;
      case 'resource-list': {
        const names = this.adopt(parseNameList(text), source.file);
        const cluster = b.clusterResources();
        if (spec.name === 'nodes') cluster.nodeNames = names;
        else cluster.masterNames = names;
        return;
      }
      case 'resource-json':
        return this.resource(spec.name, text, source);
      default:
        return;
    }
  }

  private inspect(host: HostSelector, runtime: 'cri-o' | 'podman', id: string, name: string | undefined, text: string, source: SourceRef): void {
    const target = this.builder.container(host, runtime, id, name);
    const parsedContainers =
      runtime === 'cri-o' ? [this.adopt(parseCrictlInspect(text, source), source.file)] : this.adopt(parsePodmanInspect(text, source), source.file);
    const found = parsedContainers[0];
    if (!found) return;
    const log = target.log;
    Object.assign(target, found, { runtime: target.runtime, id: target.id, inspectSource: source });
    if (!target.name && name) target.name = name;
    if (log) target.log = log;
  }

  private network(host: HostSelector, kind: string, text: string, source: SourceRef): void {
    const net = this.builder.network(host);
    net.sources.push(source);
    const file = source.file;
    switch (kind) {
      case 'ip-addr':
        pushAll(net.interfaces, this.adopt(parseIpAddr(text), file));
        return;
      case 'ip-route':
        pushAll(net.routes, this.adopt(parseIpRoute(text), file));
        return;
      case 'resolv.conf': {
        const r = this.adopt(parseResolvConf(text), file);
        pushAll(net.nameservers, r.nameservers);
        pushAll(net.searchDomains, r.searchDomains);
        return;
      }
      case 'hosts':
        pushAll(net.hosts, this.adopt(parseHosts(text), file));
        return;
      case 'hostname': {
        const name = this.adopt(parseHostname(text), file);
        if (name) net.hostname = name;
        return;
      }
    }
  }

  private resource(name: string, text: string, source: SourceRef): void {
    const cluster = this.builder.clusterResources();
    const { status, json } = classifyResourceText(text, source, name);
    cluster.files.push(status);
    if (status.status !== 'ok' || json === undefined) return;
    const file = source.file;
    switch (name) {
      case 'nodes':
        cluster.nodes = this.adopt(parseNodes(json, source), file);
        return;
      case 'csr':
        cluster.csrs = this.adopt(parseCsrs(json, source), file);
        return;
      case 'clusteroperators':
        cluster.clusterOperators = this.adopt(parseClusterOperators(json, source), file);
        return;
      case 'clusterversion':
        cluster.clusterVersion = this.adopt(parseClusterVersion(json, source), file);
        return;
      case 'pods':
        cluster.pods = this.adopt(parsePods(json, source), file);
        return;
      case 'events':
        cluster.events = this.adopt(parseEvents(json, source), file);
        return;
      case 'machineconfigpools':
        cluster.machineConfigPools = this.adopt(parseMachineConfigPools(json, source), file);
        return;
      case 'machines':
        cluster.machines = this.adopt(parseMachines(json, source), file);
        return;
    }
  }

  private active(sourceId: SourceId): ActiveFilters {
    return new ActiveFilters(this.filters, sourceId);
  }

  private ref(file: BundleFile, sourceId: SourceId): LogRef {
    const ref: LogRef = { file: file.path, source: sourceId };
    if (this.referenceTime !== undefined) ref.referenceTime = this.referenceTime;
    return ref;
  }

  private async log(file: BundleFile, sourceId: SourceId, source: SourceRef, everyLine?: (raw: string, line: number) => void): Promise<LogSummary> {
    const collector = new LogCollector<LogLine>(source, sourceId, this.active(sourceId), this.logLimits, plainLineParser(this.referenceTime));
    await this.stream(file, collector, this.ref(file, sourceId), everyLine);
    const summary = collector.summary();
    this.noteTruncation(summary);
    return summary;
  }

  private async stream(file: BundleFile, collector: LogCollector<LogLine>, ref: LogRef, everyLine?: LineObserver): Promise<void> {
    const observers = [...observersOf(everyLine), ...observersOf(this.observeLines?.(ref))];
    const log = new LogStream(collector, this.maxLine, observers, file.size);
    try {
      for await (const chunk of file.body) log.push(chunk);
    } finally {
      log.end();
    }
  }

  /** Cut lines are marked one by one; the file gets one problem saying how many. */
  private noteTruncation(summary: LogSummary<LogLine>): void {
    if (summary.truncatedLines > 0) {
      this.report({
        kind: 'limit',
        file: summary.source.file,
        message: `${summary.truncatedLines} line(s) longer than ${this.maxLine} characters were cut`,
      });
    }
  }
}

/** Whether a file's first bytes are the installer's output (the log, a console transcript, CI output). */
function sniffInstallerOutput(head: Buffer): boolean {
  return looksLikeInstallerOutput(head.toString('utf8', 0, Math.min(head.length, 16 * 1024)));
}

/**
 * Reads the bundle at `inputPath` into the model. Damage inside the bundle becomes
 * `problems`; input that is no bundle at all throws InputError.
 */
export async function readBundle(inputPath: string, options: ReadOptions = {}): Promise<Bundle> {
  const inputTime = await stat(inputPath).then(
    (st) => st.mtimeMs,
    () => Date.now(),
  );
  const router = new Router(options.filters ?? [], options, inputTime);
  const limits = { ...DEFAULT_READ_LIMITS, ...options.limits };
  const walk = await walkBundle(inputPath, (f) => router.file(f), router.report, limits, options.onProgress, sniffInstallerOutput);
  let entries = walk.entries;
  let bytes = walk.bytes;
  if (walk.entries === 0 && walk.format === 'directory' && !options.installLog) {
    // An empty folder is a mistyped path far more often than a bundle (a CI job passing on it
    // would hide the failure it was meant to triage).
    throw new InputError(`${inputPath} is an empty folder: no log bundle in it (looked for a .tar.gz, .tar or .zip bundle, an unpacked bundle with bootstrap/, control-plane/, resources/ or gather.log, or the installer's output)`);
  }
  if (walk.entries === 0 && walk.format !== 'file') {
    // An archive holding nothing (an end-of-archive marker alone): a bundle of nothing, read as such.
    router.report({ kind: 'empty', file: basename(inputPath), message: 'the bundle holds no files' });
  }
  if (options.installLog) {
    // Named by the user: read as the installer's output whatever its name or first lines.
    const extra = await walkBundle(
      options.installLog,
      (f) => router.file({ ...f, logicalPath: '.openshift_install.log' }),
      router.report,
      limits,
      undefined,
      () => true,
    );
    entries += extra.entries;
    bytes += extra.bytes;
  }
  // A read that broke off or was stopped by a limit is a partial bundle, not "no bundle".
  const damaged =
    walk.stopped !== undefined || router.builder.problems.some((p) => p.kind === 'truncated-archive' || p.kind === 'corrupt-archive' || p.kind === 'empty');
  if (router.classified === 0 && !damaged) {
    const hint = router.mustGatherLike > 0 ? ' (it looks like an `oc adm must-gather` folder, which bootlens does not read)' : '';
    throw new InputError(`${inputPath} is not an installer log bundle: no bootstrap/, control-plane/, resources/ or gather.log inside${hint}`);
  }
  return router.builder.build(
    {
      name: basename(inputPath),
      path: inputPath,
      format: walk.format,
      referenceTime: router.referenceTime ?? inputTime,
      entries,
      bytes,
      nestedArchives: walk.nestedArchives,
    },
    // Without a gather id the year-less times had a provisional year: the bundle's full dates decide it.
    router.fromGatherId ? undefined : (b) => void settleYearlessTimes(b),
  );
}
