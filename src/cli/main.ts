#!/usr/bin/env node
// The bootlens command line: parses arguments, runs a command, maps every failure to one
// line on stderr and an exit code (0 ok, 1 failure diagnosed, 2 usage or unreadable input).
import { Command, CommanderError, Option } from 'commander';
import { InputError } from '../archive/walk-bundle.js';
import { redactText } from '../redact/redact.js';
import { EXIT_ERROR, UsageError } from './exit-codes.js';
import { runInspect } from './inspect-command.js';

const VERSION = '0.1.0';

function fail(message: string): number {
  process.stderr.write(`bootlens: ${redactText(message).split('\n')[0]}\n`);
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
    .action(async (bundle: string, opts: { format: string; output?: string; installLog?: string; redact: boolean }) => {
      setExit(await runInspect(bundle, opts));
    });
  return program;
}

export async function main(argv: string[]): Promise<number> {
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
    if (err instanceof InputError || err instanceof UsageError) return fail(err.message);
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
