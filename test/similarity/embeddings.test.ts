import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readAndAnalyze } from '../../src/analysis/analyze.js';
import { logRefOf } from '../../src/specs/layout.js';
import type { LogRef } from '../../src/model/source-id.js';
import { loadRules } from '../../src/rules/load-rules.js';
import { packageRoot } from '../../src/util/package-root.js';
import { createMiner } from '../../src/similarity/drain.js';
import { defaultCacheDir, EmbeddingError, knowledgeBaseVectors, loadEmbedder, type Embedder } from '../../src/similarity/embeddings.js';
import { knownIssueYaml, parseKnownIssue, type KnownIssue } from '../../src/similarity/knowledge-base.js';
import type { CategoryId } from '../../src/taxonomy.js';
import { findSimilar, knownIssueTemplates } from '../../src/similarity/match.js';
import { embeddingText } from '../../src/similarity/tokens.js';
import { ROOT, tempDir } from '../support/fixture-bundle.js';
import { writeTinyModel } from './tiny-model.js';

function entry(id: string, category: string, line: string): KnownIssue {
  const text = knownIssueYaml({ id, title: `Known issue ${id}`, stage: 'release-image', category: category as CategoryId, lines: [line], fix: ['Fix it.'], references: ['https://github.com/openshift/installer/pull/775'] });
  return parseKnownIssue(text, `kb-${id}.yaml`);
}

const H = 'Feb 27 15:08:51 bootstrap release-image-download.sh[1632]:';
const KB = [
  entry('pull-secret-rejected', 'registry-auth', `${H} Error: initializing source docker://quay.io/openshift-release-dev/ocp-release: unauthorized: authentication required`),
  entry('mirror-untrusted', 'registry-tls', `${H} Error: initializing source docker://mirror.lab:5000/ocp/release: x509: certificate signed by unknown authority`),
  entry('disk-full', 'resource-exhaustion', `${H} Error: writing blob: write /var/lib/containers/storage/overlay/l/x: no space left on device`),
  entry('registry-dns', 'dns', `${H} Error: initializing source docker://quay.io/openshift-release-dev/ocp-release: dial tcp: lookup quay.io on [::1]:53: no such host`),
];

const target: LogRef = logRefOf(`${ROOT}/bootstrap/journals/release-image.log`) as LogRef;

