// `bootlens triage <dir|files...>`: many bundles on worker threads, one JSON line per bundle,
// and a summary grouped by failure signature. `--merge` combines JSON lines from shards.
import { readFile, writeFile } from 'node:fs/promises';
import { redactDeep } from '../redact/redact.js';
import { flatText, termText } from '../report/escape.js';
import { renderTriageHtml } from '../report/triage-html.js';
import { renderTriageJunit } from '../report/triage-junit.js';
import { renderTriageMarkdown, renderTriageText } from '../report/triage-text.js';
import { collectCases, inShard, NoCasesError, type TriageCase } from '../triage/collect.js';
import { analyzeMany } from '../triage/pool.js';
import { parseRecords, type TriageRecord } from '../triage/record.js';
import { summarize } from '../triage/summary.js';
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

async function mergeRecords(files: string[]): Promise<TriageRecord[]> {
  const records: TriageRecord[] = [];
  for (const file of files) {
    const text = await readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
      throw new UsageError(`cannot read ${file}: ${err.code ?? err.message}`);
    });
    const parsed = parseRecords(text, file);
    // Not one record (an archive, a report): not JSON-lines input at all — a usage error, one line.
    if (parsed.records.length === 0 && parsed.skipped > 0) throw new UsageError(`${file} holds no triage records (JSON lines from triage --jsonl)`);
    for (const e of parsed.errors) process.stderr.write(`bootlens: skipped ${termText(e)}\n`);
    if (parsed.skipped > parsed.errors.length) process.stderr.write(`bootlens: skipped ${parsed.skipped} lines of ${termText(file)} in all\n`);
    // One at a time: spreading 100k records into push() overflows the call stack. Lines from
    // elsewhere are redacted like every triage output.
    for (const r of parsed.records) records.push(redactDeep(r));
  }
  return records;
}

/** A record under its case's name, with the files of its folder that were not read. */
function named(record: TriageRecord, c: TriageCase | undefined): TriageRecord {
  if (!c) return record;
  return { ...record, bundle: c.name, ...(c.ignored ? { ignored: c.ignored } : {}) };
}

export async function runTriage(args: string[], opts: TriageCliOptions): Promise<number> {
  // Checked before any bundle is read: a bad --width is a usage error, not the end of a long run.
  const width = opts.format === 'text' && !opts.output ? textWidth(opts) : Infinity;
  let records: TriageRecord[];
  if (opts.merge) {
    records = await mergeRecords(args);
  } else {
    const similarity = similarityOptionsFrom(opts);
    const shard = shardOf(opts.shard);
    const jobs = jobsOf(opts.jobs);
    const found = await collectCases(args).catch((err: unknown) => {
      throw err instanceof NoCasesError ? new UsageError(err.message) : err;
    });
    if (found.ignored.length > 0) {
      const shown = flatText(found.ignored.slice(0, 5).join(', '), 300);
      process.stderr.write(`bootlens: ${found.ignored.length} file(s) that are no bundle were not read: ${shown}${found.ignored.length > 5 ? ', …' : ''}\n`);
    }
    const cases = shard ? found.cases.filter((c) => inShard(c.name, shard.index, shard.count)) : found.cases;
    const byPath = new Map<string, TriageCase>(cases.map((c) => [c.path, c]));
    const paths = cases.map((c) => c.path);
    const progress = new Progress(process.stderr, paths.length);
    records = await analyzeMany(paths, {
      version: VERSION,
      ...(opts.rules ? { rulesDir: opts.rules } : {}),
      ...(jobs ? { jobs } : {}),
      similarity,
      onRecord: (r, done) => progress.tick(done, `${byPath.get(r.path)?.name ?? r.bundle}: ${r.status === 'unreadable' ? 'unreadable' : r.verdict?.status === 'failed' ? `${r.verdict.stage}/${r.verdict.category}` : r.verdict?.status}`),
    });
    progress.done();
    records = records.map((r) => named(r, byPath.get(r.path)));
  }
  records.sort((a, b) => a.path.localeCompare(b.path));
  if (opts.jsonl) await writeFile(opts.jsonl, records.map((r) => JSON.stringify(r)).join('\n') + (records.length ? '\n' : ''));
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
