// Runs analyses on a pool of worker threads (one per core by default) and yields records in
// completion order; callers sort for deterministic output.
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { Worker } from 'node:worker_threads';
import { packageRoot } from '../util/package-root.js';
import type { TriageRecord } from './record.js';
import type { WorkerInit, WorkerRequest, WorkerResponse } from './worker.js';

export interface PoolOptions extends WorkerInit {
  jobs?: number;
  onRecord?: (record: TriageRecord, done: number, total: number) => void;
  /** Each worker's share once all are done: bundles analyzed and CPU seconds of its thread. */
  onWorkers?: (workers: WorkerStats[]) => void;
}

/** What one worker did. */
export interface WorkerStats {
  bundles: number;
  cpuSeconds: number;
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

/** Analyzes every path; resolves with one record per path. */
export async function analyzeMany(paths: readonly string[], options: PoolOptions): Promise<TriageRecord[]> {
  const jobs = Math.max(1, Math.min(options.jobs ?? availableParallelism(), paths.length));
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
  await Promise.all(
    Array.from({ length: jobs }, (_, w) => {
      const worker = new Worker(url, { workerData: init });
      return new Promise<void>((resolve, reject) => {
        const send = (): void => {
          if (next >= paths.length) {
            void worker.terminate().then(() => resolve());
            return;
          }
          const req: WorkerRequest = { id: next, path: paths[next] };
          next++;
          worker.postMessage(req);
        };
        worker.on('message', (res: WorkerResponse) => {
          stats[w].bundles++;
          stats[w].cpuSeconds = res.cpuMs / 1000;
          records.push(res.record);
          options.onRecord?.(res.record, records.length, paths.length);
          send();
        });
        worker.on('error', reject);
        worker.on('online', send);
      });
    }),
  );
  options.onWorkers?.(stats);
  if (process.env.BOOTLENS_WORKER_STATS === '1') printStats(stats);
  return records;
}
