// Lookup tables for names that come from a bundle (unit, container, operator, file names):
// `constructor`, `__proto__` and `toString` must be names the table does not know, not the
// members every plain object inherits (a unit called `constructor` was "FAILED at function Object()").

/** A frozen copy of `entries` without a prototype: a lookup of any other name is undefined. */
export function nameTable<T>(entries: Record<string, T>): Readonly<Record<string, T | undefined>> {
  return Object.freeze(Object.assign(Object.create(null) as Record<string, T>, entries));
}
