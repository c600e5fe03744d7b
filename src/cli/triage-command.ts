// `bootlens triage <dir|files...>`: many bundles on worker threads, one JSON line per bundle,
// and a summary grouped by failure signature. `--merge` combines JSON lines from shards.
import { readFile } from 'node:fs/promises';
import { redactDeep } from '../redact/redact.js';
import { flatText, termText } from '../report/escape.js';
import { renderTriageHtml } from '../report/triage-html.js';
import { renderTriageJunit } from '../report/triage-junit.js';
import { renderTriageMarkdown, renderTriageText } from '../report/triage-text.js';
import { collectCases, inShard, NoCasesError, type TriageCase } from '../triage/collect.js';
import { JsonlError, JsonlOutput, sortRecords } from '../triage/jsonl-output.js';
import { analyzeMany, PoolError, type BundleLimits } from '../triage/pool.js';
import { parseRecords, recordIdentity, type ParsedRecords, type TriageRecord } from '../triage/record.js';
import { summarize } from '../triage/summary.js';
import { cacheDir } from '../util/disk-cache.js';
import { EXIT_FAILURE_FOUND, EXIT_OK, UsageError } from './exit-codes.js';
import { parseJobs } from './limits.js';
import { emit, textWidth, type WidthFlags } from './output.js';
import { Progress } from './progress.js';
import { similarityOptionsFrom, type SimilarityFlags } from './similarity-flags.js';
import { VERSION } from './version.js';

export interface TriageCliOptions extends SimilarityFlags, WidthFlags {
  jobs?: string;
  jsonl?: string;
  format: string;
  output?: string;
  rules?: string;
  merge?: boolean;
  /** Continue the stopped run whose records `--jsonl` (and its `.partial`) hold. */
  resume?: boolean;
  /** Per-bundle limits: seconds, and MB of heap. */
  bundleTimeout?: string;
  bundleMemory?: string;
  /** `i/n`: only the cases of shard i (0-based) of n. */
  shard?: string;
}

/** `--shard i/n` read; a bad value is a usage error. */
export function shardOf(value: string | undefined): { index: number; count: number } | undefined {
  if (value === undefined) return undefined;
  const m = /^(\d{1,6})\/(\d{1,6})$/.exec(value.trim());
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || count < 1 || index >= count) throw new UsageError(`--shard must be i/n with 0 <= i < n, not '${value}'`);
  return { index, count };
}

function jobsOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  return parseJobs(value);
}

/** Says on stderr what a file's unusable lines were (the first few named). */
function reportSkipped(parsed: ParsedRecords, file: string): void {
  for (const e of parsed.errors) process.stderr.write(`bootlens: skipped ${termText(e)}\n`);
  if (parsed.skipped > parsed.errors.length) process.stderr.write(`bootlens: skipped ${parsed.skipped} lines of ${termText(file)} in all\n`);
}

/**
 * One record per case: the same case (its name and path) given twice, by the same file merged
 * twice or a resumed run, counts once, the later record winning. Says how many were dropped.
 */
function uniqueRecords(records: readonly TriageRecord[]): TriageRecord[] {
  const byCase = new Map<string, TriageRecord>();
  for (const r of records) {
    const id = recordIdentity(r);
    byCase.delete(id);
    byCase.set(id, r);
  }
  const dropped = records.length - byCase.size;
  if (dropped > 0) process.stderr.write(`bootlens: ${dropped} record(s) repeated a case (same name and path) and were counted once\n`);
  return [...byCase.values()];
}

async function mergeRecords(files: string[]): Promise<TriageRecord[]> {
  const records: TriageRecord[] = [];
  for (const file of files) {
    const text = await readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
      throw new UsageError(`cannot read ${file}: ${err.code ?? err.message}`);
    });
    const parsed = parseRecords(text, file);
    // Not one record (an archive, a report): not JSON-lines input at all — a usage error, one line.
    if (parsed.records.length === 0 && parsed.skipped > 0) throw new UsageError(`${file} holds no triage records (JSON lines from triage --jsonl)`);
    reportSkipped(parsed, file);
    // One at a time: spreading 100k records into push() overflows the call stack. Lines from
    // elsewhere are redacted like every triage output.
    for (const r of parsed.records) records.push(redactDeep(r));
  }
  return uniqueRecords(records);
}

/** A positive number of a flag, or a usage error. */
function positive(value: string, flag: string, unit: string): number {
  const n = /^\s*\d+(?:\.\d+)?\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`${flag} must be a positive number of ${unit}, not '${value}'`);
  return n;
}

/** `--bundle-timeout` and `--bundle-memory`, read before any bundle is. */
function limitsOf(opts: TriageCliOptions): Partial<BundleLimits> {
  const out: Partial<BundleLimits> = {};
  if (opts.bundleTimeout !== undefined) out.timeoutMs = Math.round(positive(opts.bundleTimeout, '--bundle-timeout', 'seconds') * 1000);
  if (opts.bundleMemory !== undefined) {
    const mb = positive(opts.bundleMemory, '--bundle-memory', 'MB');
    if (mb < 64) throw new UsageError(`--bundle-memory must be at least 64 (MB): a worker needs that much to load, not '${opts.bundleMemory}'`);
    out.memoryMb = Math.round(mb);
  }
  return out;
}

