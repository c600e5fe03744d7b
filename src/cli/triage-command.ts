// `bootlens triage <dir|files...>`: many bundles on worker threads, one JSON line per bundle,
// and a summary grouped by failure signature. `--merge` combines JSON lines from shards.
import { readFile, writeFile } from 'node:fs/promises';
import { renderTriageHtml } from '../report/triage-html.js';
import { renderTriageMarkdown, renderTriageText } from '../report/triage-text.js';
import { collectBundles } from '../triage/collect.js';
import { analyzeMany } from '../triage/pool.js';
import { parseRecords, type TriageRecord } from '../triage/record.js';
import { summarize } from '../triage/summary.js';
import { EXIT_FAILURE_FOUND, EXIT_OK, UsageError } from './exit-codes.js';
import { emit } from './output.js';
import { Progress } from './progress.js';
import { similarityOptionsFrom, type SimilarityFlags } from './similarity-flags.js';
import { VERSION } from './version.js';

export interface TriageCliOptions extends SimilarityFlags {
  jobs?: string;
  jsonl?: string;
  format: string;
  output?: string;
  rules?: string;
  merge?: boolean;
}

function jobsOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 256) throw new UsageError(`--jobs must be a whole number from 1 to 256, not '${value}'`);
  return n;
}

async function mergeRecords(files: string[]): Promise<TriageRecord[]> {
  const records: TriageRecord[] = [];
  for (const file of files) {
    const text = await readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
      throw new UsageError(`cannot read ${file}: ${err.code ?? err.message}`);
    });
    const parsed = parseRecords(text, file);
    for (const e of parsed.errors) process.stderr.write(`bootlens: skipped ${e}\n`);
    records.push(...parsed.records);
  }
  return records;
}

export async function runTriage(args: string[], opts: TriageCliOptions): Promise<number> {
  let records: TriageRecord[];
  if (opts.merge) {
    records = await mergeRecords(args);
  } else {
    const similarity = similarityOptionsFrom(opts);
    const paths = await collectBundles(args);
    if (paths.length === 0) throw new UsageError('no bundles found in the given folders');
    const progress = new Progress(process.stderr, paths.length);
    records = await analyzeMany(paths, {
      version: VERSION,
      ...(opts.rules ? { rulesDir: opts.rules } : {}),
      ...(opts.jobs ? { jobs: jobsOf(opts.jobs) } : {}),
      similarity,
      onRecord: (r, done) => progress.tick(done, `${r.bundle}: ${r.status === 'unreadable' ? 'unreadable' : r.verdict?.status === 'failed' ? `${r.verdict.stage}/${r.verdict.category}` : r.verdict?.status}`),
    });
    progress.done();
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
          : renderTriageText(summary);
  await emit(text, opts.output);
  return summary.failed > 0 ? EXIT_FAILURE_FOUND : EXIT_OK;
}
