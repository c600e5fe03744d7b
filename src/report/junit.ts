// The JUnit XML report for CI dashboards: one test case per bootstrap stage, the failed stage a failure carrying the verdict, its evidence and the similar known issues.
import type { AnalysisResult, Evidence, Finding, SimilarIssue, StageState } from '../result/types.js';
import { cdata, escapeXml, flatText } from './escape.js';
import { fitLine, formatTime } from './format.js';

/** The longest cited line a failure's text holds in full. */
const MAX_LINE = 1000;
import { evidenceLocation, isFailedStage, similarityNote, similarityScore, STATUS_LABEL, stageTitle, verdictHeadline } from './summary.js';
import { rootFinding } from '../result/root-finding.js';

/** XML attributes, escaped; undefined values are left out. */
export function attrs(values: Record<string, string | number | undefined>): string {
  return Object.entries(values)
    .filter((e): e is [string, string | number] => e[1] !== undefined)
    .map(([k, v]) => ` ${k}="${escapeXml(String(v))}"`)
    .join('');
}

function seconds(s: StageState): string {
  return s.start !== undefined && s.end !== undefined && s.end >= s.start ? ((s.end - s.start) / 1000).toFixed(3) : '0';
}

function evidenceText(e: Evidence): string {
  const when = [e.time !== undefined ? formatTime(e.time) : '', e.host ?? ''].filter(Boolean).join(', ');
  // A long line is cut around what the finding is about, never only kept from its start.
  return `  ${evidenceLocation(e)}${when ? ` (${when})` : ''}\n    ${flatText(fitLine(e.text, MAX_LINE, e.match, e.facts), Infinity)}`;
}

function findingText(f: Finding, rootCause: boolean): string {
  const lines = [`${rootCause ? '[root cause] ' : ''}${f.severity.toUpperCase()} ${f.ruleId}: ${flatText(f.title)}`, `  ${flatText(f.message)}`];
  for (const e of f.evidence) lines.push(evidenceText(e));
  if (f.fix.length > 0) lines.push('  fix:', ...f.fix.map((step, i) => `    ${i + 1}. ${flatText(step)}`));
  return lines.join('\n');
}

function similarIssueText(r: AnalysisResult, issue: SimilarIssue, n: number): string {
  const notes = [`stage ${issue.stage}`, `category ${issue.category}`, issue.rule ? `also covered by rule ${issue.rule}` : '', issue.id === r.verdict.knownIssue ? "the verdict's category comes from it" : ''];
  const lines = [`  ${n}. ${issue.id} (similarity ${similarityScore(issue.score)}): ${flatText(issue.title)}`, `     ${notes.filter(Boolean).join(', ')}`];
  for (const m of issue.matchedLines) lines.push(`     matched ${flatText(evidenceLocation(m), 1000)} (similarity ${similarityScore(m.score)})`, `       ${flatText(m.text, 1000)}`);
  if (issue.fix.length > 0) lines.push('     fix:', ...issue.fix.map((step, i) => `       ${i + 1}. ${flatText(step)}`));
  if (issue.references.length > 0) lines.push(`     references: ${issue.references.map((ref) => flatText(ref, 500)).join(' ')}`);
  return lines.join('\n');
}

/** The similar known issues as plain text; empty when there are none. */
function similarText(r: AnalysisResult): string {
  if (r.similar.length === 0) return '';
  return [`similar known issues (${r.similar.length}): ${similarityNote(r)}`, ...r.similar.map((issue, i) => similarIssueText(r, issue, i + 1))].join('\n');
}

/** Whether the similar issues go into the verdict's failure (else into the suite's system-out). */
function similarInFailure(r: AnalysisResult): boolean {
  return r.verdict.status === 'failed' && r.stages.some((s) => s.id === r.verdict.stage);
}

