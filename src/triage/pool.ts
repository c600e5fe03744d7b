// Runs analyses on a pool of worker threads (one per core by default) and yields records in
// completion order; callers sort for deterministic output. Each bundle gets a time limit and
// each worker a heap limit: a bundle over either becomes a `failed-to-analyze` record with the
// reason, its worker is replaced, and the run goes on.
import { availableParallelism } from 'node:os';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { Worker } from 'node:worker_threads';
import { packageRoot } from '../util/package-root.js';
import { failedRecord, type TriageRecord } from './record.js';
import type { WorkerInit, WorkerReady, WorkerRequest, WorkerResponse } from './worker.js';

/** What one bundle may take. */
export interface BundleLimits {
  /** Wall-clock milliseconds from the bundle's hand-over to its record. */
  timeoutMs: number;
  /** The worker's V8 old-generation heap, MB. */
  memoryMb: number;
}

/**
 * Ten minutes: a 400 MB bundle takes a few seconds, the largest a bundle may be read to (32 GB)
 * a few minutes. 2 GB of heap: analyses peak at 200 MB, a crafted one that needs more is cut off
 * before it takes the machine (and triage with it).
 */
export const DEFAULT_BUNDLE_LIMITS: BundleLimits = { timeoutMs: 600_000, memoryMb: 2048 };

export interface PoolOptions extends WorkerInit {
  jobs?: number;
  limits?: Partial<BundleLimits>;
  onRecord?: (record: TriageRecord, done: number, total: number) => void;
  /** Each worker's share once all are done: bundles analyzed and CPU seconds of its thread. */
  onWorkers?: (workers: WorkerStats[]) => void;
}

/** What one worker did. */
export interface WorkerStats {
  bundles: number;
  cpuSeconds: number;
}

/** A worker that could not start (a rules folder that does not load): the run cannot go on. */
export class PoolError extends Error {
  override readonly name = 'PoolError';
}

/**
 * `BOOTLENS_WORKER_STATS=1` prints each worker's share on stderr when the pool is done (for
 * `npm run bench`: whether the second worker did half the work, and at what CPU cost).
 */
function printStats(workers: readonly WorkerStats[]): void {
  const each = workers.map((w, i) => `worker ${i + 1}: ${w.bundles} bundles, ${w.cpuSeconds.toFixed(2)} s CPU`);
  process.stderr.write(`bootlens-worker-stats ${JSON.stringify(workers)} (${each.join('; ')})\n`);
}

/** The compiled worker; when this module runs from source (tests), the built copy in dist/. */
function workerUrl(): URL {
  if (import.meta.url.endsWith('.ts')) return pathToFileURL(join(packageRoot(), 'dist', 'src', 'triage', 'worker.js'));
  return new URL('./worker.js', import.meta.url);
}

/**
 * Each worker's young-generation collections run on its own thread. V8 helps a collection
 * with tasks on its shared pool of background threads (four, whatever the cores); with one
 * worker per core those tasks only take the cores from the other workers: on two cores,
 * triage of 40 bundles took 7.9 s with one worker and 6.3 s with two, 6.9 s and 5.6 s without
 * them. Set before the workers start (the main thread only hands out paths).
 */
