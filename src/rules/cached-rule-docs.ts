// Rule files parsed once: parsing the YAML of every rule is most of loading the rules, so the
// validated documents are cached on disk as JSON, keyed by every file's path and text, the rule
// schema and the code that validates them. Any change is a new key; a file set with a bad rule
// is never cached (the load throws first), so errors always come from a real load. What comes
// back from the cache is validated again like a file (the YAML parse is what is saved): an
// edited entry cannot change a verdict.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { cacheKey, cacheRead, cacheWrite } from '../util/disk-cache.js';
import { packageRoot } from '../util/package-root.js';
import { validateRuleDoc, type YamlRuleDoc } from './yaml-rule.js';

/** The sources of validation: a changed check must not be skipped by an old cached result. */
function validatorSources(): string[] {
  const ext = import.meta.url.endsWith('.ts') ? 'ts' : 'js';
  const own = (name: string): string => readFileSync(fileURLToPath(new URL(`${name}.${ext}`, import.meta.url)), 'utf8');
  return [own('./yaml-rule'), own('./matcher'), own('../taxonomy'), readFileSync(`${packageRoot()}/schema/rule.schema.json`, 'utf8')];
}

/** `load` applied to every file, or the documents it gave last time for the same files. */
export function cachedRuleDocs(files: readonly string[], load: (file: string) => YamlRuleDoc): YamlRuleDoc[] {
  let key: string | undefined;
  try {
    key = cacheKey('rules-v1', ...validatorSources(), ...files.flatMap((f) => [f, readFileSync(f)]));
  } catch {
    key = undefined;
  }
  if (key !== undefined) {
    // Any doubt about an entry (damaged, edited, of another shape) is a miss: loaded for real below.
    const hit = cacheRead('rules', key, (text) => {
      const docs: unknown = JSON.parse(text);
      if (!Array.isArray(docs) || docs.length !== files.length) return undefined;
      return docs.map((doc, i) => validateRuleDoc(doc, files[i], () => undefined));
    });
    if (hit) return hit;
  }
  const docs = files.map(load);
  if (key !== undefined) cacheWrite('rules', key, JSON.stringify(docs));
  return docs;
}
