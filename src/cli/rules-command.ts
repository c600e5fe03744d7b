// `bootlens rules list|lint|test` and `bootlens explain <rule-id>`.
import { availableParallelism } from 'node:os';
import { relative } from 'node:path';
import Table from 'cli-table3';
import { defaultRulesDir, loadRules, ruleFiles } from '../rules/load-rules.js';
import { BUILTIN_RULES, builtinCasesFile } from '../rules/registry.js';
import { builtinCases, caseCounts, duplicateExamples, missingCases, testRuleReport, type RuleTestReport } from '../rules/rule-tester.js';
import { checkRegexLinear, type RegexVerdict } from '../rules/matcher.js';
import { catalogueDirOf, loadCatalogue } from '../catalogue/load-catalogue.js';
import type { Catalogue } from '../catalogue/types.js';
import { compileYamlRule, loadRuleFile, RuleError } from '../rules/yaml-rule.js';
import { EXIT_FAILURE_FOUND, EXIT_OK, UsageError } from './exit-codes.js';
import { emit } from './output.js';

export async function runRulesList(dir: string | undefined, format: string): Promise<number> {
  const { rules } = loadRules(dir);
  if (format === 'json') {
    await emit(`${JSON.stringify(rules.map((r) => r.meta), null, 2)}\n`, undefined);
    return EXIT_OK;
  }
  const t = new Table({ head: ['Rule', 'Stage', 'Category', 'Severity', 'Title'], chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' }, style: { head: [], border: [] } });
  for (const r of rules) t.push([r.meta.id, r.meta.stage, r.meta.category, r.meta.severity, r.meta.title]);
  await emit(`${t.toString()}\n${rules.length} rules\n`, undefined);
  return EXIT_OK;
}

/** Checks every rule file and reports every problem, not just the first. */
export async function runRulesLint(dir: string | undefined): Promise<number> {
  const root = dir ?? defaultRulesDir();
  const problems: string[] = [];
  const regexChecks: (() => Promise<string | undefined>)[] = [];
  const ids = new Map<string, string>();
  let files: string[];
  try {
    files = ruleFiles(root);
  } catch {
    throw new UsageError(`cannot read the rules folder ${root}`);
  }
  // The message catalogue the rules name: its regexes are the rules' regexes.
  let catalogue: Catalogue | undefined;
  try {
    catalogue = loadCatalogue(catalogueDirOf(root));
    for (const e of catalogue.entries) {
      for (const re of [...e.forms.map((f) => f.regex), e.when, e.unless]) {
        if (re) regexChecks.push(() => lintRegex(e.file, `catalogue entry ${e.id}`, re.source, re.flags));
      }
    }
  } catch (err) {
    problems.push(err instanceof RuleError ? err.message : `${root}: ${(err as Error).message}`);
  }
  for (const file of files) {
    try {
      const doc = loadRuleFile(file);
      if (ids.has(doc.id)) problems.push(`${file}: id '${doc.id}' is also used by ${ids.get(doc.id)}`);
      ids.set(doc.id, file);
      const lacking = doc.examples ? missingCases(caseCounts(doc)) : 'no examples (positive and negative) to test the rule with';
      if (lacking) problems.push(`${file}: ${lacking}`);
      for (const f of duplicateExamples(doc)) problems.push(`${file}: ${f.kind} example ${f.index + 1} ${f.reason}`);
      if (!catalogue) continue;
      const rule = compileYamlRule(doc, file, catalogue);
      // Every positive log example must contain one of each matcher's prefilter literals, or the
      // reader would drop the very line the rule is about (records and resources are not prefiltered).
      for (const ex of doc.examples?.positive ?? []) {
        if (!ex.lines) continue;
        const text = ex.lines.join('\n');
        const reached = rule.filters.filter((f) => f.id.includes('#m')).some((f) => f.literals.length === 0 || f.literals.some((l) => text.includes(l)));
        if (!reached) problems.push(`${file}: a positive example contains none of the match literals`);
      }
    } catch (err) {
      problems.push(err instanceof RuleError ? err.message : `${file}: ${(err as Error).message}`);
    }
  }
  // The ReDoS checker: a regex it does not prove linear (super-linear, undecided, or not checked)
  // is a problem, as for the shipped rules; back-references were refused with the file.
  for (const problem of await inTurns(regexChecks, availableParallelism())) if (problem) problems.push(problem);
  for (const r of BUILTIN_RULES) {
    if (ids.has(r.meta.id)) problems.push(`${r.meta.origin}: id '${r.meta.id}' is also used by ${ids.get(r.meta.id)}`);
    if (r.meta.references.length === 0) problems.push(`${r.meta.origin}: rule ${r.meta.id} has no references`);
    const casesFile = relative(process.cwd(), builtinCasesFile(r.meta.id));
    try {
      const cases = builtinCases(r.meta.id);
      const lacking = cases ? missingCases(caseCounts(cases)) : 'no cases file to test the rule with';
      if (lacking) problems.push(`${casesFile}: ${lacking}`);
    } catch (err) {
      problems.push(err instanceof RuleError ? err.message : `${casesFile}: ${(err as Error).message}`);
    }
  }
  const text = problems.length === 0 ? `${files.length} rule files and ${BUILTIN_RULES.length} built-in rules: no problems\n` : `${problems.join('\n')}\n${problems.length} problem(s)\n`;
  await emit(text, undefined);
  return problems.length === 0 ? EXIT_OK : EXIT_FAILURE_FOUND;
}

/**
 * Runs tasks `width` at a time, results in order: the checker's time limit is per check, and
 * seventy checks at once on two cores ran every one of them out of time.
 */
async function inTurns<T>(tasks: readonly (() => Promise<T>)[], width: number): Promise<T[]> {
  const out = new Array<T>(tasks.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < tasks.length) {
      const i = next++;
      out[i] = await tasks[i]();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(width, tasks.length)) }, lane));
  return out;
}

