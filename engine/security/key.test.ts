import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { harnessCalls } from '../../tests/engine/harness';
import { assembleEngine } from '../engine';
import { manualClock } from '../index';
import { handler } from '../router';
import { domains, type Domain } from '../routes';
import { body } from '../schema';
import { requireKey } from './key';

/** A key-gated test call, as withdrawals use it. */
const gate: Domain = {
  name: 'test-gate',
  handlers: {
    '/test/gate': handler({
      auth: true,
      body: body({ key: z.string(), withdrawal: z.boolean() }),
      run: async (ctx, input) => {
        await requireKey(ctx, ctx.member, input.key, { withdrawal: input.withdrawal });
        return 'passed';
      },
    }),
  },
};

describe('requireKey (docs/RULES.md A7, A8)', () => {
  it('A8 after a key reset, withdrawal-gated actions answer 431 with data.until for 24 hours; others pass', async () => {
    const clock = manualClock(Date.UTC(2026, 0, 5));
    const engine = await assembleEngine(
      { clock, storage: 'memory', config: { pbkdf2Iterations: 1000, secrets: 'seeded' } },
      [...domains, gate],
    );
    const { call, callRaw, get } = harnessCalls(engine);
    const c = (await get('/index/index/verify')).data;
    const reg = {
      username: 'alice',
      password: 'secret1',
      repassword: 'secret1',
      key: 'key1',
      rekey: 'key1',
      email: 'a@example.com',
      question: 'q',
      answer: 'a',
      verify: c.code ?? '',
      verifyKey: c.key,
    };
    expect((await call('/api/index/register', reg)).code).toBe(0);
    const reset = { username: 'alice', password: 'secret1', answer: 'a', key: 'key2', rekey: 'key2' };
    expect((await call('/api/index/forgetKey', reset)).code).toBe(0);
    const u = JSON.parse(
      (await call('/api/index/login', { username: 'alice', password: 'secret1' })).data,
    ) as {
      id: string;
      token: string;
    };
    const alice = { headers: { Authorization: u.token, UserId: u.id } };
    const held = await callRaw('/test/gate', { key: 'key2', withdrawal: true }, alice);
    expect(held).toEqual({
      code: 431,
      msg: expect.any(String),
      data: { until: Math.floor(clock.now() / 1000) + 86_400 },
    });
    expect((await callRaw('/test/gate', { key: 'key2', withdrawal: false }, alice)).data).toBe('passed');
    expect((await callRaw('/test/gate', { key: 'key1', withdrawal: false }, alice)).code).toBe(3007);
    clock.advance(86_400_000);
    expect((await callRaw('/test/gate', { key: 'key2', withdrawal: true }, alice)).data).toBe('passed');
  });
});
