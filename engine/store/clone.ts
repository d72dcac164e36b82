/**
 * Deep copy of stored records. Records are plain data (objects, arrays, strings, numbers, booleans, null,
 * bigints), for which this is several times faster than structuredClone in Node; anything else (typed arrays,
 * Dates, Maps) falls back to structuredClone so nothing is ever shared by reference.
 */
export function clonePlain<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(clonePlain) as T;
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return structuredClone(value);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) out[key] = clonePlain((value as Record<string, unknown>)[key]);
  return out as T;
}
