// The known-issue knowledge base: the failures of the message catalogue known by the lines posted
// with them (`seenWith`), which similarity matches a bundle against. The catalogue is its one
// home: an entry's title, stage, category, fix and references are the catalogue entry's.
// `kb add` writes a new entry as a catalogue file of its own (`rules/catalogue/kb-<id>.yaml`).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { CatalogueError, defaultCatalogueDir, fixedCategory, loadCatalogue, makeCatalogue, parseCatalogueText } from '../catalogue/load-catalogue.js';
import type { Catalogue, CatalogueEntry } from '../catalogue/types.js';
import type { CategoryId, StageId } from '../taxonomy.js';
import { writeFileAtomicSync } from '../util/atomic-write.js';
import { makeDir } from '../util/make-dir.js';
import { lineTemplate } from './line-template.js';
import { wordsOf } from './tokens.js';

/** One known issue: a catalogue entry with the lines posted with it. */
export interface KnownIssue {
  /** The catalogue entry's id. */
  id: string;
  title: string;
  stage: StageId;
  category: CategoryId;
  description?: string;
  /** Representative log lines, as written by the logs that show the issue. */
  lines: string[];
  fix: string[];
  /** The public bug reports and docs the entry is drawn from. */
  references: string[];
  /** The id of a rule that reports the same failure, if one does (an entry with a finding text). */
  rule?: string;
  /** The catalogue file it was loaded from. */
  file: string;
  /** A hash of what similarity reads (id and lines): changes when the vectors must. */
  hash: string;
}

/** A knowledge-base entry that cannot be used (printed as `file:line: reason`). */
export class KnowledgeBaseError extends CatalogueError {}

/** The folder the knowledge base is read from: the shipped catalogue. */
export function defaultKnowledgeBaseDir(): string {
  return defaultCatalogueDir();
}

/** What similarity reads of an entry, hashed: vectors cached under it stay valid while it holds. */
export function entryHash(id: string, lines: readonly string[]): string {
  return createHash('sha256').update(JSON.stringify({ v: 1, id, lines })).digest('hex').slice(0, 16);
}

/** The known issue of a catalogue entry with `seenWith` lines; checked: a stage, a fixed category, lines with words. */
function knownIssueOf(e: CatalogueEntry): KnownIssue {
  const category = fixedCategory(e.category);
  if (!e.stage || !category) throw new KnowledgeBaseError(e.file, undefined, `entry '${e.id}': a known failure (seenWith) needs a stage and a fixed category`);
  e.seenWith.forEach((line, i) => {
    // A line with no words after masking can never match anything: it is a mistake.
    if (wordsOf(lineTemplate(line).template).length === 0) {
      throw new KnowledgeBaseError(e.file, undefined, `entry '${e.id}': seenWith[${i}] has no words left once times, addresses and numbers are masked`);
    }
  });
  return {
    id: e.id,
    title: e.title,
    stage: e.stage,
    category,
    ...(e.description ? { description: e.description } : {}),
    lines: e.seenWith,
    fix: e.fix,
    references: e.references,
    ...(e.says ? { rule: e.id } : {}),
    file: e.file,
    hash: entryHash(e.id, e.seenWith),
  };
}

/** The known issues of a catalogue, sorted by id. */
export function knownIssuesOf(catalogue: Catalogue): KnownIssue[] {
  return catalogue.entries
    .filter((e) => e.seenWith.length > 0)
    .map(knownIssueOf)
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Loads the knowledge base of a catalogue folder (default: the shipped one). */
export function loadKnowledgeBase(dir: string = defaultKnowledgeBaseDir()): KnownIssue[] {
  return knownIssuesOf(loadCatalogue(dir));
}

/** The catalogue file `kb add` writes for one entry: a known failure of its own. */
export function knownIssueYaml(entry: Omit<KnownIssue, 'file' | 'hash'>): string {
  const doc: Record<string, unknown> = {
    id: entry.id,
    title: entry.title,
    role: entry.category === 'unknown' || entry.category === 'operator-degraded' ? 'symptom' : 'cause',
    stage: entry.stage,
    category: entry.category,
    severity: 'error',
  };
  if (entry.description) doc.description = entry.description;
  doc.fix = entry.fix;
  doc.references = entry.references;
  doc.seenWith = entry.lines;
  const head = `# A known failure added with \`bootlens kb add\`${entry.rule ? ` (the rule ${entry.rule} reports the same failure)` : ''}.\n`;
  return head + yaml.dump({ program: 'failures reported with bootlens kb add', repository: 'openshift/installer', entries: [doc] }, { lineWidth: -1, noRefs: true, quotingType: "'" });
}

/** Where the entry `id` lives in the catalogue folder `dir`. */
export function knownIssuePath(dir: string, id: string): string {
  return join(dir, `kb-${id}.yaml`);
}

/** Validates the text of a `kb add` file: one known failure, its id unique in the catalogue beside it. */
export function parseKnownIssue(text: string, file: string, beside?: Catalogue): KnownIssue {
  const entries = parseCatalogueText(text, file);
  if (entries.length !== 1 || entries[0].seenWith.length === 0) throw new KnowledgeBaseError(file, undefined, 'a kb entry file holds one entry with seenWith lines');
  if (beside?.byId.has(entries[0].id) && beside.byId.get(entries[0].id)?.file !== file) {
    throw new KnowledgeBaseError(file, undefined, `entry id '${entries[0].id}' is also defined in ${beside.byId.get(entries[0].id)?.file}`);
  }
  return knownIssueOf(makeCatalogue(entries).entries[0]);
}

/**
 * Writes an entry as `<dir>/kb-<id>.yaml`, validated like every shipped entry first: the one place
 * entries are written. An existing file is replaced only with `force`. Throws KnowledgeBaseError.
 */
export function writeKnownIssue(dir: string, entry: Omit<KnownIssue, 'file' | 'hash'>, force = false): { file: string; entry: KnownIssue; yaml: string } {
  const file = knownIssuePath(dir, entry.id);
  if (existsSync(file) && !force) throw new KnowledgeBaseError(file, undefined, 'exists (use --force to replace it)');
  const text = knownIssueYaml(entry);
  let beside: Catalogue | undefined;
  try {
    beside = loadCatalogue(dir);
  } catch {
    beside = undefined;
  }
  const parsed = parseKnownIssue(text, file, beside);
  makeDir(dir);
  // Whole or absent: a cut entry in the catalogue would be skipped by every later run.
  try {
    writeFileAtomicSync(file, text);
  } catch (err) {
    throw new KnowledgeBaseError(file, undefined, `cannot write: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  return { file, entry: parsed, yaml: text };
}

/** Reads and validates one `kb add` file. */
export function loadKnownIssueFile(file: string): KnownIssue {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new KnowledgeBaseError(file, undefined, `cannot read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  return parseKnownIssue(text, file);
}
