// `npm run bench`: generates bundles of about 100 MB and 1 GB uncompressed with the samples
// generator's --scale, then measures side by side the gzip floor (`gzip -dc`), what a person
// does by hand (`tar -xzf` + `grep -rE` of the rules' patterns) and `bootlens analyze` (with
// each similarity mode available): wall time (the better of two runs, tar + grep once), ratio to
// the floor, lines per second, peak RSS.
// Usage: npm run bench [-- --sizes 100,1000] [-- --scenario NAME] [-- --model DIR (adds --similarity embeddings)] [-- --triage no]
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadRules } from '../src/rules/load-rules.js';
import { formatMiningBench, measureMining } from '../src/similarity/bench.js';
import { formatTriageScaling, measureTriageScaling, prepareTriageBundles } from './triage-scaling.js';
import { packageRoot } from '../src/util/package-root.js';

interface Measure {
  label: string;
  seconds: number;
  rssMb: number;
}

const ROOT = packageRoot();
const CLI = join(ROOT, 'dist', 'src', 'cli', 'main.js');
const GENERATOR = join(ROOT, 'dist', 'samples', 'generator', 'cli.js');
const WORK = join(tmpdir(), 'bootlens-bench');

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

/** Runs a shell command under GNU time: wall seconds and the peak RSS of the command tree. */
function timed(label: string, command: string): Measure {
  const r = spawnSync('/usr/bin/time', ['-f', '%e %M', 'bash', '-c', command], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const last = r.stderr.trim().split('\n').pop() ?? '';
  const [secs, kb] = last.split(' ').map(Number);
  if (!Number.isFinite(secs)) throw new Error(`${label}: ${r.stderr.slice(-500)}`);
  return { label, seconds: secs, rssMb: kb / 1024 };
}

/** The faster of two runs: a shared machine's noise only ever adds time. */
function best(label: string, command: string): Measure {
  const a = timed(label, command);
  const b = timed(label, command);
  return a.seconds <= b.seconds ? a : b;
}

function findBundle(dir: string): string {
  const stack = [dir];
  while (stack.length) {
    const d = stack.pop() as string;
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) stack.push(p);
      else if (/^log-bundle-.*\.tar\.gz$/.test(n)) return p;
    }
  }
  throw new Error(`no log-bundle-*.tar.gz under ${dir}`);
}

function generate(scenario: string, scale: number): string {
  const out = join(WORK, `${scenario}-x${scale}`);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  execFileSync(process.execPath, [GENERATOR, '--scenario', scenario, '--scale', String(scale), '--out', out], { stdio: 'inherit' });
  return findBundle(out);
}

function uncompressedBytes(bundle: string): number {
  return Number(execFileSync('bash', ['-c', `gzip -dc '${bundle}' | wc -c`], { encoding: 'utf8' }).trim());
}

function sh(command: string): string {
  return execFileSync('bash', ['-c', command], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }).trim();
}

/** Whether the bundle holds per-master tarballs (`control-plane/<ip>/*.tar.gz`), as real ones do. */
function hasNested(bundle: string): boolean {
  return /\.tar\.gz$/m.test(sh(`tar -tzf '${bundle}'`));
}

/** Bytes and lines of all text, nested archives decompressed too (what bootlens reads). */
function textSize(bundle: string): { bytes: number; lines: number } {
  const outer = `tar -xzOf '${bundle}' --exclude='*.tar.gz' 2>/dev/null`;
  const inner = `tar -xzOf '${bundle}' --wildcards '*.tar.gz' 2>/dev/null | gzip -dc | tar -xOf - 2>/dev/null`;
  const count = (cmd: string): number[] => sh(`${cmd} | wc -cl`).split(/\s+/).map(Number);
  const [l1, b1] = count(outer);
  const [l2, b2] = hasNested(bundle) ? count(inner) : [0, 0];
  return { bytes: b1 + b2, lines: l1 + l2 };
}

