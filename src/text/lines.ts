// Line text helpers.

/**
 * Copies a string so it no longer shares memory with the string it was sliced from: for a
 * small piece kept long after the text it came from (a template's token, a hostname). Lines the
 * reader keeps need none: the scanner decodes each line from its bytes alone.
 */
export function detach(text: string): string {
  return text.length < 13 ? text : Buffer.from(text, 'utf8').toString('utf8');
}
