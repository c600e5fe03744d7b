// `node dist/scripts/verdict-snapshot.js --bundles DIR --out DIR`: writes `analyze --format json`
// for the 19 samples and every real corpus case, so a restructuring can prove it changed no verdict;
// `--compare A B` then says which outputs differ. The corpus is laid out into `--bundles` once
// (`cases.json` records each case's command line) and reused, so the analyzer is all that varies.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadCorpus } from '../test/corpus/real/cases.js';
import { layOut } from '../test/corpus/real/layout.js';

interface Run {
  name: string;
  args: string[];
}

const args = process.argv.slice(2);
const flag = (name: string): string | undefined => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const root = resolve(import.meta.dirname, '..', '..');

/** The tool's own timing fields, the only part of a report allowed to differ between runs. */
function withoutTimings(json: string): string {
  return JSON.stringify(JSON.parse(json, (key, value: unknown) => (key === 'timing' || key === 'elapsedMs' ? undefined : value)), null, 2);
}

async function corpusRuns(dir: string): Promise<Run[]> {
  const listing = join(dir, 'cases.json');
  if (!existsSync(listing)) {
    const runs: Run[] = [];
    for (const c of loadCorpus().cases) {
      const laid = await layOut(c, join(dir, c.id), { installer: 'beside', headers: true });
      const extra = laid.installLog && laid.installLog !== laid.input ? ['--install-log', laid.installLog] : [];
      runs.push({ name: `corpus-${c.id}`, args: [laid.input, ...extra] });
    }
    mkdirSync(dir, { recursive: true });
    writeFileSync(listing, JSON.stringify(runs, null, 2));
  }
  return JSON.parse(readFileSync(listing, 'utf8')) as Run[];
}

function sampleRuns(): Run[] {
  const dir = join(root, 'samples');
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && d.name !== 'generator')
    .map((d) => {
      const bundle = readdirSync(join(dir, d.name)).find((f) => f.startsWith('log-bundle-'));
      if (!bundle) throw new Error(`sample ${d.name} holds no log-bundle-*`);
      return { name: `sample-${d.name}`, args: [join(dir, d.name, bundle)] };
    });
}

function compare(a: string, b: string): number {
  const names = [...new Set([...readdirSync(a), ...readdirSync(b)])].sort();
  let differ = 0;
  for (const n of names) {
    const pa = join(a, n);
    const pb = join(b, n);
    if (!existsSync(pa) || !existsSync(pb) || readFileSync(pa, 'utf8') !== readFileSync(pb, 'utf8')) {
      console.log(`differs: ${n}`);
      differ++;
    }
  }
  console.log(`${names.length - differ} of ${names.length} identical`);
  return differ === 0 ? 0 : 1;
}

if (args[0] === '--compare') {
  process.exitCode = compare(args[1], args[2]);
} else {
  const bundles = flag('--bundles');
  const out = flag('--out');
  if (!bundles || !out) {
    console.error('usage: verdict-snapshot --bundles DIR --out DIR | --compare A B');
    process.exit(2);
  }
  mkdirSync(out, { recursive: true });
  const runs = [...sampleRuns(), ...(await corpusRuns(resolve(bundles)))];
  const cli = join(root, 'dist', 'src', 'cli', 'main.js');
  for (const r of runs) {
    const p = spawnSync(process.execPath, [cli, 'analyze', ...r.args, '--format', 'json'], { encoding: 'utf8', maxBuffer: 1 << 28 });
    // A refused input (exit 2) is an outcome too: its message is kept in place of a report.
    const text = p.status === 0 || p.status === 1 ? withoutTimings(p.stdout) : `exit ${p.status}\n${p.stderr}`;
    writeFileSync(join(out, `${r.name}.json`), text);
  }
  console.log(`${runs.length} reports written to ${out}`);
}
