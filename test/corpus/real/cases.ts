// The real-failure corpus: loads `cases/*.yaml` and checks each case against the format of
// README.md (taxonomy ids, a source URL, verbatim lines, paths the layout knows).
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import yaml from 'js-yaml';
import { classifyPath } from '../../../src/specs/layout.js';
import { isCategoryId, isStageId, type CategoryId, type StageId } from '../../../src/taxonomy.js';

export const CASES_DIR = join(process.cwd(), 'test/corpus/real/cases');

export interface CaseFile {
  /** Path below `log-bundle-<ID>/`. */
  path: string;
  /** Verbatim lines, as posted. */
  lines?: string;
  /** What was posted for a structured file (a table), kept for the reader. */
  posted?: string;
  /** The structured content (`oc get -o json`, a service record array). */
  json?: unknown;
}

export interface RealCase {
  id: string;
  source: string;
  also?: string[];
  version: string;
  platform?: string;
  summary: string;
  expected: {
    status: 'failed' | 'healthy';
    stage?: StageId;
    category?: CategoryId;
    confidence: 'high' | 'medium' | 'low';
    established: string;
    quote?: string;
  };
  files: CaseFile[];
  installer?: { lines: string };
  /** The file it was loaded from. */
  file: string;
}

function fail(file: string, reason: string): never {
  throw new Error(`${basename(file)}: ${reason}`);
}

function str(v: unknown): v is string {
  return typeof v === 'string' && v.trim().length > 0;
}

/** Checks one parsed document; returns it typed, or throws naming the file and the problem. */
export function checkCase(doc: unknown, file: string): RealCase {
  if (!doc || typeof doc !== 'object') fail(file, 'not a mapping');
  const c = doc as Record<string, unknown>;
  if (!str(c.id) || `${c.id}.yaml` !== basename(file)) fail(file, 'id must equal the file name');
  if (!str(c.source) || !/^https?:\/\//.test(c.source)) fail(file, 'source must be a URL');
  if (!str(c.summary)) fail(file, 'summary is missing');
  if (c.version === undefined) fail(file, 'version is missing (write "unknown" when the thread does not say)');
  const e = c.expected as Record<string, unknown> | undefined;
  if (!e || (e.status !== 'failed' && e.status !== 'healthy')) fail(file, 'expected.status must be failed or healthy');
  if (e.status === 'failed') {
    if (!isStageId(e.stage)) fail(file, `expected.stage '${String(e.stage)}' is not a taxonomy stage`);
    if (!isCategoryId(e.category)) fail(file, `expected.category '${String(e.category)}' is not a taxonomy category`);
  } else if (e.stage !== undefined || e.category !== undefined) {
    fail(file, 'a healthy case names no stage or category');
  }
  if (e.confidence !== 'high' && e.confidence !== 'medium' && e.confidence !== 'low') fail(file, 'expected.confidence must be high, medium or low');
  if (!str(e.established)) fail(file, 'expected.established is missing');
  const files = (c.files ?? []) as unknown;
  if (!Array.isArray(files)) fail(file, 'files must be a list');
  for (const f of files as Record<string, unknown>[]) {
    if (!f || !str(f.path)) fail(file, 'every file needs a path');
    if (f.lines === undefined && f.json === undefined) fail(file, `${String(f.path)}: lines or json is needed`);
    if (f.lines !== undefined && !str(f.lines)) fail(file, `${String(f.path)}: lines must be text`);
    if (!classifyPath(`log-bundle-20200101000000/${f.path as string}`).spec && !/\.(log|txt)$/.test(f.path as string)) {
      fail(file, `${String(f.path)}: not a path the gather scripts write`);
    }
  }
  const installer = c.installer as Record<string, unknown> | undefined;
  if (installer !== undefined && !str(installer.lines)) fail(file, 'installer.lines must be text');
  if ((files as unknown[]).length === 0 && !installer) fail(file, 'a case needs files or installer output');
  return { ...(c as unknown as RealCase), files: files as CaseFile[], file };
}

/** Every case of the corpus that passes its checks, sorted by id, and the problems of the others. */
export function loadCorpus(dir: string = CASES_DIR): { cases: RealCase[]; problems: string[] } {
  const cases: RealCase[] = [];
  const problems: string[] = [];
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.yaml')).sort()) {
    const file = join(dir, f);
    try {
      cases.push(checkCase(yaml.load(readFileSync(file, 'utf8')), file));
    } catch (err) {
      problems.push((err as Error).message);
    }
  }
  return { cases, problems };
}
