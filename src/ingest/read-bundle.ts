// Reads a bundle into the model in one streaming pass: the walker yields files, the layout
// names their source, and each source goes to its parser or to a streaming log collector.
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { peek } from '../archive/detect.js';
import { DEFAULT_READ_LIMITS, InputError, walkBundle, type BundleFile, type ProgressSink, type ReadLimits } from '../archive/walk-bundle.js';
import type { Bundle, LogLine, LogSummary, ReadProblem, SourceRef } from '../model/types.js';
import type { Parsed } from '../parsers/parsed.js';
import { moveLog, settleYearlessTimes } from './content-clock.js';
import { classifyLooseText, describeLooseText, looseTextPath, UNIT_SNIFF_BYTES, type LooseText } from './loose-text.js';
import { decodeText, sniffEncoding, utf16ToUtf8 } from '../parsers/text-input.js';
import { rowOfKind, type OnceRow, type SourceRow, type SourceSpec, type StreamRow } from '../specs/bundle-sources.js';
import { classifyPath } from '../specs/layout.js';
import type { LogRef, SourceId } from '../model/source-id.js';
import { gatherIdProblem, gatherIdTime } from '../text/time.js';
import { BundleBuilder } from './bundle-builder.js';
import { DEFAULT_STRUCTURED_LIMITS, structuredRefusal, type StructuredLimits } from './structured-limits.js';
import { JournalCollector } from './journal-collector.js';
import { ActiveFilters, type LineFilter } from './line-filter.js';
import { DEFAULT_LOG_LIMITS, LogCollector, plainLineParser, type LogLimits } from './log-collector.js';
import { LogStream } from './log-stream.js';
import { observersOf, type LineObserver, type LineObservers } from '../specs/line-filter.js';

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
  /** Journals read by their content before the bundle's gather id gave their year: moved to it at the end. */
  readonly provisional: LogSummary[] = [];

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
    if (cls.gatherId && !this.builder.gatherId) {
      this.builder.gatherId = cls.gatherId;
      const problem = gatherIdProblem(cls.gatherId);
      if (problem) this.report({ kind: 'unparseable', file: file.path, message: problem });
    }
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
    let row = cls.row;
    let loose: LooseText | undefined;
    if (!spec) {
      // A file the layout does not place is read by its content, whatever its name or place:
      // the installer's output, or a journal or console capture as the bundle's file of its kind.
      const sniffed = await peek(file.body, UNIT_SNIFF_BYTES);
      file = { ...file, body: sniffed.body };
      loose = classifyLooseText(sniffed.head, basename(file.path));
      const placed = loose === undefined ? undefined : this.place(loose);
      spec = placed?.spec;
      row = placed?.row;
    }
    if (!spec || !row) {
      this.builder.otherFiles++;
      if (cls.mustGather) this.mustGatherLike++;
      return;
    }
    this.referenceTime ??= file.mtime ?? this.fallbackTime;
    this.classified++;
    if (loose) this.builder.readByContent.push({ file: file.path, as: describeLooseText(loose) });
    const source: SourceRef = { file: file.path };
    try {
      const log = await this.route(row, spec, file, source);
      if (loose && log?.format === 'journal' && !this.fromGatherId) this.provisional.push(log);
    } catch (err) {
      if (err instanceof TooLarge) this.report({ kind: 'too-large', file: file.path, message: err.message });
      else throw err;
    }
  }

  /** The spec and row of a file read by its content: the installer's output (the first found), or the bundle file it stands for. */
  private place(loose: LooseText): { spec?: SourceSpec; row?: SourceRow } | undefined {
    if (loose.kind !== 'installer-output') return classifyPath(looseTextPath(loose));
    if (this.builder.installerLog) return undefined;
    return { spec: { kind: 'installer-log' }, row: rowOfKind('installer-log') };
  }

  /** Reads a file as its registry row says: streamed, parsed whole, or only listed; returns a streamed log. */
  private async route(row: SourceRow, spec: SourceSpec, file: BundleFile, source: SourceRef): Promise<LogSummary | undefined> {
    if (row.read === 'stream') return this.streamed(row, spec, file, source);
    if (row.read === 'listed') return void row.seen?.(this.builder, spec, file.path);
    return void this.whole(row, spec, await readText(file.body, this.maxStructured), source);
  }

  private async streamed(row: StreamRow, spec: SourceSpec, file: BundleFile, source: SourceRef): Promise<LogSummary> {
    const sourceId = row.log(spec);
    if (row.lines === 'journal') {
      const collector = new JournalCollector(source, sourceId, this.active(sourceId), this.logLimits, this.referenceTime);
      await this.stream(file, collector, this.ref(file, sourceId));
      const journal = collector.journal();
      this.noteTruncation(journal);
      row.store(this.builder, spec, journal, undefined);
      return journal;
    }
    const scanner = row.scanner?.();
    const summary = await this.log(file, sourceId, source, scanner && ((raw, n) => void scanner.scan(raw, n)));
    row.store(this.builder, spec, summary, scanner?.facts());
    return summary;
  }

  /** Files parsed whole: small JSON, YAML and text, checked against the structured limits first. */
  private whole(row: OnceRow, spec: SourceSpec, text: string, source: SourceRef): void {
    row.seen?.(this.builder, spec, source.file);
    const format = typeof row.format === 'function' ? row.format(text) : row.format;
    const refusal = format === 'text' ? undefined : structuredRefusal(format, text, this.structuredLimits);
    if (refusal) {
      this.report({ kind: 'limit', file: source.file, message: refusal, leftOut: true });
      return;
    }
    const yamlLimits = { maxBytes: this.structuredLimits.maxYamlBytes, maxNodes: this.structuredLimits.maxYamlNodes };
    const ctx = { spec, source, referenceTime: this.referenceTime, yamlLimits };
    row.store(this.builder, spec, this.adopt(row.parse(text, ctx), source.file), ctx);
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

/** Gives the journals read by their content before the gather id was seen the gather id's year. */
function settleProvisional(router: Router): void {
  if (router.referenceTime === undefined) return;
  for (const log of router.provisional) moveLog(log, router.referenceTime);
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
  // A file given alone is read when its content is one the reader knows (its name may say which machine).
  const alone = basename(inputPath).replace(/\.gz$/i, '');
  const known = (head: Buffer): boolean => classifyLooseText(head, alone) !== undefined;
  const walk = await walkBundle(inputPath, (f) => router.file(f), router.report, limits, options.onProgress, known);
  let entries = walk.entries;
  let bytes = walk.bytes;
  if (walk.entries === 0 && walk.format === 'directory' && !options.installLog) {
    // An empty folder is a mistyped path far more often than a bundle (a CI job passing on it
    // would hide the failure it was meant to triage).
    throw new InputError(`${inputPath} is an empty folder: no log bundle in it (looked for a .tar.gz, .tar or .zip bundle, an unpacked bundle with bootstrap/, control-plane/, resources/ or gather.log, the installer's output, a journal or a serial console capture)`);
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
    throw new InputError(`${inputPath} is not an installer log bundle: no bootstrap/, control-plane/, resources/ or gather.log inside, and no installer output, journal or serial console capture${hint}`);
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
    // Without a gather id the year-less times had a provisional year: the bundle's full dates
    // decide it. With one, a journal read by its content before the gather id was seen moves to it.
    router.fromGatherId ? () => settleProvisional(router) : (b) => void settleYearlessTimes(b),
  );
}