function scavengeAlone(): void {
  setFlagsFromString('--no-parallel-scavenge');
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

/** Why a worker ended while a bundle was in it, as a record's one-line reason. */
function reasonOf(err: unknown, limits: BundleLimits): string {
  const e = err as NodeJS.ErrnoException | undefined;
  if (e?.code === 'ERR_WORKER_OUT_OF_MEMORY') return `over the memory limit: the analysis needed more than ${limits.memoryMb} MB of heap (--bundle-memory)`;
  return `the analysis stopped: ${String(e?.message ?? err).split('\n')[0]}`;
}

/** Analyzes every path; resolves with one record per path. */
export async function analyzeMany(paths: readonly string[], options: PoolOptions): Promise<TriageRecord[]> {
  const jobs = Math.max(1, Math.min(options.jobs ?? availableParallelism(), paths.length));
  const limits: BundleLimits = { ...DEFAULT_BUNDLE_LIMITS, ...options.limits };
  const records: TriageRecord[] = [];
  if (paths.length === 0) return records;
  scavengeAlone();
  const init: WorkerInit = {
    version: options.version,
    ...(options.rulesDir ? { rulesDir: options.rulesDir } : {}),
    ...(options.similarity ? { similarity: options.similarity } : {}),
  };
  const url = workerUrl();
  let next = 0;
  const stats: WorkerStats[] = Array.from({ length: jobs }, () => ({ bundles: 0, cpuSeconds: 0 }));
  /** Every worker alive: a run that cannot go on ends them all, or they would keep the process. */
  const alive = new Set<Worker>();

  /** One lane: a worker at a time, replaced when a bundle takes it down, until the paths run out. */
  const lane = (w: number): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      let settled = false;
      const finish = (err?: Error): void => {
        if (settled) return;
        settled = true;
        if (err) {
          for (const other of alive) void other.terminate();
          reject(err);
        } else resolve();
      };
      /** CPU seconds of the workers this lane has replaced. */
      let cpuBefore = 0;
      const done = (record: TriageRecord): void => {
        records.push(record);
        options.onRecord?.(record, records.length, paths.length);
      };
      const start = (): void => {
        const worker = new Worker(url, { workerData: init, resourceLimits: { maxOldGenerationSizeMb: limits.memoryMb } });
        alive.add(worker);
        worker.on('exit', () => alive.delete(worker));
        let ready = false;
        let current: WorkerRequest | undefined;
        let timer: NodeJS.Timeout | undefined;
        let ended = false;
        /** The worker is gone with a bundle in it: that bundle's record says why, another worker takes the rest. */
        const lost = (reason: string): void => {
          if (ended) return;
          ended = true;
          clearTimeout(timer);
          if (!ready) {
            finish(new PoolError(`a triage worker could not start: ${reason}`));
            return;
          }
          if (current) {
            stats[w].bundles++;
            done(failedRecord(current.path, basename(current.path), reason));
          }
          current = undefined;
          cpuBefore = stats[w].cpuSeconds;
          // A worker stuck in native code (a regex backtracking) may outlive terminate(): it must not
          // keep the process alive once the run is over.
          worker.unref();
          void worker.terminate();
          if (next < paths.length && !settled) start();
          else finish();
        };
        const send = (): void => {
          if (settled || next >= paths.length) {
            ended = true;
            void worker.terminate().then(() => finish());
            return;
          }
          current = { id: next, path: paths[next] };
          next++;
          const req = current;
          timer = setTimeout(() => {
            if (current === req) lost(`over the time limit: the analysis took longer than ${seconds(limits.timeoutMs)} (--bundle-timeout)`);
          }, limits.timeoutMs);
          worker.postMessage(req);
        };
        worker.on('message', (msg: WorkerResponse | WorkerReady) => {
          if ('ready' in msg) {
            ready = true;
            send();
            return;
          }
          if (!current || msg.id !== current.id) return;
          clearTimeout(timer);
          current = undefined;
          stats[w].bundles++;
          stats[w].cpuSeconds = cpuBefore + msg.cpuMs / 1000;
          done(msg.record);
          send();
        });
        worker.on('error', (err) => lost(ready ? reasonOf(err, limits) : String((err as Error)?.message ?? err).split('\n')[0]));
        worker.on('exit', (code) => lost(`the analysis stopped: its worker exited with code ${code}`));
      };
      start();
    });

  await Promise.all(Array.from({ length: jobs }, (_, w) => lane(w)));
  options.onWorkers?.(stats);
  if (process.env.BOOTLENS_WORKER_STATS === '1') printStats(stats);
  return records;
}