/** Opens the `--jsonl` file (locked; with `--resume`, the stopped run's records kept), as a usage error when it cannot be. */
function openJsonl(file: string, resume: boolean, keep?: (r: TriageRecord) => boolean): JsonlOutput {
  try {
    return JsonlOutput.open(file, { resume, ...(keep ? { keep } : {}) });
  } catch (err) {
    if (err instanceof JsonlError) throw new UsageError(err.message);
    throw err;
  }
}

/** A record under its case's name, with the files of its folder that were not read. */
function named(record: TriageRecord, c: TriageCase | undefined): TriageRecord {
  if (!c) return record;
  return { ...record, bundle: c.name, ...(c.ignored ? { ignored: c.ignored } : {}) };
}

export async function runTriage(args: string[], opts: TriageCliOptions): Promise<number> {
  // Checked before any bundle is read: a bad --width is a usage error, not the end of a long run.
  const width = opts.format === 'text' && !opts.output ? textWidth(opts) : Infinity;
  if (opts.resume && !opts.jsonl) throw new UsageError('--resume continues the --jsonl file of a run that stopped: give that --jsonl file');
  if (opts.resume && opts.merge) throw new UsageError('--resume is for a run that analyzes bundles, not for --merge');
  let records: TriageRecord[];
  let output: JsonlOutput | undefined;
  try {
    if (opts.merge) {
      records = await mergeRecords(args);
      if (opts.jsonl) output = openJsonl(opts.jsonl, false);
    } else {
      const similarity = similarityOptionsFrom(opts);
      const shard = shardOf(opts.shard);
      const jobs = jobsOf(opts.jobs);
      const limits = limitsOf(opts);
      const found = await collectCases(args).catch((err: unknown) => {
        throw err instanceof NoCasesError ? new UsageError(err.message) : err;
      });
      if (found.ignored.length > 0) {
        const shown = flatText(found.ignored.slice(0, 5).join(', '), 300);
        process.stderr.write(`bootlens: ${found.ignored.length} file(s) that are no bundle were not read: ${shown}${found.ignored.length > 5 ? ', …' : ''}\n`);
      }
      // The workers use the start-up cache: whether its folder may be used is said here, once.
      cacheDir();
      const cases = shard ? found.cases.filter((c) => inShard(c.name, shard.index, shard.count)) : found.cases;
      const byPath = new Map<string, TriageCase>(cases.map((c) => [c.path, c]));
      // A resumed run keeps the records of this run's cases, but those that failed to analyze (the limits may be new).
      const keep = (r: TriageRecord): boolean => byPath.get(r.path)?.name === r.bundle && r.status !== 'failed-to-analyze';
      output = opts.jsonl ? openJsonl(opts.jsonl, opts.resume === true, keep) : undefined;
      const kept = output ? uniqueRecords(output.previous.records) : [];
      if (output) reportSkipped(output.previous, `${opts.jsonl} (and .partial)`);
      if (kept.length > 0) process.stderr.write(`bootlens: resuming: ${kept.length} of ${cases.length} case(s) were analyzed by the run that stopped\n`);
      const done = new Set(kept.map((r) => r.path));
      const paths = cases.map((c) => c.path).filter((p) => !done.has(p));
      const progress = new Progress(process.stderr, paths.length);
      const fresh = await analyzeMany(paths, {
        version: VERSION,
        ...(opts.rules ? { rulesDir: opts.rules } : {}),
        ...(jobs ? { jobs } : {}),
        limits,
        similarity,
        onRecord: (r, n) => {
          output?.append(named(r, byPath.get(r.path)));
          progress.tick(n, `${byPath.get(r.path)?.name ?? r.bundle}: ${r.status !== 'analyzed' ? r.status : r.verdict?.status === 'failed' ? `${r.verdict.stage}/${r.verdict.category}` : r.verdict?.status}`);
        },
      }).catch((err: unknown) => {
        if (err instanceof PoolError) throw new UsageError(err.message);
        throw err;
      });
      progress.done();
      records = [...kept, ...fresh.map((r) => named(r, byPath.get(r.path)))];
    }
    records = sortRecords(records);
    if (output) {
      try {
        output.finish(records);
      } catch (err) {
        if (err instanceof JsonlError) throw new UsageError(err.message);
        throw err;
      }
    }
  } finally {
    output?.release();
  }
  const summary = summarize(records);
  const text =
    opts.format === 'json'
      ? `${JSON.stringify(summary, null, 2)}\n`
      : opts.format === 'md'
        ? renderTriageMarkdown(summary)
        : opts.format === 'html'
          ? renderTriageHtml(summary, records, { version: VERSION })
          : opts.format === 'junit'
            ? renderTriageJunit(records)
            : renderTriageText(summary, width);
  await emit(text, opts.output);
  return summary.failed > 0 ? EXIT_FAILURE_FOUND : EXIT_OK;
}
