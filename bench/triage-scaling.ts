// How `bootlens triage` scales with worker threads: times the real CLI (`triage --jobs N
// --format json`, as a child process) over the same set of bundles for each N, and reports
// seconds, bundles per second and the speedup over one worker. The bundles are generated
// with the samples generator (a few scenarios at a modest --scale, cached in the temp folder)
// and copied to make a set big enough that worker start-up does not dominate.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { packageRoot } from '../src/util/package-root.js';

export interface TriageScalingRow {
  jobs: number;
  /** Wall seconds of the whole CLI run (start-up included), the fastest of the repeats. */
  seconds: number;
  bundlesPerSecond: number;
  /** CPU seconds (user + system, every thread) of that run, when /usr/bin/time is there to tell. */
  cpuSeconds?: number;
  /** Peak RSS of that run (MB), when /usr/bin/time is there to tell. */
  rssMb?: number;
  /** Each worker's bundles and the CPU seconds of its own thread, as the workers report them. */
  workers?: { bundles: number; cpuSeconds: number }[];
}

export interface TriageScalingOptions {
  /** Bundle files (or folders) given to every run, in this order. */
  bundles: string[];
  /** The `--jobs` values to time, e.g. [1, 2]. */
  jobs: number[];
  /** Runs per jobs value, interleaved (1, 2, 1, 2...); the fastest counts. Default 2. */
  repeats?: number;
  /** Progress lines (default: none). */
  log?: (line: string) => void;
}

export interface PrepareOptions {
  /** How many bundle files the set holds (copies of the generated ones). Default 40. */
  count?: number;
  /** The generator's --scale for each scenario. Default 60 (about 10 MB of logs a bundle). */
  scale?: number;
  /** Scenarios to generate (see `node dist/samples/generator/cli.js --list`). */
  scenarios?: string[];
  /** Where the generated bundles and the set are kept. Default: <tmpdir>/bootlens-triage-scaling. */
  dir?: string;
  log?: (line: string) => void;
}

/** The one-worker target for two workers (issue 17). */
export const TRIAGE_SCALING_TARGET = 1.5;

/** Failures of different stages and sizes, a healthy install among them. */
export const DEFAULT_SCENARIOS = [
  'api-int-dns-missing',
  'bootstrap-api-never-up-oom',
  'bootstrap-disk-full',
  'healthy-vsphere-416',
  'masters-image-pull-timeout',
  'ovn-no-default-route',
  'wait-for-ceo-timeout',
  'workers-csr-pending',
];

const ROOT = packageRoot();
const CLI = join(ROOT, 'dist', 'src', 'cli', 'main.js');
const GENERATOR = join(ROOT, 'dist', 'samples', 'generator', 'cli.js');

