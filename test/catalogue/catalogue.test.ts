// The message catalogue walked entry by entry: every entry names the source file that prints
// it, and every example is read by the engine as that entry (or, where another entry decides,
// the entry says why and both name the same category). The combined screen never rules out a
// line some form matches.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { classifierOf, type LineOrigin } from '../../src/catalogue/classify.js';
import { shippedCatalogue } from '../../src/catalogue/shipped.js';
import type { CatalogueEntry } from '../../src/catalogue/types.js';
import { loadCorpus } from '../corpus/real/cases.js';
import { loadRules } from '../../src/rules/load-rules.js';

const catalogue = shippedCatalogue();
const classifier = classifierOf(catalogue);

function originOf(on: string | undefined): LineOrigin | undefined {
  if (!on) return undefined;
  const [host, source] = on.split('/');
  return { host: host === 'master' ? 'master' : 'bootstrap', ...(source ? { source } : {}) };
}

/** Every real line we hold, verbatim as posted: the corpus cases and the catalogue's examples. */
function realLines(): string[] {
  const out: string[] = [];
  for (const c of loadCorpus().cases) {
    for (const t of [...c.files.map((f) => f.lines ?? ''), c.installer?.lines ?? '']) for (const text of t.split('\n')) if (text.trim()) out.push(text);
  }
  for (const e of catalogue.entries) for (const x of e.examples) out.push(x.line);
  return out;
}

describe('the message catalogue', () => {
  it('has entries from many programs, each naming the file whose code prints it', () => {
    expect(catalogue.entries.length).toBeGreaterThan(40);
    for (const e of catalogue.entries) {
      for (const f of e.forms) {
        expect(f.repository, e.id).toMatch(/^[\w.-]+\/[\w.-]+$/);
        // A path to a source file: folders and a name with an extension, never a URL or prose.
        expect(f.origin, e.id).toMatch(/^[\w.@+-]+(?:\/[\w.@+-]+)*\.[A-Za-z0-9]+$/);
      }
    }
  });

  it('holds a finding (an entry without a form or lines seen with it) only where a shipped rule reports it', () => {
    const reported = new Set([...loadRules().docs.values()].map((d) => d.reports ?? d.id));
    for (const e of catalogue.entries.filter((x) => x.forms.length === 0 && x.seenWith.length === 0)) expect(reported.has(e.id), e.id).toBe(true);
  });

  it.each(catalogue.entries.filter((e) => e.forms.length > 0).map((e) => [e.id, e] as const))('%s: each example is read as this entry', (_id, e: CatalogueEntry) => {
    expect(e.examples.length, e.id).toBeGreaterThan(0);
    // A program's message competes with the other messages; a library's error with the other
    // errors of the chain it is in (a message carries its chain's errors: they are no rivals).
    const isMessage = (x: CatalogueEntry): boolean => x.stage !== undefined || x.role === 'benign' || x.role === 'success';
    for (const x of e.examples) {
      const where = originOf(x.on);
      const reading = classifier.classify(x.line, where);
      expect(reading, x.line).toBeDefined();
      const decided = (isMessage(e) ? reading?.message : reading?.error)?.entry.id;
      if (decided !== e.id) {
        // Another entry decides: only where this one says why, and both name the same category.
        expect(Object.keys(e.overlaps), `${x.line} read as ${decided}`).toContain(decided);
        // A `chain` entry's category is whatever decides inside it.
        if (e.category !== 'chain') {
          const own = classifier.hits(x.line, where).find((h) => h.entry.id === e.id);
          const theirs = classifier.hits(x.line, where).find((h) => h.entry.id === decided);
          expect(own?.category, x.line).toBe(theirs?.category);
        }
      }
      // Any rival matching the example is one the entry names, with a reason; a symptom never
      // rivals a cause (a named cause beats a symptom: the classifier's first rule).
      // An outer message quoting this one (it starts earlier on the line) never rivals it either:
      // the inner link decides (its second rule).
      const hits = classifier.hits(x.line, where);
      const ownStart = hits.find((h) => h.entry.id === e.id)?.start ?? -1;
      const rivals = hits
        .filter((h) => !(decided === e.id && h.start < ownStart))
        .map((h) => h.entry)
        .filter((o) => o.id !== e.id && isMessage(o) === isMessage(e) && !(e.role === 'cause' && o.role === 'symptom'));
      for (const o of rivals) expect(Object.keys(e.overlaps), `${x.line} also matches ${o.id}`).toContain(o.id);
    }
  });

  it('screens a line out in one combined pass only when no form of any entry matches it', () => {
    const texts = realLines().flatMap((t) => [t, t.toUpperCase(), t.toLowerCase()]);
    let matched = 0;
    let ruledOut = 0;
    for (const text of texts) {
      const byForm = catalogue.entries.filter((e) => e.forms.some((f) => f.regex.test(text)));
      const hits = classifier.hits(text);
      // Entries with `on`, `when` or `unless` may drop out; none that matches outright is lost.
      const lost = byForm.filter((e) => !e.on && !e.when && !e.unless && !hits.some((h) => h.entry === e));
      expect(lost.map((e) => e.id), text).toEqual([]);
      if (byForm.length > 0) matched++;
      else ruledOut++;
    }
    expect(matched).toBeGreaterThan(texts.length / 10);
    expect(ruledOut).toBeGreaterThan(100);
  });

  it('holds no file but catalogue files', () => {
    const dir = join(process.cwd(), 'rules/catalogue');
    for (const f of readdirSync(dir)) {
      expect(f).toMatch(/\.yaml$/);
      expect(readFileSync(join(dir, f), 'utf8')).toMatch(/^(?:#.*\n)*program: /);
    }
  });
});
