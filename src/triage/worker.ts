// A triage worker thread: loads the rules once, then analyzes the bundles it is sent, one at
// a time, answering with one record each. A bundle that fails never stops the worker.
import { basename } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { analyzeBundle } from '../analysis/analyze.js';
import { redactDeep, redactText } from '../redact/redact.js';
import { shippedKnowledgeBase, type SimilarityOptions } from '../analysis/similarity-step.js';
import { loadRules } from '../rules/load-rules.js';
import { recordOf, unreadableRecord, type TriageRecord } from './record.js';

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

export interface WorkerResponse {
  id: number;
  record: TriageRecord;
}

const init = workerData as WorkerInit;
const { rules } = loadRules(init.rulesDir);
// Loaded once per worker, like the rules.
const similarity: SimilarityOptions | undefined =
  init.similarity && init.similarity.mode !== 'off' ? { ...init.similarity, kb: shippedKnowledgeBase() } : undefined;

parentPort?.on('message', (req: WorkerRequest) => {
  void analyzeBundle(req.path, { rules, version: init.version, ...(similarity ? { similarity } : {}) })
    .then((result) => recordOf(req.path, redactDeep(result)))
    .catch((err: unknown) => unreadableRecord(req.path, basename(req.path), redactText(String((err as Error)?.message ?? err)).split('\n')[0]))
    .then((record) => parentPort?.postMessage({ id: req.id, record } satisfies WorkerResponse));
});
