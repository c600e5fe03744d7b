// Exit codes, as the README documents them.

/** Ran and found no failure (for inspect: the bundle was read). */
export const EXIT_OK = 0;
/** A failure was diagnosed. */
export const EXIT_FAILURE_FOUND = 1;
/** Usage error, unreadable input, or any unexpected error. */
export const EXIT_ERROR = 2;

/** An error the user caused (bad flag value, unwritable output): one line, exit 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
