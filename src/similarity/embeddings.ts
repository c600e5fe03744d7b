// Sentence embeddings from a local model folder via transformers.js (an optional package installed beside bootlens), never the network; vectors cached on disk.
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { configuredCacheDir, readEntryFile, trustedFolder, writeEntryFile } from '../util/disk-cache.js';
import type { KnownIssue } from './knowledge-base.js';

/** The model or its folder cannot be used; the message is one line for the CLI. */
export class EmbeddingError extends Error {
  override readonly name = 'EmbeddingError';
}

/** Turns texts into unit-length vectors. */
export interface Embedder {
  /** The model folder's content hash: vectors from different models never mix. */
  readonly modelHash: string;
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}

/** What bootlens uses of transformers.js (typed here: the package is optional). */
interface TransformersModule {
  env: {
    allowRemoteModels: boolean;
    allowLocalModels: boolean;
    localModelPath: string;
    useFSCache: boolean;
    useBrowserCache: boolean;
  };
  pipeline(
    task: 'feature-extraction',
    model: string,
    // `quantized` for @xenova/transformers 2, `dtype` for @huggingface/transformers 3: each reads its own.
    options: { quantized: boolean; dtype: 'q8' | 'fp32'; local_files_only: boolean },
  ): Promise<(texts: string[], options: { pooling: 'mean'; normalize: boolean }) => Promise<{ dims: number[]; data: Float32Array }>>;
}

/** The files a sentence-transformer exported for transformers.js must have. */
const REQUIRED = ['config.json', 'tokenizer.json', 'tokenizer_config.json'];
const MODEL_FILES = ['onnx/model_quantized.onnx', 'onnx/model.onnx'];
const LAYOUT = 'a sentence-transformer exported for transformers.js: config.json, tokenizer.json, tokenizer_config.json and onnx/model.onnx';
/** Texts per model call: bounds the padded batch tensor. */
const BATCH = 32;

/** The start-up cache's folder (`BOOTLENS_CACHE_DIR`, `$XDG_CACHE_HOME/bootlens`, `~/.cache/bootlens`); undefined: no cache. */
export function defaultCacheDir(): string | undefined {
  return configuredCacheDir();
}

/** Checks the folder's layout; returns which ONNX file to load. Throws EmbeddingError. */
export function checkModelDir(modelDir: string): { dir: string; quantized: boolean } {
  const dir = resolve(modelDir);
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    throw new EmbeddingError(`--model ${modelDir}: no such folder (expected ${LAYOUT})`);
  }
  if (!isDir) throw new EmbeddingError(`--model ${modelDir}: not a folder (expected ${LAYOUT})`);
  for (const f of REQUIRED) {
    if (!existsSync(join(dir, f))) throw new EmbeddingError(`--model ${modelDir}: ${f} is missing (expected ${LAYOUT})`);
  }
  try {
    const config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as { model_type?: unknown };
    if (typeof config.model_type !== 'string') throw new Error('no model_type');
  } catch (err) {
    throw new EmbeddingError(`--model ${modelDir}: config.json is not a model configuration (${(err as Error).message})`);
  }
  const onnx = MODEL_FILES.find((f) => existsSync(join(dir, f)));
  if (!onnx) throw new EmbeddingError(`--model ${modelDir}: onnx/model.onnx is missing (expected ${LAYOUT})`);
  return { dir, quantized: onnx.includes('_quantized') };
}

async function hashFile(hash: ReturnType<typeof createHash>, file: string): Promise<void> {
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
}

const modelHashes = new Map<string, string>();

/** A hash of the files that decide the vectors (configs, tokenizer, ONNX weights). */
export async function modelHash(dir: string, quantized: boolean): Promise<string> {
  const key = `${dir}\u0000${quantized}`;
  const known = modelHashes.get(key);
  if (known) return known;
  const hash = createHash('sha256');
  for (const f of [...REQUIRED, quantized ? MODEL_FILES[0] : MODEL_FILES[1]]) {
    hash.update(`${f}\u0000`);
    await hashFile(hash, join(dir, f));
  }
  const out = hash.digest('hex').slice(0, 24);
  modelHashes.set(key, out);
  return out;
}

/**
 * The packages that provide transformers.js, in the order tried: the maintained successor, then
 * the package a clone of bootlens installs for its tests. Neither is a dependency of the published
 * package: both bring install scripts that download native libraries from outside the npm registry.
 */
export const TRANSFORMERS_PACKAGES = ['@huggingface/transformers', '@xenova/transformers'] as const;

/** How to install embeddings beside bootlens from the npm registry alone (README, "Install"). */
export const EMBEDDINGS_INSTALL = 'npm install -g @huggingface/transformers@3 --onnxruntime-node-install-cuda=skip';

