// Real lines for the catalogue's tests, read as the engine is handed them: a corpus case's line
// found by words it holds (its files, its service records' fields, the installer's output), or a
// catalogue entry's example posted in a public thread, found by the thread. Journal lines lose
// their header (`date host identifier[pid]: `) as the journal reader strips it; where the line
// was printed (host role, unit or container) comes from its path in the bundle or the example's
// `on:`. A case or example that no longer holds the line throws, naming it.
import type { LineOrigin } from '../../src/catalogue/classify.js';
import type { Catalogue } from '../../src/catalogue/types.js';
import { parseJournalLine } from '../../src/parsers/journal-text.js';
import { parseLogLine } from '../../src/parsers/log-line.js';
import { loadCorpus, type RealCase } from '../corpus/real/cases.js';

export interface RealLine {
  /** The text the engine reads: the journal message, or the whole line where it has no header. */
  text: string;
  where?: LineOrigin;
  /** Where it was taken from: `<case id>` or the thread's URL. */
  from: string;
}

let corpus: RealCase[] | undefined;

/** The host role and the unit, container or service a file of the bundle layout speaks for. */
function originOfPath(path: string): LineOrigin | undefined {
  const m = /^(bootstrap|control-plane\/[^/]+)\/(?:journals|unit-status|containers|pods|services)\/([^/]+?)(?:\.log|\.txt|\.json)?$/.exec(path);
  return m ? { host: m[1] === 'bootstrap' ? 'bootstrap' : 'master', source: m[2] } : undefined;
}

function messageOf(raw: string): string {
  const j = parseJournalLine(raw, 1, Date.UTC(2025, 0, 1));
  return j?.identifier ? j.text : parseLogLine(raw, 1, undefined).text;
}

/** Every string a structured file holds (a service record's errorMessage, an event's message). */
function stringsOf(v: unknown): string[] {
  if (typeof v === 'string') return v.split('\n');
  if (v && typeof v === 'object') return Object.values(v).flatMap(stringsOf);
  return [];
}

/** The first line of corpus case `caseId` that holds `words`. */
export function corpusLine(caseId: string, words: string): RealLine {
  corpus ??= loadCorpus().cases;
  const c = corpus.find((x) => x.id === caseId);
  if (!c) throw new Error(`no corpus case ${caseId}`);
  const groups = [
    ...c.files.map((f) => ({ where: originOfPath(f.path), lines: [...(f.lines ?? '').split('\n'), ...stringsOf(f.json)] })),
    { where: undefined, lines: (c.installer?.lines ?? '').split('\n') },
  ];
  for (const g of groups) {
    const raw = g.lines.find((l) => l.includes(words));
    if (raw !== undefined) return { text: messageOf(raw), ...(g.where ? { where: g.where } : {}), from: caseId };
  }
  throw new Error(`${caseId} has no line with "${words}"`);
}

/** The example of catalogue entry `entryId` posted in `thread` (its `from:`), the one holding `words` if given. */
export function exampleLine(catalogue: Catalogue, entryId: string, thread: string, words = ''): RealLine {
  const e = catalogue.byId.get(entryId);
  if (!e) throw new Error(`no catalogue entry ${entryId}`);
  const x = e.examples.find((ex) => ex.from === thread && ex.line.includes(words));
  if (!x) throw new Error(`${entryId} has no example from ${thread} with "${words}"`);
  const [host, source] = (x.on ?? '').split('/');
  const where: LineOrigin | undefined = x.on ? { host: host === 'master' ? 'master' : 'bootstrap', ...(source ? { source } : {}) } : undefined;
  return { text: messageOf(x.line), ...(where ? { where } : {}), from: thread };
}
