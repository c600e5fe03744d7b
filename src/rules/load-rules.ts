// Finds the rule set: YAML files under a rules folder (sorted by path) plus the TypeScript
// rules of the registry. Any bad rule file stops the load with file, line and reason.
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { packageRoot } from '../util/package-root.js';
import { BUILTIN_RULES } from './registry.js';
import { cachedRuleDocs } from './cached-rule-docs.js';
import type { Rule } from './types.js';
import { catalogueDirOf, loadCatalogue } from '../catalogue/load-catalogue.js';
import type { Catalogue } from '../catalogue/types.js';
import { compileYamlRule, loadRuleFile, RuleError, type YamlRuleDoc } from './yaml-rule.js';

/** The rules folder shipped with bootlens. */
export function defaultRulesDir(): string {
  return join(packageRoot(), 'rules');
}

/** Folders of a rules folder that hold no rules: the similarity base and the message catalogue. */
const NOT_RULES = new Set(['known-issues', 'catalogue']);

/** Every `*.yaml` rule file under `dir`, sorted; `known-issues/` and `catalogue/` hold no rules. */
export function ruleFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const full = join(d, name);
      if (statSync(full).isDirectory()) {
        if (!NOT_RULES.has(name)) walk(full);
      } else if (/\.ya?ml$/.test(name)) {
        out.push(full);
      }
    }
  };
  walk(dir);
  return out;
}

export interface LoadedRules {
  rules: Rule[];
  /** The YAML documents, for `rules test` (examples) and `explain`. */
  docs: Map<string, YamlRuleDoc>;
  /** The message catalogue the rules read their messages from (the folder's own, else the shipped one). */
  catalogue: Catalogue;
}

/** Loads YAML rules from `dir` and the built-in TypeScript rules; ids must be unique. */
export function loadRules(dir: string = defaultRulesDir()): LoadedRules {
  let files: string[];
  try {
    files = ruleFiles(dir);
  } catch (err) {
    throw new RuleError(dir, undefined, `cannot read the rules folder: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const catalogue = loadCatalogue(catalogueDirOf(dir));
  const docs = new Map<string, YamlRuleDoc>();
  const rules: Rule[] = [];
  const seen = new Map<string, string>();
  const add = (rule: Rule): void => {
    const prev = seen.get(rule.meta.id);
    if (prev) throw new RuleError(rule.meta.origin, undefined, `rule id '${rule.meta.id}' is also defined in ${prev}`);
    seen.set(rule.meta.id, rule.meta.origin);
    rules.push(rule);
  };
  // Parsed and validated once per set of rule files (cached on disk): YAML parsing is most of start-up.
  const loaded = cachedRuleDocs(files, loadRuleFile);
  for (const [i, file] of files.entries()) {
    const doc = loaded[i];
    const origin = relative(process.cwd(), file) || file;
    docs.set(doc.id, doc);
    add(compileYamlRule(doc, origin, catalogue));
  }
  for (const rule of BUILTIN_RULES) add(rule);
  return { rules, docs, catalogue };
}
