// The verdict's summary: its typed reasons, worded. The one place a verdict becomes prose; every
// report format prints this (or words the same reasons itself), and nothing decides from it.
import type { Finding, SimilarIssue, StageState, Verdict } from '../result/types.js';
import type { RuleResult } from '../rules/types.js';
import { STAGE_TITLES } from '../taxonomy.js';
import { rootFindingOf } from '../result/root-finding.js';

/** What the words name besides the reasons: the findings and issues they point at, counts. */
export interface WordingContext {
  stages: readonly StageState[];
  findings: readonly Finding[];
  similar: readonly SimilarIssue[];
  results: readonly RuleResult[];
  /** Findings worth reading besides the root cause. */
  others: number;
  /** Findings suppressed with --ignore. */
  suppressed: number;
}

function where(e: { file: string; line?: number } | undefined): string {
  return e ? ` (${e.file}${e.line ? `:${e.line}` : ''})` : '';
}

function similarWords(issue: SimilarIssue | undefined, id: string, score: number): string[] {
  const line = issue?.matchedLines[0];
  const at = line ? `, e.g. ${line.file}:${line.line}` : '';
  const parts = [`The logs look like known issue ${id}${issue ? `: ${issue.title}` : ''} (similarity ${score.toFixed(2)}${at}).`];
  if (issue?.fix[0]) parts.push(`First step: ${issue.fix[0]}`);
  return parts;
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The summary of a verdict, from its reasons. */
export function wordVerdict(v: Omit<Verdict, 'summary'>, ctx: WordingContext): string {
  const parts: string[] = [];
  const finding = (id: string | undefined): Finding | undefined => (id === undefined ? undefined : ctx.findings.find((f) => f.ruleId === id));
  const issue = (id: string): SimilarIssue | undefined => ctx.similar.find((s) => s.id === id);
  for (const r of v.reasons) {
    switch (r.kind) {
      case 'partial-read':
        parts.push(`No failure found in what was read, but part of the bundle was not read (${r.missed}), so it cannot be called healthy.`);
        break;
      case 'no-failure': {
        const fired = ctx.results.filter((x) => x.status === 'fired').length;
        const passed = ctx.results.filter((x) => x.status === 'passed').length;
        parts.push(
          `No failure found. Stages seen complete: ${r.complete.length > 0 ? r.complete.join(', ') : 'none (the bundle holds too little to tell)'}. ` +
            `${passed} rules checked and passed${fired > 0 ? `; ${fired} fired on errors that recovered or that every install prints` : ''}${r.skipped > 0 ? `; ${r.skipped} skipped for missing input` : ''}.`,
        );
        break;
      }
      case 'nothing-failed':
        parts.push('No stage was seen to fail and no rule fired.');
        break;
      case 'stage': {
        const state = ctx.stages.find((s) => s.id === r.stage);
        const hosts = state && state.hosts.length > 0 ? ` on ${state.hosts.join(', ')}` : '';
        const how = r.how === 'failed' ? 'failed' : r.how === 'stuck' ? 'did not complete' : 'shows errors';
        parts.push(`The installation ${how} at stage ${r.stage} (${STAGE_TITLES[r.stage]})${hosts}.`);
        break;
      }
      case 'cause': {
        const f = rootFindingOf(v, ctx.findings) ?? finding(r.finding);
        if (f) parts.push(`Most likely cause: ${f.title} — ${f.message}${where(r.evidence)}.`);
        if (f?.fix[0] && !v.reasons.some((x) => x.kind === 'similar')) parts.push(`First step: ${f.fix[0]}`);
        break;
      }
      case 'similar':
        parts.push(...similarWords(issue(r.issue), r.issue, r.score));
        break;
      case 'collect':
        parts.push(`Nothing in these lines names the cause; collect next: ${r.steps[0]}`);
        break;
    }
  }
  if (v.status === 'failed' && !v.reasons.some((r) => r.kind === 'cause')) {
    // No finding named as cause: say what decided the stage.
    const stage = v.reasons.find((r) => r.kind === 'stage');
    const state = stage && stage.kind === 'stage' ? ctx.stages.find((s) => s.id === stage.stage) : undefined;
    const decided = state?.evidence[0];
    parts.splice(1, 0, `No rule identified the cause${decided ? `; the stage was decided by ${state?.decidedBy}: ${decided.text}` : ''}.`);
  }
  if (v.status === 'failed' && ctx.others > 0) parts.push(`${plural(ctx.others, 'other finding', 'other findings')} below.`);
  if (ctx.suppressed > 0) parts.push(`${ctx.suppressed} finding${ctx.suppressed === 1 ? ' was' : 's were'} suppressed (--ignore).`);
  return parts.join(' ');
}
