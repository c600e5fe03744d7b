// `bootlens analyze <bundle...>`: verdict, timeline and findings, as text, JSON, Markdown, HTML or JUnit XML.
// Exit 0: no failure found; 1: a failure was diagnosed; 2: usage or unreadable input (the
// reports of the bundles that could be read are still written).
import { stat } from 'node:fs/promises';
import { analyzeBundle } from '../analysis/analyze.js';
import { InputError } from '../archive/walk-bundle.js';
import { termText } from '../report/escape.js';
import type { AnalysisResult } from '../result/types.js';
import { loadSuppressions } from '../analysis/suppressions.js';
import { redactDeep, redactText } from '../redact/redact.js';
import { renderAnalyzeText } from '../report/analyze-text.js';
import { renderHtmlReport } from '../report/html.js';
import { renderJunitReport } from '../report/junit.js';
import { renderMarkdownReport } from '../report/markdown.js';
import { loadRules } from '../rules/load-rules.js';
import type { Severity } from '../rules/types.js';
import { useColor } from './color.js';
import { EXIT_ERROR, EXIT_FAILURE_FOUND, EXIT_OK, UsageError } from './exit-codes.js';
import { readOptionsFrom, type LimitFlags } from './limits.js';
import { similarityOptionsFrom, type SimilarityFlags } from './similarity-flags.js';
import { emit, textWidth, type WidthFlags } from './output.js';
import { Progress } from './progress.js';
import { VERSION } from './version.js';
import { holdYoungGeneration } from '../util/young-generation.js';

export interface AnalyzeCliOptions extends LimitFlags, SimilarityFlags, WidthFlags {
  format: string;
  output?: string;
  rules?: string;
  minSeverity: string;
  ignore?: string;
  installLog?: string;
  timing?: boolean;
  redact: boolean;
}

/** The formats of `analyze --format`. */
export const ANALYZE_FORMATS = ['text', 'json', 'md', 'html', 'junit'] as const;
export type AnalyzeFormat = (typeof ANALYZE_FORMATS)[number];

function isAnalyzeFormat(format: string): format is AnalyzeFormat {
  return (ANALYZE_FORMATS as readonly string[]).includes(format);
}

/**
 * Renders results in a format. Several bundles give a JSON array, texts or Markdown documents
 * one after another, one HTML page with a section per bundle, one `<testsuites>` with a
 * `<testsuite>` per bundle.
 */
export function renderResults(results: AnalysisResult[], format: AnalyzeFormat, color: boolean, width?: number): string {
  switch (format) {
    case 'json':
      return `${JSON.stringify(results.length === 1 ? results[0] : results, null, 2)}\n`;
    case 'md':
      return renderMarkdownReport(results);
    case 'html':
      return renderHtmlReport(results);
    case 'junit':
      return renderJunitReport(results);
    case 'text':
      return results.map((r) => renderAnalyzeText(r, { color, ...(width !== undefined ? { width } : {}) })).join('\n');
  }
}

/**
 * Runs `analyze`: reads each bundle, redacts the results (unless `--no-redact`), writes one
 * report of every bundle that could be read. A bundle that cannot be read is one line on
 * stderr and makes the exit code 2; when none can be read, nothing is written.
 */
export async function runAnalyze(bundles: string[], opts: AnalyzeCliOptions): Promise<number> {
  holdYoungGeneration();
  const format = opts.format;
  // Checked before any bundle is read: a typo should not cost a long read.
  if (!isAnalyzeFormat(format)) throw new UsageError(`unknown format '${format}' (expected ${ANALYZE_FORMATS.join(', ')})`);
  const width = format === 'text' ? textWidth(opts) : undefined;
  const similarity = similarityOptionsFrom(opts);
  const { rules } = loadRules(opts.rules);
  const suppressions = opts.ignore ? loadSuppressions(opts.ignore) : [];
  const results: AnalysisResult[] = [];
  const unreadable: InputError[] = [];
  for (const bundle of bundles) {
    // A bar for large bundles on a terminal only; CI logs stay clean.
    const progress = new Progress(process.stderr, 1);
    const large = process.stderr.isTTY && (await stat(bundle).then((s) => s.isFile() && s.size > 64 * 1024 * 1024, () => false));
    const read = analyzeBundle(bundle, {
      ...(large ? { onProgress: (read: number, total: number) => progress.bytes(read, total) } : {}),
      rules,
      similarity,
      suppressions,
      minSeverity: opts.minSeverity as Severity,
      timing: opts.timing ?? false,
      version: VERSION,
      ...readOptionsFrom(opts),
      ...(opts.installLog ? { installLog: opts.installLog } : {}),
    });
    const result = await read.catch((err: unknown) => {
      if (!(err instanceof InputError)) throw err;
      unreadable.push(err);
      return undefined;
    });
    if (large) progress.done();
    if (result) results.push(opts.redact ? redactDeep(result) : result);
  }
  // Said before the reports, one line each, like every error of the command line.
  for (const err of unreadable) process.stderr.write(`bootlens: ${termText(redactText(err.message).split('\n')[0])}\n`);
  if (results.length === 0) return EXIT_ERROR;
  await emit(renderResults(results, format, format === 'text' && !opts.output && useColor(process.stdout), width), opts.output);
  if (unreadable.length > 0) return EXIT_ERROR;
  return results.some((r) => r.verdict.status === 'failed') ? EXIT_FAILURE_FOUND : EXIT_OK;
}
