// The Markdown report for tickets and GitHub: verdict, stage table, findings with fenced evidence and fix steps, similar known issues; log text stays inside its block.
import type { AnalysisResult, Evidence, Finding, SimilarIssue, StageStatus } from '../result/types.js';
import { flatText, mdCell, mdCode, mdFence, mdRich, mdText, safeUrl } from './escape.js';
import { fitLine, formatTime, repeatsNote } from './format.js';
import { evidenceLocation, findingHosts, hostLabel, isFailedStage, similarityNote, similarityScore, STATUS_LABEL, stageTitle, verdictHeadline } from './summary.js';
import { rootFinding } from '../result/root-finding.js';

const STATUS_ICON: Record<StageStatus, string> = { ok: '✅', failed: '❌', 'in-progress': '⏳', 'not-reached': '⏭️', unknown: '❔' };

/** The longest cited line a ticket gets in full. */
const MAX_LINE = 4000;

/** Evidence as a fenced block: context lines indented, the cited line marked `>`. */
function evidenceBlock(e: Evidence): string {
  // The line stays whole (a ticket has no width) up to a bound; past it, cut around its match
  // and facts like the terminal's (which it keeps whole even past the bound).
  const cited = flatText(fitLine(e.text, MAX_LINE, e.match, e.facts), Infinity);
  const lines = [...(e.before ?? []).map((b) => `  ${flatText(b)}`), `> ${cited}`, ...(e.after ?? []).map((a) => `  ${flatText(a)}`)];
  const repeats = repeatsNote(e.repeats).trim();
  const where = [mdCode(evidenceLocation(e)), e.time !== undefined ? mdText(formatTime(e.time)) : '', e.host ? mdText(e.host) : '', repeats].filter(Boolean).join(' · ');
  return `${where}\n\n${mdFence(lines.join('\n'))}`;
}

function reference(ref: string): string {
  const url = safeUrl(ref);
  // An autolink shows the address itself, so a ticket reader sees where it goes.
  return url ? `<${url.replace(/[<>\s]/g, encodeURIComponent)}>` : mdText(ref);
}

/** Numbered fix steps and a list of references, each under its bold label when present. */
function fixAndReferences(fix: readonly string[], references: readonly string[]): string[] {
  const out: string[] = [];
  if (fix.length > 0) out.push('', '**Fix**', '', ...fix.map((step, i) => `${i + 1}. ${mdRich(step)}`));
  if (references.length > 0) out.push('', '**References**', '', ...references.map((ref) => `- ${reference(ref)}`));
  return out;
}

function findingSection(f: Finding, n: number, rootCause: boolean): string {
  const out: string[] = [];
  out.push(`### ${n}. ${rootCause ? '★ ' : ''}${f.severity.toUpperCase()}: ${mdText(f.title, 300)} (${mdCode(f.ruleId)})`);
  out.push('');
  const hosts = findingHosts(f);
  out.push(
    [
      `**Stage** ${mdCode(f.stage)}`,
      `**category** ${mdCode(f.category)}`,
      `**confidence** ${f.confidence}`,
      hosts.length > 0 ? `**hosts** ${hosts.map((h) => mdText(h, 100)).join(', ')}` : '',
      rootCause ? '**root cause**' : '',
    ]
      .filter(Boolean)
      .join(' · '),
  );
  out.push('', mdRich(f.message));
  if (f.evidence.length > 0) {
    out.push('', '**Evidence**');
    for (const e of f.evidence) out.push('', evidenceBlock(e));
  }
  out.push(...fixAndReferences(f.fix, f.references));
  return out.join('\n');
}

/** The bundle lines a similar issue matched, as one fenced block: `file:line (score)`, then the line marked `>`. */
function matchedBlock(issue: SimilarIssue): string {
  const lines = issue.matchedLines.flatMap((m) => [`${flatText(evidenceLocation(m), 1000)} (similarity ${similarityScore(m.score)})`, `> ${flatText(m.text)}`]);
  return mdFence(lines.join('\n'));
}

function similarSection(r: AnalysisResult, issue: SimilarIssue, n: number): string {
  const used = issue.id === r.verdict.knownIssue;
  const out: string[] = [];
  out.push(`### ${n}. ${used ? '★ ' : ''}${mdCode(issue.id)}: ${mdText(issue.title, 300)}`);
  out.push('');
  out.push(
    [
      `**Similarity** ${similarityScore(issue.score)}`,
      `**stage** ${mdCode(issue.stage)}`,
      `**category** ${mdCode(issue.category)}`,
      issue.rule ? `also covered by rule ${mdCode(issue.rule)}` : '',
      used ? "**the verdict's category comes from it**" : '',
    ]
      .filter(Boolean)
      .join(' · '),
  );
  if (issue.matchedLines.length > 0) out.push('', '**Matched lines**', '', matchedBlock(issue));
  out.push(...fixAndReferences(issue.fix, issue.references));
  return out.join('\n');
}

