// `--similarity off|lexical|embeddings`, `--model DIR` and `--model-cache DIR`, checked before
// any bundle is read.
import { Option, type Command } from 'commander';
import type { SimilarityOptions } from '../analysis/similarity-step.js';
import { checkModelDir } from '../similarity/embeddings.js';
import { SIMILARITY_MODES, type SimilarityMode } from '../similarity/match.js';
import { UsageError } from './exit-codes.js';

export interface SimilarityFlags {
  similarity: string;
  model?: string;
  modelCache?: string;
}

/** Adds the similarity flags to a command; `fallback` is the mode without the flag. */
export function addSimilarityOptions(command: Command, fallback: SimilarityMode): Command {
  return command
    .addOption(
      new Option('--similarity <mode>', 'match the logs against known issues: lexical (no model), embeddings (needs --model) or off (fastest)')
        .choices([...SIMILARITY_MODES])
        .default(fallback),
    )
    .option('--model <dir>', 'a local sentence-transformer folder for --similarity embeddings (never downloaded)')
    .option('--model-cache <dir>', 'where knowledge-base vectors are cached (default ~/.cache/bootlens)');
}

/** The similarity options of the flags; a missing or unusable model is a usage error. */
export function similarityOptionsFrom(flags: SimilarityFlags): SimilarityOptions {
  const mode = flags.similarity as SimilarityMode;
  if (!SIMILARITY_MODES.includes(mode)) throw new UsageError(`unknown similarity mode '${flags.similarity}' (expected ${SIMILARITY_MODES.join(', ')})`);
  if (mode !== 'embeddings') {
    if (flags.model) throw new UsageError('--model is for --similarity embeddings');
    return { mode };
  }
  if (!flags.model) throw new UsageError('--similarity embeddings needs --model <dir>: a local sentence-transformer folder');
  // Throws EmbeddingError with what is missing, before a long read.
  checkModelDir(flags.model);
  return { mode, modelDir: flags.model, ...(flags.modelCache ? { cacheDir: flags.modelCache } : {}) };
}