function run(args: string[], what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (b: Buffer) => {
      err = (err + b.toString('utf8')).slice(-2000);
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${what} exited with ${code}: ${err.trim().split('\n').slice(-3).join(' | ')}`))));
  });
}

/** A hash of the built generator: its bundles are kept until the generator changes. */
function generatorHash(): string {
  const dir = dirname(GENERATOR);
  const hash = createHash('sha256');
  const walk = (d: string): void => {
    for (const n of readdirSync(d).sort()) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else if (n.endsWith('.js')) hash.update(p.slice(dir.length)).update(readFileSync(p));
    }
  };
  walk(dir);
  return hash.digest('hex').slice(0, 16);
}

function generatedBundle(dir: string): string | undefined {
  if (!existsSync(dir)) return undefined;
  const name = readdirSync(dir).find((n) => /^log-bundle-.*\.tar\.gz$/.test(n));
  return name ? join(dir, name) : undefined;
}

/**
 * Generates each scenario once at `scale` (several at a time, kept for the next run while the
 * generator stays the same) and copies them round-robin into a set of `count` bundle files.
 * Resolves with the files of the set, sorted.
 */
export async function prepareTriageBundles(options: PrepareOptions = {}): Promise<string[]> {
  const count = options.count ?? 40;
  const scale = options.scale ?? 60;
  const scenarios = options.scenarios ?? DEFAULT_SCENARIOS;
  const log = options.log ?? (() => undefined);
  const root = options.dir ?? join(tmpdir(), 'bootlens-triage-scaling');
  const generated = join(root, `x${scale}`);
  const stampFile = join(generated, 'stamp.json');
  const stamp = JSON.stringify({ scale, generator: generatorHash() });
  if (!existsSync(stampFile) || readFileSync(stampFile, 'utf8') !== stamp) rmSync(generated, { recursive: true, force: true });
  mkdirSync(generated, { recursive: true });

  const missing = scenarios.filter((s) => !generatedBundle(join(generated, s)));
  let next = 0;
  const generateOne = async (): Promise<void> => {
    while (next < missing.length) {
      const scenario = missing[next++];
      log(`generating ${scenario} at --scale ${scale}`);
      await run([GENERATOR, '--scenario', scenario, '--scale', String(scale), '--out', generated], `generator (${scenario})`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(availableParallelism(), missing.length) }, generateOne));
  // Written only once every bundle is complete: an interrupted run starts over next time.
  writeFileSync(stampFile, stamp);

  const sources = scenarios.map((s) => {
    const bundle = generatedBundle(join(generated, s));
    if (!bundle) throw new Error(`the generator wrote no bundle for ${s}`);
    return { scenario: s, bundle };
  });
  const set = join(root, `set-x${scale}-${count}`);
  rmSync(set, { recursive: true, force: true });
  mkdirSync(set, { recursive: true });
  const files: string[] = [];
  for (let i = 0; i < count; i++) {
    const { scenario, bundle } = sources[i % sources.length];
    const file = join(set, `${String(i + 1).padStart(3, '0')}-${scenario}.tar.gz`);
    copyFileSync(bundle, file);
    files.push(file);
  }
  const bytes = files.reduce((n, f) => n + statSync(f).size, 0);
  log(`${files.length} bundles (${scenarios.length} scenarios at --scale ${scale}, ${(bytes / 1048576).toFixed(1)} MB compressed) in ${set}`);
  return files.sort();
}

const GNU_TIME = '/usr/bin/time';

/**
 * One `bootlens triage --jobs N --format json` run, its summary thrown away: wall seconds, and
 * CPU seconds of the process (all its threads) when GNU time can measure them.
 */
type TriageRun = Omit<TriageScalingRow, 'jobs' | 'bundlesPerSecond'>;

function timeTriage(bundles: string[], jobs: number): Promise<TriageRun> {
  const args = [CLI, 'triage', '--jobs', String(jobs), '--format', 'json', '--output', '/dev/null', ...bundles];
  const timed = existsSync(GNU_TIME);
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(timed ? GNU_TIME : process.execPath, timed ? ['-f', 'bootlens-cpu %U %S %M', process.execPath, ...args] : args, {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, NO_COLOR: '1', BOOTLENS_WORKER_STATS: '1' },
    });
    let err = '';
    let workers: TriageRun['workers'];
    child.stderr.on('data', (b: Buffer) => {
      err = (err + b.toString('utf8')).slice(-4000);
      const stats = /bootlens-worker-stats (\[[^\n]*?\]) \(/.exec(err);
      if (stats) workers = JSON.parse(stats[1]) as TriageRun['workers'];
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const cpu = /bootlens-cpu ([\d.]+) ([\d.]+) (\d+)\s*$/.exec(err);
      // 0: nothing failed; 1: failures found (the usual case here); anything else is an error.
      if (code === 0 || code === 1) {
        resolve({ seconds, ...(cpu ? { cpuSeconds: Number(cpu[1]) + Number(cpu[2]), rssMb: Math.round(Number(cpu[3]) / 1024) } : {}), ...(workers ? { workers } : {}) });
      }
      else reject(new Error(`triage --jobs ${jobs} exited with ${code}: ${err.trim().split('\n').slice(-3).join(' | ')}`));
    });
  });
}

/** Times the CLI over `bundles` for each jobs value; one row per value, in the order given. */
export async function measureTriageScaling(options: TriageScalingOptions): Promise<TriageScalingRow[]> {
  if (options.bundles.length === 0) throw new Error('no bundles to triage');
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build first (npx tsc -p tsconfig.json)`);
  const repeats = Math.max(1, options.repeats ?? 2);
  const best = new Map<number, TriageRun>();
  for (let r = 0; r < repeats; r++) {
    for (const jobs of options.jobs) {
      const t = await timeTriage(options.bundles, jobs);
      options.log?.(`triage --jobs ${jobs}: ${t.seconds.toFixed(2)} s${t.cpuSeconds !== undefined ? `, ${t.cpuSeconds.toFixed(2)} s CPU` : ''} (run ${r + 1} of ${repeats})`);
      if (t.seconds < (best.get(jobs)?.seconds ?? Infinity)) best.set(jobs, t);
    }
  }
  return options.jobs.map((jobs) => {
    const t = best.get(jobs) as TriageRun;
    const row: TriageScalingRow = { jobs, seconds: Math.round(t.seconds * 1000) / 1000, bundlesPerSecond: Math.round((options.bundles.length / t.seconds) * 100) / 100 };
    if (t.cpuSeconds !== undefined) row.cpuSeconds = Math.round(t.cpuSeconds * 100) / 100;
    if (t.rssMb !== undefined) row.rssMb = t.rssMb;
    if (t.workers) row.workers = t.workers;
    return row;
  });
}

