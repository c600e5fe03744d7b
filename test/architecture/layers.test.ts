// The layers of src/, written once: a module imports only from its own layer and the layers
// before it (type-only imports included), so data flows one way. The test reads every import
// with TypeScript's own pre-processor, so comments and strings cannot hide or fake one.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/** The layers of `src/`, lowest first: a folder (or `taxonomy.ts`) each. */
const LAYERS = [
  'util',
  'text',
  'taxonomy',
  'redact',
  'model',
  'result',
  'archive',
  'parsers',
  'specs',
  'ingest',
  'timeline',
  'catalogue',
  'rules',
  'similarity',
  'verdict',
  'analysis',
  'diff',
  'knowledge',
  'triage',
  'report',
  'cli',
] as const;

const SRC = resolve(import.meta.dirname, '..', '..', 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return e.name.endsWith('.ts') ? [path] : [];
  });
}

/** A file's layer: its first folder below `src/`, or its name for a module at the top. */
function layerOf(file: string): string {
  const [first, ...rest] = relative(SRC, file).split('/');
  return rest.length === 0 ? first.replace(/\.ts$/, '') : first;
}

/** The files a module imports, by path (relative specifiers only: packages are no layer). */
function importsOf(file: string, text: string = readFileSync(file, 'utf8')): string[] {
  const info = ts.preProcessFile(text, true, true);
  return info.importedFiles
    .map((f) => f.fileName)
    .filter((name) => name.startsWith('.'))
    .map((name) => resolve(dirname(file), name).replace(/\.js$/, '.ts'));
}

/** Each import from a layer above the importer's, as `importer -> imported`. */
function upwardImports(files: readonly string[], read: (file: string) => string = (f) => readFileSync(f, 'utf8')): string[] {
  const rank = (file: string): number => (LAYERS as readonly string[]).indexOf(layerOf(file));
  const out: string[] = [];
  for (const file of files) {
    for (const target of importsOf(file, read(file))) {
      if (rank(target) > rank(file)) out.push(`${relative(SRC, file)} (${layerOf(file)}) -> ${relative(SRC, target)} (${layerOf(target)})`);
    }
  }
  return out;
}

describe('layers', () => {
  const files = sourceFiles(SRC);

  it('every folder of src/ has its place in the order', () => {
    const unplaced = [...new Set(files.map(layerOf))].filter((l) => !(LAYERS as readonly string[]).includes(l));
    expect(unplaced).toEqual([]);
  });

  it('no module imports from a layer above its own', () => {
    expect(upwardImports(files)).toEqual([]);
  });

  it('catches an upward import, a type-only one included', () => {
    const model = join(SRC, 'model', 'types.ts');
    const withImport = (line: string) => (f: string) => (f === model ? `${line}\n${readFileSync(f, 'utf8')}` : readFileSync(f, 'utf8'));
    expect(upwardImports([model], withImport("import type { Rule } from '../rules/types.js';"))).toEqual(['model/types.ts (model) -> rules/types.ts (rules)']);
    expect(upwardImports([model], withImport("const x = await import('../verdict/verdict.js');"))).toHaveLength(1);
    // A specifier in a comment is no import.
    expect(upwardImports([model], withImport("// import { Rule } from '../rules/types.js';"))).toEqual([]);
  });

  it('the template miner knows no I/O: drain.ts reads nothing from the archive or the reader', () => {
    const drain = join(SRC, 'similarity', 'drain.ts');
    expect(importsOf(drain).map(layerOf).filter((l) => l === 'archive' || l === 'ingest')).toEqual([]);
  });

  it('benchmark code lives in bench/, not in src/', () => {
    expect(files.filter((f) => /bench/i.test(relative(SRC, f)))).toEqual([]);
    const benchDir = resolve(SRC, '..', 'bench');
    expect(files.filter((f) => importsOf(f).some((t) => t.startsWith(benchDir)))).toEqual([]);
  });
});
