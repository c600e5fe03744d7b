// Line text helpers.

/**
 * Copies a string so it no longer shares memory with the chunk it was sliced from;
 * needed for lines the model keeps, or each would pin a whole decoded chunk.
 */
export function detach(text: string): string {
  return text.length < 13 ? text : Buffer.from(text, 'utf8').toString('utf8');
}