/** The literal and regex patterns of the YAML rules, as one `grep -E` pattern file. */
function grepPatterns(file: string): void {
  const { docs } = loadRules();
  const patterns: string[] = [];
  for (const doc of docs.values()) {
    for (const m of [...(doc.match.any ?? []), ...(doc.match.all ?? [])]) {
      if (m.contains) patterns.push(m.contains.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
      else if (m.regex) patterns.push(m.regex.replace(/\(\?<\w+>/g, '('));
    }
  }
  writeFileSync(file, patterns.join('\n') + '\n');
}

async function main(): Promise<void> {
  if (!existsSync(GENERATOR)) throw new Error('the samples generator is not built: run `npm run build` first');
  if (!existsSync('/usr/bin/time')) throw new Error('GNU time (/usr/bin/time) is needed: apt-get install time');
  const scenario = arg('scenario', 'legacy-etcd-slow-disk');
  const sizes = arg('sizes', '100,1000').split(',').map(Number);
  mkdirSync(WORK, { recursive: true });
  const patterns = join(WORK, 'patterns.txt');
  grepPatterns(patterns);
  // Calibrate: size grows linearly with the scale (noise) above a fixed part (the story).
  const base = uncompressedBytes(generate(scenario, 1));
  const probe = 200;
  const slope = Math.max(1, (uncompressedBytes(generate(scenario, probe)) - base) / (probe - 1));
  const rows: string[] = [];
  const modelDir = arg('model', '');
  let largest = '';
  for (const mb of sizes) {
    const scale = Math.max(1, Math.round((mb * 1024 * 1024 - base) / slope) + 1);
    const bundle = generate(scenario, scale);
    execFileSync('sync');
    const bytes = uncompressedBytes(bundle);
    const text = textSize(bundle);
    const extract = join(WORK, 'extract');
    const measures: Measure[] = [];
    measures.push(best('gzip -dc (floor)', `gzip -dc '${bundle}' > /dev/null`));
    if (hasNested(bundle)) {
      // The masters' tarballs inside are compressed again: decompressing them too is the real floor.
      measures.push(best('gzip -dc, nested tarballs too', `tar -xzOf '${bundle}' --wildcards '*.tar.gz' | gzip -dc > /dev/null`));
    }
    for (const mode of ['off', 'lexical', ...(modelDir ? ['embeddings'] : [])]) {
      const flag = `--similarity ${mode}${mode === 'embeddings' ? ` --model '${modelDir}'` : ''}`;
      measures.push(best(`bootlens analyze --similarity ${mode}`, `node '${CLI}' analyze '${bundle}' ${flag} --format json --output /dev/null; test $? -le 1`));
    }
    // Last, and synced: the 1 GB it writes would still be flushing during the runs after it.
    measures.push(timed('tar -xzf + grep -rE', `rm -rf '${extract}' && mkdir -p '${extract}' && tar -xzf '${bundle}' -C '${extract}' && grep -rEc -f '${patterns}' '${extract}' > /dev/null; rm -rf '${extract}'; sync`));
    const floor = measures[0].seconds;
    rows.push(
      `\n${scenario} ×${scale}: ${(bytes / 1048576).toFixed(0)} MB uncompressed (${(text.bytes / 1048576).toFixed(0)} MB of text with the nested tarballs), ` +
        `${(statSync(bundle).size / 1048576).toFixed(1)} MB gzip, ${text.lines} lines`,
    );
    rows.push(`${'command'.padEnd(40)} ${'wall s'.padStart(8)} ${'× floor'.padStart(8)} ${'lines/s'.padStart(12)} ${'peak RSS MB'.padStart(12)}`);
    for (const m of measures) {
      rows.push(`${m.label.padEnd(40)} ${m.seconds.toFixed(2).padStart(8)} ${(m.seconds / floor).toFixed(2).padStart(8)} ${Math.round(text.lines / Math.max(m.seconds, 0.001)).toString().padStart(12)} ${m.rssMb.toFixed(0).padStart(12)}`);
    }
    const off = measures.find((m) => m.label.endsWith('off'));
    for (const m of measures.filter((x) => x.label.startsWith('bootlens') && x !== off)) {
      if (off) rows.push(`${m.label.replace('bootlens analyze ', '')} adds ${(m.seconds - off.seconds).toFixed(2)} s to --similarity off`);
    }
    if (largest) rmSync(largest, { force: true });
    largest = bundle;
  }
  console.log(rows.join('\n'));
  console.log('\nTargets: analyze ≤ 1.5× the gzip floor on the 1 GB bundle; peak RSS ≤ 300 MB; faster than tar + grep.');
  if (largest) {
    // Mining throughput and what each mode adds, measured in-process on the largest bundle.
    const mining = await measureMining(largest, modelDir ? { modelDir } : {});
    console.log(`\n${formatMiningBench(mining)}`);
    rmSync(largest, { force: true });
  }
  if (arg('triage', 'yes') !== 'no') {
    // Batch triage: the same set of bundles with one worker and with two.
    const bundles = await prepareTriageBundles();
    console.log(`\ntriage of ${bundles.length} generated bundles:\n${formatTriageScaling(await measureTriageScaling({ bundles, jobs: [1, 2] }))}`);
  }
}

main().catch((err: unknown) => {
  console.error(`bench: ${(err as Error).message ?? String(err)}`);
  process.exitCode = 1;
});
