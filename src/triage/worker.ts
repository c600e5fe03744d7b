// A triage worker thread: loads the rules once, says it is ready, then analyzes the bundles it is
// sent, one at a time, answering with one record each. A bundle that fails never stops the
// worker; one that runs over its time or memory ends it, and the pool starts another.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { analyzeBundle } from '../analysis/analyze.js';
import { InputError } from '../archive/walk-bundle.js';
import { redactDeep, redactText } from '../redact/redact.js';
import { shippedKnowledgeBase, type SimilarityOptions } from '../analysis/similarity-step.js';
import { loadRules } from '../rules/load-rules.js';
import { failedRecord, recordOf, unreadableRecord, type TriageRecord } from './record.js';

export interface WorkerInit {
  rulesDir?: string;
  version: string;
  /** Similar known issues for each bundle; off when absent. */
  similarity?: SimilarityOptions;
}

export interface WorkerRequest {
  id: number;
  path: string;
}

/** The first message: rules and knowledge base loaded, bundles may come. */
export interface WorkerReady {
  ready: true;
}

export interface WorkerResponse {
  id: number;
  record: TriageRecord;
  /** CPU milliseconds this worker's thread has used so far (its event loop's busy time where the OS cannot tell). */
  cpuMs: number;
}

/** Clock ticks per second of /proc's times: 100 on every Linux that matters. */
const TICKS_PER_SECOND = 100;

/**
 * The CPU time of this thread alone (user + system), from /proc/thread-self/stat: the process's
 * own figure would count the other workers and zlib's threads too.
 */
function threadCpuMs(): number {
  try {
    const stat = readFileSync('/proc/thread-self/stat', 'utf8');
    // Fields after the command name (which may hold spaces) start at state, field 3.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    if (Number.isFinite(ticks)) return (ticks * 1000) / TICKS_PER_SECOND;
  } catch {
    // Not Linux: fall through.
  }
  return performance.eventLoopUtilization().active;
}

/** An error as one redacted line. */
function oneLine(err: unknown): string {
  return redactText(String((err as Error)?.message ?? err)).split('\n')[0];
}

const init = workerData as WorkerInit;
const { rules } = loadRules(init.rulesDir);
// Loaded once per worker, like the rules.
const similarity: SimilarityOptions | undefined =
  init.similarity && init.similarity.mode !== 'off' ? { ...init.similarity, kb: shippedKnowledgeBase() } : undefined;

/** Sends a record; one that cannot be sent (a value no thread can receive) becomes a failed record that can. */
function answer(req: WorkerRequest, record: TriageRecord): void {
  try {
    parentPort?.postMessage({ id: req.id, record, cpuMs: threadCpuMs() } satisfies WorkerResponse);
  } catch (err) {
    const failed = failedRecord(req.path, record.bundle, `the analysis gave a record that cannot be sent: ${oneLine(err)}`);
    parentPort?.postMessage({ id: req.id, record: failed, cpuMs: threadCpuMs() } satisfies WorkerResponse);
  }
}

parentPort?.on('message', (req: WorkerRequest) => {
  void analyzeBundle(req.path, { rules, version: init.version, ...(similarity ? { similarity } : {}) })
    .then((result) => recordOf(req.path, redactDeep(result)))
    .catch((err: unknown) =>
      // Input that is no bundle is unreadable; anything else stopped an analysis that had begun.
      err instanceof InputError ? unreadableRecord(req.path, basename(req.path), oneLine(err)) : failedRecord(req.path, basename(req.path), oneLine(err)),
    )
    .then((record) => answer(req, record));
});
parentPort?.postMessage({ ready: true } satisfies WorkerReady);
