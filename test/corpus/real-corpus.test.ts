// The real-failure corpus: every case laid out as installer-gather.sh would write it, analyzed
// with the CLI's defaults, and summed up in a stage × category confusion summary. Accuracy is
// what the threads established, not what bootlens says. The cases named right are recorded
// (record.json): a change that loses one fails here, naming it.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tar from 'tar';
import { beforeAll, describe, expect, it } from 'vitest';
import { looksLikeInstallerOutput } from '../../src/parsers/installer-log.js';
import { parseJournalLine } from '../../src/parsers/journal-text.js';
import { loadRules } from '../../src/rules/load-rules.js';
import { STAGES } from '../../src/taxonomy.js';
import { loadCorpus, type RealCase } from './real/cases.js';
import { evaluateCase, summarize, type CaseOutcome } from './real/evaluate.js';
import { compareToRecord, readRecord, recordOf } from './real/record.js';
import { layOut } from './real/layout.js';

const corpus = loadCorpus();
const failures = corpus.cases.filter((c) => c.expected.status === 'failed');
const healthy = corpus.cases.filter((c) => c.expected.status === 'healthy');

describe('the real-failure corpus', () => {
  it('holds well-formed cases: at least 50 failures and 10 healthy installs', () => {
    expect(corpus.problems).toEqual([]);
    expect(failures.length).toBeGreaterThanOrEqual(50);
    expect(healthy.length).toBeGreaterThanOrEqual(10);
  });

  it('spreads the failures over all eleven stages, no more than a quarter release-image', () => {
    for (const stage of STAGES) expect(failures.some((c) => c.expected.stage === stage), stage).toBe(true);
    expect(failures.filter((c) => c.expected.stage === 'release-image').length).toBeLessThanOrEqual(failures.length / 4);
    // One case per thread.
    const sources = corpus.cases.map((c) => c.source);
    expect(new Set(sources).size).toBe(sources.length);
  });

  it('lays a case out as the gather scripts would: verbatim lines, a journal header only where one was missing', async () => {
    const c = corpus.cases.find((x) => x.files.some((f) => f.path === 'bootstrap/journals/crio.log')) as RealCase;
    const dir = mkdtempSync(join(tmpdir(), 'bootlens-layout-'));
    const laid = await layOut(c, dir);
    const entries: Record<string, string> = {};
    await tar.list({
      file: laid.input,
      onReadEntry: (e) => {
        const chunks: Buffer[] = [];
        e.on('data', (b: Buffer) => chunks.push(b));
        e.on('end', () => (entries[e.path] = Buffer.concat(chunks).toString('utf8')));
      },
    });
    const path = Object.keys(entries).find((p) => p.endsWith('/bootstrap/journals/crio.log')) as string;
    expect(path).toMatch(new RegExp(`^log-bundle-${laid.gatherId}/`));
    const posted = (c.files.find((f) => f.path === 'bootstrap/journals/crio.log')?.lines ?? '').trimEnd().split('\n');
    const written = entries[path].trimEnd().split('\n');
    expect(written).toHaveLength(posted.length);
    written.forEach((line, i) => expect(line.endsWith(posted[i]), line).toBe(true));
    // A line posted without its journal header got one; lines posted with one are untouched.
    written.forEach((line, i) => {
      const had = parseJournalLine(posted[i], i + 1, undefined) !== undefined;
      if (had) expect(line).toBe(posted[i]);
      else expect(parseJournalLine(line, i + 1, undefined)?.text).toBe(posted[i]);
    });
    if (c.installer) expect(readFileSync(laid.installLog as string, 'utf8').trimEnd()).toBe(c.installer.lines.trimEnd());
  });
});

describe('bootlens on the real-failure corpus', () => {
  let outcomes: CaseOutcome[] = [];

  beforeAll(async () => {
    const rules = loadRules().rules;
    outcomes = [];
    for (const c of corpus.cases) outcomes.push(await evaluateCase(c, rules));
    console.log(summarize(outcomes).text);
  }, 300_000);

  it('refuses no bundle and no installer output in any of its forms', () => {
    // Only a bare fragment with no installer-formed line (no level, no time) is no installer output.
    const notOutput = corpus.cases.filter((c) => c.files.length === 0 && !looksLikeInstallerOutput(c.installer?.lines ?? '')).map((c) => c.id);
    expect(notOutput.length).toBeLessThanOrEqual(2);
    expect(outcomes.filter((o) => o.refused).map((o) => o.id)).toEqual(notOutput);
  });

  it('names right every case the record says it names right (test/corpus/real/record.json)', () => {
    // A case lost is named; a case gained is recorded with `npm run corpus -- --record`.
    const { lost } = compareToRecord(readRecord(), outcomes);
    expect(lost).toEqual({ stage: [], category: [], healthy: [] });
  });

  it('keeps at least the recorded figures, and the record is today\'s', () => {
    const record = readRecord();
    const now = recordOf(outcomes);
    expect(now.stageRight.length).toBeGreaterThanOrEqual(record.stageRight.length);
    expect(now.categoryRight.length).toBeGreaterThanOrEqual(record.categoryRight.length);
    // The record's figures are those of the corpus as it is: a new case is recorded when added.
    expect(record.figures.failures).toBe(failures.length);
    expect(record.figures.healthy).toBe(healthy.length);
  });

  it('calls no healthy install failed', () => {
    expect(summarize(outcomes).healthyCalledFailed).toEqual([]);
  });
});
