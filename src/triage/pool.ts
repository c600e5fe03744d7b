// Runs analyses on a pool of worker threads (one per core by default) and yields records in
// completion order; callers sort for deterministic output.
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { packageRoot } from '../util/package-root.js';
import type { TriageRecord } from './record.js';
import type { WorkerInit, WorkerRequest, WorkerResponse } from './worker.js';

export interface PoolOptions extends WorkerInit {
  jobs?: number;
  onRecord?: (record: TriageRecord, done: number, total: number) => void;
}

/** The compiled worker; when this module runs from source (tests), the built copy in dist/. */
function workerUrl(): URL {
  if (import.meta.url.endsWith('.ts')) return pathToFileURL(join(packageRoot(), 'dist', 'src', 'triage', 'worker.js'));
  return new URL('./worker.js', import.meta.url);
}

/** Analyzes every path; resolves with one record per path. */
export async function analyzeMany(paths: readonly string[], options: PoolOptions): Promise<TriageRecord[]> {
  const jobs = Math.max(1, Math.min(options.jobs ?? availableParallelism(), paths.length));
  const records: TriageRecord[] = [];
  if (paths.length === 0) return records;
  const init: WorkerInit = {
    version: options.version,
    ...(options.rulesDir ? { rulesDir: options.rulesDir } : {}),
    ...(options.similarity ? { similarity: options.similarity } : {}),
  };
  const url = workerUrl();
  let next = 0;
  await Promise.all(
    Array.from({ length: jobs }, () => {
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
          records.push(res.record);
          options.onRecord?.(res.record, records.length, paths.length);
          send();
        });
        worker.on('error', reject);
        worker.on('online', send);
      });
    }),
  );
  return records;
}
