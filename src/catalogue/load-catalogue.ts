// Loads the message catalogue (`rules/catalogue/*.yaml`): schema, taxonomy ids, regexes that
// compile and cannot backtrack catastrophically, unique ids, and references between entries
// (healedBy, overlaps) that name entries which exist. A bad file stops the load with file:line.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import type { ErrorObject } from 'ajv';
import { ConfigFileError, parseConfigYaml } from '../parsers/config-file.js';
import { hasBackReference, isCatastrophic, regexLiterals } from '../text/regex-source.js';
import { CATEGORIES, STAGES, isCategoryId, type CategoryId, type StageId } from '../taxonomy.js';
import { packageRoot } from '../util/package-root.js';
import { validator as validateCatalogueSchema } from '../util/compiled-schemas/catalogue-schema.js';
import type { Catalogue, CatalogueEntry, CategorySpec, MessageForm, MessageRole } from './types.js';

/** A catalogue file that cannot be used (printed as `file:line: reason`). */
export class CatalogueError extends ConfigFileError {}

/** The catalogue shipped with bootlens. */
export function defaultCatalogueDir(): string {
  return join(packageRoot(), 'rules', 'catalogue');
}

/** The catalogue of a rules folder: its own `catalogue/` when it has one, else the shipped one. */
export function catalogueDirOf(rulesDir: string): string {
  const own = join(rulesDir, 'catalogue');
  try {
    readdirSync(own);
    return own;
  } catch {
    return defaultCatalogueDir();
  }
}

interface FormDoc {
  regex: string;
  origin?: string;
  literals?: string[];
  note?: string;
}

interface EntryDoc {
  id: string;
  title: string;
  role: MessageRole;
  form?: string;
  forms?: FormDoc[];
  literals?: string[];
  ignoreCase?: boolean;
  origin?: string;
  when?: string;
  unless?: string;
  on?: { host?: 'bootstrap' | 'master'; sources?: string[] };
  stage?: StageId;
  category: CategorySpec;
  severity: CatalogueEntry['severity'];
  description?: string;
  fix?: string[];
  says?: string;
  collect?: string[];
  healedBy?: string[];
  references?: string[];
  examples?: { line: string; from?: string; on?: string }[];
  overlaps?: Record<string, string>;
  seenWith?: string[];
}

interface FileDoc {
  program: string;
  repository: string;
  stage?: StageId;
  entries: EntryDoc[];
}

function describeAjv(e: ErrorObject): string {
  const at = e.instancePath || '(top)';
  if (e.keyword === 'additionalProperties') return `${at}: unknown field '${String(e.params.additionalProperty)}'`;
  if (e.keyword === 'required') return `${at}: missing field '${String(e.params.missingProperty)}'`;
  if (e.keyword === 'enum') {
    const allowed = (e.params.allowedValues as unknown[]).map(String);
    return `${at}: must be one of ${allowed.join(', ')}`;
  }
  return `${at}: ${e.message ?? 'invalid'}`;
}

/** The error ajv reports first is often a branch of a oneOf; name the taxonomy where it applies. */
function taxonomyHint(doc: unknown, path: string): string | undefined {
  const parts = path.split('/').slice(1);
  let v: unknown = doc;
  for (const p of parts) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[p] : undefined;
  if (path.endsWith('/category') && typeof v === 'string' && !isCategoryId(v) && v !== 'chain') {
    return `${path}: category '${v}' is not a taxonomy category (${CATEGORIES.join(', ')}, or chain)`;
  }
  if (path.endsWith('/stage') && typeof v === 'string') return `${path}: stage '${v}' is not a taxonomy stage (${STAGES.join(', ')})`;
  return undefined;
}

function compileRegex(source: string, flags: string, file: string, line: number | undefined, what: string): RegExp {
  let re: RegExp;
  try {
    re = new RegExp(source, flags);
  } catch (err) {
    throw new CatalogueError(file, line, `${what}: invalid regex /${source}/: ${(err as Error).message}`);
  }
  if (hasBackReference(source)) throw new CatalogueError(file, line, `${what}: regex /${source}/ refers back to a group: no regex with a back-reference can be proven to match in linear time`);
  if (isCatastrophic(source)) throw new CatalogueError(file, line, `${what}: regex /${source}/ can backtrack catastrophically`);
  return re;
}

