// `npm run corpus`: runs analyze on every real case and prints the confusion summary;
// `--out DIR` also writes every case out as the bundle and installer output it is analyzed as;
// `--case ID` (repeatable) limits the run to some cases and prints their verdicts. The summary ends
// with two figures: tuned (today's code on every case) and blind (each case as first scored).
// `--record` writes test/corpus/real/record.json (the cases named right), which the corpus test
// holds the code to.
import { join } from 'node:path';
import { loadCorpus } from '../test/corpus/real/cases.js';
import { summarizeBlind } from '../test/corpus/real/blind.js';
import { evaluateCase, summarize } from '../test/corpus/real/evaluate.js';
import { layOut } from '../test/corpus/real/layout.js';
import { compareToRecord, readRecord, recordOf, writeRecord } from '../test/corpus/real/record.js';

const args = process.argv.slice(2);
const out = args.includes('--out') ? args[args.indexOf('--out') + 1] : undefined;
const only = args.flatMap((a, i) => (args[i - 1] === '--case' ? [a] : []));
// `--inside`: the installer output inside the bundle instead of beside it; `--no-headers`: journal
// lines left as posted, without the header the gather would have written.
const layout = { installer: args.includes('--inside') ? ('inside' as const) : ('beside' as const), headers: !args.includes('--no-headers') };

const corpus = loadCorpus();
for (const p of corpus.problems) console.error(`case not used: ${p}`);
const cases = corpus.cases.filter((c) => only.length === 0 || only.some((id) => c.id.includes(id)));
if (out) {
  for (const c of cases) {
    const laid = await layOut(c, join(out, c.id), layout);
    console.log(`${c.id}: ${laid.input}${laid.installLog && laid.installLog !== laid.input ? ` --install-log ${laid.installLog}` : ''}`);
  }
} else {
  const outcomes = [];
  for (const c of cases) {
    const o = await evaluateCase(c, undefined, layout);
    outcomes.push(o);
    if (only.length > 0) console.log(`${c.id}: ${JSON.stringify(o.got)}`);
  }
  const tuned = summarize(outcomes);
  console.log(tuned.text);
  console.log('');
  console.log(`tuned (today's code on all ${tuned.failures} failures, ${tuned.healthy} healthy): ${tuned.line}`);
  console.log(summarizeBlind(cases, outcomes).text);
  if (only.length === 0) {
    const { lost, gained } = compareToRecord(readRecord(), outcomes);
    const say = (what: string, d: { stage: string[]; category: string[]; healthy: string[] }): void => {
      for (const k of ['stage', 'category', 'healthy'] as const) if (d[k].length > 0) console.log(`${what} (${k}): ${d[k].join(', ')}`);
    };
    say('right in the record, wrong today', lost);
    say('right today, not in the record', gained);
    if (args.includes('--record')) {
      writeRecord(recordOf(outcomes));
      console.log('recorded: test/corpus/real/record.json');
    }
  }
  console.log(
    'The blind figure is the one that predicts the next bundle: it was measured before the cases could shape the code. ' +
      'The tuned figure says how well today\'s code fits the cases it was shaped with.',
  );
}
