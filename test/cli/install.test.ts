// `npm pack`, then `npm install -g` of that tarball into a temporary prefix and of the clone
// itself, and `bootlens` run by name from another folder. Offline with an empty npm cache and no
// other flag (install scripts run, optional packages are not left out): the runtime dependencies
// travel inside the tarball (bundleDependencies) and nothing else is asked for, so nothing is
// fetched and nothing downloads. Embeddings are a package installed beside bootlens.
// The packed dist/ is the one `npm test` just built (`npm pack --ignore-scripts`: no rebuild of a
// tree other runs may be reading).
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { delimiter, dirname, join, relative, resolve } from 'node:path';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { tempDir, writeTree } from '../support/fixture-bundle.js';
import { loadKnowledgeBase } from '../../src/similarity/knowledge-base.js';
import { writeTinyModel } from '../similarity/tiny-model.js';

const REPO = process.cwd();
const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {
  version: string;
  dependencies: Record<string, string>;
  bundleDependencies: string[];
  optionalDependencies?: Record<string, string>;
};

let work: string;
let npmEnv: NodeJS.ProcessEnv;
let packed: { filename: string; files: { path: string }[] };
let tarballPrefix: string;
let linkedPrefix: string;
let tarballInstallError: Error | undefined;
let linkInstallError: Error | undefined;

