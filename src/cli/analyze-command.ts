// `bootlens analyze <bundle...>`: verdict, timeline and findings, as text, JSON, Markdown, HTML or JUnit XML.
// Exit 0: no failure found; 1: a failure was diagnosed; 2: usage or unreadable input.
import { stat } from 'node:fs/promises';
import { analyzeBundle } from '../analysis/analyze.js';
import type { AnalysisResult } from '../result/types.js';
import { loadSuppressions } from '../analysis/suppressions.js';
import { redactDeep } from '../redact/redact.js';
import { renderAnalyzeText } from '../report/analyze-text.js';
import { renderHtmlReport } from '../report/html.js';
import { renderJunitReport } from '../report/junit.js';
import { renderMarkdownReport } from '../report/markdown.js';
import { loadRules } from '../rules/load-rules.js';
import type { Severity } from '../rules/types.js';
import { useColor } from './color.js';
import { EXIT_FAILURE_FOUND, EXIT_OK, UsageError } from './exit-codes.js';
import { readOptionsFrom, type LimitFlags } from './limits.js';
import { similarityOptionsFrom, type SimilarityFlags } from './similarity-flags.js';
import { emit } from './output.js';
import { Progress } from './progress.js';
import { VERSION } from './version.js';

export interface AnalyzeCliOptions extends LimitFlags, SimilarityFlags {
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
export function renderResults(results: AnalysisResult[], format: AnalyzeFormat, color: boolean): string {
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
      return results.map((r) => renderAnalyzeText(r, { color })).join('\n');
  }
}

/** Runs `analyze`: reads each bundle, redacts the results (unless `--no-redact`), writes one report. */
export async function runAnalyze(bundles: string[], opts: AnalyzeCliOptions): Promise<number> {
  const format = opts.format;
  // Checked before any bundle is read: a typo should not cost a long read.
  if (!isAnalyzeFormat(format)) throw new UsageError(`unknown format '${format}' (expected ${ANALYZE_FORMATS.join(', ')})`);
  const similarity = similarityOptionsFrom(opts);
  const { rules } = loadRules(opts.rules);
  const suppressions = opts.ignore ? loadSuppressions(opts.ignore) : [];
  const results: AnalysisResult[] = [];
  for (const bundle of bundles) {
    // A bar for large bundles on a terminal only; CI logs stay clean.
    const progress = new Progress(process.stderr, 1);
    const large = process.stderr.isTTY && (await stat(bundle).then((s) => s.isFile() && s.size > 64 * 1024 * 1024, () => false));
    const result = await analyzeBundle(bundle, {
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
    if (large) progress.done();
    results.push(opts.redact ? redactDeep(result) : result);
  }
  await emit(renderResults(results, format, format === 'text' && !opts.output && useColor(process.stdout)), opts.output);
  return results.some((r) => r.verdict.status === 'failed') ? EXIT_FAILURE_FOUND : EXIT_OK;
}