/**
 * What two workers can reach at best, from the CPU of one: a worker keeps more than one core
 * busy (V8 compiles and collects for it, zlib inflates for it, on threads of their own), so on
 * `cores` cores two workers gain at most `min(2, cores) / cores busy with one`; and how much more
 * CPU two used than one for the same bundles (each isolate compiles and warms up the same code).
 */
function triageCeiling(one: TriageScalingRow, two: TriageScalingRow, cores: number): string | undefined {
  if (one.cpuSeconds === undefined || two.cpuSeconds === undefined) return undefined;
  const busy = one.cpuSeconds / one.seconds;
  const ceiling = Math.min(2, cores) / busy;
  const more = (two.cpuSeconds / one.cpuSeconds - 1) * 100;
  const cpu = `${Math.abs(more).toFixed(0)} % ${more >= 0 ? 'more' : 'less'} CPU than one`;
  return `Ceiling: one worker keeps ${busy.toFixed(2)} cores busy, so on ${cores} core${cores === 1 ? '' : 's'} two can reach ${ceiling.toFixed(2)}× at most; two used ${cpu}`;
}

/**
 * A small table: seconds, bundles per second, speedup over jobs=1 and, when measured, how many
 * cores the run kept busy (CPU seconds / wall seconds); then the target, what was measured, and
 * the ceiling the CPU figures set (`cores`: this machine's, unless given).
 */
export function formatTriageScaling(rows: readonly TriageScalingRow[], cores = availableParallelism()): string {
  const one = rows.find((r) => r.jobs === 1);
  const speedup = (r: TriageScalingRow): number | undefined => (one ? one.seconds / r.seconds : undefined);
  const bundles = rows[0] ? Math.round(rows[0].seconds * rows[0].bundlesPerSecond) : 0;
  const cpu = rows.some((r) => r.cpuSeconds !== undefined);
  const out = [
    `Triage scaling: ${bundles} bundles, ${cores} cores (wall time of the whole CLI run)`,
    `${'jobs'.padStart(4)}  ${'seconds'.padStart(8)}  ${'bundles/s'.padStart(9)}  ${'speedup'.padStart(7)}${cpu ? `  ${'CPU s'.padStart(6)}  ${'cores busy'.padStart(10)}` : ''}`,
  ];
  for (const r of rows) {
    const s = speedup(r);
    const cores = r.cpuSeconds !== undefined ? `  ${r.cpuSeconds.toFixed(2).padStart(6)}  ${(r.cpuSeconds / r.seconds).toFixed(2).padStart(10)}` : cpu ? `  ${'-'.padStart(6)}  ${'-'.padStart(10)}` : '';
    const each = r.workers ? `  workers: ${r.workers.map((w) => `${w.bundles} bundles ${w.cpuSeconds.toFixed(2)} s CPU`).join(', ')}` : '';
    const rss = r.rssMb !== undefined ? `  peak RSS ${r.rssMb} MB` : '';
    out.push(`${String(r.jobs).padStart(4)}  ${r.seconds.toFixed(2).padStart(8)}  ${r.bundlesPerSecond.toFixed(1).padStart(9)}  ${(s === undefined ? '-' : `${s.toFixed(2)}×`).padStart(7)}${cores}${rss}${each}`);
  }
  out.push(`Target: 2 workers ≥ ${TRIAGE_SCALING_TARGET}× one worker`);
  const two = rows.find((r) => r.jobs === 2);
  const s2 = two ? speedup(two) : undefined;
  if (s2 !== undefined) out.push(`Measured: 2 workers ${s2.toFixed(2)}× one worker (${s2 >= TRIAGE_SCALING_TARGET ? 'met' : 'not met'})`);
  const ceiling = one && two ? triageCeiling(one, two, cores) : undefined;
  if (ceiling) out.push(ceiling);
  return out.join('\n') + '\n';
}
