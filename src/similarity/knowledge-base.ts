// The known-issue knowledge base (`rules/known-issues/*.yaml`): loading and validation with file and line.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { ErrorObject } from 'ajv';
import yaml from 'js-yaml';
import { CONFIG_YAML_LIMITS } from '../parsers/yaml-document.js';
import { parseRuleYaml, RuleError } from '../rules/yaml-rule.js';
import { CATEGORIES, isCategoryId, isStageId, STAGES, type CategoryId, type StageId } from '../taxonomy.js';
import { makeDir } from '../util/make-dir.js';
import { packageRoot } from '../util/package-root.js';
import { schemaValidator } from '../util/schema.js';
import { lineTemplate } from './line-template.js';
import { wordsOf } from './tokens.js';

/** One known issue, as validated from its file. */
export interface KnownIssue {
  /** Kebab-case id; equals the file name without `.yaml`. */
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
  /** The id of a rule that covers the same failure, if one exists. */
  rule?: string;
  /** The file it was loaded from. */
  file: string;
  /** A hash of what similarity reads (id and lines): changes when the vectors must. */
  hash: string;
}

/** A knowledge-base file that cannot be used (a RuleError, so the CLI prints `file:line: reason`). */
export class KnowledgeBaseError extends RuleError {}

/** Largest knowledge-base file read; entries are a few lines of YAML. */
const MAX_FILE_BYTES = 256 * 1024;


/** The folder of known issues shipped with bootlens. */
export function defaultKnowledgeBaseDir(): string {
  return join(packageRoot(), 'rules', 'known-issues');
}

function describeAjv(e: ErrorObject): string {
  const at = e.instancePath || '(top)';
  if (e.keyword === 'additionalProperties') return `${at}: unknown field '${String(e.params.additionalProperty)}'`;
  if (e.keyword === 'required') return `${at}: missing field '${String(e.params.missingProperty)}'`;
  return `${at}: ${e.message ?? 'invalid'}`;
}

function pointerOf(e: ErrorObject): string {
  if (e.keyword === 'additionalProperties') return `/${String(e.params.additionalProperty)}`;
  return e.instancePath;
}

/** What similarity reads of an entry, hashed: vectors cached under it stay valid while it holds. */
export function entryHash(id: string, lines: readonly string[]): string {
  return createHash('sha256').update(JSON.stringify({ v: 1, id, lines })).digest('hex').slice(0, 16);
}

/**
 * Validates one entry's text. `file` names it in errors and must be `<id>.yaml`.
 * Throws KnowledgeBaseError with file, line and reason.
 */
export function parseKnownIssue(text: string, file: string): KnownIssue {
  const yamlDoc = parseRuleYaml(text, file, { ...CONFIG_YAML_LIMITS, maxBytes: MAX_FILE_BYTES }, KnowledgeBaseError);
  const doc = yamlDoc.value;
  const validate = schemaValidator('known-issue.schema.json');
  if (!validate(doc)) {
    const err = validate.errors?.[0];
    throw new KnowledgeBaseError(file, err ? yamlDoc.lineAt(pointerOf(err)) : undefined, err ? describeAjv(err) : 'invalid entry');
  }
  const entry = doc as Omit<KnownIssue, 'file' | 'hash' | 'stage' | 'category'> & { stage: string; category: string };
  const name = basename(file).replace(/\.ya?ml$/, '');
  if (name !== entry.id) throw new KnowledgeBaseError(file, yamlDoc.lineAt('/id'), `id '${entry.id}' must equal the file name '${name}'`);
  if (!isStageId(entry.stage)) {
    throw new KnowledgeBaseError(file, yamlDoc.lineAt('/stage'), `stage '${entry.stage}' is not a taxonomy stage (${STAGES.join(', ')})`);
  }
  if (!isCategoryId(entry.category)) {
    throw new KnowledgeBaseError(file, yamlDoc.lineAt('/category'), `category '${entry.category}' is not a taxonomy category (${CATEGORIES.join(', ')})`);
  }
  entry.lines.forEach((line, i) => {
    // A line with no words after masking can never match anything: it is a mistake.
    if (wordsOf(lineTemplate(line).template).length === 0) {
      throw new KnowledgeBaseError(file, yamlDoc.lineAt(`/lines/${i}`), `/lines/${i}: has no words left once times, addresses and numbers are masked`);
    }
  });
  const out: KnownIssue = {
    id: entry.id,
    title: entry.title,
    stage: entry.stage,
    category: entry.category,
    lines: entry.lines,
    fix: entry.fix,
    references: entry.references,
    file,
    hash: entryHash(entry.id, entry.lines),
  };
  if (entry.description !== undefined) out.description = entry.description.trim();
  if (entry.rule !== undefined) out.rule = entry.rule;
  return out;
}

