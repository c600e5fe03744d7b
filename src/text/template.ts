// Turns a log line into its template: the variable parts (times, numbers, addresses, hashes,
// ids, paths, quoted values) become placeholders, so the same failure on different hosts, at
// different times, reads the same.

const HEADERS: RegExp[] = [
  // journal `short`: `Nov 22 10:15:04 host ident[pid]: `
  /^\s*\S+\s+\d{1,2}\s+\d{2}:\d{2}:\d{2}(?:\.\d+)?\s+\S+\s+[^\s:[]+(?:\[\d+\])?:\s*/,
  // ISO journal forms
  /^\s*\d{4}-\d{2}-\d{2}T\S+\s+\S+\s+[^\s:[]+(?:\[\d+\])?:\s*/,
  // klog
  /^[IWEF]\d{4}\s+\d{2}:\d{2}:\d{2}\.\d+\s+\d+\s+[^\]]+\]\s*/,
];

const MASKS: [RegExp, string][] = [
  [/\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?(?:\s+(?:UTC|[+-]\d{4}))?/g, '<TIME>'],
  [/\b\d{1,2}:\d{2}:\d{2}(?:\.\d+)?\b/g, '<TIME>'],
  [/\bsha256:[0-9a-f]{64}\b/g, '<DIGEST>'],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<UUID>'],
  [/\b[0-9a-f]{12,64}\b/g, '<HEX>'],
  [/\b(?:\d{1,3}\.){3}\d{1,3}(?::\d+)?\b/g, '<IP>'],
  [/\[?\b(?:[0-9a-f]{1,4}:){2,7}[0-9a-f]{1,4}\b\]?(?::\d+)?/gi, '<IP>'],
  [/\b(?:[a-z0-9-]+\.)+(?:com|net|org|io|local|lan|internal|example|cluster|cn|de|fr)\b/gi, '<HOST>'],
  [/(?:\/[\w.-]+){2,}/g, '<PATH>'],
  [/\b\d+(?:\.\d+)?(?:ms|s|m|h|µs|ns|Mi|Gi|Ki|MB|GB|KB|B|%)?\b/g, '<NUM>'],
];

/** The template of one line. */
export function templateOf(line: string): string {
  let text = line;
  // A journal header, then the klog header of the message it carries.
  for (const h of HEADERS) {
    const m = h.exec(text);
    if (m) text = text.slice(m[0].length);
  }
  for (const [re, mark] of MASKS) text = text.replace(re, mark);
  return text.replace(/\s+/g, ' ').trim();
}
