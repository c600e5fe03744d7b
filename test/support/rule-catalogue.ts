// Rules written by a test beside the catalogue entries they name: a rules folder with its own
// `catalogue/`, as a user's rules folder holds one.
import { makeCatalogue, parseCatalogueText } from '../../src/catalogue/load-catalogue.js';
import type { Catalogue } from '../../src/catalogue/types.js';
import { tempDir, writeTree } from './fixture-bundle.js';

/** A catalogue file's text holding `entries` (YAML list items, indented two spaces). */
export function catalogueFile(entries: string, program = 'a test program', repository = 'openshift/installer'): string {
  return `program: ${program}\nrepository: ${repository}\nentries:\n${entries}`;
}

/** The catalogue of one file's text. */
export function catalogueOf(text: string): Catalogue {
  return makeCatalogue(parseCatalogueText(text, 'catalogue/test.yaml'));
}

/** A rules folder holding `files` (path → text) and `catalogue/test.yaml`. */
export function rulesFolder(files: Record<string, string>, catalogue: string): string {
  return writeTree(tempDir('bootlens-rules-'), 'rules', { ...files, 'catalogue/test.yaml': catalogue });
}
