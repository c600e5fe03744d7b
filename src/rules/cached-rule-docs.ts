// Rule files parsed and validated once: parsing the YAML of every rule is most of loading the
// rules, so the validated documents are cached on disk as JSON, keyed by every file's path and
// text, the rule schema and the code that validates them. Any change is a new key; a file set
// with a bad rule is never cached (the load throws first), so errors always come from a real load.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { cacheKey, cacheRead, cacheWrite } from '../util/disk-cache.js';
import { packageRoot } from '../util/package-root.js';
import type { YamlRuleDoc } from './yaml-rule.js';

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
    const hit = cacheRead('rules', `${key}.json`);
    if (hit !== undefined) {
      try {
        const docs = JSON.parse(hit) as YamlRuleDoc[];
        if (Array.isArray(docs) && docs.length === files.length) return docs;
      } catch {
        // A damaged cache file: load for real below and write it again.
      }
    }
  }
  const docs = files.map(load);
  if (key !== undefined) cacheWrite('rules', `${key}.json`, JSON.stringify(docs));
  return docs;
}