/** One line per regex the checker does not prove linear: the entry, the regex, and why (the growth and the attack's shape). */
async function lintRegex(file: string, id: string, source: string, flags = ''): Promise<string | undefined> {
  let v: RegexVerdict;
  try {
    v = await checkRegexLinear(source, flags);
  } catch (err) {
    return `${file}: ${id}: regex /${oneLine(source)}/ could not be checked for backtracking (${oneLine((err as Error).message)}): only regexes proven linear are allowed`;
  }
  if (v.status === 'super-linear') return `${file}: ${id}: regex /${oneLine(source)}/ backtracks super-linearly (${v.detail}) on input like ${oneLine(v.attack ?? '?')}`;
  if (v.status === 'unknown') return `${file}: ${id}: regex /${oneLine(source)}/ could not be proven linear (${oneLine(v.detail)}): only regexes proven linear are allowed`;
  return undefined;
}

/** Control characters shown as escapes: a problem is one line. */
function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** A rule's cases, one line each with its name, and what failed: the rule's own problems first. */
function describeRule(ruleId: string, report: RuleTestReport): string[] {
  const out = [`${report.failures.length === 0 ? '✔' : '✖'} ${ruleId}`];
  for (const f of report.failures.filter((x) => x.kind === 'rule')) out.push(`  ✖ ${oneLine(f.reason)}`);
  for (const c of report.cases) {
    const mine = report.failures.filter((f) => f.kind === c.kind && f.index === c.index);
    const label = `${c.kind} ${c.index + 1}: ${oneLine(c.name)}`;
    if (mine.length === 0) out.push(`  ✔ ${label}`);
    else out.push(`  ✖ ${label}`, ...mine.map((f) => `      ${oneLine(f.reason)}`));
  }
  return out;
}

/** Runs every rule (or one) on its cases: YAML rules on their examples, TypeScript rules on their cases files. */
export async function runRulesTest(dir: string | undefined, only: string | undefined): Promise<number> {
  const { rules, docs } = loadRules(dir);
  if (only !== undefined && !rules.some((r) => r.meta.id === only)) throw new UsageError(`unknown rule '${only}' (see bootlens rules list)`);
  const lines: string[] = [];
  let failed = 0;
  let passed = 0;
  let caseCount = 0;
  for (const rule of rules) {
    if (only !== undefined && rule.meta.id !== only) continue;
    const report = await testRuleReport(rule, docs.get(rule.meta.id));
    caseCount += report.cases.length;
    if (report.failures.length === 0) passed++;
    else failed++;
    lines.push(...describeRule(rule.meta.id, report));
  }
  lines.push(`${caseCount} cases of ${passed + failed} rules`);
  lines.push(`${passed} rules passed their cases, ${failed} failed`);
  await emit(`${lines.join('\n')}\n`, undefined);
  return failed === 0 ? EXIT_OK : EXIT_FAILURE_FOUND;
}

export async function runExplain(id: string, dir: string | undefined): Promise<number> {
  const { rules } = loadRules(dir);
  const rule = rules.find((r) => r.meta.id === id);
  if (!rule) throw new UsageError(`no rule '${id}' (see bootlens rules list)`);
  const m = rule.meta;
  const out = [
    `${m.id}: ${m.title}`,
    `stage ${m.stage} · category ${m.category} · severity ${m.severity} · confidence ${m.confidence}`,
    '',
    m.description,
    '',
    'Fix:',
    ...m.fix.map((s, i) => `  ${i + 1}. ${s}`),
    '',
    'References:',
    ...m.references.map((r) => `  ${r}`),
    '',
    `Defined in ${m.origin}`,
  ];
  await emit(`${out.join('\n')}\n`, undefined);
  return EXIT_OK;
}