async function importTransformers(): Promise<TransformersModule> {
  for (const name of TRANSFORMERS_PACKAGES) {
    try {
      // A variable specifier keeps the optional package out of the type check and the module
      // graph: nothing loads it unless embeddings are asked for.
      return (await import(name)) as TransformersModule;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      const absent = (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && firstLine(err).includes(`'${name}'`);
      if (!absent) throw new EmbeddingError(`cannot load ${name}: ${firstLine(err)}`);
    }
  }
  throw new EmbeddingError(`--similarity embeddings needs the optional package @huggingface/transformers installed beside bootlens (${EMBEDDINGS_INSTALL})`);
}

function firstLine(err: unknown): string {
  return String((err as Error)?.message ?? err).split('\n')[0];
}

/**
 * Loads the sentence-embedding model in `modelDir` with remote models disabled: feature
 * extraction with mean pooling and normalisation. Throws EmbeddingError.
 */
export async function loadEmbedder(modelDir: string): Promise<Embedder> {
  const { dir, quantized } = checkModelDir(modelDir);
  const hash = await modelHash(dir, quantized);
  const t = await importTransformers();
  t.env.allowRemoteModels = false;
  t.env.allowLocalModels = true;
  t.env.localModelPath = dirname(dir);
  // The file cache would copy model files under node_modules; a local folder needs none.
  t.env.useFSCache = false;
  t.env.useBrowserCache = false;
  let extract: Awaited<ReturnType<TransformersModule['pipeline']>>;
  try {
    extract = await t.pipeline('feature-extraction', basename(dir), { quantized, dtype: quantized ? 'q8' : 'fp32', local_files_only: true });
  } catch (err) {
    throw new EmbeddingError(`--model ${modelDir}: cannot load the model: ${firstLine(err)}`);
  }
  return {
    modelHash: hash,
    async embed(texts: readonly string[]): Promise<Float32Array[]> {
      const out: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += BATCH) {
        const batch = texts.slice(i, i + BATCH).map((s) => (s.trim().length > 0 ? s : '-'));
        let tensor: { dims: number[]; data: Float32Array };
        try {
          tensor = await extract(batch, { pooling: 'mean', normalize: true });
        } catch (err) {
          throw new EmbeddingError(`--model ${modelDir}: the model failed on input: ${firstLine(err)}`);
        }
        const width = tensor.dims[tensor.dims.length - 1];
        for (let r = 0; r < batch.length; r++) out.push(Float32Array.from(tensor.data.subarray(r * width, (r + 1) * width)));
      }
      return out;
    },
  };
}

interface CacheFile {
  model: string;
  entry: string;
  /** Hash of the texts embedded: a change in how lines become text invalidates the file. */
  texts: string;
  dims: number;
  /** One base64 Float32 array per line of the entry. */
  vectors: string[];
}

function encode(v: Float32Array): string {
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64');
}

function decode(s: string): Float32Array {
  const buf = Buffer.from(s, 'base64');
  const copy = new Uint8Array(buf.length);
  copy.set(buf);
  return new Float32Array(copy.buffer);
}

function textsHash(texts: readonly string[]): string {
  return createHash('sha256').update(JSON.stringify(texts)).digest('hex').slice(0, 16);
}

/** Entries of the vector cache are start-up cache entries: plain data, checksummed, read from a trusted folder only. */
const CACHE_KIND = 'embeddings';

function readCache(file: string, model: string, entry: string, texts: readonly string[]): Float32Array[] | undefined {
  try {
    if (!trustedFolder(dirname(file))) return undefined;
    const text = readEntryFile(file, CACHE_KIND, entry);
    if (text === undefined) return undefined;
    const doc = JSON.parse(text) as Partial<CacheFile>;
    if (doc.model !== model || doc.entry !== entry || doc.texts !== textsHash(texts)) return undefined;
    if (!Array.isArray(doc.vectors) || doc.vectors.length !== texts.length) return undefined;
    const vectors = doc.vectors.map((s) => decode(String(s)));
    return vectors.every((v) => v.length === doc.dims) ? vectors : undefined;
  } catch {
    return undefined;
  }
}

function writeCache(file: string, doc: CacheFile): void {
  // Written aside and renamed: a parallel run never reads half a file. A read-only or full cache only costs time next run.
  if (trustedFolder(dirname(file))) writeEntryFile(file, CACHE_KIND, doc.entry, JSON.stringify(doc));
}

/**
 * The vectors of every knowledge-base line, per entry id, from the cache under
 * `cacheDir/embeddings/<model hash>/<entry hash>.json` or computed (and cached) from `texts`.
 */
export async function knowledgeBaseVectors(
  embedder: Embedder,
  kb: readonly KnownIssue[],
  texts: (entry: KnownIssue) => string[],
  cacheDir: string | undefined = defaultCacheDir(),
): Promise<Map<string, Float32Array[]>> {
  const out = new Map<string, Float32Array[]>();
  const missing: { entry: KnownIssue; file: string | undefined; texts: string[] }[] = [];
  for (const entry of kb) {
    const file = cacheDir === undefined ? undefined : join(cacheDir, 'embeddings', embedder.modelHash, `${entry.hash}.json`);
    const lineTexts = texts(entry);
    const cached = file === undefined ? undefined : readCache(file, embedder.modelHash, entry.hash, lineTexts);
    if (cached) out.set(entry.id, cached);
    else missing.push({ entry, file, texts: lineTexts });
  }
  if (missing.length > 0) {
    const vectors = await embedder.embed(missing.flatMap((m) => m.texts));
    let at = 0;
    for (const m of missing) {
      const mine = vectors.slice(at, at + m.texts.length);
      at += m.texts.length;
      out.set(m.entry.id, mine);
      if (m.file !== undefined) writeCache(m.file, { model: embedder.modelHash, entry: m.entry.hash, texts: textsHash(m.texts), dims: mine[0]?.length ?? 0, vectors: mine.map(encode) });
    }
  }
  return out;
}
