// `bootlens analyze <bundle...>`: verdict, timeline and findings, as text or JSON.
// Exit 0: no failure found; 1: a failure was diagnosed; 2: usage or unreadable input.
import { analyzeBundle, type AnalysisResult } from '../analysis/analyze.js';
import { loadSuppressions } from '../analysis/suppressions.js';
import { redactDeep } from '../redact/redact.js';
import { renderAnalyzeText } from '../report/analyze-text.js';
import { loadRules } from '../rules/load-rules.js';
import type { Severity } from '../rules/types.js';
import { useColor } from './color.js';
import { EXIT_FAILURE_FOUND, EXIT_OK, UsageError } from './exit-codes.js';
import { emit } from './output.js';
import { VERSION } from './version.js';

export interface AnalyzeCliOptions {
  format: string;
  output?: string;
  rules?: string;
  minSeverity: string;
  ignore?: string;
  installLog?: string;
  timing?: boolean;
  redact: boolean;
}

/** Renders results in a format; several bundles give a JSON array or texts one after another. */
export function renderResults(results: AnalysisResult[], format: string, color: boolean): string {
  if (format === 'json') {
    return `${JSON.stringify(results.length === 1 ? results[0] : results, null, 2)}\n`;
  }
  return results.map((r) => renderAnalyzeText(r, { color })).join('\n');
}

export async function runAnalyze(bundles: string[], opts: AnalyzeCliOptions): Promise<number> {
  const { rules } = loadRules(opts.rules);
  const suppressions = opts.ignore ? loadSuppressions(opts.ignore) : [];
  const results: AnalysisResult[] = [];
  for (const bundle of bundles) {
    const result = await analyzeBundle(bundle, {
      rules,
      suppressions,
      minSeverity: opts.minSeverity as Severity,
      timing: opts.timing ?? false,
      version: VERSION,
      ...(opts.installLog ? { installLog: opts.installLog } : {}),
    });
    results.push(opts.redact ? redactDeep(result) : result);
  }
  if (opts.format !== 'text' && opts.format !== 'json') throw new UsageError(`unknown format '${opts.format}'`);
  await emit(renderResults(results, opts.format, !opts.output && useColor(process.stdout)), opts.output);
  return results.some((r) => r.verdict.status === 'failed') ? EXIT_FAILURE_FOUND : EXIT_OK;
}
