// Array helpers for lists of any length. Spreading an array into call arguments
// (`push(...xs)`, `Math.max(...xs)`) puts every element on the stack: a quarter of a million
// operators or entries overflow it ("Maximum call stack size exceeded").

/** Appends every item of `items` to `target`, in order; returns `target`. */
export function pushAll<T>(target: T[], ...lists: readonly (readonly T[])[]): T[] {
  for (const items of lists) for (let i = 0; i < items.length; i++) target.push(items[i]);
  return target;
}

/** The largest number of a list; -Infinity for none and NaN for a NaN, as Math.max() gives. */
export function maxOf(values: readonly number[]): number {
  let out = -Infinity;
  for (const v of values) {
    if (Number.isNaN(v)) return NaN;
    if (v > out) out = v;
  }
  return out;
}

/** The smallest number of a list; Infinity for none and NaN for a NaN, as Math.min() gives. */
export function minOf(values: readonly number[]): number {
  let out = Infinity;
  for (const v of values) {
    if (Number.isNaN(v)) return NaN;
    if (v < out) out = v;
  }
  return out;
}