function testcase(r: AnalysisResult, s: StageState, index: number): string {
  const findings = r.findings.filter((f) => f.stage === s.id);
  const root = rootFinding(r);
  const open = `    <testcase${attrs({ classname: `bootlens.${r.bundle.name}`, name: `${String(index + 1).padStart(2, '0')} ${s.id}: ${stageTitle(s.id)}`, time: seconds(s) })}>`;
  const body: string[] = [];
  const stageLines = [
    `stage ${s.id}: ${STATUS_LABEL[s.status]}${s.decidedBy ? ` (decided by ${s.decidedBy})` : ''}`,
    `start ${formatTime(s.start)}, end ${formatTime(s.end)}${s.hosts.length ? `, hosts ${s.hosts.join(', ')}` : ''}`,
    ...s.evidence.map(evidenceText),
  ];
  if (isFailedStage(r, s)) {
    const isVerdict = r.verdict.stage === s.id;
    const message = isVerdict ? `${verdictHeadline(r)}: ${flatText(r.verdict.summary, 1000)}` : `stage ${s.id} failed${s.evidence[0] ? `: ${flatText(s.evidence[0].text, 500)}` : ''}`;
    const text = [
      isVerdict ? flatText(r.verdict.summary) : '',
      ...stageLines,
      ...findings.map((f) => findingText(f, f === root)),
      isVerdict ? similarText(r) : '',
    ]
      .filter(Boolean)
      .join('\n\n');
    body.push(`      <failure${attrs({ message, type: isVerdict ? (r.verdict.category ?? 'unknown') : 'stage-failed' })}>${cdata(text)}</failure>`);
  } else if (s.status !== 'ok') {
    // Not passed either: a stage without evidence is unknown, never a green test.
    const why = s.status === 'not-reached' ? 'not reached: an earlier stage failed' : s.status === 'unknown' ? 'unknown: no evidence in the bundle' : 'in progress when the bundle was gathered';
    body.push(`      <skipped${attrs({ message: why })}/>`);
  }
  const out = [...stageLines, ...(isFailedStage(r, s) ? [] : findings.map((f) => findingText(f, f === root)))];
  body.push(`      <system-out>${cdata(out.join('\n\n'))}</system-out>`);
  return [open, ...body, '    </testcase>'].join('\n');
}

function testsuite(r: AnalysisResult): string {
  const failures = r.stages.filter((s) => isFailedStage(r, s)).length;
  const skipped = r.stages.filter((s) => !isFailedStage(r, s) && s.status !== 'ok').length;
  const total = r.stages.reduce((sum, s) => sum + Number(seconds(s)), 0);
  const props: Record<string, string | number | null | undefined> = {
    'bootlens.version': r.tool.version,
    'bundle.format': r.bundle.format,
    'bundle.gatherId': r.bundle.gatherId,
    'verdict.status': r.verdict.status,
    'verdict.stage': r.verdict.stage,
    'verdict.category': r.verdict.category,
    'verdict.confidence': r.verdict.confidence,
    'verdict.rootCause': r.verdict.rootCause,
    'verdict.knownIssue': r.verdict.knownIssue,
    'verdict.ciFailureMode': r.verdict.ciFailureMode,
  };
  const properties = Object.entries(props)
    .filter((e): e is [string, string | number] => e[1] !== null && e[1] !== undefined)
    .map(([name, value]) => `      <property${attrs({ name, value: String(value) })}/>`);
  const errors = r.rules.errors.map((e) => `rule ${e.ruleId} failed to run: ${flatText(e.error)}`);
  const problems = r.problems.map((p) => `could not read ${evidenceLocation(p)}: ${p.kind}: ${flatText(p.message)}`);
  // With no failed stage to carry them, the similar issues are the suite's output.
  const similar = similarInFailure(r) ? '' : similarText(r);
  return [
    `  <testsuite${attrs({ name: `bootlens: ${r.bundle.name}`, tests: r.stages.length, failures, errors: 0, skipped, time: total.toFixed(3) })}>`,
    '    <properties>',
    ...properties,
    '    </properties>',
    ...r.stages.map((s, i) => testcase(r, s, i)),
    ...(similar ? [`    <system-out>${cdata(similar)}</system-out>`] : []),
    ...(errors.length + problems.length > 0 ? [`    <system-err>${cdata([...errors, ...problems].join('\n'))}</system-err>`] : []),
    '  </testsuite>',
  ].join('\n');
}

/** Renders results as one JUnit XML document: a `<testsuite>` per bundle, a `<testcase>` per stage. */
export function renderJunitReport(results: readonly AnalysisResult[]): string {
  const tests = results.reduce((n, r) => n + r.stages.length, 0);
  const failures = results.reduce((n, r) => n + r.stages.filter((s) => isFailedStage(r, s)).length, 0);
  const skipped = results.reduce((n, r) => n + r.stages.filter((s) => !isFailedStage(r, s) && s.status !== 'ok').length, 0);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attrs({ name: 'bootlens', tests, failures, errors: 0, skipped })}>`,
    ...results.map(testsuite),
    '</testsuites>',
    '',
  ].join('\n');
}

/** Renders one result as a JUnit XML document. */
export function renderJunit(r: AnalysisResult): string {
  return renderJunitReport([r]);
}
