// The terminal report of `bootlens analyze`: verdict first, then the stage timeline, then the
// findings with evidence and fix, then the known issues the logs look like. Reads the result only.
// Every bundle string goes through the terminal escaping of format.ts (oneLine, fitLine, renderTable).
import type { AnalysisResult, Evidence, Finding, SimilarIssue } from '../result/types.js';
import { chunk, fitLine, fitWidth, formatTime, layoutWidth, lineRows, MESSAGE_MAX, oneLine, renderTable, repeatsNote, wrap, wrapWords } from './format.js';
import { knownIssueBasis, similarityNote, similarityScore } from './summary.js';
import { rootFinding } from '../result/root-finding.js';

export interface TextOptions {
  color: boolean;
  /** Columns to fit into (log lines are cut around their match); `Infinity` for full lines (`--wide`). */
  width?: number;
}

/** Prose wraps at this many columns even on a wide terminal: long lines of prose are hard to read. */
const PROSE = 100;

const CODES = { red: 31, green: 32, yellow: 33, bold: 1, dim: 2 } as const;

function paint(on: boolean) {
  return (code: keyof typeof CODES, text: string): string => (on ? `\u001b[${CODES[code]}m${text}\u001b[0m` : text);
}

/** One evidence item: where, then the line (cut around its match) with its context. */
function evidenceLines(e: Evidence, c: ReturnType<typeof paint>, width: number): string[] {
  const out = [`    ${oneLine(e.file, 300)}${e.line ? `:${e.line}` : ''}${e.time ? ` (${formatTime(e.time)})` : ''}${repeatsNote(e.repeats)}`];
  for (const b of e.before ?? []) out.push(c('dim', `      ${fitLine(b, width - 6)}`));
  lineRows(e.text, width - 6, e.match, e.facts).forEach((row, i) => out.push(`${i === 0 ? '    > ' : '      '}${row}`));
  for (const a of e.after ?? []) out.push(c('dim', `      ${fitLine(a, width - 6)}`));
  return out;
}

function findingBlock(f: Finding, c: ReturnType<typeof paint>, rootCause: boolean, width: number): string {
  const prose = Math.min(PROSE, width);
  const out: string[] = [];
  const badge = f.severity === 'critical' || f.severity === 'error' ? c('red', f.severity.toUpperCase()) : c('yellow', f.severity.toUpperCase());
  out.push(`${rootCause ? c('bold', '★ ') : ''}${badge} ${c('bold', oneLine(f.title, 200))}  [${oneLine(f.ruleId, 120)}]`);
  out.push(`  stage ${f.stage} · ${f.category} · confidence ${f.confidence}${f.hosts.length ? ` · ${oneLine(f.hosts.join(', '), 200)}` : ''}`);
  out.push(`  ${wrap(oneLine(f.message, MESSAGE_MAX), prose - 4, '  ')}`);
  out.push('  evidence:');
  for (const e of f.evidence) out.push(...evidenceLines(e, c, width));
  out.push('  fix:');
  f.fix.forEach((step, i) => out.push(`    ${i + 1}. ${wrap(oneLine(step, 400), prose - 8, '       ')}`));
  if (f.references.length) out.push(`  references: ${oneLine(f.references.join(' '), 1000)}`);
  return out.join('\n');
}

/** One similar known issue: id, score and title, where it belongs, the lines that matched, the first fix step. */
function similarBlock(issue: SimilarIssue, c: ReturnType<typeof paint>, usedByVerdict: boolean, width: number): string {
  const prose = Number.isFinite(width) ? Math.min(PROSE, width) : Infinity;
  // Every line broken between words only: ids, paths and log tokens are never split.
  const rows = (text: string, lead: string, indent: string, w = width): string => wrapWords(text, w, indent, lead).join('\n');
  const out: string[] = [];
  const head = `${oneLine(issue.id, 120)}  ${similarityScore(issue.score)}  ${oneLine(issue.title, 200)}`;
  out.push(`${usedByVerdict ? c('bold', '★ ') : ''}${c('bold', rows(head, '', '  '))}`);
  const notes = [`stage ${issue.stage}`, issue.category, issue.rule ? `also covered by rule ${oneLine(issue.rule, 120)}` : '', usedByVerdict ? "the verdict's category comes from it" : ''];
  out.push(rows(notes.filter(Boolean).join(' · '), '  ', '    '));
  if (issue.matchedLines.length > 0) out.push('  matched:');
  for (const m of issue.matchedLines) {
    out.push(rows(`${oneLine(m.file, 300)}:${m.line} (${similarityScore(m.score)})`, '    ', '      '));
    // No match span here, and the end is often the error: the whole line, in rows.
    out.push(rows(oneLine(m.text, 400), '    > ', '      ', prose));
  }
  if (issue.fix[0]) out.push(rows(oneLine(issue.fix[0], 400), '  first step: ', '    ', prose));
  return out.join('\n');
}