describe('embeddings from a local model folder', () => {
  const fetchCalls: unknown[] = [];
  let modelDir = '';
  let cacheDir = '';

  beforeAll(() => {
    // Any attempt to reach the network fails the test.
    vi.stubGlobal('fetch', (...args: unknown[]) => {
      fetchCalls.push(args);
      return Promise.reject(new Error('network access in a test'));
    });
    const dir = tempDir();
    modelDir = writeTinyModel(dir);
    cacheDir = join(dir, 'cache');
  });

  afterAll(() => {
    vi.unstubAllGlobals();
  });

  it('loads the model through transformers.js with remote models disabled, and embeds unit vectors', async () => {
    const embedder = await loadEmbedder(modelDir);
    const [a, b, c] = await embedder.embed(['access denied credentials rejected', 'unauthorized authentication required', 'no space left on device']);
    const dot = (x: Float32Array, y: Float32Array): number => x.reduce((s, v, i) => s + v * y[i], 0);
    expect(dot(a, a)).toBeCloseTo(1, 4);
    expect(dot(a, b)).toBeGreaterThan(0.9);
    expect(dot(a, c)).toBeLessThan(0.3);
    const optional = '@xenova/transformers'; // the clone's copy (a dev dependency); @huggingface/transformers is tried first when installed
    const { env } = (await import(optional)) as { env: { allowRemoteModels: boolean } };
    expect(env.allowRemoteModels).toBe(false);
    expect(fetchCalls).toEqual([]);
  });

  it('ranks the right entry first for a failure worded with other words than the entry', async () => {
    const miner = createMiner();
    miner.observe(target, [
      'Mar 03 11:10:40 bootstrap.prod.acme.internal release-image-download.sh[2210]: Pulling registry.acme.internal:8443/ocp4/release:4.16.3...',
      'Mar 03 11:10:51 bootstrap.prod.acme.internal release-image-download.sh[2210]: Error: reading manifest 4.16.3 in registry.acme.internal:8443/ocp4/release: access denied: credentials rejected',
    ]);
    const candidates = miner.candidates();
    const similar = await findSimilar(candidates, KB, { mode: 'embeddings', modelDir, cacheDir });
    expect(similar[0]).toMatchObject({ id: 'pull-secret-rejected', category: 'registry-auth' });
    expect(similar[0].score).toBeGreaterThan(0.6);
    expect(similar[0].matchedLines[0]).toMatchObject({ file: target.file, line: 2 });
    // Lexically the two lines share too few words to be called the same failure.
    expect((await findSimilar(candidates, KB, { mode: 'lexical' })).map((s) => s.id)).not.toContain('pull-secret-rejected');
    expect(fetchCalls).toEqual([]);
  });

  it('runs through analyze: --similarity embeddings on a sample bundle, model from the folder only', async () => {
    const { rules } = loadRules();
    const dir = join(packageRoot(), 'samples', 'release-pull-secret-rejected');
    const bundle = join(dir, readdirSync(dir).find((f) => f.endsWith('.tar.gz')) ?? '');
    const { result } = await readAndAnalyze(bundle, { rules, version: 'test', similarity: { mode: 'embeddings', modelDir, cacheDir, kb: KB } });
    expect(result.similarity.mode).toBe('embeddings');
    expect(result.similar[0]).toMatchObject({ id: 'pull-secret-rejected', category: 'registry-auth' });
    expect(result.similar[0].matchedLines[0].file).toContain('release-image');
    expect(fetchCalls).toEqual([]);
  });

  it('caches knowledge-base vectors by model and entry hash, and reads them back without the model', async () => {
    const embedder = await loadEmbedder(modelDir);
    const texts = (e: KnownIssue): string[] => knownIssueTemplates(e).map(embeddingText);
    const first = await knowledgeBaseVectors(embedder, KB, texts, cacheDir);
    const files = readdirSync(join(cacheDir, 'embeddings', embedder.modelHash)).sort();
    expect(files).toEqual(KB.map((e) => `${e.hash}.json`).sort());
    const offline: Embedder = {
      modelHash: embedder.modelHash,
      embed: () => Promise.reject(new Error('the cache should have answered')),
    };
    const again = await knowledgeBaseVectors(offline, KB, texts, cacheDir);
    for (const e of KB) expect(again.get(e.id)).toEqual(first.get(e.id));
    // Another model never reads these vectors.
    await expect(knowledgeBaseVectors({ ...offline, modelHash: 'another-model' }, KB, texts, cacheDir)).rejects.toThrow('the cache should have answered');
  });

  it('fails with one line when the model folder is missing or incomplete, or not given', async () => {
    await expect(loadEmbedder(join(modelDir, 'nope'))).rejects.toThrow(EmbeddingError);
    await expect(loadEmbedder(join(modelDir, 'nope'))).rejects.toThrow(/^--model .*nope: no such folder \(expected a sentence-transformer/);
    const broken = writeTinyModel(tempDir(), 'broken');
    rmSync(join(broken, 'tokenizer.json'));
    await expect(loadEmbedder(broken)).rejects.toThrow(/broken: tokenizer\.json is missing/);
    rmSync(join(broken, 'onnx'), { recursive: true });
    const err = await loadEmbedder(broken).catch((e: Error) => e);
    expect(String((err as Error).message).split('\n')).toHaveLength(1);
    await expect(findSimilar([{ template: 'x', example: { file: 'f', line: 1, text: 'error x' } }], KB, { mode: 'embeddings' })).rejects.toThrow(
      '--similarity embeddings needs --model DIR',
    );
  });

  it('caches under the user cache folder by default, never beside the bundle', () => {
    const saved = process.env.XDG_CACHE_HOME;
    process.env.XDG_CACHE_HOME = '/var/tmp/xdg';
    expect(defaultCacheDir()).toBe('/var/tmp/xdg/bootlens');
    delete process.env.XDG_CACHE_HOME;
    expect(defaultCacheDir()).toMatch(/\/\.cache\/bootlens$/);
    if (saved !== undefined) process.env.XDG_CACHE_HOME = saved;
    expect(existsSync(join(ROOT, '.cache'))).toBe(false);
  });
});
