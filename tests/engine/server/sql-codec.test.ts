/**
 * server/sql-codec.ts: what JSON and PostgreSQL's jsonb cannot hold survives a round trip (encode,
 * JSON.stringify, JSON.parse as the driver does, decode), the encoder never changes what it is given and
 * copies only what it must, the decoder works in place on the driver's parse.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeValue, encodeValue } from '../../../server/sql-codec';

const trip = (value: unknown): unknown => decodeValue(JSON.parse(JSON.stringify(encodeValue(value))));

/** Values a store record may hold: JSON's, plus bigints, bytes, dates, undefined, -0, NaN, odd strings. */
const stored: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  leaf: fc.oneof(
    fc.string({ unit: 'binary' }),
    fc.double(),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.bigInt(),
    fc.uint8Array({ maxLength: 8 }),
    fc.date({ noInvalidDate: true }),
    fc.constantFrom(-0, Number.NaN, Number.POSITIVE_INFINITY, '\u0000', '\ud800', '%u0041', '%25'),
  ),
  item: fc.oneof({ maxDepth: 3 }, tie('leaf'), tie('array'), tie('object')),
  array: fc.array(fc.oneof(tie('item'), fc.constant(undefined)), { maxLength: 4 }),
  object: fc.dictionary(
    fc.oneof(fc.string({ unit: 'binary', maxLength: 6 }), fc.constantFrom('$t', 'v', 'k\u0000', '__proto__')),
    tie('item'),
    { maxKeys: 4 },
  ),
})).item;

/** What a round trip gives back: the value without its object properties that are undefined. */
function expected(value: unknown): unknown {
  if (Array.isArray(value)) return Array.from(value, expected);
  if (value === null || typeof value !== 'object' || value instanceof Uint8Array || value instanceof Date)
    return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value))
    if (v !== undefined)
      Object.defineProperty(out, k, {
        value: expected(v),
        enumerable: true,
        writable: true,
        configurable: true,
      });
  return out;
}

describe('sql-codec', () => {
  it('round-trips every storable value, and never changes the value it encodes', () => {
    fc.assert(
      fc.property(stored, (value) => {
        const before = structuredClone(value);
        const back = trip(value);
        expect(back).toEqual(expected(value));
        expect(Object.is(back, -0)).toBe(Object.is(value, -0));
        expect(value).toEqual(before);
      }),
      { numRuns: 2_000 },
    );
  });

  it('returns a record that needs no tag as it is, and copies only the objects on the path to a tag', () => {
    const plain = {
      id: '7',
      amount: '1.000000',
      tags: ['a', 'b'],
      nested: { ok: true, n: 1 },
      gone: undefined,
    };
    expect(encodeValue(plain)).toBe(plain);
    const record = { id: '8', big: 5n, same: { a: 1 }, list: [1, { b: 2 }] };
    const encoded = encodeValue(record) as Record<string, unknown>;
    expect(encoded).not.toBe(record);
    expect(encoded['big']).toEqual({ $t: 'n', v: '5' });
    expect(encoded['same']).toBe(record.same);
    expect(encoded['list']).toBe(record.list);
    expect(encodeValue([1, undefined])).toEqual([1, { $t: 'u' }]);
    // A hole is an undefined item, as Array.from sees it.
    // eslint-disable-next-line no-sparse-arrays -- the hole is the point
    expect(encodeValue([1, , 3])).toEqual([1, { $t: 'u' }, 3]);
  });

  it('decodes in place: the parse comes back with only its tagged parts replaced', () => {
    const parsed = JSON.parse(
      JSON.stringify(encodeValue({ a: { b: 1 }, n: 2n, list: [{ c: 3 }] })),
    ) as Record<string, unknown>;
    const a = parsed['a'];
    const list = parsed['list'];
    const decoded = decodeValue(parsed) as Record<string, unknown>;
    expect(decoded).toBe(parsed);
    expect(decoded['a']).toBe(a);
    expect(decoded['list']).toBe(list);
    expect(decoded['n']).toBe(2n);
  });

  it('keeps a key named __proto__ as a property of the record, on both sides', () => {
    const record = JSON.parse('{"__proto__": {"x": 1n}}'.replace('1n', '1')) as Record<string, unknown>;
    const withBig = { ...record };
    Object.defineProperty(withBig, '__proto__', { value: { x: 1n }, enumerable: true });
    const back = trip(withBig) as Record<string, unknown>;
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(back, '__proto__')?.value).toEqual({ x: 1n });
  });
});