/** `owner/name:path` or a path in the file's repository. */
function splitOrigin(origin: string, repository: string): { repository: string; origin: string } {
  const m = /^([A-Za-z0-9][\w.-]*\/[\w.-]+):(.+)$/.exec(origin);
  return m ? { repository: m[1], origin: m[2] } : { repository, origin };
}

/** Reads and validates one catalogue file. */
export function loadCatalogueFile(file: string, shownAs: string = file): CatalogueEntry[] {
  return parseCatalogueText(readFileSync(file, 'utf8'), shownAs);
}

/** Validates the text of one catalogue file; `shownAs` names it in errors. */
export function parseCatalogueText(text: string, shownAs: string): CatalogueEntry[] {
  const yamlDoc = parseConfigYaml(text, shownAs, undefined, CatalogueError);
  const at = (path: string): number | undefined => yamlDoc.lineAt(path);
  const validate = validateCatalogueSchema;
  if (!validate(yamlDoc.value)) {
    const errors = validate.errors ?? [];
    const hint = errors.map((e) => taxonomyHint(yamlDoc.value, e.instancePath)).find((h) => h !== undefined);
    const err = errors[0];
    throw new CatalogueError(shownAs, err ? at(err.instancePath) : undefined, hint ?? (err ? describeAjv(err) : 'invalid catalogue file'));
  }
  const doc = yamlDoc.value as FileDoc;
  return doc.entries.map((e, i) => {
    const path = `/entries/${i}`;
    const line = at(path);
    const flags = e.ignoreCase ? 'i' : '';
    // A finding (no form) is what a rule concludes; it matches no line itself.
    const formDocs: FormDoc[] = e.forms ?? (e.form !== undefined ? [{ regex: e.form, ...(e.origin ? { origin: e.origin } : {}), ...(e.literals ? { literals: e.literals } : {}) }] : []);
    const forms: MessageForm[] = formDocs.map((f, j) => {
      const origin = f.origin ?? e.origin;
      if (!origin) throw new CatalogueError(shownAs, at(`${path}/forms/${j}`), `entry '${e.id}': a form needs an origin (its own or the entry's)`);
      const regex = compileRegex(f.regex, flags, shownAs, at(e.forms ? `${path}/forms/${j}` : `${path}/form`), `entry '${e.id}'`);
      // The literals the reader prefilters with: derived from the regex unless given.
      const literals = f.literals ?? (e.forms ? undefined : e.literals) ?? regexLiterals(f.regex, flags);
      return { regex, literals, ...splitOrigin(origin, doc.repository) };
    });
    const stage = e.stage ?? doc.stage;
    if (e.role !== 'benign' && e.role !== 'success' && (e.fix ?? []).length === 0) {
      throw new CatalogueError(shownAs, line, `entry '${e.id}': a ${e.role} needs a fix (what a support engineer would do)`);
    }
    const entry: CatalogueEntry = {
      id: e.id,
      program: doc.program,
      file: shownAs,
      title: e.title,
      role: e.role,
      forms,
      ...(e.when ? { when: compileRegex(e.when, flags, shownAs, line, `entry '${e.id}' when`) } : {}),
      ...(e.unless ? { unless: compileRegex(e.unless, flags, shownAs, line, `entry '${e.id}' unless`) } : {}),
      ...(e.on ? { on: e.on } : {}),
      ...(stage ? { stage } : {}),
      category: e.category,
      severity: e.severity,
      ...(e.description ? { description: e.description.trim() } : {}),
      fix: e.fix ?? [],
      ...(e.says ? { says: e.says } : {}),
      collect: e.collect ?? [],
      healedBy: e.healedBy ?? [],
      references: e.references ?? [],
      examples: (e.examples ?? []).map((x) => ({ line: x.line, ...(x.from ? { from: x.from } : {}), ...(x.on ? { on: x.on } : {}) })),
      overlaps: e.overlaps ?? {},
      seenWith: e.seenWith ?? [],
    };
    return entry;
  });
}

