// Reading fields of parsed JSON safely: own properties only (a key named `__proto__` or
// `constructor` never reaches the model) and values of the wrong type are skipped.

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An own property of an object; undefined for anything else. */
export function get(obj: unknown, key: string): unknown {
  return isObject(obj) && Object.prototype.hasOwnProperty.call(obj, key) ? obj[key] : undefined;
}

/** A non-empty string field. */
export function str(obj: unknown, key: string): string | undefined {
  const v = get(obj, key);
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** An integer field, also when written as a decimal string. */
export function int(obj: unknown, key: string): number | undefined {
  const v = get(obj, key);
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (typeof v === 'string' && /^-?\d+$/.test(v)) return Number(v);
  return undefined;
}

/** The index just past the JSON object or array that opens at `start`, or -1 when it never closes. */
export function jsonValueEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) depth++;
    else if (c === 125 || c === 93) {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}