/** The known issues the logs look like; one quiet line when similarity ran and found none, nothing when it was off. */
function similarSection(r: AnalysisResult, c: ReturnType<typeof paint>, width: number): string[] {
  if (r.similar.length === 0) {
    return r.similarity.mode === 'off' ? [] : ['', c('dim', `Similar known issues: none (${r.similarity.mode}, ${r.similarity.candidates} candidate template${r.similarity.candidates === 1 ? '' : 's'})`)];
  }
  const out = ['', c('bold', `Similar known issues (${r.similar.length})`), c('dim', `  ${wrap(oneLine(similarityNote(r), 2000), Math.min(PROSE, width) - 4, '  ')}`)];
  for (const issue of r.similar) out.push('', similarBlock(issue, c, issue.id === r.verdict.knownIssue, width));
  return out;
}

/** Renders an analysis result as terminal text. */
export function renderAnalyzeText(r: AnalysisResult, opts: TextOptions): string {
  const c = paint(opts.color);
  const width = layoutWidth(opts.width);
  const v = r.verdict;
  const out: string[] = [];
  const basis = knownIssueBasis(r);
  const head =
    v.status === 'failed'
      ? c('red', `✖ FAILED at ${v.stage} (${v.category}, confidence ${v.confidence}${basis ? `, ${oneLine(basis, 200)}` : ''})`)
      : v.status === 'healthy'
        ? c('green', '✔ No failure found')
        : c('yellow', '? Inconclusive: too little in the bundle to judge');
  out.push(`${c('bold', 'bootlens')} ${oneLine(r.bundle.name, 200)}${r.bundle.gatherId ? ` (gather ${oneLine(r.bundle.gatherId, 40)})` : ''}`);
  out.push(head);
  // The summary quotes log text: control characters must not reach the terminal.
  out.push(wrap(oneLine(v.summary, 4000), Math.min(PROSE, width), ''));
  if (v.ciFailureMode) out.push(c('dim', `CI failure mode: ${v.ciFailureMode}`));

  const stageRows = r.stages.map((s, i) => {
    const status = s.status === 'failed' ? c('red', s.status) : s.status === 'ok' ? c('green', s.status) : s.status === 'in-progress' ? c('yellow', s.status) : s.status;
    return [String(i + 1), `${s.id}${s.id === v.stage ? ' ◀' : ''}`, status, formatTime(s.start), formatTime(s.end), oneLine(s.decidedBy ?? '-', 40)];
  });
  // The status column is this code's own words, painted: the one column not escaped.
  out.push('', c('bold', 'Stages'), renderTable(['#', 'Stage', 'Status', 'Start', 'End', 'Decided by'], stageRows, width, { trusted: [2] }));

  out.push('', c('bold', `Findings (${r.findings.length})`));
  if (r.findings.length === 0) out.push('  none');
  const root = rootFinding(r);
  for (const f of r.findings) out.push('', findingBlock(f, c, f === root, width));
  if (r.suppressed.length > 0) {
    out.push('', c('dim', `Suppressed (${r.suppressed.length}): ${oneLine(r.suppressed.map((s) => `${s.finding.ruleId} (${s.reason})`).join('; '), 2000)}`));
  }
  for (const line of similarSection(r, c, width)) out.push(line);

  const rules = r.rules;
  out.push('', c('bold', 'Rules'), `  ${rules.total} rules: ${rules.fired.length} fired, ${rules.passed.length} passed, ${rules.skipped.length} skipped for missing input${rules.errors.length ? `, ${rules.errors.length} failed to run` : ''}`);
  if (rules.skipped.length > 0) {
    const byMissing = new Map<string, number>();
    for (const s of rules.skipped) for (const m of s.missing) byMissing.set(m, (byMissing.get(m) ?? 0) + 1);
    out.push(c('dim', `  missing inputs: ${oneLine([...byMissing.entries()].map(([m, n]) => `${m} (${n})`).join(', '), 2000)}`));
  }
  for (const e of rules.errors) out.push(c('red', `  rule ${oneLine(e.ruleId, 120)} failed to run: ${oneLine(e.error, 120)}`));
  if (rules.timing) {
    out.push(c('dim', `  slowest rules: ${oneLine(rules.timing.slice(0, 5).map((x) => `${x.ruleId} ${x.ms.toFixed(2)} ms`).join(', '), 1000)}`));
  }
  const byContent = r.bundle.layout.readByContent ?? [];
  if (byContent.length > 0) {
    out.push('', c('bold', `Read by content (${byContent.length})`));
    for (const f of byContent) out.push(`  ${oneLine(f.file, 120)}: ${oneLine(f.as, 160)}`);
  }
  if (r.problems.length > 0) {
    out.push('', c('bold', `Could not read (${r.problems.length})`));
    for (const p of r.problems.slice(0, 20)) out.push(`  ${p.kind}: ${oneLine(p.file, 80)}${p.line ? `:${p.line}` : ''}: ${oneLine(p.message, 100)}`);
    if (r.problems.length > 20) out.push(`  … and ${r.problems.length - 20} more (see --format json)`);
  }
  // Whatever a line holds, it fits: text follows the terminal's width.
  return fitWidth(out.join('\n').split('\n'), width).join('\n') + '\n';
}
