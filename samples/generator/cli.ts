#!/usr/bin/env node
// `npm run samples`: regenerates the committed samples (samples/<scenario>/), or with
// --scale N writes big bundles for benchmarks to --out (default /tmp/bootlens-bench).
import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate } from './generate.js';
import { SCENARIOS } from './scenarios.js';

interface Args {
  scenario?: string;
  out?: string;
  scale: number;
  list: boolean;
}

function parse(argv: string[]): Args {
  const args: Args = { scale: 1, list: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--scenario') args.scenario = value();
    else if (a === '--out') args.out = value();
    else if (a === '--scale') args.scale = Number(value());
    else if (a === '--list') args.list = true;
    else if (a === '--help' || a === '-h') {
      process.stdout.write('usage: cli.js [--scenario NAME] [--out DIR] [--scale N] [--list]\n');
      process.exit(0);
    } else throw new Error(`unknown argument ${a}`);
  }
  if (!Number.isFinite(args.scale) || args.scale <= 0) throw new Error('--scale must be a positive number');
  return args;
}

/** The repository's samples/ folder (the CLI runs from dist/samples/generator/). */
function samplesDir(): string {
  return resolve(dirname(fileURLToPath(import.meta.url)), '../../../samples');
}

/** samples/README.md: what the samples are and how to regenerate them. */
function indexReadme(): string {
  const rows = SCENARIOS.map((s) => `| [${s.name}](${s.name}/) | ${s.expected.stage ?? '— (healthy)'} | ${s.expected.category ?? '—'} | ${s.version} | ${s.platform} | ${s.summary} |`);
  return [
    '# Sample log bundles',
    '',
    'Bundles shaped like `openshift-install gather bootstrap` output, one per scenario, each with the verdict',
    'bootlens should reach (`expected.json`) and a short README. They are generated, byte for byte, by',
    '`npm run samples` (samples/generator) from fixed seeds; do not edit them by hand.',
    '',
    'Benchmark bundles: `node dist/samples/generator/cli.js --scale 500 [--scenario NAME] [--out DIR]` writes',
    'hundreds of MB of journals to /tmp/bootlens-bench without touching this folder.',
    '',
    '| scenario | stage | category | release | platform | what failed |',
    '|---|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

async function main(): Promise<number> {
  const args = parse(process.argv.slice(2));
  if (args.list) {
    for (const s of SCENARIOS) process.stdout.write(`${s.name.padEnd(32)} ${(s.expected.stage ?? '-').padEnd(26)} ${(s.expected.category ?? '-').padEnd(22)} ${s.version} ${s.platform}\n`);
    return 0;
  }
  const chosen = args.scenario ? SCENARIOS.filter((s) => s.name === args.scenario) : SCENARIOS;
  if (chosen.length === 0) throw new Error(`no scenario named ${args.scenario} (see --list)`);
  const bench = args.scale !== 1;
  const root = args.out ? resolve(args.out) : bench ? '/tmp/bootlens-bench' : samplesDir();
  let total = 0;
  for (const spec of chosen) {
    const g = await generate(spec, { dir: join(root, spec.name), scale: args.scale, docs: !bench || !!args.out });
    total += g.bytes;
    process.stdout.write(`${spec.name}: ${g.archive} (${g.bytes} bytes)\n`);
  }
  process.stdout.write(`${chosen.length} bundle(s), ${total} bytes\n`);
  if (!bench && !args.scenario && !args.out) writeFileSync(join(root, 'README.md'), indexReadme());
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`samples: ${(err as Error).message ?? String(err)}\n`);
    process.exitCode = 2;
  },
);
