// Text cut to a bound the way a reader expects: at a word, with … where it was cut, never inside a character.

export const ELLIPSIS = '…';

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * Where to end text that must fit `room` characters: at its last space in the second half of
 * the room, else where a word meets punctuation there (a path, an address), else at `room` (one
 * token longer than half the room); never inside a surrogate pair.
 */
export function wordCut(text: string, room: number): number {
  if (text.length <= room) return text.length;
  const floor = Math.floor(room / 2);
  for (let i = room; i > floor; i--) if (/\s/.test(text[i]) || /\s/.test(text[i - 1])) return i;
  for (let i = room; i > floor; i--) if (/\w/.test(text[i - 1]) !== /\w/.test(text[i])) return i;
  return isLowSurrogate(text.charCodeAt(room)) ? room - 1 : room;
}

/** `text` cut to at most `max` characters, ending with `…` when it was cut, at a word (`wordCut`). */
export function cutAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, wordCut(text, Math.max(1, max - ELLIPSIS.length))).trimEnd()}${ELLIPSIS}`;
}
