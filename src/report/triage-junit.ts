// The triage summary as JUnit XML, what CI dashboards read: one test case per case (a CI job),
// a failed verdict a failure whose message is the verdict and whose body holds the root cause's
// evidence, an unreadable case an error, an inconclusive one skipped (never a green test).
import type { TriageRecord } from '../triage/record.js';
import { cdata, flatText } from './escape.js';
import { formatTime } from './format.js';
import { attrs } from './junit.js';

/** The verdict in one line, as the failure message. */
function headline(r: TriageRecord): string {
  const v = r.verdict;
  if (!v) return 'unreadable';
  if (v.status !== 'failed') return v.status;
  const basis = v.rootCause ? `, rule ${v.rootCause}` : v.knownIssue ? `, from similarity to known issue ${v.knownIssue}` : '';
  return `FAILED at ${v.stage ?? 'an unknown stage'} (${v.category ?? 'unknown'}, confidence ${v.confidence}${basis})`;
}

function body(r: TriageRecord): string {
  const v = r.verdict;
  const lines: string[] = [];
  if (v) lines.push(headline(r));
  if (r.signature && v?.status === 'failed') lines.push(`signature ${r.signature.id}: ${flatText(r.signature.template || '(no evidence line)', 1000)}`);
  if (r.evidence && r.evidence.length > 0) lines.push('evidence (the root cause\'s own lines):');
  for (const e of r.evidence ?? []) {
    const where = `${e.file}${e.line !== null ? `:${e.line}` : ''}${e.host ? ` (${e.host})` : ''}`;
    lines.push(`  ${flatText(where, 500)}`, `    ${flatText(e.text, 2000)}`);
  }
  if (v?.ciFailureMode) lines.push(`CI failure mode: ${v.ciFailureMode}`);
  if (r.findings && r.findings.length > 0) lines.push(`rules that fired: ${r.findings.join(', ')}`);
  if (r.similar && r.similar.length > 0) lines.push(`similar known issues: ${r.similar.join(', ')}`);
  lines.push(`path: ${flatText(r.path, 1000)}`, `gathered: ${formatTime(r.gatheredAt ?? undefined)}`);
  return lines.join('\n');
}

function testcase(r: TriageRecord): string {
  const open = `    <testcase${attrs({ classname: 'bootlens.triage', name: r.bundle, time: '0' })}>`;
  const inner: string[] = [];
  if (r.status === 'unreadable' || !r.verdict) {
    inner.push(`      <error${attrs({ message: flatText(r.error ?? 'unreadable', 1000), type: 'unreadable' })}>${cdata(`path: ${r.path}`)}</error>`);
  } else if (r.verdict.status === 'failed') {
    inner.push(`      <failure${attrs({ message: headline(r), type: r.verdict.category ?? 'unknown' })}>${cdata(body(r))}</failure>`);
  } else if (r.verdict.status === 'inconclusive') {
    inner.push(`      <skipped${attrs({ message: 'inconclusive: too little in the bundle to judge' })}/>`, `      <system-out>${cdata(body(r))}</system-out>`);
  } else {
    inner.push(`      <system-out>${cdata(body(r))}</system-out>`);
  }
  return [open, ...inner, '    </testcase>'].join('\n');
}

/** One `<testsuites>` holding one `<testsuite>` with a `<testcase>` per case, in the order given. */
export function renderTriageJunit(records: readonly TriageRecord[]): string {
  const tests = records.length;
  const failures = records.filter((r) => r.verdict?.status === 'failed').length;
  const errors = records.filter((r) => r.status === 'unreadable' || !r.verdict).length;
  const skipped = records.filter((r) => r.verdict?.status === 'inconclusive').length;
  const counts = { tests, failures, errors, skipped };
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attrs({ name: 'bootlens triage', tests, failures, errors })}>`,
    `  <testsuite${attrs({ name: 'bootlens triage', ...counts, time: '0' })}>`,
    ...records.map(testcase),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
