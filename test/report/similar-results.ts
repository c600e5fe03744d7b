// Real similar known issues for reporter tests: journal and container lines fed to the real Drain miner, matched
// against the shipped knowledge base by the real lexical matcher, then put into real analysis results.
import { join } from 'node:path';
import { analyzeModel, readAndAnalyze, type AnalysisResult } from '../../src/analysis/analyze.js';
import { logRefOf } from '../../src/specs/layout.js';
import type { LogRef } from '../../src/model/source-id.js';
import { redactDeep } from '../../src/redact/redact.js';
import { createMiner } from '../../src/similarity/drain.js';
import { loadKnowledgeBase } from '../../src/similarity/knowledge-base.js';
import { findSimilar, type SimilarIssue } from '../../src/similarity/match.js';
import { bundleFiles, packTar, ROOT, tempDir, writeTree } from '../support/fixture-bundle.js';

const HOST = 'bootstrap.ocp4.example.com';
const DIGEST = 'sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08';
const RELEASE = 'quay.io/openshift-release-dev/ocp-release';

/** Text built to break out of HTML, Markdown and XML, at the end of a line that still matches a known issue. */
export const HOSTILE_MATCH = '</pre><script>alert(1)</script> ```` fence ``` [x](javascript:alert(1)) ]]> &amp; \u001b[31mred\u001b[0m';

export const RELEASE_LOG = `${ROOT}/bootstrap/journals/release-image.log`;
export const ETCD_LOG = `${ROOT}/bootstrap/containers/etcd-member-3f9a0c1d2e3f.log`;

/**
 * release-image-download.sh failing on an unauthorized pull (journalctl short format, the
 * error line ending in hostile text), like known issue release-pull-unauthorized.
 */
function releaseImageLines(): string[] {
  const lines: string[] = [];
  for (let m = 10; m < 20; m++) {
    lines.push(`Nov 22 10:${m}:40 ${HOST} release-image-download.sh[2210]: Pulling ${RELEASE}@${DIGEST}...`);
    lines.push(
      `Nov 22 10:${m}:51 ${HOST} release-image-download.sh[2210]: Error: initializing source docker://${RELEASE}@${DIGEST}: reading manifest ${DIGEST} in ${RELEASE}: unauthorized: authentication required ${HOSTILE_MATCH}`,
    );
    lines.push(`Nov 22 10:${m}:51 ${HOST} release-image-download.sh[2210]: Pull failed. Retrying ${RELEASE}@${DIGEST}...`);
  }
  return lines;
}

/** etcd's JSON log with slow WAL syncs, like known issue bootstrap-etcd-slow-disk. */
function etcdLines(): string[] {
  const lines: string[] = [];
  for (let m = 16; m < 26; m++) {
    lines.push(`{"level":"warn","ts":"2026-11-22T10:${m}:41.675186Z","caller":"wal/wal.go:805","msg":"slow fdatasync","took":"1.${m}8958273s","expected-duration":"1s"}`);
    lines.push(`{"level":"info","ts":"2026-11-22T10:${m}:42.675186Z","caller":"etcdserver/server.go:1200","msg":"applied index","index":${m * 1000}}`);
  }
  return lines;
}

/** The similar known issues of those lines, as the real miner and lexical matcher find them. */
export async function realSimilar(): Promise<{ similar: SimilarIssue[]; candidates: number }> {
  const miner = createMiner();
  const release: LogRef = logRefOf(RELEASE_LOG) as LogRef;
  const etcd: LogRef = logRefOf(ETCD_LOG) as LogRef;
  miner.observe(release, releaseImageLines());
  miner.observe(etcd, etcdLines());
  const candidates = miner.candidates();
  const similar = await findSimilar(candidates, loadKnowledgeBase(), { mode: 'lexical' });
  return { similar, candidates: candidates.length };
}

/** A real result with the real similar issues put in (the verdict stays the rules'). */
export async function withSimilar(result: AnalysisResult): Promise<AnalysisResult> {
  const { similar, candidates } = await realSimilar();
  return redactDeep({ ...result, similar, similarity: { mode: 'lexical', candidates } });
}

/** A real result with similarity on that found nothing. */
export function withNoSimilar(result: AnalysisResult): AnalysisResult {
  return { ...result, similar: [], similarity: { mode: 'lexical', candidates: 3 } };
}

/**
 * The failed fixture bundle analyzed with no rules and the real similar issues: nothing names
 * the cause, so the verdict's category comes from a known issue (`verdict.knownIssue`).
 */
export async function knownIssueResult(): Promise<AnalysisResult> {
  const dir = tempDir();
  writeTree(dir, ROOT, bundleFiles());
  const path = await packTar(dir, ROOT, join(dir, 'log-bundle-similar.tar.gz'), true);
  const options = { rules: [], version: '0.0.0-test' };
  const { bundle } = await readAndAnalyze(path, options);
  return redactDeep(analyzeModel(bundle, options, { mode: 'lexical', ...(await realSimilar()) }));
}
