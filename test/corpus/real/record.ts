// The corpus's recorded figures (record.json): which failures today's code names right (stage,
// category) and which healthy installs it leaves healthy. The test fails on any case that was
// right and no longer is, naming it; `npm run corpus -- --record` writes the record after a
// change that is meant to move it (a new case, a fix), so every move is a reviewed commit.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CaseOutcome } from './evaluate.js';

export const RECORD_FILE = join(process.cwd(), 'test/corpus/real/record.json');

export interface CorpusRecord {
  /** Failures: cases whose stage is named right, and whose category is. */
  stageRight: string[];
  categoryRight: string[];
  /** Healthy installs not called failed. */
  healthyRight: string[];
  /** The figures, for people reading the file. */
  figures: { failures: number; healthy: number; stage: string; category: string };
}

function byBytes(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The record today's outcomes make. */
export function recordOf(outcomes: readonly CaseOutcome[]): CorpusRecord {
  const failed = outcomes.filter((o) => o.expected.status === 'failed');
  const healthy = outcomes.filter((o) => o.expected.status === 'healthy');
  const ids = (list: readonly CaseOutcome[]): string[] => list.map((o) => o.id).sort(byBytes);
  const stage = failed.filter((o) => o.stageOk);
  const category = failed.filter((o) => o.categoryOk);
  return {
    stageRight: ids(stage),
    categoryRight: ids(category),
    healthyRight: ids(healthy.filter((o) => o.stageOk)),
    figures: { failures: failed.length, healthy: healthy.length, stage: `${stage.length}/${failed.length}`, category: `${category.length}/${failed.length}` },
  };
}

export function readRecord(): CorpusRecord {
  return JSON.parse(readFileSync(RECORD_FILE, 'utf8')) as CorpusRecord;
}

export function writeRecord(record: CorpusRecord): void {
  writeFileSync(RECORD_FILE, `${JSON.stringify(record, null, 2)}\n`);
}

export interface RecordComparison {
  /** Cases right in the record and wrong today, by what they lost. */
  lost: { stage: string[]; category: string[]; healthy: string[] };
  /** Cases right today and not in the record (record them with --record). */
  gained: { stage: string[]; category: string[]; healthy: string[] };
}

/** How today's outcomes differ from the record (cases no longer in the corpus are ignored). */
export function compareToRecord(record: CorpusRecord, outcomes: readonly CaseOutcome[]): RecordComparison {
  const now = recordOf(outcomes);
  const present = new Set(outcomes.map((o) => o.id));
  const minus = (a: readonly string[], b: readonly string[]): string[] => {
    const in_b = new Set(b);
    return a.filter((id) => present.has(id) && !in_b.has(id));
  };
  return {
    lost: { stage: minus(record.stageRight, now.stageRight), category: minus(record.categoryRight, now.categoryRight), healthy: minus(record.healthyRight, now.healthyRight) },
    gained: { stage: minus(now.stageRight, record.stageRight), category: minus(now.categoryRight, record.categoryRight), healthy: minus(now.healthyRight, record.healthyRight) },
  };
}
