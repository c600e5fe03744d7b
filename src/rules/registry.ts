// The TypeScript rules, listed in one place (YAML rules are discovered from rules/).
import type { Rule } from './types.js';

export const BUILTIN_RULES: readonly Rule[] = [];
