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

/** What bootlens said when a case was first scored, before any change it prompted. */
export interface BlindScore {
  status: 'failed' | 'healthy' | 'inconclusive' | 'refused';
  /** The stage and category it named; null when it named none (not failed, or failed without one). */
  stage: StageId | null;
  category: CategoryId | null;
  /** The commit whose code scored it. */
  scoredWith: string;
  /** The day it was scored, YYYY-MM-DD. */
  on: string;
  /** Where the record comes from when it was not scored by hand here (an earlier stop's note). */
  from?: string;
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
  blind?: BlindScore;
  /** The file it was loaded from. */
  file: string;
}

function fail(file: string, reason: string): never {
  throw new Error(`${basename(file)}: ${reason}`);
}

function str(v: unknown): v is string {
  return typeof v === 'string' && v.trim().length > 0;
}

const BLIND_STATUSES = ['failed', 'healthy', 'inconclusive', 'refused'];

/** Checks a case's `blind:` record; returns it with its day as text (YAML reads a bare date as a Date). */
function checkBlind(b: unknown, file: string): BlindScore {
  if (!b || typeof b !== 'object' || Array.isArray(b)) fail(file, 'blind must be a mapping');
  const r = b as Record<string, unknown>;
  if (!BLIND_STATUSES.includes(r.status as string)) fail(file, `blind.status must be one of ${BLIND_STATUSES.join(', ')}`);
  for (const key of ['stage', 'category'] as const) if (!(key in r)) fail(file, `blind.${key} is missing (null when bootlens named none)`);
  if (r.status !== 'failed' && (r.stage !== null || r.category !== null)) fail(file, 'blind: a verdict that is not failed names no stage or category (null)');
  if (r.stage !== null && !isStageId(r.stage)) fail(file, `blind.stage '${String(r.stage)}' is not a taxonomy stage`);
  if (r.category !== null && !isCategoryId(r.category)) fail(file, `blind.category '${String(r.category)}' is not a taxonomy category`);
  if (typeof r.scoredWith !== 'string' || !/^[0-9a-f]{7,40}$/.test(r.scoredWith)) fail(file, 'blind.scoredWith must be the commit that scored it (7 to 40 hex digits)');
  const on = r.on instanceof Date && !Number.isNaN(r.on.getTime()) ? r.on.toISOString().slice(0, 10) : r.on;
  if (typeof on !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(on)) fail(file, 'blind.on must be the day it was scored (YYYY-MM-DD)');
  if (r.from !== undefined && !str(r.from)) fail(file, 'blind.from must be text');
  const known = new Set(['status', 'stage', 'category', 'scoredWith', 'on', 'from']);
  const extra = Object.keys(r).filter((k) => !known.has(k));
  if (extra.length > 0) fail(file, `blind has unknown fields: ${extra.join(', ')}`);
  return { ...(r as unknown as BlindScore), on };
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
  const blind = c.blind === undefined ? undefined : checkBlind(c.blind, file);
  return { ...(c as unknown as RealCase), files: files as CaseFile[], file, ...(blind ? { blind } : {}) };
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
