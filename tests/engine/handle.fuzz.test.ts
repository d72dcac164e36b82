/**
 * G4-G6 under fuzzing: whatever arrives at `handle` (any method, any known or unknown path, any body, any
 * headers), the answer is an envelope with HTTP 200, and a 400-range answer changes no money.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fund, harness, signUp } from './harness';

const jsonish = fc.oneof(
  fc.jsonValue(),
  fc.string(),
  fc.constantFrom('{"a":', '{}', 'null', '[]', '{"amount":"1e400"}'),
  fc.dictionary(
    fc.constantFrom(
      'account',
      'amount',
      'level',
      'key',
      'username',
      'password',
      'network',
      'page',
      'limit',
      'extra',
    ),
    fc.oneof(
      fc.string(),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.constantFrom('-1', '1', '0.5'),
    ),
  ),
);

describe('handle under fuzzing', () => {
  it('G4 G5 G6 any request gets a 200 envelope; refused requests move no money', async () => {
    const h = await harness();
    const alice = await signUp(h, 'alice');
    await fund(h, alice.id, '1000');
    const paths = h.engine.diagnostics.paths().filter((p) => !p.startsWith('/test/'));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'POST', 'PUT', 'get', ''),
        fc.oneof(
          fc.constantFrom(...paths),
          fc.string(),
          fc.constantFrom('/api/../etc', '/API/USER/GETUSER/', '/uploads/x', '/uploads/%E0%A4%A'),
          fc.string().map((s) => `/uploads/${s}`),
        ),
        jsonish,
        fc.boolean(),
        async (method, path, body, authed) => {
          const before = await h.engine.diagnostics.rebuildBalances();
          const res = await h.engine.handle({
            method,
            path,
            headers: authed ? alice.headers : { Authorization: 'x' },
            body,
          });
          expect(res.status).toBe(200);
          expect(typeof res.body.code).toBe('number');
          expect(typeof res.body.msg).toBe('string');
          expect(res.body).toHaveProperty('data');
          expect(res.body.code, JSON.stringify({ method, path, body, res })).not.toBe(500);
          if (res.body.code >= 400 && res.body.code < 500) {
            expect(await h.engine.diagnostics.rebuildBalances()).toEqual(before);
          }
        },
      ),
      { numRuns: 400, seed: 7 },
    );
    expect(await h.engine.diagnostics.checkInvariants()).toEqual([]);
  });
});
