// The one filler of `{name}` placeholders, for a rule's message and its fix steps alike.

/** The singular of an English plural noun (`checks`, `retries`, `processes`), for a count of one. */
function singular(word: string): string {
  if (/(?:ss|x|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (/[^aeiou]ies$/.test(word)) return `${word.slice(0, -3)}y`;
  if (/[^s]s$/.test(word)) return word.slice(0, -1);
  return word;
}

const PLACEHOLDER = /\{([A-Za-z_]\w*)\}/g;

/**
 * Fills `{name}` with `values[name]`. A value that is not there is never made up:
 * - a parenthesis that speaks of it is left out, so the sentence reads without it
 *   ("(for example an fdatasync took {took})" on a line that matched another matcher);
 * - anywhere else the braces stay as written, which keeps a command's own braces intact
 *   (the `{end}` of a jsonpath or go-template in a fix step).
 * With `count` of 1, the first plural among the three words after `{count}` becomes singular
 * ("(1 failed checks)" reads "(1 failed check)").
 */
export function fillPlaceholders(template: string, values: Readonly<Record<string, string>>): string {
  // Own keys only: `{constructor}` names no value, not the prototype's function.
  const has = (key: string): boolean => Object.hasOwn(values, key) && values[key] !== undefined;
  const missing = (key: string): boolean => !has(key);
  const said = template.replace(/ ?\([^()]*\)/g, (seg) => ([...seg.matchAll(PLACEHOLDER)].some((m) => missing(m[1])) ? '' : seg));
  const parts = said.split('{count}').map((part) => part.replace(PLACEHOLDER, (whole, key: string) => (has(key) ? values[key] : whole)));
  const count = has('count') ? values.count : undefined;
  if (count === undefined) return parts.join('{count}');
  const after = (part: string): string => {
    if (count !== '1') return part;
    let seen = 0;
    return part.replace(/[A-Za-z-]+/g, (word) => (seen++ < 3 && seen > 0 && /[^s]s$/.test(word) ? ((seen = 99), singular(word)) : word));
  };
  return parts.map((p, i) => (i === 0 ? p : after(p))).join(count);
}
