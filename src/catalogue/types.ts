// The message catalogue's model: what bootlens knows about a message a program prints during an
// install — its general form, the code that prints it, the stage of that program, the category
// it names (or that it names only a symptom), how serious it is, the fix, and real examples.
// One home for this knowledge: rules, the generic reading and the knowledge base read it here.
import type { CategoryId, StageId } from '../taxonomy.js';

/**
 * What a message says about a failure:
 * - `cause`: it names its cause (`unauthorized: authentication required`, `no space left on device`);
 * - `symptom`: something failed or waits, without saying why (`context deadline exceeded`);
 * - `benign`: every healthy install prints it (CRI-O's first-boot wipe); never a cause;
 * - `success`: something worked (`API is up`, `etcd is healthy`); later, it heals what failed before.
 */
export type MessageRole = 'cause' | 'symptom' | 'benign' | 'success';

/**
 * What a failed connection was to, read from the message itself (`src/catalogue/targets.ts`): the
 * target, not the words of the error, decides the category of a refused or timed-out connection.
 */
export const TARGETS = [
  'registry',
  'proxy',
  'dns-server',
  'api',
  'api-int',
  'machine-config-server',
  'etcd',
  'ingress',
  'service-network',
  'cloud-api',
  'local',
  'other',
] as const;
export type TargetKind = (typeof TARGETS)[number];

/** A category fixed by the message, or chosen by the target of the connection it speaks of. */
export type CategorySpec = CategoryId | { byTarget: Partial<Record<TargetKind, CategoryId>> & { default: CategoryId } } | 'chain';

/** One wording of a message: versions and programs word the same failure differently. */
export interface MessageForm {
  /** A JavaScript regex (named groups are captures the finding may quote). */
  regex: RegExp;
  /** Substrings one of which every match contains (the reader's prefilter); empty: none. */
  literals: string[];
  /** The file of `repository` whose code prints this wording. */
  origin: string;
  /** The repository of `origin` (owner/name). */
  repository: string;
}

export interface MessageExample {
  /** The line as it was posted or printed, verbatim. */
  line: string;
  /** The public thread it was posted in; absent when taken from the component's own source or tests. */
  from?: string;
  /** Where it was printed: `bootstrap/<unit or container>` or `master/<unit or container>`. */
  on?: string;
}

export interface CatalogueEntry {
  /** Unique in the catalogue, kebab-case. */
  id: string;
  /** The program that prints it (the file's `program`). */
  program: string;
  /** The catalogue file it was loaded from. */
  file: string;
  title: string;
  role: MessageRole;
  /** Its wordings; none for a finding (what a rule concludes from the messages it matches). */
  forms: MessageForm[];
  /** The line must also say this (the operation the error happened in). */
  when?: RegExp;
  /** Not when the line says this. */
  unless?: RegExp;
  /** Only where the line was printed on this host role and by these units or containers (globs). */
  on?: { host?: 'bootstrap' | 'master'; sources?: string[] };
  /**
   * The stage its program's work belongs to; absent for libraries (Go's net, crypto/x509, the
   * registry protocol) whose errors any program can print: the printing program's source decides.
   */
  stage?: StageId;
  /** `chain`: the category of the library error the message carries (`Pull failed: <error>`). */
  category: CategorySpec;
  severity: 'critical' | 'error' | 'warning' | 'info';
  description?: string;
  fix: string[];
  /** The text of a rule's finding that reports this entry (`{capture}`, `{host}`, `{count}` filled). */
  says?: string;
  /** For a symptom: what to collect next (which file, which command on which host) to find the cause. */
  collect: string[];
  /** Success entries whose later line, in the same log, resolves this one. */
  healedBy: string[];
  references: string[];
  examples: MessageExample[];
  /** Lines posted with this failure in public threads, verbatim: what similarity matches a bundle against. */
  seenWith: string[];
  /** Entries that also match an example, each with why that is right (`other id: reason`). */
  overlaps: Record<string, string>;
}

/** The loaded catalogue: entries in file order, and by id. */
export interface Catalogue {
  entries: readonly CatalogueEntry[];
  byId: ReadonlyMap<string, CatalogueEntry>;
}
