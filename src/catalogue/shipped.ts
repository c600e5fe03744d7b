// The catalogue shipped with bootlens, loaded once per process on first use.
import { classifierOf, type Classifier } from './classify.js';
import { defaultCatalogueDir, loadCatalogue } from './load-catalogue.js';
import type { Catalogue } from './types.js';

/** The shipped catalogue (`rules/catalogue/`). */
export function shippedCatalogue(): Catalogue {
  return loadCatalogue(defaultCatalogueDir());
}

/** The classifier of the shipped catalogue. */
export function shippedClassifier(): Classifier {
  return classifierOf(shippedCatalogue());
}
