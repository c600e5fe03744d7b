// How much of a line a regex is shown. The rules' regexes are checked to run in linear time,
// but a user's rule or a regex a check missed may not: a bounded window keeps the work per line
// bounded whatever the line's length (the reader cuts lines at 64K; evidence keeps the whole line).

/**
 * Regexes of rules and signatures see the first MATCH_WINDOW UTF-16 units of a line (16 KiB):
 * the longest real error lines seen (kubelet and CRI-O pull errors with mirror lists) are
 * under 4 KiB, and a quadratic regex on 16 KiB stays well under a second.
 */
export const MATCH_WINDOW = 16 * 1024;

/** The part of a line regexes look at. */
export function matchWindow(line: string): string {
  return line.length > MATCH_WINDOW ? line.slice(0, MATCH_WINDOW) : line;
}