/** Every `*.yaml` file of a catalogue folder, sorted. */
export function catalogueFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((n) => /\.ya?ml$/.test(n))
    .sort()
    .map((n) => join(dir, n));
}

/** Checks references between entries: healedBy names success entries, overlaps name entries. */
function checkReferences(entries: readonly CatalogueEntry[], byId: ReadonlyMap<string, CatalogueEntry>): void {
  for (const e of entries) {
    for (const h of e.healedBy) {
      const target = byId.get(h);
      if (!target) throw new CatalogueError(e.file, undefined, `entry '${e.id}': healedBy names no entry '${h}'`);
      if (target.role !== 'success') throw new CatalogueError(e.file, undefined, `entry '${e.id}': healedBy '${h}' is a ${target.role}, not a success`);
    }
    for (const o of Object.keys(e.overlaps)) {
      if (!byId.has(o)) throw new CatalogueError(e.file, undefined, `entry '${e.id}': overlaps names no entry '${o}'`);
    }
  }
}

/** Builds a catalogue from entries (ids must be unique). */
export function makeCatalogue(entries: readonly CatalogueEntry[]): Catalogue {
  const byId = new Map<string, CatalogueEntry>();
  for (const e of entries) {
    const prev = byId.get(e.id);
    if (prev) throw new CatalogueError(e.file, undefined, `entry id '${e.id}' is also defined in ${prev.file}`);
    byId.set(e.id, e);
  }
  checkReferences(entries, byId);
  return { entries, byId };
}

const loaded = new Map<string, { stamp: string; catalogue: Catalogue }>();

/** Whether a catalogue file is a known failure `kb add` wrote. */
function isKbFile(file: string): boolean {
  return /^kb-.*\.ya?ml$/.test(basename(file));
}

/** Names a `kb add` entry left out, on stderr (control characters of a file name shown as spaces). */
function skippedEntry(message: string): void {
  process.stderr.write(`bootlens: knowledge-base entry skipped: ${message.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ')}\n`);
}

/** Loads every file of a catalogue folder, once per process while its files stay the same. */
export function loadCatalogue(dir: string = defaultCatalogueDir()): Catalogue {
  let files: string[];
  try {
    files = catalogueFiles(dir);
  } catch (err) {
    throw new CatalogueError(dir, undefined, `cannot read the catalogue folder: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  // A file added, removed or rewritten (kb add) is a new catalogue.
  const stamp = files.map((f) => {
    const st = statSync(f, { throwIfNoEntry: false });
    return `${f}:${st?.size ?? -1}:${st?.mtimeMs ?? -1}`;
  }).join('|');
  const hit = loaded.get(dir);
  if (hit && hit.stamp === stamp) return hit.catalogue;
  const shown = (f: string): string => relative(process.cwd(), f) || f;
  // The catalogue's own files must load; an entry `kb add` wrote (`kb-<id>.yaml`) that does not
  // (a full disk cut it, an id now taken) is named on stderr and left out: one bad entry must not
  // stop every analysis.
  const own = files.filter((f) => !isKbFile(f));
  const entries = own.flatMap((f) => loadCatalogueFile(f, shown(f)));
  for (const f of files.filter(isKbFile)) {
    try {
      const added = loadCatalogueFile(f, shown(f));
      makeCatalogue([...entries, ...added]);
      entries.push(...added);
    } catch (err) {
      if (!(err instanceof CatalogueError) && (err as NodeJS.ErrnoException).code === undefined) throw err;
      skippedEntry(err instanceof CatalogueError ? err.message : `${shown(f)}: cannot read: ${(err as NodeJS.ErrnoException).code}`);
    }
  }
  const catalogue = makeCatalogue(entries);
  loaded.set(dir, { stamp, catalogue });
  return catalogue;
}

/** The fixed category of an entry, when it does not depend on a target or a chain. */
export function fixedCategory(spec: CategorySpec): CategoryId | undefined {
  return typeof spec === 'string' && spec !== 'chain' ? spec : undefined;
}
