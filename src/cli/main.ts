#!/usr/bin/env node
// The bootlens command line: parses arguments, runs a command, maps every failure to one
// line on stderr and an exit code (0 ok, 1 failure diagnosed, 2 usage or unreadable input).
import { Command, CommanderError, Option } from 'commander';
import { redactText } from '../redact/redact.js';
import { termText } from '../report/escape.js';
import { EXIT_ERROR, UsageError } from './exit-codes.js';
import { guardStdout, writeStdout } from './output.js';
// Commands are imported in their actions: a run loads only the command it runs (start-up time).
import type { runAnalyze } from './analyze-command.js';
import type { runDiff } from './diff-command.js';
import type { runTriage } from './triage-command.js';
import type { runInspect } from './inspect-command.js';
import { addSimilarityOptions } from './similarity-flags.js';
import { addLimitOptions } from './limits.js';
import { VERSION } from './version.js';

function fail(message: string): number {
  process.stderr.write(`bootlens: ${termText(redactText(message).split('\n')[0])}\n`);
  return EXIT_ERROR;
}

export function buildProgram(setExit: (code: number) => void): Command {
  const program = new Command();
  program
    .name('bootlens')
    .description('Analyze failed OpenShift/OKD installation log bundles')
    .version(VERSION)
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) })
    .showHelpAfterError('(run with --help for usage)');

  program
    .command('inspect')
    .description('read a bundle and show what it holds: hosts, journals, services, pods, etcd, operators')
    .argument('<bundle>', 'log bundle: .tar.gz, .tar, .zip or unpacked folder')
    .addOption(new Option('-f, --format <format>', 'output format').choices(['text', 'json']).default('text'))
    .option('-o, --output <file>', 'write to this file instead of stdout')
    .option('--install-log <file>', "the installer's .openshift_install.log, when it is not in the bundle")
    .option('--no-redact', 'show secrets found in the bundle (default: redacted)')
    .option('--width <columns>', 'fit text to this many columns (default: COLUMNS or the terminal)')
    .option('--wide', 'full lines and table cells, whatever the width');
  addLimitOptions(program.commands[program.commands.length - 1]).action(async (bundle: string, opts: Parameters<typeof runInspect>[1]) => {
    setExit(await (await import('./inspect-command.js')).runInspect(bundle, opts));
  });
  program
    .command('analyze')
    .description('name the failed bootstrap stage, the cause, the evidence and the fix')
    .argument('<bundle...>', 'log bundles: .tar.gz, .tar, .zip or unpacked folders')
    .addOption(new Option('-f, --format <format>', 'output format').choices(['text', 'json', 'md', 'html', 'junit']).default('text'))
    .option('-o, --output <file>', 'write to this file instead of stdout')
    .option('--rules <dir>', 'rules folder (default: the rules shipped with bootlens)')
    .addOption(new Option('--min-severity <level>', 'hide findings below this severity').choices(['info', 'warning', 'error', 'critical']).default('info'))
    .option('--ignore <file>', 'suppression file: rule ids, optional host/message filters and a reason')
    .option('--install-log <file>', "the installer's .openshift_install.log, when it is not in the bundle")
    .option('--timing', 'record how long each rule took')
    .option('--no-redact', 'show secrets found in the bundle (default: redacted)')
    .option('--width <columns>', 'fit text to this many columns (default: COLUMNS or the terminal)')
    .option('--wide', 'full log lines and table cells, whatever the width');
  addSimilarityOptions(program.commands[program.commands.length - 1], 'lexical');
  addLimitOptions(program.commands[program.commands.length - 1]).action(async (bundles: string[], opts: Parameters<typeof runAnalyze>[1]) => {
    setExit(await (await import('./analyze-command.js')).runAnalyze(bundles, opts));
  });

  program
    .command('triage')
    .description('analyze many bundles on worker threads and group them by failure signature')
    .argument('<paths...>', 'bundles, or folders of bundles (with --merge: JSON-lines files)')
    .option('-j, --jobs <n>', 'worker threads (default: one per core)')
    .option('--jsonl <file>', 'write one JSON line per bundle (appended to <file>.partial as each is made)')
    .option('--resume', 'continue a run that stopped: keep the records its --jsonl file and <file>.partial hold, analyze the rest')
    .option('--bundle-timeout <seconds>', 'a bundle analyzed longer is a failed-to-analyze record (default 600)')
    .option('--bundle-memory <MB>', 'heap a bundle may use; past it, a failed-to-analyze record (default 2048)')
    .option('--merge', 'combine JSON-lines files from earlier or sharded runs instead of analyzing')
    .option('--shard <i/n>', 'analyze only shard i of n (0-based; by a hash of each case name), e.g. $JOB_COMPLETION_INDEX/8')
    .addOption(new Option('-f, --format <format>', 'summary format (junit: a test case per case)').choices(['text', 'md', 'json', 'html', 'junit']).default('text'))
    .option('-o, --output <file>', 'write the summary there instead of stdout')
    .option('--rules <dir>', 'rules folder')
    .option('--width <columns>', 'fit text to this many columns (default: COLUMNS or the terminal)')
    .option('--wide', 'full lines, whatever the width');
  // Off by default: a CI fleet triages thousands of bundles; lexical classifies more of them.
  addSimilarityOptions(program.commands[program.commands.length - 1], 'off').action(async (paths: string[], opts: Parameters<typeof runTriage>[1]) =>
    setExit(await (await import('./triage-command.js')).runTriage(paths, opts)),
  );

  program
    .command('diff')
    .description('compare a good and a bad bundle: stages, new log templates, operator conditions')
    .argument('<good>', 'a bundle that installed (or got further)')
    .argument('<bad>', 'a bundle that failed')
    .addOption(new Option('-f, --format <format>', 'output format').choices(['text', 'json']).default('text'))
    .option('-o, --output <file>', 'write there instead of stdout')
    .option('--rules <dir>', 'rules folder')
    .option('--no-redact', 'show secrets found in the bundles (default: redacted)')
    .option('--width <columns>', 'fit text to this many columns (default: COLUMNS or the terminal)')
    .option('--wide', 'full lines, whatever the width')
    .action(async (good: string, bad: string, opts: Parameters<typeof runDiff>[2]) => setExit(await (await import('./diff-command.js')).runDiff(good, bad, opts)));

  const kb = program.command('kb').description('the known-issue knowledge base (the known failures of rules/catalogue/)');
  kb.command('add')
    .description("turn a diagnosed bundle's candidate lines into a new known-issue entry")
    .argument('<bundle>')
    .requiredOption('--id <id>', 'entry id (kebab-case, also the file name)')
    .requiredOption('--title <title>')
    .requiredOption('--stage <stage>', 'taxonomy stage id')
    .requiredOption('--category <category>', 'taxonomy category id')
    .requiredOption('--fix <step...>', 'fix steps')
    .requiredOption('--reference <url...>', 'public bug reports or docs the entry stands on')
    .option('--rule <id>', 'the rule covering the same failure')
    .option('--out <dir>', 'catalogue folder to write kb-<id>.yaml into (default: rules/catalogue/)')
    .option('--force', 'replace an existing entry')
    .option('--healthy <bundles...>', 'bundles of installs that went through: lines they also log are never taken')
    .action(async (bundle: string, o: { id: string; title: string; stage: string; category: string; fix: string[]; reference: string[]; rule?: string; out?: string; force?: boolean; healthy?: string[] }) => {
      const { runKbAdd } = await import('./kb-command.js');
      const r = await runKbAdd({ bundle, id: o.id, title: o.title, stage: o.stage, category: o.category, fix: o.fix, references: o.reference, ...(o.rule ? { rule: o.rule } : {}), ...(o.out ? { out: o.out } : {}), ...(o.force ? { force: true } : {}), ...(o.healthy ? { healthy: o.healthy } : {}) });
      await writeStdout(`wrote ${termText(r.file)}: ${r.entry.lines.length} line${r.entry.lines.length === 1 ? '' : 's'} from ${termText(r.basis)}\n`);
      setExit(0);
    });
  kb.command('check')
    .description('flag entries that match healthy bundles (noise) and entries that match none of the given failed ones')
    .requiredOption('--healthy <bundles...>', 'bundles of installs that succeeded')
    .option('--against <bundles...>', 'bundles of failed installs each entry should match')
    .action(async (o: { healthy: string[]; against?: string[] }) => {
      const { formatKbCheck, kbCheckFailed, runKbCheck } = await import('./kb-command.js');
      const r = await runKbCheck({ healthy: o.healthy, ...(o.against ? { against: o.against } : {}) });
      // Matched lines are bundle text: redacted like every other channel.
      await writeStdout(redactText(formatKbCheck(r)));
      setExit(kbCheckFailed(r) ? 1 : 0);
    });

  const rules = program.command('rules').description('list, lint and test the rules');
  rules
    .command('list')
    .description('list every rule with its stage, category and severity')
    .option('--rules <dir>', 'rules folder')
    .addOption(new Option('-f, --format <format>', 'output format').choices(['text', 'json']).default('text'))
    .action(async (opts: { rules?: string; format: string }) => setExit(await (await import('./rules-command.js')).runRulesList(opts.rules, opts.format)));
  rules
    .command('lint')
    .description('check rule files: schema, ids, taxonomy, references, regexes, placeholders')
    .option('--rules <dir>', 'rules folder')
    .action(async (opts: { rules?: string }) => setExit(await (await import('./rules-command.js')).runRulesLint(opts.rules)));
  rules
    .command('test')
    .description("run each rule on the positive and negative examples in its file")
    .argument('[rule-id]', 'only this rule')
    .option('--rules <dir>', 'rules folder')
    .action(async (id: string | undefined, opts: { rules?: string }) => setExit(await (await import('./rules-command.js')).runRulesTest(opts.rules, id)));

  program
    .command('explain')
    .description("print a rule's description, fix and references")
    .argument('<rule-id>')
    .option('--rules <dir>', 'rules folder')
    .action(async (id: string, opts: { rules?: string }) => setExit(await (await import('./rules-command.js')).runExplain(id, opts.rules)));
  return program;
}

/** Errors that say what was wrong with the input; their modules are loaded already when one was thrown. */
async function isInputError(err: unknown): Promise<boolean> {
  const [{ InputError }, { RuleError }, { SuppressionError }, { EmbeddingError }] = await Promise.all([
    import('../archive/walk-bundle.js'),
    import('../rules/yaml-rule.js'),
    import('../analysis/suppressions.js'),
    import('../similarity/embeddings.js'),
  ]);
  return err instanceof InputError || err instanceof RuleError || err instanceof SuppressionError || err instanceof EmbeddingError;
}

export async function main(argv: string[]): Promise<number> {
  // A closed stdout (`| head`) must never become an uncaught 'error' event.
  guardStdout();
  let code = 0;
  const program = buildProgram((c) => {
    code = c;
  });
  try {
    await program.parseAsync(argv);
    return code;
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help and --version end with code 0; every usage error is 2, never commander's 1.
      return err.exitCode === 0 ? 0 : EXIT_ERROR;
    }
    if (err instanceof UsageError || (await isInputError(err))) return fail((err as Error).message);
    return fail(`unexpected error: ${(err as Error)?.message ?? String(err)}`);
  }
}

main(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.exitCode = fail(String(err));
  },
);
