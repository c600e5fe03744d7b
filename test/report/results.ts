// Analysis results for reporter tests. Formatters are tested on checked-in results
// (test/fixtures/results/, made from the fixture bundles by the real code with
// `npm run result-fixtures`), not on the whole pipeline; the pipeline's own tests are elsewhere.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeBundle } from '../../src/analysis/analyze.js';
import type { AnalysisResult } from '../../src/result/types.js';
import { redactDeep } from '../../src/redact/redact.js';
import { loadRules } from '../../src/rules/load-rules.js';
import { bundleFiles, packTar, ROOT, tempDir, writeTree } from '../support/fixture-bundle.js';

/** A catalogue entry for bootkube's etcd retries, which ETCD_RETRY_RULE reports. */
export const ETCD_RETRY_ENTRY = `program: bootkube.sh
repository: openshift/installer
entries:
  - id: etcd-wait-retrying
    title: bootkube keeps retrying etcd
    role: symptom
    form: 'etcdctl (?<what>failed)\\. Retrying'
    origin: data/data/bootstrap/files/usr/local/bin/bootkube.sh.template
    stage: bootstrap-etcd
    category: etcd-health
    severity: warning
    description: bootkube waited for etcd until the end of its log.
    fix:
      - Check the etcd container on {host}, e.g. \`sudo crictl ps -a --name etcd\`.
    references:
      - https://github.com/openshift/installer/blob/master/data/data/bootstrap/files/usr/local/bin/bootkube.sh.template
    says: 'etcdctl {what} {count} times on {host}'
    examples:
      - line: 'Nov 22 11:16:01 b bootkube.sh[2507]: etcdctl failed. Retrying in 5 seconds...'
`;

/** A YAML rule citing bootkube's etcd retries, so evidence carries journal context. */
export const ETCD_RETRY_RULE = `id: etcd-wait-retrying
confidence: medium
sources:
  - journal: bootkube
    host: bootstrap
match:
  any:
    - message: etcd-wait-retrying
`;

/** A rules folder with ETCD_RETRY_RULE and its catalogue (the built-in TypeScript rules come along). */
export function rulesDir(): string {
  return writeTree(tempDir('bootlens-rules-'), 'rules', { 'bootstrap-etcd/etcd-wait-retrying.yaml': ETCD_RETRY_RULE, 'catalogue/bootkube.yaml': ETCD_RETRY_ENTRY });
}

async function analyze(path: string): Promise<AnalysisResult> {
  const { rules } = loadRules(rulesDir());
  return redactDeep(await analyzeBundle(path, { rules, version: '0.0.0-test' }));
}

const FIXTURES = join(process.cwd(), 'test/fixtures/results');

function fixture(name: string): AnalysisResult {
  return JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), 'utf8')) as AnalysisResult;
}

/** The checked-in result of the fixture bundle: bootkube failed waiting for etcd. */
export async function failedResult(): Promise<AnalysisResult> {
  return fixture('failed');
}

/** The checked-in result of a small bundle whose bootkube completed. */
export async function healthyResult(): Promise<AnalysisResult> {
  return fixture('healthy');
}

/** The fixture bundle as a tar.gz, analyzed now: bootkube failed waiting for etcd. */
export async function analyzeFailed(): Promise<AnalysisResult> {
  const dir = tempDir();
  writeTree(dir, ROOT, bundleFiles());
  return analyze(await packTar(dir, ROOT, join(dir, 'log-bundle-failed.tar.gz'), true));
}

/** A small bundle whose bootkube completed, analyzed now: no failed stage. */
export async function analyzeHealthy(): Promise<AnalysisResult> {
  const files = bundleFiles();
  const healthy: Record<string, string> = {
    'bootstrap/services/release-image.json': files['bootstrap/services/release-image.json'],
    'bootstrap/services/bootkube.json':
      '[\n{"timestamp":"2026-11-22T10:14:58Z","phase":"service start"},\n{"timestamp":"2026-11-22T10:15:04Z","phase":"stage start","stage":"wait-for-etcd"},\n{"timestamp":"2026-11-22T10:16:04Z","phase":"stage end","stage":"wait-for-etcd","result":"success"},\n{"timestamp":"2026-11-22T10:50:00Z","phase":"service end","result":"success"}\n]\n',
    'bootstrap/journals/bootkube.log': 'Nov 22 10:50:00 b bootkube.sh[2507]: bootkube.service complete\n',
  };
  return analyze(writeTree(tempDir(), 'log-bundle-healthy', healthy));
}
