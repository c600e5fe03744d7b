// Orders strings by their UTF-16 code units, as `<` does: the same order in every locale
// (`localeCompare` puts `z` before `t` in Estonian and `ch` after `h` in Czech), and the order of
// their UTF-8 bytes for every text but astral characters against U+E000-U+FFFF.

/** Negative, zero or positive as `a` sorts before, with or after `b`, by code units. */
export function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
