/**
 * How store records and keys fit PostgreSQL columns without loss. Records go in jsonb, with what JSON or
 * PostgreSQL cannot hold (bigints, bytes, undefined array items, -0, NaN, NUL, unpaired surrogates) encoded as
 * tagged objects `{ "$t": kind, "v": ... }`, an ordinary object with a `$t` key tagged too so decoding is
 * unambiguous; plain JSON records come out unchanged. Text columns (table, id, index keys) use a reversible
 * percent escape. docs/SERVER.md "Storage".
 */
import { base64 } from '@scure/base';

const TAG = '$t';
/** NUL, or a surrogate without its partner. */
// eslint-disable-next-line no-control-regex -- NUL is exactly what PostgreSQL text refuses
const UNSAFE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
// eslint-disable-next-line no-control-regex -- as above
const UNSAFE_ALL = /%|\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Reversible: `%` and the unsafe code units become `%25` / `%uXXXX`; everything else is kept. */
export function escapeText(text: string): string {
  if (!text.includes('%') && !UNSAFE.test(text)) return text;
  return text.replace(UNSAFE_ALL, (c) =>
    c === '%' ? '%25' : `%u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

export function unescapeText(text: string): string {
  if (!text.includes('%')) return text;
  return text.replace(/%(25|u[0-9a-f]{4})/g, (_m, code: string) =>
    code === '25' ? '%' : String.fromCharCode(parseInt(code.slice(1), 16)),
  );
}

function isPlainObject(value: object): value is Record<string, unknown> {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * A value JSON.stringify turns into the JSON standing for `value` (see the file comment). Throws on values the
 * store cannot keep. What needs no tag is returned as it is, not copied (a transfer writes ~10 records: their
 * copies were ~4% of what it allocated): an object or array comes back new only when something in it
 * changed, and properties whose value is undefined are left for JSON.stringify to drop. Never mutates
 * `value`.
 */
export function encodeValue(value: unknown): unknown {
  switch (typeof value) {
    case 'string':
      return UNSAFE.test(value) ? { [TAG]: 's', v: escapeText(value) } : value;
    case 'number':
      if (Object.is(value, -0)) return { [TAG]: 'f', v: '-0' };
      return Number.isFinite(value) ? value : { [TAG]: 'f', v: String(value) };
    case 'boolean':
      return value;
    case 'bigint':
      return { [TAG]: 'n', v: value.toString() };
    case 'undefined':
      return { [TAG]: 'u' };
    case 'object': {
      if (value === null) return null;
      if (Array.isArray(value)) return encodeArray(value);
      if (value instanceof Uint8Array) return { [TAG]: 'b', v: base64.encode(value) };
      if (value instanceof Date) return { [TAG]: 'd', v: value.getTime() };
      if (!isPlainObject(value)) throw new TypeError(`Cannot store a ${value.constructor.name}`);
      return encodeObject(value);
    }
    default:
      throw new TypeError(`Cannot store a ${typeof value}`);
  }
}

function encodeArray(value: readonly unknown[]): unknown[] {
  let out: unknown[] | null = null;
  // Indexes, not for-of: a hole is an undefined item (tagged), as Array.from saw it.
  for (let i = 0; i < value.length; i++) {
    const item = value[i];
    const encoded = encodeValue(item);
    if (out === null && (encoded !== item || !(i in value))) out = value.slice(0, i);
    out?.push(encoded);
  }
  return out ?? (value as unknown[]);
}

function encodeObject(value: Record<string, unknown>): unknown {
  const keys = Object.keys(value);
  if (keys.some((k) => k === TAG || UNSAFE.test(k))) {
    return {
      [TAG]: 'o',
      v: keys.filter((k) => value[k] !== undefined).map((k) => [encodeValue(k), encodeValue(value[k])]),
    };
  }
  let out: Record<string, unknown> | null = null;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i] as string;
    const item = value[k];
    if (item === undefined) continue;
    const encoded = encodeValue(item);
    if (out === null && encoded !== item) {
      out = {};
      for (let j = 0; j < i; j++) {
        const earlier = keys[j] as string;
        if (value[earlier] !== undefined) define(out, earlier, value[earlier]);
      }
    }
    if (out !== null) define(out, k, encoded);
  }
  return out ?? value;
}

/** `obj[key] = item`, also for a key named __proto__ (an own property, as JSON.parse makes it). */
function define(obj: Record<string, unknown>, key: string, item: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(obj, key, { value: item, enumerable: true, writable: true, configurable: true });
  else obj[key] = item;
}

function decodeTagged(tagged: Record<string, unknown>): unknown {
  const v = tagged['v'];
  switch (tagged[TAG]) {
    case 's':
      return unescapeText(String(v));
    case 'f':
      return Number(v);
    case 'n':
      return BigInt(String(v));
    case 'u':
      return undefined;
    case 'b':
      return base64.decode(String(v));
    case 'd':
      return new Date(Number(v));
    case 'o': {
      const out: Record<string, unknown> = {};
      for (const [k, item] of v as Array<[unknown, unknown]>)
        define(out, String(decodeValue(k)), decodeValue(item));
      return out;
    }
    default:
      throw new TypeError(`Unknown stored tag ${String(tagged[TAG])}`);
  }
}

/**
 * The inverse of encodeValue, on what the driver parsed from jsonb, IN PLACE: `json` must be the driver's own
 * parse, decoded once (decoding a decoded value again would read a stored `$t` key as a tag), and is returned
 * with its tagged parts replaced; untagged objects and arrays are not copied (every row a unit reads used to
 * be copied here, then again by the unit of work).
 */
export function decodeValue(json: unknown): unknown {
  if (json === null || typeof json !== 'object') return json;
  if (Array.isArray(json)) {
    for (let i = 0; i < json.length; i++) {
      const item: unknown = json[i];
      if (item !== null && typeof item === 'object') json[i] = decodeValue(item);
    }
    return json;
  }
  const obj = json as Record<string, unknown>;
  if (TAG in obj) return decodeTagged(obj);
  for (const k of Object.keys(obj)) {
    const item = obj[k];
    if (item !== null && typeof item === 'object') define(obj, k, decodeValue(item));
  }
  return obj;
}