function stageTable(r: AnalysisResult): string {
  const rows = ['| # | Stage | Status | Start (UTC) | End (UTC) | Hosts | Decided by |', '|---:|---|---|---|---|---|---|'];
  r.stages.forEach((s, i) => {
    const failed = isFailedStage(r, s);
    const name = failed ? `**${mdCell(s.id)}** ◀` : mdCell(s.id);
    const status = `${STATUS_ICON[s.status]} ${failed ? `**${STATUS_LABEL[s.status]}**` : STATUS_LABEL[s.status]}`;
    rows.push(`| ${i + 1} | ${name} | ${status} | ${formatTime(s.start)} | ${formatTime(s.end)} | ${s.hosts.length ? mdCell(s.hosts.join(', ')) : '-'} | ${s.decidedBy ? mdCell(s.decidedBy, 80) : '-'} |`);
  });
  return rows.join('\n');
}

/** Renders one analysis result as a Markdown document (GitHub Flavored Markdown). */
export function renderMarkdown(r: AnalysisResult): string {
  const v = r.verdict;
  const out: string[] = [];
  out.push(`# bootlens: ${mdText(r.bundle.name, 200)}`);
  out.push('');
  const icon = v.status === 'failed' ? '❌' : v.status === 'healthy' ? '✅' : '❔';
  const stage = v.stage ? ` · ${mdText(stageTitle(v.stage))}` : '';
  out.push(`> ${icon} **${mdText(verdictHeadline(r))}**${stage}`);
  if (v.ciFailureMode) out.push('>', `> CI failure mode: ${mdText(v.ciFailureMode)}${v.rootCause ? ` · root cause rule ${mdCode(v.rootCause)}` : ''}`);
  out.push('', mdRich(v.summary, 8000));
  const hosts = r.bundle.hosts.map(hostLabel);
  out.push(
    '',
    [
      `Bundle ${mdCode(r.bundle.name)} (${mdText(r.bundle.format)})`,
      r.bundle.gatherId ? `gather id ${mdCode(r.bundle.gatherId)}` : '',
      hosts.length > 0 ? `hosts: ${mdText(hosts.join(', '))}` : 'no hosts found',
      `bootlens ${mdCode(r.tool.version)}`,
    ]
      .filter(Boolean)
      .join(' · '),
  );

  out.push('', '## Stage timeline', '', stageTable(r));

  out.push('', `## Findings (${r.findings.length})`);
  if (r.findings.length === 0) out.push('', 'None.');
  const root = rootFinding(r);
  r.findings.forEach((f, i) => out.push('', findingSection(f, i + 1, f === root)));

  if (r.suppressed.length > 0) {
    out.push('', `## Suppressed (${r.suppressed.length})`, '');
    for (const s of r.suppressed) out.push(`- ${mdCode(s.finding.ruleId)}: ${mdText(s.finding.title, 200)} (reason: ${mdText(s.reason, 300)})`);
  }

  if (r.similar.length > 0) {
    out.push('', `## Similar known issues (${r.similar.length})`, '', mdText(similarityNote(r)));
    r.similar.forEach((issue, i) => out.push('', similarSection(r, issue, i + 1)));
  }

  const rules = r.rules;
  out.push('', '## Rules', '');
  out.push(
    `${rules.total} rules: ${rules.fired.length} fired, ${rules.passed.length} passed, ${rules.skipped.length} skipped for missing input${rules.errors.length ? `, ${rules.errors.length} failed to run` : ''}.`,
  );
  if (rules.skipped.length > 0) {
    out.push('', ...rules.skipped.map((s) => `- ${mdCode(s.ruleId)} skipped, missing: ${s.missing.map((m) => mdCode(m)).join(', ')}`));
  }
  for (const e of rules.errors) out.push(`- ${mdCode(e.ruleId)} failed to run: ${mdText(e.error, 300)}`);

  const byContent = r.bundle.layout.readByContent ?? [];
  if (byContent.length > 0) {
    out.push('', `## Read by content (${byContent.length})`, '', '| File | Read as |', '|---|---|');
    for (const f of byContent) out.push(`| ${mdCell(f.file, 120)} | ${mdCell(f.as, 200)} |`);
  }
  if (r.problems.length > 0) {
    out.push('', `## Could not read (${r.problems.length})`, '', '| Problem | File | Message |', '|---|---|---|');
    for (const p of r.problems.slice(0, 50)) out.push(`| ${mdCell(p.kind)} | ${mdCell(evidenceLocation(p), 120)} | ${mdCell(p.message, 200)} |`);
    if (r.problems.length > 50) out.push('', `… and ${r.problems.length - 50} more (see \`--format json\`).`);
  }
  return out.join('\n') + '\n';
}

/** Several results: one document per bundle, separated by a rule. */
export function renderMarkdownReport(results: readonly AnalysisResult[]): string {
  // A blank line before `---`, or it would turn the paragraph above into a heading.
  return results.map((r) => renderMarkdown(r)).join('\n---\n\n');
}
