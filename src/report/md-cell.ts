// Text safe inside one Markdown table cell: no pipes, no line breaks, no HTML, no emphasis.

/** Escapes text for a Markdown table cell. */
export function markdownCell(text: string): string {
  return text
    .replace(/[\r\n]+/g, ' ')
    .replace(/[\\`*_{}[\]<>()#+!|~]/g, (c) => `\\${c}`)
    .trim();
}