function npm(args: string[], cwd: string): SpawnSyncReturns<string> {
  const r = spawnSync('npm', args, { cwd, env: npmEnv, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`npm ${args.join(' ')} exited ${r.status}: ${r.error?.message ?? ''}${r.stderr}`);
  return r;
}

/** Runs `bootlens` as a shell would find it: by name, with only the prefix's bin and node on the PATH. */
function bootlens(prefix: string, args: string[], cwd: string): SpawnSyncReturns<string> {
  const PATH = [join(prefix, 'bin'), dirname(process.execPath)].join(delimiter);
  return spawnSync('bootlens', args, { cwd, env: { PATH, HOME: cwd, NO_COLOR: '1' }, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

/** Every file under dir, relative to the repository, with / separators. */
function filesUnder(dir: string): string[] {
  return readdirSync(join(REPO, dir), { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => relative(REPO, join(d.parentPath, d.name)).split('\\').join('/'));
}

beforeAll(() => {
  work = tempDir('bootlens-install-');
  // An empty cache and --offline: the install cannot fetch anything, and no earlier download helps.
  // Settings npm passes to scripts (`npm test` sets npm_config_prefix, npx sets npm_config_call)
  // stay out: the commands below behave as typed in a shell.
  npmEnv = {
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k))),
    npm_config_cache: join(work, 'npm-cache'),
    npm_config_logs_dir: join(work, 'npm-logs'),
    npm_config_update_notifier: 'false',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
  };
  const dest = join(work, 'pack');
  mkdirSync(dest);
  const out = npm(['pack', '--ignore-scripts', '--json', '--pack-destination', dest], REPO);
  [packed] = JSON.parse(out.stdout) as (typeof packed)[];
  tarballPrefix = join(work, 'prefix');
  linkedPrefix = join(work, 'linked');
  // A failed install is reported by the tests that need it, after the packing tests had their say.
  try {
    npm(['install', '--global', '--offline', '--prefix', tarballPrefix, join(dest, packed.filename)], work);
  } catch (err) {
    tarballInstallError = err as Error;
  }
  try {
    npm(['install', '--global', '--offline', '--ignore-scripts', '--prefix', linkedPrefix, REPO], work);
  } catch (err) {
    linkInstallError = err as Error;
  }
  // npm pack of 33 MB and two installs: a minute on a busy two-core machine.
}, 240_000);

describe('npm pack', () => {
  it('asks for nothing it does not bundle: no optional package whose install script downloads', () => {
    // @xenova/transformers brings sharp, whose install script downloads libvips from outside the
    // registry; the root `overrides` does not reach a package installed from its tarball.
    expect(pkg.optionalDependencies ?? {}).toEqual({});
  });

  it('bundles every runtime dependency, so the tarball installs without a registry', () => {
    // A dependency missing here makes `npm install -g bootlens-*.tgz` need the network.
    const unbundled = Object.keys(pkg.dependencies).filter((d) => !pkg.bundleDependencies.includes(d));
    expect(unbundled, 'list these in package.json bundleDependencies, or make them optionalDependencies loaded only when used').toEqual([]);
    const paths = new Set(packed.files.map((f) => f.path));
    for (const dep of pkg.bundleDependencies) expect(paths.has(`node_modules/${dep}/package.json`), dep).toBe(true);
  });

  it('ships the built CLI, every rule and known issue, the schemas and the TypeScript rules’ cases, and no tests', () => {
    const paths = packed.files.map((f) => f.path);
    const set = new Set(paths);
    expect(set.has('dist/src/cli/main.js')).toBe(true);
    const needed = [...filesUnder('rules'), ...filesUnder('schema'), ...filesUnder('src/rules/builtin').filter((p) => p.endsWith('.cases.yaml'))];
    expect(needed.length).toBeGreaterThan(30);
    expect(needed.filter((p) => !set.has(p))).toEqual([]);
    const own = paths.filter((p) => !p.startsWith('node_modules/'));
    expect(own.filter((p) => /^(test|dist\/test|samples|src\/(?!rules\/builtin\/[^/]+\.cases\.yaml$))/.test(p) || p.endsWith('.map'))).toEqual([]);
  });
});

describe('npm install -g of the packed tarball', () => {
  beforeEach(() => {
    if (tarballInstallError) throw tarballInstallError;
  });

  it('puts bootlens on the PATH of the prefix, as a link to the installed CLI', () => {
    expect(lstatSync(join(tarballPrefix, 'bin', 'bootlens')).isSymbolicLink()).toBe(true);
    const r = bootlens(tarballPrefix, ['--version'], tempDir());
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe(pkg.version);
  });

  it('analyzes a bundle from another folder with the rules and known issues it installed', () => {
    const sample = join(REPO, 'samples', 'cvo-overrides-api-lb');
    const expected = JSON.parse(readFileSync(join(sample, 'expected.json'), 'utf8')) as { stage: string; category: string };
    const bundle = join(sample, readdirSync(sample).find((f) => f.endsWith('.tar.gz')) as string);
    const elsewhere = tempDir();
    const r = bootlens(tarballPrefix, ['analyze', bundle, '--format', 'json', '--output', 'report.json'], elsewhere);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(1);
    const report = JSON.parse(readFileSync(join(elsewhere, 'report.json'), 'utf8')) as {
      verdict: { stage: string; category: string };
      rules: { total: number };
      similar: { id: string }[];
    };
    expect(report.verdict).toMatchObject({ stage: expected.stage, category: expected.category });
    // The same rules as the clone's CLI, and known issues from the installed catalogue.
    const inRepo = spawnSync(process.execPath, [join(REPO, 'dist/src/cli/main.js'), 'rules', 'list', '--format', 'json'], { cwd: REPO, encoding: 'utf8' });
    const installed = bootlens(tarballPrefix, ['rules', 'list', '--format', 'json'], elsewhere);
    // A rule file's origin, relative to the package it was read from: the clone's, or the install's.
    const fromRoot = (out: string, root: string, cwd: string): unknown[] =>
      (JSON.parse(out) as { origin?: string }[]).map((r) => ({ ...r, origin: r.origin?.endsWith('.yaml') ? relative(root, resolve(cwd, r.origin)) : r.origin }));
    const repoRules = fromRoot(inRepo.stdout, REPO, REPO);
    expect(repoRules.length).toBeGreaterThan(20);
    expect(fromRoot(installed.stdout, join(tarballPrefix, 'lib', 'node_modules', 'bootlens'), elsewhere)).toEqual(repoRules);
    expect(report.rules.total).toBe(repoRules.length);
    const knownIssues = new Set(loadKnowledgeBase(join(tarballPrefix, 'lib', 'node_modules', 'bootlens', 'rules', 'catalogue')).map((k) => k.id));
    expect(report.similar.length).toBeGreaterThan(0);
    expect(report.similar.filter((s) => !knownIssues.has(s.id))).toEqual([]);
  });

  it('finds a TypeScript rule’s cases where it was installed and passes them', () => {
    const cases = filesUnder('src/rules/builtin').filter((p) => p.endsWith('.cases.yaml'));
    const id = cases[0].replace(/^.*\/|\.cases\.yaml$/g, '');
    const r = bootlens(tarballPrefix, ['rules', 'test', id], tempDir());
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`✔ ${id}\n`);
    expect(r.stdout).toContain('1 rules passed their cases, 0 failed');
  });

  it('works without the optional embeddings package: --similarity embeddings is refused in one line', () => {
    expect(existsSync(join(tarballPrefix, 'lib', 'node_modules', 'bootlens', 'node_modules', '@xenova'))).toBe(false);
    // A model folder that passes the layout check, so the run gets as far as loading the package.
    const model = writeTree(tempDir(), 'model', {
      'config.json': '{"model_type":"bert"}',
      'tokenizer.json': '{}',
      'tokenizer_config.json': '{}',
      'onnx/model.onnx': 'not a model',
    });
    const r = bootlens(tarballPrefix, ['analyze', pasted(), '--similarity', 'embeddings', '--model', model], tempDir());
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('needs the optional package @huggingface/transformers installed beside bootlens (npm install -g @huggingface/transformers@3');
  });

  it('uses the embeddings package once it is installed beside bootlens in the same prefix', () => {
    // Where `npm install -g <package>` puts it: <prefix>/lib/node_modules, found by Node from the
    // installed bootlens. The clone's own copy stands in for it (no network here).
    const scope = join(tarballPrefix, 'lib', 'node_modules', '@xenova');
    mkdirSync(scope, { recursive: true });
    symlinkSync(join(REPO, 'node_modules', '@xenova', 'transformers'), join(scope, 'transformers'), 'dir');
    const model = writeTinyModel(tempDir());
    const out = tempDir();
    const r = bootlens(tarballPrefix, ['analyze', pasted(), '--similarity', 'embeddings', '--model', model, '--model-cache', join(out, 'cache'), '--format', 'json', '--output', 'r.json'], out);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(1);
    const report = JSON.parse(readFileSync(join(out, 'r.json'), 'utf8')) as { similarity: { mode: string } };
    expect(report.similarity.mode).toBe('embeddings');
  });
});

function pasted(): string {
  return join(writeTree(tempDir(), 'case', { 'pasted.txt': 'FATAL Bootstrap failed to complete: waiting for Kubernetes API: context deadline exceeded\n' }), 'pasted.txt');
}

describe('npm install -g of the clone', () => {
  beforeEach(() => {
    if (linkInstallError) throw linkInstallError;
  });

  it('links the clone and runs from another folder with its rules', () => {
    expect(lstatSync(join(linkedPrefix, 'lib', 'node_modules', 'bootlens')).isSymbolicLink()).toBe(true);
    const r = bootlens(linkedPrefix, ['explain', 'masters-unreachable'], tempDir());
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('masters-unreachable');
  });
});
