import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { harnessCalls, registration, T0 } from '../../tests/engine/harness';
import { creditDeposit } from '../deposits/credit';
import { assembleEngine } from '../engine';
import { manualClock } from '../index';
import { handler } from '../router';
import { domains, type Domain } from '../routes';
import { body } from '../schema';
import { reviewWithdrawal } from './review';

// A test-only domain that runs the review and the crediting again, as a duplicated job or a retried
// worker would, to prove the second run changes nothing.
const rerun: Domain = {
  name: 'test-rerun',
  handlers: {
    '/test/review': handler({
      auth: false,
      body: body({ id: z.string() }),
      run: async (ctx, input) => reviewWithdrawal(ctx, input.id),
    }),
    '/test/credit': handler({
      auth: false,
      body: body({ id: z.string() }),
      run: async (ctx, input) => creditDeposit(ctx, input.id),
    }),
  },
};

async function setup(config: Record<string, unknown> = {}) {
  const clock = manualClock(T0);
  const engine = await assembleEngine(
    { clock, seed: 3, storage: 'memory', config: { pbkdf2Iterations: 1_000, secrets: 'seeded', ...config } },
    [...domains, rerun],
  );
  const { call, callRaw, get } = harnessCalls(engine);
  const verify = (await get('/index/index/verify')).data;
  const signUp = { ...registration('alice'), verify: verify.code ?? '', verifyKey: verify.key };
  expect((await call('/api/index/register', signUp)).code).toBe(0);
  const login = await call('/api/index/login', { username: 'alice', password: 'secret1' });
  const u = JSON.parse(login.data) as { id: string; token: string };
  const alice = { headers: { Authorization: u.token, UserId: String(u.id) } };
  const balance = async () => {
    const data = (await call('/api/user/getuser', undefined, alice)).data;
    return { available: data.available, frozen: data.frozen };
  };
  /** Pays alice's deposit address on the demo chain; the caller lets the confirmations pass. */
  const pay = async (network: 'TRC20' | 'ERC20', amount: string) => {
    const { address } = (await call('/api/recharge/address', { network }, alice)).data;
    await call('/api/demo/chain/send', { network, address, amount }, alice);
  };
  /** Asks for a TRC-20 withdrawal to an address outside the demo, with alice's key. */
  const withdraw = (amount: string) =>
    call(
      '/api/withdraw/submit',
      {
        currency: 'USDT',
        network: 'TRC20',
        address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
        amount,
        key: 'key1',
      },
      alice,
    );
  return { engine, clock, call, callRaw, alice, balance, pay, withdraw };
}

describe('exactly-once settlement', () => {
  it('D2 a deposit credited by its job is not credited again by a second run', async () => {
    const { engine, clock, call, callRaw, alice, balance, pay } = await setup();
    await pay('TRC20', '100');
    const id = (await call('/api/recharge/list', {}, alice)).data.list[0]?.id;
    expect(id).toBeDefined();
    clock.advance(120_000);
    await engine.settle();
    expect(await balance()).toEqual({ available: '100', frozen: '0' });
    expect((await callRaw('/test/credit', { id })).data).toBe(false);
    expect(await balance()).toEqual({ available: '100', frozen: '0' });
    expect(await engine.diagnostics.checkInvariants()).toEqual([]);
  });

  it('W6 a rejected withdrawal releases its hold exactly once, however often review runs', async () => {
    const { engine, clock, callRaw, balance, pay, withdraw } = await setup({ withdrawReviewLimit: '10' });
    await pay('ERC20', '100');
    clock.advance(600_000);
    await engine.settle();
    const submit = await withdraw('60');
    expect(submit.code).toBe(911);
    const id = submit.data.id;
    // A run before the job: the review rule is deterministic, so this is the one real review.
    expect((await callRaw('/test/review', { id })).data).toBe(true);
    expect(await balance()).toEqual({ available: '100', frozen: '0' });
    expect((await callRaw('/test/review', { id })).data).toBe(false);
    clock.advance(60_000);
    await engine.settle();
    expect(await balance()).toEqual({ available: '100', frozen: '0' });
    expect(await engine.diagnostics.checkInvariants()).toEqual([]);
  });

  it('W6 a sent withdrawal is captured exactly once', async () => {
    const { engine, clock, callRaw, balance, pay, withdraw } = await setup();
    await pay('TRC20', '100');
    clock.advance(120_000);
    await engine.settle();
    const submit = await withdraw('60');
    const id = submit.data.id;
    clock.advance(60_000);
    await engine.settle();
    expect((await callRaw('/test/review', { id })).data).toBe(false);
    expect(await balance()).toEqual({ available: '40', frozen: '0' });
    const balances = await engine.diagnostics.rebuildBalances();
    expect(balances.get('platform:fees|USDT')).toBe(1_000_000n);
    expect(balances.get('world:TRC20|USDT')).toBe(-100_000_000n + 59_000_000n);
    expect(await engine.diagnostics.checkInvariants()).toEqual([]);
  });
});