/** Reads and validates one entry file. */
export function loadKnownIssueFile(file: string): KnownIssue {
  let size: number;
  try {
    size = statSync(file).size;
  } catch (err) {
    throw new KnowledgeBaseError(file, undefined, `cannot read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  if (size > MAX_FILE_BYTES) throw new KnowledgeBaseError(file, undefined, `larger than ${MAX_FILE_BYTES} bytes: not a knowledge-base entry`);
  return parseKnownIssue(readFileSync(file, 'utf8'), file);
}

/** The entry files of a folder, sorted by name. */
export function knownIssueFiles(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (err) {
    throw new KnowledgeBaseError(dir, undefined, `cannot read the knowledge-base folder: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  return names
    .filter((n) => /\.ya?ml$/.test(n))
    .sort()
    .map((n) => join(dir, n));
}

/** Loads every entry of a folder (default: the shipped one), sorted by id; ids are unique. */
export function loadKnowledgeBase(dir: string = defaultKnowledgeBaseDir()): KnownIssue[] {
  const entries = knownIssueFiles(dir).map(loadKnownIssueFile);
  const seen = new Map<string, string>();
  for (const e of entries) {
    const prev = seen.get(e.id);
    if (prev) throw new KnowledgeBaseError(e.file, 1, `id '${e.id}' is also defined in ${prev}`);
    seen.set(e.id, e.file);
  }
  return entries.sort((a, b) => a.id.localeCompare(b.id));
}

/** The YAML text of an entry, in the field order the shipped files use. */
export function knownIssueYaml(entry: Omit<KnownIssue, 'file' | 'hash'>): string {
  const doc: Record<string, unknown> = { id: entry.id, title: entry.title, stage: entry.stage, category: entry.category };
  if (entry.description) doc.description = entry.description;
  doc.lines = entry.lines;
  doc.fix = entry.fix;
  doc.references = entry.references;
  if (entry.rule) doc.rule = entry.rule;
  return yaml.dump(doc, { lineWidth: -1, noRefs: true, quotingType: "'" });
}

/** Where the entry `id` lives in the knowledge-base folder `dir`. */
export function knownIssuePath(dir: string, id: string): string {
  return join(dir, `${id}.yaml`);
}

/**
 * Writes an entry as `<dir>/<id>.yaml`, validated like every shipped entry first: the one place
 * entries are written. An existing file is replaced only with `force`. Throws KnowledgeBaseError.
 */
export function writeKnownIssue(dir: string, entry: Omit<KnownIssue, 'file' | 'hash'>, force = false): { file: string; entry: KnownIssue; yaml: string } {
  const file = knownIssuePath(dir, entry.id);
  if (existsSync(file) && !force) throw new KnowledgeBaseError(file, undefined, 'exists (use --force to replace it)');
  const text = knownIssueYaml(entry);
  const parsed = parseKnownIssue(text, file);
  makeDir(dir);
  writeFileSync(file, text);
  return { file, entry: parsed, yaml: text };
}
